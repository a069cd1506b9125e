/*
 * tasktable.c - the durable task table on SQLite (see tasktable.h for the
 * contract and data/tasks.sql for the schema).
 *
 * Design notes
 * - One statement decides.  Each transition is a single UPDATE whose WHERE
 *   clause is the whole precondition (state, due, lease, version, cancel
 *   flag, attempt budget) and whose RETURNING clause hands back what the
 *   caller needs, so nothing is read in one statement and written in
 *   another.  Candidate lists (tasktable_due) are only hints.
 * - BEGIN IMMEDIATE around each write takes SQLite's write lock first, so
 *   concurrent claimers queue on the lock (busy timeout) instead of failing
 *   late on a lock upgrade; the transaction is also where the lost-reply
 *   hook sits: after COMMIT returned, before the caller learns the result.
 * - Time: each transaction reads db_now once (txn_now), at its first
 *   statement that needs it, after BEGIN IMMEDIATE has taken the write
 *   lock, and every statement of the transaction binds that instant as
 *   :now (stmt() does it).  Under the lock nothing else writes, so a lab's
 *   fixed clock cannot move between the read and the UPDATE that is judged
 *   by it, and all statements of a transaction (the claim and its monitor
 *   count) share one instant.  Earlier each statement read (SELECT now
 *   FROM db_now) as a scalar subquery, once per use: six reads of the view
 *   (a subquery and julianday) per claim; one read per transaction took a
 *   claim+complete from 171k to 161k instructions (callgrind, 2000 pairs).
 *   Not "UPDATE ... FROM db_now" either: SQLite runs an UPDATE with a FROM
 *   clause as a join into an ephemeral table first (about 40 % of a
 *   guarded complete's instructions).  Statements outside a transaction
 *   (candidate lists, checks, recovery) read now afresh each.
 * - The due and lease indexes are partial (data/tasks.sql): a claim moves
 *   one entry out of the READY index and one into the RUNNING one, a
 *   completion only removes the RUNNING entry.  With (state, due) and
 *   (state, lease_until) over every row, a claim+complete wrote about 13
 *   WAL frames; now about 6.5, with claim_id found through the lease index
 *   instead of a unique index of its own (strace: 26 -> 13 pwrite calls a
 *   task; the goqite-style loop of bench/task_claim.c writes 8), and WAL
 *   checkpoints (fsyncs) come that much less often.
 * - A batch claim (tasktable_claim_batch) is one UPDATE over the oldest
 *   claimable tasks, as River and graphile-worker fetch jobs, but each row
 *   is still judged by the whole claim condition and gets its own
 *   claim_version and its own claim_id (the k-th of a JSON array made
 *   before the statement is sent), so every task of the batch is fenced on
 *   its own.  The batch completion runs the one guarded complete per claim
 *   inside one transaction: one commit for the batch, the same fence per
 *   task.
 * - "Exactly one row" is checked with sqlite3_changes() as well as the
 *   RETURNING row; task_id is the primary key, so more than one row would
 *   mean a damaged database (WB_ECORRUPT).
 * - RETURNING only where the caller needs values (claim, renew, fail):
 *   SQLite buffers RETURNING rows in an ephemeral table with its own page
 *   cache, and with the default bulk allocation (20 pages, ~87 KB) glibc
 *   can grow and trim its heap around it on every statement.  That cost
 *   (about 1 ms a claim here) is an allocator effect, not a scan: the
 *   index keeps claim_next flat from 10k to 1M due tasks either way.
 *   bench/task_claim.c shows both, and sqlite3_config(SQLITE_CONFIG_
 *   PAGECACHE, NULL, 0, 0) before SQLite's first use removes it.
 * - The claim-conflict monitor is counters in the database, not a log and
 *   not process memory.  A claim request, or a holder's write, bumps one
 *   counter of its interval's row in task_claim_stat inside its own
 *   BEGIN IMMEDIATE transaction, right after the UPDATE and before COMMIT:
 *   the count commits with the outcome or rolls back with it, so every
 *   request that reached the database is counted exactly once, whichever
 *   process made it, and a claim the monitor did not see cannot exist.
 *   The write lock is already held, so the bump costs one more indexed
 *   row write per claim, not another lock round.  The counts live in a
 *   ring of TASK_STAT_SLOTS interval rows (bounded, no pruning job); an
 *   attempts log would also answer "who lost what", at one row per
 *   attempt that someone must delete.  Reads (tasktable_check, the
 *   candidate list) are not counted: counting them would make every read
 *   a write.  What a conflict is: tasktable_claim by task_id changing 0
 *   rows, for any reason (lost race, stale candidate).  claim_next's 0
 *   rows is "empty": it picks and claims under the write lock in one
 *   statement, so it cannot lose a race; its 0 rows means no work.
 * - The alarm is a rule over one window's counts (tasktable_conflict_
 *   alarm): at least N conflicts AND a conflict share above X% of the
 *   claim requests that won or conflicted (empty polls left out: an idle
 *   poller is no contention).  N keeps one lost race from paging; the
 *   share keeps growing healthy traffic from paging.
 *
 * Invariants kept here (the schema keeps the others): claim_version only
 * grows, by 1 per successful claim; attempt grows by 1 per claim; a task
 * with cancel_requested is never claimed again; no UPDATE below matches a
 * SUCCEEDED, FAILED or CANCELLED row, so terminal states stay terminal.
 */
#include "recipes/tasktable.h"
#include "base/wb.h"
#include "base/sqlitex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* ---- SQL ------------------------------------------------------------- */

/* The transaction's instant: stmt() binds every statement's :now (see
 * txn_now and the design notes). */
#define NOW ":now"

/* The claim: the lesson's statement, with the attempt budget added. */
#define CLAIM_SET                                                                                  \
	"UPDATE task"                                                                              \
	"   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,"                          \
	"       claim_version = claim_version + 1, attempt = attempt + 1,"                         \
	"       lease_until = " NOW " + :lease_ms, claimed_at = " NOW
#define CLAIM_COND                                                                                 \
	"   AND task.due <= " NOW "   AND task.cancel_requested = 0"                               \
	"   AND task.attempt < task.max_attempts"                                                  \
	"   AND (task.state = 'READY'"                                                             \
	"        OR (task.state = 'RUNNING' AND task.lease_until <= " NOW "))"
#define CLAIM_RETURNING " RETURNING task_id, claim_version, attempt, lease_until, claimed_at"

/* The current claim, as renew/complete/fail name it. */
#define GUARD                                                                                      \
	" WHERE task.task_id = :task_id AND task.owner = :owner"                                   \
	"   AND task.claim_version = :version"                                                     \
	"   AND task.state = 'RUNNING' AND task.lease_until > " NOW

enum q {
	Q_CLOCK_SET,
	Q_NOW,
	Q_ADD,
	Q_ADD_OPTS,
	Q_GET,
	Q_DUE,
	Q_CLAIM,
	Q_CLAIM_NEXT,
	Q_CLAIM_BATCH,
	Q_RECOVER,
	Q_RENEW,
	Q_COMPLETE,
	Q_FAIL,
	Q_CHECK,
	Q_STOP_CANCELLED,
	Q_CANCEL_READY,
	Q_CANCEL_RUNNING,
	Q_STATE,
	Q_SWEEP,
	Q_H_OLDEST_DUE,
	Q_H_OLDEST_EXPIRED,
	Q_H_DUE_READY,
	Q_H_COUNTS,
	Q_STAT_BUMP,
	Q_STAT_SUM,
	Q__N
};

