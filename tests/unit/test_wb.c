/* test_wb.c - the base helpers: the one two-pass vsnprintf
 * (wb_xvasprintf) behind wb_xasprintf and wb_buf_printf, with short,
 * long and empty results, wb_buf growing and being stolen, and
 * wb_data_path's choice between XDG_DATA_HOME, HOME and the password
 * database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"

static char *via_va(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *via_va(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = wb_xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static void test_xvasprintf(void **state)
{
	(void)state;
	char *s = via_va("%s:%d: %s", "a.md", 12, "bad grade");
	assert_string_equal(s, "a.md:12: bad grade");
	free(s);
	s = via_va("%s", "");
	assert_string_equal(s, "");
	free(s);
	/* Longer than any first guess: both passes see the same arguments. */
	char big[5000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	s = via_va("[%s|%d]", big, 7);
	assert_int_equal(strlen(s), sizeof big - 1 + 4);
	assert_memory_equal(s, "[xxx", 4);
	assert_string_equal(s + strlen(s) - 3, "|7]");
	free(s);
	s = wb_xasprintf("%05d-%s", 42, "id");
	assert_string_equal(s, "00042-id");
	free(s);
}

static void test_buf(void **state)
{
	(void)state;
	struct wb_buf b = {0};
	wb_buf_puts(&b, "a");
	for (int i = 0; i < 100; i++)
		wb_buf_printf(&b, ",%d", i);
	assert_int_equal(b.len, strlen(b.data));
	assert_memory_equal(b.data, "a,0,1,2", 7);
	assert_string_equal(b.data + b.len - 3, ",99");
	wb_buf_append(&b, "z\0y", 3);
	assert_int_equal(b.data[b.len - 2], '\0');
	char *s = wb_buf_steal(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	free(s);
	s = wb_buf_steal(&b); /* empty: "" and never NULL */
	assert_string_equal(s, "");
	free(s);
	wb_buf_free(&b);
	wb_buf_free(&b);
}

static void test_data_path(void **state)
{
	(void)state;
	setenv("XDG_DATA_HOME", "/x/data", 1);
	setenv("HOME", "/h", 1);
	char *s = wb_data_path("progress.db");
	assert_string_equal(s, "/x/data/workbench/progress.db");
	free(s);
	setenv("XDG_DATA_HOME", "rel/data", 1); /* relative: ignored */
	s = wb_data_path("exercises/e1");
	assert_string_equal(s, "/h/.local/share/workbench/exercises/e1");
	free(s);
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "", 1); /* empty: the password database's home, never "." */
	s = wb_data_path("p");
	if (s) {
		assert_true(strncmp(s, "/.local", 7) != 0);
		assert_non_null(strstr(s, "/.local/share/workbench/p"));
	}
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xvasprintf),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_data_path),
	};
	return cmocka_run_group_tests_name("wb", tests, NULL, NULL);
}
