/*
 * task-takeover.c - the lab "task-takeover": the lesson's T7 trace step by
 * step (chapter 01, "Task T7: takeover, late writes and duplicates"), then
 * the payment A had already made before it lost its lease.
 *
 * Part 1 replays the trace table on a real SQLite file with the database
 * clock set to each step's time: A and B both see T7 READY and send the
 * same claim; A's UPDATE is serialised first (one row, version 1, lease to
 * 130) and B's finds RUNNING with lease 130 > 100 (zero rows).  At 131 B
 * takes over (version 2, attempt 2, lease 161); A's renew at 132 and
 * complete at 133 change zero rows; B completes at 150.
 *
 * Part 2 runs the same trace twice against a "payment provider": its own
 * SQLite file (a different database, so no transaction can span both)
 * whose payments table is keyed by the idempotency key the caller sends.
 * A pays during step 3, before it stalls; B pays after its takeover.  With
 * a key per attempt ("T7-attempt-1", "T7-attempt-2") the provider books
 * two payments for one task: the control, expected to fail.  With the
 * stable business key "settle:T7" the second request finds the first.
 *
 * The holder's renew and complete are a parameter (task-takeover.h): the
 * lab passes the recipe's, the exercise "task-complete" the learner's.
 *
 * It deliberately does not make the provider check claim_version: the
 * lesson's point is that the task table's fencing ends at its own rows.
 *
 * History (docs/histories.md): part 1's claims, renews and completes are
 * ops in the task checker's vocabulary (value "T7:version", result "1"
 * or "0" rows changed); the task checker must pass them.  The replays of
 * part 2 are not recorded (the same task in other files).
 */
#include "base/wb.h"
#include "harness/report.h"
#include "base/sqlitex.h"
#include "lab.h"
#include "checkers/history.h"
#include "recipes/tasktable.h"
#include "checkers/tasks.h"
#include "tasks/task-takeover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEASE 30

/* The provider: one table, the key decides what a duplicate is. */
static const char provider_schema[] = "CREATE TABLE IF NOT EXISTS payment ("
				      "  idempotency_key TEXT PRIMARY KEY,"
				      "  task_id TEXT NOT NULL,"
				      "  amount_cents INTEGER NOT NULL,"
				      "  paid_by TEXT NOT NULL"
				      ") STRICT";

/* Books a payment unless the key is known.  *booked: 1 new, 0 replay. */
static int provider_pay(sqlite3 *db, const char *key, const char *task_id, const char *by,
			int *booked)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(
		db,
		"INSERT INTO payment (idempotency_key, task_id, amount_cents, paid_by)"
		" VALUES (?1, ?2, 12500, ?3) ON CONFLICT (idempotency_key) DO NOTHING",
		&st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, task_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, by, -1, SQLITE_TRANSIENT);
	int s = sqlite3_step(st);
	rc = s == SQLITE_DONE ? 0 : sqlitex_err(s);
	if (rc == 0)
		*booked = sqlite3_changes(db);
	sqlite3_finalize(st);
	return rc;
}

static int provider_count(sqlite3 *db, const char *task_id, long long *n)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(db, "SELECT count(*) FROM payment WHERE task_id = ?1", &st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, task_id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st) == SQLITE_ROW ? 0 : WB_EIO;
	if (rc == 0)
		*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}

/* "RUNNING, owner B, version 2, attempt 2, lease_until 161" */
static void describe(struct tasktable *tt, char *buf, size_t n)
{
	struct task_row r;
	if (tasktable_get(tt, "T7", &r) != 0) {
		snprintf(buf, n, "(cannot read T7: %s)", tasktable_errmsg(tt));
		return;
	}
	if (r.state == TASK_READY)
		snprintf(buf, n, "READY, due %lld, version %lld, attempt %lld", r.due,
			 r.claim_version, r.attempt);
	else if (r.state == TASK_RUNNING)
		snprintf(buf, n, "RUNNING, owner %s, version %lld, attempt %lld, lease_until %lld",
			 r.owner, r.claim_version, r.attempt, r.lease_until);
	else
		snprintf(buf, n, "%s, owner %s, version %lld, attempt %lld",
			 tasktable_state_name(r.state), r.owner, r.claim_version, r.attempt);
}

static const char *rows_of(int rc)
{
	return rc == 0 ? "1 row" : rc == TASK_ELOST ? "0 rows" : wb_strerror(rc);
}

/* The two connections of one replay: A's and B's, to the same file. */
struct trace {
	struct tasktable *a, *b;
	sqlite3 *provider;		     /* NULL in part 1 */
	int stable_key;			     /* part 2: which key scheme */
	const struct task_holder_impl *impl; /* renew and complete */
	char err[256];			     /* their last message */
};