static const char *const sql_text[Q__N] = {
	[Q_CLOCK_SET] = "UPDATE task_clock SET fixed_ms = :ms WHERE id = 1",
	[Q_NOW] = "SELECT now FROM db_now",
	[Q_ADD] = "INSERT INTO task (task_id, due) VALUES (:task_id, :due)",
	/* Defaults live in the schema only: NULL keeps them. */
	[Q_ADD_OPTS] = "UPDATE task SET max_attempts = COALESCE(:max_attempts, max_attempts),"
		       "  backoff_ms = COALESCE(:backoff_ms, backoff_ms),"
		       "  backoff_max_ms = COALESCE(:backoff_max_ms, backoff_max_ms)"
		       " WHERE task_id = :task_id",
	[Q_GET] = "SELECT task_id, state, due, owner, claim_id, claim_version, lease_until,"
		  "       attempt, max_attempts, cancel_requested, last_error"
		  "  FROM task WHERE task_id = :task_id",
	[Q_DUE] = "SELECT task_id FROM task"
		  " WHERE state = 'READY' AND due <= " NOW " ORDER BY due LIMIT :max",
	[Q_CLAIM] = CLAIM_SET " WHERE task.task_id = :task_id" CLAIM_COND CLAIM_RETURNING,
	/* Oldest due READY task or oldest expired lease, whichever waited
	 * longer; each branch reads one index range from its start.  The
	 * bare rowid next to MIN() is SQLite's "row of the minimum" rule:
	 * it picks between the two heads without a sort.  The pick names the
	 * row by rowid, which the index entries hold, so the UPDATE reaches
	 * it without a second search through task_id's index (about 3 % of
	 * a claim+complete's instructions, callgrind). */
	[Q_CLAIM_NEXT] = CLAIM_SET
	" WHERE task.rowid = (SELECT r FROM (SELECT r, MIN(since) FROM ("
	"   SELECT * FROM (SELECT rowid AS r, due AS since FROM task"
	"                   WHERE state = 'READY' AND due <= " NOW
	"                     AND cancel_requested = 0 AND attempt < max_attempts"
	"                   ORDER BY due LIMIT 1)"
	"   UNION ALL"
	"   SELECT * FROM (SELECT rowid AS r, lease_until AS since FROM task"
	"                   WHERE state = 'RUNNING' AND lease_until <= " NOW
	"                     AND cancel_requested = 0 AND attempt < max_attempts"
	"                   ORDER BY lease_until LIMIT 1))))" CLAIM_COND CLAIM_RETURNING,
	/* Up to :max of the tasks claim_next would pick, oldest first, each
	 * with its own claim_id: the k-th picked task gets the k-th id of the
	 * :claim_ids JSON array (made before the statement is sent).  Every
	 * row is still judged by CLAIM_COND on its own, and gets its own
	 * claim_version + 1.  RETURNING may only name the target table, so the
	 * caller maps rows back to its ids by claim_id. */
	[Q_CLAIM_BATCH] =
		"WITH cand (task_id, since) AS ("
		"   SELECT * FROM (SELECT task_id, due FROM task"
		"                   WHERE state = 'READY' AND due <= " NOW
		"                     AND cancel_requested = 0 AND attempt < max_attempts"
		"                   ORDER BY due LIMIT :max)"
		"   UNION ALL"
		"   SELECT * FROM (SELECT task_id, lease_until FROM task"
		"                   WHERE state = 'RUNNING' AND lease_until <= " NOW
		"                     AND cancel_requested = 0 AND attempt < max_attempts"
		"                   ORDER BY lease_until LIMIT :max)),"
		" picked (task_id, k) AS ("
		"   SELECT task_id, row_number() OVER (ORDER BY since, task_id) - 1 FROM cand"
		"    ORDER BY since, task_id LIMIT :max)"
		" UPDATE task"
		"   SET state = 'RUNNING', owner = :owner,"
		"       claim_id = json_extract(:claim_ids, '$[' || picked.k || ']'),"
		"       claim_version = claim_version + 1, attempt = attempt + 1,"
		"       lease_until = " NOW " + :lease_ms, claimed_at = " NOW
		"  FROM picked WHERE task.task_id = picked.task_id" CLAIM_COND
		" RETURNING task_id, claim_id, claim_version, attempt, lease_until, claimed_at",
	/* By claim_id only; owner names are not identities of a claim. */
	[Q_RECOVER] = "SELECT task_id, owner, claim_version, attempt, lease_until, claimed_at"
		      "  FROM task WHERE claim_id = :claim_id"
		      "   AND (:task_id IS NULL OR task_id = :task_id)"
		      "   AND state = 'RUNNING' AND lease_until > " NOW,
	[Q_RENEW] = "UPDATE task SET lease_until = " NOW " + :lease_ms" GUARD
		    " RETURNING lease_until, cancel_requested",
	[Q_COMPLETE] = "UPDATE task SET state = 'SUCCEEDED', lease_until = NULL,"
		       "       finished_at = " NOW GUARD,
	/* Old values on the right of SET: attempt is this attempt's number. */
	[Q_FAIL] = "UPDATE task SET"
		   "  state = CASE WHEN cancel_requested = 1 THEN 'CANCELLED'"
		   "               WHEN attempt >= max_attempts THEN 'FAILED'"
		   "               ELSE 'READY' END,"
		   "  due = CASE WHEN cancel_requested = 0 AND attempt < max_attempts"
		   "             THEN " NOW " + MIN(backoff_ms << (attempt - 1), backoff_max_ms)"
		   "             ELSE due END,"
		   "  finished_at = CASE WHEN cancel_requested = 1 OR attempt >= max_attempts"
		   "                     THEN " NOW " END,"
		   "  lease_until = NULL, last_error = :error" GUARD " RETURNING state, due",
	[Q_CHECK] = "SELECT cancel_requested FROM task" GUARD,
	/* No lease condition: a task with cancel_requested cannot be claimed
	 * by anyone else, so the version alone says it is still ours. */
	[Q_STOP_CANCELLED] =
		"UPDATE task SET state = 'CANCELLED', lease_until = NULL,"
		"       finished_at = " NOW " WHERE task.task_id = :task_id AND task.owner = :owner"
		"   AND task.claim_version = :version AND task.state = 'RUNNING'"
		"   AND task.cancel_requested = 1",
	[Q_CANCEL_READY] = "UPDATE task SET state = 'CANCELLED', finished_at = " NOW
			   " WHERE task.task_id = :task_id AND task.state = 'READY'"
			   " RETURNING attempt",
	[Q_CANCEL_RUNNING] = "UPDATE task SET cancel_requested = 1"
			     " WHERE task_id = :task_id AND state = 'RUNNING' RETURNING attempt",
	[Q_STATE] = "SELECT state, attempt FROM task WHERE task_id = :task_id",
	[Q_SWEEP] = "UPDATE task SET"
		    "  state = CASE WHEN cancel_requested = 1 THEN 'CANCELLED' ELSE 'FAILED' END,"
		    "  lease_until = NULL, finished_at = " NOW ","
		    "  last_error = COALESCE(last_error, 'lease expired, no attempt left')"
		    " WHERE task.state = 'RUNNING' AND task.lease_until <= " NOW
		    "   AND (task.cancel_requested = 1 OR task.attempt >= task.max_attempts)"
		    " RETURNING state",
	[Q_H_OLDEST_DUE] = "SELECT due FROM task WHERE state = 'READY' AND due <= :now"
			   " ORDER BY due LIMIT 1",
	[Q_H_OLDEST_EXPIRED] = "SELECT lease_until FROM task"
			       " WHERE state = 'RUNNING' AND lease_until <= :now"
			       " ORDER BY lease_until LIMIT 1",
	[Q_H_DUE_READY] = "SELECT count(*) FROM task WHERE state = 'READY' AND due <= :now",
	[Q_H_COUNTS] = "SELECT state, count(*) FROM task GROUP BY state",
	/* One counter of an interval's ring row (slot and start computed from
	 * the counted statement's instant by stat_add); the first write of a
	 * new interval resets the row it reuses.  Right of SET, bare names
	 * are the stored row (old values), excluded.* the new interval's. */
	[Q_STAT_BUMP] =
		"INSERT INTO task_claim_stat (slot, start, won, conflicts, empty, stale)"
		" VALUES (:slot, :start, :won, :conflicts, :empty, :stale)"
		" ON CONFLICT (slot) DO UPDATE SET"
		"  won = excluded.won + CASE WHEN start = excluded.start THEN won ELSE 0 END,"
		"  conflicts = excluded.conflicts"
		"              + CASE WHEN start = excluded.start THEN conflicts ELSE 0 END,"
		"  empty = excluded.empty + CASE WHEN start = excluded.start THEN empty ELSE 0 END,"
		"  stale = excluded.stale + CASE WHEN start = excluded.start THEN stale ELSE 0 END,"
		"  start = excluded.start",
	/* At most TASK_STAT_SLOTS rows: a scan is cheaper than an index. */
	[Q_STAT_SUM] = "SELECT COALESCE(SUM(won), 0), COALESCE(SUM(conflicts), 0),"
		       "       COALESCE(SUM(empty), 0), COALESCE(SUM(stale), 0)"
		       "  FROM task_claim_stat WHERE start >= :from AND start < :to",
};

