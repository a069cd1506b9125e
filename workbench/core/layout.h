/*
 * layout.h - turns a parsed lesson into screen lines for a given width.
 *
 * Invariant: no line is wider than the width it was laid out for, counted
 * in display columns (CJK = 2) -- except, with LAYOUT_CODE_WHOLE, the lines
 * of a code block, which are kept whole for a reader that scrolls them
 * sideways (their width is their full width).  Every line remembers the source block and
 * the offset inside it, so a reader can keep its place across a resize.
 * This module draws nothing: the reader and `lesson show` print its lines.
 */
#ifndef WB_LAYOUT_H
#define WB_LAYOUT_H

#include <stddef.h>
#include <stdio.h>

struct lesson;

enum lay_style {
	LS_BOLD = 1 << 0,
	LS_ITALIC = 1 << 1,
	LS_CODE = 1 << 2,
	LS_LINK = 1 << 3,
	LS_H1 = 1 << 4,
	LS_H2 = 1 << 5,
	LS_H3 = 1 << 6,
	LS_QUOTE = 1 << 7,
	LS_BORDER = 1 << 8,
	LS_LAB = 1 << 9,
	LS_DIM = 1 << 10,
	LS_STRIKE = 1 << 11,
};

enum lay_kind {
	LK_BLANK,
	LK_TEXT,
	LK_HEADING,
	LK_CODE,
	LK_TABLE,
	LK_LAB,
	LK_RULE,
	LK_EXERCISE, /* a line of an exercise card (```exercise fence) */
};

struct lay_span {
	unsigned start; /* byte offset in the line text */
	unsigned len;	/* bytes */
	unsigned style; /* lay_style bits */
};

struct lay_line {
	char *text;		/* UTF-8, no newline, owned */
	unsigned len;		/* bytes of text */
	int width;		/* display columns, <= layout width (see LAYOUT_CODE_WHOLE) */
	struct lay_span *spans; /* styled ranges covering text, owned */
	unsigned nspans;
	int kind;	     /* enum lay_kind */
	int block;	     /* source block index (blank lines: the next block) */
	int offset;	     /* glyph (or row) offset in the block; -1 blank */
	int section;	     /* index into sections, -1 before the first */
	const char *lab_id;  /* LK_LAB lines: the lab id; LK_EXERCISE lines: the
			      * exercise id (owned by layout) */
	int block_width;     /* LK_CODE lines: the widest line of their block, prefix
			      * included (0 for other kinds) */
	unsigned text_start; /* bytes of container prefix (quote bars, list marks)
			      * before the line's own text */
	int joined;	     /* 1: wrapped inside a run of non-space text (no space, no
			      * forced break between it and the line before) */
};

struct lay_section {
	char *title; /* plain text of the ## heading */
	int line;    /* first line of the heading */
};

struct layout {
	int width; /* columns laid out for */
	struct lay_line *lines;
	size_t nlines;
	size_t cap;
	struct lay_section *sections; /* the ## headings, in order */
	size_t nsections;
	char **lab_ids; /* every lab id seen, in order, owned */
	size_t nlabs;
	char **exercise_ids; /* every exercise id seen, in order, owned */
	size_t nexercises;
	int nblocks;	/* source blocks numbered */
	unsigned flags; /* LAYOUT_* flags it was built with */
};

#define LAYOUT_MIN_WIDTH 10

/* Lays out lesson for width columns (clamped to LAYOUT_MIN_WIDTH).  Never
 * fails; free with layout_free. */
struct layout *layout_build(const struct lesson *lesson, int width);

/* layout_build_ex flags. */
enum {
	/* Code block lines are not wrapped: each source line stays one line,
	 * which may be wider than width (line.width says how wide).  For a
	 * screen that scrolls code sideways; `lesson show` does not use it. */
	LAYOUT_CODE_WHOLE = 1 << 0,
	/* Break opportunities from the hand-written rules of core/utf8.h
	 * instead of libunibreak (UAX #14).  Only for bench/linebreak_compare,
	 * which measures the two; the reader never sets it. */
	LAYOUT_BREAK_HANDWRITTEN = 1 << 1,
};

/* As layout_build, with LAYOUT_* flags. */
struct layout *layout_build_ex(const struct lesson *lesson, int width, unsigned flags);
void layout_free(struct layout *lay);

/* Line index showing (block, offset), for restoring a place after a
 * resize or a restart; 0 when the block no longer exists. */
size_t layout_find_anchor(const struct layout *lay, int block, int offset);

struct lay_hit {
	size_t line;	/* line index */
	unsigned start; /* byte offset in the line */
	unsigned len;	/* bytes */
};

/* Finds every occurrence of query (ASCII case-insensitive) line by line.
 * Returns the hit count; *hits is malloc'd (NULL when none). */
size_t layout_search(const struct layout *lay, const char *query, struct lay_hit **hits);

/* Plain text (no Markdown) is wrapped with the same rules by wrap_text
 * (core/wrap.h). */

/* Writes the layout as plain text, one line each, to a stdio stream. */
void layout_print(const struct layout *lay, FILE *stream);

#endif
