/*
 * tasktable.h - the durable task table of chapter 01, on SQLite: claim,
 * renew, complete, fail with an attempt budget, cancel, and recovery of a
 * claim whose reply was lost.  The schema is data/tasks.sql.
 *
 * The rules this recipe keeps (the lesson explains why):
 * - Every state change is one conditional UPDATE in a BEGIN IMMEDIATE
 *   transaction; it succeeded only when exactly one row changed.  Zero
 *   rows is reported as TASK_ELOST and never ignored.
 * - "now" is the database's clock (the db_now view), read inside the same
 *   statement.  No function takes a time from the caller.
 * - Every claim request carries a fresh claim_id made here, before the
 *   statement is sent, so even an unknown outcome can be recovered by it.
 * - renew, complete, fail and the cancel check carry task_id + owner +
 *   claim_version and apply only while RUNNING and the lease holds.
 * - SUCCEEDED, FAILED and CANCELLED are terminal: no claim matches them.
 * - Every claim request that reaches the database, and every holder's
 *   write that changed 0 rows, is counted once in task_claim_stat in the
 *   same transaction: the claim-conflict monitor reads those counts.
 *
 * It deliberately does not run work, sleep, schedule scans or talk to any
 * external service: a worker loop, a scanner and a payment provider are
 * the caller's (see labs/task-*.c).  It does not page anyone either: the
 * conflict alarm is a rule a monitor applies to the counts it reads.  A
 * claim_version is not a fencing token that anyone outside this table
 * checks.
 */
#ifndef WB_TASKTABLE_H
#define WB_TASKTABLE_H

#include "base/wb.h"
#include "base/sqlitex.h"

#include <stddef.h>

#define TASK_ID_MAX		 64 /* task_id and owner: up to 63 bytes + NUL */
#define TASK_CLAIM_ID_LEN	 33 /* 32 hex digits + NUL */
#define TASKTABLE_SCHEMA_VERSION 4

/* The claim-conflict monitor's buckets (data/tasks.sql, task_claim_stat):
 * intervals of TASK_STAT_INTERVAL_MS of db time, the last TASK_STAT_SLOTS
 * of them kept.  Every writer of one file must agree on both, so changing
 * either means a new schema version. */
#define TASK_STAT_INTERVAL_MS 1000
#define TASK_STAT_SLOTS	      600

/* A conditional statement changed 0 rows: you did not win the claim, or
 * your claim is no longer the current one.  Stop; do not retry blindly. */
#define TASK_ELOST WB_ENOENT

#define TASK_WUR __attribute__((warn_unused_result))

enum task_state { TASK_READY, TASK_RUNNING, TASK_SUCCEEDED, TASK_FAILED, TASK_CANCELLED };

/* What the claimer knows about its claim. */
enum task_outcome {
	TASK_OUTCOME_LOST,    /* 0 rows, or nothing was sent: not yours */
	TASK_OUTCOME_WON,     /* exactly one row changed and the COMMIT returned */
	TASK_OUTCOME_UNKNOWN, /* sent, but the reply is missing: recover by claim_id */
};

/* One claim as its holder knows it.  Filled by tasktable_claim*; passed
 * back (borrowed) to renew, complete, fail and the cancel calls. */
struct task_claim {
	char task_id[TASK_ID_MAX];	  /* empty when claim_next found nothing */
	char owner[TASK_ID_MAX];	  /* the worker's name */
	char claim_id[TASK_CLAIM_ID_LEN]; /* fresh for every claim request */
	enum task_outcome outcome;
	long long version;     /* claim_version this claim set (0 if not won) */
	long long attempt;     /* attempt this claim set */
	long long lease_until; /* db time the lease ends */
	long long claimed_at;  /* db time of the claim */
};

/* A row as stored (tasktable_get). */
struct task_row {
	char task_id[TASK_ID_MAX];
	enum task_state state;
	long long due;
	char owner[TASK_ID_MAX]; /* "" when NULL */
	char claim_id[TASK_CLAIM_ID_LEN];
	long long claim_version;
	long long lease_until; /* -1 when NULL */
	long long attempt, max_attempts;
	int cancel_requested;
	char last_error[128]; /* truncated; "" when NULL */
};

/* Per-task retry policy for tasktable_add; zero fields take the schema's
 * defaults (3 attempts, 1000 ms doubling up to 60000 ms). */
