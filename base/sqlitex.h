/*
 * sqlitex.h - the one SQLite adapter, shared by the model (core), the
 * recipes, the labs and the benchmarks:
 * opening a file the way every lab wants it (WAL, busy timeout), running a
 * schema script with file:line errors, BEGIN IMMEDIATE with a bounded
 * retry, and one mapping from SQLite result codes to WB_E* codes.
 *
 * It deliberately knows no table: schemas and statements belong to the
 * recipe that owns them.  Statements with values are prepared and bound by
 * the caller (house rule: SQL only with bound parameters); sqlitex_exec
 * is for fixed text such as PRAGMAs and COMMIT.
 */
#ifndef WB_SQLITEX_H
#define WB_SQLITEX_H

#include <sqlite3.h>
#include <stddef.h>

/* Options for sqlitex_open; zero means the default in brackets. */
struct sqlitex_opts {
	int busy_timeout_ms; /* [5000] how long a writer waits for the lock */
	int synchronous;     /* [1] 1 = NORMAL, 2 = FULL (WAL mode either way) */
	int no_create;	     /* [0] 1: fail with WB_ENOENT if the file is missing */
};

/* Opens (creating unless opts->no_create) the database at path in WAL
 * mode with a busy timeout and foreign keys on: sqlitex_connect, then
 * sqlitex_setup.  opts may be NULL.  Returns 0, WB_ENOENT, WB_EBUSY,
 * WB_ECORRUPT or WB_EIO; on error *out is NULL and "path: message" is in
 * errbuf (may be NULL).  Close with sqlite3_close_v2. */
int sqlitex_open(const char *path, const struct sqlitex_opts *opts, sqlite3 **out, char *errbuf,
		 size_t errlen);

/* The first half of sqlitex_open, for callers that must look at a file
 * before anything is written to it (the progress store reads its schema
 * version first and refuses a newer file untouched): opens (creating
 * unless opts->no_create), turns on extended result codes and sets the
 * busy timeout, and writes nothing (a new file stays empty).  Returns
 * 0, WB_ENOENT (missing with no_create, or cannot be opened or created:
 * SQLITE_CANTOPEN), WB_ENOMEM or WB_EIO; on error *out is NULL and
 * "path: message" is in errbuf (may be NULL).  Close with
 * sqlite3_close_v2. */
int sqlitex_connect(const char *path, const struct sqlitex_opts *opts, sqlite3 **out, char *errbuf,
		    size_t errlen);

/* The second half of sqlitex_open: journal_mode=WAL, the synchronous
 * level of opts (may be NULL), foreign_keys=ON, and a WAL hook in place
 * of SQLite's automatic checkpoint: at the same 1000 frames it runs a
 * RESTART checkpoint that waits at most 2 ms for readers, so writers
 * that take turns from several processes still let the WAL start over
 * (sqlitex.c says why).  The first write to
 * the file.  Returns 0 or a WB_E* code; the connection stays open either
 * way and sqlite3_errmsg / sqlitex_is_readonly tell why it failed. */
int sqlitex_setup(sqlite3 *db, const struct sqlitex_opts *opts);

/* 1 when the last failed call on db failed because the database (or its
 * folder, for the WAL and shared-memory files) is read-only
 * (SQLITE_READONLY or one of its extended codes), else 0.  sqlitex_err
 * maps that case to WB_EIO; callers use this to say which it was. */
int sqlitex_is_readonly(sqlite3 *db);

/* Maps a SQLite result code (primary or extended) to 0 or a WB_E* code:
 * BUSY/LOCKED -> WB_EBUSY, CORRUPT/NOTADB -> WB_ECORRUPT, CONSTRAINT ->
 * WB_EINVAL, NOMEM -> WB_ENOMEM, CANTOPEN -> WB_ENOENT, FULL (the disk,
 * or PRAGMA max_page_count) -> WB_ENOSPC, others WB_EIO. */
int sqlitex_err(int sqlite_rc);

/* sqlitex_err for a result of a call on db, which also knows an I/O
 * error whose system errno (sqlite3_system_errno) was ENOSPC or EDQUOT
 * as WB_ENOSPC (the shared-memory file of a WAL database on a full disk,
 * for instance).  db may be NULL.  Cannot fail. */
int sqlitex_db_err(sqlite3 *db, int sqlite_rc);

