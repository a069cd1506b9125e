/*
 * zkcheck.c - lab_check_zk (lab.h): the --zk value checked before any run,
 * with the harness's host-list parser (harness/zk/zkclient.h).  Here, in
 * the lab layer, so that the harness needs nothing of lab.h.
 */
#include "lab.h"
#include "base/wb.h"
#include "harness/zk/zkclient.h"

#include <stdio.h>
#include <string.h>

int lab_check_zk(const char *zk, char *msg, size_t n)
{
	char why[256];
	if (zkc_check_hosts(zk, why, sizeof why) == 0)
		return 0;
	/* A long value is quoted by its start, so the reason stays visible. */
	const char *v = zk ? zk : "";
	snprintf(msg, n, "bad --zk '%.200s%s': %s", v, strlen(v) > 200 ? "..." : "", why);
	return WB_EINVAL;
}
