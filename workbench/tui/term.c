/*
 * term.c - curses set-up, colours, and the drawing helpers every screen
 * shares.  The only file that calls initscr()/endwin().
 *
 * It guarantees the terminal is restored on normal exit, on SIGINT/SIGTERM
 * (which end the main loop cleanly) and on a fatal signal (SIGSEGV, also
 * from a stack overflow, SIGBUS, SIGFPE, SIGILL, SIGABRT).  Whether curses
 * is up and whether colours are used live in struct tui; the fatal-signal
 * handler needs no flag because it is installed only while curses is up.
 */
#include "tui/term.h"
#include "tui/tui.h"
#include "core/i18n.h"
#include "core/layout.h"
#include "core/wrap.h"
#include "core/textsafe.h"
#include "core/utf8.h"
#include "app.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>

enum { PAIR_HEADING = 1, PAIR_CODE, PAIR_LAB, PAIR_LINK, PAIR_STATUS, PAIR_DIM };

/* ---- the terminal after a crash (#20 F2) ----
 * A fatal signal must not leave the learner's terminal raw (no echo, no
 * line editing, the alternate screen).  The handler runs on its own stack
 * (sigaltstack), so it runs after a stack overflow too, and it only makes
 * async-signal-safe calls: write() of reset sequences prepared from
 * terminfo while curses was being set up, tcsetattr() of the modes saved
 * before initscr(), then the default action by re-raising the signal. */

static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static char fatal_stack[64 * 1024];
static struct termios fatal_tios; /* the terminal's modes before curses */
static int fatal_tios_ok;
static char fatal_reset[256]; /* attributes, cursor, keypad, mouse, screen */
static size_t fatal_reset_len;

static void on_fatal(int sig)
{
	if (fatal_reset_len) {
		ssize_t w = write(STDOUT_FILENO, fatal_reset, fatal_reset_len);
		(void)w;
	}
	if (fatal_tios_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &fatal_tios);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void reset_add(const char *cap)
{
	const char *s = cap[0] == '\033' ? cap : tigetstr(cap);
	if (!s || s == (char *)-1)
		return;
	size_t n = strlen(s);
	if (fatal_reset_len + n < sizeof fatal_reset) {
		memcpy(fatal_reset + fatal_reset_len, s, n);
		fatal_reset_len += n;
	}
}

/* Before initscr(): the modes to restore. */
static void fatal_save_modes(void)
{
	fatal_tios_ok = tcgetattr(STDIN_FILENO, &fatal_tios) == 0;
}

/* After the curses set-up: the reset sequences and the handler. */
static void fatal_install(void)
{
	fatal_reset_len = 0;
	reset_add("sgr0");
	reset_add("cnorm");
	reset_add("rmkx");
	if (tigetstr("kmous") && tigetstr("kmous") != (char *)-1)
		reset_add("\033[?1000l\033[?1006l");
	reset_add("rmcup");
	stack_t ss = {.ss_sp = fatal_stack, .ss_size = sizeof fatal_stack};
	sigaltstack(&ss, NULL);
	struct sigaction sa = {.sa_handler = on_fatal, .sa_flags = SA_ONSTACK | SA_NODEFER};
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++)
		sigaction(fatal_sigs[i], &sa, NULL);
}

int term_init(struct tui *t)
{
	setlocale(LC_ALL, "");
	/* ncursesw needs a UTF-8 locale to take our bytes as characters. */
	const char *cs = nl_langinfo(CODESET);
	if (!cs || strcasecmp(cs, "UTF-8") != 0)
		if (!setlocale(LC_CTYPE, "C.UTF-8"))
			setlocale(LC_CTYPE, "en_US.UTF-8");
	fatal_save_modes();
	if (!initscr())
		return -1;
	t->term_started = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	fatal_install();
	const char *nc = getenv("NO_COLOR");
	t->color = !(nc && *nc) && has_colors();
	if (t->color) {
		start_color();
		use_default_colors();
		init_pair(PAIR_HEADING, COLOR_CYAN, -1);
		init_pair(PAIR_CODE, COLOR_GREEN, -1);
		init_pair(PAIR_LAB, COLOR_YELLOW, -1);
		init_pair(PAIR_LINK, COLOR_BLUE, -1);
		init_pair(PAIR_STATUS, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_DIM, COLOR_WHITE, -1);
	}
	return 0;
}

