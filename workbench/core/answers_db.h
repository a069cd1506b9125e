/*
 * answers_db.h - the row-level helpers that answers.c shares with
 * session.c (undo) and exchange.c (export, import): checking an answer,
 * inserting it, replaying a question's schedule and reading an answer
 * row.  They run inside the caller's transaction and take the raw
 * connection (store_db).
 *
 * For the progress model's own files only: screens and commands use
 * answers.h, session.h, progress.h and exchange.h.
 */
#ifndef WB_ANSWERS_DB_H
#define WB_ANSWERS_DB_H

#include <sqlite3.h>

struct answer;

/* The columns answers_read_row reads, in its order, for
 * "SELECT " ANSWERS_COLUMNS " FROM quiz_answer ...". */
#define ANSWERS_COLUMNS                                                                            \
	"uid, learner, test_uid, question, chapter, lang, kind, shown_at, "                        \
	"COALESCE(revealed_at, 0), graded_at, answer, ticked, points, max_points, grade, "         \
	"closed_book"

/* Why a is not storable (a static English reason such as "bad grade"),
 * or NULL when every field is valid.  Cannot fail. */
const char *answers_invalid(const struct answer *a);

/* Inserts a, ignoring a uid the table already has; *added (may be NULL)
 * is 1 when a row was written.  The caller has checked a
 * (answers_invalid) and holds the write transaction.  Returns 0 or a
 * WB_E* code (sqlitex_err). */
int answers_insert(sqlite3 *db, const struct answer *a, int *added);

/* Recomputes the schedule of question from this learner's answers
 * (learner = ''), in graded order; deletes it when none is left.  Runs
 * in the caller's transaction.  Returns 0 or a WB_E* code. */
int answers_replay(sqlite3 *db, const char *question);

/* Fills *a (zeroed first; the strings are owned, answer_clear frees
 * them) from the current row of a statement that selected
 * ANSWERS_COLUMNS.  Cannot fail (aborts on out of memory). */
void answers_read_row(sqlite3_stmt *st, struct answer *a);

#endif
