/* test_quiz.c - question bank parsing (fixture banks, the shipped banks,
 * odd Markdown), banks across folders, and grading of choice, numeric and
 * recall answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/quizbank.h"
#include "core/quizlint.h"
#include "base/wb.h"
#include "testlib.h"

static struct quiz_file *load(const char *path)
{
	struct quiz_file *f = NULL;
	assert_int_equal(quiz_load_file(path, "en", &f), 0);
	return f;
}

static struct quiz_file *parse(const char *path, const char *text)
{
	struct quiz_file *f = NULL;
	assert_int_equal(quiz_parse(path, "en", text, strlen(text), &f), 0);
	return f;
}

static int count_errors(const struct quiz_file *f)
{
	int n = 0;
	for (size_t i = 0; i < f->nproblems; i++)
		n += f->problems[i].is_error;
	return n;
}

static int has_problem(const struct quiz_file *f, int line, const char *text)
{
	for (size_t i = 0; i < f->nproblems; i++)
		if (f->problems[i].line == line && strstr(f->problems[i].msg, text))
			return 1;
	for (size_t i = 0; i < f->nproblems; i++)
		print_message("%d: %s\n", f->problems[i].line, f->problems[i].msg);
	return 0;
}

static void test_fixture_en(void **state)
{
	(void)state;
	struct quiz_file *f = load(WB_TEST_FIXTURES "/quizzes/en/00-fixture.md");
	assert_int_equal(f->nproblems, 0);
	assert_string_equal(f->lang, "en");
	assert_string_equal(f->chapter, "00-fixture");
	assert_int_equal(f->chapter_line, 0);
	assert_string_equal(f->title, "Self-test: Fixture chapter");
	assert_int_equal(f->nq, 6);

	const struct quiz_question *q = &f->q[0];
	assert_string_equal(q->id, "fixture-notify");
	assert_int_equal(q->kind, QK_RECALL);
	assert_int_equal(q->line, 3);
	assert_string_equal(q->text, "Why is a delete notification not the lock?");
	assert_string_equal(q->body, "");
	assert_non_null(strstr(q->answer, "re-list the children"));
	assert_int_equal(q->nrubric, 2);
	assert_int_equal(q->rubric[0].points, 2);
	assert_int_equal(q->rubric[0].line, 11);
	assert_string_equal(q->rubric[1].text,
			    "re-list and confirm the own candidate is still the smallest");
	assert_int_equal(q->max_points, 3);

	q = &f->q[1];
	assert_string_equal(q->id, "fixture-cas-minus-one");
	assert_int_equal(q->kind, QK_CHOICE);
	/* Inline code survives in the heading text. */
	assert_string_equal(q->text, "What does an expected version of -1 do in `setData`?");
	assert_int_equal(q->noptions, 3);
	assert_false(q->options[0].correct);
	assert_true(q->options[1].correct);
	assert_string_equal(q->options[1].text, "It overwrites the data without any version check");
	assert_int_equal(q->max_points, 1);

	q = &f->q[2];
	assert_int_equal(q->noptions, 3);
	assert_string_equal(q->body, "Select every true statement.");
	assert_true(q->options[0].correct && !q->options[1].correct && q->options[2].correct);

	q = &f->q[3];
	assert_int_equal(q->kind, QK_NUMERIC);
	assert_true(q->has_number);
	assert_true(q->number == 4096.0);
	assert_true(q->tolerance == 0.0);

	q = &f->q[4];
	assert_true(q->number == 69.7);
	assert_true(q->tolerance == 0.2);

	q = &f->q[5];
	assert_non_null(strstr(q->body, "```text"));
	assert_non_null(strstr(q->body, "client ──token 34──▶ storage"));
	assert_int_equal(q->nrubric, 3);
	assert_int_equal(q->max_points, 3);
	quiz_file_free(f);
}

static void test_fixture_zh_same_ids(void **state)
{
	(void)state;
	struct quiz_file *en = load(WB_TEST_FIXTURES "/quizzes/en/00-fixture.md");
	struct quiz_file *zh = load(WB_TEST_FIXTURES "/quizzes/zh/00-fixture.md");
	assert_string_equal(zh->lang, "zh");
	assert_int_equal(zh->nproblems, 0);
	assert_int_equal(en->nq, zh->nq);
	for (size_t i = 0; i < en->nq; i++) {
		assert_string_equal(en->q[i].id, zh->q[i].id);
		assert_int_equal(en->q[i].kind, zh->q[i].kind);
		assert_int_equal(en->q[i].max_points, zh->q[i].max_points);
	}
	assert_string_equal(zh->q[0].rubric[0].text, "通知只是让旧快照失效，不是凭证");
	quiz_file_free(en);
	quiz_file_free(zh);
}

