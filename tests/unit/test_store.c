/* test_store.c - progress database: creation, migration, refusal of a
 * newer schema (file untouched), positions across reopen. */
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
	};
	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
