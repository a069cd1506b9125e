/*
 * answers.c - graded answers on the progress database (see answers.h):
 * saving one answer with its question's schedule, replaying a schedule,
 * counting, and the row helpers session.c and exchange.c share
 * (answers_db.h).
 *
 * Tables (store.c migration 2)
 *   quiz_test       one row per test; state running|finished|abandoned;
 *                   a unique partial index allows one running test
 *                   (session.c).
 *   quiz_test_item  the shuffled order of a test: (test_uid, pos).
 *   quiz_answer     one row per graded answer, keyed by a random uid so
 *                   that exports from several databases merge cleanly.
 *   quiz_schedule   FSRS state per question id (language-independent: the
 *                   same id in two languages is the same question).
 *
 * Invariants
 * - quiz_schedule is a pure function of this learner's answers: every
 *   write that adds or removes an answer replays that question's history
 *   (sched_review over its answers in graded order) in the same
 *   transaction.  Undo (session.c) and import (exchange.c) therefore can
 *   never leave a schedule that disagrees with the answers.
 * - Each graded answer is its own BEGIN IMMEDIATE transaction.
 * - Nothing here trusts the clock to be monotonic; times are only stored
 *   and compared.
 *
 * Not here: tests and sessions (session.c), statistics (progress.c),
 * export and import (exchange.c), the clock (clock.c), the test seams
 * (base/testhook.c).
 */
#include "core/answers.h"
#include "core/answers_db.h"
#include "core/clock.h"
#include "core/content.h"
#include "core/quizfile.h"
#include "core/sched.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/sqlitex.h"
#include "base/testhook.h"
#include "base/wb.h"

#include <ctype.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

void answer_clear(struct answer *a)
{
	if (!a)
		return;
	free(a->uid);
	free(a->learner);
	free(a->test_uid);
	free(a->question);
	free(a->chapter);
	free(a->lang);
	free(a->kind);
	free(a->text);
	free(a->ticked);
	memset(a, 0, sizeof *a);
}

static int kind_ok(const char *k)
{
	return k && (!strcmp(k, "recall") || !strcmp(k, "choice") || !strcmp(k, "numeric"));
}

static int uid_ok(const char *u)
{
	size_t n = u ? strlen(u) : 0;
	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)u[i]) && u[i] != '-')
			return 0;
	return 1;
}

const char *answers_invalid(const struct answer *a)
{
	if (!uid_ok(a->uid))
		return "bad uid";
	if (!quiz_valid_id(a->question))
		return "bad question id";
	if (!content_valid_chapter_id(a->chapter))
		return "bad chapter id";
	if (!content_lang_ok(a->lang))
		return "bad language";
	if (!kind_ok(a->kind))
		return "bad kind";
	if (a->grade < GRADE_AGAIN || a->grade > GRADE_GOT)
		return "bad grade";
	if (a->max_points < 0 || a->points < 0 || a->points > a->max_points)
		return "points out of range";
	if (a->test_uid && !uid_ok(a->test_uid))
		return "bad test uid";
	if (a->closed_book != 0 && a->closed_book != 1)
		return "closed_book must be 0 or 1";
	if (a->shown_at <= 0 || a->graded_at <= 0)
		return "missing time";
	/* Free text is stored as it came, but only as UTF-8: JSON (export)
	 * cannot carry other bytes, so they would be lost on a round trip. */
	if (a->text && !utf8_valid(a->text, strlen(a->text)))
		return "the answer is not valid UTF-8";
	if (a->ticked && !utf8_valid(a->ticked, strlen(a->ticked)))
		return "ticked is not valid UTF-8";
	if (a->learner && !utf8_valid(a->learner, strlen(a->learner)))
		return "the learner name is not valid UTF-8";
	return NULL;
}