/* ---- the handle ------------------------------------------------------ */

struct tasktable {
	sqlite3 *db;		/* our connection */
	struct sqlitex_txn txn; /* its BEGIN IMMEDIATE / COMMIT / ROLLBACK, kept prepared */
	long long now;		/* db time of the open transaction, once read */
	int now_read;		/* 1 when now belongs to the open transaction */
	sqlite3_stmt *st[Q__N]; /* prepared lazily, reset after each use */
	char err[256];		/* last error message */
	task_claim_hook hook;	/* lost-reply hook, or NULL */
	void *hook_arg;		/* its argument */
};

static const char *const state_names[] = {"READY", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"};

const char *tasktable_state_name(enum task_state s)
{
	return (unsigned)s < WB_ARRAY_LEN(state_names) ? state_names[s] : "?";
}

static enum task_state parse_state(const unsigned char *s)
{
	for (size_t i = 0; s && i < WB_ARRAY_LEN(state_names); i++)
		if (!strcmp((const char *)s, state_names[i]))
			return (enum task_state)i;
	return TASK_FAILED; /* the CHECK constraint makes this unreachable */
}

static int fail_with(struct tasktable *tt, int rc, const char *what)
{
	snprintf(tt->err, sizeof tt->err, "%s: %s", what,
		 rc == TASK_ELOST ? "0 rows: not the current claim"
				  : (tt->db ? sqlite3_errmsg(tt->db) : wb_strerror(rc)));
	return rc;
}

const char *tasktable_errmsg(const struct tasktable *tt)
{
	return tt ? tt->err : "";
}

sqlite3 *tasktable_db(struct tasktable *tt)
{
	return tt->db;
}

void tasktable_set_claim_hook(struct tasktable *tt, task_claim_hook hook, void *arg)
{
	tt->hook = hook;
	tt->hook_arg = arg;
}

/* Transactions: every one begins and ends here, so the instant read in
 * one (txn_now) is never used in the next. */
static int tt_begin(struct tasktable *tt)
{
	tt->now_read = 0;
	return sqlitex_txn_begin(&tt->txn);
}

/* A read transaction: one snapshot for several statements. */
static int tt_begin_read(struct tasktable *tt)
{
	tt->now_read = 0;
	return sqlitex_exec(tt->db, "BEGIN");
}

static int tt_end(struct tasktable *tt, int rc)
{
	tt->now_read = 0;
	return sqlitex_txn_end(&tt->txn, rc);
}

static sqlite3_stmt *prepared(struct tasktable *tt, enum q q)
{
	if (!tt->st[q] && sqlitex_prepare(tt->db, sql_text[q], &tt->st[q]) != 0) {
		fail_with(tt, WB_EIO, "prepare");
		return NULL;
	}
	sqlite3_reset(tt->st[q]);
	sqlite3_clear_bindings(tt->st[q]);
	return tt->st[q];
}

/* db_now, read by its own statement.  0 or WB_E*. */
static int read_now(struct tasktable *tt, long long *now)
{
	sqlite3_stmt *st = prepared(tt, Q_NOW);
	if (!st)
		return WB_EIO;
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW)
		*now = sqlite3_column_int64(st, 0);
	int rc = s == SQLITE_ROW ? 0
				 : fail_with(tt, s == SQLITE_DONE ? WB_EIO : sqlitex_err(s), "now");
	sqlite3_reset(st);
	return rc;
}

/* The instant every statement of the open transaction uses: db_now read
 * once, at the transaction's first statement that needs it, under the
 * transaction's lock (so a lab's fixed clock cannot change in between),
 * and kept until tt_end.  Outside a transaction it is read afresh for
 * each statement.  0 or WB_E*. */
static int txn_now(struct tasktable *tt, long long *now)
{
	if (tt->now_read && !sqlite3_get_autocommit(tt->db)) {
		*now = tt->now;
		return 0;
	}
	int rc = read_now(tt, now);
	if (rc == 0 && !sqlite3_get_autocommit(tt->db)) {
		tt->now = *now;
		tt->now_read = 1;
	}
	return rc;
}

/* The prepared statement for q, reset, unbound but for :now (the
 * transaction's instant, when q uses it); NULL with tt->err set. */
static sqlite3_stmt *stmt(struct tasktable *tt, enum q q)
{
	sqlite3_stmt *st = prepared(tt, q);
	int i = st ? sqlite3_bind_parameter_index(st, ":now") : 0;
	if (i > 0) {
		long long now = 0;
		if (txn_now(tt, &now) != 0)
			return NULL;
		sqlite3_bind_int64(st, i, now);
	}
	return st;
}

static void bind_text(sqlite3_stmt *st, const char *name, const char *v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (i > 0) {
		if (v)
			sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, i);
	}
}

static void bind_int(sqlite3_stmt *st, const char *name, long long v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (i > 0)
		sqlite3_bind_int64(st, i, v);
}

/* Binds v, or NULL when v is 0 (an unset option). */
static void bind_opt(sqlite3_stmt *st, const char *name, long long v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (i > 0) {
		if (v)
			sqlite3_bind_int64(st, i, v);
		else
			sqlite3_bind_null(st, i);
	}
}

static void copy_col(char *dst, size_t n, sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	snprintf(dst, n, "%s", s ? (const char *)s : "");
}

static int valid_name(const char *s)
{
	return s && *s && strlen(s) < TASK_ID_MAX;
}

