/*
 * source.h - the read-only source view (tui/source.c): a file of the
 * source tree with line numbers, unwrapped, scrolled both ways.
 */
#ifndef WB_TUI_SOURCE_H
#define WB_TUI_SOURCE_H

#include "tui/tui.h"

/* A view of rel, a path relative to the source tree t->app->content (it is
 * shown as given, never as an absolute path), opened at the definition of
 * func when func is given and found.  Nothing is saved.  Returns 0 and the
 * screen in *out (push it), or the WB_E code of reading the file. */
int source_open(struct tui *t, const char *rel, const char *func, struct screen *out);

#endif
