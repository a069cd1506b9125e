/*
 * sqlitex.c - shared SQLite helpers (see sqlitex.h).
 *
 * Why the retry around BEGIN IMMEDIATE: the busy handler already waits for
 * the write lock, but in WAL mode SQLite can return SQLITE_BUSY without
 * calling the handler (e.g. while another connection runs recovery of the
 * WAL index).  About 100 ms of retries turn those rare cases into waits
 * rather than spurious lab failures; a writer that holds the lock longer
 * than the busy timeout still surfaces as WB_EBUSY, after one busy
 * timeout.
 *
 * Why struct sqlitex_txn: sqlite3_exec parses its text on every call,
 * and a hot path runs two transactions per task (the task table's claim
 * and complete): "BEGIN IMMEDIATE" and "COMMIT" parsed each time were
 * about 11k instructions of a claim+complete's 184k (callgrind).  The
 * struct keeps the three statements prepared for one connection.
 *
 * Why sqlitex_errmsg: ending a failed transaction runs ROLLBACK, and any
 * call on the connection replaces sqlite3_errmsg, so after a statement
 * failed (e.g. SQLITE_FULL) the message would tell of the ROLLBACK ("not
 * an error", or "cannot rollback - no transaction is active") instead of
 * the cause.  sqlitex_end and sqlitex_rollback copy the failing call's
 * code and message first, in one slot per thread (the last connection
 * whose transaction ended that way), and note the code the rollback left
 * behind: while the connection still shows that code, nothing has failed
 * since, and sqlitex_errmsg gives the kept cause.
 *
 * It does not decide what a caller says about a failure: messages name
 * the path and SQLite's own text, and callers with their own wording
 * (the progress store) build it from sqlitex_errmsg.
 */
#include "base/sqlitex.h"
#include "base/mono.h"
#include "base/wb.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void set_err(char *errbuf, size_t errlen, const char *fmt, const char *a, const char *b)
{
	if (errbuf && errlen)
		snprintf(errbuf, errlen, fmt, a, b);
}

/* The cause of the last failed transaction end on one connection (see
 * the top of the file). */
static _Thread_local struct {
	sqlite3 *db;   /* the connection, or NULL */
	int after;     /* extended code the connection showed after the rollback */
	char msg[256]; /* sqlite3_errmsg of the failing call */
} kept;

/* Copies db's current error as the cause, before a rollback replaces it. */
static void keep_cause(sqlite3 *db)
{
	kept.db = db;
	snprintf(kept.msg, sizeof kept.msg, "%s", sqlite3_errmsg(db));
}

const char *sqlitex_errmsg(sqlite3 *db)
{
	if (kept.db == db && sqlite3_extended_errcode(db) == kept.after)
		return kept.msg;
	return sqlite3_errmsg(db);
}

int sqlitex_db_err(sqlite3 *db, int rc)
{
	int err = sqlitex_err(rc);
	if (err == WB_EIO && db) {
		int e = sqlite3_system_errno(db);
		if (e == ENOSPC || e == EDQUOT)
			return WB_ENOSPC;
	}
	return err;
}

int sqlitex_err(int rc)
{
	switch (rc & 0xFF) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE: return 0;
	case SQLITE_BUSY:
	case SQLITE_LOCKED: return WB_EBUSY;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB: return WB_ECORRUPT;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE: return WB_EINVAL;
	case SQLITE_NOMEM: return WB_ENOMEM;
	case SQLITE_CANTOPEN: return WB_ENOENT;
	case SQLITE_FULL: return WB_ENOSPC;
	default: return WB_EIO;
	}
}

/* The busy handler: waits for another connection's lock in short naps
 * that grow from 20 us to 1 ms, until the connection's timeout (arg, in
 * ms) has passed since the first call of this wait.  SQLite's own
 * sqlite3_busy_timeout naps 1, 2, 5, 10 ... 100 ms, far longer than the
 * write transactions of this project hold the lock (tens of us for a task
 * claim): two workers on one task table then spent most of their time
 * asleep with the lock free.  One wait at a time per thread, so the
 * start time is per thread. */
static _Thread_local long long busy_since_us;
/* While wal_hook's checkpoint runs on this thread: the most it may wait,
 * in ms (0: no such cap). */
static _Thread_local int busy_cap_ms;

