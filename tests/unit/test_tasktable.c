/* test_tasktable.c - the task table recipe against real SQLite files:
 * every transition, every 0-row case, the attempt budget and backoff,
 * cancel in both orders, recovery by claim_id, the lost-reply hook, the
 * schema's own checks, the monitor's figures, and the claim-conflict
 * counters and alarm rule.  The clock is the
 * database's fixed clock, so no test sleeps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "base/wb.h"
#include "base/sqlitex.h"
#include "recipes/tasktable.h"
#include "testlib.h"

#define SCHEMA WB_SOURCE_DIR "/data/tasks.sql"

struct fx {
	char dir[64];
	char path[128];
	struct tasktable *tt;
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	if (testlib_tmpdir("tasktable", f->dir, sizeof f->dir) != 0)
		return -1;
	snprintf(f->path, sizeof f->path, "%s/tasks.db", f->dir);
	char err[256];
	if (tasktable_open(f->path, SCHEMA, NULL, &f->tt, err, sizeof err) != 0) {
		fprintf(stderr, "open: %s\n", err);
		return -1;
	}
	if (tasktable_clock_set(f->tt, 100) != 0)
		return -1;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	tasktable_close(f->tt);
	int rc = testlib_rmtree(f->dir);
	free(f);
	return rc == 0 ? 0 : -1;
}

static struct task_row row(struct tasktable *tt, const char *id)
{
	struct task_row r;
	assert_int_equal(tasktable_get(tt, id, &r), 0);
	return r;
}

static void test_schema_applied_once_and_newer_refused(void **state)
{
	struct fx *f = *state;
	/* A second opener finds the schema and leaves the data alone. */
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	struct tasktable *again = NULL;
	char err[256];
	assert_int_equal(tasktable_open(f->path, SCHEMA, NULL, &again, err, sizeof err), 0);
	struct task_row r = row(again, "T1");
	assert_int_equal(r.state, TASK_READY);
	assert_int_equal(r.max_attempts, 3); /* the schema's default */
	tasktable_close(again);

	assert_int_equal(sqlitex_exec(tasktable_db(f->tt), "PRAGMA user_version = 7"), 0);
	assert_int_equal(tasktable_open(f->path, SCHEMA, NULL, &again, err, sizeof err), WB_ENEWER);
	assert_null(again);
	assert_non_null(strstr(err, "schema 7"));
	/* An older schema is refused too, with the way out in the message. */
	assert_int_equal(sqlitex_exec(tasktable_db(f->tt), "PRAGMA user_version = 1"), 0);
	assert_int_equal(tasktable_open(f->path, SCHEMA, NULL, &again, err, sizeof err), WB_EINVAL);
	assert_null(again);
	assert_non_null(strstr(err, "schema 1 from an older build"));
}

static void test_bad_schema_reports_file_and_line(void **state)
{
	struct fx *f = *state;
	char bad[160], db[160], err[256];
	snprintf(bad, sizeof bad, "%s/bad.sql", f->dir);
	snprintf(db, sizeof db, "%s/bad.db", f->dir);
	FILE *fp = fopen(bad, "w");
	assert_non_null(fp);
	fputs("CREATE TABLE a (x INTEGER);\n\nCREATE TABLE oops (;\n", fp);
	fclose(fp);
	struct tasktable *tt = NULL;
	assert_int_not_equal(tasktable_open(db, bad, NULL, &tt, err, sizeof err), 0);
	assert_null(tt);
	char want[200];
	snprintf(want, sizeof want, "%s:3:", bad);
	assert_non_null(strstr(err, want));
	/* The failed script left no half schema behind. */
	assert_int_equal(tasktable_open(db, SCHEMA, NULL, &tt, err, sizeof err), 0);
	tasktable_close(tt);
	/* A missing schema file is named. */
	snprintf(db, sizeof db, "%s/none.db", f->dir);
	snprintf(bad, sizeof bad, "%s/missing.sql", f->dir);
	assert_int_equal(tasktable_open(db, bad, NULL, &tt, err, sizeof err), WB_ENOENT);
	assert_non_null(strstr(err, "missing.sql"));
}

static void test_schema_checks(void **state)
{
	struct fx *f = *state;
	sqlite3 *db = tasktable_db(f->tt);
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	/* Unknown state, RUNNING without a lease, a duplicate task. */
	assert_int_equal(sqlitex_exec(db, "UPDATE task SET state = 'DONE'"), WB_EINVAL);
	assert_int_equal(sqlitex_exec(db, "UPDATE task SET state = 'RUNNING'"), WB_EINVAL);
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), WB_EINVAL);
	assert_int_equal(tasktable_add(f->tt, "", 100, NULL), WB_EINVAL);
	struct task_opts bad = {.max_attempts = 31};
	assert_int_not_equal(tasktable_add(f->tt, "T2", 100, &bad), 0);
	/* The failed add was rolled back as a whole. */
	struct task_row r;
	assert_int_equal(tasktable_get(f->tt, "T2", &r), WB_ENOENT);
}

