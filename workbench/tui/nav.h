/*
 * nav.h - the router (tui/nav.c): carries out a screen change a screen
 * asked for with tui_go().  The main loop calls it after a key handler
 * has returned, so no screen is freed while its own code runs.
 */
#ifndef WB_TUI_NAV_H
#define WB_TUI_NAV_H

struct tui;
struct nav;

/* Opens (or pops) what n asks for.  A screen that cannot open leaves the
 * stack as it was and says why on the status line; with n->replace_top
 * the top screen is popped only once the new one is open.  Returns 0 or
 * the WB_E code of the screen that could not open. */
int nav_apply(struct tui *t, const struct nav *n);

#endif
