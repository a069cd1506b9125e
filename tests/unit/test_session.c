/* test_session.c - the resume-or-start policy (quiz_session_open) and the
 * closed-book rule (quiz_session_blocks_lesson) on a real SQLite file
 * with the fixture banks: start, resume (in the language asked for now
 * when its bank has all the test's questions, else in the test's own),
 * a conflicting test handed back, nothing to ask, and the
 * race with another process that starts a test between the look and the
 * start, forced with the WORKBENCH_TEST_HOLD "start-begin" hold in a
 * forked child (no sleeping: the two processes meet on fifos). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/answers.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/quizbank.h"
#include "core/session.h"
#include "core/store.h"
#include "base/testhook.h"
#include "base/wb.h"

#define CHAPTER "00-fixture"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	snprintf(dir, sizeof dir, "/tmp/wb-session-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct store *open_db(const char *name)
{
	char path[128], err[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct store *s;
	if (store_open(path, &s, err, sizeof err) != 0)
		fail_msg("%s", err);
	return s;
}

static struct quiz_session_req req_for(const char *chapter, const char *lang)
{
	return (struct quiz_session_req){
		.chapter = chapter,
		.lang = lang,
		.closed_book = 1,
		.resume = 1,
		.content_root = WB_TEST_FIXTURES,
	};
}

static void test_start_then_resume(void **state)
{
	(void)state;
	struct store *s = open_db("resume.db");
	struct quiz_session_req req = req_for(CHAPTER, "zh");
	req.limit = 2;
	struct quiz_session_opened o;
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	assert_false(o.resumed);
	assert_null(o.conflict);
	assert_string_equal(o.bank->lang, "zh");
	assert_string_equal(o.ss->test->chapter, CHAPTER);
	assert_string_equal(o.ss->test->lang, "zh");
	assert_int_equal(o.ss->test->n, 2);
	assert_non_null(quiz_session_current(o.ss));
	char *uid = wb_xstrdup(o.ss->test->uid);
	quiz_session_opened_clear(&o);
	assert_null(o.ss);

	/* Asked again in English: the running test is resumed with the
	 * English bank (it has every question), in its own order and
	 * limit; the stored test keeps its language. */
	req = req_for(CHAPTER, "en");
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	assert_true(o.resumed);
	assert_string_equal(o.ss->test->uid, uid);
	assert_string_equal(o.bank->lang, "en");
	assert_string_equal(o.ss->test->lang, "zh");
	assert_int_equal(o.ss->test->n, 2);
	for (size_t i = 0; i < o.ss->test->n; i++)
		assert_ptr_equal(o.ss->q[i], quiz_bank_find(o.bank, o.ss->test->questions[i]));
	quiz_session_opened_clear(&o);
	free(uid);
	store_close(s);
}

/* Writes path with text, or fails the test. */
static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		fail_msg("cannot write %s", path);
}