/* Finishes a statement whose first sqlite3_step gave s: returns 0 when it
 * completed (after at most one RETURNING row, already read by the
 * caller), else the mapped error. */
static int finish(struct tasktable *tt, sqlite3_stmt *st, int s, const char *what)
{
	if (s == SQLITE_ROW)
		s = sqlite3_step(st);
	if (s == SQLITE_ROW)
		return fail_with(tt, WB_ECORRUPT, what); /* a second row */
	if (s != SQLITE_DONE)
		return fail_with(tt, sqlitex_err(s), what);
	return 0;
}

/* ---- open and close -------------------------------------------------- */

static int apply_schema(struct tasktable *tt, const char *schema_path, char *errbuf, size_t errlen)
{
	long long version = 0;
	char *sql = NULL;
	int rc = sqlitex_int(tt->db, "PRAGMA user_version", &version);
	if (rc == 0 && version == TASKTABLE_SCHEMA_VERSION)
		goto out;
	/* Re-read under the write lock: another process may be applying it. */
	rc = tt_begin(tt);
	if (rc == 0)
		rc = sqlitex_int(tt->db, "PRAGMA user_version", &version);
	if (rc == 0 && version > TASKTABLE_SCHEMA_VERSION) {
		snprintf(errbuf, errlen, "task database has schema %lld; this build knows %d",
			 version, TASKTABLE_SCHEMA_VERSION);
		rc = WB_ENEWER;
	} else if (rc == 0 && version == 0 && !schema_path) {
		/* The caller said the table exists (a worker of a run). */
		snprintf(errbuf, errlen,
			 "task database has no schema and no schema file was given");
		rc = WB_ENOENT;
	} else if (rc == 0 && version == 0) {
		size_t len;
		rc = wb_read_file(schema_path, &sql, &len);
		if (rc)
			snprintf(errbuf, errlen, "%s: cannot read the task schema", schema_path);
		else
			rc = sqlitex_exec_script(tt->db, sql, schema_path, errbuf, errlen);
	} else if (rc == 0 && version > 0 && version < TASKTABLE_SCHEMA_VERSION) {
		/* Task databases are per-run scratch files: nothing to migrate. */
		snprintf(errbuf, errlen,
			 "task database has schema %lld from an older build (this one needs %d); "
			 "remove it and start again",
			 version, TASKTABLE_SCHEMA_VERSION);
		rc = WB_EINVAL;
	} else if (rc == 0 && version != TASKTABLE_SCHEMA_VERSION) {
		snprintf(errbuf, errlen, "task database has unknown schema %lld", version);
		rc = WB_ECORRUPT;
	} else if (rc) {
		snprintf(errbuf, errlen, "schema: %s", sqlite3_errmsg(tt->db));
	}
	rc = tt_end(tt, rc);
out:
	free(sql);
	return rc;
}

int tasktable_open(const char *db_path, const char *schema_path, const struct sqlitex_opts *opts,
		   struct tasktable **out, char *errbuf, size_t errlen)
{
	char dummy[8];
	if (!errbuf || !errlen) {
		errbuf = dummy;
		errlen = sizeof dummy;
	}
	*errbuf = '\0';
	*out = NULL;
	struct tasktable *tt = wb_xcalloc(1, sizeof *tt);
	int rc = sqlitex_open(db_path, opts, &tt->db, errbuf, errlen);
	sqlitex_txn_init(&tt->txn, tt->db);
	if (rc == 0)
		rc = apply_schema(tt, schema_path, errbuf, errlen);
	if (rc) {
		tasktable_close(tt);
		return rc;
	}
	*out = tt;
	return 0;
}

void tasktable_close(struct tasktable *tt)
{
	if (!tt)
		return;
	for (int i = 0; i < Q__N; i++)
		sqlite3_finalize(tt->st[i]);
	sqlitex_txn_free(&tt->txn);
	sqlite3_close_v2(tt->db);
	free(tt);
}

/* ---- clock and rows -------------------------------------------------- */

static int clock_write(struct tasktable *tt, const long long *ms)
{
	sqlite3_stmt *st = stmt(tt, Q_CLOCK_SET);
	if (!st)
		return WB_EIO;
	if (ms)
		bind_int(st, ":ms", *ms);
	int rc = tt_begin(tt);
	if (rc == 0)
		rc = finish(tt, st, sqlite3_step(st), "clock");
	sqlite3_reset(st);
	return tt_end(tt, rc);
}

int tasktable_clock_set(struct tasktable *tt, long long ms)
{
	return clock_write(tt, &ms);
}

int tasktable_clock_real(struct tasktable *tt)
{
	return clock_write(tt, NULL);
}

int tasktable_now(struct tasktable *tt, long long *now)
{
	return txn_now(tt, now);
}

int tasktable_add(struct tasktable *tt, const char *task_id, long long due,
		  const struct task_opts *opts)
{
	if (!valid_name(task_id))
		return fail_with(tt, WB_EINVAL, "add: task_id must be 1..63 bytes");
	int rc = tt_begin(tt);
	if (rc)
		return fail_with(tt, rc, "add");
	sqlite3_stmt *st = stmt(tt, Q_ADD);
	if (!st) {
		rc = WB_EIO;
		goto out;
	}
	bind_text(st, ":task_id", task_id);
	bind_int(st, ":due", due);
	rc = finish(tt, st, sqlite3_step(st), "add");
	sqlite3_reset(st);
	if (rc == 0 && opts) {
		st = stmt(tt, Q_ADD_OPTS);
		if (!st) {
			rc = WB_EIO;
			goto out;
		}
		bind_text(st, ":task_id", task_id);
		bind_opt(st, ":max_attempts", opts->max_attempts);
		bind_opt(st, ":backoff_ms", opts->backoff_ms);
		bind_opt(st, ":backoff_max_ms", opts->backoff_max_ms);
		rc = finish(tt, st, sqlite3_step(st), "add options");
		sqlite3_reset(st);
	}
out:
	return tt_end(tt, rc);
}

int tasktable_get(struct tasktable *tt, const char *task_id, struct task_row *out)
{
	sqlite3_stmt *st = stmt(tt, Q_GET);
	if (!st)
		return WB_EIO;
	memset(out, 0, sizeof *out);
	bind_text(st, ":task_id", task_id);
	int s = sqlite3_step(st);
	int rc;
	if (s == SQLITE_ROW) {
		copy_col(out->task_id, sizeof out->task_id, st, 0);
		out->state = parse_state(sqlite3_column_text(st, 1));
		out->due = sqlite3_column_int64(st, 2);
		copy_col(out->owner, sizeof out->owner, st, 3);
		copy_col(out->claim_id, sizeof out->claim_id, st, 4);
		out->claim_version = sqlite3_column_int64(st, 5);
		out->lease_until = sqlite3_column_type(st, 6) == SQLITE_NULL
					   ? -1
					   : sqlite3_column_int64(st, 6);
		out->attempt = sqlite3_column_int64(st, 7);
		out->max_attempts = sqlite3_column_int64(st, 8);
		out->cancel_requested = sqlite3_column_int(st, 9);
		copy_col(out->last_error, sizeof out->last_error, st, 10);
		rc = finish(tt, st, s, "get");
	} else {
		rc = s == SQLITE_DONE ? WB_ENOENT : fail_with(tt, sqlitex_err(s), "get");
	}
	sqlite3_reset(st);
	return rc;
}

