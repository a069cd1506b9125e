/* Exercise zk-lock-step, the reference: order by the sequence suffix,
 * never by the whole name (the GUID prefix is random). */
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