/* The real banks: parse without errors, the same ids in both languages. */
static void test_shipped_banks(void **state)
{
	(void)state;
	const char *chapters[] = {"01-locks-ids-leases", "02-zookeeper-fencing"};
	size_t total = 0;
	for (size_t c = 0; c < 2; c++) {
		char *pe = wb_xasprintf("%s/quizzes/en/%s.md", WB_SOURCE_DIR, chapters[c]);
		char *pz = wb_xasprintf("%s/quizzes/zh/%s.md", WB_SOURCE_DIR, chapters[c]);
		struct quiz_file *en = load(pe), *zh = load(pz);
		assert_int_equal(count_errors(en), 0);
		assert_int_equal(count_errors(zh), 0);
		assert_string_equal(en->chapter, chapters[c]);
		assert_true(en->nq >= 10);
		assert_int_equal(en->nq, zh->nq);
		size_t core = 0;
		for (size_t i = 0; i < en->nq; i++) {
			assert_string_equal(en->q[i].id, zh->q[i].id);
			assert_int_equal(en->q[i].core, zh->q[i].core);
			core += en->q[i].core != 0;
			assert_non_null(en->q[i].answer);
			if (en->q[i].kind == QK_RECALL)
				assert_true(en->q[i].nrubric > 0);
		}
		/* the chapters promise a twelve-question closed-book core */
		assert_int_equal(core, 12);
		total += en->nq;
		quiz_file_free(en);
		quiz_file_free(zh);
		free(pe);
		free(pz);
	}
	/* 74 when the banks were first shipped; banks grow (chapter 01 has 47 now),
	 * a bank that lost questions fails here. */
	assert_true(total >= 74);
}

static void test_chapter_comment_and_headings(void **state)
{
	(void)state;
	struct quiz_file *f = parse("/x/en/extra-questions.md",
				    "# Extra\n"
				    "<!-- chapter: 02-zookeeper-fencing -->\n"
				    "\n"
				    "## [closing-hashes] Text with closing hashes ##\n"
				    "kind: numeric\n"
				    "answer: -1.5e3\n"
				    "tolerance: 0\n"
				    "\n"
				    "### answer\n"
				    "Lower-case section names are accepted.\n");
	assert_int_equal(count_errors(f), 0);
	assert_string_equal(f->chapter, "02-zookeeper-fencing");
	assert_int_equal(f->chapter_line, 2);
	assert_string_equal(f->q[0].text, "Text with closing hashes");
	assert_true(f->q[0].number == -1500.0);
	quiz_file_free(f);

	/* No chapter from the name and no comment. */
	f = parse("/x/en/extra.md", "# T\n\n## [a] b\n\n### Answer\nc\n\n### Rubric\n- 1: d\n");
	assert_null(f->chapter);
	quiz_file_free(f);
}

static void test_format_slips(void **state)
{
	(void)state;
	/* Settings run into the question text without a blank line. */
	struct quiz_file *f =
		parse("/x/en/01-x.md", "# T\n\n## [a] b\nkind: recall\nMore text "
				       "here.\n\n### Answer\nc\n\n### Rubric\n- 1: d\n");
	assert_int_equal(count_errors(f), 1);
	assert_int_equal(f->problems[0].line, 5);
	assert_non_null(strstr(f->problems[0].msg, "expected 'key: value'"));
	assert_int_equal(f->q[0].errors, 1);
	quiz_file_free(f);

	/* Unknown key, unknown section, a translated heading, heading level 4. */
	f = parse("/x/en/01-x.md", "# T\n\n## [a] b\nkind: recall\nlevel: 3\n\n### 答案\nc\n\n"
				   "#### Deep\n\n### Answer\nok\n\n### Rubric\n- 1: d\n");
	assert_int_equal(count_errors(f), 3);
	assert_non_null(strstr(f->problems[0].msg, "unknown key 'level'"));
	assert_non_null(strstr(f->problems[1].msg, "unknown section '### 答案'"));
	assert_non_null(strstr(f->problems[2].msg, "heading level 4"));
	quiz_file_free(f);

	/* A choice option without a task box; points of zero; an empty id. */
	f = parse("/x/en/01-x.md", "# T\n\n## [c] q\nkind: choice\n\n- [x] yes\n- plain\n\n"
				   "### Answer\na\n\n## [] q2\n\n### Answer\na\n\n### Rubric\n"
				   "- 0: nothing\n");
	assert_int_equal(count_errors(f), 5);
	assert_true(has_problem(f, 7, "not a task list item"));
	assert_true(has_problem(f, 6, "at least two options")); /* only one is left */
	assert_true(has_problem(f, 12, "empty id"));
	assert_true(has_problem(f, 18, "points '0'"));
	assert_true(has_problem(f, 17, "### Rubric has no"));
	quiz_file_free(f);

	/* CRLF line ends and a BOM change nothing. */
	f = parse("/x/en/01-x.md", "\xEF\xBB\xBF# T\r\n\r\n## [a] b\r\nkind: numeric\r\n"
				   "answer: 12\r\n\r\n### Answer\r\nx\r\n");
	assert_int_equal(f->nproblems, 0);
	assert_string_equal(f->q[0].text, "b");
	assert_true(f->q[0].number == 12);
	quiz_file_free(f);
}

