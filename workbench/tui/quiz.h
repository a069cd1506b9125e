/*
 * tui/quiz.h - the self-test, review and statistics screens, and the
 * few hooks the home screen and the reader call.
 *
 * Screens live in tui/quiz.c (test, the "lesson closed" notice) and
 * tui/stats.c; the model is core/answers.h.  Nothing here parses
 * Markdown or runs SQL directly.
 */
#ifndef WB_TUI_QUIZ_H
#define WB_TUI_QUIZ_H

struct tui;

/* Starts the closed-book self-test of a chapter, or resumes it when it
 * is the test in progress; another running test is offered to continue
 * or abandon.  With replace_top the test replaces the top screen (the
 * reader of that chapter: the lesson must be closed during the test).
 * Problems are flashed on the status line. */
void quiz_start_chapter(struct tui *t, const char *chapter, const char *lang, int replace_top);

/* Starts (or resumes) a review of every question due today, across
 * chapters, in the current language. */
void quiz_start_review(struct tui *t);

/* The lesson rule: returns 1 and shows a notice (continue or abandon
 * the test) when a running test asks questions of this chapter, so the
 * caller must not open the lesson; 0 otherwise. */
int quiz_guard_lesson(struct tui *t, const char *chapter, const char *lang);

/* Draws home's review line at row y: the test in progress, or how many
 * questions are due today. */
void quiz_home_line(struct tui *t, int y);

/* Questions due today in lang (cached; cheap to call every frame). */
int quiz_due_today(struct tui *t, const char *lang);

/* The statistics screen (tui/stats.c). */
void stats_open(struct tui *t);

#endif
