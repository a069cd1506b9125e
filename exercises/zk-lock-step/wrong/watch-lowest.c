// expect-fail: watches-predecessor
/* Known wrong: every waiter watches the lowest node (the holder), so one
 * release wakes them all - the herd - instead of only the next in line. */
#include "api.h"

#include <stdio.h>
#include <string.h>

static long long suffix(const char *name)
{
	const char *p = strstr(name, "lock-");
	if (!p)
		return -1;
	long long v = 0;
	for (p += 5; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return v;
}

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	long long mine = suffix(own), low = -1;
	const char *lowest = NULL;
	for (size_t i = 0; i < n; i++) {
		long long s = suffix(children[i]);
		if (s >= 0 && (low < 0 || s < low)) {
			low = s;
			lowest = children[i];
		}
	}
	if (!lowest || mine < 0)
		return WBX_ERROR;
	if (low == mine)
		return WBX_HOLDER;
	snprintf(watch, len, "%s", lowest);
	return WBX_WAIT;
}
