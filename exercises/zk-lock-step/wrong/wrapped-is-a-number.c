// expect-fail: unordered-suffix-is-error
/* Known wrong: reads the suffix with strtoll, which takes a sign and any
 * length.  A wrapped counter "-2147483648" becomes the smallest number
 * and jumps the queue instead of stopping the step with WBX_ERROR.
 * Otherwise the reference. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sequence number after the last "lock-", or -1 for a name that is no
 * lock node (no "lock-"). */
static long long suffix(const char *name)
{
	const char *p = NULL;
	for (const char *q = name; (q = strstr(q, "lock-")) != NULL; q++)
		p = q;
	if (!p)
		return -1;
	char *end;
	long long v = strtoll(p + 5, &end, 10);
	return *end ? -2 : v; /* the mistake: no check of ten digits */
}

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	int found = 0;
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(children[i], own);
	long long mine = suffix(own);
	if (!found || mine == -1 || mine == -2)
		return WBX_ERROR;
	const char *best = NULL;
	long long best_seq = -1;
	for (size_t i = 0; i < n; i++) {
		long long s = suffix(children[i]);
		if (s == -2)
			return WBX_ERROR;
		if (s != -1 && s < mine && (!best || s > best_seq)) {
			best_seq = s;
			best = children[i];
		}
	}
	if (!best)
		return WBX_HOLDER;
	snprintf(watch, len, "%s", best);
	return WBX_WAIT;
}
