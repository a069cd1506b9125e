/*
 * task-lost-reply.c - the lab "task-lost-reply": a claim commits but its
 * reply never reaches the worker (chapter 01, "Claim reply lost").
 *
 * The loss is forced with the recipe's claim hook, which runs after COMMIT
 * returned and before the caller learns the result: the worker keeps only
 * what it sent (task_id, owner, claim_id).  Part 1 recovers the claim by
 * claim_id and finishes the task; on the way it shows that treating
 * "unknown" as "failed" and claiming again only meets its own lease.
 * Part 2 lets the worker (process 1, its own connection) stall with the unknown outcome until its
 * lease has expired and a restarted process with the same worker name has claimed the task (version
 * 2).  Recovery by claim_id finds nothing and stops.  The control, recovery by owner name (the
 * naive SELECT lives in this file, not in the recipe), adopts version 2 as its own: it then
 * completes a task whose real holder is still working, and the real
 * holder's complete changes 0 rows.  That control is expected to fail.
 * The recovery by claim_id is a parameter (task-lost-reply.h): the lab
 * passes the recipe's, the exercise "task-recover-claim" the learner's.
 */
#include "base/wb.h"
#include "harness/report.h"
#include "base/sqlitex.h"
#include "lab.h"
#include "recipes/tasktable.h"
#include "tasks/task-lost-reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEASE 30

/* Drops the reply of the next claim only. */
struct dropper {
	int armed;		     /* 1: drop the next reply */
	struct task_claim committed; /* what the worker never saw */
};

static int drop_reply(void *arg, const struct task_claim *c)
{
	struct dropper *d = arg;
	if (!d->armed)
		return 0;
	d->armed = 0;
	d->committed = *c;
	return 1;
}

/* The control: "which claim is mine?" answered by the worker's name. */
static int recover_by_owner(struct tasktable *tt, const char *task_id, const char *owner,
			    struct task_claim *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(tasktable_db(tt),
				 "SELECT claim_version, claim_id, lease_until, attempt FROM task"
				 " WHERE task_id = ?1 AND owner = ?2 AND state = 'RUNNING'",
				 &st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, task_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, owner, -1, SQLITE_TRANSIENT);
	memset(out, 0, sizeof *out);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		snprintf(out->task_id, sizeof out->task_id, "%s", task_id);
		snprintf(out->owner, sizeof out->owner, "%s", owner);
		out->version = sqlite3_column_int64(st, 0);
		snprintf(out->claim_id, sizeof out->claim_id, "%s",
			 (const char *)sqlite3_column_text(st, 1));
		out->lease_until = sqlite3_column_int64(st, 2);
		out->attempt = sqlite3_column_int64(st, 3);
		out->outcome = TASK_OUTCOME_WON;
	}
	rc = s == SQLITE_ROW ? 0 : s == SQLITE_DONE ? TASK_ELOST : sqlitex_err(s);
	sqlite3_finalize(st);
	return rc;
}

static const char *rows_of(int rc)
{
	return rc == 0 ? "1 row" : rc == TASK_ELOST ? "0 rows" : wb_strerror(rc);
}

static int part1(struct lab_ctx *ctx, const struct task_recover_impl *impl, struct tasktable *tt,
		 struct dropper *d)
{
	struct report *r = ctx->report;
	struct task_claim sent, again, mine;
	int rc;
	if ((rc = tasktable_clock_set(tt, 100)) != 0 || (rc = tasktable_add(tt, "T1", 100, NULL)))
		return rc;
	report_step(r, "part 1, clock 100: worker w claims T1; the hook drops the reply after "
		       "COMMIT");
	d->armed = 1;
	int crc = tasktable_claim(tt, "T1", "w", LEASE, &sent);
	report_checkf(r, "outcome-unknown", crc == WB_EIO && sent.outcome == TASK_OUTCOME_UNKNOWN,
		      "the worker gets an error with outcome UNKNOWN and only its claim_id",
		      "rc %s, outcome %s, version known to the worker: %lld", wb_strerror(crc),
		      sent.outcome == TASK_OUTCOME_UNKNOWN ? "UNKNOWN" : "known", sent.version);
	struct task_row row;
	if ((rc = tasktable_get(tt, "T1", &row)) != 0)
		return rc;
	report_evidence(r, "sent_claim_id", "%s", sent.claim_id);
	report_checkf(r, "claim-did-commit",
		      !strcmp(row.claim_id, sent.claim_id) && row.claim_version == 1 &&
			      row.state == TASK_RUNNING,
		      "the row says RUNNING, version 1, with the claim_id the worker sent",
		      "%s, version %lld, claim_id %s", tasktable_state_name(row.state),
		      row.claim_version, row.claim_id);

