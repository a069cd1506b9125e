/*
 * answers.h - graded answers, self-test sessions, review schedules,
 * statistics and export/import, kept in the progress database (store.h).
 *
 * Every graded answer is written at once in its own BEGIN IMMEDIATE
 * transaction together with its question's schedule, so a crash loses
 * nothing that was graded and never leaves a schedule out of step.  A
 * test keeps its shuffled order in the database, so it resumes in the
 * same order after a restart.  At most one test runs at a time (a unique
 * partial index enforces it).
 *
 * Times are unix milliseconds for answers and tests, unix seconds for
 * schedules (FSRS works in days).  "This learner" is learner = '';
 * answers imported from others keep their learner name and count in
 * statistics but never in this learner's schedule.
 *
 * This module draws nothing and does not parse banks; it takes parsed
 * questions from quiz.h.
 */
#ifndef WB_ANSWERS_H
#define WB_ANSWERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct store;
struct quiz_bank;
struct quiz_question;
struct sched_state;

/* Now, in unix milliseconds.  WORKBENCH_NOW=SECONDS (for tests and
 * demonstrations) starts the clock at that time; it still advances. */
int64_t answers_now_ms(void);

/* A seed for shuffling from the system's random source, or
 * WORKBENCH_SEED=N (tests that want a known order). */
uint64_t answers_random_seed(void);

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
	int grade;	     /* GRADE_* (quiz.h) */
	int closed_book;     /* 1: taken with the lesson closed */
};
void answer_clear(struct answer *a);

/* Saves one answer (uid and learner filled in when NULL) and updates its
 * question's schedule, in one transaction.  Returns 0, WB_EINVAL for a
 * bad field, WB_ECONFLICT for an answer in a test that is no longer
 * running or already has an answer to that question (another process
 * got there first: nothing is written), WB_EBUSY when another process
 * holds the database longer than the busy timeout, or WB_EIO. */
int answers_save(struct store *s, struct answer *a);

/* A test as stored. */
struct quiz_test {
	char *uid;
	char *kind;    /* "chapter" or "review" */
	char *chapter; /* chapter tests; NULL for review */
	char *lang;
	int closed_book;
	char *state; /* "running", "finished", "abandoned" */
	int64_t started_at, finished_at;
	size_t n;	  /* questions in the test */
	char **questions; /* ids in the shuffled order */
	char **chapters;  /* chapter of each */
	size_t answered;  /* graded answers so far */
};
void quiz_test_free(struct quiz_test *t);

/* The running test.  Returns 0, WB_ENOENT when none, or WB_EIO. */
int answers_running_test(struct store *s, struct quiz_test **out);

/* True when the test asks questions of this chapter. */
int quiz_test_covers(const struct quiz_test *t, const char *chapter);

/* A test in progress, as the screens and `quiz run --plain` drive it. */
struct quiz_session {
	struct store *store;		/* borrowed */
	struct quiz_test *test;		/* owned */
	const struct quiz_question **q; /* per position; NULL when gone from the bank */
	int *grade;			/* per position; 0 until graded */
	size_t cur;			/* position asked now; == test->n when done */
	char *last_uid;			/* newest answer of the test this session knows of,
					   NULL when none; only that one can be undone */
};

/* Starts a test over qs[0..n) in an order shuffled with seed, keeping
 * the first `limit` (0: all), stored in one transaction.  kind is
 * "chapter" (chapter given) or "review".  Returns 0; WB_EINVAL when n is
 * 0; WB_ECONFLICT when a test is running (checked inside the
 * transaction, so also one another process started a moment ago: look
 * again with answers_running_test); WB_EBUSY; WB_EIO.  Free with
 * quiz_session_free. */
int quiz_session_start(struct store *s, const char *kind, const char *chapter, const char *lang,
		       int closed_book, const struct quiz_question *const *qs, size_t n,
		       size_t limit, uint64_t seed, int64_t now_ms, struct quiz_session **out);

/* Resumes the running test with questions looked up in bank (the test's
 * language).  Returns 0, WB_ENOENT when no test runs, WB_EIO. */
int quiz_session_resume(struct store *s, const struct quiz_bank *bank, struct quiz_session **out);

/* Catches up with what other processes stored for this test: its state
 * (test->state becomes "finished", "abandoned" or "gone" when it ended
 * elsewhere), its graded positions and its newest answer; moves to the
 * first open position.  Returns 0 or WB_EIO. */
int quiz_session_refresh(struct quiz_session *ss);

/* The grade stored for a question of the test (as last read), 0 when
 * none. */
int quiz_session_grade_of(const struct quiz_session *ss, const char *question);

/* The question asked now, or NULL when every question is graded. */
const struct quiz_question *quiz_session_current(const struct quiz_session *ss);

/* Graded answers so far. */
size_t quiz_session_answered(const struct quiz_session *ss);

