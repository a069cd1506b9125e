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
	};
	return cmocka_run_group_tests_name("quizlint", tests, NULL, NULL);
}