	if ((rc = tasktable_clock_set(tt, 105)) != 0)
		return rc;
	int blind = tasktable_claim(tt, "T1", "w", LEASE, &again);
	report_step(r, "clock 105: the wrong move, \"unknown means failed\": claim again with a "
		       "new claim_id");
	report_checkf(r, "blind-retry-meets-own-lease", blind == TASK_ELOST,
		      "0 rows: the worker's own lost claim holds the lease to 130; retrying "
		      "blindly would wait it out and spend attempt 2",
		      "%s (claim_id %s)", rows_of(blind), again.claim_id);

	char err[256] = "";
	int rec = impl->recover(impl->arg, tt, "T1", sent.claim_id, "w", &mine, err, sizeof err);
	if (rec && rec != TASK_ELOST)
		report_evidence(r, "recover_error", "%s", err);
	report_step(r, "clock 105: recover by the claim_id it sent");
	report_checkf(r, "recovered-by-claim-id",
		      rec == 0 && mine.version == 1 && mine.lease_until == 130,
		      "found: version 1, lease_until 130; the worker continues with them",
		      "%s: version %lld, lease_until %lld", rec == 0 ? "found" : rows_of(rec),
		      mine.version, mine.lease_until);
	if (rec != 0)
		return 0;
	int renew = tasktable_renew(tt, &mine, LEASE, NULL, NULL);
	if ((rc = tasktable_clock_set(tt, 120)) != 0)
		return rc;
	int done = tasktable_complete(tt, &mine);
	tasktable_get(tt, "T1", &row);
	report_checkf(r, "recovered-claim-finishes",
		      renew == 0 && done == 0 && row.state == TASK_SUCCEEDED && row.attempt == 1,
		      "renew and complete with the recovered version: 1 row each; SUCCEEDED "
		      "after a single attempt",
		      "renew %s, complete %s; %s, attempt %lld", rows_of(renew), rows_of(done),
		      tasktable_state_name(row.state), row.attempt);
	return 0;
}

static int part2(struct lab_ctx *ctx, const struct task_recover_impl *impl, struct tasktable *tt,
		 struct tasktable *tt2, struct dropper *d)
{
	struct report *r = ctx->report;
	struct task_claim first, second, rec, adopted;
	int rc;
	if ((rc = tasktable_clock_set(tt, 200)) != 0 || (rc = tasktable_add(tt, "T2", 200, NULL)))
		return rc;
	report_step(r, "part 2, clock 200: process 1 of worker w claims T2; the reply is lost "
		       "and process 1 stalls before it can recover");
	d->armed = 1;
	int crc = tasktable_claim(tt, "T2", "w", LEASE, &first);
	if (crc != WB_EIO) {
		report_check(r, "reply-dropped", 0, "the hook drops the reply", rows_of(crc));
		return 0;
	}
	report_evidence(r, "process1_claim_id", "%s (committed as version %lld)", first.claim_id,
			d->committed.version);

	if ((rc = tasktable_clock_set(tt, 231)) != 0)
		return rc;
	int c2 = tasktable_claim(tt2, "T2", "w", LEASE, &second);
	report_step(r, "clock 231: the lease (to 230) has expired; worker w, restarted as process "
		       "2 under the same name, claims T2");
	report_checkf(r, "process2-claims", c2 == 0 && second.version == 2,
		      "1 row: version 2, a new claim_id", "%s: version %lld, claim_id %s",
		      rows_of(c2), second.version, second.claim_id);
	if (c2 != 0)
		return 0;

