// expect-fail: adds-delta
/* counter.c - wrong: reads the counter with atoi into an int.  A counter
 * past 2147483647 ("9000000000") is read as garbage and the sum stored is
 * wrong; otherwise the reference. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>

int counter_add(const struct cas_counter *c, long delta, long *new_value)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		char buf[32];
		int len = sizeof buf - 1;
		struct Stat st;
		int zrc = zoo_get(c->zh, c->path, 0, buf, &len, &st);
		if (zrc != ZOK)
			return zrc;
		buf[len > 0 ? len : 0] = '\0';
		long next = atoi(buf) + delta; /* the mistake: int, not long */
		char out[32];
		int n = snprintf(out, sizeof out, "%ld", next);
		/* The version we read: the server refuses the write if anyone
		 * wrote since. */
		zrc = zoo_set(c->zh, c->path, out, n, st.version);
		if (zrc == ZOK) {
			*new_value = next;
			return ZOK;
		}
		if (zrc != ZBADVERSION)
			return zrc;
		/* Somebody else won: our read is stale; read again. */
	}
	return ZBADVERSION;
}
