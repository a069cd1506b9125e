/*
 * task-claim.h - the scenario of the lab "task-claim" (task-claim.c) with
 * the claim as a parameter, so the exercise of the same name
 * (labs/exercises/task-claim.c) runs the learner's statement where the
 * lab runs the recipe's.  Everything else (workers, barriers, the
 * control, the checks) is the lab's.
 */
#ifndef WB_TASK_CLAIM_LAB_H
#define WB_TASK_CLAIM_LAB_H

#include "lab.h"
#include "recipes/tasktable.h"

#include <stddef.h>

/* One claim, as tasktable_claim does it: 0 (won, out filled as
 * tasktable_claim fills it, claimed_at being the database's time of the
 * claim), TASK_ELOST (0 rows) or another WB_E* with a message in err.
 * worker_clock is what this worker's own clock reads now, which the
 * scenario sets differently for every worker; a claim must not trust it.
 * Runs in a forked worker process: arg is the parent's copy. */
struct task_claim_impl {
	int (*claim)(void *arg, struct tasktable *tt, const char *task_id, const char *owner,
		     long long lease_ms, long long worker_clock, struct task_claim *out, char *err,
		     size_t errlen);
	void *arg;
};

/* The recipe's claim (tasktable_claim). */
extern const struct task_claim_impl task_claim_recipe;

/* Runs the scenario with impl.  Returns 0 or a WB_E* code (after
 * report_cannot when the environment prevented it). */
int task_claim_scenario(struct lab_ctx *ctx, const struct task_claim_impl *impl);

#endif
