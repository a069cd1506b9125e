/*
 * textsafe.h - the one sanitiser for content text on its way to a terminal
 * or an export file.
 *
 * Lessons and question banks are files anyone can write (an instructor's
 * folder is loaded automatically), so their bytes are untrusted: an ESC
 * sequence in a question could set the window title, clear the screen or
 * write the clipboard (OSC 52), a C1 byte acts as CSI on 8-bit terminals,
 * and bidi overrides make displayed text differ from the file.  Every path
 * that prints content (CLI commands, the TUI, lint messages that quote
 * content) passes it through here.  Unsafe characters are replaced by
 * visible placeholders, so an instructor sees that something was there:
 *
 *   C0 controls other than TAB and LF, ESC included  U+2400 + code (␀ .. ␟, ␛)
 *     (a CR directly before LF is a line end and stays, for CSV)
 *   DEL                                               U+2421 (␡)
 *   C1 controls U+0080-U+009F                         "<U+009B>"
 *   bidi embeddings, overrides and isolates
 *     U+202A-U+202E, U+2066-U+2069                    "<U+202E>"
 *   bytes that are not valid UTF-8                    U+FFFD
 *
 * What follows an ESC (e.g. "]52;c;...") is printable and stays as text: the
 * sequence is harmless once its introducer is gone.  It deliberately does
 * not strip anything the reader needs (TAB, LF, CJK, combining marks) and
 * knows nothing of Markdown.
 */
#ifndef WB_TEXTSAFE_H
#define WB_TEXTSAFE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum textsafe_kind {
	TEXTSAFE_OK = 0,  /* nothing unsafe (end of text) */
	TEXTSAFE_CONTROL, /* C0 control or DEL (not TAB, LF) */
	TEXTSAFE_ESC,	  /* ESC, the introducer of terminal sequences */
	TEXTSAFE_C1,	  /* C1 control U+0080-U+009F */
	TEXTSAFE_BIDI,	  /* bidi embedding, override or isolate */
	TEXTSAFE_INVALID, /* a byte that is not valid UTF-8 */
};

/* Finds the first unsafe character in s[0..n) at or after byte *pos.
 * Returns its kind and leaves *pos at its first byte, *cp at its code point
 * (the byte value for TEXTSAFE_INVALID) and *len at its length in bytes;
 * returns TEXTSAFE_OK with *pos = n when there is none.  Cannot fail. */
enum textsafe_kind textsafe_next(const char *s, size_t n, size_t *pos, uint32_t *cp, size_t *len);

/* True when the code point cp is one a terminal would act on (C0 but TAB
 * and LF, DEL, C1, bidi controls).  For drawing code that has decoded the
 * text already and replaces such a character by one glyph of its own
 * width.  Cannot fail. */
int textsafe_unsafe_cp(uint32_t cp);

/* True when s[0..n) holds nothing unsafe.  Cannot fail. */
int textsafe_clean(const char *s, size_t n);

/* A NUL-terminated copy of s[0..n) with every unsafe character replaced by
 * its placeholder (table above).  Aborts on allocation failure like the
 * wb_x* helpers; caller frees. */
char *textsafe_dup(const char *s, size_t n);

/* textsafe_dup of a NUL-terminated string; NULL gives NULL. */
char *textsafe_str(const char *s);

/* Writes s (NUL-terminated; NULL writes nothing) to f with placeholders.
 * Returns 0 or WB_EIO when the stream reports an error. */
int textsafe_fputs(const char *s, FILE *f);

/* For lint: calls fn(arg, line, column, description) for every unsafe
 * character of a whole file's bytes s[0..n), line and column 1-based,
 * the column counted in characters.  Lines end at LF, CR LF or a lone CR,
 * as cmark-gfm reads them, so a CR that ends a line is not reported.
 * Returns how many it reported.  Cannot fail. */
size_t textsafe_scan(const char *s, size_t n,
		     void (*fn)(void *arg, size_t line, size_t col, const char *what), void *arg);

/* The state of one sanitising stream; the caller owns it (a static of
 * main.c: the CLI's stdout and stderr live until the process ends, and
 * exit() flushes but never closes them). */
struct textsafe_stream {
	int fd;	       /* where sanitised bytes go; not ours to close */
	char carry[4]; /* the start of a UTF-8 sequence (or a CR) a write cut off */
	size_t ncarry; /* bytes in carry */
};

/* A stdio stream that writes to fd through the sanitiser, keeping its
 * state in *st: the CLI replaces stdout and stderr with two of these, so
 * whatever a command prints (content, lint messages that quote it, errors
 * naming a bank's values) is made safe in one place.  A UTF-8 sequence or
 * a CR split between two writes is held back until the next byte tells.
 * mode is _IOFBF, _IOLBF or _IONBF, as setvbuf takes it.  Returns NULL when
 * the stream cannot be made (the caller keeps the plain stream).  fclose
 * flushes what is held; the fd stays open. */
FILE *textsafe_stream(struct textsafe_stream *st, int fd, int mode);

/* A short English description for lint messages, e.g. "control character
 * U+001B (ESC)" or "bidi override U+202E".  Writes into buf (room for 64
 * bytes is enough) and returns it. */
const char *textsafe_describe(enum textsafe_kind kind, uint32_t cp, char *buf, size_t len);

#endif
