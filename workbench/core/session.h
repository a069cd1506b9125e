/*
 * session.h - self-tests in the progress database: the running test,
 * and a session that starts or resumes it, grades and undoes answers
 * within it and ends it.
 *
 * A test keeps its shuffled order in the database, so it resumes in the
 * same order after a restart.  At most one test runs at a time (a unique
 * partial index enforces it); two processes (two windows, or the TUI and
 * `quiz run --plain`) may drive the same test, and every write that can
 * lose a race to the other says so with WB_ECONFLICT and refreshes the
 * session to what the other stored.
 *
 * This module draws nothing and prints nothing: callers word the
 * outcomes.  Test seams (base/testhook.h): the "start-begin", "start"
 * and "undo" holds.
 */
#ifndef WB_SESSION_H
#define WB_SESSION_H

#include <stddef.h>
#include <stdint.h>

struct answer;
struct store;
struct quiz_bank;
struct quiz_question;

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
/* Frees a test; t may be NULL.  Cannot fail. */
void quiz_test_free(struct quiz_test *t);

/* The running test (the caller frees it).  Returns 0, WB_ENOENT when
 * none runs, or a WB_E* code (WB_EBUSY, WB_EIO); *out is NULL on error. */
int answers_running_test(struct store *s, struct quiz_test **out);

/* 1 when the test asks questions of this chapter (a chapter test of it,
 * or a review holding one of its questions), else 0.  Cannot fail. */
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

/* Ends the test as "finished" (test->state follows).  Graded answers
 * stay.  Returns 0 (also when the test had already ended elsewhere:
 * nothing is changed then), WB_EBUSY or WB_EIO. */
int quiz_session_finish(struct quiz_session *ss, int64_t now_ms);

/* Ends the test as "abandoned"; otherwise as quiz_session_finish. */
int quiz_session_abandon(struct quiz_session *ss, int64_t now_ms);

/* Abandons whatever test is running (no-op when none).  Returns 0,
 * WB_EBUSY or WB_EIO. */
int answers_abandon_running(struct store *s, int64_t now_ms);

/* Frees a session and its test; ss may be NULL.  Cannot fail. */
void quiz_session_free(struct quiz_session *ss);

#endif
