/* test_sqlfile.c - the named-statement file of the SQL exercises
 * (labs/harness/sqlfile.h): statements split at "-- name:" lines, comments
 * before the first one allowed, and each refusal with its file:line (SQL
 * before a name, a bad name, a duplicate, an empty statement, a NUL byte);
 * preparing by name on a real in-memory SQLite (an unknown name, a syntax
 * error on its own line, two statements under one name); binding from a
 * table (an unknown, an unnamed and a missing required parameter). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "base/wb.h"
#include "harness/sqlfile.h"

static struct sqlfile *parse_ok(const char *text)
{
	struct sqlfile *f = NULL;
	char err[SQLFILE_ERROR_MAX];
	int rc = sqlfile_parse("t.sql", text, strlen(text), &f, err, sizeof err);
	if (rc)
		fail_msg("parse: %s", err);
	return f;
}

/* Parses text, which must fail with a message starting with want. */
static void parse_bad(const char *text, const char *want)
{
	struct sqlfile *f = NULL;
	char err[SQLFILE_ERROR_MAX] = "";
	int rc = sqlfile_parse("t.sql", text, strlen(text), &f, err, sizeof err);
	assert_int_equal(rc, WB_EINVAL);
	assert_null(f);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("want '%s...', got '%s'", want, err);
}

static void test_split(void **state)
{
	(void)state;
	struct sqlfile *f = parse_ok("-- expect-fail: x\n"
				     "\n"
				     "-- name: claim\n"
				     "UPDATE t SET a = 1\n"
				     "  WHERE b = :b;\n"
				     "--name:complete  \r\n"
				     "-- a comment inside\n"
				     "SELECT 1");
	assert_int_equal(f->n, 2);
	assert_string_equal(f->st[0].name, "claim");
	assert_int_equal(f->st[0].line, 3);
	assert_string_equal(f->st[0].sql, "UPDATE t SET a = 1\n  WHERE b = :b;\n");
	assert_string_equal(f->st[1].name, "complete");
	assert_int_equal(f->st[1].line, 6);
	assert_string_equal(f->st[1].sql, "-- a comment inside\nSELECT 1");
	assert_ptr_equal(sqlfile_find(f, "complete"), &f->st[1]);
	assert_null(sqlfile_find(f, "renew"));
	sqlfile_free(f);
}

static void test_refusals(void **state)
{
	(void)state;
	parse_bad("-- top\nSELECT 1;\n-- name: a\nSELECT 2;\n", "t.sql:2: SQL before the first");
	parse_bad("-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;\n",
		  "t.sql:3: duplicate statement name 'a' (first at line 1)");
	parse_bad("-- name: a\n\n  -- only a comment\n-- name: b\nSELECT 1;\n",
		  "t.sql:1: statement 'a' is empty");
	parse_bad("-- name: a\nSELECT 1;\n-- name: b\n", "t.sql:3: statement 'b' is empty");
	parse_bad("-- name: 1a\nSELECT 1;\n", "t.sql:1: bad statement name");
	parse_bad("-- name: a b\nSELECT 1;\n", "t.sql:1: bad statement name");
	parse_bad("-- name:\nSELECT 1;\n", "t.sql:1: bad statement name");
	parse_bad(
		"-- name: "
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nSELECT 1;\n",
		"t.sql:1: bad statement name");
	parse_bad("", "t.sql: no statement");
	parse_bad("-- just a comment\n", "t.sql: no statement");
	struct sqlfile *f = NULL;
	char err[SQLFILE_ERROR_MAX];
	assert_int_equal(sqlfile_parse("t.sql", "-- name: a\nSELECT\0 1", 20, &f, err, sizeof err),
			 WB_EINVAL);
	assert_non_null(strstr(err, "NUL byte"));
	assert_int_equal(sqlfile_load("/nonexistent/x.sql", &f, err, sizeof err), WB_ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.sql: cannot read"));
}

static sqlite3 *memdb(void)
{
	sqlite3 *db = NULL;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (a INTEGER, b TEXT)", NULL, NULL, NULL),
			 SQLITE_OK);
	return db;
}

