/*
 * help.h - the help overlay (tui/help.c), drawn by the main loop over the
 * top screen from the key table of that screen's current mode.
 */
#ifndef WB_TUI_HELP_H
#define WB_TUI_HELP_H

#include <stddef.h>

struct tui;
struct keybind;

/* Draws every key of the table, grouped by action, and the key that
 * opened help ("?", or F1 in a mode that takes text). */
void help_draw(struct tui *t, const struct keybind *keys, size_t nkeys, int wants_text);

#endif
