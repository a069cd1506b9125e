// expect-fail: order-by-suffix
/* Known wrong: orders the lock nodes by the whole name (strcmp), which the
 * random GUID prefix scrambles, instead of by the sequence suffix.  With
 * plain "lock-" names the two orders agree, so only protected names show
 * it. */
#include "api.h"

#include <stdio.h>
#include <string.h>

/* 1 when name's text after the last "lock-" is ten digits. */
static int ten_digits(const char *name)
{
	const char *p = NULL;
	for (const char *q = name; (q = strstr(q, "lock-")) != NULL; q++)
		p = q;
	if (!p || strlen(p + 5) != 10)
		return 0;
	for (p += 5; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	int found = 0;
	const char *best = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!strstr(children[i], "lock-"))
			continue;
		if (!ten_digits(children[i]))
			return WBX_ERROR;
		if (!strcmp(children[i], own))
			found = 1;
		else if (strcmp(children[i], own) < 0 && (!best || strcmp(children[i], best) > 0))
			best = children[i];
	}
	if (!found)
		return WBX_ERROR;
	if (!best)
		return WBX_HOLDER;
	snprintf(watch, len, "%s", best);
	return WBX_WAIT;
}