static void test_prepare(void **state)
{
	(void)state;
	sqlite3 *db = memdb();
	struct sqlfile *f = parse_ok("-- name: ok\n"
				     "INSERT INTO t (a, b) VALUES (:a, :b); -- trailing\n"
				     "-- name: typo\n"
				     "SELECT a\n"
				     "  FROM t WHER a = 1;\n"
				     "-- name: two\n"
				     "SELECT 1;\n"
				     "SELECT 2;\n");
	sqlite3_stmt *st = NULL;
	char err[SQLFILE_ERROR_MAX];
	assert_int_equal(sqlfile_prepare(db, f, "ok", &st, err, sizeof err), 0);
	assert_non_null(st);
	sqlite3_finalize(st);
	assert_int_equal(sqlfile_prepare(db, f, "typo", &st, err, sizeof err), WB_EINVAL);
	assert_null(st);
	if (strncmp(err, "t.sql:5: typo: ", 15) != 0)
		fail_msg("got '%s'", err);
	assert_int_equal(sqlfile_prepare(db, f, "two", &st, err, sizeof err), WB_EINVAL);
	assert_null(st);
	if (strncmp(err, "t.sql:8: two: a second statement", 32) != 0)
		fail_msg("got '%s'", err);
	assert_int_equal(sqlfile_prepare(db, f, "claim", &st, err, sizeof err), WB_ENOENT);
	assert_string_equal(err, "t.sql: no statement named 'claim' (the file has: ok, typo, two)");
	sqlfile_free(f);
	sqlite3_close(db);
}

static void test_bind(void **state)
{
	(void)state;
	sqlite3 *db = memdb();
	struct sqlfile *f = parse_ok("-- name: ins\nINSERT INTO t (a, b) VALUES (:a, :b);\n"
				     "-- name: unknown\nINSERT INTO t (a) VALUES (:c);\n"
				     "-- name: unnamed\nINSERT INTO t (a) VALUES (?);\n"
				     "-- name: partial\nINSERT INTO t (b) VALUES (:b);\n");
	const struct sqlfile_param params[] = {
		{":a", SQLFILE_INT, 42, NULL, 1},
		{":b", SQLFILE_TEXT, 0, "it's", 0},
		{":n", SQLFILE_NULL, 0, NULL, 0},
	};
	sqlite3_stmt *st = NULL;
	char err[SQLFILE_ERROR_MAX];
	assert_int_equal(sqlfile_prepare(db, f, "ins", &st, err, sizeof err), 0);
	assert_int_equal(sqlfile_bind(st, "ins", params, 3, err, sizeof err), 0);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT a, b FROM t", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(st, 0), 42);
	assert_string_equal((const char *)sqlite3_column_text(st, 1), "it's");
	sqlite3_finalize(st);

	assert_int_equal(sqlfile_prepare(db, f, "unknown", &st, err, sizeof err), 0);
	assert_int_equal(sqlfile_bind(st, "unknown", params, 3, err, sizeof err), WB_EINVAL);
	assert_string_equal(err, "unknown: unknown parameter :c (offered: :a, :b, :n)");
	sqlite3_finalize(st);
	assert_int_equal(sqlfile_prepare(db, f, "unnamed", &st, err, sizeof err), 0);
	assert_int_equal(sqlfile_bind(st, "unnamed", params, 3, err, sizeof err), WB_EINVAL);
	assert_non_null(strstr(err, "parameter 1 has no name"));
	sqlite3_finalize(st);
	assert_int_equal(sqlfile_prepare(db, f, "partial", &st, err, sizeof err), 0);
	assert_int_equal(sqlfile_bind(st, "partial", params, 3, err, sizeof err), WB_EINVAL);
	assert_string_equal(err, "partial: does not use :a, which it needs");
	sqlite3_finalize(st);
	sqlfile_free(f);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_bind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
