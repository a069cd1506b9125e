/*
 * stats.h - the statistics screen (tui/stats.c): mastery per chapter,
 * points per test, questions due in the next 14 days.  Writes nothing.
 */
#ifndef WB_TUI_STATS_H
#define WB_TUI_STATS_H

#include "tui/tui.h"

/* The screen, rendered for the current width; cannot fail. */
struct screen stats_screen(struct tui *t);

#endif
