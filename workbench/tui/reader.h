/*
 * reader.h - the lesson reader (tui/reader.c); the source view is
 * tui/source.h.  The closed-book rule is not checked here: nav.c asks
 * it before opening a lesson.
 */
#ifndef WB_TUI_READER_H
#define WB_TUI_READER_H

#include "tui/tui.h"

/* The reader on chapter id in lang, at the saved place; with pick_for a
 * question id (not NULL, not ""), the table of contents opens at once and
 * asks for the section about that question (the bank does not say which
 * section a question is about).  Returns 0 and the screen in *out (push
 * it), or a WB_E code (WB_ENOENT, WB_ERANGE for a lesson over 4 MiB,
 * WB_EIO). */
int reader_open(struct tui *t, const char *chapter, const char *lang, const char *pick_for,
		struct screen *out);

#endif