/* Saves the grade of the current question (a: text, ticked, points,
 * grade and the three times; the rest is filled in) and moves on.
 * Returns answers_save's codes, or WB_EINVAL when the test is done.  On
 * WB_ECONFLICT nothing was saved and the session has been refreshed
 * (quiz_session_refresh): the test ended elsewhere (test->state) or the
 * question was graded elsewhere (quiz_session_grade_of). */
int quiz_session_grade(struct quiz_session *ss, struct answer *a);

/* Removes the last graded answer of this test, restores the schedule and
 * goes back to that question.  *undone receives the removed answer (may
 * be NULL).  Returns 0, WB_ENOENT when nothing is graded, WB_ECONFLICT
 * when the newest answer is not the one this session knows of (another
 * process graded since: nothing is removed, the session is refreshed),
 * WB_EBUSY, WB_EIO. */
int quiz_session_undo(struct quiz_session *ss, struct answer *undone);

/* Ends the test as "finished" or "abandoned" (graded answers stay). */
int quiz_session_finish(struct quiz_session *ss, int64_t now_ms);
int quiz_session_abandon(struct quiz_session *ss, int64_t now_ms);
/* Abandons whatever test is running (no-op when none). */
int answers_abandon_running(struct store *s, int64_t now_ms);
void quiz_session_free(struct quiz_session *ss);

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
int answers_test_summary(struct store *s, const char *test_uid, struct answers_summary *out);
void answers_summary_free(struct answers_summary *sum);

/* The schedule of a question.  0, WB_ENOENT when never graded, WB_EIO. */
int answers_schedule_get(struct store *s, const char *question, struct sched_state *st);

/* Questions of bank due before until_s (unix seconds), most overdue
 * first.  Returns 0; *out malloc'd array of borrowed pointers. */
int answers_due(struct store *s, const struct quiz_bank *bank, int64_t until_s,
		const struct quiz_question ***out, size_t *n);

/* Start of the local day `days` days after the one holding t_s. */
int64_t answers_day_start(int64_t t_s, int days);

/* Due counts per local day: counts[0] is today (overdue included),
 * counts[k] the k-th day after.  Only questions in bank count. */
int answers_due_days(struct store *s, const struct quiz_bank *bank, int64_t now_s, int days,
		     int *counts);

/* Mastery of a chapter: questions of bank in chapter (*total) and those
 * whose last grade is Got it (*got). */
int answers_mastery(struct store *s, const struct quiz_bank *bank, const char *chapter, int *got,
		    int *total);

/* Points per test over time (this learner), oldest first. */
struct answers_test_points {
	char *test_uid;
	int64_t started_at; /* first answer shown, ms */
	int points, max_points, answers;
};
int answers_test_history(struct store *s, struct answers_test_points **out, size_t *n);
void answers_test_history_free(struct answers_test_points *h, size_t n);

/* Per-question statistics over every learner, for instructors. */
struct answers_qstat {
	char *question, *chapter;
	int attempts;
	double mean_share; /* mean of points / max_points, 0..1 */
	int grades[4];	   /* by GRADE_* */
};
int answers_question_stats(struct store *s, struct answers_qstat **out, size_t *n);
void answers_question_stats_free(struct answers_qstat *q, size_t n);

/* Export of every graded answer, oldest first.  learner, when not NULL,
 * names this learner's rows ('' in the database) in the output. */
enum answers_format { ANSWERS_CSV, ANSWERS_JSON };
int answers_export(struct store *s, FILE *out, enum answers_format fmt, const char *learner);

/* Merges an export (CSV or JSON, detected) in one transaction: answers
 * whose uid exists are skipped, schedules of this learner's questions are
 * replayed.  Returns 0; WB_EINVAL with a message naming the row for bad
 * input (nothing imported); WB_EBUSY; WB_EIO. */
int answers_import(struct store *s, const char *text, size_t len, size_t *added, size_t *skipped,
		   char *err, size_t errlen);

/* Answers in the database (all learners); for tests and reports. */
int answers_count(struct store *s, const char *test_uid, size_t *n);

/* Test hook: when WORKBENCH_TEST_KILL_IN_SAVE=N, the process kills
 * itself with SIGKILL inside the transaction of the N-th save, after the
 * INSERT and before COMMIT, so crash tests hit the worst moment on
 * purpose instead of by timing.
 *
 * Test hook: WORKBENCH_TEST_HOLD=WHAT:N with WORKBENCH_TEST_HOLD_FIFO=P
 * holds the N-th WHAT of the process: it writes a line to the fifo P.held
 * and then waits for a line on the fifo P.go.  WHAT is save, undo,
 * import or start (inside the transaction, after its writes, before
 * COMMIT: the database stays locked meanwhile) or start-begin (after
 * the caller looked for a running test, before the transaction).  Tests
 * force two processes to overlap with it instead of sleeping. */

#endif