static void test_resume_keeps_own_lang_when_bank_lacks(void **state)
{
	(void)state;
	/* The instructor adds a Chinese-only question to the chapter: a
	 * whole-chapter test in Chinese asks it, the English bank lacks it. */
	char inst[128], path[192];
	snprintf(inst, sizeof inst, "%s/instructor", dir);
	snprintf(path, sizeof path, "%s/zh", inst);
	assert_int_equal(mkdir(inst, 0700), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/zh/00-fixture.md", inst);
	write_file(path, "# 自测：测试章节\n\n## [fixture-zh-only] 只有中文的题？\nkind: recall\n\n"
			 "### Answer\n是的。\n\n### Rubric\n- 1: 只有中文\n");
	struct store *s = open_db("keep.db");
	struct quiz_session_req req = req_for(CHAPTER, "zh");
	req.instructor_dir = inst;
	struct quiz_session_opened o;
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	assert_false(o.resumed);
	size_t n = o.ss->test->n;
	int has = 0;
	for (size_t i = 0; i < n; i++)
		has |= !strcmp(o.ss->test->questions[i], "fixture-zh-only");
	assert_true(has);
	quiz_session_opened_clear(&o);

	req.lang = "en";
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	assert_true(o.resumed);
	assert_string_equal(o.bank->lang, "zh");
	assert_int_equal(o.ss->test->n, n);
	for (size_t i = 0; i < n; i++)
		assert_non_null(o.ss->q[i]);
	quiz_session_opened_clear(&o);
	store_close(s);
}

static void test_other_test_is_a_conflict(void **state)
{
	(void)state;
	struct store *s = open_db("conflict.db");
	struct quiz_session_req req = req_for(CHAPTER, "en");
	struct quiz_session_opened o;
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	char *uid = wb_xstrdup(o.ss->test->uid);
	quiz_session_opened_clear(&o);

	/* A review while the chapter test runs: the running test comes back
	 * for the caller's message, nothing is started. */
	req = req_for(NULL, "en");
	assert_int_equal(quiz_session_open(s, &req, &o), WB_ECONFLICT);
	assert_int_equal(o.step, QUIZ_OPEN_LOOK);
	assert_null(o.ss);
	assert_null(o.bank);
	assert_non_null(o.conflict);
	assert_string_equal(o.conflict->uid, uid);
	assert_string_equal(o.conflict->chapter, CHAPTER);
	quiz_session_opened_clear(&o);

	req = req_for("01-other", "en");
	assert_int_equal(quiz_session_open(s, &req, &o), WB_ECONFLICT);
	assert_string_equal(o.conflict->uid, uid);
	quiz_session_opened_clear(&o);

	/* resume 0: even the same test is handed back, not resumed. */
	req = req_for(CHAPTER, "en");
	req.resume = 0;
	assert_int_equal(quiz_session_open(s, &req, &o), WB_ECONFLICT);
	assert_string_equal(o.conflict->uid, uid);
	quiz_session_opened_clear(&o);

	struct quiz_test *run = NULL;
	assert_int_equal(answers_running_test(s, &run), 0);
	assert_true(quiz_session_is_same(run, CHAPTER));
	assert_false(quiz_session_is_same(run, NULL));
	assert_false(quiz_session_is_same(run, "01-other"));
	assert_false(quiz_session_is_same(NULL, CHAPTER));
	quiz_test_free(run);
	free(uid);
	store_close(s);
}

static void test_nothing_to_ask(void **state)
{
	(void)state;
	struct store *s = open_db("empty.db");
	struct quiz_session_opened o;
	struct quiz_session_req req = req_for("99-no-questions", "en");
	assert_int_equal(quiz_session_open(s, &req, &o), WB_ENOENT);
	assert_int_equal(o.step, QUIZ_OPEN_START);
	assert_null(o.ss);
	assert_null(o.bank);
	/* A review with nothing graded and no new questions allowed
	 * (--new-per-day 0): nothing due. */
	assert_int_equal(answers_set_new_per_day(0), 0);
	req = req_for(NULL, "en");
	assert_int_equal(quiz_session_open(s, &req, &o), WB_ENOENT);
	assert_int_equal(o.step, QUIZ_OPEN_START);
	assert_int_equal(answers_set_new_per_day(ANSWERS_NEW_PER_DAY), 0);
	struct quiz_test *run = NULL;
	assert_int_equal(answers_running_test(s, &run), WB_ENOENT);
	store_close(s);
}

/* Grades the current question Again. */
static void grade_current(struct quiz_session *ss)
{
	struct answer a = {0};
	a.text = wb_xstrdup("1");
	a.grade = GRADE_AGAIN;
	a.shown_at = a.revealed_at = a.graded_at = answers_now_ms();
	assert_int_equal(quiz_session_grade(ss, &a), 0);
	answer_clear(&a);
}

/* A shorter chapter test: one question from each run of the bank order
 * (the fixture's 6 in 3 runs of 2), weakest first; on resume a limit cuts
 * what is still to ask; the pool is the chapter's size. */
static void test_limit_draws_and_trims(void **state)
{
	(void)state;
	struct store *s = open_db("limit.db");
	struct quiz_session_req req = req_for(CHAPTER, "en");
	size_t pool = 0;
	assert_int_equal(quiz_session_pool(s, &req, &pool), 0);
	assert_int_equal(pool, 6);
	struct quiz_bank *bank = NULL;
	assert_int_equal(quiz_bank_open(WB_TEST_FIXTURES, NULL, "en", &bank), 0);
	const struct quiz_question **qs = NULL;
	size_t n = quiz_bank_chapter(bank, CHAPTER, &qs);
	assert_int_equal(n, 6);
	/* Make the second question weak: graded Again in an earlier test. */
	struct quiz_session *ss;
	assert_int_equal(quiz_session_start(s, "chapter", CHAPTER, "en", 1, qs + 1, 1, 0, 1,
					    answers_now_ms(), &ss),
			 0);
	grade_current(ss);
	assert_int_equal(quiz_session_finish(ss, answers_now_ms()), 0);
	quiz_session_free(ss);
	for (uint64_t seed = 1; seed <= 8; seed++) {
		assert_int_equal(quiz_session_start(s, "chapter", CHAPTER, "en", 1, qs, n, 3, seed,
						    answers_now_ms(), &ss),
				 0);
		assert_int_equal(ss->test->n, 3);
		assert_string_equal(ss->test->questions[0], qs[1]->id); /* the weak one, first */
		int runs[3] = {0, 0, 0}; /* one from each later run, in either order */
		for (size_t j = 1; j < 3; j++)
			for (size_t i = 2; i < 6; i++)
				if (!strcmp(ss->test->questions[j], qs[i]->id))
					runs[i / 2]++;
		assert_int_equal(runs[1], 1);
		assert_int_equal(runs[2], 1);
		assert_int_equal(quiz_session_abandon(ss, answers_now_ms()), 0);
		quiz_session_free(ss);
	}
	/* A whole test, one graded, resumed with limit 2: 1 + 2 are left. */
	struct quiz_session_opened o;
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	grade_current(o.ss);
	quiz_session_opened_clear(&o);
	req.limit = 2;
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	assert_int_equal(o.resumed, 1);
	assert_int_equal(o.trimmed, 1);
	assert_int_equal(o.ss->test->n, 3);
	assert_int_equal(quiz_session_answered(o.ss), 1);
	assert_non_null(quiz_session_current(o.ss));
	quiz_session_opened_clear(&o);
	free(qs);
	quiz_bank_free(bank);
	store_close(s);
}

/* A bank's closed-book core comes first: with two questions marked core,
 * a 2-question test is exactly those two, a 3-question test both of them
 * and one other; without marks the covering draw is unchanged (above). */
static void test_core_first(void **state)
{
	(void)state;
	struct store *s = open_db("core.db");
	struct quiz_bank *bank = NULL;
	assert_int_equal(quiz_bank_open(WB_TEST_FIXTURES, NULL, "en", &bank), 0);
	const struct quiz_question **qs = NULL;
	size_t n = quiz_bank_chapter(bank, CHAPTER, &qs);
	assert_int_equal(n, 6);
	((struct quiz_question *)qs[1])->core = 1; /* the test owns this bank */
	((struct quiz_question *)qs[4])->core = 1;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		for (size_t limit = 2; limit <= 3; limit++) {
			struct quiz_session *ss;
			assert_int_equal(quiz_session_start(s, "chapter", CHAPTER, "en", 1, qs, n,
							    limit, seed, answers_now_ms(), &ss),
					 0);
			assert_int_equal(ss->test->n, limit);
			int core = 0;
			for (size_t j = 0; j < limit; j++)
				core += !strcmp(ss->test->questions[j], qs[1]->id) ||
					!strcmp(ss->test->questions[j], qs[4]->id);
			assert_int_equal(core, 2);
			if (limit == 3) /* the core two come first */
				assert_true(strcmp(ss->test->questions[2], qs[1]->id) &&
					    strcmp(ss->test->questions[2], qs[4]->id));
			assert_int_equal(quiz_session_abandon(ss, answers_now_ms()), 0);
			quiz_session_free(ss);
		}
	}
	free(qs);
	quiz_bank_free(bank);
	store_close(s);
}

