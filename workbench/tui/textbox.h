/*
 * textbox.h - a multi-line UTF-8 text box, the model only: code points,
 * a cursor, editing operations and the wrap into visual rows at a width.
 *
 * Pure: no curses, no terminal, no keys (the quiz screen maps its key
 * table onto these calls and draws the rows).  Indices are code point
 * indices; '\n' separates lines.  Allocation failure aborts (wb_x*), so
 * nothing here can fail.
 */
#ifndef WB_TUI_TEXTBOX_H
#define WB_TUI_TEXTBOX_H

#include <stddef.h>
#include <stdint.h>

struct textbox {
	uint32_t *cp; /* code points; '\n' separates lines; NULL while empty */
	size_t len;   /* code points used */
	size_t cap;   /* code points allocated */
	size_t cur;   /* cursor: index of the code point before which we insert */
};

/* Visual rows of a box at a width: row r spans [start[r], end[r]). */
struct textbox_rows {
	size_t *start, *end;
	size_t n;	/* rows, at least 1 */
	size_t cur_row; /* row holding the cursor */
	int cur_col;	/* cursor column in that row */
};

/* Empties the box (keeps the buffer). */
void textbox_clear(struct textbox *b);
/* Frees the buffer and zeroes the box; accepts an empty box. */
void textbox_free(struct textbox *b);
/* Replaces the contents with UTF-8 s (NULL: empty), dropping '\r';
 * the cursor ends after the text. */
void textbox_set(struct textbox *b, const char *s);
/* Inserts c at the cursor and moves the cursor past it. */
void textbox_insert(struct textbox *b, uint32_t c);
/* Erases [from, to) (clipped to the text); the cursor follows. */
void textbox_erase(struct textbox *b, size_t from, size_t to);
/* Erases the code point before the cursor, if any. */
void textbox_backspace(struct textbox *b);
/* Erases the word before the cursor and the blanks after it (^W). */
void textbox_kill_word(struct textbox *b);
/* Start and end (the '\n' or the text's end) of the line holding i. */
size_t textbox_line_start(const struct textbox *b, size_t i);
size_t textbox_line_end(const struct textbox *b, size_t i);
/* Moves the cursor one visual row up (dir < 0) or down at width,
 * keeping the column; past the first or last row it goes to the start
 * or the end of the text. */
void textbox_vertical(struct textbox *b, int width, int dir);
/* 1 when the box holds only blanks (or nothing). */
int textbox_blank(const struct textbox *b);
/* The text as UTF-8, or code points [from, to) of it; caller frees. */
char *textbox_text(const struct textbox *b);
char *textbox_slice(const struct textbox *b, size_t from, size_t to);
/* Wraps the box at width columns (a wide character that does not fit
 * starts the next row); free with textbox_rows_free. */
void textbox_wrap(const struct textbox *b, int width, struct textbox_rows *r);
void textbox_rows_free(struct textbox_rows *r);

#endif
