/*
 * pager.h - the pager vocabulary every scrolling screen shares, kept in one
 * place the way htop's Panel_onKey moves every panel: the key rows that
 * move a view by a line, half a page or a page and to either end, and the
 * one function that turns them into the view's new first line.
 *
 * A screen puts PAGER_KEYS at the head of its key table (so ? help shows
 * the same words on every screen) and hands each action to pager_target
 * before its own switch; it keeps its own scroll_to, which clamps and does
 * what moving means on that screen (the reader remembers the place).  The
 * pager draws nothing, owns no state and knows no screen.
 */
#ifndef WB_TUI_PAGER_H
#define WB_TUI_PAGER_H

#include <curses.h>

/* Pager actions: numbered above every screen's own actions (which start
 * at 0), so one key table holds both. */
enum pager_action {
	PAGER_DOWN = 0x100, /* one line down */
	PAGER_UP,	    /* one line up */
	PAGER_PGDN,	    /* a page down, keeping one line of context */
	PAGER_PGUP,	    /* a page up, keeping one line of context */
	PAGER_HALFDN,	    /* half a page down */
	PAGER_HALFUP,	    /* half a page up */
	PAGER_TOP,	    /* the first line */
	PAGER_BOTTOM,	    /* the last page */
};

/* The key rows of the pager actions (struct keybind, tui/tui.h), less's
 * and vi's keys with the arrows and the page keys. */
#define PAGER_KEYS                                                                                 \
	{'j', 0, "j", PAGER_DOWN, "scroll down one line", "向下一行"},                             \
		{KEY_DOWN, 1, "↓", PAGER_DOWN, "scroll down one line", "向下一行"},                \
		{5, 0, "Ctrl-E", PAGER_DOWN, "scroll down one line", "向下一行"},                  \
		{'k', 0, "k", PAGER_UP, "scroll up one line", "向上一行"},                         \
		{KEY_UP, 1, "↑", PAGER_UP, "scroll up one line", "向上一行"},                      \
		{25, 0, "Ctrl-Y", PAGER_UP, "scroll up one line", "向上一行"},                     \
		{' ', 0, "Space", PAGER_PGDN, "next page", "下一页"},                              \
		{KEY_NPAGE, 1, "PgDn", PAGER_PGDN, "next page", "下一页"},                         \
		{6, 0, "Ctrl-F", PAGER_PGDN, "next page", "下一页"},                               \
		{'b', 0, "b", PAGER_PGUP, "previous page", "上一页"},                              \
		{KEY_PPAGE, 1, "PgUp", PAGER_PGUP, "previous page", "上一页"},                     \
		{2, 0, "Ctrl-B", PAGER_PGUP, "previous page", "上一页"},                           \
		{'d', 0, "d", PAGER_HALFDN, "half a page down", "向下半页"},                       \
		{4, 0, "Ctrl-D", PAGER_HALFDN, "half a page down", "向下半页"},                    \
		{'u', 0, "u", PAGER_HALFUP, "half a page up", "向上半页"},                         \
		{21, 0, "Ctrl-U", PAGER_HALFUP, "half a page up", "向上半页"},                     \
		{'g', 0, "g", PAGER_TOP, "go to the start", "跳到开头"},                           \
		{KEY_HOME, 1, "Home", PAGER_TOP, "go to the start", "跳到开头"},                   \
		{'G', 0, "G", PAGER_BOTTOM, "go to the end", "跳到结尾"},                          \
	{                                                                                          \
		KEY_END, 1, "End", PAGER_BOTTOM, "go to the end", "跳到结尾"                   \
	}

/* Where a pager action moves a view whose first shown line is top, with
 * rows lines on screen and max_top the first line of its last page: the
 * new first line goes to *target, not clamped (the screen's scroll_to
 * clamps).  Returns 1 for a pager action, 0 for any other (*target
 * untouched). */
int pager_target(int action, long top, long rows, long max_top, long *target);

#endif
