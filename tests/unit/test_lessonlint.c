/* test_lessonlint.c - lesson lint: title, unknown lab ids with their line,
 * labs missing from the build as warnings or (strict) errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/lessonlint.h"
#include "core/lesson.h"
#include "core/labcat.h"

/* The catalogue core sees (the application installs labs/catalog.def's;
 * a unit test of core installs its own). */
static const struct labcat_entry fixture_catalogue[] = {
	{"zk-cas", "01", "zk-cas (en)", "zk-cas (zh)", 1},
	{"zk-herd", "01", "zk-herd (en)", "zk-herd (zh)", 1},
};

struct seen {
	int errors, warnings, last_line;
	char last[256];
};

static void collect(void *arg, enum lint_level level, const char *file, int line, int col,
		    const char *msg)
{
	(void)file;
	(void)col;
	struct seen *s = arg;
	if (level == LINT_ERROR)
		s->errors++;
	else
		s->warnings++;
	s->last_line = line;
	snprintf(s->last, sizeof s->last, "%s", msg);
}

static int only_zk_cas(const char *id)
{
	return !strcmp(id, "zk-cas");
}

static void test_clean(void **state)
{
	(void)state;
	const char *md = "# Title\n\n## S\n\n```lab\nzk-cas\n```\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 1, collect, &s), 0);
	assert_int_equal(s.errors + s.warnings, 0);
}

static void test_unknown_id_line(void **state)
{
	(void)state;
	const char *md = "# Title\n\ntext\n\n- item\n\n  ```lab\n  zk-cas\n  bogus-lab\n  ```\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 9);
	assert_non_null(strstr(s.last, "bogus-lab"));
}

static void test_not_built(void **state)
{
	(void)state;
	const char *md = "# Title\n\n```lab\nzk-herd\n```\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 0, collect, &s), 0);
	assert_int_equal(s.warnings, 1);
	memset(&s, 0, sizeof s);
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 1, collect, &s), 1);
	assert_int_equal(s.last_line, 4);
}

static void test_title(void **state)
{
	(void)state;
	const char *md = "## Not a title\n\ntext\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), NULL, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 1);
	const char *ok = "<!-- note -->\n# Title\n";
	memset(&s, 0, sizeof s);
	assert_int_equal(lessonlint_text("a.md", ok, strlen(ok), NULL, 0, collect, &s), 0);
}

/* #20 F12: the file `lesson show` refuses (over LESSON_MAX_BYTES) is an
 * error; #20 F2: nesting the reader lays out flat is a warning at its
 * line, and the walk survives 30,000 levels. */
static void test_size_and_depth(void **state)
{
	(void)state;
	size_t big = LESSON_MAX_BYTES + 10;
	char *md = malloc(big);
	assert_non_null(md);
	memcpy(md, "# Title\n\n", 9);
	memset(md + 9, 'x', big - 10);
	md[big - 1] = '\n';
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, big, NULL, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 1);
	assert_non_null(strstr(s.last, "4 MiB"));

	size_t n = 30000;
	memcpy(md + 9, "text\n\n", 6);
	memset(md + 15, '>', n);
	memcpy(md + 15 + n, " deep\n", 6);
	memset(&s, 0, sizeof s);
	assert_int_equal(lessonlint_text("a.md", md, 15 + n + 6, NULL, 0, collect, &s), 0);
	assert_int_equal(s.warnings, 1);
	assert_int_equal(s.last_line, 5);
	assert_non_null(strstr(s.last, "nested deeper than"));
	free(md);
}

/* #20 F5: a table the reader cuts at the cell budget is an error at the
 * table's line. */
static void test_table_cut(void **state)
{
	(void)state;
	size_t rows = LESSON_MAX_TABLE_CELLS / 2 + 10, n = 0;
	char *md = malloc(64 + rows * 12);
	assert_non_null(md);
	n += (size_t)sprintf(md + n, "# Title\n\ntext\n\n| a | b |\n|---|---|\n");
	for (size_t i = 0; i < rows; i++)
		n += (size_t)sprintf(md + n, "| 1 | 2 |\n");
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, n, NULL, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 5);
	assert_non_null(strstr(s.last, "at most 10000 table cells"));
	free(md);
}

int main(void)
{
	labcat_init(fixture_catalogue, sizeof fixture_catalogue / sizeof fixture_catalogue[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),	       cmocka_unit_test(test_unknown_id_line),
		cmocka_unit_test(test_not_built),      cmocka_unit_test(test_title),
		cmocka_unit_test(test_size_and_depth), cmocka_unit_test(test_table_cut),
	};
	return cmocka_run_group_tests_name("lessonlint", tests, NULL, NULL);
}