/* Fuzz finding (fuzz_quiz): cmark-gfm ends a line at a lone CR, the
 * parser did not, so after one CR every question took its text and its
 * problem lines from the wrong source line (beyond the end of the file). */
static void test_cr_line_ends(void **state)
{
	(void)state;
	const char *text = "# Old Mac\r\r## [cr-one] First?\rkind: numeric\ranswer: 4\r\r### "
			   "Answer\rFour.\r\r## [cr-two] Second?\r\n\r\n### Answer\r\nYes.\r\n"
			   "\r\n### Rubric\r- 1: yes\r\r## no id\r";
	struct quiz_file *f = parse("00-cr.md", text);
	assert_int_equal(f->nq, 3);
	assert_string_equal(f->title, "Old Mac");
	assert_string_equal(f->q[0].id, "cr-one");
	assert_string_equal(f->q[0].text, "First?");
	assert_int_equal(f->q[0].line, 3);
	assert_true(f->q[0].has_number);
	assert_true(f->q[0].number == 4);
	assert_string_equal(f->q[0].answer, "Four.");
	assert_int_equal(f->q[0].errors, 0);
	assert_string_equal(f->q[1].id, "cr-two");
	assert_string_equal(f->q[1].text, "Second?");
	assert_int_equal(f->q[1].line, 10);
	assert_string_equal(f->q[1].answer, "Yes.");
	assert_int_equal(f->q[1].nrubric, 1);
	assert_string_equal(f->q[1].rubric[0].text, "yes");
	assert_int_equal(f->q[1].errors, 0);
	/* The only problem is on the last line, which exists. */
	assert_int_equal(f->q[2].line, 18);
	assert_true(has_problem(f, 18, "question heading has no id"));
	for (size_t i = 0; i < f->nproblems; i++)
		assert_true(f->problems[i].line <= 18);
	quiz_file_free(f);
}

/* Fuzz finding (fuzz_quiz): thousands of 6-digit rubric items overflowed
 * the int sum (undefined behaviour); the total is capped with an error. */
static void test_rubric_total_capped(void **state)
{
	(void)state;
	struct wb_buf b = {0};
	wb_buf_puts(&b, "# T\n\n## [big-one] Q?\n\n### Answer\nA.\n\n### Rubric\n");
	for (int i = 0; i < 3000; i++)
		wb_buf_puts(&b, "- 999999: x\n");
	wb_buf_puts(&b, "\n## [fits] Q?\n\n### Answer\nA.\n\n### Rubric\n- 999999: x\n- 1: y\n");
	struct quiz_file *f = parse("00-big.md", b.data);
	wb_buf_free(&b);
	assert_int_equal(f->nq, 2);
	assert_true(has_problem(f, 8, "the rubric is worth 2999997000 points; at most 1000000"));
	assert_int_equal(f->q[0].errors, 1);
	assert_int_equal(f->q[0].max_points, QUIZ_MAX_POINTS);
	assert_int_equal(f->q[1].errors, 0);
	assert_int_equal(f->q[1].max_points, 1000000);
	quiz_file_free(f);
}

