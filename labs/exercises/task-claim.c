/*
 * task-claim.c - the check of the exercise "task-claim": the learner's
 * statement "claim" in place of the recipe's conditional claim, judged
 * by the lab task-claim's own scenario (labs/tasks/task-claim.h): eight
 * worker processes, barriers, the stalled holders, the takeovers and the
 * same named checks.
 *
 * One call of the learner's claim is one BEGIN IMMEDIATE transaction: the
 * statement, then (when it changed one row) the row's claim_version,
 * attempt and lease_until, read by this adapter, and the database's time,
 * which is what the scenario records as the claim's time.  The statement
 * may use :task_id, :owner, :claim_id, :lease_ms and :now, the worker's
 * own clock, which the scenario sets differently for every worker (a
 * claim must not use it: leases-from-db-clock catches it).
 *
 * It does not grade style: only what the statement did to the table.
 */
#include "exercise.h"
#include "sqlex.h"
#include "base/sqlitex.h"
#include "base/wb.h"
#include "harness/report.h"
#include "recipes/tasktable.h"
#include "tasks/task-claim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct learner {
	struct sqlfile *f;
};

static void claim_params(struct sqlfile_param p[5], const char *task_id, const char *owner,
			 const char *claim_id, long long lease_ms, long long worker_clock)
{
	p[0] = (struct sqlfile_param){":task_id", SQLFILE_TEXT, 0, task_id, 1};
	p[1] = (struct sqlfile_param){":owner", SQLFILE_TEXT, 0, owner, 1};
	p[2] = (struct sqlfile_param){":claim_id", SQLFILE_TEXT, 0, claim_id, 1};
	p[3] = (struct sqlfile_param){":lease_ms", SQLFILE_INT, lease_ms, NULL, 1};
	p[4] = (struct sqlfile_param){":now", SQLFILE_INT, worker_clock, NULL, 0};
}

/* Reads the claimed row back inside the claim's transaction. */
static int read_back(sqlite3 *db, const char *task_id, struct task_claim *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(db,
				 "SELECT claim_version, attempt, lease_until, owner, claim_id"
				 "  FROM task WHERE task_id = ?1",
				 &st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, task_id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st) == SQLITE_ROW ? 0 : WB_EIO;
	if (rc == 0) {
		out->version = sqlite3_column_int64(st, 0);
		out->attempt = sqlite3_column_int64(st, 1);
		out->lease_until = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc;
}

static int learner_claim(void *arg, struct tasktable *tt, const char *task_id, const char *owner,
			 long long lease_ms, long long worker_clock, struct task_claim *out,
			 char *err, size_t errlen)
{
	struct learner *L = arg;
	sqlite3 *db = tasktable_db(tt);
	memset(out, 0, sizeof *out);
	snprintf(out->task_id, sizeof out->task_id, "%s", task_id);
	snprintf(out->owner, sizeof out->owner, "%s", owner);
	sqlex_random_id(out->claim_id);
	struct sqlfile_param p[5];
	claim_params(p, task_id, owner, out->claim_id, lease_ms, worker_clock);
	int rc = sqlitex_begin_immediate(db);
	if (rc) {
		snprintf(err, errlen, "BEGIN IMMEDIATE: %s", wb_strerror(rc));
		return rc;
	}
	long long now = 0;
	rc = sqlitex_int(db, "SELECT now FROM db_now", &now);
	struct sqlex_out o;
	if (rc == 0)
		rc = sqlex_exec(db, L->f, "claim", p, 5, &o, err, errlen);
	if (rc == 0 && o.changes > 1) {
		snprintf(err, errlen, "claim: changed %d rows for one task_id", o.changes);
		rc = WB_EINVAL;
	}
	if (rc == 0 && o.changes == 1) {
		rc = read_back(db, task_id, out);
		out->claimed_at = now;
		out->outcome = TASK_OUTCOME_WON;
	}
	rc = sqlitex_end(db, rc);
	if (rc)
		return rc;
	return o.changes == 1 ? 0 : TASK_ELOST;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"claim", NULL};
	struct sqlfile_param p[5];
	claim_params(p, "T000", "w1", "00000000000000000000000000000000", 30, 100);
	struct learner L = {0};
	int rc = sqlex_load_data(ctx, code, "tasks.sql", names, p, 5, &L.f);
	if (rc)
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	report_conclusion(ctx->report,
			  "Your claim gave every claim version exactly one holder, judged by the "
			  "database's clock: leases never overlapped, a late complete changed 0 "
			  "rows and every expired task was taken over exactly once.");
	struct task_claim_impl impl = {learner_claim, &L};
	rc = task_claim_scenario(ctx, &impl);
	sqlfile_free(L.f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_task_claim = check;