static void test_claim_once(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T7", 100, NULL), 0);
	struct task_claim a, b;
	assert_int_equal(tasktable_claim(f->tt, "T7", "A", 30, &a), 0);
	assert_int_equal(a.outcome, TASK_OUTCOME_WON);
	assert_int_equal(a.version, 1);
	assert_int_equal(a.attempt, 1);
	assert_int_equal(a.lease_until, 130);
	assert_int_equal(a.claimed_at, 100);
	assert_int_equal(strlen(a.claim_id), 32);
	/* Another connection to the same file: same statement, 0 rows. */
	struct tasktable *other;
	assert_int_equal(tasktable_open(f->path, SCHEMA, NULL, &other, NULL, 0), 0);
	assert_int_equal(tasktable_claim(other, "T7", "B", 30, &b), TASK_ELOST);
	assert_int_equal(b.outcome, TASK_OUTCOME_LOST);
	assert_int_equal(b.version, 0);
	assert_string_not_equal(a.claim_id, b.claim_id); /* fresh per request */
	tasktable_close(other);
	struct task_row r = row(f->tt, "T7");
	assert_int_equal(r.state, TASK_RUNNING);
	assert_string_equal(r.owner, "A");
	assert_string_equal(r.claim_id, a.claim_id);
	assert_int_equal(r.claim_version, 1);
	/* At the lease end exactly the lease still holds for nobody else. */
	assert_int_equal(tasktable_clock_set(f->tt, 129), 0);
	assert_int_equal(tasktable_claim(f->tt, "T7", "B", 30, &b), TASK_ELOST);
	/* No such task, not due yet. */
	assert_int_equal(tasktable_claim(f->tt, "nope", "B", 30, &b), TASK_ELOST);
	assert_int_equal(tasktable_add(f->tt, "later", 500, NULL), 0);
	assert_int_equal(tasktable_claim(f->tt, "later", "B", 30, &b), TASK_ELOST);
	assert_int_equal(tasktable_clock_set(f->tt, 500), 0);
	assert_int_equal(tasktable_claim(f->tt, "later", "B", 30, &b), 0);
}

static void test_bad_arguments(void **state)
{
	struct fx *f = *state;
	struct task_claim c;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "", 30, &c), WB_EINVAL);
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 0, &c), WB_EINVAL);
	char longname[80];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	assert_int_equal(tasktable_claim(f->tt, longname, "A", 30, &c), WB_EINVAL);
	assert_int_equal(tasktable_recover_by_claim_id(f->tt, "T1", "short", &c), WB_EINVAL);
	struct task_claim none = {0};
	assert_int_equal(tasktable_complete(f->tt, &none), WB_EINVAL);
	/* Nothing changed. */
	assert_int_equal(row(f->tt, "T1").claim_version, 0);
}

/* The lesson's T7 trace, rows and all. */
static void test_takeover_and_late_writes(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T7", 100, NULL), 0);
	struct task_claim a, b;
	assert_int_equal(tasktable_claim(f->tt, "T7", "A", 30, &a), 0);
	assert_int_equal(tasktable_claim(f->tt, "T7", "B", 30, &b), TASK_ELOST);
	assert_int_equal(tasktable_clock_set(f->tt, 131), 0);
	assert_int_equal(tasktable_claim(f->tt, "T7", "B", 30, &b), 0);
	assert_int_equal(b.version, 2);
	assert_int_equal(b.attempt, 2);
	assert_int_equal(b.lease_until, 161);
	assert_int_equal(tasktable_clock_set(f->tt, 132), 0);
	long long until = 0;
	assert_int_equal(tasktable_renew(f->tt, &a, 30, &until, NULL), TASK_ELOST);
	assert_int_equal(until, 0);
	assert_int_equal(tasktable_clock_set(f->tt, 133), 0);
	assert_int_equal(tasktable_complete(f->tt, &a), TASK_ELOST);
	assert_int_equal(tasktable_fail(f->tt, &a, "late", NULL, NULL), TASK_ELOST);
	int req = 0;
	assert_int_equal(tasktable_check(f->tt, &a, &req), TASK_ELOST);
	struct task_row r = row(f->tt, "T7");
	assert_int_equal(r.state, TASK_RUNNING);
	assert_string_equal(r.owner, "B");
	assert_int_equal(r.claim_version, 2);
	assert_int_equal(tasktable_clock_set(f->tt, 150), 0);
	assert_int_equal(tasktable_complete(f->tt, &b), 0);
	r = row(f->tt, "T7");
	assert_int_equal(r.state, TASK_SUCCEEDED);
	assert_int_equal(r.lease_until, -1);
	/* Terminal: nobody claims it again, however late. */
	assert_int_equal(tasktable_clock_set(f->tt, 1000000), 0);
	assert_int_equal(tasktable_claim(f->tt, "T7", "C", 30, &a), TASK_ELOST);
	assert_int_equal(tasktable_complete(f->tt, &b), TASK_ELOST);
}

static void test_renew_guards(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	struct task_claim c;
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	assert_int_equal(tasktable_clock_set(f->tt, 120), 0);
	long long until = 0;
	int req = -1;
	assert_int_equal(tasktable_renew(f->tt, &c, 30, &until, &req), 0);
	assert_int_equal(until, 150);
	assert_int_equal(req, 0);
	struct task_claim wrong = c;
	snprintf(wrong.owner, sizeof wrong.owner, "B");
	assert_int_equal(tasktable_renew(f->tt, &wrong, 30, NULL, NULL), TASK_ELOST);
	wrong = c;
	wrong.version = 2;
	assert_int_equal(tasktable_renew(f->tt, &wrong, 30, NULL, NULL), TASK_ELOST);
	assert_int_equal(tasktable_renew(f->tt, &c, 0, NULL, NULL), WB_EINVAL);
	/* lease_until > now is strict: at 150 the lease is over even though
	 * nobody has taken the task yet. */
	assert_int_equal(tasktable_clock_set(f->tt, 150), 0);
	assert_int_equal(tasktable_renew(f->tt, &c, 30, NULL, NULL), TASK_ELOST);
	assert_int_equal(tasktable_complete(f->tt, &c), TASK_ELOST);
	assert_int_equal(row(f->tt, "T1").lease_until, 150);
	assert_int_equal(row(f->tt, "T1").claim_version, 1);
}

