/*
 * answers.h - graded answers in the progress database (store.h): one
 * answer, saving it with its question's schedule, counting.
 *
 * Every graded answer is written at once in its own BEGIN IMMEDIATE
 * transaction together with its question's schedule, so a crash loses
 * nothing that was graded and never leaves a schedule out of step.
 *
 * Times are unix milliseconds for answers, unix seconds for schedules
 * (FSRS works in days).  "This learner" is learner = ''; answers imported
 * from others keep their learner name and count in statistics but never
 * in this learner's schedule.
 *
 * The rest of the progress model sits beside it: session.h (self-tests),
 * progress.h (summaries, schedules, due, mastery, statistics),
 * exchange.h (export and import), clock.h (now, seeds, uids); the test
 * seams are in base/testhook.h.  This module draws nothing and does not
 * parse banks; it takes parsed questions from quizbank.h.
 */
#ifndef WB_ANSWERS_H
#define WB_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* One graded answer.  All strings are owned (answer_clear frees them). */
struct answer {
	char *uid;	     /* 32 hex digits, unique across databases */
	char *learner;	     /* "" for this learner */
	char *test_uid;	     /* the test it belongs to, NULL outside tests */
	char *question;	     /* question id */
	char *chapter;	     /* chapter id */
	char *lang;	     /* "en" / "zh" */
	char *kind;	     /* "recall" / "choice" / "numeric" */
	int64_t shown_at;    /* ms: question first shown */
	int64_t revealed_at; /* ms: answer revealed; 0 when never */
	int64_t graded_at;   /* ms: graded */
	char *text;	     /* written answer, chosen options "1,3" or the number typed;
				NULL when the learner chose not to write */
	char *ticked;	     /* recall: ticked rubric items, 1-based "1,3" ("" none) */
	int points;	     /* 0..max_points */
	int max_points;	     /* rubric total, 1 for auto-graded */
	int grade;	     /* GRADE_* (quizfile.h) */
	int closed_book;     /* 1: taken with the lesson closed */
};
/* Frees the strings of a and zeroes it; a may be NULL.  Cannot fail. */
void answer_clear(struct answer *a);

/* Saves one answer (uid and learner filled in when NULL) and updates its
 * question's schedule, in one transaction.  Returns 0, WB_EINVAL for a
 * bad field, WB_ECONFLICT for an answer in a test that is no longer
 * running or already has an answer to that question (another process
 * got there first: nothing is written), WB_EBUSY when another process
 * holds the database longer than the busy timeout, or WB_EIO. */
int answers_save(struct store *s, struct answer *a);

/* Answers in the database (all learners), or those of one test when
 * test_uid is not NULL; for tests and reports.  Returns 0 (with *n), or
 * a WB_E* code (*n is 0). */
int answers_count(struct store *s, const char *test_uid, size_t *n);

#endif
