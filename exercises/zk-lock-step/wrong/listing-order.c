// expect-fail: lowest-holds
/* Known wrong: believes getChildren lists the nodes in queue order, so
 * the first lock node listed holds the lock.  ZooKeeper promises no order:
 * the real holder, listed later, waits on the first one listed, and a
 * waiter listed first takes the lock.  A waiter listed later finds its
 * predecessor by number, as it should. */
#include "api.h"

#include <stdio.h>
#include <string.h>

/* The number after the last "lock-": -1 without one, -2 when it is not
 * ten digits. */
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
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -2;
		v = v * 10 + (*p - '0');
	}
	return v;
}

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	const char *first = NULL, *best = NULL;
	long long mine = -1, best_seq = -1;
	for (size_t i = 0; i < n; i++) {
		long long s = suffix(children[i]);
		if (s == -2)
			return WBX_ERROR;
		if (s >= 0 && !first)
			first = children[i];
		if (!strcmp(children[i], own))
			mine = s;
	}
	if (mine < 0)
		return WBX_ERROR;
	if (!strcmp(first, own))
		return WBX_HOLDER; /* the mistake: listed first is not lowest */
	for (size_t i = 0; i < n; i++) {
		long long s = suffix(children[i]);
		if (s >= 0 && s < mine && s > best_seq) {
			best_seq = s;
			best = children[i];
		}
	}
	snprintf(watch, len, "%s", best ? best : first);
	return WBX_WAIT;
}
