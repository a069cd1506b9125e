/*
 * taskspec.h - what the rule checks of the task-table exercises share
 * (task-claim, task-complete, task-recover-claim; see spec.h): a real
 * SQLite file with the chapter's schema (data/tasks.sql) in the run
 * folder, rows staged in any state the rules name, the learner's named
 * statement run once against them, and the table read back and compared,
 * column by column, with what the rule demands.
 *
 * Design: the check's own connection is the recipe's (tasktable_open), so
 * the other parties of an exploration (the holder's complete and fail, an
 * operator's cancel) are the recipe's own functions on the same file, and
 * a claim the check makes for someone else is the recipe's claim
 * statement (tasktable_sql) with a claim_id drawn from the check's seeded
 * stream.  The clock is the schema's fixed clock (task_clock), so "now" is
 * a number the check chose.  A snapshot is every row of task as text, so
 * an expected table is the snapshot before the call with a few columns
 * set; a difference is shown with times relative to now ("now+30000").
 *
 * It judges nothing itself: the exercise's check knows its rules.
 */
#ifndef WB_TASKSPEC_H
#define WB_TASKSPEC_H

#include "exercise.h"
#include "spec.h"
#include "sqlex.h"
#include "recipes/tasktable.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define TS_NULL LLONG_MIN /* a NULL time or number in struct ts_row */
#define TS_ROWS 8	  /* rows a snapshot keeps */
#define TS_COLS 15	  /* columns of task it keeps (taskspec.c names them) */

/* One row to stage.  Zero max_attempts, backoff_ms and backoff_max_ms take
 * the schema's defaults (3, 1000, 60000); NULL texts and TS_NULL numbers
 * are SQL NULL. */
struct ts_row {
	const char *task_id;
	const char *state;
	long long due;
	const char *owner;
	const char *claim_id;
	long long version, attempt, max_attempts;
	long long lease_until, claimed_at, finished_at;
	int cancel;
	const char *last_error;
	long long backoff_ms, backoff_max_ms;
};

/* Every row of task (ordered by task_id), each column as text ("NULL"). */
struct ts_snap {
	int n;
	char v[TS_ROWS][TS_COLS][40];
};

/* What one run of the learner's statement did. */
struct ts_out {
	int failed;    /* the statement failed: err holds SQLite's text */
	char err[400]; /* "name: message" */
	int changes;   /* rows it changed */
	struct sqlex_out o;
	struct ts_snap after;
};

struct taskspec {
	struct lab_ctx *ctx;
	struct spec sp;
	struct tasktable *tt;
	sqlite3 *db; /* tt's connection */
	const struct sqlfile *f;
	long long now; /* the fixed db time */
	char env[512]; /* why the environment failed */
	char *path;    /* the table's file and the schema's (owned) */
	char *schema;
};

/* Starts judging rules (spec_init) and opens <run_dir>/<dbname> with the
 * schema.  0, or a WB_E* code after report_cannot. */
int taskspec_open(struct taskspec *ts, struct lab_ctx *ctx, const struct ex_code *code,
		  const struct sqlfile *f, const struct spec_rule *rules, size_t n,
		  const char *dbname);
/* Closes the table; accepts a taskspec taskspec_open failed on. */
void taskspec_close(struct taskspec *ts);

/* Empties the table, fixes the clock at now and inserts rows[0..n).  When
 * that fails (a learner's statement may have dropped the table), starts
 * over once from a fresh file.  0 or WB_E* (reason in ts->env). */
int taskspec_stage(struct taskspec *ts, long long now, const struct ts_row *rows, int n);
/* Moves the fixed clock to now.  0 or WB_E*. */
int taskspec_clock(struct taskspec *ts, long long now);
/* Reads every row.  0 or WB_E* (ts->env). */
int taskspec_snap(struct taskspec *ts, struct ts_snap *s);

/* The index of column col (taskspec.c's list); -1 for an unknown one. */
int taskspec_col(const char *col);
/* Column col of task_id's row in s, or NULL when s has no such row. */
const char *taskspec_get(const struct ts_snap *s, const char *task_id, const char *col);
/* The same as an integer (0 when NULL or missing). */
long long taskspec_geti(const struct ts_snap *s, const char *task_id, const char *col);
/* Sets column col of task_id's row in s (an expected table). */
void taskspec_set(struct ts_snap *s, const char *task_id, const char *col, const char *val);
/* The same with a number; TS_NULL sets NULL. */
void taskspec_seti(struct ts_snap *s, const char *task_id, const char *col, long long v);

/*
 * Compares got with want over the columns cols (NULL-terminated; NULL:
 * every column) of the rows whose task_id is task_id (NULL: every row;
 * "!X": every row but X's).  Writes the differences into buf as
 * "T1.lease_until now+30 (want now+30000); ..." and returns how many.
 */
int taskspec_diff(const struct taskspec *ts, const struct ts_snap *want, const struct ts_snap *got,
		  const char *task_id, const char *const *cols, char *buf, size_t len);

/* Runs the learner's statement name once with params (n), inside BEGIN
 * IMMEDIATE ... COMMIT when txn (ROLLBACK when it failed), and reads the
 * table after it into out->after (empty, and out->failed, when the
 * statement left it unreadable).  0 whether or not the statement failed
 * (out->failed says); WB_E* when the environment did (ts->env). */
int taskspec_run(struct taskspec *ts, const char *name, const struct sqlfile_param *params,
		 size_t n, int txn, struct ts_out *out);

/* "failed: <SQLite's text>" or "N rows changed" (+ " and returned M"
 * when returned), for observed values. */
const char *taskspec_outcome(const struct ts_out *out, int returned, char *buf, size_t len);

/* The recipe's claim statement (tasktable_sql("claim")) for someone else
 * than the learner, with the check's claim_id: 0 won (out filled),
 * TASK_ELOST, or WB_E* (ts->env). */
int taskspec_ref_claim(struct taskspec *ts, const char *task_id, const char *owner,
		       const char *claim_id, long long lease_ms, struct task_claim *out);

/* The current claim of task_id as the snapshot shows it (task_id, owner,
 * claim_id, version), for the recipe's holder calls. */
void taskspec_claim_of(const struct ts_snap *s, const char *task_id, struct task_claim *c);

/* A claim_id for a claim a story's worker sends: 32 hex digits derived
 * from seed, owner and task_id and a per-process count, so the same run
 * makes the same ids and two workers (different owners) never share one.
 * Not random: a claim_id needs only be unique. */
void taskspec_story_id(uint64_t seed, const char *owner, const char *task_id, char buf[33]);

#endif
