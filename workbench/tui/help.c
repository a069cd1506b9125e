/*
 * help.c - the help overlay: every key of the current screen, read from
 * the key table of the screen's current mode, so help can never drift
 * from behaviour.
 *
 * Laid out as a table: the keys of one action in the left column (each
 * label once: the three Enter codes read "Enter"), what they do in the
 * right one, both wrapped at word boundaries, never cut.  A table longer
 * than the box scrolls (help_key); it fits the smallest terminal
 * (TUI_MIN_COLS x TUI_MIN_ROWS).  It draws and scrolls, nothing else.
 */
#include "tui/help.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "app.h"
#include "base/wb.h"
#include "core/i18n.h"
#include "core/wrap.h"
#include "core/utf8.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#define HELP_MAX 48 /* actions in one table */

struct entry {
	char labels[96];
	const char *text;
};

/* Appends label to the entry's labels unless it is already there; an
 * empty label (a key shown under another's label, "1" for 1-9) adds
 * nothing. */
static void add_label(struct entry *e, const char *label)
{
	size_t n = strlen(label);
	if (!n)
		return;
	for (const char *p = e->labels; (p = strstr(p, label)); p += n)
		if ((p == e->labels || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return;
	size_t len = strlen(e->labels);
	snprintf(e->labels + len, sizeof e->labels - len, "%s%s", len ? " " : "", label);
}

/* Groups the table by what a key does: one entry per description. */
static int group(const struct keybind *keys, size_t nkeys, int zh, struct entry *out)
{
	int n = 0;
	for (size_t i = 0; i < nkeys; i++) {
		const char *text = zh ? keys[i].help_zh : keys[i].help_en;
		int k = 0;
		while (k < n && strcmp(out[k].text, text))
			k++;
		if (k == n) {
			if (n == HELP_MAX)
				continue;
			out[n].labels[0] = '\0';
			out[n++].text = text;
		}
		add_label(&out[k], keys[i].label);
	}
	return n;
}

/* The table as rows of (key cell, text cell), wrapped to kw and tw. */
struct rows {
	char **key, **text; /* owned; "" when a cell has no more lines */
	int n;
};

static void add_entry(struct rows *r, const char *label, const char *text, int kw, int tw)
{
	char **kl, **tl;
	size_t nk = wrap_text(label, kw, &kl), nt = wrap_text(text, tw, &tl);
	size_t n = nk > nt ? nk : nt;
	r->key = wb_xrealloc(r->key, (size_t)(r->n + (int)n) * sizeof *r->key);
	r->text = wb_xrealloc(r->text, (size_t)(r->n + (int)n) * sizeof *r->text);
	for (size_t i = 0; i < n; i++, r->n++) {
		r->key[r->n] = wb_xstrdup(i < nk ? kl[i] : "");
		r->text[r->n] = wb_xstrdup(i < nt ? tl[i] : "");
	}
	wrap_text_free(kl, nk);
	wrap_text_free(tl, nt);
}

static void rows_free(struct rows *r)
{
	for (int i = 0; i < r->n; i++) {
		free(r->key[i]);
		free(r->text[i]);
	}
	free(r->key);
	free(r->text);
}

/* The key column's width in a box w columns wide: the widest label, at
 * most a third of the box (a longer label wraps). */
static int key_width(const struct entry *e, int n, int w)
{
	int widest = 6;
	for (int i = 0; i < n; i++) {
		int lw = utf8_width(e[i].labels, strlen(e[i].labels));
		if (lw > widest)
			widest = lw;
	}
	int cap = w / 3 > 10 ? w / 3 : 10;
	return widest < cap ? widest : cap;
}

static struct rows build(struct tui *t, const struct keybind *keys, size_t nkeys, int wants_text,
			 int w, int *kw_out)
{
	int zh = !strcmp(t->app->lang, "zh");
	struct entry e[HELP_MAX + 1];
	int n = group(keys, nkeys, zh, e);
	snprintf(e[n].labels, sizeof e[n].labels, "%s", wants_text ? "F1" : "? F1");
	e[n++].text = i18n(t->app->lang, M_HELP_THIS);
	int kw = key_width(e, n, w);
	struct rows r = {0};
	for (int i = 0; i < n; i++)
		add_entry(&r, e[i].labels, e[i].text, kw, w - kw - 5);
	*kw_out = kw;
	return r;
}

void help_draw(struct tui *t, const struct keybind *keys, size_t nkeys, int wants_text)
{
	const char *lang = t->app->lang;
	int w = COLS - 2 < 78 ? COLS - 2 : 78, kw;
	struct rows r = build(t, keys, nkeys, wants_text, w, &kw);
	int h = r.n + 4; /* title, blank, rows, footer */
	if (h > LINES - 1)
		h = LINES - 1;
	int view = h - 4;
	int maxtop = r.n > view ? r.n - view : 0;
	if (t->help_top > maxtop)
		t->help_top = maxtop;
	if (t->help_top < 0)
		t->help_top = 0;
	int y0 = (LINES - 1 - h) / 2, x0 = (COLS - w) / 2;
	for (int y = 0; y < h; y++) {
		move(y0 + y, x0);
		for (int x = 0; x < w; x++)
			addch(' ' | A_REVERSE);
	}
	term_text(y0, x0 + 2, i18n(lang, M_HELP_TITLE), w - 4, A_REVERSE | A_BOLD);
	for (int i = 0; i < view && t->help_top + i < r.n; i++) {
		int y = y0 + 2 + i;
		term_text(y, x0 + 2, r.key[t->help_top + i], kw, A_REVERSE | A_BOLD);
		term_text(y, x0 + 3 + kw, r.text[t->help_top + i], w - kw - 5, A_REVERSE);
	}
	if (maxtop) {
		/* Which rows are shown, right of the title. */
		char *range =
			wb_xasprintf("%d-%d/%d", t->help_top + 1,
				     t->help_top + view < r.n ? t->help_top + view : r.n, r.n);
		int rw = utf8_width(range, strlen(range));
		term_text(y0, x0 + w - 2 - rw, range, rw, A_REVERSE | A_DIM);
		free(range);
	}
	term_text(y0 + h - 1, x0 + 2, i18n(lang, maxtop ? M_HELP_SCROLL : M_HELP_CLOSE), w - 4,
		  A_REVERSE | A_DIM);
	rows_free(&r);
}

int help_key(struct tui *t, wint_t ch, int is_code)
{
	int page = LINES - 6 > 1 ? LINES - 6 : 1;
	int d = 0;
	if (is_code)
		d = ch == KEY_DOWN    ? 1
		    : ch == KEY_UP    ? -1
		    : ch == KEY_NPAGE ? page
		    : ch == KEY_PPAGE ? -page
				      : 0;
	else
		d = ch == 'j'		   ? 1
		    : ch == 'k'		   ? -1
		    : ch == ' ' || ch == 6 ? page
		    : ch == 'b' || ch == 2 ? -page
					   : 0;
	if (!d)
		return 0;
	t->help_top += d; /* help_draw clips it */
	if (t->help_top < 0)
		t->help_top = 0;
	return 1;
}
