// expect-fail: errors-returned
/* counter.c - wrong: "keeps trying until it works", with no bound: a
 * counter that does not exist (ZNONODE) or cannot be written (ZNOAUTH)
 * never works, and counter_add never returns. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>

int counter_add(const struct cas_counter *c, long delta, long *new_value)
{
	for (;;) {
		char buf[32];
		int len = sizeof buf - 1;
		struct Stat st;
		int zrc = zoo_get(c->zh, c->path, 0, buf, &len, &st);
		if (zrc == ZCONNECTIONLOSS)
			return zrc;
		if (zrc != ZOK)
			continue; /* the mistake: no bound, and ZNONODE never heals */
		buf[len > 0 ? len : 0] = '\0';
		long next = strtol(buf, NULL, 10) + delta;
		char out[32];
		int n = snprintf(out, sizeof out, "%ld", next);
		zrc = zoo_set(c->zh, c->path, out, n, st.version);
		if (zrc == ZOK) {
			*new_value = next;
			return ZOK;
		}
		if (zrc == ZCONNECTIONLOSS)
			return zrc;
	}
}
