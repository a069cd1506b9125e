/*
 * progress.h - what the progress database says about a learner: the
 * end-of-test summary, a question's schedule, what is due and when,
 * mastery of a chapter, points per test over time, and for instructors
 * per-question statistics (of everyone or one imported learner) and the
 * learners with answers.
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

/* The review policy: how many questions never graded before a review may
 * bring in per day (default ANSWERS_NEW_PER_DAY, like Anki's "new cards
 * per day"; 0 brings none).  Returns 0, or WB_EINVAL for n < 0 or
 * n > 100000.  Not thread-safe: set once at start (--new-per-day). */
#define ANSWERS_NEW_PER_DAY 20
int answers_set_new_per_day(int n);
int answers_new_per_day(void);

/* The questions of a review before until_s (unix seconds; callers pass
 * the end of today, answers_day_start(now, 1)): those of bank due before
 * it, most overdue first, then questions of bank this learner has never
 * graded, in bank order, as many as today's allowance leaves (the daily
 * limit minus the questions first graded today, in any test or review;
 * "today" is the day ending at until_s).  Returns 0 with *out a malloc'd
 * array of n pointers borrowed from bank (NULL when none), or a WB_E*
 * code with what was read so far; the caller frees *out either way. */
int answers_due(struct store *s, const struct quiz_bank *bank, int64_t until_s,
		const struct quiz_question ***out, size_t *n);

/* Today's review load in bank at now_s: *due scheduled questions due by
 * the end of today, *fresh the new questions today's allowance still
 * brings in (see answers_due); only questions of `chapter` when it is not
 * NULL.  Either pointer may be NULL.  Returns 0 or a WB_E* code. */
int answers_due_today(struct store *s, const struct quiz_bank *bank, const char *chapter,
		      int64_t now_s, int *due, int *fresh);

/* Start (unix seconds) of the learner's day `days` days after the one
 * holding t_s: days start at the rollover hour (sched_day_start, 4 am by
 * default), so 02:00 still belongs to the day before.  Cannot fail. */
int64_t answers_day_start(int64_t t_s, int days);

/* The interval each grade would give the question now: days[GRADE_AGAIN],
 * days[GRADE_PARTLY], days[GRADE_GOT] (days[0] unused), from its schedule
 * (a new question when it has none).  Returns 0 or a WB_E* code (days
 * then hold a new question's intervals). */
int answers_next_intervals(struct store *s, const char *question, int64_t now_s, int days[4]);

/* One interval of `days` days as the grade keys show it, in lang:
 * "tomorrow", "9 d", "2.5 mo", "1.2 y" (buf always terminated).  Cannot
 * fail. */
void answers_interval_text(const char *lang, int days, char *buf, size_t size);

/* "Again: tomorrow · Partly: 3 d · Got it: 9 d" in lang for days as
 * answers_next_intervals fills it, into buf (always terminated).  Cannot
 * fail. */
void answers_intervals_text(const char *lang, const int days[4], char *buf, size_t size);

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
	int last_grade;	   /* the grade of the latest answer (GRADE_*) */
};
/* Returns 0 with *out (malloc'd, free with answers_question_stats_free)
 * and *n, or a WB_E* code with what was read so far in *out.  Ordered by
 * chapter, then question id. */
int answers_question_stats(struct store *s, struct answers_qstat **out, size_t *n);

/* answers_question_stats over the answers of one learner: the name
 * `progress import` kept ("" is this database's own learner); NULL is
 * everyone.  *n is 0 for a name with no answers. */
int answers_learner_question_stats(struct store *s, const char *learner, struct answers_qstat **out,
				   size_t *n);

/* A learner the database holds answers of ("" this database's own; the
 * others came with `progress import`). */
struct answers_learner {
	char *name;
	int answers, questions; /* answers, distinct questions answered */
	int64_t points, max_points;
	int64_t first_ms, last_ms; /* first and last graded_at */
};
/* Every learner with answers, by name ("" first).  Returns 0 with *out
 * (malloc'd, free with answers_learners_free) and *n, or a WB_E* code
 * with what was read so far. */
int answers_learners(struct store *s, struct answers_learner **out, size_t *n);

/* Frees l[0..n); l may be NULL.  Cannot fail. */
void answers_learners_free(struct answers_learner *l, size_t n);

/* Frees q[0..n); q may be NULL.  Cannot fail. */
void answers_question_stats_free(struct answers_qstat *q, size_t n);

/* Exercises of a chapter (the two-digit number, "01") in the exercise
 * catalogue (core/exercise_ws.h) and how many of them passed a check:
 * *solved of *total.  Returns 0 or WB_EIO (counts so far). */
int progress_exercises_solved(struct store *s, const char *chapter, int *solved, int *total);

#endif
