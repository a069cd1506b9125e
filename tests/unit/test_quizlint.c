/* test_quizlint.c - `quiz lint`: one bad fixture per error (each must give
 * exactly that error, at its line), the missing-translation warning, and
 * the shipped banks linting clean. */
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

#define BAD WB_TEST_FIXTURES "/quizzes-bad/en/"

/* Lints one file against the fixture banks of both languages. */
static void lint_one(const char *path, struct quizlint_report *r)
{
	const char *context[] = {WB_TEST_FIXTURES "/quizzes/en/00-fixture.md",
				 WB_TEST_FIXTURES "/quizzes/zh/00-fixture.md"};
	const char *targets[] = {path};
	assert_int_equal(quizlint_run(WB_TEST_FIXTURES, "en", targets, 1, context, 2, r), 0);
}

/* Exactly one error, at line, containing text. */
static void expect_error(const char *file, int line, const char *text)
{
	struct quizlint_report r;
	lint_one(file, &r);
	int found = 0;
	for (size_t i = 0; i < r.n; i++) {
		if (!r.m[i].is_error)
			continue;
		if (r.m[i].line == line && strstr(r.m[i].msg, text))
			found = 1;
		else
			fail_msg("unexpected error %s:%d: %s", r.m[i].file, r.m[i].line,
				 r.m[i].msg);
	}
	if (!found)
		fail_msg("no error '%s' at line %d of %s", text, line, file);
	assert_int_equal(r.errors, 1);
	assert_string_equal(r.m[0].file, file);
	quizlint_report_free(&r);
}

static void test_missing_id(void **state)
{
	(void)state;
	expect_error(BAD "missing-id.md", 4, "has no id");
}

static void test_malformed_id(void **state)
{
	(void)state;
	expect_error(BAD "malformed-id.md", 4, "malformed id 'Bad_Id'");
}

static void test_duplicate_id(void **state)
{
	(void)state;
	/* Both copies are reported, each naming the other. */
	struct quizlint_report r;
	lint_one(BAD "duplicate-id.md", &r);
	assert_int_equal(r.errors, 2);
	int lines = 0;
	for (size_t i = 0; i < r.n; i++)
		if (r.m[i].is_error) {
			assert_non_null(strstr(r.m[i].msg, "duplicate id 'bad-dup'"));
			lines += r.m[i].line;
		}
	assert_int_equal(lines, 4 + 13);
	quizlint_report_free(&r);
}

static void test_duplicate_across_files(void **state)
{
	(void)state;
	/* A question copied into another file of the same language. */
	char dir[256];
	assert_int_equal(testlib_tmpdir("lint", dir, sizeof dir), 0);
	char *sub = wb_xasprintf("%s/en", dir);
	assert_int_equal(wb_mkdir_p(sub, 0700), 0);
	char *path = wb_xasprintf("%s/00-fixture.md", sub);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# Self-test: copy\n\n## [fixture-seq-slots] Copied\nkind: numeric\nanswer: 1\n\n"
	      "### Answer\nOne.\n",
	      f);
	fclose(f);
	struct quizlint_report r;
	lint_one(path, &r);
	assert_int_equal(r.errors, 1);
	assert_int_equal(r.m[0].line, 3);
	assert_non_null(strstr(r.m[0].msg, "duplicate id 'fixture-seq-slots' (also at"));
	assert_non_null(strstr(r.m[0].msg, "quizzes/en/00-fixture.md:"));
	quizlint_report_free(&r);
	assert_int_equal(testlib_rmtree(dir), 0);
	free(path);
	free(sub);
}

static void test_missing_answer(void **state)
{
	(void)state;
	expect_error(BAD "missing-answer.md", 4, "has no ### Answer");
}

static void test_recall_without_rubric(void **state)
{
	(void)state;
	expect_error(BAD "recall-no-rubric.md", 4, "has no ### Rubric");
}

static void test_points_not_positive(void **state)
{
	(void)state;
	expect_error(BAD "bad-points.md", 12, "points 'two' are not a positive integer");
}

static void test_choice_without_correct(void **state)
{
	(void)state;
	expect_error(BAD "choice-no-correct.md", 7, "no correct option");
}

static void test_numeric_without_number(void **state)
{
	(void)state;
	expect_error(BAD "numeric-no-number.md", 4, "numeric question without a number");
	expect_error(BAD "numeric-not-a-number.md", 6, "answer 'four thousand' is not a number");
}