static int busy_wait(void *arg, int count)
{
	long long limit_us = (long long)(intptr_t)arg * 1000;
	if (busy_cap_ms > 0 && limit_us > busy_cap_ms * 1000LL)
		limit_us = busy_cap_ms * 1000LL;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long long t = (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
	if (count == 0)
		busy_since_us = t;
	if (t - busy_since_us >= limit_us)
		return 0;				  /* give up: SQLITE_BUSY */
	long long nap = count < 6 ? 20LL << count : 1000; /* 20, 40 ... 640 us, then 1 ms */
	if (nap > 1000)
		nap = 1000;
	struct timespec ts = {0, (long)nap * 1000};
	nanosleep(&ts, NULL);
	return 1;
}

/* WAL checkpoints.  SQLite's automatic checkpoint runs a PASSIVE one
 * after every commit that leaves the WAL at 1000 frames or more, and the
 * WAL only starts over when a writer begins with every frame copied back
 * and no reader in it.  With two or more processes taking turns at the
 * write lock that never happens: the checkpoint runs after the commit has
 * let the lock go, the next writer is already in, so the WAL stays over
 * the mark and every commit checkpoints (copies its few frames back and
 * syncs the database file: about 3 fdatasync calls a commit instead of 1
 * with two task-table workers at synchronous=FULL, and a checkpoint per
 * commit at NORMAL too; strace, 2000 tasks).  So the hook below replaces
 * it: at the same mark it asks for a RESTART checkpoint, which holds the
 * writer lock until readers have left the WAL, so the next writer starts
 * it over.  It waits for them at most CKPT_WAIT_MS (busy_wait is capped
 * meanwhile; a handler the caller set instead keeps its own limit): past
 * that, SQLite carries on as a PASSIVE checkpoint and the next
 * commit tries again, so a reader parked in the WAL (a lab at a barrier)
 * costs a commit at most that wait, never the connection's timeout. */
#define CKPT_FRAMES  1000
#define CKPT_WAIT_MS 2

static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	(void)arg;
	if (frames < CKPT_FRAMES)
		return SQLITE_OK;
	/* The connection keeps its busy handler (a caller may have set its
	 * own, e.g. no wait at all); ours is capped while this runs. */
	busy_cap_ms = CKPT_WAIT_MS;
	/* SQLITE_BUSY: readers stayed; done as PASSIVE.  Other errors
	 * leave the WAL as it was, and the commit has happened either way:
	 * a checkpoint is housekeeping, not the caller's statement. */
	(void)sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_RESTART, NULL, NULL);
	busy_cap_ms = 0;
	return SQLITE_OK;
}

/* opts with the defaults of sqlitex_opts filled in. */
static struct sqlitex_opts with_defaults(const struct sqlitex_opts *opts)
{
	struct sqlitex_opts o = {0};
	if (opts)
		o = *opts;
	if (o.busy_timeout_ms <= 0)
		o.busy_timeout_ms = 5000;
	if (o.synchronous != 2)
		o.synchronous = 1;
	return o;
}

