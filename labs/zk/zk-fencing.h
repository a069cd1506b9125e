/*
 * zk-fencing.h - the scenario of the lab "zk-fencing" (zk-fencing.c) with
 * the fenced resource's write as a parameter, so the exercise
 * "fenced-write" (labs/exercises/fenced-write.c) runs the learner's
 * statements where the lab runs the recipe's (recipes/fenced.h,
 * fenced_set_write).  The server, the proxy that silences A, the paused
 * business thread, the forced interleaving and the checks are the lab's;
 * the unfenced control is always the lab's own.
 */
#ifndef WB_ZK_FENCING_LAB_H
#define WB_ZK_FENCING_LAB_H

#include "lab.h"
#include "recipes/fenced.h"

/* Called on every fenced (FENCED_ON) connection the scenario opens, also
 * on A's business thread's.  setup NULL: the recipe's statement. */
struct fenced_impl {
	void (*setup)(void *arg, struct fenced *f);
	void *arg;
};

/* Runs the scenario with impl (NULL: the recipe).  Returns 0 or a WB_E*
 * code. */
int zk_fencing_scenario(struct lab_ctx *ctx, const struct fenced_impl *impl);

#endif