static void test_unknown_kind(void **state)
{
	(void)state;
	expect_error(BAD "unknown-kind.md", 5, "unknown kind 'essay'");
}

static void test_unknown_chapter(void **state)
{
	(void)state;
	expect_error(BAD "unknown-chapter.md", 2, "unknown chapter '99-nowhere'");
}

static void test_missing_translation_is_warning(void **state)
{
	(void)state;
	struct quizlint_report r;
	lint_one(BAD "untranslated.md", &r);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.warnings, 1);
	assert_int_equal(r.m[0].line, 4);
	assert_non_null(strstr(r.m[0].msg, "'bad-english-only' is only in en"));
	assert_non_null(strstr(r.m[0].msg, "missing translation"));
	quizlint_report_free(&r);
}

static void test_unreadable_file(void **state)
{
	(void)state;
	struct quizlint_report r;
	lint_one(BAD "no-such-file.md", &r);
	assert_int_equal(r.errors, 1);
	assert_non_null(strstr(r.m[0].msg, "cannot read"));
	quizlint_report_free(&r);
}

/* The fixture banks and the shipped banks: no errors, no warnings. */
static void lint_clean(const char *root, const char *const *files, size_t n)
{
	struct quizlint_report r;
	assert_int_equal(quizlint_run(root, "en", files, n, files, n, &r), 0);
	for (size_t i = 0; i < r.n; i++)
		print_message("%s:%d: %s\n", r.m[i].file, r.m[i].line, r.m[i].msg);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.warnings, 0);
	quizlint_report_free(&r);
}

static void test_fixture_banks_clean(void **state)
{
	(void)state;
	const char *files[] = {WB_TEST_FIXTURES "/quizzes/en/00-fixture.md",
			       WB_TEST_FIXTURES "/quizzes/zh/00-fixture.md"};
	lint_clean(WB_TEST_FIXTURES, files, 2);
}

static void test_shipped_banks_clean(void **state)
{
	(void)state;
	char **files = NULL;
	size_t n = 0;
	assert_int_equal(quizlint_expand(WB_SOURCE_DIR "/quizzes", &files, &n), 0);
	assert_true(n >= 4);
	lint_clean(WB_SOURCE_DIR, (const char *const *)files, n);
	quizlint_free_list(files, n);
}

static void test_translation_mismatch_warns(void **state)
{
	(void)state;
	/* Same id, different numeric answer in the other language. */
	char dir[256];
	assert_int_equal(testlib_tmpdir("lint", dir, sizeof dir), 0);
	const char *langs[] = {"en", "zh"};
	const char *answers[] = {"4096", "4095"};
	char *paths[2];
	for (int i = 0; i < 2; i++) {
		char *sub = wb_xasprintf("%s/%s", dir, langs[i]);
		assert_int_equal(wb_mkdir_p(sub, 0700), 0);
		paths[i] = wb_xasprintf("%s/00-fixture.md", sub);
		FILE *f = fopen(paths[i], "w");
		assert_non_null(f);
		fprintf(f,
			"# T\n\n## [slots] How many?\nkind: numeric\nanswer: %s\n\n### "
			"Answer\nX.\n",
			answers[i]);
		fclose(f);
		free(sub);
	}
	struct quizlint_report r;
	assert_int_equal(quizlint_run(WB_TEST_FIXTURES, "en", (const char *const *)paths, 1,
				      (const char *const *)paths, 2, &r),
			 0);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.warnings, 1);
	assert_non_null(strstr(r.m[0].msg, "answer 4096"));
	quizlint_report_free(&r);
	assert_int_equal(testlib_rmtree(dir), 0);
	free(paths[0]);
	free(paths[1]);
}

/* Lints one bank written to <tmp>/en/00-fixture.md (its own context). */
static void lint_text(const char *text, struct quizlint_report *r, char *dir, size_t dirsz)
{
	assert_int_equal(testlib_tmpdir("lint", dir, dirsz), 0);
	char *sub = wb_xasprintf("%s/en", dir);
	assert_int_equal(wb_mkdir_p(sub, 0700), 0);
	char *path = wb_xasprintf("%s/00-fixture.md", sub);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	const char *paths[] = {path};
	assert_int_equal(quizlint_run(WB_TEST_FIXTURES, "en", paths, 1, paths, 1, r), 0);
	free(path);
	free(sub);
}

