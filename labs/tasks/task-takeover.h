/*
 * task-takeover.h - the scenario of the lab "task-takeover"
 * (task-takeover.c) with the holder's renew and complete as parameters,
 * so the exercise "task-complete" (labs/exercises/task-complete.c) runs
 * the learner's statements where the lab runs tasktable_renew and
 * tasktable_complete.  The trace, the clock steps, the payment provider
 * and the checks are the lab's.
 */
#ifndef WB_TASK_TAKEOVER_LAB_H
#define WB_TASK_TAKEOVER_LAB_H

#include "lab.h"
#include "recipes/tasktable.h"

#include <stddef.h>

/* The holder's writes for claim c: each 0 (one row changed), TASK_ELOST
 * (0 rows: not the current claim) or another WB_E* with a message in
 * err. */
struct task_holder_impl {
	int (*renew)(void *arg, struct tasktable *tt, const struct task_claim *c,
		     long long lease_ms, char *err, size_t errlen);
	int (*complete)(void *arg, struct tasktable *tt, const struct task_claim *c, char *err,
			size_t errlen);
	void *arg;
};

/* The recipe's renew and complete. */
extern const struct task_holder_impl task_holder_recipe;

/* Runs the scenario with impl.  Returns 0 or a WB_E* code. */
int task_takeover_scenario(struct lab_ctx *ctx, const struct task_holder_impl *impl);

#endif
