/* test_sqlitex.c - the shared SQLite helpers against real files: WAL and
 * the busy timeout on open, no_create, connect writing nothing before
 * setup, read-only detection, error mapping, script errors with
 * file:line, BEGIN IMMEDIATE against a held write lock (and how long it
 * waits), sqlitex_end committing or rolling back, and the WAL starting
 * over while two processes take turns at the write lock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "base/wb.h"
#include "base/sqlitex.h"
#include "testlib.h"
#include "base/mono.h"
#include "base/spawn.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return testlib_tmpdir("sqlitex", dir, sizeof dir) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return testlib_rmtree(dir) == 0 ? 0 : -1;
}

static const char *path_of(const char *name)
{
	static char p[128];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static void test_open_wal_and_no_create(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	char err[256];
	assert_int_equal(sqlitex_open(path_of("a.db"), NULL, &db, err, sizeof err), 0);
	sqlite3_stmt *st;
	assert_int_equal(sqlitex_prepare(db, "PRAGMA journal_mode", &st), 0);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	long long v = 0;
	assert_int_equal(sqlitex_int(db, "PRAGMA synchronous", &v), 0);
	assert_int_equal(v, 1); /* NORMAL */
	sqlite3_close_v2(db);

	struct sqlitex_opts full = {.synchronous = 2};
	assert_int_equal(sqlitex_open(path_of("a.db"), &full, &db, NULL, 0), 0);
	assert_int_equal(sqlitex_int(db, "PRAGMA synchronous", &v), 0);
	assert_int_equal(v, 2);
	sqlite3_close_v2(db);

	struct sqlitex_opts nc = {.no_create = 1};
	assert_int_equal(sqlitex_open(path_of("missing.db"), &nc, &db, err, sizeof err), WB_ENOENT);
	assert_null(db);
	assert_non_null(strstr(err, "missing.db"));
	assert_int_equal(access(path_of("missing.db"), F_OK), -1);
}

static void test_error_mapping(void **state)
{
	(void)state;
	assert_int_equal(sqlitex_err(SQLITE_OK), 0);
	assert_int_equal(sqlitex_err(SQLITE_DONE), 0);
	assert_int_equal(sqlitex_err(SQLITE_BUSY), WB_EBUSY);
	assert_int_equal(sqlitex_err(SQLITE_BUSY_SNAPSHOT), WB_EBUSY);
	assert_int_equal(sqlitex_err(SQLITE_CONSTRAINT_CHECK), WB_EINVAL);
	assert_int_equal(sqlitex_err(SQLITE_CORRUPT), WB_ECORRUPT);
	assert_int_equal(sqlitex_err(SQLITE_NOTADB), WB_ECORRUPT);
	assert_int_equal(sqlitex_err(SQLITE_CANTOPEN), WB_ENOENT);
	assert_int_equal(sqlitex_err(SQLITE_IOERR_WRITE), WB_EIO);
}

