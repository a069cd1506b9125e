/*
 * wrap.h - text to glyphs and glyphs to lines: the line breaker that
 * lessons (core/layout), timelines (core/timeline) and every screen's
 * plain text share.
 *
 * A run is text turned into glyphs: one visible character (plus any
 * zero-width marks that follow it) with its width, style and what the
 * breaker needs to know of it.  Invalid UTF-8 and control characters
 * become U+FFFD here, once (core/textsafe.h decides which).  Wrapping is
 * greedy over libunibreak's break opportunities (UAX #14) in a language;
 * a run with no opportunity that does not fit is cut at a space, else at
 * the edge of a Latin word or number, else between glyphs, so no line is
 * ever wider than asked.  The design notes and the measurements behind
 * them are at the top of core/layout.c.
 *
 * This module knows no Markdown, no lesson and no screen; it draws
 * nothing.
 */
#ifndef WB_WRAP_H
#define WB_WRAP_H

#include "base/wb.h"

#include <stddef.h>
#include <stdint.h>

/* What wrapping needs to know of a glyph's code point, kept instead of
 * it. */
enum wrap_glyph_class {
	WG_NEWLINE = 1 << 0,	     /* a forced break */
	WG_SPACE = 1 << 1,	     /* ' ' */
	WG_NO_BREAK_BEFORE = 1 << 2, /* closing punctuation (hand-written rules) */
	WG_NO_BREAK_AFTER = 1 << 3,  /* opening brackets (hand-written rules) */
	WG_CJK = 1 << 4,	     /* an ideograph: softbreaks around it vanish */
};

/* 8 bytes: a 4 MB paragraph is 4 million glyphs (#20 F5). */
#define WRAP_GLYPH_MAX_LEN 8191u
#define WRAP_STYLE_BITS	   12
struct wrap_glyph {
	uint32_t off;	     /* byte offset in the run's text */
	uint32_t len : 13;   /* bytes, with attached zero-width marks */
	uint32_t width : 2;  /* display columns */
	uint32_t style : 12; /* the caller's style bits (layout's lay_style) */
	uint32_t cls : 5;    /* enum wrap_glyph_class bits */
};

/* A run of glyphs; zero-initialised is empty.  Free with wrap_run_free. */
struct wrap_run {
	struct wb_buf text; /* UTF-8 of every glyph, concatenated */
	struct wrap_glyph *g;
	size_t n, cap;
	/* libunibreak's verdict after each byte of text (LINEBREAK_*), made
	 * by wrap_lines before wrapping; NULL: not made (or hand-written
	 * rules), dropped when the run grows. */
	char *brk;
};

/* Frees what r holds and leaves it empty.  Accepts an empty run. */
void wrap_run_free(struct wrap_run *r);

/* Appends n bytes of UTF-8 text s in style; "\n" is a forced break, "\r"
 * is dropped.  code mode expands a tab to 4 spaces (else one).  Never
 * fails. */
void wrap_run_add(struct wrap_run *r, const char *s, size_t n, unsigned style, int code);

/* wrap_run_add of a NUL-terminated string; NULL adds nothing. */
void wrap_run_addz(struct wrap_run *r, const char *s, unsigned style);

/* Whether g is a space. */
int wrap_is_space(const struct wrap_glyph *g);

/* How wrap_lines breaks. */
struct wrap_opts {
	const char *lang; /* libunibreak's language ("zh", "en"); NULL: zh when
			     the run holds an ideograph, else none */
	int hand_rules;	  /* 1: the hand-written rules of core/utf8.h instead of
			     libunibreak (bench/linebreak_compare only) */
};

/* Makes r->brk, the break opportunities wrap_lines follows, unless o
 * asks for the hand-written rules or they are made already (the run's
 * growth drops them).  o as in wrap_lines. */
void wrap_run_breaks(struct wrap_run *r, const struct wrap_opts *o);

/* May a line start at glyph j (0 < j < r->n)?  A space never starts one;
 * otherwise the opportunities of wrap_run_breaks, or without them the
 * hand-written rules.  A forced break (WG_NEWLINE) is wrap_lines', not
 * asked here. */
int wrap_can_break_before(const struct wrap_run *r, size_t j);

/* Called for each line: glyphs [a, b) of r. */
typedef void (*wrap_line_fn)(const struct wrap_run *r, size_t a, size_t b, void *arg);

/* Splits glyphs [from, to) of r into lines of at most avail columns (at
 * least 2) and calls fn(r, a, b, arg) for each, in order.  hard: break
 * only when full (code), keeping spaces; else leading spaces of a line
 * are skipped.  o NULL: the defaults (no language, libunibreak).  It may
 * make r->brk; it changes nothing else of r. */
void wrap_lines(struct wrap_run *r, size_t from, size_t to, int avail, int hard,
		const struct wrap_opts *o, wrap_line_fn fn, void *arg);

/* Wraps plain UTF-8 text (no Markdown) to width columns with the same
 * rules as lessons; "\n" forces a break.  Returns the line count; *lines
 * is a malloc'd array of malloc'd strings, freed with wrap_text_free. */
size_t wrap_text(const char *text, int width, char ***lines);
/* Frees wrap_text's lines (n of them).  Accepts NULL with n 0. */
void wrap_text_free(char **lines, size_t n);

#endif
