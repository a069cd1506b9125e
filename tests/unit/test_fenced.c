/* test_fenced.c - the fenced resource on real SQLite files: a lower token
 * is rejected with data and mark unchanged, an equal one is accepted, a
 * higher one advances the mark; the mark survives close and reopen; marks
 * are per domain; quotes in data are stored as data; the unfenced control
 * accepts a stale token; and compare and write cannot be separated: while
 * one write sits between reading the mark and writing, no other
 * connection can commit; a replacement write (the exercise's) may refuse
 * before its transaction, and the before-transaction hook lets another
 * connection write first. */
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
#include "recipes/fenced.h"
#include "testlib.h"

static char dir[256];
static char dbp[320];

static int setup(void **state)
{
	(void)state;
	if (testlib_tmpdir("fenced", dir, sizeof dir) != 0)
		return -1;
	snprintf(dbp, sizeof dbp, "%s/resource.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return testlib_rmtree(dir) == 0 ? 0 : -1;
}

static struct fenced *open_res(enum fenced_mode mode, int busy_ms)
{
	struct fenced *f = NULL;
	struct fenced_opts o = {.mode = mode, .busy_timeout_ms = busy_ms};
	char err[512];
	if (fenced_open(dbp, &o, &f, err, sizeof err))
		fail_msg("open: %s", err);
	return f;
}

static void expect_state(struct fenced *f, const char *domain, int64_t mark, const char *value)
{
	int64_t m = -7;
	char *v = NULL;
	assert_int_equal(fenced_read(f, domain, &m, &v), 0);
	assert_int_equal(m, mark);
	assert_string_equal(v, value);
	free(v);
}

static void test_lower_equal_higher(void **state)
{
	(void)state;
	struct fenced *f = open_res(FENCED_ON, 0);
	struct fenced_result r;
	assert_int_equal(fenced_read(f, "/locks/r", NULL, NULL), WB_ENOENT);

	assert_int_equal(fenced_write(f, "/locks/r", 7, "first", &r), 0);
	assert_true(r.accepted);
	assert_int_equal(r.mark_before, -1);
	assert_int_equal(r.mark_after, 7);

	/* Lower: rejected, nothing changes. */
	assert_int_equal(fenced_write(f, "/locks/r", 6, "stale", &r), 0);
	assert_false(r.accepted);
	assert_int_equal(r.mark_before, 7);
	assert_int_equal(r.mark_after, 7);
	expect_state(f, "/locks/r", 7, "first");

	/* Equal: the current holder goes on. */
	assert_int_equal(fenced_write(f, "/locks/r", 7, "second", &r), 0);
	assert_true(r.accepted);
	assert_int_equal(r.mark_after, 7);
	expect_state(f, "/locks/r", 7, "second");

	/* Higher: advances the mark; the old token is now stale. */
	assert_int_equal(fenced_write(f, "/locks/r", 12, "new-owner", &r), 0);
	assert_true(r.accepted);
	assert_int_equal(r.mark_before, 7);
	assert_int_equal(r.mark_after, 12);
	assert_int_equal(fenced_write(f, "/locks/r", 7, "stale-late", &r), 0);
	assert_false(r.accepted);
	expect_state(f, "/locks/r", 12, "new-owner");
	fenced_free(f);
}

static void test_reopen_keeps_mark(void **state)
{
	(void)state;
	struct fenced *f = open_res(FENCED_ON, 0);
	struct fenced_result r;
	assert_int_equal(fenced_write(f, "d", 41, "new-owner", &r), 0);
	assert_true(r.accepted);
	fenced_free(f);

	f = open_res(FENCED_ON, 0);
	expect_state(f, "d", 41, "new-owner");
	assert_int_equal(fenced_write(f, "d", 40, "stale-late", &r), 0);
	assert_false(r.accepted);
	assert_int_equal(r.mark_before, 41);
	expect_state(f, "d", 41, "new-owner");
	fenced_free(f);
}

static void test_domains_are_separate(void **state)
{
	(void)state;
	struct fenced *f = open_res(FENCED_ON, 0);
	struct fenced_result r;
	assert_int_equal(fenced_write(f, "/locks/a", 100, "a", &r), 0);
	assert_int_equal(fenced_write(f, "/locks/b", 1, "b", &r), 0);
	assert_true(r.accepted);
	assert_int_equal(r.mark_before, -1);
	expect_state(f, "/locks/a", 100, "a");
	expect_state(f, "/locks/b", 1, "b");
	fenced_free(f);
}

static void test_quotes_are_data(void **state)
{
	(void)state;
	const char *evil = "x'); DROP TABLE fenced_resource; --\"";
	const char *dom = "o'brien\"; DELETE FROM fenced_resource; --";
	struct fenced *f = open_res(FENCED_ON, 0);
	struct fenced_result r;
	assert_int_equal(fenced_write(f, dom, 3, evil, &r), 0);
	assert_true(r.accepted);
	assert_int_equal(fenced_write(f, "other", 1, "kept", &r), 0);
	expect_state(f, dom, 3, evil);
	expect_state(f, "other", 1, "kept");
	fenced_free(f);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	struct fenced *f = open_res(FENCED_ON, 0);
	struct fenced_result r;
	assert_int_equal(fenced_write(f, "d", -1, "v", &r), WB_EINVAL);
	assert_false(r.accepted);
	assert_int_equal(fenced_write(f, "", 1, "v", &r), WB_EINVAL);
	assert_int_equal(fenced_write(f, "d", 1, NULL, &r), WB_EINVAL);
	assert_int_equal(fenced_read(f, "d", NULL, NULL), WB_ENOENT);
	fenced_free(f);

	struct fenced *g = NULL;
	char err[512] = "";
	assert_int_equal(fenced_open("/nonexistent-dir-wb/x.db", NULL, &g, err, sizeof err),
			 WB_ENOENT); /* base/sqlitex: SQLITE_CANTOPEN */
	assert_null(g);
	assert_non_null(strstr(err, "/nonexistent-dir-wb/x.db"));
}

static void test_unfenced_control_accepts_stale(void **state)
{
	(void)state;
	struct fenced *f = open_res(FENCED_OFF, 0);
	struct fenced_result r;
	assert_int_equal(fenced_get_mode(f), FENCED_OFF);
	assert_int_equal(fenced_write(f, "d", 2, "new-owner", &r), 0);
	assert_int_equal(fenced_write(f, "d", 1, "stale-late", &r), 0);
	assert_true(r.accepted);
	expect_state(f, "d", 1, "stale-late");
	fenced_free(f);
}

/* While writer A is inside its transaction (mark read, write not yet
 * done), another connection tries to slip in a higher token. */
struct intruder {
	int calls;	   /* times the hook ran */
	int raw_rc;	   /* sqlite3 result of a raw UPDATE from another connection */
	int fenced_rc;	   /* fenced_write result from another fenced object */
	int64_t seen_mark; /* what a reader saw meanwhile */
	char seen_val[64]; /* and its value */
};

static void intrude(void *arg, struct fenced *f, const char *domain, int64_t token)
{
	(void)f;
	(void)token;
	struct intruder *in = arg;
	in->calls++;

	sqlite3 *db = NULL;
	assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 0);
	in->raw_rc = sqlite3_exec(db, "UPDATE fenced_resource SET mark = 99, value = 'intruder'",
				  NULL, NULL, NULL);
	sqlite3_close(db);

	struct fenced *b = open_res(FENCED_ON, -1);
	struct fenced_result r;
	in->fenced_rc = fenced_write(b, domain, 50, "intruder", &r);
	assert_false(r.accepted);
	char *v = NULL;
	assert_int_equal(fenced_read(b, domain, &in->seen_mark, &v), 0);
	snprintf(in->seen_val, sizeof in->seen_val, "%s", v);
	free(v);
	fenced_free(b);
}