static void test_fail_backoff_then_failed(void **state)
{
	struct fx *f = *state;
	struct task_opts o = {.max_attempts = 3, .backoff_ms = 10, .backoff_max_ms = 15};
	assert_int_equal(tasktable_add(f->tt, "T1", 100, &o), 0);
	struct task_claim c;
	enum task_state st;
	long long due;
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	assert_int_equal(tasktable_fail(f->tt, &c, "boom", &st, &due), 0);
	assert_int_equal(st, TASK_READY);
	assert_int_equal(due, 110); /* 100 + 10 */
	struct task_row r = row(f->tt, "T1");
	assert_string_equal(r.last_error, "boom");
	assert_int_equal(r.lease_until, -1);
	/* Not before the backoff is over. */
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), TASK_ELOST);
	assert_int_equal(tasktable_clock_set(f->tt, 110), 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "B", 30, &c), 0);
	assert_int_equal(c.attempt, 2);
	assert_int_equal(c.version, 2);
	assert_int_equal(tasktable_fail(f->tt, &c, "boom", &st, &due), 0);
	assert_int_equal(due, 125); /* 10 << 1 = 20, capped at 15 */
	/* The old claim cannot fail it again. */
	assert_int_equal(tasktable_fail(f->tt, &c, "again", NULL, NULL), TASK_ELOST);
	assert_int_equal(tasktable_clock_set(f->tt, 125), 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "C", 30, &c), 0);
	assert_int_equal(c.attempt, 3);
	assert_int_equal(tasktable_fail(f->tt, &c, "last", &st, &due), 0);
	assert_int_equal(st, TASK_FAILED);
	assert_int_equal(due, 125); /* unchanged: no next run */
	assert_int_equal(tasktable_clock_set(f->tt, 100000), 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "D", 30, &c), TASK_ELOST);
	r = row(f->tt, "T1");
	assert_int_equal(r.state, TASK_FAILED);
	assert_int_equal(r.attempt, 3);
}

static void test_budget_spent_by_expiry_then_swept(void **state)
{
	struct fx *f = *state;
	struct task_opts o = {.max_attempts = 1};
	assert_int_equal(tasktable_add(f->tt, "T1", 100, &o), 0);
	struct task_claim c;
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	assert_int_equal(tasktable_clock_set(f->tt, 200), 0);
	/* Expired, but the only attempt is spent: no takeover. */
	assert_int_equal(tasktable_claim(f->tt, "T1", "B", 30, &c), TASK_ELOST);
	assert_int_equal(tasktable_claim_next(f->tt, "B", 30, &c), TASK_ELOST);
	struct task_health h;
	assert_int_equal(tasktable_health(f->tt, &h), 0);
	assert_int_equal(h.oldest_expired_age, 70);
	int nc = -1, nf = -1;
	assert_int_equal(tasktable_sweep(f->tt, &nc, &nf), 0);
	assert_int_equal(nc, 0);
	assert_int_equal(nf, 1);
	assert_int_equal(row(f->tt, "T1").state, TASK_FAILED);
	assert_int_equal(tasktable_sweep(f->tt, &nc, &nf), 0);
	assert_int_equal(nf, 0);
}

static void test_cancel_before_claim(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	char ids[4][TASK_ID_MAX];
	int n = 0;
	assert_int_equal(tasktable_due(f->tt, ids, 4, &n), 0);
	assert_int_equal(n, 1); /* the claimer's stale candidate list */
	struct task_cancel k;
	assert_int_equal(tasktable_cancel(f->tt, "T1", &k), 0);
	assert_int_equal(k.result, TASK_CANCEL_DONE);
	assert_int_equal(k.state, TASK_CANCELLED);
	assert_true(k.never_ran);
	struct task_claim c;
	assert_int_equal(tasktable_claim(f->tt, ids[0], "A", 30, &c), TASK_ELOST);
	assert_int_equal(tasktable_due(f->tt, ids, 4, &n), 0);
	assert_int_equal(n, 0);
	/* Cancelling again is too late, and says what it is. */
	assert_int_equal(tasktable_cancel(f->tt, "T1", &k), 0);
	assert_int_equal(k.result, TASK_CANCEL_TOO_LATE);
	assert_int_equal(k.state, TASK_CANCELLED);
	assert_false(k.never_ran);
	assert_int_equal(tasktable_cancel(f->tt, "nope", &k), WB_ENOENT);
}

