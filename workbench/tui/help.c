/*
 * help.c - the help overlay: every key of the current screen, read from
 * the key table of the screen's current mode, so help can never drift
 * from behaviour.
 */
#include "tui/help.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "app.h"
#include "core/i18n.h"
#include "core/utf8.h"

#include <curses.h>
#include <string.h>

void help_draw(struct tui *t, const struct keybind *keys, size_t nkeys, int wants_text)
{
	const char *lang = t->app->lang;
	int zh = !strcmp(lang, "zh");
	/* Group the labels of one action: "j ↓". */
	char labels[32][48];
	const char *texts[32];
	int n = 0;
	for (size_t i = 0; i < nkeys && n < 32; i++) {
		int found = -1;
		for (int k = 0; k < n; k++)
			if (texts[k] == (zh ? keys[i].help_zh : keys[i].help_en))
				found = k;
		if (found >= 0) {
			size_t len = strlen(labels[found]);
			snprintf(labels[found] + len, sizeof labels[found] - len, " %s",
				 keys[i].label);
			continue;
		}
		snprintf(labels[n], sizeof labels[n], "%s", keys[i].label);
		texts[n++] = zh ? keys[i].help_zh : keys[i].help_en;
	}
	int extra = 2; /* "?" and the closing hint */
	int h = n + extra + 3, w = COLS - 4 < 64 ? COLS - 4 : 64;
	if (h > LINES - 2)
		h = LINES - 2;
	int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
	for (int y = 0; y < h; y++) {
		move(y0 + y, x0);
		for (int x = 0; x < w; x++)
			addch(' ' | A_REVERSE);
	}
	term_text(y0, x0 + 2, i18n(lang, M_HELP_TITLE), w - 4, A_REVERSE | A_BOLD);
	int y = y0 + 2;
	int colw = 14;
	for (int i = 0; i < n && y < y0 + h - 2; i++, y++) {
		term_text(y, x0 + 2, labels[i], colw - 1, A_REVERSE | A_BOLD);
		term_text(y, x0 + 2 + colw, texts[i], w - colw - 4, A_REVERSE);
	}
	if (y < y0 + h - 2) {
		term_text(y, x0 + 2, wants_text ? "F1" : "? F1", colw - 1, A_REVERSE | A_BOLD);
		term_text(y, x0 + 2 + colw, i18n(lang, M_HELP_THIS), w - colw - 4, A_REVERSE);
	}
	term_text(y0 + h - 1, x0 + 2, i18n(lang, M_HELP_CLOSE), w - 4, A_REVERSE | A_DIM);
}
