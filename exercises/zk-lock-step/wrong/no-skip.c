// expect-fail: skips-non-lock-children
/* Known wrong: takes every child for a contender, so a child that is not a
 * lock node (no "lock-" in its name) is treated as sequence 0 and blocks
 * the lock forever. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long suffix(const char *name)
{
	const char *p = strstr(name, "lock-");
	return p ? atoll(p + 5) : 0;
}

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	long long mine = suffix(own), best_seq = -1;
	const char *best = NULL;
	for (size_t i = 0; i < n; i++) {
		long long s = suffix(children[i]);
		if (strcmp(children[i], own) && s <= mine && s > best_seq) {
			best_seq = s;
			best = children[i];
		}
	}
	if (!best)
		return WBX_HOLDER;
	snprintf(watch, len, "%s", best);
	return WBX_WAIT;
}