/* A draft is kept per question of the test, replaced, given back, and
 * removed by grading; it is never an answer. */
static void test_draft(void **state)
{
	(void)state;
	struct store *s = open_db("draft.db");
	struct quiz_session_req req = req_for(CHAPTER, "en");
	struct quiz_session_opened o;
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	char *text = NULL;
	assert_int_equal(quiz_session_draft(o.ss, &text), 0);
	assert_null(text);
	assert_int_equal(quiz_session_save_draft(o.ss, "half", 1), 0);
	assert_int_equal(quiz_session_save_draft(o.ss, "half an answer", 2), 0);
	quiz_session_opened_clear(&o);
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	assert_int_equal(quiz_session_draft(o.ss, &text), 0);
	assert_string_equal(text, "half an answer");
	free(text);
	size_t count = 1;
	assert_int_equal(answers_count(s, NULL, &count), 0);
	assert_int_equal(count, 0);
	grade_current(o.ss);
	assert_int_equal(quiz_session_undo(o.ss, NULL), 0); /* back to it: no draft now */
	assert_int_equal(quiz_session_draft(o.ss, &text), 0);
	assert_null(text);
	quiz_session_opened_clear(&o);
	store_close(s);
}

static void test_blocks_lesson(void **state)
{
	(void)state;
	struct store *s = open_db("blocks.db");
	struct quiz_test *t = (struct quiz_test *)1;
	assert_int_equal(quiz_session_blocks_lesson(s, CHAPTER, &t), 0);
	assert_null(t); /* no test: open */

	struct quiz_session_req req = req_for(CHAPTER, "en");
	struct quiz_session_opened o;
	assert_int_equal(quiz_session_open(s, &req, &o), 0);
	assert_int_equal(quiz_session_blocks_lesson(s, CHAPTER, &t), 0);
	assert_null(t); /* nothing answered yet: the lesson stays open */
	grade_current(o.ss);
	assert_int_equal(quiz_session_blocks_lesson(s, CHAPTER, &t), 0);
	assert_non_null(t);
	assert_string_equal(t->uid, o.ss->test->uid);
	assert_int_equal(t->n, o.ss->test->n);
	assert_int_equal(t->answered, 1);
	quiz_test_free(t);
	assert_int_equal(quiz_session_blocks_lesson(s, "01-other", &t), 0);
	assert_null(t); /* another chapter's lesson stays open */

	assert_int_equal(quiz_session_abandon(o.ss, answers_now_ms()), 0);
	assert_int_equal(quiz_session_blocks_lesson(s, CHAPTER, &t), 0);
	assert_null(t); /* an ended test closes nothing */
	quiz_session_opened_clear(&o);
	store_close(s);
}