static int open_trace(struct lab_ctx *ctx, const char *name, struct trace *t)
{
	char err[256];
	char *path = wb_xasprintf("%s/%s.db", ctx->run_dir, name);
	char schema[LAB_PATH_MAX];
	int rc = tasktable_open(path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema), NULL,
				&t->a, err, sizeof err);
	if (rc == 0)
		rc = tasktable_open(path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema),
				    NULL, &t->b, err, sizeof err);
	if (rc == 0 && (rc = tasktable_clock_set(t->a, 100)) == 0)
		rc = tasktable_add(t->a, "T7", 100, NULL);
	if (rc)
		report_cannot(ctx->report, "%s: %s", path, t->a ? tasktable_errmsg(t->a) : err);
	free(path);
	return rc;
}

static void close_trace(struct trace *t)
{
	tasktable_close(t->a);
	tasktable_close(t->b);
	sqlite3_close_v2(t->provider);
}

/* A pays with the attempt's key scheme.  Returns 0 or WB_E*. */
static int pay(struct lab_ctx *ctx, struct trace *t, const struct task_claim *c, int *booked)
{
	char key[TASK_ID_MAX + 32];
	if (t->stable_key)
		snprintf(key, sizeof key, "settle:%s", c->task_id);
	else
		snprintf(key, sizeof key, "%s-attempt-%lld", c->task_id, c->attempt);
	int rc = provider_pay(t->provider, key, c->task_id, c->owner, booked);
	if (rc == 0)
		report_evidence(ctx->report, "payment", "%s pays with key %s: %s", c->owner, key,
				*booked ? "booked" : "already known, nothing booked");
	return rc;
}

/* Records the invocation of f by who on task (version 0: not known yet)
 * when on; returns the op, or -1. */
static int op_begin(struct report *r, int on, const char *who, const char *f, const char *task,
		    long long version)
{
	if (!on)
		return -1;
	char v[TASK_ID_MAX + 24];
	snprintf(v, sizeof v, "%s:%lld", task, version);
	return report_invoke(r, who, f, v);
}

/* Records how op ended: rc 0 one row ("1"), TASK_ELOST none ("0"),
 * anything else unknown.  A won claim's value becomes task:version. */
static void op_end(struct report *r, int op, int rc, const struct task_claim *won)
{
	char v[TASK_ID_MAX + 24];
	if (op < 0)
		return;
	if (won && rc == 0)
		snprintf(v, sizeof v, "%s:%lld", won->task_id, won->version);
	report_complete_value(r, op, rc == 0 || rc == TASK_ELOST ? HIST_OK : HIST_INFO,
			      won && rc == 0 ? v : NULL,
			      rc == 0		 ? "1"
			      : rc == TASK_ELOST ? "0"
						 : NULL);
}

/* Runs the trace.  verbose: narrate and check every step (part 1), and
 * record it as the history. */