/* Why the last call on db failed, for messages: sqlite3_errmsg, except
 * right after sqlitex_end or sqlitex_rollback ended a failed transaction,
 * when it is the message of the call that failed (the ROLLBACK would
 * otherwise have replaced it with its own).  Valid until the next call
 * on db that fails; the kept cause is per thread.  Never NULL. */
const char *sqlitex_errmsg(sqlite3 *db);

/* Runs fixed SQL text (no values) such as "COMMIT".  Returns 0 or a
 * WB_E* code. */
int sqlitex_exec(sqlite3 *db, const char *sql);

/* Runs a script of several statements.  name is used in messages (e.g.
 * "data/tasks.sql"); on error errbuf receives "name:LINE: message" with
 * the line of the statement that failed.  Returns 0 or a WB_E* code. */
int sqlitex_exec_script(sqlite3 *db, const char *sql, const char *name, char *errbuf,
			size_t errlen);

/* BEGIN IMMEDIATE: takes the write lock now, so the transaction cannot
 * fail later on a lock upgrade.  The busy timeout waits first; an
 * answer of BUSY within the first 100 ms (SQLite can answer BUSY without
 * waiting, e.g. during WAL recovery) is retried until 100 ms have gone
 * by.  So a lock held for longer than the busy timeout gives WB_EBUSY
 * after about the busy timeout, never a multiple of it.  Returns 0 or
 * WB_EBUSY / WB_ENOSPC / WB_EIO. */
int sqlitex_begin_immediate(sqlite3 *db);

/* COMMIT, or ROLLBACK when rc is non-zero; returns rc when it was non-zero,
 * else the COMMIT's own result (0 or WB_E*; WB_ENOSPC on a full disk).  A
 * failed COMMIT is rolled back, so the transaction never stays open; the
 * failing call's message stays readable with sqlitex_errmsg (call it
 * with rc non-zero right after the call that failed). */
int sqlitex_end(sqlite3 *db, int rc);

/* One connection's BEGIN IMMEDIATE, COMMIT and ROLLBACK, prepared on
 * first use and kept, for code that runs many short write transactions
 * on one connection.  sqlitex_txn_begin and sqlitex_txn_end behave
 * exactly as sqlitex_begin_immediate and sqlitex_end (same retries, same
 * results, same kept cause for sqlitex_errmsg). */
struct sqlitex_txn {
	sqlite3 *db;		/* the connection (not owned) */
	sqlite3_stmt *begin;	/* BEGIN IMMEDIATE, or NULL before first use */
	sqlite3_stmt *commit;	/* COMMIT, likewise */
	sqlite3_stmt *rollback; /* ROLLBACK, likewise */
};

/* Binds t to db; prepares nothing yet.  Cannot fail. */
void sqlitex_txn_init(struct sqlitex_txn *t, sqlite3 *db);

/* sqlitex_begin_immediate on t's connection, from the kept statement. */
int sqlitex_txn_begin(struct sqlitex_txn *t);

/* sqlitex_end on t's connection, from the kept statements. */
int sqlitex_txn_end(struct sqlitex_txn *t, int rc);

/* Finalizes t's statements; call before closing the connection.  t may be
 * initialised but unused.  Cannot fail. */
void sqlitex_txn_free(struct sqlitex_txn *t);

/* ROLLBACK when a transaction is open on db, else nothing; for error
 * paths that report their own code.  Keeps the failing call's message
 * for sqlitex_errmsg.  Cannot fail in a way the caller could act on (a
 * failed ROLLBACK leaves SQLite to roll back on close). */
void sqlitex_rollback(sqlite3 *db);

/* Prepares one statement.  Returns 0 or a WB_E* code; *st is NULL on
 * error.  The caller finalizes. */
int sqlitex_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st);

/* A malloc'd copy of column i of the current row of st, or NULL when it
 * is NULL.  The caller frees.  Aborts on out of memory (wb_xstrdup). */
char *sqlitex_column_dup(sqlite3_stmt *st, int i);

/* Binds s (copied by SQLite) to parameter i of st, or NULL when s is
 * NULL.  Errors surface at sqlite3_step. */
void sqlitex_bind_text_or_null(sqlite3_stmt *st, int i, const char *s);

/* Reads one integer from a query without parameters (e.g. "PRAGMA
 * user_version").  Returns 0, WB_ENOENT (no row) or a WB_E* code. */
int sqlitex_int(sqlite3 *db, const char *sql, long long *out);

#endif
