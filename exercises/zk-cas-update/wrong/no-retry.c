// expect-fail: retries-after-conflict
/* counter.c - wrong: a conditional write, but ZBADVERSION is passed up
 * instead of read again and retried.  The update that lost the race is
 * reported failed and the counter ends short. */
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
	zrc = zoo_set(c->zh, c->path, out, n, st.version);
	if (zrc == ZOK)
		*new_value = next;
	return zrc;
}
