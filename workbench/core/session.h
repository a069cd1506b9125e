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
 * `limit` of them (0 or >= n: all), stored in one transaction.  A shorter
 * chapter test is the covering draw: the bank order (which follows the
 * lesson's sections) is cut into `limit` runs of near-equal length, each
 * run gives its weakest question (this learner's last grade Again, then
 * Partly, then never graded, then Got it; the shuffle breaks ties), and
 * the test asks them weakest first.  When the bank marks a closed-book
 * core (`core: true`, twelve questions covering every section), that
 * draw runs over the core questions first, and over the others only for
 * what is left (a 24-question test: the 12 core, then 12 more); a bank
 * without core marks is drawn over all.  A shorter review keeps the first
 * `limit` of the shuffle.  kind is
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

/* Drafts: the unfinished answer to a question of the test, kept when the
 * learner pauses and given back on resume.  A draft is never graded and
 * never touches quiz_answer or a schedule; grading a question removes
 * its draft.
 * Keeps text as the draft of the current question (NULL or only blanks:
 * removes it).  Returns 0, WB_EINVAL when the test is done, WB_EBUSY or
 * WB_EIO. */
int quiz_session_save_draft(struct quiz_session *ss, const char *text, int64_t now_ms);

/* The draft of the current question into *text (malloc'd; NULL when
 * there is none).  Returns 0 or a WB_E* code (*text NULL). */
int quiz_session_draft(struct quiz_session *ss, char **text);

/* Frees a session and its test; ss may be NULL.  Cannot fail. */
void quiz_session_free(struct quiz_session *ss);

/* ---- resume or start: the policy the TUI and `quiz run` share ---- */

/* What the learner asked for. */
struct quiz_session_req {
	const char *chapter;	    /* a chapter test of it; NULL: a review of what is
				       due today */
	const char *lang;	    /* language of a new test, and of a resumed one when
				       its bank has all the test's questions: "zh",
				       anything else is "en" */
	int closed_book;	    /* a new test is taken with the lesson closed (1) */
	size_t limit;		    /* a new test asks `limit` questions (0: all, see
				       quiz_session_start); a resumed one is cut to at most
				       `limit` still to ask (quiz_session_trim) */
	int no_start;		    /* 1: only resume: with no test running, WB_ENOENT at
				       QUIZ_OPEN_START and nothing is written */
	int resume;		    /* 1: a running test of the same request is resumed;
				       0: it is a conflict like any other running test */
	const char *content_root;   /* quiz_bank_open's folders: the content root ... */
	const char *instructor_dir; /* ... and the instructor's folder (may be NULL) */
};

/* Where quiz_session_open stopped. */
enum quiz_open_step {
	QUIZ_OPEN_LOOK,	  /* reading the running test */
	QUIZ_OPEN_RESUME, /* resuming it */
	QUIZ_OPEN_START,  /* finding questions for a new test, or starting it */
};

/* What quiz_session_open hands back; zero it before the call and clear
 * it with quiz_session_opened_clear (fields the caller keeps are set to
 * NULL first). */
struct quiz_session_opened {
	struct quiz_session *ss;    /* on success: the session (owned) */
	struct quiz_bank *bank;	    /* on success: the bank ss asks from (owned; free it
				       after ss): req->lang's, or for a resumed test
				       whose questions that bank lacks, the test's own */
	int resumed;		    /* on success: 1 resumed, 0 started */
	int trimmed;		    /* on success: 1 when the resumed test was cut to
				       req->limit questions still to ask */
	enum quiz_open_step step;   /* on error: what failed */
	struct quiz_test *conflict; /* on WB_ECONFLICT: the other running test (owned),
				       or NULL when the race below was lost */
};

/* 1 when the running test `run` is what req->chapter asks for (that
 * chapter's test, or for NULL a review), else 0.  Cannot fail.  `quiz
 * run --abandon` uses it to refuse abandoning another test. */
int quiz_session_is_same(const struct quiz_test *run, const char *chapter);

/* Resumes the running test when it is the one asked for, else starts a
 * new one: looks for the running test; another one is a conflict; the
 * same one (req->resume) is resumed with a bank in req->lang (the
 * language the learner asks for now: the UI's) when that bank has every
 * question of the test (ids are the same in every language), else with
 * a bank in the test's own language (test->lang, which stays as stored;
 * answers record it); with none, the questions of req->chapter (or those due before the end
 * of today) in req->lang are shuffled (answers_random_seed) and started
 * at answers_now_ms.  Another process may start or end a test between
 * the look and the start or resume; that is looked at again, up to three
 * more times.  The closed-book choice of a resumed test is its own.
 *
 * Returns 0 with out->ss, out->bank and out->resumed;
 *   WB_ECONFLICT with out->conflict: another test is running (or the
 *     same one with req->resume 0): the caller names it;
 *   WB_ECONFLICT with out->conflict NULL: four looks in a row were
 *     overtaken by other processes (step says the last attempt);
 *   WB_ENOENT (step START): nothing to ask: the chapter has no questions
 *     in that language, or nothing is due;
 *   WB_ENOENT (step RESUME): the running test ended four times in a row
 *     between the look and the resume;
 *   WB_EBUSY: the database is held past the busy timeout; nothing was
 *     written, the caller may ask and call again;
 *   WB_EINVAL, WB_EIO: as quiz_session_start / resume (store_errmsg).
 * out->step says where an error came from.  The caller owns what out
 * holds and frees it with quiz_session_opened_clear.
 *
 * The two callers (and nothing else decides resume or start):
 * - TUI, tui/quiz.c open_session: req = {chapter (NULL for a review),
 *   lang = the lesson's or the app's, closed_book 1, resume 1,
 *   t->app->content, t->app->quizzes}, first with no_start 1 (a running
 *   test resumes; with none, ENOENT at START -> the length question from
 *   quiz_session_pool), then on Enter with limit = the size chosen (0 for
 *   all) and no_start 0; 0 -> the screen takes out.ss and
 *   out.bank (its language), notes M_QUIZ_RESUMED when out.resumed;
 *   ECONFLICT with conflict -> QS_CONFLICT naming it; ENOENT at START ->
 *   flash M_QUIZ_NO_QUESTIONS / M_QUIZ_NONE_DUE; EBUSY -> flash
 *   M_QUIZ_BUSY; step LOOK -> flash store_errmsg; the screen is dropped
 *   on any error.  L in the test calls it again (tui/quiz.c switch_lang:
 *   no_start 1, lang the other language): 0 -> the screen swaps in out.ss
 *   and out.bank at the same position; any error -> a note, the screen
 *   keeps its session.
 * - CLI, cli/quiz_run.c resume_or_start: req = {chapter (NULL with
 *   --due), app->lang, closed_book = !--open-book, limit = --limit
 *   (checked against quiz_session_pool first), resume 1, app->content,
 *   app->quizzes}; out.trimmed -> M_QUIZ_TRIMMED; `while (err == WB_EBUSY &&
 *   busy_ask(...))` calls it again; ECONFLICT with conflict -> "another
 *   self-test is in progress (...)"; ENOENT at START -> M_QUIZ_NONE_DUE
 *   (exit 0) or "chapter %s has no questions in %s"; step LOOK -> "cannot
 *   read the progress database", RESUME / START -> "cannot resume / start
 *   the test".  --abandon keeps answers_running_test +
 *   quiz_session_is_same + answers_abandon_running. */
int quiz_session_open(struct store *s, const struct quiz_session_req *req,
		      struct quiz_session_opened *out);

/* How many questions a new test of req would draw from (a chapter's in
 * req->lang, or those due today) into *n.  Returns 0, or a WB_E* code
 * (*n 0). */
int quiz_session_pool(struct store *s, const struct quiz_session_req *req, size_t *n);

/* Cuts the running test of ss to at most `limit` questions still to ask
 * (the first in its order stay; graded ones always stay) and reloads it.
 * Sets *cut to 1 when something was removed.  Returns 0, WB_EBUSY or
 * WB_EIO (the session is unchanged then). */
int quiz_session_trim(struct quiz_session *ss, size_t limit, int *cut);

/* Frees what out holds (session before bank) and zeroes it; out may be
 * NULL.  Cannot fail. */
void quiz_session_opened_clear(struct quiz_session_opened *out);

/* The closed-book rule: a lesson is closed while a running test asks
 * questions of its chapter (quiz_test_covers) and has at least one graded
 * answer, so a learner cannot look the answers up mid-test; a test
 * started and paused before its first grade leaves the lesson open.  Returns 0 with *test the
 * running test that closes the lesson (the caller frees it; its chapter, answered and n word the
 * notice) or NULL when the lesson is open; a WB_E* code when the database cannot be read (*test
 * NULL; the TUI then opens the lesson).  Like the TUI's quiz_guard_lesson today, an open-book test
 * (`quiz run --open-book`) closes the lesson too.
 * The TUI's router (tui/nav.c lesson_closed_by_test) maps onto it
 * directly: a test -> the "lesson is closed" notice with it; NULL or an
 * error -> open the reader. */
int quiz_session_blocks_lesson(struct store *s, const char *chapter, struct quiz_test **test);

#endif
