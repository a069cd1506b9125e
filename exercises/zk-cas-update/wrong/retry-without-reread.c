// expect-fail: retries-after-conflict
/* counter.c - wrong: reads once, then on any error retries the write with
 * the version it read at first.  After a conflict that version never
 * comes back: every retry is refused and the update is given up. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>

int counter_add(const struct cas_counter *c, long delta, long *new_value)
{
	char buf[32];
	int len = sizeof buf - 1;
	struct Stat st;
	int zrc = zoo_get(c->zh, c->path, 0, buf, &len, &st);
	if (zrc != ZOK)
		return zrc;
	buf[len > 0 ? len : 0] = '\0';
	long next = strtol(buf, NULL, 10) + delta;
	char out[32];
	int n = snprintf(out, sizeof out, "%ld", next);
	for (int attempt = 0; attempt < 100; attempt++) {
		zrc = zoo_set(c->zh, c->path, out, n, st.version); /* the mistake: no new read */
		if (zrc == ZOK) {
			*new_value = next;
			return ZOK;
		}
		if (zrc == ZCONNECTIONLOSS)
			return zrc;
	}
	return zrc;
}