void term_end(struct tui *t)
{
	if (t->term_started) {
		for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++)
			signal(fatal_sigs[i], SIG_DFL);
		endwin();
		t->term_started = 0;
	}
}

void term_suspend(struct tui *t)
{
	if (!t->term_started)
		return;
	def_prog_mode();
	endwin();
}

void term_resume(struct tui *t)
{
	if (!t->term_started)
		return;
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

int term_attr_heading(const struct tui *t)
{
	return A_BOLD | (t->color ? COLOR_PAIR(PAIR_HEADING) : 0);
}

int term_attr_select(void)
{
	return A_REVERSE;
}

static int style_attr(int color, unsigned st)
{
	int a = 0;
	if (st & (LS_BOLD | LS_H1 | LS_H2 | LS_H3))
		a |= A_BOLD;
	if (st & LS_ITALIC)
		a |= A_ITALIC;
	if (st & LS_LINK)
		a |= A_UNDERLINE;
	if (st & (LS_DIM | LS_QUOTE))
		a |= A_DIM;
	if (color) {
		if (st & (LS_H1 | LS_H2 | LS_H3))
			a |= COLOR_PAIR(PAIR_HEADING);
		else if (st & LS_LAB)
			a |= COLOR_PAIR(PAIR_LAB);
		else if (st & LS_CODE)
			a |= COLOR_PAIR(PAIR_CODE);
		else if (st & LS_LINK)
			a |= COLOR_PAIR(PAIR_LINK);
	} else if ((st & LS_CODE) && !(st & LS_BORDER) && !(st & LS_LAB)) {
		a |= A_BOLD;
	}
	return a;
}

int term_text(int y, int x, const char *s, int maxw, int attr)
{
	int used = 0;
	size_t n = strlen(s), i = 0;
	attron(attr);
	move(y, x);
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		int w = utf8_cp_width(cp);
		if (textsafe_unsafe_cp(cp)) /* controls, C1, bidi: core/textsafe.h */
			cp = UTF8_REPLACEMENT, w = 1;
		if (used + w > maxw)
			break;
		char buf[5];
		size_t len = cp == UTF8_REPLACEMENT ? utf8_encode(cp, buf) : k;
		if (cp != UTF8_REPLACEMENT)
			memcpy(buf, s + i, k);
		addnstr(buf, (int)len);
		used += w;
		i += k;
	}
	attroff(attr);
	return used;
}

int term_text_cut(int y, int x, const char *s, int maxw, int attr)
{
	if (maxw <= 0)
		return 0;
	if (utf8_width(s, strlen(s)) <= maxw)
		return term_text(y, x, s, maxw, attr);
	int used = term_text(y, x, s, maxw - 1, attr);
	return used + term_text(y, x + used, "…", 1, attr);
}

void term_draw_line(struct tui *t, int y, int x, const struct lay_line *l, int maxw)
{
	term_draw_line_from(t, y, x, l, 0, maxw);
}

void term_draw_line_from(struct tui *t, int y, int x, const struct lay_line *l, int skip, int maxw)
{
	move(y, x);
	int used = 0, col = 0;
	for (unsigned s = 0; s < l->nspans && used < maxw; s++) {
		const struct lay_span *sp = &l->spans[s];
		const char *p = l->text + sp->start, *end = p + sp->len;
		int attr = style_attr(t->color, sp->style);
		/* Skip whole characters before column skip; a wide one cut
		 * by it shows as spaces for its visible part. */
		while (p < end && col < skip) {
			uint32_t cp;
			p += utf8_decode(p, (size_t)(end - p), &cp);
			col += utf8_cp_width(cp);
			for (int pad = col - skip; pad > 0 && used < maxw; pad--)
				used += term_text(y, x + used, " ", maxw - used, attr);
		}
		if (p == end)
			continue;
		char *piece = strndup(p, (size_t)(end - p));
		if (!piece)
			return;
		used += term_text(y, x + used, piece, maxw - used, attr);
		free(piece);
	}
}

