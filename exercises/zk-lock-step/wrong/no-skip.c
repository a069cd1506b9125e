// expect-fail: skips-non-lock
/* Known wrong: takes every child for a contender.  A child without
 * "lock-" (config, a read node) counts as number 0, so it sits in front of
 * the real holder, which then waits on it forever.  Otherwise the
 * reference. */
#include "api.h"

#include <stdio.h>
#include <string.h>

/* The sequence number after the last "lock-", 0 for a child without
 * "lock-" (the mistake: it should be skipped), or -2 for a suffix that is
 * not 10 digits. */
static long long suffix(const char *name)
{
	const char *p = NULL;
	for (const char *q = name; (q = strstr(q, "lock-")) != NULL; q++)
		p = q;
	if (!p)
		return 0; /* the mistake: no lock node, yet number 0 */
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
	long long mine = -1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(children[i], own))
			mine = suffix(own);
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
