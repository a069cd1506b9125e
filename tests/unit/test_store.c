/* test_store.c - progress database: creation, migration, refusal of a
 * newer schema (file untouched), positions across reopen; and the bad
 * files and places of docs/bad-input.md: damaged and foreign empty files
 * (F11), a full database (F7), a locked one (F8), no home (F13), a path
 * too long for SQLite (F15), private new files (F17). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "core/store.h"
#include "base/wb.h"
#include "testlib.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	return testlib_tmpdir("store", dir, sizeof dir) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return testlib_rmtree(dir) == 0 ? 0 : -1;
}

static char *path_of(const char *name)
{
	static char p[320];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static int user_version(const char *path)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void test_fresh_create(void **state)
{
	(void)state;
	char err[512];
	struct store *s;
	const char *p = path_of("progress.db");
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	assert_int_equal(store_found_version(s), 0);
	store_close(s);
	assert_int_equal(user_version(p), STORE_SCHEMA_VERSION);
	assert_int_equal(access(p, F_OK), 0);
}

/* Folders are made for the default location only: a mistyped --db is an
 * error that creates nothing, and store_open_existing never creates. */
static void test_folders_and_existing(void **state)
{
	(void)state;
	char err[512];
	struct store *s;
	char *typo = wb_xstrdup(path_of("typo/x.db"));
	assert_int_equal(store_open(typo, &s, err, sizeof err), WB_ENOENT);
	assert_null(s);
	assert_non_null(strstr(err, "no folder"));
	assert_int_not_equal(access(path_of("typo"), F_OK), 0);

	char *missing = wb_xstrdup(path_of("missing.db"));
	assert_int_equal(store_open_existing(missing, &s, err, sizeof err), WB_ENOENT);
	assert_null(s);
	char *want = wb_xasprintf("no progress database at %s", missing);
	assert_string_equal(err, want);
	assert_int_not_equal(access(missing, F_OK), 0);
	assert_int_equal(store_open_existing(typo, &s, err, sizeof err), WB_ENOENT);
	assert_int_not_equal(access(path_of("typo"), F_OK), 0);

	/* The default location: $XDG_DATA_HOME/workbench is made. */
	char *xdg = wb_xstrdup(path_of("xdg"));
	char *old = getenv("XDG_DATA_HOME") ? wb_xstrdup(getenv("XDG_DATA_HOME")) : NULL;
	setenv("XDG_DATA_HOME", xdg, 1);
	char *def = wb_xasprintf("%s/workbench/progress.db", xdg);
	assert_int_equal(store_open(def, &s, err, sizeof err), 0);
	store_close(s);
	assert_int_equal(access(def, F_OK), 0);
	assert_int_equal(store_open_existing(def, &s, err, sizeof err), 0);
	store_close(s);
	if (old)
		setenv("XDG_DATA_HOME", old, 1);
	else
		unsetenv("XDG_DATA_HOME");
	free(old);
	free(def);
	free(xdg);
	free(want);
	free(missing);
	free(typo);
}

