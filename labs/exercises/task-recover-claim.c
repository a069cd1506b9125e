/*
 * task-recover-claim.c - the check of the exercise "task-recover-claim":
 * the learner's statement "recover" in place of the recipe's recovery by
 * claim_id, judged by the lab task-lost-reply's own scenario
 * (labs/tasks/task-lost-reply.h): the claim hook drops the reply after
 * COMMIT, a blind retry meets its own lease, and a restarted process with
 * the same worker name takes the task over before the first one recovers.
 *
 * The statement gets :task_id, :claim_id and :owner (the worker's name)
 * and must return the columns claim_version and lease_until (attempt when
 * it likes) of the claim it found; no row means "not mine to resume".
 * It runs on its own, outside any transaction of this adapter.
 */
#include "exercise.h"
#include "sqlex.h"
#include "base/wb.h"
#include "harness/report.h"
#include "recipes/tasktable.h"
#include "tasks/task-lost-reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void recover_params(struct sqlfile_param p[3], const char *task_id, const char *claim_id,
			   const char *owner)
{
	p[0] = (struct sqlfile_param){":task_id", SQLFILE_TEXT, 0, task_id, 0};
	p[1] = (struct sqlfile_param){":claim_id", SQLFILE_TEXT, 0, claim_id, 0};
	p[2] = (struct sqlfile_param){":owner", SQLFILE_TEXT, 0, owner, 0};
}

static int learner_recover(void *arg, struct tasktable *tt, const char *task_id,
			   const char *claim_id, const char *owner, struct task_claim *out,
			   char *err, size_t errlen)
{
	const struct sqlfile *f = arg;
	struct sqlfile_param p[3];
	struct sqlex_out o;
	memset(out, 0, sizeof *out);
	recover_params(p, task_id, claim_id, owner);
	int rc = sqlex_exec(tasktable_db(tt), f, "recover", p, 3, &o, err, errlen);
	if (rc)
		return rc;
	if (o.rows == 0)
		return TASK_ELOST;
	if (o.rows > 1) {
		snprintf(err, errlen, "recover: %d rows for one claim", o.rows);
		return WB_EINVAL;
	}
	if (sqlex_int(&o, "claim_version", &out->version) != 0 ||
	    sqlex_int(&o, "lease_until", &out->lease_until) != 0) {
		snprintf(err, errlen,
			 "recover: the row has no column claim_version or lease_until");
		return WB_EINVAL;
	}
	(void)sqlex_int(&o, "attempt", &out->attempt);
	snprintf(out->task_id, sizeof out->task_id, "%s", task_id);
	snprintf(out->owner, sizeof out->owner, "%s", owner);
	snprintf(out->claim_id, sizeof out->claim_id, "%s", claim_id);
	out->outcome = TASK_OUTCOME_WON;
	return 0;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"recover", NULL};
	struct sqlfile_param p[3];
	recover_params(p, "T1", "00000000000000000000000000000000", "w");
	struct sqlfile *f = NULL;
	int rc = sqlex_load_data(ctx, code, "tasks.sql", names, p, 3, &f);
	if (rc)
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	report_conclusion(ctx->report,
			  "Your recovery found the lost claim by the claim_id the worker had sent "
			  "and finished the task with it, and found nothing once a restarted "
			  "process under the same name had taken the task over.");
	struct task_recover_impl impl = {learner_recover, f};
	rc = task_lost_reply_scenario(ctx, &impl);
	sqlfile_free(f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_task_recover_claim = check;