static void test_cancel_after_claim_is_a_request(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	struct task_claim c, b;
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	struct task_cancel k;
	assert_int_equal(tasktable_cancel(f->tt, "T1", &k), 0);
	assert_int_equal(k.result, TASK_CANCEL_REQUESTED);
	assert_int_equal(k.state, TASK_RUNNING);
	assert_false(k.never_ran);
	int req = 0;
	assert_int_equal(tasktable_check(f->tt, &c, &req), 0);
	assert_int_equal(req, 1);
	int req2 = 0;
	assert_int_equal(tasktable_renew(f->tt, &c, 30, NULL, &req2), 0);
	assert_int_equal(req2, 1);
	/* After the lease, nobody takes over a task whose cancel was asked. */
	assert_int_equal(tasktable_clock_set(f->tt, 500), 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "B", 30, &b), TASK_ELOST);
	/* The holder stops cooperatively, guarded by its version. */
	struct task_claim stale = c;
	stale.version = 9;
	assert_int_equal(tasktable_stop_cancelled(f->tt, &stale), TASK_ELOST);
	assert_int_equal(tasktable_stop_cancelled(f->tt, &c), 0);
	assert_int_equal(row(f->tt, "T1").state, TASK_CANCELLED);
	assert_int_equal(tasktable_stop_cancelled(f->tt, &c), TASK_ELOST);
}

static void test_stop_needs_a_request_and_sweep_cancels(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	assert_int_equal(tasktable_add(f->tt, "T2", 100, NULL), 0);
	struct task_claim c1, c2;
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c1), 0);
	assert_int_equal(tasktable_claim(f->tt, "T2", "A", 30, &c2), 0);
	/* Nobody asked: a worker cannot "cancel" its own task this way. */
	assert_int_equal(tasktable_stop_cancelled(f->tt, &c1), TASK_ELOST);
	struct task_cancel k;
	assert_int_equal(tasktable_cancel(f->tt, "T1", &k), 0);
	assert_int_equal(tasktable_cancel(f->tt, "T2", &k), 0);
	/* A failure while cancel is requested ends in CANCELLED, not READY. */
	enum task_state st;
	assert_int_equal(tasktable_fail(f->tt, &c2, "stopped", &st, NULL), 0);
	assert_int_equal(st, TASK_CANCELLED);
	/* The holder of T1 vanished; the sweep finishes the cancel. */
	assert_int_equal(tasktable_clock_set(f->tt, 131), 0);
	int nc = 0, nf = 0;
	assert_int_equal(tasktable_sweep(f->tt, &nc, &nf), 0);
	assert_int_equal(nc, 1);
	assert_int_equal(nf, 0);
	assert_int_equal(row(f->tt, "T1").state, TASK_CANCELLED);
}

static void test_cancel_after_backoff_is_not_never_ran(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	struct task_claim c;
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	assert_int_equal(tasktable_fail(f->tt, &c, "x", NULL, NULL), 0);
	struct task_cancel k;
	assert_int_equal(tasktable_cancel(f->tt, "T1", &k), 0);
	assert_int_equal(k.result, TASK_CANCEL_DONE);
	assert_int_equal(k.attempt, 1);
	assert_false(k.never_ran); /* attempt 1 may have had effects */
}

static void test_cancel_after_success_too_late(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	struct task_claim c;
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	assert_int_equal(tasktable_complete(f->tt, &c), 0);
	struct task_cancel k;
	assert_int_equal(tasktable_cancel(f->tt, "T1", &k), 0);
	assert_int_equal(k.result, TASK_CANCEL_TOO_LATE);
	assert_int_equal(k.state, TASK_SUCCEEDED);
	assert_false(k.never_ran);
}

static int drop_reply(void *arg, const struct task_claim *c)
{
	struct task_claim *seen = arg;
	*seen = *c;
	return 1;
}

static void test_lost_reply_recovered_by_claim_id(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	struct task_claim seen = {0}, c, r;
	tasktable_set_claim_hook(f->tt, drop_reply, &seen);
	assert_int_equal(tasktable_claim(f->tt, "T1", "W", 30, &c), WB_EIO);
	tasktable_set_claim_hook(f->tt, NULL, NULL);
	assert_int_equal(c.outcome, TASK_OUTCOME_UNKNOWN);
	assert_int_equal(c.version, 0);			/* the caller never learnt it */
	assert_string_equal(c.claim_id, seen.claim_id); /* but kept what it sent */
	assert_int_equal(seen.version, 1);		/* and it did commit */
	assert_int_equal(tasktable_recover_by_claim_id(f->tt, "T1", c.claim_id, &r), 0);
	assert_int_equal(r.version, 1);
	assert_int_equal(r.lease_until, 130);
	assert_string_equal(r.owner, "W");
	/* Without the task id too (claim_next does not know it). */
	assert_int_equal(tasktable_recover_by_claim_id(f->tt, NULL, c.claim_id, &r), 0);
	assert_string_equal(r.task_id, "T1");
	/* The recovered claim works like the original. */
	assert_int_equal(tasktable_renew(f->tt, &r, 30, NULL, NULL), 0);
	/* Another task id with this claim id: nothing. */
	assert_int_equal(tasktable_recover_by_claim_id(f->tt, "T2", c.claim_id, &r), TASK_ELOST);
	/* Once taken over, the old claim id no longer recovers anything. */
	assert_int_equal(tasktable_clock_set(f->tt, 1000), 0);
	struct task_claim b;
	assert_int_equal(tasktable_claim(f->tt, "T1", "W", 30, &b), 0);
	assert_int_equal(tasktable_recover_by_claim_id(f->tt, "T1", c.claim_id, &r), TASK_ELOST);
	assert_int_equal(r.outcome, TASK_OUTCOME_LOST);
	/* An expired lease is not recoverable either. */
	assert_int_equal(tasktable_clock_set(f->tt, 1030), 0);
	assert_int_equal(tasktable_recover_by_claim_id(f->tt, "T1", b.claim_id, &r), TASK_ELOST);
}