static void test_migration_from_zero(void **state)
{
	(void)state;
	const char *p = path_of("old.db");
	sqlite3 *db;
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE keepme(x); INSERT INTO keepme VALUES (42);",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	char err[512];
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	assert_int_equal(store_found_version(s), 0);
	struct store_position pos = {3, 7, 250};
	assert_int_equal(store_set_position(s, "01-x", "en", &pos), 0);
	store_close(s);
	assert_int_equal(user_version(p), STORE_SCHEMA_VERSION);
	/* Data that was there is still there. */
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT x FROM keepme", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 42);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void test_newer_refused_untouched(void **state)
{
	(void)state;
	const char *p = path_of("newer.db");
	sqlite3 *db;
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE future(x); PRAGMA user_version=99;", NULL,
				      NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	char *before, *after;
	size_t nb, na;
	assert_int_equal(wb_read_file(p, &before, &nb), 0);
	char err[512] = "";
	struct store *s = (struct store *)1;
	assert_int_equal(store_open(p, &s, err, sizeof err), WB_ENEWER);
	assert_null(s);
	assert_non_null(strstr(err, "newer"));
	assert_non_null(strstr(err, "99"));
	assert_int_equal(wb_read_file(p, &after, &na), 0);
	assert_int_equal(na, nb);
	assert_memory_equal(before, after, nb);
	/* No WAL or journal side files were created either. */
	char side[400];
	snprintf(side, sizeof side, "%s-wal", p);
	assert_int_not_equal(access(side, F_OK), 0);
	free(before);
	free(after);
}

static void test_not_a_database(void **state)
{
	(void)state;
	const char *p = path_of("garbage.db");
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	for (int i = 0; i < 4096; i++)
		fputc((i * 7) & 0xFF, f);
	fclose(f);
	char err[512] = "";
	struct store *s;
	int rc = store_open(p, &s, err, sizeof err);
	assert_int_equal(rc, WB_ECORRUPT);
	assert_non_null(strstr(err, "garbage.db"));
}

static void test_position_across_reopen(void **state)
{
	(void)state;
	const char *p = path_of("pos.db");
	char err[512];
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	struct store_position pos;
	assert_int_equal(store_get_position(s, "01-x", "en", &pos), WB_ENOENT);
	pos = (struct store_position){12, 34, 600};
	assert_int_equal(store_set_position(s, "01-x", "en", &pos), 0);
	pos = (struct store_position){1, 2, 100};
	assert_int_equal(store_set_position(s, "01-x", "zh", &pos), 0);
	store_close(s);

	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	assert_int_equal(store_found_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_get_position(s, "01-x", "en", &pos), 0);
	assert_int_equal(pos.block, 12);
	assert_int_equal(pos.offset, 34);
	assert_int_equal(pos.furthest_permille, 600);
	/* Scrolling back keeps the furthest point. */
	pos = (struct store_position){2, 0, 50};
	assert_int_equal(store_set_position(s, "01-x", "en", &pos), 0);
	assert_int_equal(store_get_position(s, "01-x", "en", &pos), 0);
	assert_int_equal(pos.block, 2);
	assert_int_equal(pos.furthest_permille, 600);
	assert_int_equal(store_get_position(s, "01-x", "zh", &pos), 0);
	assert_int_equal(pos.block, 1);
	/* Quotes and SQL in ids are data, not code. */
	pos = (struct store_position){5, 5, 5};
	assert_int_equal(store_set_position(s, "x'); DROP TABLE reading; --", "en", &pos), 0);
	assert_int_equal(store_get_position(s, "01-x", "en", &pos), 0);
	store_close(s);
}

static void test_lab_runs(void **state)
{
	(void)state;
	const char *p = path_of("labs.db");
	char err[512];
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	assert_int_equal(store_lab_passed(s, "zk-cas"), 0);
	assert_int_equal(store_add_lab_run(s, "zk-cas", 1, 900, "[]"), 0);
	assert_int_equal(store_lab_passed(s, "zk-cas"), 0);
	assert_int_equal(store_add_lab_run(s, "zk-cas", 0, 812, "[{\"t\":\"verdict\"}]"), 0);
	assert_int_equal(store_lab_passed(s, "zk-cas"), 1);
	assert_int_equal(store_lab_passed(s, "zk-cas'--"), 0);
	store_close(s);
	/* Runs survive a reopen. */
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	assert_int_equal(store_lab_passed(s, "zk-cas"), 1);
	store_close(s);
}

static void test_default_path(void **state)
{
	(void)state;
	struct testlib_env *env = testlib_env_new();
	testlib_env_set(env, "WORKBENCH_DB", "/tmp/from-env.db");
	char *p = store_default_path(NULL);
	assert_string_equal(p, "/tmp/from-env.db");
	free(p);
	p = store_default_path("/x/explicit.db");
	assert_string_equal(p, "/x/explicit.db");
	free(p);
	testlib_env_set(env, "WORKBENCH_DB", NULL);
	testlib_env_set(env, "XDG_DATA_HOME", "/data");
	p = store_default_path(NULL);
	assert_string_equal(p, "/data/workbench/progress.db");
	free(p);
	testlib_env_set(env, "XDG_DATA_HOME", NULL);
	testlib_env_set(env, "HOME", "/home/u");
	p = store_default_path(NULL);
	assert_string_equal(p, "/home/u/.local/share/workbench/progress.db");
	free(p);
	testlib_env_free(env);
}

/* Reads a whole file into *buf (caller frees); its size. */
static size_t slurp(const char *p, char **buf)
{
	size_t n = 0;
	assert_int_equal(wb_read_file(p, buf, &n), 0);
	return n;
}

/* F11: an empty file this open did not create is refused untouched; one
 * it creates itself is a new database. */
static void test_empty_file_refused(void **state)
{
	(void)state;
	const char *p = path_of("empty.db");
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	fclose(f);
	char err[STORE_ERRLEN] = "";
	struct store *s = (struct store *)1;
	assert_int_equal(store_open(p, &s, err, sizeof err), WB_ECORRUPT);
	assert_null(s);
	assert_non_null(
		strstr(err, "is an empty file, not a progress database; nothing was written"));
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 0);
	char side[400];
	snprintf(side, sizeof side, "%s-wal", p);
	assert_int_not_equal(access(side, F_OK), 0);
	assert_int_equal(store_open_existing(p, &s, err, sizeof err), WB_ECORRUPT);
}