static void test_compare_and_write_are_one_transaction(void **state)
{
	(void)state;
	struct fenced *a = open_res(FENCED_ON, 0);
	struct fenced_result r;
	assert_int_equal(fenced_write(a, "d", 5, "before", &r), 0);

	struct intruder in = {0};
	fenced_set_hook(a, intrude, &in);
	assert_int_equal(fenced_write(a, "d", 5, "holder", &r), 0);
	fenced_set_hook(a, NULL, NULL);

	assert_int_equal(in.calls, 1);
	assert_int_equal(in.raw_rc, SQLITE_BUSY);
	assert_int_equal(in.fenced_rc, WB_EBUSY);
	/* A reader meanwhile sees the committed state, not a half-done one. */
	assert_int_equal(in.seen_mark, 5);
	assert_string_equal(in.seen_val, "before");
	/* A's write, decided against mark 5, went in; nobody else did. */
	assert_true(r.accepted);
	assert_int_equal(r.mark_before, 5);
	expect_state(a, "d", 5, "holder");
	fenced_free(a);
}

/* A replacement write that refuses before its transaction when asked to,
 * and otherwise writes unconditionally (a check-then-write). */
struct repl {
	int refuse;
	int before_calls, in_calls;
};

static int repl_write(void *arg, sqlite3 *db, enum fenced_write_phase phase, const char *domain,
		      int64_t token, const char *value, int *out, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct repl *x = arg;
	if (phase == FENCED_WRITE_BEFORE) {
		x->before_calls++;
		*out = !x->refuse;
		return 0;
	}
	x->in_calls++;
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(
		    db,
		    "INSERT INTO fenced_resource(domain, mark, value) VALUES (?1, ?2, ?3)"
		    " ON CONFLICT(domain) DO UPDATE SET mark = excluded.mark,"
		    " value = excluded.value",
		    -1, &st, NULL) != SQLITE_OK)
		return WB_EIO;
	sqlite3_bind_text(st, 1, domain, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, token);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_TRANSIENT);
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	*out = sqlite3_changes(db);
	return s == SQLITE_DONE ? 0 : WB_EIO;
}

