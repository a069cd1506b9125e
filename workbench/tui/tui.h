/*
 * tui.h - the interactive workbench: one state struct, screens as small
 * objects on a stack, key bindings as data.
 *
 * Screens draw model state and turn keys into model calls; they never
 * parse Markdown or touch SQL themselves.  term.c is the only file that
 * sets curses up or tears it down.
 */
#ifndef WB_TUI_H
#define WB_TUI_H

#include <stddef.h>
#include <wchar.h>

struct app;
struct store;
struct lay_line;

/* A key binding: key code (a character or a KEY_* code) -> action. */
struct keybind {
	int key;	     /* character or KEY_* code */
	int is_code;	     /* 1 for KEY_* codes from wget_wch */
	const char *label;   /* as shown in help, e.g. "j" or "↓" */
	int action;	     /* screen-specific action number */
	const char *help_en; /* what it does, English */
	const char *help_zh; /* what it does, Chinese */
};

struct tui;

struct screen {
	const char *name;
	void *self;				 /* screen state */
	void (*draw)(struct tui *t, void *self); /* paints the whole screen */
	void (*key)(struct tui *t, void *self, int action, wint_t ch, int is_code);
	void (*resize)(struct tui *t, void *self); /* terminal size changed */
	void (*leave)(struct tui *t, void *self);  /* popped or program exits */
	void (*free)(void *self);
	/* Optional: called once per loop iteration before draw, for screens
	 * that follow a child process.  Returns the wait in ms it wants for
	 * the next key (0: default). */
	int (*tick)(struct tui *t, void *self);
	const struct keybind *keys; /* bindings, for dispatch and help */
	size_t nkeys;
};

struct tui {
	struct app *app;	/* options: content root, language, db path */
	struct store *store;	/* progress database */
	struct screen stack[8]; /* screens; the last one is on top */
	int depth;		/* screens on the stack */
	int quit;		/* leave the main loop */
	int help_open;		/* help overlay shown over the top screen */
	char message[256];	/* one-shot message for the status line */
	int color;		/* colours allowed (NO_COLOR unset, terminal can) */
};

/* Screen stack. push takes ownership of the screen's state. */
void tui_push(struct tui *t, struct screen s);
void tui_pop(struct tui *t);
void tui_flash(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* term.c: the only curses set-up. */
int term_init(struct tui *t);
void term_end(void);
int term_too_small(struct tui *t); /* draws the notice and returns 1 when too small */
void term_draw_line(int y, int x, const struct lay_line *l, int maxw);
void term_draw_hits(int y, int x, const struct lay_line *l, const unsigned (*hits)[2], size_t n);
void term_status(struct tui *t, const char *left, const char *right);
/* Draws UTF-8 text at (y, x), clipped to maxw columns; returns columns used. */
int term_text(int y, int x, const char *s, int maxw, int attr);
int term_attr_heading(void);
int term_attr_select(void);
/* Reads a line on the bottom row; returns 1 and fills buf on Enter, 0 on Esc. */
int term_prompt(struct tui *t, const char *prompt, char *buf, size_t len);

/* Screens. */
struct screen home_screen(struct tui *t);
/* Opens the reader on chapter id in lang; returns 0 or a WB_E code. */
int reader_open(struct tui *t, const char *chapter, const char *lang);
/* Opens a read-only view of a source file, scrolled to the definition of
 * func when given.  Nothing is saved.  Returns 0 or a WB_E code. */
int reader_open_source(struct tui *t, const char *path, const char *func);
/* Runs a lab in place (a child `workbench lab run ID --json`). */
int lab_screen_open(struct tui *t, const char *lab_id, const char *chapter);
void help_draw(struct tui *t, const struct screen *s);

#define TUI_MIN_COLS 40
#define TUI_MIN_ROWS 12

#endif
