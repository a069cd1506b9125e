// expect-fail: lowest-sequence-holds
/* Known wrong: orders by the whole name (strcmp), which the random GUID
 * prefix scrambles, instead of by the sequence suffix. */
#include "api.h"

#include <stdio.h>
#include <string.h>

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	int found = 0;
	const char *best = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(children[i], own))
			found = 1;
		if (!strstr(children[i], "lock-"))
			continue;
		if (strcmp(children[i], own) < 0 && (!best || strcmp(children[i], best) > 0))
			best = children[i];
	}
	if (!found)
		return WBX_ERROR;
	if (!best)
		return WBX_HOLDER;
	snprintf(watch, len, "%s", best);
	return WBX_WAIT;
}
