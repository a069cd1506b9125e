/* counter.c - your read-modify-write of the counter (zk-cas-update).
 * Read api.h first: it says what you are given and what to return. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>

int counter_add(const struct cas_counter *c, long delta, long *new_value)
{
	(void)c;
	(void)delta;
	(void)new_value;
	/* 1. zoo_get the counter: its text and its struct Stat (st.version).
	 * 2. Compute the new value and format it as decimal text.
	 * 3. zoo_set with the version you read.
	 * 4. On ZBADVERSION, start again from 1. */
	return ZUNIMPLEMENTED;
}