static void test_claim_next_order(void **state)
{
	struct fx *f = *state;
	struct task_claim c;
	assert_int_equal(tasktable_claim_next(f->tt, "A", 30, &c), TASK_ELOST);
	assert_string_equal(c.task_id, "");
	assert_int_equal(tasktable_add(f->tt, "late", 90, NULL), 0);
	assert_int_equal(tasktable_add(f->tt, "early", 50, NULL), 0);
	assert_int_equal(tasktable_add(f->tt, "future", 200, NULL), 0);
	assert_int_equal(tasktable_claim_next(f->tt, "A", 30, &c), 0);
	assert_string_equal(c.task_id, "early");
	assert_int_equal(tasktable_clock_set(f->tt, 105), 0);
	assert_int_equal(tasktable_claim_next(f->tt, "A", 30, &c), 0);
	assert_string_equal(c.task_id, "late");
	assert_int_equal(tasktable_claim_next(f->tt, "A", 30, &c), TASK_ELOST);
	/* At 210, the expired leases (130, 135) have waited longer than
	 * "future" (due 200). */
	assert_int_equal(tasktable_clock_set(f->tt, 210), 0);
	assert_int_equal(tasktable_claim_next(f->tt, "B", 30, &c), 0);
	assert_string_equal(c.task_id, "early");
	assert_int_equal(c.version, 2);
	assert_int_equal(tasktable_claim_next(f->tt, "B", 30, &c), 0);
	assert_string_equal(c.task_id, "late");
	assert_int_equal(tasktable_claim_next(f->tt, "B", 30, &c), 0);
	assert_string_equal(c.task_id, "future");
}

static void test_health(void **state)
{
	struct fx *f = *state;
	struct task_health h;
	assert_int_equal(tasktable_health(f->tt, &h), 0);
	assert_int_equal(h.now, 100);
	assert_int_equal(h.oldest_due_age, 0);
	assert_int_equal(tasktable_add(f->tt, "a", 40, NULL), 0);
	assert_int_equal(tasktable_add(f->tt, "b", 70, NULL), 0);
	assert_int_equal(tasktable_add(f->tt, "c", 300, NULL), 0);
	assert_int_equal(tasktable_health(f->tt, &h), 0);
	assert_int_equal(h.oldest_due_age, 60);
	assert_int_equal(h.due_ready, 2);
	assert_int_equal(h.ready, 3);
	struct task_claim c;
	assert_int_equal(tasktable_claim(f->tt, "a", "A", 30, &c), 0);
	assert_int_equal(tasktable_complete(f->tt, &c), 0);
	assert_int_equal(tasktable_clock_set(f->tt, 110), 0);
	assert_int_equal(tasktable_health(f->tt, &h), 0);
	assert_int_equal(h.oldest_due_age, 40);
	assert_int_equal(h.due_ready, 1);
	assert_int_equal(h.succeeded, 1);
	assert_int_equal(h.ready, 2);
}

static void test_real_clock(void **state)
{
	struct fx *f = *state;
	assert_int_equal(tasktable_clock_real(f->tt), 0);
	long long now = 0;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long long mine = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	assert_int_equal(tasktable_now(f->tt, &now), 0);
	/* Same clock source on one machine; a minute is a generous bound. */
	assert_true(now > mine - 60000 && now < mine + 60000);
	assert_int_equal(tasktable_clock_set(f->tt, 5), 0);
	assert_int_equal(tasktable_now(f->tt, &now), 0);
	assert_int_equal(now, 5);
}

/* Due scanning must read an index range from its start, never sort the
 * due rows (a "TEMP B-TREE" would make claims O(due tasks)). */
static void test_due_scans_use_the_index(void **state)
{
	struct fx *f = *state;
	const char *names[] = {"claim_next", "due", "oldest_due"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *plan = NULL;
		assert_int_equal(tasktable_explain(f->tt, names[i], &plan), 0);
		assert_non_null(strstr(plan, "INDEX task_state_due"));
		assert_null(strstr(plan, "TEMP B-TREE"));
		assert_null(strstr(plan, "SCAN task"));
		free(plan);
	}
	char *plan = NULL;
	assert_int_equal(tasktable_explain(f->tt, "claim_next", &plan), 0);
	assert_non_null(strstr(plan, "task_state_lease"));
	free(plan);
	assert_int_equal(tasktable_explain(f->tt, "drop table", &plan), WB_EINVAL);
	assert_null(plan);
}

/* ---- the claim-conflict monitor ------------------------------------ */

static struct task_claim_stats stats(struct tasktable *tt, int intervals)
{
	struct task_claim_stats s;
	assert_int_equal(tasktable_claim_stats(tt, intervals, &s), 0);
	return s;
}

/* The four counters of the current interval equal won/conflicts/empty/
 * stale. */