static int run_trace(struct lab_ctx *ctx, struct trace *t, int verbose)
{
	struct report *r = ctx->report;
	char st[160];
	struct task_claim a, b;
	int booked = 0, rc;

	if (verbose) {
		describe(t->a, st, sizeof st);
		report_step(r, "step 0, clock 100: %s", st);
		report_check(r, "step0-initial",
			     !strcmp(st, "READY, due 100, version 0, attempt 0"),
			     "READY, due 100, version 0, attempt 0", st);
	}
	/* Step 1-2: both saw READY; the store serialises the two UPDATEs. */
	char cand_a[1][TASK_ID_MAX], cand_b[1][TASK_ID_MAX];
	int na = 0, nb = 0;
	if ((rc = tasktable_due(t->a, cand_a, 1, &na)) != 0 ||
	    (rc = tasktable_due(t->b, cand_b, 1, &nb)) != 0)
		return rc;
	int op = op_begin(r, verbose, "A", "claim", cand_a[0], 0);
	int ra = tasktable_claim(t->a, cand_a[0], "A", LEASE, &a);
	op_end(r, op, ra, &a);
	op = op_begin(r, verbose, "B", "claim", cand_b[0], 0);
	int rb = tasktable_claim(t->b, cand_b[0], "B", LEASE, &b);
	op_end(r, op, rb, &b);
	if (verbose) {
		report_step(r,
			    "step 1-2, clock 100: A and B both list T7 as due (%d and %d "
			    "candidates) and send the same claim; A's UPDATE lands first",
			    na, nb);
		report_evidence(r, "claim_ids", "A %s, B %s (fresh per request)", a.claim_id,
				b.claim_id);
		describe(t->a, st, sizeof st);
		report_checkf(r, "step1-A-wins",
			      ra == 0 && a.version == 1 && a.attempt == 1 && a.lease_until == 130,
			      "A: 1 row; RUNNING, owner A, version 1, attempt 1, lease_until 130",
			      "A: %s; %s", rows_of(ra), st);
		report_checkf(r, "step2-B-zero-rows", rb == TASK_ELOST,
			      "B: 0 rows (RUNNING with lease 130 > 100)", "B: %s", rows_of(rb));
	}
	if (ra != 0)
		return ra == TASK_ELOST ? WB_EIO : ra;

	/* Step 3: A works: its external payment takes effect, then A stalls. */
	int req = 0;
	if (tasktable_clock_set(t->a, 101) == 0 && tasktable_check(t->a, &a, &req) == 0 && !req &&
	    t->provider) {
		if ((rc = pay(ctx, t, &a, &booked)) != 0)
			return rc;
	}
	if (verbose)
		report_step(r, "step 3, clock 101-130: A works, then stalls (a pause, a "
			       "partition); nothing changes in the table");

	/* Step 4: B takes over. */
	if ((rc = tasktable_clock_set(t->a, 131)) != 0)
		return rc;
	op = op_begin(r, verbose, "B", "claim", "T7", 0);
	rb = tasktable_claim(t->b, "T7", "B", LEASE, &b);
	op_end(r, op, rb, &b);
	if (verbose) {
		describe(t->a, st, sizeof st);
		report_step(r, "step 4, clock 131: B claims again; RUNNING and lease_until 130 "
			       "<= 131");
		report_checkf(r, "step4-B-takes-over",
			      rb == 0 && b.version == 2 && b.attempt == 2 && b.lease_until == 161,
			      "B: 1 row; RUNNING, owner B, version 2, attempt 2, lease_until 161",
			      "B: %s; %s", rows_of(rb), st);
	}
	if (rb != 0)
		return rb == TASK_ELOST ? WB_EIO : rb;
	if (t->provider && (rc = pay(ctx, t, &b, &booked)) != 0)
		return rc;

	/* Steps 5-6: A wakes with version 1. */
	if ((rc = tasktable_clock_set(t->a, 132)) != 0)
		return rc;
	op = op_begin(r, verbose, "A", "renew", a.task_id, a.version);
	int renew = t->impl->renew(t->impl->arg, t->a, &a, LEASE, t->err, sizeof t->err);
	op_end(r, op, renew, NULL);
	if ((rc = tasktable_clock_set(t->a, 133)) != 0)
		return rc;
	op = op_begin(r, verbose, "A", "complete", a.task_id, a.version);
	int complete = t->impl->complete(t->impl->arg, t->a, &a, t->err, sizeof t->err);
	op_end(r, op, complete, NULL);
	if (verbose) {
		describe(t->a, st, sizeof st);
		report_step(r, "step 5-6, clock 132-133: A wakes and renews, then completes, "
			       "both with version 1");
		report_checkf(r, "step5-A-renew-zero-rows", renew == TASK_ELOST,
			      "A's renew: 0 rows", "A's renew: %s", rows_of(renew));
		report_checkf(
			r, "step6-A-complete-zero-rows",
			complete == TASK_ELOST && strstr(st, "owner B, version 2"),
			"A's complete: 0 rows; T7 unchanged (owner B, version 2); A must stop",
			"A's complete: %s; %s", rows_of(complete), st);
	}

	/* Step 7: B completes. */
	if ((rc = tasktable_clock_set(t->a, 150)) != 0)
		return rc;
	op = op_begin(r, verbose, "B", "complete", b.task_id, b.version);
	int done = t->impl->complete(t->impl->arg, t->b, &b, t->err, sizeof t->err);
	op_end(r, op, done, NULL);
	if (verbose) {
		describe(t->a, st, sizeof st);
		report_step(r, "step 7, clock 150: B completes with version 2");
		report_checkf(r, "step7-B-completes",
			      done == 0 && !strncmp(st, "SUCCEEDED, owner B, version 2", 29),
			      "B: 1 row; SUCCEEDED", "B: %s; %s", rows_of(done), st);
	}
	return done;
}

