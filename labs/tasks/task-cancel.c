/*
 * task-cancel.c - the lab "task-cancel": cancel against claim in both
 * orders, a cooperative cancel of a running task, a cancel that arrives
 * after the side effect, and terminal states that no claim can match
 * (chapter 01, "Cancellation: define the boundary first").
 *
 * Two connections to one SQLite file play the claimer (a worker) and the
 * canceller (an operator); each reads its own, soon stale, view first (a
 * candidate list, a row) and then sends one conditional UPDATE, so the
 * race is on the one row both statements name.  The order is forced by
 * the order of the calls, not by timing.  Side effects go to a separate
 * "effects" database, the stand-in for an external service.
 *
 * It deliberately does not show interrupting a thread: that only sets a
 * local flag, which is exactly what cancel_requested is, made durable.
 */
#include "base/wb.h"
#include "harness/report.h"
#include "base/sqlitex.h"
#include "lab.h"
#include "recipes/tasktable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEASE 30

struct env {
	struct lab_ctx *ctx;
	struct tasktable *worker;   /* the claimer's connection */
	struct tasktable *operator; /* the canceller's connection */
	sqlite3 *effects;	    /* the external service */
};

static const char *rows_of(int rc)
{
	return rc == 0 ? "1 row" : rc == TASK_ELOST ? "0 rows" : wb_strerror(rc);
}

static const char *cancel_name(enum task_cancel_result r)
{
	return r == TASK_CANCEL_DONE	    ? "DONE"
	       : r == TASK_CANCEL_REQUESTED ? "REQUESTED"
					    : "TOO_LATE";
}

/* One side effect, committed in the external database. */
static int effect(struct env *e, const char *task_id, const char *what)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(e->effects, "INSERT INTO effect (task_id, what) VALUES (?1, ?2)",
				 &st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, task_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, what, -1, SQLITE_TRANSIENT);
	rc = sqlitex_err(sqlite3_step(st));
	sqlite3_finalize(st);
	if (rc == 0)
		report_evidence(e->ctx->report, "effect", "%s: %s committed externally", task_id,
				what);
	return rc;
}

