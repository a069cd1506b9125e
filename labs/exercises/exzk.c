/*
 * exzk.c - the learner's symbol and the proxied set-up of the ZooKeeper
 * exercises' checks (see exzk.h).  No scenario logic lives here.
 */
#include "exzk.h"
#include "base/wb.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "harness/zk/zkproxy.h"
#include "harness/zk/zkserver.h"

#include <stdlib.h>

void *exzk_sym(struct report *r, const struct ex_code *code, const char *name, const char *expected)
{
	void *sym = ex_code_sym(code, name);
	char *what = wb_xasprintf("defines %s", name);
	report_check(r, what, sym != NULL, expected, sym ? "defined" : "missing");
	free(what);
	return sym;
}

int exzk_open_proxied(struct lab_ctx *ctx, int session_ms, struct zklab **z, struct zkproxy **p,
		      struct zkc **a)
{
	struct report *r = ctx->report;
	int rc = zklab_open(ctx, z);
	if (rc)
		return rc;
	if (!(*z)->server) {
		report_cannot(r,
			      "this exercise proxies its own server; it cannot run against --zk");
		return WB_EINVAL;
	}
	if ((rc = zkproxy_new(zkserver_connect((*z)->server), p)) != 0) {
		report_cannot(r, "cannot start the fault proxy: %s", wb_strerror(rc));
		return rc;
	}
	if ((rc = zkc_connect(zkproxy_connect(*p), session_ms, ZKLAB_WAIT_MS, ctx->run_dir, a)) !=
	    0) {
		report_cannot(r, "client A cannot connect through the proxy");
		return rc;
	}
	zklab_watch(*z, *a);
	return 0;
}