int tasktable_due(struct tasktable *tt, char (*ids)[TASK_ID_MAX], int max, int *n)
{
	*n = 0;
	sqlite3_stmt *st = stmt(tt, Q_DUE);
	if (!st)
		return WB_EIO;
	bind_int(st, ":max", max);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW && *n < max)
		copy_col(ids[(*n)++], TASK_ID_MAX, st, 0);
	int rc = s == SQLITE_DONE || s == SQLITE_ROW ? 0 : fail_with(tt, sqlitex_err(s), "due");
	sqlite3_reset(st);
	return rc;
}

/* ---- the conflict monitor's counters --------------------------------- */

enum stat { STAT_WON, STAT_CONFLICT, STAT_EMPTY, STAT_STALE };

/* Adds the counts to the counters of the transaction's interval (its
 * instant, txn_now: the counted statement's own); stat_bump adds 1 to
 * counter k.  Call only inside the write transaction of the statement
 * being counted.  0 or WB_E*. */
static int stat_add(struct tasktable *tt, long long won, long long conflicts, long long empty,
		    long long stale)
{
	long long now = 0;
	int rc = txn_now(tt, &now);
	sqlite3_stmt *st = rc == 0 ? stmt(tt, Q_STAT_BUMP) : NULL;
	if (!st)
		return rc ? rc : WB_EIO;
	/* C's / and % truncate toward zero as SQLite's integer ones do, so a
	 * slot is the one the same arithmetic in SQL would pick. */
	long long iv = now / TASK_STAT_INTERVAL_MS;
	bind_int(st, ":slot", iv % TASK_STAT_SLOTS);
	bind_int(st, ":start", iv * TASK_STAT_INTERVAL_MS);
	bind_int(st, ":won", won);
	bind_int(st, ":conflicts", conflicts);
	bind_int(st, ":empty", empty);
	bind_int(st, ":stale", stale);
	rc = finish(tt, st, sqlite3_step(st), "claim statistics");
	sqlite3_reset(st);
	return rc;
}

static int stat_bump(struct tasktable *tt, enum stat k)
{
	return stat_add(tt, k == STAT_WON, k == STAT_CONFLICT, k == STAT_EMPTY, k == STAT_STALE);
}

int tasktable_claim_stats(struct tasktable *tt, int intervals, struct task_claim_stats *out)
{
	memset(out, 0, sizeof *out);
	if (intervals < 1 || intervals > TASK_STAT_SLOTS)
		return fail_with(tt, WB_EINVAL, "claim statistics: intervals out of range");
	int rc = tt_begin_read(tt); /* now and the sums in one snapshot */
	if (rc)
		return fail_with(tt, rc, "claim statistics");
	rc = tasktable_now(tt, &out->now);
	sqlite3_stmt *st = rc == 0 ? stmt(tt, Q_STAT_SUM) : NULL;
	if (rc == 0 && !st)
		rc = WB_EIO;
	if (st) {
		long long cur = out->now / TASK_STAT_INTERVAL_MS * TASK_STAT_INTERVAL_MS;
		out->from = cur - (long long)(intervals - 1) * TASK_STAT_INTERVAL_MS;
		out->to = cur + TASK_STAT_INTERVAL_MS;
		bind_int(st, ":from", out->from);
		bind_int(st, ":to", out->to);
		int s = sqlite3_step(st);
		if (s == SQLITE_ROW) {
			out->won = sqlite3_column_int64(st, 0);
			out->conflicts = sqlite3_column_int64(st, 1);
			out->empty = sqlite3_column_int64(st, 2);
			out->stale = sqlite3_column_int64(st, 3);
		}
		rc = s == SQLITE_ROW ? finish(tt, st, s, "claim statistics")
				     : fail_with(tt, s == SQLITE_DONE ? WB_EIO : sqlitex_err(s),
						 "claim statistics");
		sqlite3_reset(st);
	}
	return tt_end(tt, rc);
}

int tasktable_conflict_alarm(const struct task_claim_stats *s,
			     const struct task_conflict_rule *rule)
{
	long long decided = s->won + s->conflicts; /* empty polls left out */
	/* conflicts / decided > pct / 100, in integers: no rounding at the edge. */
	return s->conflicts >= rule->min_conflicts && s->conflicts > 0 &&
	       s->conflicts * 100 > (long long)rule->max_ratio_pct * decided;
}

/* ---- claim ----------------------------------------------------------- */

/* 32 hex digits from the kernel's CSPRNG: unique per request without any
 * coordination, which is all a claim_id must be. */
static int new_claim_id(char out[TASK_CLAIM_ID_LEN])
{
	unsigned char b[16];
	size_t got = 0;
	while (got < sizeof b) {
		ssize_t n = getrandom(b + got, sizeof b - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return WB_EIO;
		got += (size_t)n;
	}
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < sizeof b; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[2 * sizeof b] = '\0';
	return 0;
}

static int claim(struct tasktable *tt, enum q q, const char *task_id, const char *owner,
		 long long lease_ms, struct task_claim *out)
{
	memset(out, 0, sizeof *out);
	out->outcome = TASK_OUTCOME_LOST;
	if ((q == Q_CLAIM && !valid_name(task_id)) || !valid_name(owner) || lease_ms <= 0)
		return fail_with(tt, WB_EINVAL, "claim: bad task_id, owner or lease");
	if (task_id)
		snprintf(out->task_id, sizeof out->task_id, "%s", task_id);
	snprintf(out->owner, sizeof out->owner, "%s", owner);
	/* The id exists before the request does: whatever happens to the
	 * reply, the claimer can ask about this exact claim. */
	if (new_claim_id(out->claim_id) != 0)
		return fail_with(tt, WB_EIO, "claim: no randomness for a claim_id");

	int rc = tt_begin(tt);
	if (rc)
		return fail_with(tt, rc, "claim: begin");
	sqlite3_stmt *st = stmt(tt, q); /* after BEGIN: it binds the transaction's now */
	if (!st)
		return tt_end(tt, WB_EIO);   /* rolled back: nothing applied */
	out->outcome = TASK_OUTCOME_UNKNOWN; /* from here on it may apply */
	bind_text(st, ":owner", owner);
	bind_text(st, ":claim_id", out->claim_id);
	bind_int(st, ":lease_ms", lease_ms);
	if (task_id)
		bind_text(st, ":task_id", task_id);
	int s = sqlite3_step(st);
	int got = s == SQLITE_ROW;
	if (got) {
		copy_col(out->task_id, sizeof out->task_id, st, 0);
		out->version = sqlite3_column_int64(st, 1);
		out->attempt = sqlite3_column_int64(st, 2);
		out->lease_until = sqlite3_column_int64(st, 3);
		out->claimed_at = sqlite3_column_int64(st, 4);
	}
	rc = finish(tt, st, s, "claim");
	int changes = sqlite3_changes(tt->db);
	sqlite3_reset(st);
	if (rc == 0 && got != (changes == 1))
		rc = fail_with(tt, WB_ECORRUPT, "claim: RETURNING and changes() disagree");
	/* Counted in the claim's own transaction: both commit or neither. */
	if (rc == 0)
		rc = stat_bump(tt, got ? STAT_WON : q == Q_CLAIM ? STAT_CONFLICT : STAT_EMPTY);
	int committed = tt_end(tt, rc);
	if (rc) {
		out->outcome = TASK_OUTCOME_LOST; /* rolled back, nothing applied */
		return rc;
	}
	if (committed)
		return fail_with(tt, committed, "claim: commit"); /* outcome UNKNOWN */
	if (!got) {
		out->outcome = TASK_OUTCOME_LOST;
		if (q == Q_CLAIM_NEXT)
			out->task_id[0] = '\0';
		return fail_with(tt, TASK_ELOST, "claim");
	}
	out->outcome = TASK_OUTCOME_WON;
	if (tt->hook && tt->hook(tt->hook_arg, out)) {
		/* The reply is lost: the caller keeps only what it sent. */
		out->outcome = TASK_OUTCOME_UNKNOWN;
		out->version = out->attempt = out->lease_until = out->claimed_at = 0;
		if (q == Q_CLAIM_NEXT)
			out->task_id[0] = '\0';
		snprintf(tt->err, sizeof tt->err, "claim: reply lost after COMMIT");
		return WB_EIO;
	}
	return 0;
}

int tasktable_claim(struct tasktable *tt, const char *task_id, const char *owner,
		    long long lease_ms, struct task_claim *out)
{
	return claim(tt, Q_CLAIM, task_id, owner, lease_ms, out);
}

int tasktable_claim_next(struct tasktable *tt, const char *owner, long long lease_ms,
			 struct task_claim *out)
{
	return claim(tt, Q_CLAIM_NEXT, NULL, owner, lease_ms, out);
}

/* Gives out[0..max) their owner and fresh claim_ids and writes the ids as
 * a JSON array into *json (caller frees).  0 or WB_EIO. */
static int batch_ids(struct task_claim *out, int max, const char *owner, char **json)
{
	struct wb_buf b = {0};
	wb_buf_printf(&b, "[");
	for (int i = 0; i < max; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].outcome = TASK_OUTCOME_LOST;
		snprintf(out[i].owner, sizeof out[i].owner, "%s", owner);
		if (new_claim_id(out[i].claim_id) != 0) {
			wb_buf_free(&b);
			return WB_EIO;
		}
		wb_buf_printf(&b, "%s\"%s\"", i ? "," : "", out[i].claim_id);
	}
	wb_buf_printf(&b, "]");
	*json = wb_buf_steal(&b);
	return 0;
}

