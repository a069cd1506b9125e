/*
 * tui/quiz.h - the closed-book self-test screen (tui/quiz.c): chapter
 * tests and the review of due questions.  The model is core/answers.h.
 */
#ifndef WB_TUI_QUIZ_H
#define WB_TUI_QUIZ_H

#include "tui/tui.h"

/* The self-test of chapter in lang (chapter NULL: the review of every
 * question due today), or the test in progress resumed; when another test
 * runs, the screen first offers to continue or abandon it.  With
 * over_reader the screen replaces that chapter's reader, and backing out
 * of that offer reopens it.  Returns 0 and the screen in *out (push it),
 * or a WB_E code after saying why on the status line (nothing to ask,
 * database busy or failing). */
int quiz_open(struct tui *t, const char *chapter, const char *lang, int over_reader,
	      struct screen *out);

#endif