	if ((rc = tasktable_clock_set(tt, 235)) != 0)
		return rc;
	report_step(r, "clock 235: process 1 wakes and recovers its unknown claim");
	char err[256] = "";
	int byid = impl->recover(impl->arg, tt, "T2", first.claim_id, "w", &rec, err, sizeof err);
	if (byid && byid != TASK_ELOST)
		report_evidence(r, "recover_error", "%s", err);
	report_checkf(r, "claim-id-recovery-stops", byid == TASK_ELOST,
		      "by claim_id: no row, the claim was taken over; process 1 stops",
		      "by claim_id: %s", byid == 0 ? "found (wrong)" : rows_of(byid));

	int byname = recover_by_owner(tt, "T2", "w", &adopted);
	report_checkf(r, "control-owner-recovery-adopts-newer-claim",
		      byname == 0 && adopted.version == 2 &&
			      strcmp(adopted.claim_id, first.claim_id) != 0,
		      "the control fails: by owner name process 1 finds version 2, which is "
		      "process 2's claim, and adopts it",
		      "by owner 'w': %s, version %lld, claim_id %s (process 1 sent %.8s...)",
		      byname == 0 ? "found" : rows_of(byname), adopted.version, adopted.claim_id,
		      first.claim_id);
	if (byname != 0)
		return 0;

	if ((rc = tasktable_clock_set(tt, 240)) != 0)
		return rc;
	int wrong = tasktable_complete(tt, &adopted);
	if ((rc = tasktable_clock_set(tt, 250)) != 0)
		return rc;
	int real = tasktable_complete(tt2, &second);
	report_step(r, "clock 240: process 1 completes with the adopted version; clock 250: "
		       "process 2, which did the work, completes");
	report_checkf(r, "control-harm", wrong == 0 && real == TASK_ELOST,
		      "the adopted claim passes every guard (task, owner, version): process 1's "
		      "complete changes 1 row, process 2's changes 0 rows",
		      "process 1: %s, process 2: %s", rows_of(wrong), rows_of(real));
	return 0;
}

int task_lost_reply_scenario(struct lab_ctx *ctx, const struct task_recover_impl *impl)
{
	char err[256];
	struct tasktable *tt = NULL, *tt2 = NULL;
	struct dropper d = {0};
	char *path = wb_xasprintf("%s/tasks.db", ctx->run_dir);
	/* One connection per process of worker w: process 1 (whose replies
	 * the hook drops) and process 2 (its restart). */
	char schema[LAB_PATH_MAX];
	int rc = tasktable_open(path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema), NULL,
				&tt, err, sizeof err);
	if (rc == 0)
		rc = tasktable_open(path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema),
				    NULL, &tt2, err, sizeof err);
	if (rc) {
		report_cannot(ctx->report, "task table: %s", err);
		goto out;
	}
	tasktable_set_claim_hook(tt, drop_reply, &d);
	rc = part1(ctx, impl, tt, &d);
	if (rc == 0)
		rc = part2(ctx, impl, tt, tt2, &d);
	if (rc)
		report_cannot(ctx->report, "task table: %s", tasktable_errmsg(tt));
out:
	tasktable_close(tt);
	tasktable_close(tt2);
	free(path);
	return rc;
}

static int recipe_recover(void *arg, struct tasktable *tt, const char *task_id,
			  const char *claim_id, const char *owner, struct task_claim *out,
			  char *err, size_t errlen)
{
	(void)arg;
	(void)owner; /* a claim is found by its claim_id, never by the name */
	int rc = tasktable_recover_by_claim_id(tt, task_id, claim_id, out);
	if (rc && rc != TASK_ELOST)
		snprintf(err, errlen, "%s", tasktable_errmsg(tt));
	return rc;
}

const struct task_recover_impl task_recover_recipe = {recipe_recover, NULL};

/* The entry point registered as lab_task_lost_reply in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"A claim whose reply was lost was recovered safely by the claim_id the worker "
		"had sent, while a blind retry only met its own lease. Recovery by owner name "
		"(the control) adopted a restarted process's newer claim and completed a task "
		"its real holder was still working on.");
	return lab_outcome_of(ctx, task_lost_reply_scenario(ctx, &task_recover_recipe));
}

const lab_run_fn lab_task_lost_reply = lab_main;