/* #20 F12: a NUL once dropped the rest of its line ("Question
 * before\0after" became "Question before"); now it is U+FFFD and the text
 * after it stays.  #20 F2: nesting deeper than the screens lay out is a
 * warning at its line, not an error. */
static void test_nul_and_depth(void **state)
{
	(void)state;
	static const char md[] = "# T\n\n## [q-a] Question before\0after\n"
				 "kind: numeric\nanswer: 1\n\n### Answer\n1\0 and 2\n";
	struct quiz_file *f = NULL;
	assert_int_equal(quiz_parse("q.md", "en", md, sizeof md - 1, &f), 0);
	assert_int_equal(f->nq, 1);
	assert_string_equal(f->q[0].text, "Question before\xEF\xBF\xBD"
					  "after");
	assert_string_equal(f->q[0].answer, "1\xEF\xBF\xBD and 2");
	quiz_file_free(f);

	size_t n = 30000;
	struct wb_buf b = {0};
	wb_buf_puts(&b, "# T\n\n## [q-d] Deep?\n\n");
	for (size_t i = 0; i < n; i++)
		wb_buf_puts(&b, "- ");
	wb_buf_puts(&b, "x\n\n### Answer\ny\n\n### Rubric\n- 1: y\n");
	f = parse("q.md", b.data);
	assert_int_equal(f->nq, 1);
	assert_int_equal(count_errors(f), 0);
	assert_true(has_problem(f, 5, "nested deeper than"));
	quiz_file_free(f);
	wb_buf_free(&b);
}

static void test_valid_id(void **state)
{
	(void)state;
	assert_true(quiz_valid_id("a"));
	assert_true(quiz_valid_id("zk-lock-2"));
	assert_false(quiz_valid_id("2zk"));
	assert_false(quiz_valid_id("-a"));
	assert_false(quiz_valid_id("Zk"));
	assert_false(quiz_valid_id("a_b"));
	assert_false(quiz_valid_id(""));
	assert_false(quiz_valid_id(NULL));
	char long_id[60];
	memset(long_id, 'a', sizeof long_id);
	long_id[48] = '\0';
	assert_true(quiz_valid_id(long_id));
	long_id[48] = 'a';
	long_id[49] = '\0';
	assert_false(quiz_valid_id(long_id));
}

static void test_bank_folders(void **state)
{
	(void)state;
	/* An instructor folder adds a chapter file and repeats a shipped id:
	 * the shipped question wins, the broken and duplicate ones are left out. */
	char dir[256];
	assert_int_equal(testlib_tmpdir("bank", dir, sizeof dir), 0);
	char *sub = wb_xasprintf("%s/en", dir);
	assert_int_equal(wb_mkdir_p(sub, 0700), 0);
	char *path = wb_xasprintf("%s/mine.md", sub);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# Mine\n<!-- chapter: 00-fixture -->\n\n"
	      "## [fixture-notify] A copy\nkind: numeric\nanswer: 1\n\n### Answer\nx\n\n"
	      "## [mine-new] New one\nkind: numeric\nanswer: 2\n\n### Answer\ny\n\n"
	      "## [mine-broken] Broken\nkind: numeric\n\n### Answer\nz\n",
	      f);
	fclose(f);
	const char *dirs[] = {WB_TEST_FIXTURES "/quizzes", dir, "/no/such/folder"};
	struct quiz_bank *b;
	assert_int_equal(quiz_bank_load(dirs, 3, "en", &b), 0);
	assert_int_equal(b->n, 7);
	assert_int_equal(b->skipped, 2);
	assert_int_equal(quiz_bank_find(b, "fixture-notify")->kind, QK_RECALL);
	assert_non_null(quiz_bank_find(b, "mine-new"));
	assert_null(quiz_bank_find(b, "mine-broken"));
	const struct quiz_question **qs;
	assert_int_equal(quiz_bank_chapter(b, "00-fixture", &qs), 7);
	free(qs);
	assert_int_equal(quiz_bank_chapter(b, "01-nothing", &qs), 0);
	assert_null(qs);
	const char **chs;
	assert_int_equal(quiz_bank_chapters(b, &chs), 1);
	assert_string_equal(chs[0], "00-fixture");
	free(chs);
	quiz_bank_free(b);
	assert_int_equal(testlib_rmtree(dir), 0);
	free(path);
	free(sub);
}

/* Writes questions q-<from>..q-<to-1> as chapter 00-fixture into path;
 * pad: bytes of body text per question. */