int sqlitex_connect(const char *path, const struct sqlitex_opts *opts, sqlite3 **out, char *errbuf,
		    size_t errlen)
{
	struct sqlitex_opts o = with_defaults(opts);
	*out = NULL;
	struct stat st;
	if (o.no_create && stat(path, &st) != 0) {
		set_err(errbuf, errlen, "%s: %s", path, "no such database file");
		return WB_ENOENT;
	}
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX;
	if (!o.no_create)
		flags |= SQLITE_OPEN_CREATE;
	int rc = sqlite3_open_v2(path, &db, flags, NULL);
	if (rc != SQLITE_OK) {
		set_err(errbuf, errlen, "%s: %s", path,
			db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close_v2(db);
		return sqlitex_err(rc);
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_handler(db, busy_wait, (void *)(intptr_t)o.busy_timeout_ms);
	*out = db;
	return 0;
}

int sqlitex_setup(sqlite3 *db, const struct sqlitex_opts *opts)
{
	struct sqlitex_opts o = with_defaults(opts);
	/* journal_mode answers with a row; sqlite3_exec discards it. */
	int rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db,
				  o.synchronous == 2 ? "PRAGMA synchronous=FULL"
						     : "PRAGMA synchronous=NORMAL",
				  NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
	if (rc == SQLITE_OK) /* replaces the automatic checkpoint (see wal_hook) */
		sqlite3_wal_hook(db, wal_hook, NULL);
	return sqlitex_db_err(db, rc);
}

int sqlitex_is_readonly(sqlite3 *db)
{
	return (sqlite3_errcode(db) & 0xFF) == SQLITE_READONLY;
}

int sqlitex_open(const char *path, const struct sqlitex_opts *opts, sqlite3 **out, char *errbuf,
		 size_t errlen)
{
	sqlite3 *db = NULL;
	*out = NULL;
	int err = sqlitex_connect(path, opts, &db, errbuf, errlen);
	if (err)
		return err;
	err = sqlitex_setup(db, opts);
	if (err) {
		set_err(errbuf, errlen, "%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close_v2(db);
		return err;
	}
	*out = db;
	return 0;
}

int sqlitex_exec(sqlite3 *db, const char *sql)
{
	return sqlitex_db_err(db, sqlite3_exec(db, sql, NULL, NULL, NULL));
}

/* 1-based line of the byte at offset in text. */
static int line_of(const char *text, const char *at)
{
	int line = 1;
	for (const char *p = text; p < at && *p; p++)
		if (*p == '\n')
			line++;
	return line;
}

int sqlitex_exec_script(sqlite3 *db, const char *sql, const char *name, char *errbuf, size_t errlen)
{
	const char *p = sql;
	while (p && *p) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc = sqlite3_prepare_v2(db, p, -1, &st, &tail);
		if (rc == SQLITE_OK && st) {
			while ((rc = sqlite3_step(st)) == SQLITE_ROW)
				;
			if (rc == SQLITE_DONE)
				rc = SQLITE_OK;
		}
		if (rc != SQLITE_OK) {
			/* The statement's own first line, or where the parser
			 * stopped when SQLite knows it. */
			const char *at = p;
			while (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')
				at++;
			int off = sqlite3_error_offset(db);
			if (off >= 0)
				at = p + off;
			if (errbuf && errlen)
				snprintf(errbuf, errlen, "%s:%d: %s", name ? name : "sql",
					 line_of(sql, at), sqlite3_errmsg(db));
			sqlite3_finalize(st);
			return sqlitex_err(rc);
		}
		sqlite3_finalize(st);
		p = tail;
	}
	return 0;
}

/* Runs one transaction-control statement on db: from *cache (prepared
 * on first use, kept for the caller's struct sqlitex_txn) when cache is
 * not NULL, else through sqlite3_exec, which parses it every time.
 * Returns SQLite's result code (SQLITE_OK for a statement that ran). */
static int run_control(sqlite3 *db, sqlite3_stmt **cache, const char *sql)
{
	if (!cache)
		return sqlite3_exec(db, sql, NULL, NULL, NULL);
	if (!*cache) {
		int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, cache, NULL);
		if (rc != SQLITE_OK)
			return rc;
	}
	int rc = sqlite3_step(*cache);
	sqlite3_reset(*cache);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static int begin_immediate(sqlite3 *db, sqlite3_stmt **cache)
{
	/* The busy handler has already waited the connection's timeout when
	 * BEGIN IMMEDIATE reports BUSY after it; the retries only cover the
	 * cases where SQLite answers BUSY without calling it, so they stop
	 * 100 ms after the first try.  (Counting tries instead would run the
	 * busy handler again on every try: 51 busy timeouts in the worst
	 * case.) */
	long long deadline = mono_now_ms() + 100;
	if (kept.db == db)
		kept.db = NULL; /* a new transaction: the old cause is history */
	for (;;) {
		int rc = run_control(db, cache, "BEGIN IMMEDIATE");
		if ((rc & 0xFF) != SQLITE_BUSY)
			return sqlitex_db_err(db, rc);
		if (mono_now_ms() >= deadline)
			return WB_EBUSY;
		struct timespec tick = {0, 2 * 1000 * 1000};
		nanosleep(&tick, NULL);
	}
}

static void rollback(sqlite3 *db, sqlite3_stmt **cache)
{
	if (sqlite3_get_autocommit(db))
		return; /* nothing open: SQLite rolled back already, or nothing began */
	if (kept.db != db)
		keep_cause(db);
	run_control(db, cache, "ROLLBACK");
	kept.after = sqlite3_extended_errcode(db);
}

static int end(sqlite3 *db, sqlite3_stmt **commit, sqlite3_stmt **rb, int rc)
{
	if (rc == 0) {
		int c = run_control(db, commit, "COMMIT");
		if (c == SQLITE_OK)
			return 0;
		rc = sqlitex_db_err(db, c);
	}
	keep_cause(db);
	rollback(db, rb);
	kept.after = sqlite3_extended_errcode(db);
	return rc;
}

int sqlitex_begin_immediate(sqlite3 *db)
{
	return begin_immediate(db, NULL);
}

int sqlitex_end(sqlite3 *db, int rc)
{
	return end(db, NULL, NULL, rc);
}

void sqlitex_rollback(sqlite3 *db)
{
	rollback(db, NULL);
}

void sqlitex_txn_init(struct sqlitex_txn *t, sqlite3 *db)
{
	memset(t, 0, sizeof *t);
	t->db = db;
}

int sqlitex_txn_begin(struct sqlitex_txn *t)
{
	return begin_immediate(t->db, &t->begin);
}

int sqlitex_txn_end(struct sqlitex_txn *t, int rc)
{
	return end(t->db, &t->commit, &t->rollback, rc);
}

void sqlitex_txn_free(struct sqlitex_txn *t)
{
	sqlite3_finalize(t->begin);
	sqlite3_finalize(t->commit);
	sqlite3_finalize(t->rollback);
	t->begin = t->commit = t->rollback = NULL;
}

int sqlitex_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	*st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return sqlitex_err(rc);
	}
	return 0;
}

char *sqlitex_column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? wb_xstrdup((const char *)t) : NULL;
}

void sqlitex_bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int sqlitex_int(sqlite3 *db, const char *sql, long long *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(db, sql, &st);
	if (rc)
		return rc;
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	rc = s == SQLITE_ROW ? 0 : s == SQLITE_DONE ? WB_ENOENT : sqlitex_err(s);
	sqlite3_finalize(st);
	return rc;
}