/* The child of the race tests: opens a CHAPTER test with the first
 * "start-begin" of its life held on the fifos at hold, and exits with 0
 * when it resumed the test the parent started meanwhile (want_resume) or
 * was handed it as a conflict (!want_resume: the parent's review), else
 * 10 - the error code. */
static void race_child(const char *db, const char *hold, int want_resume)
{
	testhook_reset();
	setenv("WORKBENCH_TEST", "1", 1); /* the seams are off without it */
	setenv("WORKBENCH_TEST_HOLD", "start-begin:1", 1);
	setenv("WORKBENCH_TEST_HOLD_FIFO", hold, 1);
	struct store *s = open_db(db);
	struct quiz_session_req req = req_for(CHAPTER, "en");
	struct quiz_session_opened o;
	int err = quiz_session_open(s, &req, &o);
	int ok = want_resume ? err == 0 && o.resumed
			     : err == WB_ECONFLICT && o.conflict && !o.conflict->chapter &&
				       !strcmp(o.conflict->kind, "review");
	quiz_session_opened_clear(&o);
	store_close(s);
	_exit(ok ? 0 : 10 - err);
}

/* Runs race_child and, while it is held between its look (no test) and
 * its start, starts here a test of CHAPTER (want_resume) or a review of
 * the same questions.  Returns the child's exit status. */
static int race(const char *db, int want_resume)
{
	char hold[128], held[160], go[160];
	snprintf(hold, sizeof hold, "%s/%s-hold", dir, db);
	snprintf(held, sizeof held, "%s.held", hold);
	snprintf(go, sizeof go, "%s.go", hold);
	assert_int_equal(mkfifo(held, 0600), 0);
	assert_int_equal(mkfifo(go, 0600), 0);
	struct store *s = open_db(db); /* schema first, so the child only reads it */
	alarm(120);		       /* bounds a failure only: a child that never holds */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		race_child(db, hold, want_resume);
	FILE *f = fopen(held, "r");
	assert_non_null(f);
	char line[64] = "";
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_string_equal(line, "start-begin 1\n");

	struct quiz_bank *bank = NULL;
	assert_int_equal(quiz_bank_open(WB_TEST_FIXTURES, NULL, "en", &bank), 0);
	const struct quiz_question **qs = NULL;
	size_t n = quiz_bank_chapter(bank, CHAPTER, &qs);
	struct quiz_session *ss = NULL;
	assert_int_equal(quiz_session_start(s, want_resume ? "chapter" : "review",
					    want_resume ? CHAPTER : NULL, "en", 1, qs, n, 0, 7,
					    answers_now_ms(), &ss),
			 0);
	free(qs);
	f = fopen(go, "w");
	assert_non_null(f);
	fputs("go\n", f);
	fclose(f);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	alarm(0);
	assert_true(WIFEXITED(status));
	quiz_session_free(ss);
	quiz_bank_free(bank);
	store_close(s);
	return WEXITSTATUS(status);
}

static void test_race_then_resume(void **state)
{
	(void)state;
	/* The child's start sees the parent's test inside its transaction
	 * (WB_ECONFLICT), looks again and resumes it. */
	assert_int_equal(race("race-same.db", 1), 0);
}

static void test_race_then_conflict(void **state)
{
	(void)state;
	/* The test started meanwhile is a review: it is handed back after
	 * the second look, and the child starts nothing. */
	assert_int_equal(race("race-other.db", 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_then_resume),
		cmocka_unit_test(test_resume_keeps_own_lang_when_bank_lacks),
		cmocka_unit_test(test_other_test_is_a_conflict),
		cmocka_unit_test(test_nothing_to_ask),
		cmocka_unit_test(test_blocks_lesson),
		cmocka_unit_test(test_limit_draws_and_trims),
		cmocka_unit_test(test_core_first),
		cmocka_unit_test(test_draft),
		cmocka_unit_test(test_race_then_resume),
		cmocka_unit_test(test_race_then_conflict),
	};
	return cmocka_run_group_tests_name("session", tests, setup, teardown);
}