/* Steps the batch claim and fills the won entries of out (found by
 * claim_id), marking them in won[].  *got: rows returned.  0 or WB_E*. */
static int batch_step(struct tasktable *tt, sqlite3_stmt *st, struct task_claim *out, int max,
		      unsigned char *won, int *got)
{
	int s, rc = 0;
	*got = 0;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *cid = (const char *)sqlite3_column_text(st, 1);
		int k = 0;
		while (k < max && (!cid || strcmp(out[k].claim_id, cid) != 0))
			k++;
		if (k == max || won[k])
			return fail_with(tt, WB_ECORRUPT,
					 "claim batch: a row with an unknown claim_id");
		won[k] = 1;
		copy_col(out[k].task_id, sizeof out[k].task_id, st, 0);
		out[k].version = sqlite3_column_int64(st, 2);
		out[k].attempt = sqlite3_column_int64(st, 3);
		out[k].lease_until = sqlite3_column_int64(st, 4);
		out[k].claimed_at = sqlite3_column_int64(st, 5);
		(*got)++;
	}
	if (s != SQLITE_DONE)
		rc = fail_with(tt, sqlitex_err(s), "claim batch");
	if (rc == 0 && sqlite3_changes(tt->db) != *got)
		rc = fail_with(tt, WB_ECORRUPT, "claim batch: RETURNING and changes() disagree");
	return rc;
}

/* Moves the won claims to the front, in the order the tasks waited (their
 * ids' order), and marks the rest LOST. */
static void batch_compact(struct task_claim *out, int max, const unsigned char *won,
			  enum task_outcome how)
{
	int j = 0;
	for (int k = 0; k < max; k++) {
		if (!won[k])
			continue;
		if (j != k) {
			struct task_claim t = out[j];
			out[j] = out[k];
			out[k] = t;
		}
		out[j++].outcome = how;
	}
	for (; j < max; j++) {
		out[j].outcome = TASK_OUTCOME_LOST;
		out[j].task_id[0] = '\0';
	}
}

int tasktable_claim_batch(struct tasktable *tt, const char *owner, long long lease_ms, int max,
			  struct task_claim *out, int *n)
{
	unsigned char won[TASK_BATCH_MAX] = {0};
	char *ids = NULL;
	int got = 0, rc;
	*n = 0;
	if (max < 1 || max > TASK_BATCH_MAX || !valid_name(owner) || lease_ms <= 0)
		return fail_with(tt, WB_EINVAL, "claim batch: bad size, owner or lease");
	/* The ids exist before the request does (see claim()). */
	if (batch_ids(out, max, owner, &ids) != 0)
		return fail_with(tt, WB_EIO, "claim batch: no randomness for a claim_id");
	rc = tt_begin(tt);
	if (rc) {
		free(ids);
		return fail_with(tt, rc, "claim batch: begin");
	}
	sqlite3_stmt *st = stmt(tt, Q_CLAIM_BATCH); /* after BEGIN: the transaction's now */
	if (!st) {
		free(ids);
		return tt_end(tt, WB_EIO); /* rolled back: nothing applied */
	}
	for (int i = 0; i < max; i++)
		out[i].outcome = TASK_OUTCOME_UNKNOWN; /* from here on it may apply */
	bind_text(st, ":owner", owner);
	bind_text(st, ":claim_ids", ids);
	bind_int(st, ":lease_ms", lease_ms);
	bind_int(st, ":max", max);
	rc = batch_step(tt, st, out, max, won, &got);
	sqlite3_reset(st);
	free(ids);
	if (rc == 0) /* counted in the claim's own transaction */
		rc = got ? stat_add(tt, got, 0, 0, 0) : stat_bump(tt, STAT_EMPTY);
	int committed = tt_end(tt, rc);
	if (rc) {
		memset(won, 0, sizeof won);
		batch_compact(out, max, won, TASK_OUTCOME_LOST); /* rolled back */
		return rc;
	}
	if (committed)
		return fail_with(tt, committed, "claim batch: commit"); /* all UNKNOWN */
	batch_compact(out, max, won, TASK_OUTCOME_WON);
	if (got == 0)
		return fail_with(tt, TASK_ELOST, "claim batch");
	if (tt->hook && tt->hook(tt->hook_arg, &out[0])) {
		/* The reply is lost: the caller keeps only what it sent. */
		for (int i = 0; i < max; i++) {
			out[i].outcome = TASK_OUTCOME_UNKNOWN;
			out[i].version = out[i].attempt = out[i].lease_until = out[i].claimed_at =
				0;
			out[i].task_id[0] = '\0';
		}
		snprintf(tt->err, sizeof tt->err, "claim batch: reply lost after COMMIT");
		return WB_EIO;
	}
	*n = got;
	return 0;
}