struct task_opts {
	int max_attempts;	  /* 1..30 */
	long long backoff_ms;	  /* first delay; doubles per attempt */
	long long backoff_max_ms; /* cap */
};

enum task_cancel_result {
	TASK_CANCEL_DONE,      /* READY -> CANCELLED: no claim can start it now */
	TASK_CANCEL_REQUESTED, /* it was RUNNING: cancel_requested is set, the
				  holder must stop; effects may have happened */
	TASK_CANCEL_TOO_LATE,  /* already terminal (see state) */
};

struct task_cancel {
	enum task_cancel_result result;
	enum task_state state; /* state after the call */
	long long attempt;     /* attempts so far */
	int never_ran;	       /* 1 only for DONE with attempt 0: the one case
				  where "it never ran" is a true answer */
};

/* What a monitor reads (tasktable_health). */
struct task_health {
	long long now;		      /* db time of the reading */
	long long oldest_due_age;     /* now - due of the oldest due READY task; 0 if none */
	long long oldest_expired_age; /* now - lease_until of the oldest expired lease; 0 */
	long long due_ready;	      /* READY tasks with due <= now */
	long long running, succeeded, failed, cancelled, ready;
};

/* How claim requests ended over a window of intervals (tasktable_claim_
 * stats).  Each request that reached the database is in exactly one of
 * won, conflicts and empty; a request that failed with an error rolled
 * back and is in none. */
struct task_claim_stats {
	long long now;	     /* db time of the reading */
	long long from, to;  /* the window: interval starts in [from, to) */
	long long won;	     /* claims that changed 1 row */
	long long conflicts; /* tasktable_claim calls that changed 0 rows */
	long long empty;     /* tasktable_claim_next calls that found nothing */
	long long stale;     /* renew/complete/fail/stop_cancelled: 0 rows */
};

/* The conflict alarm: it fires when a window holds at least min_conflicts
 * conflicts AND conflicts are more than max_ratio_pct percent of the claim
 * requests that won or conflicted (won + conflicts; empty polls and stale
 * writes are left out).  Both, because a count alone pages whenever
 * healthy traffic grows, and a ratio alone pages on one lost race out of
 * one. */
struct task_conflict_rule {
	long long min_conflicts; /* >= 1 */
	int max_ratio_pct;	 /* 0..99 */
};

/* Called after a claim's COMMIT returned (labs use it to lose the reply).
 * Non-zero makes the claim return WB_EIO with outcome UNKNOWN and every
 * field but task_id/owner/claim_id cleared, as if the reply never came. */
typedef int (*task_claim_hook)(void *arg, const struct task_claim *c);

struct tasktable;

/* Opens db_path (creating it), applying the schema at schema_path (the
 * shipped data/tasks.sql: the caller knows where that is) when the file
 * has none yet; schema_path NULL means the table must exist already (a
 * worker opening its run's table).  Concurrent openers are serialised by
 * BEGIN IMMEDIATE.  opts as for sqlitex_open (NULL for
 * defaults).  Returns 0, WB_ENEWER (a newer schema), WB_EINVAL (an older
 * one: task databases are per-run files and are not migrated), WB_ENOENT
 * (schema file missing, or NULL for a database without the schema), WB_EBUSY or WB_EIO, with a
 * message in errbuf.  Close with tasktable_close. */
int tasktable_open(const char *db_path, const char *schema_path, const struct sqlitex_opts *opts,
		   struct tasktable **out, char *errbuf, size_t errlen);
/* Closes; accepts NULL. */
void tasktable_close(struct tasktable *tt);

/* The last error's message (never NULL; "" when none). */
const char *tasktable_errmsg(const struct tasktable *tt);
/* The connection, borrowed, for labs that show a naive statement next to
 * the recipe's.  Do not close it. */
sqlite3 *tasktable_db(struct tasktable *tt);
void tasktable_set_claim_hook(struct tasktable *tt, task_claim_hook hook, void *arg);

/* Fixes the database clock at ms (labs replay traces with it). */
int tasktable_clock_set(struct tasktable *tt, long long ms);
/* Back to the real clock (ms since the epoch). */
int tasktable_clock_real(struct tasktable *tt);
/* Reads db_now.  0 or WB_E*. */
int tasktable_now(struct tasktable *tt, long long *now);