int task_takeover_scenario(struct lab_ctx *ctx, const struct task_holder_impl *impl)
{
	struct report *r = ctx->report;
	struct trace t = {.impl = impl};
	int rc;
	/* An exercise's check may have recorded ops before the story: the
	 * checker judges the story's own. */
	const int first = report_history_len(r);

	report_step(r,
		    "part 1: the T7 trace on a real SQLite file, database clock set per "
		    "step, leases of %d units",
		    LEASE);
	if ((rc = open_trace(ctx, "t7", &t)) != 0)
		goto out;
	rc = run_trace(ctx, &t, 1);
	close_trace(&t);
	memset(&t, 0, sizeof t);
	t.impl = impl;
	if (rc == TASK_ELOST) {
		rc = 0; /* B's complete changed 0 rows: step7 said so */
		goto out;
	}
	if (rc)
		goto out;
	struct hist_result res;
	struct history mine;
	report_history_since(r, first, &mine);
	int crc = tasks_check(&mine, &res);
	if (crc)
		report_checker_error(&res, crc);
	report_checker(r, "task-history-one-accepted-completion", &res, HIST_VALID);

	report_step(r, "part 2: A's payment had already taken effect at step 3, before it lost "
		       "the lease; B pays again after its takeover");
	for (int stable = 0; stable <= 1; stable++) {
		char name[32];
		snprintf(name, sizeof name, "t7-%s", stable ? "stable" : "per-attempt");
		if ((rc = open_trace(ctx, name, &t)) != 0)
			goto out;
		char err[256];
		char *ppath = wb_xasprintf("%s/provider-%s.db", ctx->run_dir,
					   stable ? "stable" : "per-attempt");
		rc = sqlitex_open(ppath, NULL, &t.provider, err, sizeof err);
		if (rc == 0)
			rc = sqlitex_exec(t.provider, provider_schema);
		free(ppath);
		if (rc) {
			report_cannot(r, "provider database: %s", err);
			goto out;
		}
		t.stable_key = stable;
		t.impl = impl;
		report_step(r, "%s",
			    stable ? "replay with the stable business key settle:T7"
				   : "replay with a new idempotency key per attempt");
		if ((rc = run_trace(ctx, &t, 0)) == TASK_ELOST) {
			report_check(r, "replay-B-completes", 0,
				     "in the replay, B's complete changes 1 row", t.err);
			rc = 0;
			goto out;
		}
		if (rc != 0) {
			report_cannot(r, "replay: %s", tasktable_errmsg(t.a));
			goto out;
		}
		long long n = -1;
		provider_count(t.provider, "T7", &n);
		struct task_row row;
		int got = tasktable_get(t.a, "T7", &row) == 0;
		if (!stable)
			report_checkf(r, "control-per-attempt-key-duplicates",
				      n == 2 && got && row.state == TASK_SUCCEEDED,
				      "the control fails: T7 SUCCEEDED once in the table, yet the "
				      "provider booked 2 payments (T7-attempt-1, T7-attempt-2)",
				      "T7 %s; %lld payments booked for T7",
				      got ? tasktable_state_name(row.state) : "?", n);
		else
			report_checkf(r, "stable-key-no-duplicate",
				      n == 1 && got && row.state == TASK_SUCCEEDED,
				      "one payment for T7: B's request with settle:T7 finds A's",
				      "T7 %s; %lld payment(s) booked for T7",
				      got ? tasktable_state_name(row.state) : "?", n);
		close_trace(&t);
		memset(&t, 0, sizeof t);
		t.impl = impl;
	}
	report_step(r, "rejecting A's late complete protected the table, not the provider: only "
		       "the provider's key can");
out:
	close_trace(&t);
	return rc;
}

static int recipe_renew(void *arg, struct tasktable *tt, const struct task_claim *c,
			long long lease_ms, char *err, size_t errlen)
{
	(void)arg;
	int rc = tasktable_renew(tt, c, lease_ms, NULL, NULL);
	if (rc)
		snprintf(err, errlen, "%s", tasktable_errmsg(tt));
	return rc;
}

static int recipe_complete(void *arg, struct tasktable *tt, const struct task_claim *c, char *err,
			   size_t errlen)
{
	(void)arg;
	int rc = tasktable_complete(tt, c);
	if (rc)
		snprintf(err, errlen, "%s", tasktable_errmsg(tt));
	return rc;
}

const struct task_holder_impl task_holder_recipe = {recipe_renew, recipe_complete, NULL};

/* The entry point registered as lab_task_takeover in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"The claim version fenced A's late renew and complete (0 rows) after B's "
		"takeover, so the task table stayed right. A's payment had already happened, "
		"though: only a stable business key (settle:T7), not a key per attempt, kept "
		"the provider from booking it twice.");
	return lab_outcome_of(ctx, task_takeover_scenario(ctx, &task_holder_recipe));
}

const lab_run_fn lab_task_takeover = lab_main;