int tasktable_recover_by_claim_id(struct tasktable *tt, const char *task_id, const char *claim_id,
				  struct task_claim *out)
{
	memset(out, 0, sizeof *out);
	if (!claim_id || strlen(claim_id) != TASK_CLAIM_ID_LEN - 1)
		return fail_with(tt, WB_EINVAL, "recover: bad claim_id");
	snprintf(out->claim_id, sizeof out->claim_id, "%s", claim_id);
	out->outcome = TASK_OUTCOME_LOST;
	sqlite3_stmt *st = stmt(tt, Q_RECOVER);
	if (!st)
		return WB_EIO;
	bind_text(st, ":claim_id", claim_id);
	bind_text(st, ":task_id", task_id);
	int s = sqlite3_step(st);
	int got = s == SQLITE_ROW;
	if (got) {
		copy_col(out->task_id, sizeof out->task_id, st, 0);
		copy_col(out->owner, sizeof out->owner, st, 1);
		out->version = sqlite3_column_int64(st, 2);
		out->attempt = sqlite3_column_int64(st, 3);
		out->lease_until = sqlite3_column_int64(st, 4);
		out->claimed_at = sqlite3_column_int64(st, 5);
	}
	int rc = finish(tt, st, s, "recover");
	sqlite3_reset(st);
	if (rc)
		return rc;
	if (!got)
		return fail_with(tt, TASK_ELOST, "recover");
	out->outcome = TASK_OUTCOME_WON;
	return 0;
}

/* ---- the holder's calls ---------------------------------------------- */

/* Runs a GUARDed statement q for claim c inside the caller's write
 * transaction.  cols receives the RETURNING row's first ncols integers
 * (text columns are returned through state); statements without RETURNING
 * are judged by sqlite3_changes() alone, which goes to *changes.  0 or
 * WB_E* (0 rows is 0 with *changes 0). */
static int guarded_step(struct tasktable *tt, enum q q, const struct task_claim *c,
			long long lease_ms, const char *error, long long *cols, int ncols,
			enum task_state *state, const char *what, int *changes)
{
	*changes = 0;
	sqlite3_stmt *st = stmt(tt, q);
	if (!st)
		return WB_EIO;
	bind_text(st, ":task_id", c->task_id);
	bind_text(st, ":owner", c->owner);
	bind_int(st, ":version", c->version);
	bind_int(st, ":lease_ms", lease_ms);
	bind_text(st, ":error", error);
	int s = sqlite3_step(st);
	int got = s == SQLITE_ROW;
	if (got) {
		for (int i = 0; i < ncols; i++)
			cols[i] = sqlite3_column_int64(st, i);
		if (state)
			*state = parse_state(sqlite3_column_text(st, 0));
	}
	int rc = finish(tt, st, s, what);
	*changes = sqlite3_changes(tt->db);
	sqlite3_reset(st);
	if (rc == 0 && (*changes > 1 || (got && *changes != 1)))
		rc = fail_with(tt, WB_ECORRUPT, "RETURNING and changes() disagree");
	return rc;
}

static int claim_ok(const struct task_claim *c)
{
	return valid_name(c->task_id) && valid_name(c->owner) && c->version > 0;
}

/* Runs a GUARDed statement q for claim c in its own write transaction
 * (guarded_step).  0, TASK_ELOST or WB_E*. */
static int guarded(struct tasktable *tt, enum q q, const struct task_claim *c, long long lease_ms,
		   const char *error, long long *cols, int ncols, enum task_state *state,
		   const char *what)
{
	if (!claim_ok(c))
		return fail_with(tt, WB_EINVAL, what);
	int rc = tt_begin(tt);
	if (rc)
		return fail_with(tt, rc, what);
	int changes = 0;
	rc = guarded_step(tt, q, c, lease_ms, error, cols, ncols, state, what, &changes);
	if (rc == 0 && changes == 0)
		rc = stat_bump(tt, STAT_STALE);
	rc = tt_end(tt, rc);
	if (rc)
		return rc;
	return changes == 1 ? 0 : fail_with(tt, TASK_ELOST, what);
}

int tasktable_complete_batch(struct tasktable *tt, const struct task_claim *c, int n, int *results)
{
	if (n < 1 || n > TASK_BATCH_MAX)
		return fail_with(tt, WB_EINVAL, "complete batch: 1..TASK_BATCH_MAX claims");
	for (int i = 0; i < n; i++)
		if (!claim_ok(&c[i]))
			return fail_with(tt, WB_EINVAL, "complete batch");
	int rc = tt_begin(tt);
	if (rc)
		return fail_with(tt, rc, "complete batch");
	int stale = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		int changes = 0;
		rc = guarded_step(tt, Q_COMPLETE, &c[i], 0, NULL, NULL, 0, NULL, "complete batch",
				  &changes);
		stale += changes == 0;
		if (results)
			results[i] = changes == 1 ? 0 : TASK_ELOST;
	}
	if (rc == 0 && stale)
		rc = stat_add(tt, 0, 0, 0, stale);
	rc = tt_end(tt, rc);
	for (int i = 0; rc && results && i < n; i++)
		results[i] = rc; /* rolled back: none completed */
	if (rc)
		return rc;
	if (stale) {
		snprintf(tt->err, sizeof tt->err,
			 "complete batch: %d of %d claims changed 0 rows: not current", stale, n);
		return TASK_ELOST;
	}
	return 0;
}

int tasktable_renew(struct tasktable *tt, const struct task_claim *c, long long lease_ms,
		    long long *lease_until, int *cancel_requested)
{
	if (lease_ms <= 0)
		return fail_with(tt, WB_EINVAL, "renew: lease must be positive");
	long long cols[2] = {0, 0};
	int rc = guarded(tt, Q_RENEW, c, lease_ms, NULL, cols, 2, NULL, "renew");
	if (rc == 0 && lease_until)
		*lease_until = cols[0];
	if (rc == 0 && cancel_requested)
		*cancel_requested = (int)cols[1];
	return rc;
}

int tasktable_complete(struct tasktable *tt, const struct task_claim *c)
{
	return guarded(tt, Q_COMPLETE, c, 0, NULL, NULL, 0, NULL, "complete");
}

int tasktable_fail(struct tasktable *tt, const struct task_claim *c, const char *error,
		   enum task_state *state, long long *next_due)
{
	long long cols[2] = {0, 0};
	enum task_state s = TASK_READY;
	int rc = guarded(tt, Q_FAIL, c, 0, error, cols, 2, &s, "fail");
	if (rc == 0 && state)
		*state = s;
	if (rc == 0 && next_due)
		*next_due = cols[1];
	return rc;
}

int tasktable_stop_cancelled(struct tasktable *tt, const struct task_claim *c)
{
	return guarded(tt, Q_STOP_CANCELLED, c, 0, NULL, NULL, 0, NULL, "stop (cancelled)");
}

int tasktable_check(struct tasktable *tt, const struct task_claim *c, int *requested)
{
	*requested = 0;
	if (!valid_name(c->task_id) || !valid_name(c->owner) || c->version <= 0)
		return fail_with(tt, WB_EINVAL, "check");
	sqlite3_stmt *st = stmt(tt, Q_CHECK);
	if (!st)
		return WB_EIO;
	bind_text(st, ":task_id", c->task_id);
	bind_text(st, ":owner", c->owner);
	bind_int(st, ":version", c->version);
	int s = sqlite3_step(st);
	int got = s == SQLITE_ROW;
	if (got)
		*requested = sqlite3_column_int(st, 0);
	int rc = finish(tt, st, s, "check");
	sqlite3_reset(st);
	if (rc)
		return rc;
	return got ? 0 : fail_with(tt, TASK_ELOST, "check");
}

