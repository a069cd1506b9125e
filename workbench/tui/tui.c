/*
 * tui.c - the main loop and the screen stack (kilo-style: one state
 * struct, draw once per iteration; Redis-ae-style: one poll() over the
 * keyboard and every descriptor a screen on the stack asks for).
 *
 * One iteration: tick every screen (top or not), draw the top one, take
 * a key if one is waiting, else poll() stdin and the screens' descriptors
 * until something is readable or the shortest wait a tick asked for has
 * passed.  A key goes to the top screen through its current key table;
 * a screen change it asks for (tui_go) is carried out by nav.c after the
 * handler has returned.  The only other key loop, term_prompt's one-line
 * prompt, waits through tui_service, so nothing stalls while it is open.
 *
 * SIGINT, SIGTERM and SIGHUP set a flag that ends the loop (poll() returns
 * at once on a signal), and so does a hang-up on stdin (EOF: no key can
 * come); without a terminal (stdin or stdout not one, TERM=dumb) it does
 * not start at all.  So screens save the reading position and curses
 * restores the terminal on the way out.  This file draws nothing but the
 * help overlay and, before any screen exists, the wait for a progress
 * database another program has locked (a countdown, r to try now, q to
 * quit); it knows no screen: tui/nav.c does.
 */
#include "tui/tui.h"
#include "app.h"
#include "core/clock.h"
#include "core/i18n.h"
#include "core/progress.h"
#include "core/quizbank.h"
#include "core/store.h"
#include "base/testhook.h"
#include "base/mono.h"
#include "base/wb.h"
#include "tui/help.h"
#include "tui/nav.h"
#include "tui/page.h"
#include "tui/term.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set by the signal handler; the only file-scope state of the loop. */
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void tui_push(struct tui *t, struct screen s)
{
	if (t->depth == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 8;
		t->stack = wb_xrealloc(t->stack, (size_t)t->cap * sizeof *t->stack);
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

void tui_go(struct tui *t, const struct nav *n)
{
	t->pending = *n;
}

void tui_back(struct tui *t)
{
	tui_go(t, &(struct nav){.kind = NAV_BACK});
}

void tui_flash(struct tui *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
}

int tui_due_today(struct tui *t, const char *lang)
{
	if (!t->due_bank || strcmp(t->due_lang, lang) != 0) {
		quiz_bank_free(t->due_bank);
		t->due_bank = NULL;
		snprintf(t->due_lang, sizeof t->due_lang, "%s", lang);
		quiz_bank_open(t->app->content, t->app->quizzes, lang, &t->due_bank);
	}
	int counts[1] = {0};
	if (answers_due_days(t->store, t->due_bank, answers_now_ms() / 1000, 1, counts) != 0)
		return 0;
	return counts[0];
}

static struct keymap keymap_of(const struct screen *s)
{
	if (s->keymap)
		return s->keymap(s->self);
	return (struct keymap){s->keys, s->nkeys, 0};
}

/* Finds the action bound to a key in m; -1 when unbound. */
static int lookup(const struct keymap *m, wint_t ch, int is_code)
{
	for (size_t i = 0; i < m->nkeys; i++)
		if ((wint_t)m->keys[i].key == ch && m->keys[i].is_code == is_code)
			return m->keys[i].action;
	return -1;
}

/* Ticks every screen; returns the wait the loop may block for. */
static int tick_all(struct tui *t)
{
	int wait_ms = 250;
	for (int i = 0; i < t->depth; i++) {
		struct screen *s = &t->stack[i];
		if (!s->tick)
			continue;
		int want = s->tick(t, s->self);
		if (want > 0 && want < wait_ms)
			wait_ms = want;
	}
	return wait_ms;
}

/* Waits up to wait_ms for a key or a screen's descriptor, serves the
 * descriptors that are ready, and returns 1 when stdin may have a key. */
static int wait_events(struct tui *t, int wait_ms)
{
	struct pollfd *p = wb_xcalloc((size_t)t->depth + 1, sizeof *p);
	int *owner = wb_xcalloc((size_t)t->depth + 1, sizeof *owner);
	nfds_t n = 0;
	p[n].fd = STDIN_FILENO;
	p[n++].events = POLLIN;
	for (int i = 0; i < t->depth; i++) {
		int fd = t->stack[i].poll_fd ? t->stack[i].poll_fd(t->stack[i].self) : -1;
		if (fd < 0 || !t->stack[i].on_readable)
			continue;
		owner[n] = i;
		p[n].fd = fd;
		p[n++].events = POLLIN;
	}
	int key = 0;
	int r = poll(p, n, wait_ms);
	if (r > 0) {
		key = p[0].revents != 0;
		/* The terminal went away (hang-up, closed pty): no key will
		 * ever come, so stop as on SIGHUP instead of spinning. */
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			stop_requested = 1;
		/* Handlers do not change the stack: indices stay valid. */
		for (nfds_t k = 1; k < n; k++)
			if (p[k].revents)
				t->stack[owner[k]].on_readable(t, t->stack[owner[k]].self);
	} else if (r < 0 && errno == EINTR) {
		key = 1; /* SIGWINCH: curses has a KEY_RESIZE for us */
	}
	free(p);
	free(owner);
	return key;
}

int tui_service(struct tui *t, int wait_ms)
{
	int want = tick_all(t);
	wait_events(t, want < wait_ms ? want : wait_ms);
	return stop_requested != 0;
}

static void draw_top(struct tui *t)
{
	struct screen *s = &t->stack[t->depth - 1];
	if (term_too_small(t))
		return;
	s->draw(t, s->self);
	if (t->help_open) {
		struct keymap m = keymap_of(s);
		help_draw(t, m.keys, m.nkeys, m.wants_text);
	}
	refresh();
}

/* One key for the top screen: resize, help, the too-small notice, or the
 * screen's own table; then the screen change it asked for, if any. */
static void dispatch(struct tui *t, wint_t ch, int is_code)
{
	struct screen *s = &t->stack[t->depth - 1];
	/* A flashed message stays until the next key. */
	t->message[0] = '\0';
	if (is_code && ch == KEY_RESIZE) {
		for (int i = 0; i < t->depth; i++)
			if (t->stack[i].resize)
				t->stack[i].resize(t, t->stack[i].self);
		return;
	}
	if (t->help_open) {
		if (!help_key(t, ch, is_code))
			t->help_open = 0;
		return;
	}
	struct keymap m = keymap_of(s);
	if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS) {
		if (!m.wants_text && !is_code && (ch == 'q' || ch == 'Q'))
			t->quit = 1;
		return;
	}
	if (is_code && ch == KEY_F(12))
		testhook_crash(); /* WORKBENCH_TEST_CRASH only (tests/tui/crash.sh) */
	if ((!m.wants_text && !is_code && ch == '?') || (is_code && ch == KEY_F(1))) {
		t->help_open = 1;
		t->help_top = 0;
		return;
	}
	s->key(t, s->self, lookup(&m, ch, is_code), ch, is_code);
	if (t->pending.kind != NAV_NONE) {
		struct nav n = t->pending;
		t->pending.kind = NAV_NONE;
		nav_apply(t, &n);
	}
}

static void run(struct tui *t)
{
	while (!t->quit && !stop_requested && t->depth > 0) {
		int wait_ms = tick_all(t);
		draw_top(t);
		wint_t ch;
		timeout(0);
		int r = get_wch(&ch);
		if (r == ERR) {
			if (!wait_events(t, wait_ms))
				continue;
			r = get_wch(&ch);
			if (r == ERR)
				continue;
		}
		dispatch(t, ch, r == KEY_CODE_YES);
	}
}

/* Why the interactive workbench cannot run here, or NULL: it needs a
 * terminal on stdin and stdout and a TERM that can address the screen. */
static const char *no_terminal(void)
{
	const char *term = getenv("TERM");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return "stdin and stdout are not both a terminal";
	if (!term || !*term || !strcmp(term, "dumb"))
		return "TERM is dumb or not set";
	return NULL;
}

/* Seconds between two tries of a locked database, and how long each try
 * waits for the lock. */
enum { LOCK_RETRY_S = 5, LOCK_TRY_MS = 300 };

/* The locked-database wait: the file, why it waits, and the countdown. */
static void draw_locked(struct tui *t, int left_s)
{
	const char *L = t->app->lang;
	struct page p = {0};
	char *head = wb_xasprintf(i18n(L, M_DB_LOCKED), t->app->db_path);
	int w = COLS > 4 ? COLS - 4 : 1;
	page_text(&p, head, w, A_BOLD, 0, 0);
	page_blank(&p);
	page_text(&p, i18n(L, M_DB_LOCKED_WHY), w, 0, 0, 0);
	free(head);
	erase();
	term_text(0, 1, i18n(L, M_APP_TITLE), COLS - 2, term_attr_heading(t));
	page_draw(t, &p, 2, 2, LINES - 4, w, 0, 0);
	page_free(&p);
	char wait[128];
	if (left_s > 0)
		snprintf(wait, sizeof wait, i18n(L, M_DB_LOCKED_WAIT), left_s);
	else
		snprintf(wait, sizeof wait, "%s", i18n(L, M_DB_LOCKED_TRYING));
	term_status(t, wait, "");
	refresh();
}

/* The progress database was locked at start-up (F8): instead of exiting,
 * shows why and tries again every LOCK_RETRY_S seconds, or at once on r;
 * q, a signal or a hang-up gives up.  Returns 0 with t->store open, or
 * WB_EBUSY (given up) or another store_open error, message in err. */
static int wait_unlocked(struct tui *t, char *err, size_t errlen)
{
	long long next = mono_now_ms() + LOCK_RETRY_S * 1000;
	while (!stop_requested) {
		long long now = mono_now_ms();
		if (now >= next) {
			draw_locked(t, 0);
			int rc = store_open_busy(t->app->db_path, LOCK_TRY_MS, &t->store, err,
						 errlen);
			if (rc != WB_EBUSY)
				return rc;
			next = mono_now_ms() + LOCK_RETRY_S * 1000;
			continue;
		}
		draw_locked(t, (int)((next - now + 999) / 1000));
		struct pollfd in = {.fd = STDIN_FILENO, .events = POLLIN};
		int ms = (int)((next - now) % 1000);
		if (poll(&in, 1, ms ? ms : 1000) > 0) {
			if (in.revents & (POLLHUP | POLLERR | POLLNVAL))
				break;
			timeout(0);
			int ch = getch();
			if (ch == 'q' || ch == 'Q')
				break;
			if (ch == 'r' || ch == 'R' || ch == '\n' || ch == '\r')
				next = now;
		}
	}
	return WB_EBUSY;
}

int tui_main(struct app *app)
{
	char err[STORE_ERRLEN] = "";
	struct tui t = {.app = app};
	/* A short first wait: a file locked for longer gets the countdown
	 * screen below rather than a blank terminal. */
	int rc = store_open_busy(app->db_path, 1000, &t.store, err, sizeof err);
	const char *why = no_terminal();
	if (rc && (rc != WB_EBUSY || why)) {
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	if (why) {
		fprintf(stderr,
			"workbench: the interactive workbench needs a terminal (%s).\n"
			"For scripts use the commands: workbench lessons, lesson show ID, "
			"quiz run CHAPTER --plain, lab run ID (see workbench --help).\n",
			why);
		store_close(t.store);
		return EXIT_USAGE;
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
	if (rc)
		rc = wait_unlocked(&t, err, sizeof err);
	if (rc) {
		term_end(&t);
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	nav_apply(&t, &(struct nav){.kind = NAV_HOME});
	run(&t);
	while (t.depth > 0)
		tui_pop(&t);
	free(t.stack);
	quiz_bank_free(t.due_bank);
	term_end(&t);
	store_close(t.store);
	return EXIT_OK;
}
