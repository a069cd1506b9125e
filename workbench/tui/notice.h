/*
 * notice.h - the "lesson is closed during a test" notice (tui/notice.c),
 * shown by nav.c in place of a lesson a running self-test covers.
 */
#ifndef WB_TUI_NOTICE_H
#define WB_TUI_NOTICE_H

#include "tui/tui.h"

struct quiz_test;

/* The notice for the lesson chapter (in lang) closed by the running test
 * run (borrowed: what the notice needs is copied).  Cannot fail. */
void notice_lesson_closed(struct tui *t, const char *chapter, const char *lang,
			  const struct quiz_test *run, struct screen *out);

#endif