static void test_script_error_names_file_and_line(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	char err[256];
	assert_int_equal(sqlitex_open(path_of("s.db"), NULL, &db, NULL, 0), 0);
	const char *ok = "-- comment\nCREATE TABLE a (x INTEGER);\nINSERT INTO a VALUES (1);\n";
	assert_int_equal(sqlitex_exec_script(db, ok, "ok.sql", err, sizeof err), 0);
	const char *bad = "CREATE TABLE b (y INTEGER);\n\n\nINSERT INTO nowhere VALUES (2);\n";
	assert_int_not_equal(sqlitex_exec_script(db, bad, "data/bad.sql", err, sizeof err), 0);
	assert_non_null(strstr(err, "data/bad.sql:4:"));
	assert_non_null(strstr(err, "nowhere"));
	const char *syntax = "CREATE TABLE c (z INTEGER);\nCREATE TABLE oops (;\n";
	assert_int_not_equal(sqlitex_exec_script(db, syntax, "syn.sql", err, sizeof err), 0);
	assert_non_null(strstr(err, "syn.sql:2:"));
	long long n = 0;
	assert_int_equal(sqlitex_int(db, "SELECT count(*) FROM a", &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(sqlitex_int(db, "SELECT x FROM a WHERE x = 99", &n), WB_ENOENT);
	sqlite3_close_v2(db);
}

static void test_begin_immediate_busy_and_end(void **state)
{
	(void)state;
	sqlite3 *a = NULL, *b = NULL;
	struct sqlitex_opts quick = {.busy_timeout_ms = 20};
	assert_int_equal(sqlitex_open(path_of("l.db"), NULL, &a, NULL, 0), 0);
	assert_int_equal(sqlitex_open(path_of("l.db"), &quick, &b, NULL, 0), 0);
	assert_int_equal(sqlitex_exec(a, "CREATE TABLE t (x INTEGER)"), 0);

	assert_int_equal(sqlitex_begin_immediate(a), 0);
	assert_int_equal(sqlitex_exec(a, "INSERT INTO t VALUES (1)"), 0);
	/* a holds the write lock: b gives up with WB_EBUSY, it never hangs. */
	assert_int_equal(sqlitex_begin_immediate(b), WB_EBUSY);
	assert_int_equal(sqlitex_end(a, 0), 0); /* commit */

	long long n = 0;
	assert_int_equal(sqlitex_int(b, "SELECT count(*) FROM t", &n), 0);
	assert_int_equal(n, 1);
	/* A non-zero rc rolls back and is returned unchanged. */
	assert_int_equal(sqlitex_begin_immediate(b), 0);
	assert_int_equal(sqlitex_exec(b, "INSERT INTO t VALUES (2)"), 0);
	assert_int_equal(sqlitex_end(b, WB_EINVAL), WB_EINVAL);
	assert_true(sqlite3_get_autocommit(b));
	assert_int_equal(sqlitex_int(a, "SELECT count(*) FROM t", &n), 0);
	assert_int_equal(n, 1);
	sqlite3_close_v2(a);
	sqlite3_close_v2(b);
}

static void test_connect_writes_nothing_until_setup(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	char err[256];
	assert_int_equal(sqlitex_connect(path_of("c.db"), NULL, &db, err, sizeof err), 0);
	long long v = -1;
	assert_int_equal(sqlitex_int(db, "PRAGMA user_version", &v), 0);
	assert_int_equal(v, 0);
	struct stat st;
	/* Nothing written yet: the file is empty (or not even created). */
	assert_true(stat(path_of("c.db"), &st) != 0 || st.st_size == 0);
	sqlite3_stmt *q = NULL;
	assert_int_equal(sqlitex_prepare(db, "PRAGMA journal_mode", &q), 0);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_string_not_equal((const char *)sqlite3_column_text(q, 0), "wal");
	sqlite3_finalize(q);

	assert_int_equal(sqlitex_setup(db, NULL), 0);
	assert_int_equal(sqlitex_prepare(db, "PRAGMA journal_mode", &q), 0);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(q, 0), "wal");
	sqlite3_finalize(q);
	assert_int_equal(sqlitex_int(db, "PRAGMA foreign_keys", &v), 0);
	assert_int_equal(v, 1);
	sqlite3_close_v2(db);

	struct sqlitex_opts nc = {.no_create = 1};
	assert_int_equal(sqlitex_connect(path_of("nope.db"), &nc, &db, err, sizeof err), WB_ENOENT);
	assert_null(db);
	assert_non_null(strstr(err, "nope.db"));
	/* A folder that does not exist: SQLite cannot create the file. */
	assert_int_equal(sqlitex_connect(path_of("no/such/dir.db"), NULL, &db, err, sizeof err),
			 WB_ENOENT);
	assert_null(db);
	assert_non_null(strstr(err, "no/such/dir.db: "));
}

static void test_readonly_detected(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	assert_int_equal(sqlitex_open(path_of("r.db"), NULL, &db, NULL, 0), 0);
	assert_int_equal(sqlitex_exec(db, "CREATE TABLE t (x INTEGER)"), 0);
	assert_int_equal(sqlitex_is_readonly(db), 0);
	sqlite3_close_v2(db);
	/* Opened read-only (as a file without write permission behaves for
	 * any user but root): a write fails with SQLITE_READONLY. */
	assert_int_equal(sqlite3_open_v2(path_of("r.db"), &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	sqlite3_extended_result_codes(db, 1);
	int err = sqlitex_exec(db, "INSERT INTO t VALUES (1)");
	assert_int_equal(err, WB_EIO);
	assert_int_equal(sqlitex_is_readonly(db), 1);
	/* Another failure is not mistaken for it. */
	assert_int_not_equal(sqlitex_exec(db, "SELECT * FROM no_such_table"), 0);
	assert_int_equal(sqlitex_is_readonly(db), 0);
	sqlite3_close_v2(db);
	assert_int_equal(sqlitex_err(SQLITE_READONLY_DBMOVED), WB_EIO);
}

static void test_rollback_only_when_open(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	assert_int_equal(sqlitex_open(path_of("rb.db"), NULL, &db, NULL, 0), 0);
	assert_int_equal(sqlitex_exec(db, "CREATE TABLE t (x INTEGER)"), 0);
	sqlitex_rollback(db); /* none open: nothing happens */
	assert_int_equal(sqlitex_begin_immediate(db), 0);
	assert_int_equal(sqlitex_exec(db, "INSERT INTO t VALUES (1)"), 0);
	sqlitex_rollback(db);
	assert_true(sqlite3_get_autocommit(db));
	long long n = -1;
	assert_int_equal(sqlitex_int(db, "SELECT count(*) FROM t", &n), 0);
	assert_int_equal(n, 0);
	sqlite3_close_v2(db);
}

/* Regression: the retry counted 50 tries, and each try ran the busy
 * handler again, so a held lock made BEGIN IMMEDIATE wait 51 busy
 * timeouts (15 s here) instead of one. */
static void test_begin_immediate_waits_one_timeout(void **state)
{
	(void)state;
	sqlite3 *a = NULL, *b = NULL;
	struct sqlitex_opts slow = {.busy_timeout_ms = 300};
	assert_int_equal(sqlitex_open(path_of("w.db"), NULL, &a, NULL, 0), 0);
	assert_int_equal(sqlitex_open(path_of("w.db"), &slow, &b, NULL, 0), 0);
	assert_int_equal(sqlitex_exec(a, "CREATE TABLE t (x INTEGER)"), 0);
	assert_int_equal(sqlitex_begin_immediate(a), 0);
	long long t0 = mono_now_ms();
	assert_int_equal(sqlitex_begin_immediate(b), WB_EBUSY);
	long long took = mono_now_ms() - t0;
	assert_true(took >= 250);
	/* One timeout plus slack for a loaded machine; 51 would be 15 s. */
	assert_true(took < 5000);
	assert_int_equal(sqlitex_end(a, 0), 0);
	sqlite3_close_v2(a);
	sqlite3_close_v2(b);
}

/* F7: after a failed statement the transaction's ROLLBACK replaced
 * sqlite3_errmsg ("not an error" after a statement-level failure,
 * "cannot rollback - no transaction is active" when SQLite had rolled
 * back already); sqlitex_errmsg keeps the cause, and a full database is
 * WB_ENOSPC. */
static void test_errmsg_keeps_cause(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	assert_int_equal(sqlitex_open(path_of("cause.db"), NULL, &db, NULL, 0), 0);
	assert_int_equal(sqlitex_exec(db, "CREATE TABLE t (x INTEGER UNIQUE, b BLOB)"), 0);
	assert_int_equal(sqlitex_begin_immediate(db), 0);
	assert_int_equal(sqlitex_exec(db, "INSERT INTO t VALUES (1, NULL)"), 0);
	int err = sqlitex_exec(db, "INSERT INTO t VALUES (1, NULL)");
	assert_int_equal(err, WB_EINVAL);
	assert_false(sqlite3_get_autocommit(db)); /* only the statement was undone */
	assert_int_equal(sqlitex_end(db, err), WB_EINVAL);
	assert_true(sqlite3_get_autocommit(db));
	assert_non_null(strstr(sqlitex_errmsg(db), "UNIQUE constraint failed"));
	/* The next failure is its own. */
	assert_int_not_equal(sqlitex_exec(db, "SELECT nope FROM t"), 0);
	assert_non_null(strstr(sqlitex_errmsg(db), "no such column"));

	/* A database at its size limit: SQLITE_FULL is WB_ENOSPC. */
	long long pages = 0;
	assert_int_equal(sqlitex_int(db, "PRAGMA page_count", &pages), 0);
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA max_page_count=%lld", pages);
	assert_int_equal(sqlitex_exec(db, sql), 0);
	assert_int_equal(sqlitex_begin_immediate(db), 0);
	err = sqlitex_exec(db, "INSERT INTO t VALUES (2, zeroblob(100000))");
	assert_int_equal(err, WB_ENOSPC);
	assert_int_equal(sqlitex_end(db, err), WB_ENOSPC);
	assert_non_null(strstr(sqlitex_errmsg(db), "full"));
	assert_int_equal(sqlitex_err(SQLITE_FULL), WB_ENOSPC);
	sqlite3_close_v2(db);
}

/* One of two writers: n write transactions of one insert and one counter
 * update each (two or three pages a commit), as fast as it can, released
 * by the parent closing go.  Exits 0 when all committed. */
static void writer(const char *path, int go, int n)
{
	struct sqlitex_opts o = {.busy_timeout_ms = 60000};
	sqlite3 *db = NULL;
	char b;
	if (sqlitex_open(path, &o, &db, NULL, 0) != 0)
		_exit(3);
	while (read(go, &b, 1) < 0)
		;
	struct sqlitex_txn t;
	sqlitex_txn_init(&t, db);
	for (int i = 0; i < n; i++) {
		int rc = sqlitex_txn_begin(&t);
		if (rc == 0)
			rc = sqlitex_exec(db, "INSERT INTO t (v) VALUES (randomblob(64))");
		if (rc == 0)
			rc = sqlitex_exec(db, "UPDATE c SET n = n + 1");
		if (sqlitex_txn_end(&t, rc) != 0)
			_exit(4);
	}
	sqlitex_txn_free(&t);
	sqlite3_close_v2(db);
	_exit(0);
}

/* Two processes taking turns at the write lock must still let the WAL
 * start over.  Under SQLite's automatic (PASSIVE) checkpoint the next
 * writer was always in before the checkpoint that followed a commit had
 * finished, the WAL never restarted and grew with every commit (90 MB
 * after 4000 task-table pairs); sqlitex's RESTART checkpoint keeps it
 * near its 1000-frame mark.  The bound is three times the mark: a
 * restart missed now and then (a writer slower than the checkpoint's
 * 2 ms wait) only delays it to a later commit, while without restarts
 * the 2 x 3000 commits here write about 15000 frames. */
static void test_wal_starts_over_with_two_writers(void **state)
{
	(void)state;
	const char *path = path_of("turns.db");
	sqlite3 *db = NULL;
	assert_int_equal(sqlitex_open(path, NULL, &db, NULL, 0), 0);
	int made = sqlitex_exec(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB);"
				    "CREATE TABLE c (n INTEGER); INSERT INTO c VALUES (0)");
	if (made)
		fail_msg("%s", sqlite3_errmsg(db));
	long long page = 0;
	assert_int_equal(sqlitex_int(db, "PRAGMA page_size", &page), 0);
	int go[2];
	assert_int_equal(pipe(go), 0);
	struct spawn_opts so = {.death_signal = SIGKILL, .out_fd = -1};
	pid_t pid[2];
	for (int w = 0; w < 2; w++) {
		assert_int_equal(spawn_fork(&so, &pid[w]), 0);
		if (pid[w] == 0) {
			close(go[1]);
			writer(path, go[0], 3000);
		}
	}
	close(go[0]);
	close(go[1]); /* both start together */
	for (int w = 0; w < 2; w++) {
		int status = 0;
		assert_int_equal(waitpid(pid[w], &status, 0), pid[w]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	long long n = 0;
	assert_int_equal(sqlitex_int(db, "SELECT n FROM c", &n), 0);
	assert_int_equal(n, 6000);
	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", path);
	struct stat st;
	assert_int_equal(stat(wal, &st), 0);
	long long frames = (long long)st.st_size / (page + 24);
	if (frames > 3000)
		fail_msg("the WAL grew to %lld frames (%lld bytes): it did not start over", frames,
			 (long long)st.st_size);
	sqlite3_close_v2(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_wal_and_no_create),
		cmocka_unit_test(test_error_mapping),
		cmocka_unit_test(test_script_error_names_file_and_line),
		cmocka_unit_test(test_begin_immediate_busy_and_end),
		cmocka_unit_test(test_connect_writes_nothing_until_setup),
		cmocka_unit_test(test_readonly_detected),
		cmocka_unit_test(test_rollback_only_when_open),
		cmocka_unit_test(test_begin_immediate_waits_one_timeout),
		cmocka_unit_test(test_errmsg_keeps_cause),
		cmocka_unit_test(test_wal_starts_over_with_two_writers),
	};
	return cmocka_run_group_tests_name("sqlitex", tests, setup, teardown);
}
