/* test_answers.c - graded answers on a real SQLite file: schema, saving
 * with the schedule, test sessions (shuffled order kept across reopen,
 * resume, undo, one running test), summaries, due lists and histograms,
 * mastery, and export/import round trips in CSV and JSON.  Two
 * connections to one file stand for two workbench windows: a grade,
 * undo or start that another window overtook is refused as
 * WB_ECONFLICT with nothing written, and a database held past the busy
 * timeout is WB_EBUSY, again with nothing written.  Every time is passed
 * in; nothing waits on the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "core/answers.h"
#include "core/exchange.h"
#include "core/progress.h"
#include "core/session.h"
#include "core/quizbank.h"
#include "core/sched.h"
#include "core/store.h"
#include "base/wb.h"
#include "testlib.h"

#define T0_MS  1767268800000LL /* 2026-01-01 12:00:00 UTC */
#define DAY_MS 86400000LL

static char dir[64];
static struct quiz_bank *bank;

static int setup(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	if (testlib_tmpdir("answers", dir, sizeof dir) != 0)
		return -1;
	const char *dirs[] = {WB_TEST_FIXTURES "/quizzes"};
	return quiz_bank_load(dirs, 1, "en", &bank);
}

static int teardown(void **state)
{
	(void)state;
	quiz_bank_free(bank);
	return testlib_rmtree(dir) == 0 ? 0 : -1;
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

static const struct quiz_question *Q(const char *id)
{
	const struct quiz_question *q = quiz_bank_find(bank, id);
	assert_non_null(q);
	return q;
}

/* A graded answer for question id at time t (ms). */
static void fill(struct answer *a, const char *id, int grade, int points, int64_t t)
{
	const struct quiz_question *q = Q(id);
	memset(a, 0, sizeof *a);
	a->question = wb_xstrdup(id);
	a->chapter = wb_xstrdup(q->file->chapter);
	a->lang = wb_xstrdup("en");
	a->kind = wb_xstrdup(quiz_kind_name(q->kind));
	a->shown_at = t - 30000;
	a->revealed_at = t - 10000;
	a->graded_at = t;
	a->points = points;
	a->max_points = q->max_points;
	a->grade = grade;
	a->closed_book = 1;
}

static int64_t count_rows(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void test_schema(void **state)
{
	(void)state;
	struct store *s = open_db("schema.db");
	assert_int_equal(count_rows(s, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	assert_true(STORE_SCHEMA_VERSION >= 3);
	assert_int_equal(count_rows(s,
				    "SELECT COUNT(*) FROM sqlite_master WHERE name IN "
				    "('quiz_test','quiz_test_item','quiz_answer','quiz_schedule')"),
			 4);
	store_close(s);
}

static void test_save_updates_schedule(void **state)
{
	(void)state;
	struct store *s = open_db("save.db");
	struct answer a;
	fill(&a, "fixture-notify", GRADE_GOT, 3, T0_MS);
	a.text = wb_xstrdup("re-list, then check \"smallest\",\nsecond line 中文");
	a.ticked = wb_xstrdup("1,2");
	assert_int_equal(answers_save(s, &a), 0);
	assert_non_null(a.uid);
	assert_int_equal(strlen(a.uid), 32);
	struct sched_state st;
	assert_int_equal(answers_schedule_get(s, "fixture-notify", &st), 0);
	assert_int_equal(st.reps, 1);
	/* Got it: due at the start (4 am) of the third day after. */
	assert_int_equal(st.due, sched_day_begin(sched_day(T0_MS / 1000) + 3));
	/* The same uid twice is refused: a graded answer is never overwritten. */
	assert_int_equal(answers_save(s, &a), WB_EINVAL);
	answer_clear(&a);

	/* Bad fields are refused before anything is written. */
	fill(&a, "fixture-notify", 4, 0, T0_MS);
	assert_int_equal(answers_save(s, &a), WB_EINVAL);
	answer_clear(&a);
	fill(&a, "fixture-notify", GRADE_GOT, 9, T0_MS);
	assert_int_equal(answers_save(s, &a), WB_EINVAL);
	answer_clear(&a);
	size_t n;
	assert_int_equal(answers_count(s, NULL, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(answers_schedule_get(s, "fixture-years", &st), WB_ENOENT);
	store_close(s);
}

static void start_chapter(struct store *s, uint64_t seed, struct quiz_session **ss)
{
	const struct quiz_question **qs;
	size_t n = quiz_bank_chapter(bank, "00-fixture", &qs);
	assert_int_equal(n, 6);
	assert_int_equal(
		quiz_session_start(s, "chapter", "00-fixture", "en", 1, qs, n, 0, seed, T0_MS, ss),
		0);
	free(qs);
}

static void grade_current(struct quiz_session *ss, int grade, int64_t t)
{
	const struct quiz_question *q = quiz_session_current(ss);
	assert_non_null(q);
	struct answer a = {0};
	a.shown_at = t - 20000;
	a.revealed_at = t - 5000;
	a.graded_at = t;
	a.grade = grade;
	a.points = grade == GRADE_GOT ? q->max_points : grade == GRADE_PARTLY ? 1 : 0;
	if (q->kind == QK_RECALL)
		a.ticked = wb_xstrdup(grade == GRADE_GOT ? "1,2" : "");
	a.text = wb_xstrdup("my answer");
	assert_int_equal(quiz_session_grade(ss, &a), 0);
	answer_clear(&a);
}

static void test_session_order_resume_undo(void **state)
{
	(void)state;
	struct store *s = open_db("session.db");
	struct quiz_session *ss;
	start_chapter(s, 42, &ss);
	char *order[6];
	for (int i = 0; i < 6; i++)
		order[i] = wb_xstrdup(ss->test->questions[i]);
	/* Shuffled: with this seed not the bank order. */
	int same = 1;
	for (int i = 0; i < 6; i++)
		same &= !strcmp(order[i], bank->q[i]->id);
	assert_false(same);
	/* Another test cannot start while this one runs. */
	struct quiz_session *other;
	const struct quiz_question *one[] = {Q("fixture-years")};
	assert_int_equal(
		quiz_session_start(s, "review", NULL, "en", 1, one, 1, 0, 1, T0_MS, &other),
		WB_ECONFLICT);

	grade_current(ss, GRADE_GOT, T0_MS + 1000);
	grade_current(ss, GRADE_AGAIN, T0_MS + 2000);
	assert_int_equal(ss->cur, 2);
	quiz_session_free(ss);
	store_close(s);

	/* Reopen: same order, resumes at the third question. */
	s = open_db("session.db");
	struct quiz_test *t;
	assert_int_equal(answers_running_test(s, &t), 0);
	assert_int_equal(t->answered, 2);
	assert_true(quiz_test_covers(t, "00-fixture"));
	assert_false(quiz_test_covers(t, "01-locks-ids-leases"));
	quiz_test_free(t);
	assert_int_equal(quiz_session_resume(s, bank, &ss), 0);
	for (int i = 0; i < 6; i++)
		assert_string_equal(ss->test->questions[i], order[i]);
	assert_int_equal(ss->cur, 2);
	assert_string_equal(quiz_session_current(ss)->id, order[2]);
	assert_int_equal(quiz_session_answered(ss), 2);

	/* Undo: the second answer goes, its schedule with it. */
	struct sched_state before;
	assert_int_equal(answers_schedule_get(s, order[1], &before), 0);
	struct answer undone;
	assert_int_equal(quiz_session_undo(ss, &undone), 0);
	assert_string_equal(undone.question, order[1]);
	assert_int_equal(undone.grade, GRADE_AGAIN);
	assert_string_equal(undone.text, "my answer");
	answer_clear(&undone);
	assert_int_equal(ss->cur, 1);
	struct sched_state after;
	assert_int_equal(answers_schedule_get(s, order[1], &after), WB_ENOENT);
	/* Undo again, then once more with nothing left. */
	assert_int_equal(quiz_session_undo(ss, NULL), 0);
	assert_int_equal(ss->cur, 0);
	assert_int_equal(quiz_session_undo(ss, NULL), WB_ENOENT);

	for (int i = 0; i < 6; i++)
		grade_current(ss, i % 3 == 0 ? GRADE_AGAIN : GRADE_GOT, T0_MS + 10000 + i * 1000);
	assert_null(quiz_session_current(ss));
	assert_int_equal(quiz_session_finish(ss, T0_MS + 20000), 0);
	assert_int_equal(answers_running_test(s, &t), WB_ENOENT);

	struct answers_summary sum;
	assert_int_equal(answers_test_summary(s, ss->test->uid, &sum), 0);
	assert_int_equal(sum.n, 6);
	assert_int_equal(sum.grades[GRADE_AGAIN], 2);
	assert_int_equal(sum.grades[GRADE_GOT], 4);
	assert_int_equal(sum.time_ms, 6 * 20000);
	/* Weakest first: the two Again answers lead. */
	assert_int_equal(sum.items[0].grade, GRADE_AGAIN);
	assert_int_equal(sum.items[1].grade, GRADE_AGAIN);
	assert_int_equal(sum.items[5].grade, GRADE_GOT);
	int max = 0;
	for (size_t i = 0; i < 6; i++)
		max += Q(sum.items[i].question)->max_points;
	assert_int_equal(sum.max_points, max);
	answers_summary_free(&sum);
	quiz_session_free(ss);
	for (int i = 0; i < 6; i++)
		free(order[i]);
	store_close(s);
}

static void test_abandon_and_limit(void **state)
{
	(void)state;
	struct store *s = open_db("abandon.db");
	const struct quiz_question **qs;
	size_t n = quiz_bank_chapter(bank, "00-fixture", &qs);
	struct quiz_session *ss;
	assert_int_equal(
		quiz_session_start(s, "chapter", "00-fixture", "en", 1, qs, n, 3, 7, T0_MS, &ss),
		0);
	assert_int_equal(ss->test->n, 3);
	grade_current(ss, GRADE_GOT, T0_MS + 1000);
	assert_int_equal(quiz_session_abandon(ss, T0_MS + 2000), 0);
	quiz_session_free(ss);
	struct quiz_test *t;
	assert_int_equal(answers_running_test(s, &t), WB_ENOENT);
	assert_int_equal(count_rows(s, "SELECT COUNT(*) FROM quiz_answer"), 1);
	assert_int_equal(count_rows(s, "SELECT COUNT(*) FROM quiz_test WHERE state='abandoned'"),
			 1);
	/* A new test may start now; abandoning whatever runs works too. */
	assert_int_equal(
		quiz_session_start(s, "chapter", "00-fixture", "en", 1, qs, n, 0, 8, T0_MS, &ss),
		0);
	assert_int_equal(answers_abandon_running(s, T0_MS + 5000), 0);
	assert_int_equal(answers_running_test(s, &t), WB_ENOENT);
	quiz_session_free(ss);
	free(qs);
	store_close(s);
}

static void test_resume_skips_removed_questions(void **state)
{
	(void)state;
	struct store *s = open_db("removed.db");
	struct quiz_session *ss;
	start_chapter(s, 5, &ss);
	quiz_session_free(ss);
	/* The bank lost a question since: the test skips it. */
	sqlite3_exec(store_db(s), "UPDATE quiz_test_item SET question='gone-away' WHERE pos=0",
		     NULL, NULL, NULL);
	assert_int_equal(quiz_session_resume(s, bank, &ss), 0);
	assert_null(ss->q[0]);
	assert_int_equal(ss->cur, 1);
	quiz_session_free(ss);
	store_close(s);
}

static void test_due_and_mastery(void **state)
{
	(void)state;
	struct store *s = open_db("due.db");
	struct answer a;
	/* Scheduled questions only: new ones in a review are test_progress.c's. */
	assert_int_equal(answers_set_new_per_day(0), 0);
	/* Again -> due tomorrow; Got it -> in 3 days; Partly -> ~1 day. */
	fill(&a, "fixture-notify", GRADE_AGAIN, 0, T0_MS);
	assert_int_equal(answers_save(s, &a), 0);
	answer_clear(&a);
	fill(&a, "fixture-seq-slots", GRADE_GOT, 1, T0_MS);
	assert_int_equal(answers_save(s, &a), 0);
	answer_clear(&a);
	fill(&a, "fixture-fencing", GRADE_GOT, 3, T0_MS);
	assert_int_equal(answers_save(s, &a), 0);
	answer_clear(&a);
	/* Someone else's answer never schedules anything here. */
	fill(&a, "fixture-years", GRADE_GOT, 1, T0_MS);
	a.learner = wb_xstrdup("ann");
	assert_int_equal(answers_save(s, &a), 0);
	answer_clear(&a);

	int64_t now = T0_MS / 1000;
	const struct quiz_question **due;
	size_t n;
	assert_int_equal(answers_due(s, bank, answers_day_start(now, 1), &due, &n), 0);
	assert_int_equal(n, 0);
	free(due);
	assert_int_equal(answers_due(s, bank, answers_day_start(now, 2), &due, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(due[0]->id, "fixture-notify");
	free(due);
	assert_int_equal(answers_due(s, bank, answers_day_start(now, 10), &due, &n), 0);
	assert_int_equal(n, 3);
	free(due);

	int counts[14];
	assert_int_equal(answers_due_days(s, bank, now, 14, counts), 0);
	assert_int_equal(counts[0], 0);
	assert_int_equal(counts[1], 1);
	assert_int_equal(counts[3], 2);
	int total = 0;
	for (int i = 0; i < 14; i++)
		total += counts[i];
	assert_int_equal(total, 3);
	/* Ten days later everything is overdue: all of it counts today. */
	assert_int_equal(answers_due_days(s, bank, now + 10 * 86400, 14, counts), 0);
	assert_int_equal(counts[0], 3);

	int got, all;
	assert_int_equal(answers_mastery(s, bank, "00-fixture", &got, &all), 0);
	assert_int_equal(all, 6);
	assert_int_equal(got, 2);

	struct answers_test_points *h;
	assert_int_equal(answers_test_history(s, &h, &n), 0);
	assert_int_equal(n, 0); /* none of these was in a test */
	answers_test_history_free(h, n);

	struct answers_qstat *qs;
	assert_int_equal(answers_question_stats(s, &qs, &n), 0);
	assert_int_equal(n, 4); /* every learner counts here */
	answers_question_stats_free(qs, n);
	store_close(s);
	answers_set_new_per_day(ANSWERS_NEW_PER_DAY);
}

static char *export_string(struct store *s, enum answers_format fmt, const char *learner)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(answers_export(s, f, fmt, learner), 0);
	fclose(f);
	return buf;
}

static void round_trip(enum answers_format fmt, const char *a_name, const char *b_name)
{
	struct store *a = open_db(a_name);
	struct quiz_session *ss;
	start_chapter(a, 99, &ss);
	for (int i = 0; i < 6; i++)
		grade_current(ss, 1 + i % 3, T0_MS + i * 1000);
	quiz_session_finish(ss, T0_MS + 9000);
	quiz_session_free(ss);
	/* Text that needs quoting, and Chinese. */
	struct answer x;
	fill(&x, "fixture-notify", GRADE_PARTLY, 2, T0_MS + DAY_MS);
	x.text = wb_xstrdup("a, \"quoted\"\r\nsecond line, 中文\ttab");
	x.ticked = wb_xstrdup("1");
	x.revealed_at = 0;
	assert_int_equal(answers_save(a, &x), 0);
	answer_clear(&x);
	char *out = export_string(a, fmt, NULL);

	struct store *b = open_db(b_name);
	size_t added, skipped;
	char err[256];
	assert_int_equal(answers_import(b, out, strlen(out), &added, &skipped, err, sizeof err), 0);
	assert_int_equal(added, 7);
	assert_int_equal(skipped, 0);
	/* Importing again adds nothing. */
	assert_int_equal(answers_import(b, out, strlen(out), &added, &skipped, err, sizeof err), 0);
	assert_int_equal(added, 0);
	assert_int_equal(skipped, 7);
	char *again = export_string(b, fmt, NULL);
	assert_string_equal(out, again);
	/* The schedules were replayed from the imported history. */
	for (size_t i = 0; i < bank->n; i++) {
		struct sched_state sa, sb;
		int ra = answers_schedule_get(a, bank->q[i]->id, &sa);
		int rb = answers_schedule_get(b, bank->q[i]->id, &sb);
		assert_int_equal(ra, rb);
		assert_int_equal(sa.due, sb.due);
		assert_true(sa.stability == sb.stability);
	}
	assert_int_equal(
		count_rows(b, "SELECT COUNT(*) FROM quiz_answer WHERE revealed_at IS NULL"), 1);
	free(out);
	free(again);
	store_close(a);
	store_close(b);
}

static void test_round_trip_csv(void **state)
{
	(void)state;
	round_trip(ANSWERS_CSV, "csv-a.db", "csv-b.db");
}

static void test_round_trip_json(void **state)
{
	(void)state;
	round_trip(ANSWERS_JSON, "json-a.db", "json-b.db");
}

static void test_import_learner_and_errors(void **state)
{
	(void)state;
	struct store *a = open_db("learner-a.db");
	struct answer x;
	fill(&x, "fixture-fencing", GRADE_GOT, 3, T0_MS);
	assert_int_equal(answers_save(a, &x), 0);
	answer_clear(&x);
	char *out = export_string(a, ANSWERS_CSV, "ann");
	assert_non_null(strstr(out, ",ann,"));
	store_close(a);

	/* An instructor's database: ann's answer counts in statistics but
	 * schedules nothing. */
	struct store *b = open_db("learner-b.db");
	size_t added, skipped;
	char err[256];
	assert_int_equal(answers_import(b, out, strlen(out), &added, &skipped, err, sizeof err), 0);
	assert_int_equal(added, 1);
	struct sched_state st;
	assert_int_equal(answers_schedule_get(b, "fixture-fencing", &st), WB_ENOENT);
	assert_int_equal(count_rows(b, "SELECT COUNT(*) FROM quiz_answer WHERE learner='ann'"), 1);
	free(out);

	/* Bad input names the row and imports nothing. */
	const char *bad = "uid,question,chapter,lang,kind,shown_at,graded_at,points,max_points,"
			  "grade\r\n"
			  "aaaa,fixture-years,00-fixture,en,numeric,2026-01-01T00:00:00.000Z,"
			  "2026-01-01T00:00:01.000Z,1,1,got\r\n"
			  "bbbb,fixture-years,00-fixture,en,numeric,yesterday,"
			  "2026-01-01T00:00:01.000Z,1,1,got\r\n";
	assert_int_equal(answers_import(b, bad, strlen(bad), &added, &skipped, err, sizeof err),
			 WB_EINVAL);
	assert_non_null(strstr(err, "row 3"));
	assert_non_null(strstr(err, "shown_at"));
	assert_int_equal(count_rows(b, "SELECT COUNT(*) FROM quiz_answer"), 1);
	const char *nohdr = "x,y\r\n1,2\r\n";
	assert_int_equal(answers_import(b, nohdr, strlen(nohdr), &added, &skipped, err, sizeof err),
			 WB_EINVAL);
	assert_non_null(strstr(err, "no 'uid' column"));
	const char *badjson = "{\"answers\": [{\"uid\": 5}]}";
	assert_int_equal(
		answers_import(b, badjson, strlen(badjson), &added, &skipped, err, sizeof err),
		WB_EINVAL);
	assert_non_null(strstr(err, "answer 1"));
	assert_int_equal(answers_import(b, "{", 1, &added, &skipped, err, sizeof err), WB_EINVAL);
	store_close(b);
}

/* Grades the current question of ss with grade; returns the result. */
static int try_grade(struct quiz_session *ss, int grade, int64_t t)
{
	const struct quiz_question *q = quiz_session_current(ss);
	assert_non_null(q);
	struct answer a = {0};
	a.shown_at = t - 20000;
	a.graded_at = t;
	a.grade = grade;
	a.points = grade == GRADE_GOT ? q->max_points : 0;
	if (q->kind == QK_RECALL)
		a.ticked = wb_xstrdup("");
	int err = quiz_session_grade(ss, &a);
	answer_clear(&a);
	return err;
}

/* Answers are UTF-8: other bytes are refused at save and import (JSON
 * could not carry them: the export used to drop the field), and a
 * database written by other tools still exports every field. */
static void test_text_is_utf8(void **state)
{
	(void)state;
	struct store *s = open_db("utf8.db");
	struct answer a;
	fill(&a, "fixture-notify", GRADE_GOT, 3, T0_MS);
	a.text = wb_xstrdup("bad \xFF byte");
	assert_int_equal(answers_save(s, &a), WB_EINVAL);
	free(a.text);
	a.text = wb_xstrdup("'); DROP TABLE quiz_answer; -- \xE2\x80\xAE\x01\x1B[31m");
	assert_int_equal(answers_save(s, &a), 0);
	answer_clear(&a);
	fill(&a, "fixture-years", GRADE_GOT, 1, T0_MS + 1000);
	a.learner = wb_xstrdup("ann \xC0\xAF");
	assert_int_equal(answers_save(s, &a), WB_EINVAL);
	answer_clear(&a);
	assert_int_equal(count_rows(s, "SELECT COUNT(*) FROM quiz_answer"), 1);
	/* Another tool wrote bytes that are not UTF-8. */
	assert_int_equal(sqlite3_exec(store_db(s),
				      "UPDATE quiz_answer SET answer = CAST(X'41FF42' AS TEXT)",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	char *out = export_string(s, ANSWERS_JSON, NULL);
	assert_non_null(strstr(out, "\"answer\": \"A\xEF\xBF\xBD"
				    "B\""));
	free(out);
	store_close(s);
}

static void test_two_windows(void **state)
{
	(void)state;
	struct store *a = open_db("two.db"), *b = open_db("two.db");
	struct quiz_session *sa, *sb, *other;
	start_chapter(a, 5, &sa);
	/* b cannot start a second test, also not with the stale belief that
	 * none runs: the check is inside the start's transaction. */
	const struct quiz_question *one[] = {Q("fixture-years")};
	assert_int_equal(
		quiz_session_start(b, "review", NULL, "en", 1, one, 1, 0, 1, T0_MS, &other),
		WB_ECONFLICT);
	assert_null(other);
	assert_int_equal(count_rows(b, "SELECT COUNT(*) FROM quiz_test"), 1);
	assert_int_equal(quiz_session_resume(b, bank, &sb), 0);
	char *first = wb_xstrdup(sa->test->questions[0]);
	assert_string_equal(quiz_session_current(sb)->id, first);

	/* Both show the first question; a grades it first, b's grade is
	 * refused and b moves on with a's grade known. */
	assert_int_equal(try_grade(sa, GRADE_GOT, T0_MS + 1000), 0);
	assert_int_equal(try_grade(sb, GRADE_AGAIN, T0_MS + 1500), WB_ECONFLICT);
	assert_int_equal(sb->cur, 1);
	assert_string_equal(sb->test->state, "running");
	assert_int_equal(quiz_session_grade_of(sb, first), GRADE_GOT);
	assert_int_equal(count_rows(a, "SELECT COUNT(*) FROM quiz_answer"), 1);
	assert_int_equal(count_rows(a, "SELECT grade FROM quiz_answer"), GRADE_GOT);

	/* b grades the second question; a's undo would take back b's grade,
	 * which a never saw: refused, nothing removed, a catches up. */
	assert_int_equal(try_grade(sb, GRADE_AGAIN, T0_MS + 2000), 0);
	assert_int_equal(quiz_session_undo(sa, NULL), WB_ECONFLICT);
	assert_int_equal(count_rows(a, "SELECT COUNT(*) FROM quiz_answer"), 2);
	assert_int_equal(sa->cur, 2);
	assert_int_equal(quiz_session_answered(sa), 2);
	/* b takes back its own grade. */
	assert_int_equal(quiz_session_undo(sb, NULL), 0);
	assert_int_equal(count_rows(a, "SELECT COUNT(*) FROM quiz_answer"), 1);
	assert_int_equal(sb->cur, 1);
	/* a last saw b's (now removed) answer as the newest: refused once,
	 * then a undoes its own, which it now knows is the newest. */
	assert_int_equal(quiz_session_undo(sa, NULL), WB_ECONFLICT);
	assert_int_equal(quiz_session_undo(sa, NULL), 0);
	assert_int_equal(count_rows(a, "SELECT COUNT(*) FROM quiz_answer"), 0);
	assert_int_equal(count_rows(a, "SELECT COUNT(*) FROM quiz_schedule"), 0);

	/* a abandons the test; b's next grade is refused, b sees why. */
	assert_int_equal(quiz_session_abandon(sa, T0_MS + 3000), 0);
	assert_int_equal(try_grade(sb, GRADE_GOT, T0_MS + 4000), WB_ECONFLICT);
	assert_string_equal(sb->test->state, "abandoned");
	assert_int_equal(count_rows(a, "SELECT COUNT(*) FROM quiz_answer"), 0);
	free(first);
	quiz_session_free(sa);
	quiz_session_free(sb);
	store_close(a);
	store_close(b);
}

static void test_busy_writes_nothing(void **state)
{
	(void)state;
	struct store *a = open_db("busy.db"), *c = open_db("busy.db");
	sqlite3_busy_timeout(store_db(a), 20);
	struct quiz_session *ss;
	start_chapter(a, 3, &ss);
	assert_int_equal(try_grade(ss, GRADE_GOT, T0_MS + 1000), 0);
	/* Another connection holds the write lock past a's busy timeout. */
	assert_int_equal(sqlite3_exec(store_db(c), "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(try_grade(ss, GRADE_GOT, T0_MS + 2000), WB_EBUSY);
	assert_int_equal(ss->cur, 1);
	assert_int_equal(quiz_session_undo(ss, NULL), WB_EBUSY);
	struct answer x;
	fill(&x, "fixture-years", GRADE_GOT, 1, T0_MS);
	assert_int_equal(answers_save(a, &x), WB_EBUSY);
	char *out = export_string(c, ANSWERS_CSV, "ann");
	size_t added, skipped;
	char err[256];
	assert_int_equal(answers_import(a, out, strlen(out), &added, &skipped, err, sizeof err),
			 WB_EBUSY);
	assert_non_null(strstr(err, "the progress database is busy: another workbench is writing"));
	assert_int_equal(added, 0);
	/* No transaction is left open on a. */
	assert_true(sqlite3_get_autocommit(store_db(a)));
	assert_int_equal(sqlite3_exec(store_db(c), "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	/* The same answer (same uid) goes in once the lock is free. */
	assert_int_equal(answers_save(a, &x), 0);
	answer_clear(&x);
	assert_int_equal(try_grade(ss, GRADE_GOT, T0_MS + 3000), 0);
	assert_int_equal(count_rows(a, "SELECT COUNT(*) FROM quiz_answer"), 3);
	/* The export held one answer (read in c's snapshot); its uid is
	 * already here. */
	assert_int_equal(answers_import(a, out, strlen(out), &added, &skipped, err, sizeof err), 0);
	assert_int_equal(added, 0);
	assert_int_equal(skipped, 1);
	free(out);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(store_db(a), "PRAGMA integrity_check", -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	quiz_session_free(ss);
	store_close(a);
	store_close(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_save_updates_schedule),
		cmocka_unit_test(test_session_order_resume_undo),
		cmocka_unit_test(test_abandon_and_limit),
		cmocka_unit_test(test_resume_skips_removed_questions),
		cmocka_unit_test(test_due_and_mastery),
		cmocka_unit_test(test_round_trip_csv),
		cmocka_unit_test(test_round_trip_json),
		cmocka_unit_test(test_import_learner_and_errors),
		cmocka_unit_test(test_text_is_utf8),
		cmocka_unit_test(test_two_windows),
		cmocka_unit_test(test_busy_writes_nothing),
	};
	return cmocka_run_group_tests_name("answers", tests, setup, teardown);
}