/* A tolerance that accepts an off-by-one of an integer answer warns;
 * one below 1, or a decimal answer, does not. */
static void test_off_by_one_tolerance_warns(void **state)
{
	(void)state;
	char dir[256];
	struct quizlint_report r;
	lint_text("# T\n\n## [max-suffix] Largest?\nkind: numeric\nanswer: 2147483647\n"
		  "tolerance: 1\n\n### Answer\nX.\n\n## [half] Half?\nkind: numeric\nanswer: 12\n"
		  "tolerance: 0.5\n\n### Answer\nY.\n\n## [ratio] Ratio?\nkind: numeric\nanswer: "
		  "2.5\ntolerance: 1\n\n### Answer\nZ.\n",
		  &r, dir, sizeof dir);
	assert_int_equal(r.errors, 0);
	int hits = 0;
	for (size_t i = 0; i < r.n; i++)
		if (strstr(r.m[i].msg, "off-by-one")) {
			hits++;
			assert_int_equal(r.m[i].line, 3);
			assert_false(r.m[i].is_error);
			assert_non_null(strstr(r.m[i].msg, "'max-suffix'"));
			assert_non_null(strstr(r.m[i].msg, "2147483648"));
		}
	assert_int_equal(hits, 1);
	quizlint_report_free(&r);
	assert_int_equal(testlib_rmtree(dir), 0);
}

/* Writes <dir>/<lang>/00-fixture.md with n recall questions q0..q(n-1);
 * core_of[i] 1 gives question i "core: true", 2 "core: false". */
static char *write_core_bank(const char *dir, const char *lang, int n, const int *core_of)
{
	char *sub = wb_xasprintf("%s/%s", dir, lang);
	assert_int_equal(wb_mkdir_p(sub, 0700), 0);
	char *path = wb_xasprintf("%s/00-fixture.md", sub);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# T\n", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "\n## [q%d] Question %d?\nkind: recall\n", i, i);
		if (core_of[i])
			fprintf(f, "core: %s\n", core_of[i] == 1 ? "true" : "false");
		fputs("\n### Answer\nA.\n\n### Rubric\n- 1: a point\n", f);
	}
	fclose(f);
	free(sub);
	return path;
}

static int count_msgs(const struct quizlint_report *r, const char *text, int is_error)
{
	int n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->m[i].is_error == is_error && strstr(r->m[i].msg, text))
			n++;
	return n;
}

/* core: true|false; anything else is an error at its line. */
static void test_core_unknown_value(void **state)
{
	(void)state;
	char dir[256];
	struct quizlint_report r;
	lint_text("# T\n\n## [c] Core?\nkind: recall\ncore: yes\n\n### Answer\nA.\n\n"
		  "### Rubric\n- 1: p\n",
		  &r, dir, sizeof dir);
	assert_int_equal(r.errors, 1);
	assert_int_equal(count_msgs(&r, "core 'yes' is neither true nor false", 1), 1);
	for (size_t i = 0; i < r.n; i++)
		if (r.m[i].is_error)
			assert_int_equal(r.m[i].line, 5);
	quizlint_report_free(&r);
	assert_int_equal(testlib_rmtree(dir), 0);
}

/* A bank marking 2 core questions warns; 12 does not; none does not. */
static void test_core_count(void **state)
{
	(void)state;
	int core[14] = {0};
	for (int pass = 0; pass < 3; pass++) {
		int want = pass == 0 ? 2 : pass == 1 ? 12 : 0;
		for (int i = 0; i < 14; i++)
			core[i] = i < want;
		char dir[256];
		assert_int_equal(testlib_tmpdir("lint", dir, sizeof dir), 0);
		char *en = write_core_bank(dir, "en", 14, core);
		/* zh spells "not core" out: core: false is the same as no mark. */
		int zh_core[14];
		for (int i = 0; i < 14; i++)
			zh_core[i] = core[i] ? 1 : 2;
		char *zh = write_core_bank(dir, "zh", 14, zh_core);
		const char *paths[] = {en, zh};
		struct quizlint_report r;
		assert_int_equal(quizlint_run(WB_TEST_FIXTURES, "en", paths, 2, paths, 2, &r), 0);
		assert_int_equal(r.errors, 0);
		assert_int_equal(count_msgs(&r, "closed-book core is exactly 12", 0),
				 pass == 0 ? 2 : 0);
		assert_int_equal(r.warnings, pass == 0 ? 2 : 0);
		quizlint_report_free(&r);
		/* The bank exposes the count. */
		const char *dirs[] = {dir};
		struct quiz_bank *b;
		assert_int_equal(quiz_bank_load(dirs, 1, "en", &b), 0);
		const struct quiz_question **cq;
		assert_int_equal(quiz_bank_core(b, "00-fixture", &cq), (size_t)want);
		assert_int_equal(quiz_bank_core(b, "00-fixture", NULL), (size_t)want);
		if (want)
			assert_string_equal(cq[0]->id, "q0");
		free(cq);
		assert_int_equal(quiz_bank_core(b, "99-none", NULL), 0);
		quiz_bank_free(b);
		assert_int_equal(testlib_rmtree(dir), 0);
		free(en);
		free(zh);
	}
}