static void expect_stats(struct tasktable *tt, long long won, long long conflicts, long long empty,
			 long long stale)
{
	struct task_claim_stats s = stats(tt, 1);
	assert_int_equal(s.won, won);
	assert_int_equal(s.conflicts, conflicts);
	assert_int_equal(s.empty, empty);
	assert_int_equal(s.stale, stale);
}

/* Every way a claim by task_id can change 0 rows adds exactly one
 * conflict; a win adds one won and nothing else; claim_next finding
 * nothing is empty, not a conflict; a holder's 0-row write is stale. */
static void test_claim_stats_count_every_zero_row_once(void **state)
{
	struct fx *f = *state;
	struct task_claim a, b, x;
	expect_stats(f->tt, 0, 0, 0, 0);
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &a), 0);
	expect_stats(f->tt, 1, 0, 0, 0);

	/* A lost race, seen from another connection to the same file. */
	struct tasktable *other;
	assert_int_equal(tasktable_open(f->path, SCHEMA, NULL, &other, NULL, 0), 0);
	assert_int_equal(tasktable_claim(other, "T1", "B", 30, &b), TASK_ELOST);
	tasktable_close(other);
	expect_stats(f->tt, 1, 1, 0, 0);

	/* Each stale-candidate case, one at a time. */
	assert_int_equal(tasktable_claim(f->tt, "nope", "B", 30, &x), TASK_ELOST); /* no task */
	expect_stats(f->tt, 1, 2, 0, 0);
	assert_int_equal(tasktable_add(f->tt, "later", 500, NULL), 0);
	assert_int_equal(tasktable_claim(f->tt, "later", "B", 30, &x), TASK_ELOST); /* not due */
	expect_stats(f->tt, 1, 3, 0, 0);
	assert_int_equal(tasktable_add(f->tt, "gone", 100, NULL), 0);
	struct task_cancel k;
	assert_int_equal(tasktable_cancel(f->tt, "gone", &k), 0);
	assert_int_equal(tasktable_claim(f->tt, "gone", "B", 30, &x), TASK_ELOST); /* cancelled */
	expect_stats(f->tt, 1, 4, 0, 0);
	assert_int_equal(tasktable_complete(f->tt, &a), 0); /* success: not counted */
	expect_stats(f->tt, 1, 4, 0, 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "B", 30, &x), TASK_ELOST); /* terminal */
	expect_stats(f->tt, 1, 5, 0, 0);
	struct task_opts once = {.max_attempts = 1};
	assert_int_equal(tasktable_add(f->tt, "once", 100, &once), 0);
	assert_int_equal(tasktable_claim(f->tt, "once", "A", 10, &a), 0);
	expect_stats(f->tt, 2, 5, 0, 0);
	assert_int_equal(tasktable_clock_set(f->tt, 111), 0); /* same interval */
	assert_int_equal(tasktable_claim(f->tt, "once", "B", 10, &x), TASK_ELOST); /* spent */
	expect_stats(f->tt, 2, 6, 0, 0);

	/* Bad arguments never reach the database: not counted. */
	assert_int_equal(tasktable_claim(f->tt, "T1", "", 30, &x), WB_EINVAL);
	assert_int_equal(tasktable_claim_next(f->tt, "A", 0, &x), WB_EINVAL);
	expect_stats(f->tt, 2, 6, 0, 0);

	/* claim_next: nothing claimable ("later" is not due) is empty. */
	assert_int_equal(tasktable_claim_next(f->tt, "A", 30, &x), TASK_ELOST);
	expect_stats(f->tt, 2, 6, 1, 0);

	/* The holder of "once" lost its lease: every 0-row write is stale,
	 * counted once each; the read (check) is not counted. */
	assert_int_equal(tasktable_renew(f->tt, &a, 10, NULL, NULL), TASK_ELOST);
	assert_int_equal(tasktable_complete(f->tt, &a), TASK_ELOST);
	assert_int_equal(tasktable_fail(f->tt, &a, "late", NULL, NULL), TASK_ELOST);
	assert_int_equal(tasktable_stop_cancelled(f->tt, &a), TASK_ELOST);
	int req = 0;
	assert_int_equal(tasktable_check(f->tt, &a, &req), TASK_ELOST);
	expect_stats(f->tt, 2, 6, 1, 4);

	/* A win whose reply is lost still committed: counted as won. */
	assert_int_equal(tasktable_clock_set(f->tt, 500), 0);
	struct task_claim seen;
	tasktable_set_claim_hook(f->tt, drop_reply, &seen);
	assert_int_equal(tasktable_claim_next(f->tt, "A", 30, &x), WB_EIO);
	tasktable_set_claim_hook(f->tt, NULL, NULL);
	assert_int_equal(x.outcome, TASK_OUTCOME_UNKNOWN);
	struct task_claim_stats s = stats(f->tt, 1);
	assert_int_equal(s.now, 500);
	assert_int_equal(s.from, 0);
	assert_int_equal(s.to, TASK_STAT_INTERVAL_MS);
	assert_int_equal(s.won, 3);
	assert_int_equal(s.conflicts, 6);
}

/* Intervals: a window sums whole intervals ending with the current one;
 * a ring row reused a full ring later starts from zero. */
