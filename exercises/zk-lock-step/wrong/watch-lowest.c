// expect-fail: waits-on-predecessor
/* Known wrong: every waiter watches the lowest node (the holder), so one
 * release wakes them all - the herd - instead of only the next in line.
 * Who holds is decided right. */
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
	long long mine = -1, low = -1;
	const char *lowest = NULL;
	for (size_t i = 0; i < n; i++) {
		long long s = suffix(children[i]);
		if (s == -2)
			return WBX_ERROR;
		if (!strcmp(children[i], own))
			mine = s;
		if (s >= 0 && (low < 0 || s < low)) {
			low = s;
			lowest = children[i];
		}
	}
	if (mine < 0)
		return WBX_ERROR;
	if (low == mine)
		return WBX_HOLDER;
	snprintf(watch, len, "%s", lowest);
	return WBX_WAIT;
}