const char *tasktable_sql(const char *statement)
{
	static const struct {
		const char *name;
		enum q q;
	} names[] = {{"claim", Q_CLAIM},
		     {"claim_next", Q_CLAIM_NEXT},
		     {"claim_batch", Q_CLAIM_BATCH},
		     {"complete", Q_COMPLETE},
		     {"due", Q_DUE},
		     {"oldest_due", Q_H_OLDEST_DUE}};
	for (size_t i = 0; statement && i < WB_ARRAY_LEN(names); i++)
		if (!strcmp(statement, names[i].name))
			return sql_text[names[i].q];
	return NULL;
}

int tasktable_explain(struct tasktable *tt, const char *statement, char **plan)
{
	*plan = NULL;
	const char *sql = tasktable_sql(statement);
	if (!sql)
		return fail_with(tt, WB_EINVAL, "explain: unknown statement");
	char *text = wb_xasprintf("EXPLAIN QUERY PLAN %s", sql);
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(tt->db, text, &st);
	free(text);
	if (rc)
		return fail_with(tt, rc, "explain");
	/* Rows are (id, parent, notused, detail); depth follows parent ids. */
	struct wb_buf out = {0};
	int ids[64], depth[64], n = 0, s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		int id = sqlite3_column_int(st, 0), parent = sqlite3_column_int(st, 1), d = 0;
		for (int i = 0; i < n; i++)
			if (ids[i] == parent)
				d = depth[i] + 1;
		if (n < 64) {
			ids[n] = id;
			depth[n++] = d;
		}
		wb_buf_printf(&out, "%*s%s\n", 2 * d, "", (const char *)sqlite3_column_text(st, 3));
	}
	rc = s == SQLITE_DONE ? 0 : fail_with(tt, sqlitex_err(s), "explain");
	sqlite3_finalize(st);
	if (rc) {
		wb_buf_free(&out);
		return rc;
	}
	*plan = wb_buf_steal(&out);
	return 0;
}

/* ---- cancel, sweep, health ------------------------------------------- */

/* Steps q bound to task_id; *got and the first integer column. */
static int step_task(struct tasktable *tt, enum q q, const char *task_id, int *got, long long *col0,
		     enum task_state *state, const char *what)
{
	sqlite3_stmt *st = stmt(tt, q);
	if (!st)
		return WB_EIO;
	bind_text(st, ":task_id", task_id);
	int s = sqlite3_step(st);
	*got = s == SQLITE_ROW;
	if (*got && state) {
		*state = parse_state(sqlite3_column_text(st, 0));
		*col0 = sqlite3_column_int64(st, 1);
	} else if (*got) {
		*col0 = sqlite3_column_int64(st, 0);
	}
	int rc = finish(tt, st, s, what);
	sqlite3_reset(st);
	return rc;
}

int tasktable_cancel(struct tasktable *tt, const char *task_id, struct task_cancel *out)
{
	memset(out, 0, sizeof *out);
	if (!valid_name(task_id))
		return fail_with(tt, WB_EINVAL, "cancel: bad task_id");
	int rc = tt_begin(tt);
	if (rc)
		return fail_with(tt, rc, "cancel");
	int got = 0;
	long long attempt = 0;
	/* The same row a claim would change: whichever commits first wins. */
	rc = step_task(tt, Q_CANCEL_READY, task_id, &got, &attempt, NULL, "cancel");
	if (rc == 0 && got) {
		out->result = TASK_CANCEL_DONE;
		out->state = TASK_CANCELLED;
		out->attempt = attempt;
		/* A READY task with earlier attempts may have had effects. */
		out->never_ran = attempt == 0;
		goto out;
	}
	if (rc == 0)
		rc = step_task(tt, Q_CANCEL_RUNNING, task_id, &got, &attempt, NULL, "cancel");
	if (rc == 0 && got) {
		out->result = TASK_CANCEL_REQUESTED;
		out->state = TASK_RUNNING;
		out->attempt = attempt;
		goto out;
	}
	enum task_state state = TASK_READY;
	if (rc == 0)
		rc = step_task(tt, Q_STATE, task_id, &got, &attempt, &state, "cancel");
	if (rc == 0 && !got)
		rc = fail_with(tt, WB_ENOENT, "cancel: no such task");
	if (rc == 0) {
		out->result = TASK_CANCEL_TOO_LATE;
		out->state = state;
		out->attempt = attempt;
	}
out:
	return tt_end(tt, rc);
}

int tasktable_sweep(struct tasktable *tt, int *cancelled, int *failed)
{
	int nc = 0, nf = 0;
	int rc = tt_begin(tt);
	if (rc)
		return fail_with(tt, rc, "sweep");
	sqlite3_stmt *st = stmt(tt, Q_SWEEP); /* after BEGIN: the transaction's now */
	if (!st)
		return tt_end(tt, WB_EIO);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		if (parse_state(sqlite3_column_text(st, 0)) == TASK_CANCELLED)
			nc++;
		else
			nf++;
	}
	if (s != SQLITE_DONE)
		rc = fail_with(tt, sqlitex_err(s), "sweep");
	sqlite3_reset(st);
	rc = tt_end(tt, rc);
	if (rc == 0 && cancelled)
		*cancelled = nc;
	if (rc == 0 && failed)
		*failed = nf;
	return rc;
}

/* One integer from q (stmt binds the read transaction's now); *v
 * unchanged when there is no row. */
static int health_int(struct tasktable *tt, enum q q, long long *v, int *got)
{
	sqlite3_stmt *st = stmt(tt, q);
	if (!st)
		return WB_EIO;
	int s = sqlite3_step(st);
	*got = s == SQLITE_ROW;
	if (*got)
		*v = sqlite3_column_int64(st, 0);
	int rc = finish(tt, st, s, "health");
	sqlite3_reset(st);
	return rc;
}

int tasktable_health(struct tasktable *tt, struct task_health *out)
{
	memset(out, 0, sizeof *out);
	int rc = tt_begin_read(tt); /* one snapshot for every figure */
	if (rc)
		return fail_with(tt, rc, "health");
	rc = tasktable_now(tt, &out->now);
	long long v = 0;
	int got = 0;
	if (rc == 0)
		rc = health_int(tt, Q_H_OLDEST_DUE, &v, &got);
	if (rc == 0 && got)
		out->oldest_due_age = out->now - v;
	if (rc == 0)
		rc = health_int(tt, Q_H_OLDEST_EXPIRED, &v, &got);
	if (rc == 0 && got)
		out->oldest_expired_age = out->now - v;
	if (rc == 0)
		rc = health_int(tt, Q_H_DUE_READY, &out->due_ready, &got);
	sqlite3_stmt *st = rc == 0 ? stmt(tt, Q_H_COUNTS) : NULL;
	if (rc == 0 && !st)
		rc = WB_EIO;
	if (st) {
		int s;
		while ((s = sqlite3_step(st)) == SQLITE_ROW) {
			long long n = sqlite3_column_int64(st, 1);
			switch (parse_state(sqlite3_column_text(st, 0))) {
			case TASK_READY: out->ready = n; break;
			case TASK_RUNNING: out->running = n; break;
			case TASK_SUCCEEDED: out->succeeded = n; break;
			case TASK_FAILED: out->failed = n; break;
			case TASK_CANCELLED: out->cancelled = n; break;
			}
		}
		if (s != SQLITE_DONE)
			rc = fail_with(tt, sqlitex_err(s), "health");
		sqlite3_reset(st);
	}
	return tt_end(tt, rc);
}
