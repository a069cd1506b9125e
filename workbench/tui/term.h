/*
 * term.h - the curses set-up and the drawing helpers every screen shares
 * (tui/term.c).  The only code that calls initscr()/endwin().
 *
 * Helpers draw at absolute rows and columns of stdscr; they clip to the
 * width they are given and never wrap.  Nothing here knows a screen.
 */
#ifndef WB_TUI_TERM_H
#define WB_TUI_TERM_H

#include <stddef.h>

struct tui;
struct lay_line;

/* Starts curses in a UTF-8 locale, sets t->color and t->term_started;
 * returns 0, or -1 when the terminal cannot be initialised. */
int term_init(struct tui *t);
/* Restores the terminal; does nothing when curses is not started. */
void term_end(struct tui *t);
/* Draws the "too small" notice and returns 1 when the terminal is below
 * TUI_MIN_COLS x TUI_MIN_ROWS; 0 otherwise (nothing drawn). */
int term_too_small(struct tui *t);
/* A laid-out line at (y, x), clipped to maxw columns, in its styles. */
void term_draw_line(struct tui *t, int y, int x, const struct lay_line *l, int maxw);
/* As term_draw_line, the line's first skip columns left out (a wide
 * character cut by the edge shows as spaces). */
void term_draw_line_from(struct tui *t, int y, int x, const struct lay_line *l, int skip, int maxw);
/* Reverse-video search hits [start, start+len) over line l drawn at (y, x). */
void term_draw_hits(int y, int x, const struct lay_line *l, const unsigned (*hits)[2], size_t n);
/* As term_draw_hits for a line drawn with term_draw_line_from(skip) in
 * maxw columns: hits starting outside them are not drawn. */
void term_draw_hits_from(int y, int x, const struct lay_line *l, int skip, int maxw,
			 const unsigned (*hits)[2], size_t n);
/* The status line: t->message when set, else left; right-aligned right;
 * a part that does not fit is cut with "…", two spaces between them. */
void term_status(struct tui *t, const char *left, const char *right);
/* Draws UTF-8 text at (y, x), clipped to maxw columns; returns columns used. */
int term_text(int y, int x, const char *s, int maxw, int attr);
/* As term_text, but text wider than maxw ends in "…" (cut at a character
 * boundary, the ellipsis inside maxw); returns columns used. */
int term_text_cut(int y, int x, const char *s, int maxw, int attr);
/* Hands the terminal to another program (an editor) and takes it back:
 * the curses modes are saved and restored, the screen redrawn whole.
 * Nothing when curses is not started. */
void term_suspend(struct tui *t);
void term_resume(struct tui *t);
int term_attr_heading(const struct tui *t);
int term_attr_select(void);
/* Reads a line on the bottom row (its own small key loop); returns 1 and
 * fills buf on Enter, 0 on Esc or when the program is asked to stop.
 * Other screens are ticked and polled meanwhile (tui_service). */
int term_prompt(struct tui *t, const char *prompt, char *buf, size_t len);

#endif