/* Inserts a READY task.  opts may be NULL.  Returns 0, WB_EINVAL (bad id
 * or a task_id that exists) or WB_E*. */
int tasktable_add(struct tasktable *tt, const char *task_id, long long due,
		  const struct task_opts *opts);
/* Reads one row.  0, WB_ENOENT or WB_E*. */
int tasktable_get(struct tasktable *tt, const char *task_id, struct task_row *out);
/* Up to max ids of due READY tasks, oldest due first, into ids (caller's
 * array of max rows).  A candidate list only: reading it claims nothing.
 * *n receives the count.  0 or WB_E*. */
int tasktable_due(struct tasktable *tt, char (*ids)[TASK_ID_MAX], int max, int *n);

/* Claims task_id for owner with a lease of lease_ms: READY and due, or
 * RUNNING with an expired lease; never when cancel_requested is set or the
 * attempt budget is spent.  out is filled (a fresh claim_id first).
 * Returns 0 (won: out->version, attempt, lease_until), TASK_ELOST (0
 * rows), WB_EINVAL, or another WB_E*: then out->outcome says whether the
 * statement may have applied (UNKNOWN: recover by out->claim_id).  A win
 * is counted as won, 0 rows as a conflict, in the claim's transaction. */
TASK_WUR int tasktable_claim(struct tasktable *tt, const char *task_id, const char *owner,
			     long long lease_ms, struct task_claim *out);
/* The same for the oldest claimable task (a due READY task, or an expired
 * lease), picked and claimed in the one statement.  TASK_ELOST when there
 * is none (counted as empty, not as a conflict). */
TASK_WUR int tasktable_claim_next(struct tasktable *tt, const char *owner, long long lease_ms,
				  struct task_claim *out);

/* The largest batch tasktable_claim_batch and tasktable_complete_batch
 * take in one call. */
#define TASK_BATCH_MAX 256

/* Claims up to max (1..TASK_BATCH_MAX) of the oldest claimable tasks (as
 * claim_next picks them) for owner in ONE conditional UPDATE and one
 * transaction, as River and graphile-worker fetch jobs.  Every task gets
 * its own claim: a fresh claim_id (all max made here before the statement
 * is sent, out[i].claim_id), its own claim_version + 1 and attempt + 1;
 * each is fenced on its own (renew, complete, fail and check take out[i]
 * like any claim).  out is the caller's array of max claims; the won
 * claims are out[0..*n), in the order the tasks waited, and out[*n..max)
 * are LOST with an empty task_id.  Counted as *n wins, or once as empty
 * when nothing was claimable.  Returns 0 (*n >= 1), TASK_ELOST (nothing
 * claimable, *n = 0), WB_EINVAL, or another WB_E*: then every out[i] says
 * UNKNOWN when the statement may have applied (recover each by its
 * claim_id, task_id NULL) or LOST when it rolled back.  The lost-reply
 * hook is called once, with out[0]. */
TASK_WUR int tasktable_claim_batch(struct tasktable *tt, const char *owner, long long lease_ms,
				   int max, struct task_claim *out, int *n);

/* Completes n (1..TASK_BATCH_MAX) claims in one write transaction, each by
 * the same guarded statement as tasktable_complete (task_id + owner +
 * claim_version, RUNNING, lease holding): a claim that is no longer
 * current changes 0 rows and is counted as stale, whatever the others do.
 * results (n entries, may be NULL) receives 0 or TASK_ELOST per claim.
 * Returns 0 when all n completed, TASK_ELOST when at least one did not
 * (the others did: committed), or WB_E* (rolled back: none completed). */
TASK_WUR int tasktable_complete_batch(struct tasktable *tt, const struct task_claim *c, int n,
				      int *results);

/* Recovers a claim whose outcome is unknown, by its claim_id and never by
 * owner name: found only while that claim is still current (RUNNING, lease
 * holds).  task_id may be NULL (claim_next).  Returns 0 with out filled
 * (outcome WON), TASK_ELOST when the claim never applied or was taken over
 * (stop: it is not yours to resume), or WB_E*. */
TASK_WUR int tasktable_recover_by_claim_id(struct tasktable *tt, const char *task_id,
					   const char *claim_id, struct task_claim *out);