/* Another connection writes from the before-transaction hook. */
struct between {
	struct fenced *other;
	int64_t token;
	int rc;
};

static void other_writes(void *arg, struct fenced *f, const char *domain, int64_t token)
{
	(void)f;
	(void)token;
	struct between *b = arg;
	struct fenced_result r;
	b->rc = fenced_write(b->other, domain, b->token, "between", &r);
}

static void test_replacement_and_before_hook(void **state)
{
	(void)state;
	struct fenced *f = open_res(FENCED_ON, 0), *g = open_res(FENCED_ON, 0);
	struct fenced_result r;
	struct repl x = {.refuse = 1};
	fenced_set_write(f, repl_write, &x);
	assert_int_equal(fenced_write(f, "/d", 5, "refused", &r), 0);
	assert_false(r.accepted);
	assert_int_equal(x.in_calls, 0);
	assert_int_equal(fenced_read(f, "/d", NULL, NULL), WB_ENOENT);
	x.refuse = 0;
	assert_int_equal(fenced_write(f, "/d", 5, "five", &r), 0);
	assert_true(r.accepted && r.mark_after == 5 && x.in_calls == 1);
	/* The hook runs outside the transaction: g's write lands first, and
	 * the unconditional replacement overwrites it (the race it shows). */
	struct between b = {.other = g, .token = 9, .rc = -1};
	fenced_set_before_hook(f, other_writes, &b);
	assert_int_equal(fenced_write(f, "/d", 5, "late", &r), 0);
	assert_int_equal(b.rc, 0);
	assert_true(r.accepted && r.mark_before == 9);
	expect_state(f, "/d", 5, "late");
	/* The recipe's own statement, same hook: the late write is rejected. */
	fenced_set_write(f, NULL, NULL);
	b.token = 12;
	assert_int_equal(fenced_write(f, "/d", 11, "late-again", &r), 0);
	assert_false(r.accepted);
	expect_state(f, "/d", 12, "between");
	fenced_free(f);
	fenced_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replacement_and_before_hook, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lower_equal_higher, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reopen_keeps_mark, setup, teardown),
		cmocka_unit_test_setup_teardown(test_domains_are_separate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quotes_are_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unfenced_control_accepts_stale, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_compare_and_write_are_one_transaction, setup,
						teardown),
	};
	return cmocka_run_group_tests_name("fenced", tests, NULL, NULL);
}
