/*
 * tui.h - the screen framework of the interactive workbench: one state
 * struct, screens as small objects on a stack, key bindings as data, one
 * main loop, and navigation as data (a screen asks for another screen with
 * a request; the loop carries it out after the key handler has returned).
 *
 * This header knows no screen.  Screens never include each other's
 * headers: they post a `struct nav` with tui_go(), and tui/nav.c (the only
 * file that includes every screen header) opens what was asked for.  The
 * curses drawing helpers are in term.h.
 */
#ifndef WB_TUI_H
#define WB_TUI_H

#include <stddef.h>
#include <wchar.h>

struct app;
struct store;
struct quiz_bank;

/* A key binding: key code (a character or a KEY_* code) -> action. */
struct keybind {
	int key;	     /* character or KEY_* code */
	int is_code;	     /* 1 for KEY_* codes from wget_wch */
	const char *label;   /* as shown in help, e.g. "j" or "↓" */
	int action;	     /* screen-specific action number */
	const char *help_en; /* what it does, English */
	const char *help_zh; /* what it does, Chinese */
};

/* The key table of a screen's current mode.  With wants_text the mode
 * takes text: '?' and every printable key the table does not bind reach
 * the screen's key() (action -1) instead of opening help or being
 * dropped; F1 opens help in every mode. */
struct keymap {
	const struct keybind *keys; /* bindings, for dispatch and help */
	size_t nkeys;
	int wants_text; /* unbound printable keys are text for the screen */
};

struct tui;

struct screen {
	const char *name;
	void *self;				 /* screen state */
	void (*draw)(struct tui *t, void *self); /* paints the whole screen */
	/* A key: action from the current key table, -1 when unbound. */
	void (*key)(struct tui *t, void *self, int action, wint_t ch, int is_code);
	void (*resize)(struct tui *t, void *self); /* terminal size changed */
	void (*leave)(struct tui *t, void *self);  /* popped or program exits */
	void (*free)(void *self);
	/* Optional: called once per loop iteration for EVERY screen on the
	 * stack (top or not), before the top one is drawn; it must not draw.
	 * Returns the longest wait in ms it allows before the next call
	 * (0: no preference).  For screens that follow a child process. */
	int (*tick)(struct tui *t, void *self);
	/* Optional: the descriptor the loop should poll for this screen
	 * (-1: none now), asked again every iteration, and what to do when
	 * it is readable or hung up.  Polled whichever screen is on top. */
	int (*poll_fd)(void *self);
	void (*on_readable)(struct tui *t, void *self);
	/* Optional: the key table of the current mode; without it keys and
	 * nkeys are the only table and the screen takes no text. */
	struct keymap (*keymap)(void *self);
	const struct keybind *keys; /* bindings, for dispatch and help */
	size_t nkeys;
};

/* Where a screen wants to go; the loop carries it out after key(). */
enum nav_kind {
	NAV_NONE,     /* nothing asked */
	NAV_BACK,     /* pop the top screen */
	NAV_READER,   /* lesson `chapter` in `lang` (closed while a test covers it) */
	NAV_SOURCE,   /* read-only source file `arg`, at the definition of `func` */
	NAV_LAB,      /* run lab `arg` from the card of `chapter` */
	NAV_TEST,     /* self-test of `chapter` in `lang`, or resume it */
	NAV_REVIEW,   /* review of the questions due today in `lang` */
	NAV_STATS,    /* statistics */
	NAV_HOME,     /* the chapter list (the first screen) */
	NAV_GLOSSARY, /* the glossary in `lang`, at term `arg` ("" for the top) */
	NAV_EXERCISE, /* edit and check exercise `arg` from the card of `chapter` */
};

struct nav {
	enum nav_kind kind;
	int replace_top; /* the new screen replaces the top one (only if it opens) */
	char chapter[64];
	char lang[8];
	char arg[512];
	char func[128];
};

struct tui {
	struct app *app;	    /* options: content root, language, db path */
	struct store *store;	    /* progress database */
	struct screen *stack;	    /* screens; the last one is on top */
	int depth;		    /* screens on the stack */
	int cap;		    /* slots allocated in stack */
	int quit;		    /* leave the main loop */
	int help_open;		    /* help overlay shown over the top screen */
	int help_top;		    /* its first row shown (help.c scrolls it) */
	char message[256];	    /* one-shot message for the status line */
	int color;		    /* colours allowed (NO_COLOR unset, terminal can) */
	int term_started;	    /* curses is up: term_end has something to end */
	struct nav pending;	    /* screen change asked during this key, NAV_NONE */
	struct quiz_bank *due_bank; /* cached bank for the "due today" counts */
	char due_lang[8];	    /* its language; "" when none cached */
};

/* Screen stack.  push takes ownership of the screen's state; it grows the
 * stack as needed and cannot fail.  pop calls leave and free of the top
 * screen and ends the loop when the stack is empty. */
void tui_push(struct tui *t, struct screen s);
void tui_pop(struct tui *t);

/* Asks for a screen change.  Nothing happens until the key handler that
 * asks returns, so the caller's state stays valid to the end of the
 * handler; a second request in the same handler replaces the first. */
void tui_go(struct tui *t, const struct nav *n);
/* tui_go(NAV_BACK): the top screen goes once its key handler returns. */
void tui_back(struct tui *t);

/* For a screen's own short input loop (term_prompt): ticks every screen
 * and serves their descriptors while waiting up to wait_ms for a key, as
 * the main loop would.  Returns 1 when the program was asked to stop
 * (SIGINT, SIGTERM, SIGHUP): the caller should return at once. */
int tui_service(struct tui *t, int wait_ms);

/* One-shot status line message; it stays until the next key. */
void tui_flash(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Questions due today in lang, from a bank cached in t (cheap to call
 * every frame); 0 when the count cannot be had. */
int tui_due_today(struct tui *t, const char *lang);

#define TUI_MIN_COLS 40
#define TUI_MIN_ROWS 12

#endif
