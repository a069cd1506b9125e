// expect-fail: errors-returned
/* counter.c - wrong: a missing counter is created holding delta, as if it
 * had been 0.  The caller named a counter that does not exist (a wrong
 * path, or one deleted on purpose): the call must say ZNONODE, not invent
 * it.  Otherwise the reference. */
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
		if (zrc == ZNONODE) { /* the mistake */
			char out[32];
			int n = snprintf(out, sizeof out, "%ld", delta);
			zrc = zoo_create(c->zh, c->path, out, n, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
			if (zrc == ZOK)
				*new_value = delta;
			return zrc;
		}
		if (zrc != ZOK)
			return zrc;
		buf[len > 0 ? len : 0] = '\0';
		long next = strtol(buf, NULL, 10) + delta;
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