/* F11: a file whose pages are damaged (quick_check fails) is refused
 * before anything is written, bytes unchanged, by both opens. */
static void test_damaged_refused(void **state)
{
	(void)state;
	const char *p = path_of("damaged.db");
	char err[STORE_ERRLEN] = "";
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	char ev[2000];
	memset(ev, 'e', sizeof ev - 1);
	ev[sizeof ev - 1] = '\0';
	for (int i = 0; i < 60; i++)
		assert_int_equal(store_add_lab_run(s, "zk-cas", 0, i, ev), 0);
	store_close(s); /* the last close checkpoints: the pages are in the file */
	char *buf;
	size_t n = slurp(p, &buf);
	assert_true(n > 20 * 4096);
	/* The page type byte of the last page, a lab_runs leaf: garbage. */
	FILE *f = fopen(p, "r+b");
	assert_non_null(f);
	fseek(f, (long)(n - 4096), SEEK_SET);
	fputc(0x55, f);
	fclose(f);
	free(buf);
	char *before, *after;
	size_t nb = slurp(p, &before);
	assert_int_equal(store_open(p, &s, err, sizeof err), WB_ECORRUPT);
	assert_null(s);
	assert_non_null(strstr(err, "damaged.db is damaged (quick_check: "));
	assert_non_null(strstr(err, "nothing was written: restore a backup or move it away"));
	assert_int_equal(store_open_existing(p, &s, err, sizeof err), WB_ECORRUPT);
	size_t na = slurp(p, &after);
	assert_int_equal(na, nb);
	assert_memory_equal(before, after, nb);
	free(before);
	free(after);
}

/* F7: a write the database has no room for is WB_ENOSPC, and the message
 * is the cause, not what the rollback after it said. */
static void test_full_keeps_cause(void **state)
{
	(void)state;
	const char *p = path_of("full.db");
	char err[STORE_ERRLEN] = "";
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	store_close(s);
	struct testlib_env *env = testlib_env_new();
	testlib_env_set(env, "WORKBENCH_TEST", "1"); /* the seams are off without it */
	testlib_env_set(env, "WORKBENCH_TEST_DB_SPARE_PAGES", "2");
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	char *big = wb_xcalloc(1, 100000);
	memset(big, 'x', 99999);
	assert_int_equal(store_add_lab_run(s, "zk-cas", 0, 1, big), WB_ENOSPC);
	assert_non_null(strstr(store_errmsg(s), "full"));
	/* Smaller writes still fit, and the full one never landed. */
	assert_int_equal(store_add_lab_run(s, "zk-cas", 1, 1, "[]"), 0);
	assert_int_equal(store_lab_passed(s, "zk-cas"), 0);
	store_close(s);
	free(big);
	testlib_env_free(env);
}

/* F8: a file another connection holds in locking_mode=EXCLUSIVE is
 * WB_EBUSY with "locked by another program", not "not usable". */
