/*
 * exzk.h - what the ZooKeeper exercises' checks share
 * (labs/exercises/zk-cas-update.c, zk-lock-loop.c, zk-recover-create.c):
 * looking up the learner's function with its "defines <name>" check, and
 * the set-up of the checks that put the fault proxy (harness/zk/zkproxy.h)
 * between client A and the lab's own server.
 *
 * It deliberately knows no scenario: no learner call, no thread
 * (rigs/exthread.h) and no clean-up; each check closes what these opened
 * in its own order, since a learner's thread that never returned may
 * still use some of it.
 */
#ifndef WB_EXZK_H
#define WB_EXZK_H

#include "exercise.h"
#include "harness/narration.h"
#include "harness/report.h"

struct zklab;
struct zkproxy;
struct zkc;

/* The learner's symbol name (ex_code_sym), reported as the check
 * "defines <name>" with expected (narration: N_("<name> defined")),
 * observed "defined" or "missing".  Returns its address, or NULL after
 * the failed check. */
void *exzk_sym(struct report *r, const struct ex_code *code, const char *name,
	       const char *expected);

/* zklab_open into *z, then (only with the lab's own server: under --zk
 * report_cannot and WB_EINVAL) the fault proxy in front of it into *p
 * and client A connected through the proxy with session_ms into *a,
 * watched by zklab_watch.  Returns 0, or a negative WB code after
 * report_cannot; what was opened before the failure stays in *z, *p,
 * *a for the caller to close (zklab_close, zkproxy_free, zkc_close). */
int exzk_open_proxied(struct lab_ctx *ctx, int session_ms, struct zklab **z, struct zkproxy **p,
		      struct zkc **a);

#endif