/* "reserve,charge" for a task's effects in order. */
static void effects_of(struct env *e, const char *task_id, char *buf, size_t n)
{
	sqlite3_stmt *st = NULL;
	buf[0] = '\0';
	if (sqlitex_prepare(e->effects,
			    "SELECT group_concat(what, ',') FROM"
			    " (SELECT what FROM effect WHERE task_id = ?1 ORDER BY rowid)",
			    &st) != 0)
		return;
	sqlite3_bind_text(st, 1, task_id, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, n, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static enum task_state state_of(struct tasktable *tt, const char *id)
{
	struct task_row r;
	return tasktable_get(tt, id, &r) == 0 ? r.state : (enum task_state) - 1;
}

/* Cancel first: the claim's WHERE state = 'READY' can no longer match. */
static int cancel_then_claim(struct env *e)
{
	struct report *r = e->ctx->report;
	char cand[4][TASK_ID_MAX];
	int n = 0, rc;
	if ((rc = tasktable_due(e->worker, cand, 4, &n)) != 0)
		return rc;
	report_step(r,
		    "T1, clock 100: the worker lists due tasks (%d: %s) and is about to "
		    "claim; the operator cancels first",
		    n, n ? cand[0] : "-");
	struct task_cancel k;
	if ((rc = tasktable_cancel(e->operator, "T1", &k)) != 0)
		return rc;
	struct task_claim c;
	int claim = tasktable_claim(e->worker, n ? cand[0] : "T1", "worker", LEASE, &c);
	report_checkf(r, "cancel-wins",
		      k.result == TASK_CANCEL_DONE && k.never_ran && claim == TASK_ELOST &&
			      state_of(e->worker, "T1") == TASK_CANCELLED,
		      "cancel: DONE (READY -> CANCELLED, never ran); the claim from the stale "
		      "list: 0 rows; T1 stays CANCELLED",
		      "cancel: %s%s; claim: %s; T1 %s", cancel_name(k.result),
		      k.never_ran ? " (never ran)" : "", rows_of(claim),
		      tasktable_state_name(state_of(e->worker, "T1")));
	return 0;
}

/* Claim first: the cancel can only ask; then the worker stops itself
 * before its next side effect. */
static int claim_then_cancel(struct env *e)
{
	struct report *r = e->ctx->report;
	struct task_row seen;
	int rc;
	if ((rc = tasktable_get(e->operator, "T2", &seen)) != 0)
		return rc;
	report_step(r,
		    "T2: the operator reads T2 as %s and decides to cancel; the worker's "
		    "claim lands first",
		    tasktable_state_name(seen.state));
	struct task_claim c;
	int claim = tasktable_claim(e->worker, "T2", "worker", LEASE, &c);
	if (claim != 0) {
		report_check(r, "claim-wins", 0, "the worker's claim: 1 row", rows_of(claim));
		return 0;
	}
	int req = 0;
	if ((rc = tasktable_check(e->worker, &c, &req)) != 0)
		return rc;
	if (!req && (rc = effect(e, "T2", "reserve")) != 0)
		return rc;
	struct task_cancel k;
	if ((rc = tasktable_cancel(e->operator, "T2", &k)) != 0)
		return rc;
	report_checkf(r, "claim-wins-cancel-only-requests",
		      k.result == TASK_CANCEL_REQUESTED && !k.never_ran &&
			      state_of(e->worker, "T2") == TASK_RUNNING,
		      "cancel: REQUESTED, not \"never ran\" (its READY -> CANCELLED matched 0 "
		      "rows); T2 RUNNING with cancel_requested",
		      "cancel: %s%s; T2 %s", cancel_name(k.result),
		      k.never_ran ? " (never ran)" : "",
		      tasktable_state_name(state_of(e->worker, "T2")));

	report_step(r, "the worker checks before its next side effect (charge)");
	if ((rc = tasktable_check(e->worker, &c, &req)) != 0)
		return rc;
	int stop = TASK_ELOST;
	if (req)
		stop = tasktable_stop_cancelled(e->worker, &c);
	else if ((rc = effect(e, "T2", "charge")) != 0)
		return rc;
	char fx[128];
	effects_of(e, "T2", fx, sizeof fx);
	report_checkf(r, "cooperative-stop",
		      req && stop == 0 && state_of(e->worker, "T2") == TASK_CANCELLED &&
			      !strcmp(fx, "reserve"),
		      "the flag is seen, the worker stops (version-guarded RUNNING -> "
		      "CANCELLED, 1 row); effects: reserve only, charge never sent",
		      "flag %d, stop %s; T2 %s; effects: %s", req, rows_of(stop),
		      tasktable_state_name(state_of(e->worker, "T2")), fx[0] ? fx : "none");
	report_evidence(r, "compensation",
			"T2's reserve had committed before the cancel: "
			"releasing it is a new business action");
	return 0;
}

/* The cancel arrives after the side effect committed. */
static int cancel_after_effect(struct env *e)
{
	struct report *r = e->ctx->report;
	struct task_claim c;
	int rc, req = 0;
	int claim = tasktable_claim(e->worker, "T3", "worker", LEASE, &c);
	if (claim != 0) {
		report_check(r, "claim-T3", 0, "the worker's claim: 1 row", rows_of(claim));
		return 0;
	}
	report_step(r, "T3: the worker claims, checks the flag (clear) and pays; then the "
		       "cancel arrives");
	if ((rc = tasktable_check(e->worker, &c, &req)) != 0)
		return rc;
	if (!req && (rc = effect(e, "T3", "pay")) != 0)
		return rc;
	struct task_cancel k;
	if ((rc = tasktable_cancel(e->operator, "T3", &k)) != 0)
		return rc;
	/* The worker sees the flag, but its effect is already done: the
	 * honest record is that the task ran. */
	if ((rc = tasktable_check(e->worker, &c, &req)) != 0)
		return rc;
	int done = tasktable_complete(e->worker, &c);
	struct task_cancel again;
	if ((rc = tasktable_cancel(e->operator, "T3", &again)) != 0)
		return rc;
	char fx[128];
	effects_of(e, "T3", fx, sizeof fx);
	report_checkf(r, "late-cancel-cannot-say-never-ran",
		      k.result == TASK_CANCEL_REQUESTED && !k.never_ran && req && done == 0 &&
			      again.result == TASK_CANCEL_TOO_LATE &&
			      again.state == TASK_SUCCEEDED && !strcmp(fx, "pay"),
		      "cancel: REQUESTED (not never-ran); the worker sees the flag after paying "
		      "and records SUCCEEDED; asking again: TOO_LATE, SUCCEEDED; effects: pay",
		      "cancel: %s; flag %d; complete %s; again: %s, %s; effects: %s",
		      cancel_name(k.result), req, rows_of(done), cancel_name(again.result),
		      tasktable_state_name(again.state), fx[0] ? fx : "none");
	return 0;
}

/* A holder that vanished after a cancel request: no takeover, swept. */
static int cancel_then_vanish(struct env *e)
{
	struct report *r = e->ctx->report;
	struct task_claim c, other;
	int rc;
	int claim = tasktable_claim(e->worker, "T4", "worker", LEASE, &c);
	struct task_cancel k;
	if (claim != 0 || (rc = tasktable_cancel(e->operator, "T4", &k)) != 0) {
		report_check(r, "claim-T4", 0, "claim then cancel request", rows_of(claim));
		return 0;
	}
	report_step(r, "T4: claimed at 100, cancel requested, then its worker vanishes; clock "
		       "131, past the lease");
	if ((rc = tasktable_clock_set(e->operator, 131)) != 0)
		return rc;
	int take = tasktable_claim(e->operator, "T4", "other", LEASE, &other);
	int nc = 0, nf = 0;
	if ((rc = tasktable_sweep(e->operator, & nc, &nf)) != 0)
		return rc;
	report_checkf(r, "no-takeover-after-cancel-request",
		      take == TASK_ELOST && nc == 1 &&
			      state_of(e->operator, "T4") == TASK_CANCELLED,
		      "another worker's claim: 0 rows (cancel_requested = 1); the sweep moves T4 "
		      "to CANCELLED",
		      "claim: %s; sweep: %d cancelled, %d failed; T4 %s", rows_of(take), nc, nf,
		      tasktable_state_name(state_of(e->operator, "T4")));
	return 0;
}

static int terminal_states(struct env *e)
{
	struct report *r = e->ctx->report;
	struct task_claim c;
	enum task_state fst = TASK_READY;
	int rc;
	/* T5 fails its only attempt. */
	if ((rc = tasktable_claim(e->worker, "T5", "worker", LEASE, &c)) != 0 ||
	    (rc = tasktable_fail(e->worker, &c, "declined", &fst, NULL)) != 0)
		return rc;
	if ((rc = tasktable_clock_set(e->operator, 1000000)) != 0)
		return rc;
	report_step(r,
		    "clock 1000000: try to claim every terminal task (T1 CANCELLED, T2 "
		    "CANCELLED, T3 SUCCEEDED, T4 CANCELLED, T5 %s)",
		    tasktable_state_name(fst));
	const char *ids[] = {"T1", "T2", "T3", "T4", "T5"};
	int zero = 0;
	char got[128] = "";
	for (size_t i = 0; i < WB_ARRAY_LEN(ids); i++) {
		int rc2 = tasktable_claim(e->worker, ids[i], "late", LEASE, &c);
		zero += rc2 == TASK_ELOST;
		size_t len = strlen(got);
		snprintf(got + len, sizeof got - len, "%s%s %s", i ? ", " : "", ids[i],
			 rows_of(rc2));
	}
	int next = tasktable_claim_next(e->worker, "late", LEASE, &c);
	report_checkf(r, "terminal-states-unclaimable",
		      fst == TASK_FAILED && zero == (int)WB_ARRAY_LEN(ids) && next == TASK_ELOST,
		      "T5 FAILED (max_attempts 1); every claim 0 rows; claim_next finds nothing",
		      "%s; claim_next %s", got, next == TASK_ELOST ? "nothing" : c.task_id);
	return 0;
}

static int task_cancel_run(struct lab_ctx *ctx)
{
	struct env e = {.ctx = ctx};
	char err[256];
	char *path = wb_xasprintf("%s/tasks.db", ctx->run_dir);
	char *fxpath = wb_xasprintf("%s/effects.db", ctx->run_dir);
	char schema[LAB_PATH_MAX];
	int rc = tasktable_open(path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema), NULL,
				&e.worker, err, sizeof err);
	if (rc == 0)
		rc = tasktable_open(path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema),
				    NULL, &e.operator, err, sizeof err);
	if (rc == 0)
		rc = sqlitex_open(fxpath, NULL, &e.effects, err, sizeof err);
	if (rc == 0)
		rc = sqlitex_exec(e.effects, "CREATE TABLE effect (task_id TEXT NOT NULL,"
					     " what TEXT NOT NULL) STRICT");
	if (rc) {
		report_cannot(ctx->report, "databases: %s", err);
		goto out;
	}
	struct task_opts once = {.max_attempts = 1};
	rc = tasktable_clock_set(e.worker, 100);
	const char *ids[] = {"T1", "T2", "T3", "T4"};
	for (size_t i = 0; rc == 0 && i < WB_ARRAY_LEN(ids); i++)
		rc = tasktable_add(e.worker, ids[i], i == 0 ? 90 : 100, NULL);
	if (rc == 0)
		rc = tasktable_add(e.worker, "T5", 100, &once);
	report_step(ctx->report,
		    "tasks T1..T5 READY (T1 due 90, the rest 100), clock 100; a worker and an "
		    "operator on two connections to %s",
		    path);
	if (rc == 0)
		rc = cancel_then_claim(&e);
	if (rc == 0)
		rc = claim_then_cancel(&e);
	if (rc == 0)
		rc = cancel_after_effect(&e);
	if (rc == 0)
		rc = cancel_then_vanish(&e);
	if (rc == 0)
		rc = terminal_states(&e);
	if (rc)
		report_cannot(ctx->report, "task table: %s", tasktable_errmsg(e.worker));
out:
	tasktable_close(e.worker);
	tasktable_close(e.operator);
	sqlite3_close_v2(e.effects);
	free(path);
	free(fxpath);
	return rc;
}

/* The entry point registered as lab_task_cancel in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"One conditional UPDATE on the task row decided each cancel/claim race: a claim "
		"that won saw only a cancel request, which the worker honoured before its next "
		"side effect. A cancel after the side effect could not make the task not have "
		"run, and no claim matched a cancelled or finished task.");
	return lab_outcome_of(ctx, task_cancel_run(ctx));
}

const lab_run_fn lab_task_cancel = lab_main;