static void test_locked_at_open(void **state)
{
	(void)state;
	const char *p = path_of("locked.db");
	char err[STORE_ERRLEN] = "";
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	store_close(s);
	sqlite3 *holder;
	assert_int_equal(sqlite3_open(p, &holder), SQLITE_OK);
	assert_int_equal(sqlite3_exec(holder,
				      "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; "
				      "SELECT count(*) FROM lab_runs;",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(store_open_busy(p, 50, &s, err, sizeof err), WB_EBUSY);
	assert_null(s);
	assert_non_null(strstr(err, "locked.db is locked by another program"));
	assert_null(strstr(err, "not a usable"));
	sqlite3_close(holder);
	assert_int_equal(store_open_busy(p, 50, &s, err, sizeof err), 0);
	store_close(s);
}

/* F15: a path longer than SQLite opens says so, with the reason whole
 * in a STORE_ERRLEN buffer. */
static void test_path_too_long(void **state)
{
	(void)state;
	char *p = wb_xasprintf("%s/%0600d.db", dir, 0);
	char err[STORE_ERRLEN] = "";
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), WB_ERANGE);
	char *want = wb_xasprintf("path too long (%zu characters; SQLite's limit is", strlen(p));
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "choose a shorter --db path"));
	assert_int_not_equal(access(p, F_OK), 0);
	free(want);
	free(p);
}

/* F17: a new file is 0600 and the default folder 0700 whatever the umask. */
static void test_new_files_private(void **state)
{
	(void)state;
	mode_t old = umask(0);
	char err[STORE_ERRLEN] = "";
	struct store *s;
	const char *p = path_of("private.db");
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	store_close(s);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	struct testlib_env *env = testlib_env_new();
	char *xdg = wb_xstrdup(path_of("xdg-private"));
	testlib_env_set(env, "WORKBENCH_DB", NULL);
	testlib_env_set(env, "XDG_DATA_HOME", xdg);
	char *def = store_default_path(NULL);
	assert_int_equal(store_open(def, &s, err, sizeof err), 0);
	store_close(s);
	assert_int_equal(stat(def, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	char *folder = wb_xasprintf("%s/workbench", xdg);
	assert_int_equal(stat(folder, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	umask(old);
	free(folder);
	free(def);
	free(xdg);
	testlib_env_free(env);
}

/* F13: no HOME is the password database's home, never the current
 * directory; a relative XDG_DATA_HOME is ignored; no place at all is a
 * message. */
static void test_no_home(void **state)
{
	(void)state;
	struct testlib_env *env = testlib_env_new();
	testlib_env_set(env, "WORKBENCH_DB", NULL);
	testlib_env_set(env, "XDG_DATA_HOME", "relative/data");
	testlib_env_set(env, "HOME", "/home/u");
	char *p = store_default_path(NULL);
	assert_string_equal(p, "/home/u/.local/share/workbench/progress.db");
	free(p);
	testlib_env_set(env, "HOME", "");
	p = store_default_path(NULL);
	if (p) /* a home from the password database: absolute */
		assert_int_equal(p[0], '/');
	free(p);
	char err[STORE_ERRLEN] = "";
	struct store *s;
	assert_int_equal(store_open(NULL, &s, err, sizeof err), WB_ENOENT);
	assert_non_null(strstr(err, "no place for the progress database: HOME is not set"));
	testlib_env_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_create),
		cmocka_unit_test(test_folders_and_existing),
		cmocka_unit_test(test_migration_from_zero),
		cmocka_unit_test(test_newer_refused_untouched),
		cmocka_unit_test(test_not_a_database),
		cmocka_unit_test(test_position_across_reopen),
		cmocka_unit_test(test_lab_runs),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_empty_file_refused),
		cmocka_unit_test(test_damaged_refused),
		cmocka_unit_test(test_full_keeps_cause),
		cmocka_unit_test(test_locked_at_open),
		cmocka_unit_test(test_path_too_long),
		cmocka_unit_test(test_new_files_private),
		cmocka_unit_test(test_no_home),
	};
	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