int answers_replay(sqlite3 *db, const char *question)
{
	sqlite3_stmt *st = NULL;
	int err =
		sqlitex_prepare(db,
				"SELECT grade, graded_at FROM quiz_answer WHERE question = ?1 AND "
				"learner = '' ORDER BY graded_at, rowid",
				&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
	struct sched_state s = {0};
	int last = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		last = sqlite3_column_int(st, 0);
		sched_review(&s, sched_rating_of_grade(last), sqlite3_column_int64(st, 1) / 1000);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sqlitex_err(rc);
	if (s.reps == 0) {
		err = sqlitex_prepare(db, "DELETE FROM quiz_schedule WHERE question = ?1", &st);
		if (err)
			return err;
		sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
	} else {
		err = sqlitex_prepare(
			db,
			"INSERT OR REPLACE INTO quiz_schedule (question, stability, difficulty, "
			"reps, lapses, last_review, due, last_grade) VALUES (?1, ?2, ?3, ?4, ?5, "
			"?6, ?7, ?8)",
			&st);
		if (err)
			return err;
		sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 2, s.stability);
		sqlite3_bind_double(st, 3, s.difficulty);
		sqlite3_bind_int(st, 4, s.reps);
		sqlite3_bind_int(st, 5, s.lapses);
		sqlite3_bind_int64(st, 6, s.last_review);
		sqlite3_bind_int64(st, 7, s.due);
		sqlite3_bind_int(st, 8, last);
	}
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

static const char insert_sql[] =
	"INSERT OR IGNORE INTO quiz_answer (uid, learner, test_uid, question, chapter, lang, kind, "
	"shown_at, revealed_at, graded_at, answer, ticked, points, max_points, grade, "
	"closed_book) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
	"?16)";

int answers_insert(sqlite3 *db, const struct answer *a, int *added)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(db, insert_sql, &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, a->uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, a->learner ? a->learner : "", -1, SQLITE_STATIC);
	sqlitex_bind_text_or_null(st, 3, a->test_uid);
	sqlite3_bind_text(st, 4, a->question, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, a->chapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, a->lang, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, a->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, a->shown_at);
	if (a->revealed_at)
		sqlite3_bind_int64(st, 9, a->revealed_at);
	else
		sqlite3_bind_null(st, 9);
	sqlite3_bind_int64(st, 10, a->graded_at);
	sqlitex_bind_text_or_null(st, 11, a->text);
	sqlitex_bind_text_or_null(st, 12, a->ticked);
	sqlite3_bind_int(st, 13, a->points);
	sqlite3_bind_int(st, 14, a->max_points);
	sqlite3_bind_int(st, 15, a->grade);
	sqlite3_bind_int(st, 16, a->closed_book);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (added)
		*added = sqlite3_changes(db) > 0;
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

/* For an answer in a test: WB_ECONFLICT when the test is no longer
 * running or already has an answer to this question (another process
 * graded it first).  Runs inside the save's transaction, so the answer
 * is checked against what is committed now, not what this process saw. */
static int test_answer_conflict(sqlite3 *db, const struct answer *a)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		db,
		"SELECT (SELECT state FROM quiz_test WHERE uid = ?1) = 'running', "
		"EXISTS (SELECT 1 FROM quiz_answer WHERE test_uid = ?1 AND question = ?2)",
		&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, a->test_uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, a->question, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		err = sqlite3_column_int(st, 0) != 1 || sqlite3_column_int(st, 1) ? WB_ECONFLICT
										  : 0;
	else
		err = sqlitex_err(rc);
	sqlite3_finalize(st);
	return err;
}

int answers_save(struct store *s, struct answer *a)
{
	sqlite3 *db = store_db(s);
	if (!a->uid)
		a->uid = clock_new_uid();
	if (!a->learner)
		a->learner = wb_xstrdup("");
	if (answers_invalid(a))
		return WB_EINVAL;
	int err = sqlitex_begin_immediate(db);
	if (err)
		return err;
	if (a->test_uid)
		err = test_answer_conflict(db, a);
	int added = 0;
	if (!err)
		err = answers_insert(db, a, &added);
	if (!err && !added)
		err = WB_EINVAL; /* the uid exists: never overwrite a graded answer */
	if (!err)
		testhook_kill_in_save();
	if (!err && !a->learner[0])
		err = answers_replay(db, a->question);
	if (!err)
		testhook_hold("save");
	if (err) {
		sqlitex_rollback(db);
		return err;
	}
	return sqlitex_end(db, 0);
}

int answers_count(struct store *s, const char *test_uid, size_t *n)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(store_db(s),
				  test_uid ? "SELECT COUNT(*) FROM quiz_answer WHERE test_uid = ?1"
					   : "SELECT COUNT(*) FROM quiz_answer",
				  &st);
	if (err)
		return err;
	if (test_uid)
		sqlite3_bind_text(st, 1, test_uid, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*n = rc == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sqlitex_err(rc);
}

void answers_read_row(sqlite3_stmt *st, struct answer *a)
{
	memset(a, 0, sizeof *a);
	a->uid = sqlitex_column_dup(st, 0);
	a->learner = sqlitex_column_dup(st, 1);
	a->test_uid = sqlitex_column_dup(st, 2);
	a->question = sqlitex_column_dup(st, 3);
	a->chapter = sqlitex_column_dup(st, 4);
	a->lang = sqlitex_column_dup(st, 5);
	a->kind = sqlitex_column_dup(st, 6);
	a->shown_at = sqlite3_column_int64(st, 7);
	a->revealed_at = sqlite3_column_int64(st, 8);
	a->graded_at = sqlite3_column_int64(st, 9);
	a->text = sqlitex_column_dup(st, 10);
	a->ticked = sqlitex_column_dup(st, 11);
	a->points = sqlite3_column_int(st, 12);
	a->max_points = sqlite3_column_int(st, 13);
	a->grade = sqlite3_column_int(st, 14);
	a->closed_book = sqlite3_column_int(st, 15);
}