void term_draw_hits(int y, int x, const struct lay_line *l, const unsigned (*hits)[2], size_t n)
{
	term_draw_hits_from(y, x, l, 0, COLS - x, hits, n);
}

void term_draw_hits_from(int y, int x, const struct lay_line *l, int skip, int maxw,
			 const unsigned (*hits)[2], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int col = utf8_width(l->text, hits[i][0]) - skip;
		if (col < 0 || col >= maxw)
			continue; /* starts off screen: the marker tells */
		char *piece = strndup(l->text + hits[i][0], hits[i][1]);
		if (!piece)
			return;
		term_text(y, x + col, piece, maxw - col, A_REVERSE | A_BOLD);
		free(piece);
	}
}

void term_status(struct tui *t, const char *left, const char *right)
{
	int y = LINES - 1;
	int attr = t->color ? COLOR_PAIR(PAIR_STATUS) : A_REVERSE;
	attron(attr);
	mvhline(y, 0, ' ', COLS);
	attroff(attr);
	const char *msg = t->message[0] ? t->message : left;
	int rw = right ? utf8_width(right, strlen(right)) : 0;
	if (rw > COLS - 2)
		rw = COLS - 2;
	/* A margin, the left part (cut with an ellipsis), two spaces, the
	 * right part, a margin: the parts never run together. */
	int room = COLS - 2 - (rw ? rw + 2 : 0);
	term_text_cut(y, 1, msg, room, attr);
	if (rw)
		term_text_cut(y, COLS - rw - 1, right, rw, attr);
}

int term_too_small(struct tui *t)
{
	if (COLS >= TUI_MIN_COLS && LINES >= TUI_MIN_ROWS)
		return 0;
	erase();
	char buf[160];
	snprintf(buf, sizeof buf, i18n(t->app->lang, M_TOO_SMALL), COLS, LINES, TUI_MIN_COLS,
		 TUI_MIN_ROWS);
	/* Wrapped at spaces (the screen may be a few columns wide). */
	char **lines;
	size_t n = wrap_text(buf, COLS > LAYOUT_MIN_WIDTH ? COLS : LAYOUT_MIN_WIDTH, &lines);
	for (size_t i = 0; i < n && (int)i < LINES; i++)
		term_text((int)i, 0, lines[i], COLS, A_BOLD);
	wrap_text_free(lines, n);
	refresh();
	return 1;
}

int term_prompt(struct tui *t, const char *prompt, char *buf, size_t len)
{
	size_t n = strlen(buf);
	curs_set(1);
	for (;;) {
		int y = LINES - 1;
		move(y, 0);
		clrtoeol();
		int pw = term_text(y, 0, prompt, COLS, A_BOLD);
		/* Show the tail of a long query. */
		const char *shown = buf;
		while (utf8_width(shown, strlen(shown)) > COLS - pw - 2) {
			uint32_t cp;
			shown += utf8_decode(shown, strlen(shown), &cp);
		}
		term_text(y, pw, shown, COLS - pw - 1, 0);
		refresh();
		wint_t ch;
		timeout(0);
		int r = get_wch(&ch);
		if (r == ERR) {
			/* Other screens go on (a lab under a source view). */
			if (tui_service(t, 250)) {
				curs_set(0);
				return 0;
			}
			continue;
		}
		if (r == KEY_CODE_YES) {
			if (ch == KEY_BACKSPACE)
				goto backspace;
			if (ch == KEY_ENTER)
				goto enter;
			continue;
		}
		if (ch == 27) {
			curs_set(0);
			return 0;
		}
		if (ch == '\r' || ch == '\n') {
		enter:
			curs_set(0);
			return 1;
		}
		if (ch == 127 || ch == 8) {
		backspace:
			while (n > 0) {
				n--;
				if (((unsigned char)buf[n] & 0xC0) != 0x80)
					break;
			}
			buf[n] = '\0';
			continue;
		}
		if (ch == 21) { /* ^U clears */
			n = 0;
			buf[0] = '\0';
			continue;
		}
		if (ch < 0x20)
			continue;
		char enc[4];
		size_t k = utf8_encode((uint32_t)ch, enc);
		if (n + k + 1 < len) {
			memcpy(buf + n, enc, k);
			n += k;
			buf[n] = '\0';
		}
	}
}
