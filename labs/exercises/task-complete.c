/*
 * task-complete.c - the check of the exercise "task-complete": the
 * learner's statements "renew" and "complete" in place of the recipe's,
 * judged by the lab task-takeover's own scenario
 * (labs/tasks/task-takeover.h: A claims T7, stalls, B takes over at 131,
 * A's renew and complete must change 0 rows, B completes), and then by
 * one more trace the lab does not need: the takeover is by a restarted
 * process of the same worker, so only claim_version tells the two
 * claims apart.
 *
 * One call of a learner's statement is one BEGIN IMMEDIATE transaction;
 * it succeeded when it changed exactly one row.  Parameters: :task_id,
 * :owner, :claim_version and (renew) :lease_ms.  Claims are the recipe's.
 */
#include "exercise.h"
#include "sqlex.h"
#include "base/sqlitex.h"
#include "base/wb.h"
#include "harness/report.h"
#include "recipes/tasktable.h"
#include "tasks/task-takeover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEASE 30

static void holder_params(struct sqlfile_param p[4], const struct task_claim *c, long long lease_ms)
{
	p[0] = (struct sqlfile_param){":task_id", SQLFILE_TEXT, 0, c->task_id, 1};
	p[1] = (struct sqlfile_param){":owner", SQLFILE_TEXT, 0, c->owner, 0};
	p[2] = (struct sqlfile_param){":claim_version", SQLFILE_INT, c->version, NULL, 0};
	p[3] = (struct sqlfile_param){":lease_ms", SQLFILE_INT, lease_ms, NULL, 0};
}

/* Runs statement name for claim c in its own write transaction. */
static int holder_write(const struct sqlfile *f, const char *name, struct tasktable *tt,
			const struct task_claim *c, long long lease_ms, char *err, size_t errlen)
{
	sqlite3 *db = tasktable_db(tt);
	struct sqlfile_param p[4];
	struct sqlex_out o = {0};
	holder_params(p, c, lease_ms);
	int rc = sqlitex_begin_immediate(db);
	if (rc) {
		snprintf(err, errlen, "BEGIN IMMEDIATE: %s", wb_strerror(rc));
		return rc;
	}
	rc = sqlex_exec(db, f, name, p, 4, &o, err, errlen);
	if (rc == 0 && o.changes > 1) {
		snprintf(err, errlen, "%s: changed %d rows for one task_id", name, o.changes);
		rc = WB_EINVAL;
	}
	rc = sqlitex_end(db, rc);
	if (rc)
		return rc;
	if (o.changes == 0) {
		snprintf(err, errlen, "%s: 0 rows", name);
		return TASK_ELOST;
	}
	return 0;
}

static int learner_renew(void *arg, struct tasktable *tt, const struct task_claim *c,
			 long long lease_ms, char *err, size_t errlen)
{
	return holder_write(arg, "renew", tt, c, lease_ms, err, errlen);
}

static int learner_complete(void *arg, struct tasktable *tt, const struct task_claim *c, char *err,
			    size_t errlen)
{
	return holder_write(arg, "complete", tt, c, 0, err, errlen);
}

static const char *rows_of(int rc)
{
	return rc == 0 ? "1 row" : rc == TASK_ELOST ? "0 rows" : wb_strerror(rc);
}

/* The same takeover, by a restarted process of worker A. */
static int restart_trace(struct lab_ctx *ctx, const struct sqlfile *f)
{
	struct report *r = ctx->report;
	char err[256] = "", schema[LAB_PATH_MAX];
	struct tasktable *p1 = NULL, *p2 = NULL;
	struct task_claim c1, c2;
	char *path = wb_xasprintf("%s/t8-restart.db", ctx->run_dir);
	lab_data_file(ctx, "tasks.sql", schema, sizeof schema);
	int rc = tasktable_open(path, schema, NULL, &p1, err, sizeof err);
	if (rc == 0)
		rc = tasktable_open(path, schema, NULL, &p2, err, sizeof err);
	if (rc == 0 && (rc = tasktable_clock_set(p1, 100)) == 0)
		rc = tasktable_add(p1, "T8", 100, NULL);
	if (rc == 0)
		rc = tasktable_claim(p1, "T8", "A", LEASE, &c1);
	if (rc == 0 && (rc = tasktable_clock_set(p1, 131)) == 0)
		rc = tasktable_claim(p2, "T8", "A", LEASE, &c2);
	free(path);
	if (rc) {
		report_cannot(r, "restart trace: %s", p1 ? tasktable_errmsg(p1) : err);
		goto out;
	}
	report_step(r, "one more trace: worker A's process 1 claims T8 at 100 (version 1) and "
		       "stalls; at 131 A restarted as process 2, same name, takes it over "
		       "(version 2)");
	int renew = tasktable_clock_set(p1, 132);
	if (renew == 0)
		renew = learner_renew((void *)f, p1, &c1, LEASE, err, sizeof err);
	int late = tasktable_clock_set(p1, 133);
	if (late == 0)
		late = learner_complete((void *)f, p1, &c1, err, sizeof err);
	report_step(r, "clock 132-133: process 1 wakes and renews, then completes, with version 1");
	report_checkf(r, "restart-late-renew-zero-rows", renew == TASK_ELOST,
		      "process 1's renew: 0 rows (same owner name, older claim_version)",
		      "process 1's renew: %s", rows_of(renew));
	report_checkf(r, "restart-late-complete-zero-rows", late == TASK_ELOST,
		      "process 1's complete: 0 rows; T8 stays RUNNING for process 2",
		      "process 1's complete: %s", rows_of(late));
	int done = tasktable_clock_set(p1, 150);
	if (done == 0)
		done = learner_complete((void *)f, p2, &c2, err, sizeof err);
	struct task_row row;
	int got = tasktable_get(p1, "T8", &row) == 0;
	report_checkf(r, "restart-holder-completes",
		      done == 0 && got && row.state == TASK_SUCCEEDED && row.claim_version == 2,
		      "clock 150: process 2 completes with version 2: 1 row; SUCCEEDED",
		      "process 2: %s; %s, version %lld", rows_of(done),
		      got ? tasktable_state_name(row.state) : "?", got ? row.claim_version : -1);
out:
	tasktable_close(p1);
	tasktable_close(p2);
	return rc;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"renew", "complete", NULL};
	struct task_claim c = {.task_id = "T7", .owner = "A", .version = 1};
	struct sqlfile_param p[4];
	holder_params(p, &c, LEASE);
	struct sqlfile *f = NULL;
	int rc = sqlex_load_data(ctx, code, "tasks.sql", names, p, 4, &f);
	if (rc)
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	report_conclusion(ctx->report,
			  "Your renew and complete changed a row only for the current claim: after "
			  "a takeover, by another worker or by a restart under the same name, the "
			  "late holder's writes changed 0 rows and the new holder completed.");
	struct task_holder_impl impl = {learner_renew, learner_complete, f};
	rc = task_takeover_scenario(ctx, &impl);
	if (rc == 0)
		rc = restart_trace(ctx, f);
	sqlfile_free(f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_task_complete = check;
