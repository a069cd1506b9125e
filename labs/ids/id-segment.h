/*
 * id-segment.h - the scenario of the lab "id-segment" (id-segment.c) with
 * the allocation statement as a parameter, so the exercise
 * "segment-alloc" (labs/exercises/segment-alloc.c) runs the learner's
 * statement where the lab runs the recipe's (recipes/segment.h,
 * segment_set_bump).  Processes, barriers, the lost reply, the backup and
 * its restore, the forced interleaving and the checks are the lab's.
 */
#ifndef WB_ID_SEGMENT_LAB_H
#define WB_ID_SEGMENT_LAB_H

#include "lab.h"
#include "recipes/segment.h"

/* Called on every allocator the scenario opens with its witness (also in
 * the allocator processes, after fork); the control, which serves a
 * restored backup without a witness, is always the recipe's.  setup NULL:
 * the recipe's own statement. */
struct segment_impl {
	void (*setup)(void *arg, struct segment_alloc *a);
	void *arg;
};

/* Runs the scenario with impl (NULL: the recipe).  Returns 0 or a WB_E*
 * code. */
int id_segment_scenario(struct lab_ctx *ctx, const struct segment_impl *impl);

#endif
