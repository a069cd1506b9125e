/*
 * progress.h - what the progress database says about a learner: the
 * end-of-test summary, a question's schedule, what is due and when,
 * mastery of a chapter, points per test over time and per-question
 * statistics for instructors.
 *
 * Everything here only reads.  Times: unix milliseconds for answers and
 * tests, unix seconds for schedules and days.  Questions are looked up in
 * a bank (quizbank.h); ids the bank no longer has are left out where a bank
 * is given.  This module draws nothing.
 */
#ifndef WB_PROGRESS_H
#define WB_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct quiz_bank;
struct quiz_question;
struct sched_state;

/* The end-of-test summary. */
struct answers_item {
	char *question, *chapter;
	int points, max_points, grade;
};
struct answers_summary {
	int points, max_points;
	int grades[4];		    /* by GRADE_*, [0] unused */
	int64_t time_ms;	    /* sum over answers of graded - shown */
	struct answers_item *items; /* weakest first: lowest share, then grade */
	size_t n;
};
/* The summary of a test's graded answers (*out zeroed first; free with
 * answers_summary_free, also after an error).  Returns 0 or a WB_E*
 * code. */
int answers_test_summary(struct store *s, const char *test_uid, struct answers_summary *out);

/* Frees the items of sum and zeroes it; sum may be NULL.  Cannot fail. */
void answers_summary_free(struct answers_summary *sum);

/* The schedule of a question (*st zeroed first).  Returns 0, WB_ENOENT
 * when never graded, or a WB_E* code (WB_EBUSY, WB_EIO). */
int answers_schedule_get(struct store *s, const char *question, struct sched_state *st);

/* Questions of bank due before until_s (unix seconds), most overdue
 * first.  Returns 0 with *out a malloc'd array of n pointers borrowed
 * from bank (NULL when none), or a WB_E* code with what was read so far;
 * the caller frees *out either way. */
int answers_due(struct store *s, const struct quiz_bank *bank, int64_t until_s,
		const struct quiz_question ***out, size_t *n);

/* Start (unix seconds) of the local day `days` days after the one
 * holding t_s.  Cannot fail. */
int64_t answers_day_start(int64_t t_s, int days);

/* Due counts per local day: counts[0] is today (overdue included),
 * counts[k] the k-th day after, for counts[0..days).  Only questions in
 * bank count (every question when bank is NULL).  Returns 0 or a WB_E*
 * code (counts then hold what was read so far). */
int answers_due_days(struct store *s, const struct quiz_bank *bank, int64_t now_s, int days,
		     int *counts);

/* Mastery of a chapter: questions of bank in chapter (*total) and those
 * whose last grade is Got it (*got).  Returns 0 or a WB_E* code. */
int answers_mastery(struct store *s, const struct quiz_bank *bank, const char *chapter, int *got,
		    int *total);

/* Points per test over time (this learner), oldest first. */
struct answers_test_points {
	char *test_uid;
	int64_t started_at; /* first answer shown, ms */
	int points, max_points, answers;
};
/* Returns 0 with *out (malloc'd, free with answers_test_history_free)
 * and *n, or a WB_E* code with what was read so far in *out. */
int answers_test_history(struct store *s, struct answers_test_points **out, size_t *n);

/* Frees h[0..n); h may be NULL.  Cannot fail. */
void answers_test_history_free(struct answers_test_points *h, size_t n);

/* Per-question statistics over every learner, for instructors. */
struct answers_qstat {
	char *question, *chapter;
	int attempts;
	double mean_share; /* mean of points / max_points, 0..1 */
	int grades[4];	   /* by GRADE_* */
};
/* Returns 0 with *out (malloc'd, free with answers_question_stats_free)
 * and *n, or a WB_E* code with what was read so far in *out. */
int answers_question_stats(struct store *s, struct answers_qstat **out, size_t *n);

/* Frees q[0..n); q may be NULL.  Cannot fail. */
void answers_question_stats_free(struct answers_qstat *q, size_t n);

#endif