/* en and zh disagreeing on a question's core mark is an error. */
static void test_core_lang_mismatch(void **state)
{
	(void)state;
	int core_en[12], core_zh[12];
	for (int i = 0; i < 12; i++)
		core_en[i] = core_zh[i] = 1;
	core_zh[3] = 0;
	char dir[256];
	assert_int_equal(testlib_tmpdir("lint", dir, sizeof dir), 0);
	char *en = write_core_bank(dir, "en", 12, core_en);
	char *zh = write_core_bank(dir, "zh", 12, core_zh);
	const char *paths[] = {en, zh};
	struct quizlint_report r;
	assert_int_equal(quizlint_run(WB_TEST_FIXTURES, "en", paths, 1, paths, 2, &r), 0);
	assert_int_equal(r.errors, 1);
	assert_int_equal(count_msgs(&r, "question 'q3' is core here but not core in the zh", 1), 1);
	quizlint_report_free(&r);
	/* Marked alike in both: clean. */
	free(zh);
	core_zh[3] = 1;
	zh = write_core_bank(dir, "zh", 12, core_zh);
	paths[1] = zh;
	assert_int_equal(quizlint_run(WB_TEST_FIXTURES, "en", paths, 1, paths, 2, &r), 0);
	assert_int_equal(r.errors + r.warnings, 0);
	quizlint_report_free(&r);
	assert_int_equal(testlib_rmtree(dir), 0);
	free(en);
	free(zh);
}

static void test_expand(void **state)
{
	(void)state;
	char **files = NULL;
	size_t n = 0;
	/* A folder with en/ and zh/ gives both; a plain folder its .md files. */
	assert_int_equal(quizlint_expand(WB_TEST_FIXTURES "/quizzes", &files, &n), 0);
	assert_int_equal(n, 2);
	assert_non_null(strstr(files[0], "/en/00-fixture.md"));
	assert_non_null(strstr(files[1], "/zh/00-fixture.md"));
	assert_int_equal(quizlint_expand(WB_TEST_FIXTURES "/quizzes-bad/en", &files, &n), 0);
	assert_int_equal(n, 2 + 12);
	assert_int_equal(quizlint_expand("/no/such/dir", &files, &n), WB_ENOENT);
	quizlint_free_list(files, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_id),
		cmocka_unit_test(test_off_by_one_tolerance_warns),
		cmocka_unit_test(test_malformed_id),
		cmocka_unit_test(test_duplicate_id),
		cmocka_unit_test(test_duplicate_across_files),
		cmocka_unit_test(test_missing_answer),
		cmocka_unit_test(test_recall_without_rubric),
		cmocka_unit_test(test_points_not_positive),
		cmocka_unit_test(test_choice_without_correct),
		cmocka_unit_test(test_numeric_without_number),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_unknown_chapter),
		cmocka_unit_test(test_missing_translation_is_warning),
		cmocka_unit_test(test_unreadable_file),
		cmocka_unit_test(test_fixture_banks_clean),
		cmocka_unit_test(test_shipped_banks_clean),
		cmocka_unit_test(test_translation_mismatch_warns),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_core_unknown_value),
		cmocka_unit_test(test_core_count),
		cmocka_unit_test(test_core_lang_mismatch),
	};
	return cmocka_run_group_tests_name("quizlint", tests, NULL, NULL);
}
