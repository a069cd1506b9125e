/* test_textbox.c - the quiz screen's text box model (tui/textbox.c):
 * inserting, erasing, line and word motions, UTF-8 in and out, and the
 * wrap into rows with the cursor's row and column.  No curses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/textbox.h"

static void assert_text(const struct textbox *b, const char *want)
{
	char *got = textbox_text(b);
	assert_string_equal(got, want);
	free(got);
}

static void insert_str(struct textbox *b, const char *s)
{
	for (; *s; s++)
		textbox_insert(b, (unsigned char)*s);
}

static void test_empty(void **state)
{
	(void)state;
	struct textbox b = {0};
	assert_true(textbox_blank(&b));
	assert_text(&b, "");
	textbox_backspace(&b); /* nothing to erase: no effect */
	textbox_erase(&b, 0, 5);
	assert_int_equal(b.len, 0);
	struct textbox_rows r;
	textbox_wrap(&b, 10, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.cur_row, 0);
	assert_int_equal(r.cur_col, 0);
	textbox_rows_free(&r);
	textbox_free(&b);
	textbox_free(&b); /* a freed box is an empty box */
}

static void test_insert_and_erase(void **state)
{
	(void)state;
	struct textbox b = {0};
	insert_str(&b, "relist!!");
	textbox_backspace(&b);
	textbox_backspace(&b);
	b.cur = textbox_line_start(&b, b.cur);
	insert_str(&b, "then ");
	assert_text(&b, "then relist");
	assert_int_equal(b.cur, 5);
	textbox_erase(&b, 0, 5); /* the cursor follows the erased span */
	assert_int_equal(b.cur, 0);
	assert_text(&b, "relist");
	b.cur = b.len;
	textbox_erase(&b, 1, 3);
	assert_int_equal(b.cur, 4);
	assert_text(&b, "rist");
	textbox_free(&b);
}

static void test_lines_and_words(void **state)
{
	(void)state;
	struct textbox b = {0};
	textbox_set(&b, "one two\r\nthree  four");
	assert_text(&b, "one two\nthree  four"); /* \r dropped */
	assert_int_equal(b.cur, b.len);
	assert_int_equal(textbox_line_start(&b, b.cur), 8);
	assert_int_equal(textbox_line_end(&b, 2), 7);
	textbox_kill_word(&b);
	assert_text(&b, "one two\nthree  ");
	textbox_kill_word(&b); /* blanks, then the word before them */
	assert_text(&b, "one two\n");
	textbox_kill_word(&b); /* across the newline */
	assert_text(&b, "one ");
	assert_false(textbox_blank(&b));
	textbox_set(&b, " \t\n\xE3\x80\x80"); /* U+3000 ideographic space */
	assert_true(textbox_blank(&b));
	textbox_clear(&b);
	assert_int_equal(b.len, 0);
	textbox_free(&b);
}

static void test_utf8(void **state)
{
	(void)state;
	struct textbox b = {0};
	textbox_set(&b, "通知只是快照失效?");
	assert_int_equal(b.len, 9); /* code points, not bytes */
	b.cur = 2;
	textbox_backspace(&b);
	assert_text(&b, "通只是快照失效?");
	char *s = textbox_slice(&b, 1, 3);
	assert_string_equal(s, "只是");
	free(s);
	s = textbox_slice(&b, 5, 100); /* clipped to the text */
	assert_string_equal(s, "失效?");
	free(s);
	textbox_free(&b);
}

static void test_wrap(void **state)
{
	(void)state;
	struct textbox b = {0};
	/* Width 4: "abcd" fills a row, "ef" wraps, the newline ends "ef",
	 * and a wide character that does not fit starts a new row. */
	textbox_set(&b, "abcdef\nxyz日");
	struct textbox_rows r;
	textbox_wrap(&b, 4, &r);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.start[0], 0);
	assert_int_equal(r.end[0], 4);
	assert_int_equal(r.start[1], 4);
	assert_int_equal(r.end[1], 6);
	assert_int_equal(r.start[2], 7);
	assert_int_equal(r.end[2], 10);
	assert_int_equal(r.start[3], 10);
	assert_int_equal(r.end[3], 11);
	assert_int_equal(r.cur_row, 3); /* cursor at the end, after 日 */
	assert_int_equal(r.cur_col, 2);
	textbox_rows_free(&r);
	textbox_free(&b);
}

/* Rows break after the last space that fits, so words stay whole; a
 * space at the break belongs to no row; CJK text breaks anywhere; a word
 * longer than the row is cut. */
static void test_wrap_words(void **state)
{
	(void)state;
	struct textbox b = {0};
	struct textbox_rows r;
	textbox_set(&b, "ab cd ef");
	textbox_wrap(&b, 4, &r);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.end[0], 3); /* "ab " */
	assert_int_equal(r.start[1], 3);
	assert_int_equal(r.end[1], 6); /* "cd " */
	assert_int_equal(r.start[2], 6);
	assert_int_equal(r.end[2], 8); /* "ef" */
	textbox_rows_free(&r);

	textbox_set(&b, "watch predecessor.");
	textbox_wrap(&b, 12, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.end[0], 6); /* "watch " */
	assert_int_equal(r.start[1], 6);
	textbox_rows_free(&r);

	textbox_set(&b, "abcd efgh");
	textbox_wrap(&b, 4, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.end[0], 4);
	assert_int_equal(r.start[1], 5); /* the space at the break is skipped */
	textbox_rows_free(&r);

	textbox_set(&b, "日本 語です");
	textbox_wrap(&b, 6, &r); /* 日本 + space = 5 columns; 語 is wide: break there */
	assert_int_equal(r.n, 2);
	assert_int_equal(r.end[0], 3);
	assert_int_equal(r.start[1], 3);
	textbox_rows_free(&r);

	textbox_set(&b, "abcdefgh");
	textbox_wrap(&b, 3, &r);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.end[0], 3);
	textbox_rows_free(&r);
	textbox_free(&b);
}

static void test_vertical(void **state)
{
	(void)state;
	struct textbox b = {0};
	textbox_set(&b, "abcdef\nxy");
	b.cur = 5; /* 'f' on row 1 of width 4, column 1 */
	textbox_vertical(&b, 4, -1);
	assert_int_equal(b.cur, 1); /* row 0, column 1 */
	textbox_vertical(&b, 4, -1);
	assert_int_equal(b.cur, 0); /* past the first row: the start */
	b.cur = 3;
	textbox_vertical(&b, 4, 1);
	assert_int_equal(b.cur, 6); /* row 1 "ef" is shorter: its end */
	textbox_vertical(&b, 4, 1);
	assert_int_equal(b.cur, 9); /* row 2 "xy", column 2: the end */
	textbox_vertical(&b, 4, 1);
	assert_int_equal(b.cur, b.len); /* past the last row: the end */
	textbox_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_insert_and_erase),
		cmocka_unit_test(test_lines_and_words),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wrap_words),
		cmocka_unit_test(test_vertical),
	};
	return cmocka_run_group_tests_name("textbox", tests, NULL, NULL);
}
