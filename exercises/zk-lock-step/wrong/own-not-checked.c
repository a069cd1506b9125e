// expect-fail: own-gone-is-error
/* Known wrong: takes own's number from its name and never looks for own
 * in the listing.  When the session expired and its node is gone, it
 * still answers HOLDER or WAIT for a node that no longer exists.
 * Otherwise the reference. */
#include "api.h"

#include <stdio.h>
#include <string.h>

/* The sequence number after the last "lock-", or -1 for a name that is no
 * lock node (no "lock-"), or -2 for a suffix that is not 10 digits. */
static long long suffix(const char *name)
{
	const char *p = NULL;
	for (const char *q = name; (q = strstr(q, "lock-")) != NULL; q++)
		p = q;
	if (!p)
		return -1;
	p += 5;
	if (strlen(p) != 10)
		return -2;
	long long v = 0;
	for (int i = 0; i < 10; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -2;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	long long mine = suffix(own); /* the mistake: own may not be listed */
	if (mine < 0)
		return WBX_ERROR;
	const char *best = NULL;
	long long best_seq = -1;
	for (size_t i = 0; i < n; i++) {
		long long s = suffix(children[i]);
		if (s == -2)
			return WBX_ERROR;
		if (s >= 0 && s < mine && s > best_seq) {
			best_seq = s;
			best = children[i];
		}
	}
	if (!best)
		return WBX_HOLDER;
	snprintf(watch, len, "%s", best);
	return WBX_WAIT;
}
