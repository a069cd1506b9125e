/* test_utf8.c - decoding and display width. */
#define _XOPEN_SOURCE 700 /* wcwidth */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/utf8.h"

#include <locale.h>
#include <stdio.h>
#include <wchar.h>

static void test_widths(void **state)
{
	(void)state;
	assert_int_equal(utf8_width("abc", 3), 3);
	assert_int_equal(utf8_width("日本語", strlen("日本語")), 6);
	assert_int_equal(utf8_width("，。、", strlen("，。、")), 6);
	assert_int_equal(utf8_width("e\xCC\x81", 3), 1); /* e + combining acute */
	assert_int_equal(utf8_width("a\xE2\x80\x8B"
				    "b",
				    5),
			 2);					 /* zero-width space */
	assert_int_equal(utf8_width("ＡＢ", strlen("ＡＢ")), 4); /* fullwidth */
	assert_int_equal(utf8_width("─│┌", strlen("─│┌")), 3);	 /* box drawing */
}

/* Regression: the table once lacked the wide blocks of plane 1, so a
 * lesson with Tangut or a rocket emoji was laid out one column too wide
 * for the terminal (cli/bad_input's random lesson, now and then). */
static void test_wide_like_the_terminal(void **state)
{
	(void)state;
	assert_int_equal(utf8_cp_width(0x17000), 2); /* Tangut */
	assert_int_equal(utf8_cp_width(0x1B000), 2); /* Kana Supplement */
	assert_int_equal(utf8_cp_width(0x1F680), 2); /* rocket */
	assert_int_equal(utf8_cp_width(0x1FAF0), 2); /* hand */
	assert_int_equal(utf8_cp_width(0x4DC0), 2);  /* Yijing hexagram */
	assert_int_equal(utf8_cp_width(0x302E), 2);  /* Hangul tone mark (Mc) */
	assert_int_equal(utf8_cp_width(0x302A), 0);  /* ideographic tone mark (Mn) */
	assert_int_equal(utf8_cp_width(0x1F321), 1); /* thermometer: EAW neutral */
	/* Never narrower than the C library's wcwidth(), which ncursesw and
	 * the terminal place text by. */
	assert_non_null(setlocale(LC_CTYPE, "C.UTF-8"));
	int narrower = 0;
	for (uint32_t cp = 0x20; cp <= 0x10FFFF; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		int w = wcwidth((wchar_t)cp);
		if (w > utf8_cp_width(cp)) {
			if (narrower++ < 10)
				fprintf(stderr, "U+%04X: wcwidth %d, ours %d\n", (unsigned)cp, w,
					utf8_cp_width(cp));
		}
	}
	setlocale(LC_CTYPE, "C");
	assert_int_equal(narrower, 0);
}

static void test_invalid(void **state)
{
	(void)state;
	uint32_t cp;
	assert_int_equal(utf8_decode("\xFF", 1, &cp), 1);
	assert_int_equal(cp, UTF8_REPLACEMENT);
	assert_int_equal(utf8_decode("\xC0\x80", 2, &cp), 1); /* overlong */
	assert_int_equal(cp, UTF8_REPLACEMENT);
	assert_int_equal(utf8_decode("\xED\xA0\x80", 3, &cp), 1); /* surrogate */
	assert_int_equal(cp, UTF8_REPLACEMENT);
	assert_int_equal(utf8_decode("\xE6\x97", 2, &cp), 1); /* truncated */
	assert_int_equal(cp, UTF8_REPLACEMENT);
	assert_int_equal(utf8_decode("\xE6\x97\xA5", 3, &cp), 3);
	assert_int_equal(cp, 0x65E5);
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint32_t cps[] = {0x41, 0xE9, 0x65E5, 0x1F600, 0x10FFFF};
	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		char buf[4];
		size_t n = utf8_encode(cps[i], buf);
		uint32_t back;
		assert_int_equal(utf8_decode(buf, n, &back), n);
		assert_int_equal(back, cps[i]);
	}
}

static void test_valid_and_repair(void **state)
{
	(void)state;
	assert_true(utf8_valid("", 0));
	const char ok[] = "plain 中文 \xF0\x9F\x92\xA3 \xEF\xBF\xBD";
	assert_true(utf8_valid(ok, sizeof ok - 1));
	assert_false(utf8_valid("a\xFF", 2));
	assert_false(utf8_valid("\xC0\xAF", 2));     /* overlong '/' */
	assert_false(utf8_valid("\xED\xA0\x80", 3)); /* a surrogate */
	assert_false(utf8_valid("\xE4\xB8", 2));     /* truncated */
	const char bad[] = "a\xFF\xFE b \xE4\xB8\xAD\xE4\xB8";
	char *r = utf8_repair(bad, sizeof bad - 1);
	assert_string_equal(r, "a\xEF\xBF\xBD\xEF\xBF\xBD b \xE4\xB8\xAD\xEF\xBF\xBD\xEF\xBF\xBD");
	assert_true(utf8_valid(r, strlen(r)));
	free(r);
	r = utf8_repair("", 0);
	assert_string_equal(r, "");
	free(r);
}

static void test_break_classes(void **state)
{
	(void)state;
	assert_true(utf8_no_break_before(0xFF0C)); /* ， */
	assert_true(utf8_no_break_before(0x3002)); /* 。 */
	assert_true(utf8_no_break_before(0x3001)); /* 、 */
	assert_true(utf8_no_break_after(0x201C));  /* “ */
	assert_true(utf8_is_cjk_breakable(0x4E2D));
	assert_false(utf8_is_cjk_breakable('a'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_wide_like_the_terminal),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_valid_and_repair),
		cmocka_unit_test(test_break_classes),
	};
	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
