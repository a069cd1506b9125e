/*
 * tui.c - the main loop and the screen stack (kilo-style: one state
 * struct, draw once per iteration, then wait for one key).
 *
 * SIGINT and SIGTERM set a flag that ends the loop, so screens save the
 * reading position and curses restores the terminal on the way out.
 */
#include "tui/tui.h"
#include "app.h"
#include "core/store.h"
#include "base/wb.h"

#include <curses.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void tui_push(struct tui *t, struct screen s)
{
	if (t->depth >= (int)WB_ARRAY_LEN(t->stack)) {
		if (s.free)
			s.free(s.self);
		return;
	}
	t->stack[t->depth++] = s;
}

void tui_pop(struct tui *t)
{
	if (t->depth == 0)
		return;
	struct screen *s = &t->stack[--t->depth];
	if (s->leave)
		s->leave(t, s->self);
	if (s->free)
		s->free(s->self);
	if (t->depth == 0)
		t->quit = 1;
}

void tui_flash(struct tui *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
}

/* Finds the action bound to a key on screen s; -1 when unbound. */
static int lookup(const struct screen *s, wint_t ch, int is_code)
{
	for (size_t i = 0; i < s->nkeys; i++)
		if ((wint_t)s->keys[i].key == ch && s->keys[i].is_code == is_code)
			return s->keys[i].action;
	return -1;
}

int tui_main(struct app *app)
{
	char err[512] = "";
	struct tui t = {.app = app};
	int rc = store_open(app->db_path, &t.store, err, sizeof err);
	if (rc) {
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	struct sigaction sa = {0};
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (term_init(&t) != 0) {
		fprintf(stderr, "workbench: cannot initialise the terminal (is TERM set?)\n");
		store_close(t.store);
		return EXIT_FAIL;
	}
	tui_push(&t, home_screen(&t));
	/* A timeout lets the loop notice a signal while waiting for a key. */
	while (!t.quit && !stop_requested && t.depth > 0) {
		struct screen *s = &t.stack[t.depth - 1];
		int wait_ms = 250;
		if (s->tick) {
			int want = s->tick(&t, s->self);
			if (want > 0)
				wait_ms = want;
		}
		timeout(wait_ms);
		if (!term_too_small(&t)) {
			s->draw(&t, s->self);
			if (t.help_open)
				help_draw(&t, s);
			refresh();
		}
		wint_t ch;
		int r = get_wch(&ch);
		if (r == ERR)
			continue;
		/* A flashed message stays until the next key. */
		t.message[0] = '\0';
		int is_code = r == KEY_CODE_YES;
		if (is_code && ch == KEY_RESIZE) {
			for (int i = 0; i < t.depth; i++)
				if (t.stack[i].resize)
					t.stack[i].resize(&t, t.stack[i].self);
			continue;
		}
		if (t.help_open) {
			t.help_open = 0;
			continue;
		}
		if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS) {
			if (!is_code && (ch == 'q' || ch == 'Q'))
				t.quit = 1;
			continue;
		}
		if (!is_code && ch == '?') {
			t.help_open = 1;
			continue;
		}
		s->key(&t, s->self, lookup(s, ch, is_code), ch, is_code);
	}
	while (t.depth > 0)
		tui_pop(&t);
	term_end();
	store_close(t.store);
	return EXIT_OK;
}