/* renew, complete, fail and stop_cancelled count their TASK_ELOST as
 * stale in task_claim_stat, in the same transaction. */

/* Extends the lease of claim c to now + lease_ms.  0 (new end in
 * *lease_until and the cancel flag in *cancel_requested, both may be
 * NULL), TASK_ELOST (no longer the current claim), or WB_E*. */
TASK_WUR int tasktable_renew(struct tasktable *tt, const struct task_claim *c, long long lease_ms,
			     long long *lease_until, int *cancel_requested);
/* RUNNING -> SUCCEEDED for the current claim.  0, TASK_ELOST or WB_E*. */
TASK_WUR int tasktable_complete(struct tasktable *tt, const struct task_claim *c);
/* Ends this attempt as failed: back to READY with due = now + backoff
 * (backoff_ms doubled per attempt, capped), FAILED once attempt has
 * reached max_attempts, CANCELLED when a cancel was requested.  error is
 * stored (may be NULL).  0 (*state, *next_due may be NULL), TASK_ELOST or
 * WB_E*. */
TASK_WUR int tasktable_fail(struct tasktable *tt, const struct task_claim *c, const char *error,
			    enum task_state *state, long long *next_due);
/* The check a worker makes before each side effect: 0 with *requested set
 * when c is still the current claim with a valid lease, TASK_ELOST when it
 * is not (stop: someone else may be doing the work), or WB_E*.  A read:
 * a cancel can still arrive right after it. */
TASK_WUR int tasktable_check(struct tasktable *tt, const struct task_claim *c, int *requested);
/* The holder's cooperative stop: RUNNING with cancel_requested ->
 * CANCELLED, guarded by the claim's version.  0, TASK_ELOST or WB_E*. */
TASK_WUR int tasktable_stop_cancelled(struct tasktable *tt, const struct task_claim *c);

/* Cancels task_id: READY -> CANCELLED, or sets cancel_requested on a
 * RUNNING task; both in one transaction against the same row a claim
 * would change.  0 with out filled, WB_ENOENT (no such task) or WB_E*. */
int tasktable_cancel(struct tasktable *tt, const char *task_id, struct task_cancel *out);

/* Scanner housekeeping: expired leases that no claim may take over (cancel
 * requested, or attempts spent) become CANCELLED or FAILED.  Counts go to
 * *cancelled and *failed (may be NULL).  0 or WB_E*. */
int tasktable_sweep(struct tasktable *tt, int *cancelled, int *failed);

/* Reads the monitor's figures; the oldest-due reads use the indexes.
 * 0 or WB_E*. */
int tasktable_health(struct tasktable *tt, struct task_health *out);

/* Sums task_claim_stat over the current interval (which is still filling)
 * and the intervals - 1 before it, read in one snapshot.  intervals is
 * 1..TASK_STAT_SLOTS.  0, WB_EINVAL or WB_E*.  The ring assumes the clock
 * moves forward: a clock set back by TASK_STAT_SLOTS intervals or more
 * reuses, and resets, newer rows. */
int tasktable_claim_stats(struct tasktable *tt, int intervals, struct task_claim_stats *out);

/* Applies rule to s: 1 when the alarm fires, 0 when not.  Pure; reads
 * nothing else. */
int tasktable_conflict_alarm(const struct task_claim_stats *s,
			     const struct task_conflict_rule *rule);

/* The SQL text of one of the recipe's statements, by name: "claim",
 * "claim_next", "claim_batch", "complete", "due" or "oldest_due"; NULL for
 * any other name.  Its parameters are named (:now, :owner, :claim_id,
 * :lease_ms, :task_id, :version, :max, :claim_ids); a statement run
 * outside the recipe (bench/task_claim.c's floor) binds them itself. */
const char *tasktable_sql(const char *statement);

/* EXPLAIN QUERY PLAN of one of the recipe's statements, one plan row per
 * line, indented by depth: statement is a name tasktable_sql knows.  Shows that due scanning reads
 * an index range instead of sorting the table.  0 (*plan freed by the caller), WB_EINVAL (unknown
 * name) or WB_E*. */
int tasktable_explain(struct tasktable *tt, const char *statement, char **plan);

/* "READY", "RUNNING", ... for a state; "?" for anything else. */
const char *tasktable_state_name(enum task_state s);

#endif