static void write_bank(const char *path, int from, int to, size_t pad)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# Big\n<!-- chapter: 00-fixture -->\n\n", f);
	for (int i = from; i < to; i++) {
		fprintf(f, "## [q-%d] Question %d?\nkind: numeric\nanswer: %d\n\n", i, i, i);
		for (size_t k = 0; k < pad; k += 64)
			fputs("padding padding padding padding padding padding padding pad\n", f);
		fprintf(f, "\n### Answer\n%d\n\n", i);
	}
	fclose(f);
}

/* #20 F6: banks are indexed by id (a linear scan per question made
 * 100,000 questions take 165 s; the figures are in bench/content_scale),
 * duplicates across files still go to the first, and a bank file over
 * QUIZ_FILE_MAX_BYTES is refused whole: left out of the bank (counted in
 * refused) and named by quiz lint. */
static void test_bank_scale_and_limit(void **state)
{
	(void)state;
	char dir[256];
	assert_int_equal(testlib_tmpdir("bankscale", dir, sizeof dir), 0);
	char *sub = wb_xasprintf("%s/en", dir);
	assert_int_equal(wb_mkdir_p(sub, 0700), 0);
	char *a = wb_xasprintf("%s/a.md", sub), *b = wb_xasprintf("%s/b.md", sub);
	char *big = wb_xasprintf("%s/c.md", sub);
	write_bank(a, 0, 20000, 0);
	write_bank(b, 10000, 30000, 0);
	write_bank(big, 50000, 50000 + 16000, 512); /* about 9 MiB */
	const char *dirs[] = {dir};
	struct quiz_bank *bank;
	assert_int_equal(quiz_bank_load(dirs, 1, "en", &bank), 0);
	assert_int_equal(bank->n, 30000);
	assert_int_equal(bank->skipped, 10000);
	assert_int_equal(bank->refused, 1);
	for (int i = 0; i < 30000; i += 7) {
		char id[32];
		snprintf(id, sizeof id, "q-%d", i);
		const struct quiz_question *q = quiz_bank_find(bank, id);
		assert_non_null(q);
		assert_string_equal(q->id, id);
		assert_string_equal(q->file->path, i < 20000 ? a : b);
	}
	assert_null(quiz_bank_find(bank, "q-30000"));
	assert_null(quiz_bank_find(bank, "q-50000"));
	const struct quiz_question **qs;
	assert_int_equal(quiz_bank_chapter(bank, "00-fixture", &qs), 30000);
	assert_string_equal(qs[29999]->id, "q-29999");
	free(qs);
	quiz_bank_free(bank);

	struct quiz_file *f = NULL;
	assert_int_equal(quiz_load_file(big, "en", &f), WB_ERANGE);
	assert_null(f);
	const char *targets[] = {big, a};
	struct quizlint_report r;
	assert_int_equal(quizlint_run(NULL, "en", targets, 2, NULL, 0, &r), 0);
	int named = 0, dups = 0;
	for (size_t i = 0; i < r.n; i++) {
		named |= !strcmp(r.m[i].file, big) && strstr(r.m[i].msg, "larger than 8 MiB");
		dups += strstr(r.m[i].msg, "duplicate id") != NULL;
	}
	assert_true(named);
	assert_int_equal(dups, 0);
	quizlint_report_free(&r);
	const char *both[] = {a, b};
	assert_int_equal(quizlint_run(NULL, "en", both, 2, NULL, 0, &r), 0);
	dups = 0;
	for (size_t i = 0; i < r.n; i++)
		dups += strstr(r.m[i].msg, "duplicate id") != NULL;
	assert_int_equal(dups, 20000); /* each of the 10,000 pairs, in both files */
	for (size_t i = 1; i < r.n; i++)
		assert_true(strcmp(r.m[i - 1].file, r.m[i].file) != 0 ||
			    r.m[i - 1].line <= r.m[i].line);
	quizlint_report_free(&r);

	assert_int_equal(testlib_rmtree(dir), 0);
	free(a);
	free(b);
	free(big);
	free(sub);
}

static void test_instructor_dir(void **state)
{
	(void)state;
	char *d = quiz_instructor_dir("/explicit");
	assert_string_equal(d, "/explicit");
	free(d);
	struct testlib_env *env = testlib_env_new();
	testlib_env_set(env, "XDG_DATA_HOME", "/xdg");
	d = quiz_instructor_dir(NULL);
	assert_string_equal(d, "/xdg/workbench/quizzes");
	free(d);
	testlib_env_set(env, "XDG_DATA_HOME", NULL);
	testlib_env_set(env, "HOME", "/home/x");
	d = quiz_instructor_dir(NULL);
	assert_string_equal(d, "/home/x/.local/share/workbench/quizzes");
	free(d);
	testlib_env_free(env);
}

