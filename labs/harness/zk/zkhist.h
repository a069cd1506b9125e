/*
 * zkhist.h - what a ZooKeeper return code means for an operation history
 * (checkers/history.h): ZOK took effect, a lost connection or a timeout
 * leaves the outcome unknown (info), anything else did not happen (fail).
 * Also the completion time of an asynchronous call for report_complete_at.
 * Records nothing itself.
 */
#ifndef WB_ZKHIST_H
#define WB_ZKHIST_H

#include "checkers/history.h"
#include "harness/zk/zkasync.h"

/* HIST_OK, HIST_INFO or HIST_FAIL for zrc. */
static inline enum hist_type zkhist_type(int zrc)
{
	if (zrc == ZOK)
		return HIST_OK;
	if (zrc == ZCONNECTIONLOSS || zrc == ZOPERATIONTIMEOUT || zrc == ZSESSIONEXPIRED ||
	    zrc == ZCLOSING)
		return HIST_INFO;
	return HIST_FAIL;
}

/* An upper bound, in CLOCK_MONOTONIC ns, of when a's completion ran (its
 * at_ms is truncated to the millisecond). */
static inline long long zkhist_done_ns(const struct zkasync *a)
{
	return (a->at_ms + 1) * 1000000LL;
}

#endif
