/*
 * task-lost-reply.h - the scenario of the lab "task-lost-reply"
 * (task-lost-reply.c) with the recovery of a claim whose reply was lost as
 * a parameter, so the exercise "task-recover-claim"
 * (labs/exercises/task-recover-claim.c) runs the learner's statement where
 * the lab runs tasktable_recover_by_claim_id.  The hook that drops the
 * reply, the restarted process and the checks are the lab's.
 */
#ifndef WB_TASK_LOST_REPLY_LAB_H
#define WB_TASK_LOST_REPLY_LAB_H

#include "lab.h"
#include "recipes/tasktable.h"

#include <stddef.h>

/* Recovers the claim the worker sent as claim_id for task_id, as worker
 * owner: 0 with out filled (task_id, owner, version, attempt,
 * lease_until; outcome WON), TASK_ELOST when it is not the worker's to
 * resume, or another WB_E* with a message in err. */
struct task_recover_impl {
	int (*recover)(void *arg, struct tasktable *tt, const char *task_id, const char *claim_id,
		       const char *owner, struct task_claim *out, char *err, size_t errlen);
	void *arg;
};

/* The recipe's recovery (tasktable_recover_by_claim_id). */
extern const struct task_recover_impl task_recover_recipe;

/* Runs the scenario with impl.  Returns 0 or a WB_E* code. */
int task_lost_reply_scenario(struct lab_ctx *ctx, const struct task_recover_impl *impl);

#endif