static void test_grade_choice(void **state)
{
	(void)state;
	struct quiz_file *f = load(WB_TEST_FIXTURES "/quizzes/en/00-fixture.md");
	const struct quiz_question *one = &f->q[1], *two = &f->q[2];
	unsigned char p[3] = {0, 1, 0};
	assert_int_equal(quiz_grade_choice(one, p), 1);
	p[0] = 1;
	assert_int_equal(quiz_grade_choice(one, p), 0); /* an extra wrong pick */
	unsigned char m[3] = {1, 0, 0};
	assert_int_equal(quiz_grade_choice(two, m), 0); /* only part of the set */
	m[2] = 1;
	assert_int_equal(quiz_grade_choice(two, m), 1);
	quiz_file_free(f);
}

static void test_grade_numeric(void **state)
{
	(void)state;
	struct quiz_file *f = load(WB_TEST_FIXTURES "/quizzes/en/00-fixture.md");
	const struct quiz_question *exact = &f->q[3], *tol = &f->q[4];
	double v;
	assert_int_equal(quiz_grade_numeric(exact, "4096", &v), 1);
	assert_true(v == 4096);
	assert_int_equal(quiz_grade_numeric(exact, " 4,096 ", NULL), 1);
	assert_int_equal(quiz_grade_numeric(exact, "4096.0", NULL), 1);
	assert_int_equal(quiz_grade_numeric(exact, "4095", NULL), 0);
	assert_int_equal(quiz_grade_numeric(exact, "abc", NULL), WB_EINVAL);
	assert_int_equal(quiz_grade_numeric(exact, "", NULL), WB_EINVAL);
	assert_int_equal(quiz_grade_numeric(exact, "inf", NULL), WB_EINVAL);
	assert_int_equal(quiz_grade_numeric(tol, "69.7", NULL), 1);
	assert_int_equal(quiz_grade_numeric(tol, "69.5", NULL), 1); /* edge of 0.2 */
	assert_int_equal(quiz_grade_numeric(tol, "69.9", NULL), 1);
	assert_int_equal(quiz_grade_numeric(tol, "69.45", NULL), 0);
	assert_int_equal(quiz_grade_numeric(tol, "70", NULL), 0);
	quiz_file_free(f);
}

/* Numeric answers are compared exactly, as written: no hidden relative
 * slack (it once accepted 2147483648 and 2147483649 for 2^31 - 1). */
static void test_grade_numeric_exact(void **state)
{
	(void)state;
	struct quiz_file *f =
		parse("/x/en/01-x.md",
		      "# T\n\n## [big] 2^31 - 1?\nkind: numeric\nanswer: 2147483647\n\n### Answer\n"
		      "a\n\n## [snow] id?\nkind: numeric\nanswer: 4194332672\n\n### Answer\nb\n\n"
		      "## [long] int64 max?\nkind: numeric\nanswer: 9223372036854775807\n\n### "
		      "Answer\nc\n\n## [dec] 0.1 + 0.2?\nkind: numeric\nanswer: 0.3\ntolerance: "
		      "0.1\n\n### Answer\nd\n\n## [small] tiny?\nkind: numeric\nanswer: 1.5e-7\n\n"
		      "### Answer\ne\n");
	assert_int_equal(count_errors(f), 0);
	const struct quiz_question *big = &f->q[0], *snow = &f->q[1], *lng = &f->q[2],
				   *dec = &f->q[3], *small = &f->q[4];
	assert_int_equal(quiz_grade_numeric(big, "2147483647", NULL), 1);
	assert_int_equal(quiz_grade_numeric(big, "2 147 483 647", NULL), 1);
	assert_int_equal(quiz_grade_numeric(big, "2147483648", NULL), 0);
	assert_int_equal(quiz_grade_numeric(big, "2147483649", NULL), 0);
	assert_int_equal(quiz_grade_numeric(big, "2147483646", NULL), 0);
	assert_int_equal(quiz_grade_numeric(big, "2147483647.0000001", NULL), 0);
	assert_int_equal(quiz_grade_numeric(big, "2.147483647e9", NULL), 1);
	assert_int_equal(quiz_grade_numeric(snow, "4194332672", NULL), 1);
	assert_int_equal(quiz_grade_numeric(snow, "4194332676", NULL), 0);
	assert_int_equal(quiz_grade_numeric(snow, "4194332668", NULL), 0);
	/* Beyond the 53 bits of a double: still exact. */
	assert_int_equal(quiz_grade_numeric(lng, "9223372036854775807", NULL), 1);
	assert_int_equal(quiz_grade_numeric(lng, "9223372036854775808", NULL), 0);
	assert_int_equal(quiz_grade_numeric(lng, "9223372036854775806", NULL), 0);
	/* The tolerance's edges are exact in decimal (0.4 - 0.3 is 0.1). */
	assert_int_equal(quiz_grade_numeric(dec, "0.4", NULL), 1);
	assert_int_equal(quiz_grade_numeric(dec, "0.2", NULL), 1);
	assert_int_equal(quiz_grade_numeric(dec, "0.4000001", NULL), 0);
	assert_int_equal(quiz_grade_numeric(dec, "0.1999999", NULL), 0);
	assert_int_equal(quiz_grade_numeric(dec, "-0.3", NULL), 0);
	assert_int_equal(quiz_grade_numeric(small, "0.00000015", NULL), 1);
	assert_int_equal(quiz_grade_numeric(small, "0.000000150", NULL), 1);
	assert_int_equal(quiz_grade_numeric(small, "0.00000016", NULL), 0);
	assert_int_equal(quiz_grade_numeric(small, "1.5000000000000001e-7", NULL), 0);
	quiz_file_free(f);
}