static void test_claim_stats_intervals_and_ring(void **state)
{
	struct fx *f = *state;
	const long long iv = TASK_STAT_INTERVAL_MS;
	struct task_claim x;
	assert_int_equal(tasktable_claim(f->tt, "none", "A", 30, &x), TASK_ELOST);
	assert_int_equal(tasktable_clock_set(f->tt, iv + 5), 0);
	assert_int_equal(tasktable_claim(f->tt, "none", "A", 30, &x), TASK_ELOST);
	assert_int_equal(tasktable_claim(f->tt, "none", "A", 30, &x), TASK_ELOST);
	struct task_claim_stats s = stats(f->tt, 1);
	assert_int_equal(s.conflicts, 2);
	assert_int_equal(s.from, iv);
	s = stats(f->tt, 2);
	assert_int_equal(s.conflicts, 3);
	assert_int_equal(s.from, 0);
	assert_int_equal(s.to, 2 * iv);
	/* An interval with no traffic reads 0; the older ones are still there. */
	assert_int_equal(tasktable_clock_set(f->tt, 2 * iv), 0);
	assert_int_equal(stats(f->tt, 1).conflicts, 0);
	assert_int_equal(stats(f->tt, 3).conflicts, 3);
	/* A full ring later, interval 0's row is reused and reset. */
	assert_int_equal(tasktable_clock_set(f->tt, TASK_STAT_SLOTS * iv + 1), 0);
	assert_int_equal(tasktable_claim(f->tt, "none", "A", 30, &x), TASK_ELOST);
	assert_int_equal(stats(f->tt, 1).conflicts, 1);
	/* Intervals 1..SLOTS: interval 0's count is gone, interval 1's is in. */
	assert_int_equal(stats(f->tt, TASK_STAT_SLOTS).conflicts, 3);
	/* One interval on, interval 1's row is still stored but outside
	 * every window. */
	assert_int_equal(tasktable_clock_set(f->tt, (TASK_STAT_SLOTS + 1) * iv), 0);
	assert_int_equal(stats(f->tt, TASK_STAT_SLOTS).conflicts, 1);
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlitex_prepare(tasktable_db(f->tt),
					 "SELECT count(*), max(start) FROM task_claim_stat", &st),
			 0);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(st, 0), 2); /* slots 0 and 1 */
	assert_int_equal(sqlite3_column_int64(st, 1), TASK_STAT_SLOTS * iv);
	sqlite3_finalize(st);
	struct task_claim_stats bad;
	assert_int_equal(tasktable_claim_stats(f->tt, 0, &bad), WB_EINVAL);
	assert_int_equal(tasktable_claim_stats(f->tt, TASK_STAT_SLOTS + 1, &bad), WB_EINVAL);
}

/* The count and the claim are one transaction: when the count cannot be
 * written, the claim does not happen either. */
static void test_claim_stat_failure_rolls_the_claim_back(void **state)
{
	struct fx *f = *state;
	sqlite3 *db = tasktable_db(f->tt);
	assert_int_equal(tasktable_add(f->tt, "T1", 100, NULL), 0);
	assert_int_equal(sqlitex_exec(db,
				      "CREATE TRIGGER no_stat_i BEFORE INSERT ON task_claim_stat"
				      " BEGIN SELECT RAISE(ABORT, 'stat refused'); END"),
			 0);
	struct task_claim c;
	assert_int_not_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	assert_int_equal(c.outcome, TASK_OUTCOME_LOST);
	assert_non_null(strstr(tasktable_errmsg(f->tt), "stat refused"));
	struct task_row r = row(f->tt, "T1");
	assert_int_equal(r.state, TASK_READY);
	assert_int_equal(r.claim_version, 0);
	assert_int_equal(r.attempt, 0);
	assert_int_equal(sqlitex_exec(db, "DROP TRIGGER no_stat_i"), 0);
	assert_int_equal(tasktable_claim(f->tt, "T1", "A", 30, &c), 0);
	assert_int_equal(c.version, 1);
	expect_stats(f->tt, 1, 0, 0, 0);
}

static void test_conflict_alarm_rule(void **state)
{
	(void)state;
	const struct task_conflict_rule rule = {.min_conflicts = 10, .max_ratio_pct = 50};
	struct task_claim_stats s = {0};
	assert_false(tasktable_conflict_alarm(&s, &rule)); /* no traffic */
	s.conflicts = 9; /* 100% of requests, but below the floor */
	assert_false(tasktable_conflict_alarm(&s, &rule));
	s.conflicts = 10;
	assert_true(tasktable_conflict_alarm(&s, &rule));
	s.won = 10; /* exactly 50%: not above */
	assert_false(tasktable_conflict_alarm(&s, &rule));
	s.won = 9; /* 10 of 19 */
	assert_true(tasktable_conflict_alarm(&s, &rule));
	s.won = 1000; /* many conflicts, but a healthy share */
	s.conflicts = 500;
	assert_false(tasktable_conflict_alarm(&s, &rule));
	/* Empty polls and stale writes are not in the share. */
	s = (struct task_claim_stats){.won = 2, .conflicts = 10, .empty = 1000, .stale = 1000};
	assert_true(tasktable_conflict_alarm(&s, &rule));
	const struct task_conflict_rule any = {.min_conflicts = 1, .max_ratio_pct = 0};
	s = (struct task_claim_stats){.won = 1000000};
	assert_false(tasktable_conflict_alarm(&s, &any));
	s.conflicts = 1;
	assert_true(tasktable_conflict_alarm(&s, &any));
}

