/*
 * home.h - the home screen (tui/home.c): the chapter list of the current
 * language, with the share read, the labs passed and the review line.
 */
#ifndef WB_TUI_HOME_H
#define WB_TUI_HOME_H

#include "tui/tui.h"

/* The first screen; cannot fail (an empty content root shows a notice). */
struct screen home_screen(struct tui *t);

#endif
