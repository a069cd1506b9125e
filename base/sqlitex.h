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
 * mode with a busy timeout and foreign keys on.  opts may be NULL.
 * Returns 0, WB_ENOENT, WB_EBUSY or WB_EIO; on error *out is NULL and a
 * message is in errbuf (may be NULL).  Close with sqlite3_close_v2. */
int sqlitex_open(const char *path, const struct sqlitex_opts *opts, sqlite3 **out, char *errbuf,
		 size_t errlen);

/* Maps a SQLite result code (primary or extended) to 0 or a WB_E* code:
 * BUSY/LOCKED -> WB_EBUSY, CORRUPT/NOTADB -> WB_ECORRUPT, CONSTRAINT ->
 * WB_EINVAL, NOMEM -> WB_ENOMEM, CANTOPEN -> WB_ENOENT, others WB_EIO. */
int sqlitex_err(int sqlite_rc);

/* Runs fixed SQL text (no values) such as "COMMIT".  Returns 0 or a
 * WB_E* code. */
int sqlitex_exec(sqlite3 *db, const char *sql);

/* Runs a script of several statements.  name is used in messages (e.g.
 * "data/tasks.sql"); on error errbuf receives "name:LINE: message" with
 * the line of the statement that failed.  Returns 0 or a WB_E* code. */
int sqlitex_exec_script(sqlite3 *db, const char *sql, const char *name, char *errbuf,
			size_t errlen);

/* BEGIN IMMEDIATE: takes the write lock now, so the transaction cannot
 * fail later on a lock upgrade.  The busy timeout waits first; if SQLite
 * still reports BUSY, it retries for about 100 ms more.  Returns 0 or
 * WB_EBUSY / WB_EIO. */
int sqlitex_begin_immediate(sqlite3 *db);

/* COMMIT, or ROLLBACK when rc is non-zero; returns rc when it was non-zero,
 * else the COMMIT's own result (0 or WB_E*).  A failed COMMIT is rolled
 * back, so the transaction never stays open. */
int sqlitex_end(sqlite3 *db, int rc);

/* Prepares one statement.  Returns 0 or a WB_E* code; *st is NULL on
 * error.  The caller finalizes. */
int sqlitex_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st);

/* Reads one integer from a query without parameters (e.g. "PRAGMA
 * user_version").  Returns 0, WB_ENOENT (no row) or a WB_E* code. */
int sqlitex_int(sqlite3 *db, const char *sql, long long *out);

#endif