static void test_suggest_grade(void **state)
{
	(void)state;
	struct quiz_file *f = load(WB_TEST_FIXTURES "/quizzes/en/00-fixture.md");
	const struct quiz_question *q = &f->q[5]; /* three 1-point items */
	unsigned char t[3] = {0, 0, 0};
	int pts;
	assert_int_equal(quiz_suggest_grade(q, t, &pts), GRADE_AGAIN);
	assert_int_equal(pts, 0);
	t[1] = 1;
	assert_int_equal(quiz_suggest_grade(q, t, &pts), GRADE_PARTLY);
	assert_int_equal(pts, 1);
	t[0] = t[2] = 1;
	assert_int_equal(quiz_suggest_grade(q, t, &pts), GRADE_GOT);
	assert_int_equal(pts, 3);
	q = &f->q[0]; /* 2 + 1 */
	unsigned char u[2] = {1, 0};
	assert_int_equal(quiz_suggest_grade(q, u, &pts), GRADE_PARTLY);
	assert_int_equal(pts, 2);
	quiz_file_free(f);
}

static void test_grade_names(void **state)
{
	(void)state;
	for (int g = GRADE_AGAIN; g <= GRADE_GOT; g++)
		assert_int_equal(quiz_grade_parse(quiz_grade_key(g)), g);
	assert_int_equal(quiz_grade_parse("2"), GRADE_PARTLY);
	assert_int_equal(quiz_grade_parse("easy"), 0);
	assert_string_equal(quiz_kind_name(QK_NUMERIC), "numeric");
	assert_string_equal(quiz_lang_of_path("/a/zh/01-x.md"), "zh");
	assert_null(quiz_lang_of_path("/a/fr/01-x.md"));
	assert_null(quiz_lang_of_path("01-x.md"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_en),
		cmocka_unit_test(test_fixture_zh_same_ids),
		cmocka_unit_test(test_shipped_banks),
		cmocka_unit_test(test_chapter_comment_and_headings),
		cmocka_unit_test(test_format_slips),
		cmocka_unit_test(test_cr_line_ends),
		cmocka_unit_test(test_rubric_total_capped),
		cmocka_unit_test(test_nul_and_depth),
		cmocka_unit_test(test_bank_scale_and_limit),
		cmocka_unit_test(test_valid_id),
		cmocka_unit_test(test_bank_folders),
		cmocka_unit_test(test_instructor_dir),
		cmocka_unit_test(test_grade_choice),
		cmocka_unit_test(test_grade_numeric),
		cmocka_unit_test(test_grade_numeric_exact),
		cmocka_unit_test(test_suggest_grade),
		cmocka_unit_test(test_grade_names),
	};
	return cmocka_run_group_tests_name("quiz", tests, NULL, NULL);
}
