/*
 * help.h - the help overlay (tui/help.c), drawn by the main loop over the
 * top screen from the key table of that screen's current mode; it scrolls
 * when it is longer than the terminal.
 */
#ifndef WB_TUI_HELP_H
#define WB_TUI_HELP_H

#include <stddef.h>
#include <wchar.h>

struct tui;
struct keybind;

/* Draws every key of the table, grouped by action, and the key that
 * opened help ("?", or F1 in a mode that takes text). */
void help_draw(struct tui *t, const struct keybind *keys, size_t nkeys, int wants_text);

/* A key while help is open: j/k, arrows, Space/b, PgDn/PgUp, Ctrl-F/B
 * scroll it (t->help_top) and return 1; any other key returns 0 (the
 * caller closes help). */
int help_key(struct tui *t, wint_t ch, int is_code);

#endif
