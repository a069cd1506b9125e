/*
 * utf8.h - UTF-8 decoding and terminal display width.
 *
 * The width rules are our own table (East Asian Wide and Fullwidth take two
 * columns, combining marks and zero-width characters none) so that layout
 * does not depend on the process locale: `lesson show` under LANG=C lays
 * out Chinese exactly as the reader does.  It does not do grapheme
 * clustering beyond attaching zero-width code points to the one before.
 */
#ifndef WB_UTF8_H
#define WB_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_REPLACEMENT 0xFFFDu

/* Decodes one code point from s (at most n bytes).  Stores it in *cp and
 * returns the bytes consumed (>= 1).  Invalid, overlong, surrogate or
 * truncated sequences yield U+FFFD and consume one byte. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/* True when s[0..n) is valid UTF-8 (no invalid, overlong, surrogate or
 * truncated sequence). */
int utf8_valid(const char *s, size_t n);

/* A NUL-terminated copy of s[0..n) with every byte that is not part of
 * valid UTF-8 replaced by U+FFFD.  Caller frees. */
char *utf8_repair(const char *s, size_t n);

/* Encodes cp into out (4 bytes room); returns the byte count. */
size_t utf8_encode(uint32_t cp, char *out);

/* Display columns of one code point: 0, 1 or 2.  Control characters
 * count as 0 here; callers replace them before display. */
int utf8_cp_width(uint32_t cp);

/* Display columns of a UTF-8 string (invalid bytes count as U+FFFD, 1). */
int utf8_width(const char *s, size_t n);

/* True for code points that break like ideographs: a line may break
 * before or after each of them. */
int utf8_is_cjk_breakable(uint32_t cp);

/* Punctuation that must not start a line (，。、；：？！ and closers). */
int utf8_no_break_before(uint32_t cp);

/* Openers that must not end a line (（「『【《“ and ASCII ( [ {). */
int utf8_no_break_after(uint32_t cp);

/* Lower-cases ASCII and returns other code points unchanged; enough for a
 * case-insensitive search of mixed English/Chinese text. */
uint32_t utf8_fold(uint32_t cp);

#endif
