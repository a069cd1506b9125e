// expect-fail: lost-reply-applied-once
/* counter.c - wrong: retries after ANY error, not only ZBADVERSION.  After
 * a lost reply (ZCONNECTIONLOSS) the write may well have been applied; the
 * retry reads the new value and adds the delta a second time. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>

int counter_add(const struct cas_counter *c, long delta, long *new_value)
{
	int zrc = ZOK;
	for (int attempt = 0; attempt < 100; attempt++) {
		char buf[32];
		int len = sizeof buf - 1;
		struct Stat st;
		zrc = zoo_get(c->zh, c->path, 0, buf, &len, &st);
		if (zrc != ZOK)
			continue;
		buf[len > 0 ? len : 0] = '\0';
		long next = strtol(buf, NULL, 10) + delta;
		char out[32];
		int n = snprintf(out, sizeof out, "%ld", next);
		zrc = zoo_set(c->zh, c->path, out, n, st.version);
		if (zrc == ZOK) {
			*new_value = next;
			return ZOK;
		}
		/* the mistake: whatever went wrong, just try again */
	}
	return zrc;
}
