// expect-fail: concurrent-write-kept
/* counter.c - wrong: writes with version -1 ("no check").  Under the
 * forced interleaving the other client's update is overwritten and lost,
 * and both calls report success. */
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
	zrc = zoo_set(c->zh, c->path, out, n, -1);
	if (zrc == ZOK)
		*new_value = next;
	return zrc;
}