/* A batch claim is one statement, but every task in it is its own claim:
 * its own claim_id and claim_version, fenced on its own.  A late completer
 * of one task of the batch changes 0 rows for it; the rest completes. */
static void test_claim_batch_fences_each_task(void **state)
{
	struct fx *f = *state;
	for (int i = 0; i < 5; i++) {
		char id[8];
		snprintf(id, sizeof id, "t%d", i);
		assert_int_equal(tasktable_add(f->tt, id, 95 - i, NULL), 0); /* t4 oldest */
	}
	assert_int_equal(tasktable_add(f->tt, "later", 500, NULL), 0);
	struct task_claim a[8], b;
	int n = -1, res[8];
	assert_int_equal(tasktable_claim_batch(f->tt, "A", 30, 3, a, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(a[0].task_id, "t4"); /* oldest due first */
	assert_string_equal(a[1].task_id, "t3");
	assert_string_equal(a[2].task_id, "t2");
	for (int i = 0; i < 3; i++) {
		struct task_row r = row(f->tt, a[i].task_id);
		assert_int_equal(a[i].outcome, TASK_OUTCOME_WON);
		assert_int_equal(a[i].version, 1);
		assert_int_equal(a[i].lease_until, 130);
		assert_string_equal(r.claim_id, a[i].claim_id);
		assert_string_equal(r.owner, "A");
		for (int j = 0; j < i; j++)
			assert_string_not_equal(a[i].claim_id, a[j].claim_id);
	}
	/* The rest: two claimable, the third not due. */
	struct task_claim c[8];
	assert_int_equal(tasktable_claim_batch(f->tt, "C", 30, 8, c, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(c[2].task_id, "");
	assert_int_equal(c[2].outcome, TASK_OUTCOME_LOST);
	assert_int_equal(tasktable_claim_batch(f->tt, "C", 30, 8, c, &n), TASK_ELOST);
	assert_int_equal(n, 0);
	/* A renews two of its three; the third expires and B takes it over. */
	assert_int_equal(tasktable_clock_set(f->tt, 120), 0);
	assert_int_equal(tasktable_renew(f->tt, &a[0], 100, NULL, NULL), 0);
	assert_int_equal(tasktable_renew(f->tt, &a[2], 100, NULL, NULL), 0);
	assert_int_equal(tasktable_clock_set(f->tt, 131), 0);
	assert_int_equal(tasktable_claim(f->tt, a[1].task_id, "B", 30, &b), 0);
	assert_int_equal(b.version, 2);
	assert_int_equal(tasktable_complete_batch(f->tt, a, 3, res), TASK_ELOST);
	assert_int_equal(res[0], 0);
	assert_int_equal(res[1], TASK_ELOST);
	assert_int_equal(res[2], 0);
	assert_int_equal(row(f->tt, a[0].task_id).state, TASK_SUCCEEDED);
	struct task_row r1 = row(f->tt, a[1].task_id);
	assert_int_equal(r1.state, TASK_RUNNING);
	assert_string_equal(r1.owner, "B");
	assert_int_equal(tasktable_complete_batch(f->tt, &b, 1, res), 0);
	assert_int_equal(tasktable_complete_batch(f->tt, a, 0, res), WB_EINVAL);
	assert_int_equal(tasktable_claim_batch(f->tt, "A", 30, 0, c, &n), WB_EINVAL);
	assert_int_equal(tasktable_claim_batch(f->tt, "A", 30, TASK_BATCH_MAX + 1, c, &n),
			 WB_EINVAL);
	/* Counted: 3 + 2 + 1 won, 1 empty, 1 stale. */
	struct task_claim_stats st;
	assert_int_equal(tasktable_claim_stats(f->tt, TASK_STAT_SLOTS, &st), 0);
	assert_int_equal(st.won, 6);
	assert_int_equal(st.empty, 1);
	assert_int_equal(st.stale, 1);
	/* The batch's candidates come from the indexes, not a table scan. */
	char *plan = NULL;
	assert_int_equal(tasktable_explain(f->tt, "claim_batch", &plan), 0);
	assert_non_null(strstr(plan, "task_state_due"));
	assert_non_null(strstr(plan, "task_state_lease"));
	assert_null(strstr(plan, "SCAN task"));
	free(plan);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_schema_applied_once_and_newer_refused),
		T(test_bad_schema_reports_file_and_line),
		T(test_schema_checks),
		T(test_claim_once),
		T(test_bad_arguments),
		T(test_takeover_and_late_writes),
		T(test_renew_guards),
		T(test_fail_backoff_then_failed),
		T(test_budget_spent_by_expiry_then_swept),
		T(test_cancel_before_claim),
		T(test_cancel_after_claim_is_a_request),
		T(test_stop_needs_a_request_and_sweep_cancels),
		T(test_cancel_after_backoff_is_not_never_ran),
		T(test_cancel_after_success_too_late),
		T(test_lost_reply_recovered_by_claim_id),
		T(test_claim_next_order),
		T(test_health),
		T(test_real_clock),
		T(test_due_scans_use_the_index),
		T(test_claim_stats_count_every_zero_row_once),
		T(test_claim_stats_intervals_and_ring),
		T(test_claim_stat_failure_rolls_the_claim_back),
		T(test_conflict_alarm_rule),
		T(test_claim_batch_fences_each_task),
	};
	return cmocka_run_group_tests_name("tasktable", tests, NULL, NULL);
}
