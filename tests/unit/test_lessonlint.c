/* test_lessonlint.c - lesson lint: title, unknown lab ids with their line,
 * labs missing from the build as warnings or (strict) errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/lessonlint.h"
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

int main(void)
{
	labcat_init(fixture_catalogue, sizeof fixture_catalogue / sizeof fixture_catalogue[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_unknown_id_line),
		cmocka_unit_test(test_not_built),
		cmocka_unit_test(test_title),
	};
	return cmocka_run_group_tests_name("lessonlint", tests, NULL, NULL);
}
