/* test_textsafe.c - the content sanitiser: the hostile payloads of the
 * reliability review (OSC 52, title set, screen clear, DCS, huge CSI, BEL,
 * raw 0x9b, U+009B, invalid UTF-8, bidi overrides) come out with no byte a
 * terminal acts on, and ordinary text (TAB, LF, CJK, combining marks, a real
 * U+FFFD) comes out unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <unistd.h>

#include "core/textsafe.h"

/* Nothing a terminal interprets: no C0 but TAB/LF, no DEL, no C1 (raw byte
 * or UTF-8 encoded), no bidi control, valid UTF-8. */
static int terminal_inert(const char *s)
{
	return textsafe_clean(s, strlen(s));
}

static const char *const payloads[] = {
	"\033]52;c;ZWNobyBwd25lZA==\007", /* OSC 52: clipboard write */
	"\033]0;PWNED\007",		  /* window title */
	"\033[2J\033[H",		  /* clear screen */
	"\033P1;2|payload\033\\",	  /* DCS ... ST */
	"\033[99999999999999999999m",	  /* CSI with a huge parameter */
	"bell\007",			  /* BEL */
	"raw \x9b"
	"31m C1 CSI byte", /* 8-bit CSI, not UTF-8 */
	"encoded \xc2\x9b"
	"31m U+009B",	      /* C1 CSI as UTF-8 */
	"bad \xff\xfe utf-8", /* invalid UTF-8 */
	"\xe2\x80\xae"
	"evil \xe2\x81\xa6",		    /* U+202E RLO, U+2066 LRI */
	"cr\rover \x7f del \x08 backspace", /* CR, DEL, BS */
};

static void test_payloads_neutralised(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof payloads / sizeof payloads[0]; i++) {
		assert_false(terminal_inert(payloads[i]));
		char *safe = textsafe_str(payloads[i]);
		assert_non_null(safe);
		assert_true(terminal_inert(safe));
		assert_null(strchr(safe, '\033'));
		free(safe);
	}
}

static void test_placeholders_visible(void **state)
{
	(void)state;
	char *s = textsafe_str("a\033]0;T\007b");
	assert_string_equal(s, "a\xe2\x90\x9b]0;T\xe2\x90\x87"
			       "b"); /* ␛ ... ␇ */
	free(s);
	s = textsafe_str("x\xc2\x9by");
	assert_string_equal(s, "x<U+009B>y");
	free(s);
	s = textsafe_str("\xe2\x80\xae"
			 "z");
	assert_string_equal(s, "<U+202E>z");
	free(s);
	s = textsafe_str("q\xffr");
	assert_string_equal(s, "q\xef\xbf\xbdr");
	free(s);
	s = textsafe_str("d\x7f");
	assert_string_equal(s, "d\xe2\x90\xa1"); /* ␡ */
	free(s);
}

static void test_ordinary_text_unchanged(void **state)
{
	(void)state;
	const char *ok[] = {
		"plain\ttab\nnew line",
		"csv,line\r\nnext\r\n", /* CR LF ends a line; it moves nothing */
		"锁、租约与编号：一次 create 的回复丢了。",
		"e\xcc\x81 combining, a real \xef\xbf\xbd replacement",
		"",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		assert_true(terminal_inert(ok[i]));
		char *s = textsafe_str(ok[i]);
		assert_string_equal(s, ok[i]);
		free(s);
	}
	assert_null(textsafe_str(NULL));
}

/* textsafe_next walks every unsafe character with its byte offset, so lint
 * can report file:line:column for each. */
static void test_next_positions(void **state)
{
	(void)state;
	const char *s = "ab\033c\xe2\x80\xae"
			"d\xff";
	size_t n = strlen(s), pos = 0, len;
	uint32_t cp;
	assert_int_equal(textsafe_next(s, n, &pos, &cp, &len), TEXTSAFE_ESC);
	assert_int_equal(pos, 2);
	assert_int_equal(cp, 0x1b);
	pos += len;
	assert_int_equal(textsafe_next(s, n, &pos, &cp, &len), TEXTSAFE_BIDI);
	assert_int_equal(pos, 4);
	assert_int_equal(cp, 0x202e);
	assert_int_equal(len, 3);
	pos += len;
	assert_int_equal(textsafe_next(s, n, &pos, &cp, &len), TEXTSAFE_INVALID);
	assert_int_equal(pos, 8);
	assert_int_equal(cp, 0xff);
	pos += len;
	assert_int_equal(textsafe_next(s, n, &pos, &cp, &len), TEXTSAFE_OK);
	assert_int_equal(pos, n);
	char buf[96];
	assert_non_null(
		strstr(textsafe_describe(TEXTSAFE_BIDI, 0x202e, buf, sizeof buf), "U+202E"));
}

struct found {
	size_t n;
	size_t line[8], col[8];
};

static void collect(void *arg, size_t line, size_t col, const char *what)
{
	struct found *f = arg;
	(void)what;
	if (f->n < 8) {
		f->line[f->n] = line;
		f->col[f->n] = col;
	}
	f->n++;
}

/* Lint positions: CR LF and lone CR end lines and are not reported; the
 * column counts characters, so a CJK line reports the character. */
static void test_scan_positions(void **state)
{
	(void)state;
	const char *file = "ok line\r\n锁\033x\ry\xe2\x80\xae\n\x07";
	struct found f = {0};
	assert_int_equal(textsafe_scan(file, strlen(file), collect, &f), 3);
	assert_int_equal(f.line[0], 2);
	assert_int_equal(f.col[0], 2); /* after 锁 */
	assert_int_equal(f.line[1], 3);
	assert_int_equal(f.col[1], 2);
	assert_int_equal(f.line[2], 4);
	assert_int_equal(f.col[2], 1);
}

/* The CLI's stdout: content printed in pieces, with a UTF-8 sequence cut
 * between two writes, arrives sanitised and whole. */
static void test_stream(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct textsafe_stream st;
	FILE *f = textsafe_stream(&st, fds[1], _IONBF);
	assert_non_null(f);
	fputs("title \033]0;X\007 ", f);
	fputs("\xe9\x94", f); /* 锁 = e9 94 81, cut after two bytes */
	fputs("\x81 ok\n", f);
	fputs("crlf\r", f); /* CR LF cut between two writes stays */
	fputs("\nlone\rcr\n", f);
	fputs("tail \xe2\x80", f); /* cut, and never completed */
	assert_int_equal(fclose(f), 0);
	close(fds[1]);
	char got[256] = {0};
	size_t n = 0;
	ssize_t r;
	while ((r = read(fds[0], got + n, sizeof got - 1 - n)) > 0)
		n += (size_t)r;
	close(fds[0]);
	assert_string_equal(got, "title \xe2\x90\x9b]0;X\xe2\x90\x87 \xe9\x94\x81 ok\n"
				 "crlf\r\nlone\xe2\x90\x8d"
				 "cr\n"
				 "tail \xef\xbf\xbd\xef\xbf\xbd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_payloads_neutralised),
		cmocka_unit_test(test_placeholders_visible),
		cmocka_unit_test(test_ordinary_text_unchanged),
		cmocka_unit_test(test_next_positions),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_scan_positions),
	};
	return cmocka_run_group_tests_name("textsafe", tests, NULL, NULL);
}
