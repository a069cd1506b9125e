/*
 * zklab.c - ZooKeeper lab set-up and clean-up (see zklab.h).
 *
 * The base path is unique per run (lab id + 32 random bits) even with our
 * own fresh server, so a lab's code is the same with and without --zk and
 * never touches nodes it did not create.
 */
#include "harness/zk/zklab.h"
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkserver.h"
#include "lab.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint32_t random32(void)
{
	uint32_t v = 0;
	if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
		v = (uint32_t)getpid() ^ (uint32_t)time(NULL);
	return v;
}

/* Creates every missing component of path as a persistent node. */
static int create_parents(zhandle_t *zh, const char *path)
{
	char *p = wb_xstrdup(path);
	int rc = ZOK;
	for (char *slash = strchr(p + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		rc = zoo_create(zh, p, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
		if (rc == ZNODEEXISTS)
			rc = ZOK;
		if (!slash || rc != ZOK)
			break;
		*slash = '/';
	}
	free(p);
	return rc;
}

int zklab_open(struct lab_ctx *ctx, struct zklab **out)
{
	return zklab_open_prepared(ctx, NULL, NULL, out);
}

int zklab_open_prepared(struct lab_ctx *ctx, int (*prepare)(struct zkserver *s, void *arg),
			void *arg, struct zklab **out)
{
	struct zklab *z = wb_xcalloc(1, sizeof *z);
	*out = z;
	z->ctx = ctx;
	int rc = 0;
	if (ctx->zk_connect) {
		z->connect = ctx->zk_connect;
		report_step(ctx->report, "using the ZooKeeper ensemble given with --zk: %s",
			    ctx->zk_connect);
		report_evidence(ctx->report, "zk_target", "%s", ctx->zk_connect);
	} else {
		char *why = NULL;
		if (zkserver_check_runtime(&why) != 0) {
			report_cannot(ctx->report, "%s", why);
			free(why);
			return WB_EUNAVAIL;
		}
		rc = zkserver_new(ctx->run_dir, NULL, &z->server, &why);
		if (rc) {
			report_cannot(ctx->report, "%s", why ? why : "cannot prepare a server");
			free(why);
			return rc;
		}
		if (prepare && (rc = prepare(z->server, arg)) != 0)
			return rc;
		report_step(ctx->report,
			    "starting a local ZooKeeper server on %s (tickTime 200 ms, data in the "
			    "run directory)",
			    zkserver_connect(z->server));
		rc = zkserver_start(z->server);
		if (rc) {
			report_cannot(ctx->report, "%s", zkserver_error(z->server));
			return rc;
		}
		z->connect = zkserver_connect(z->server);
		report_evidence(ctx->report, "zk_server", "%s pid %d, ready in %d ms", z->connect,
				(int)zkserver_pid(z->server), zkserver_start_ms(z->server));
	}
	rc = zklab_client(z, &z->admin);
	if (rc)
		return rc;
	z->base = wb_xasprintf("/workbench/%s-%08x", ctx->lab->id, (unsigned)random32());
	int zrc = create_parents(zkc_handle(z->admin), z->base);
	if (zrc != ZOK) {
		report_cannot(ctx->report, "cannot create %s on %s: %s", z->base, z->connect,
			      zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	report_evidence(ctx->report, "base_path", "%s", z->base);
	return 0;
}

int zklab_client(struct zklab *z, struct zkc **out)
{
	int rc = zkc_connect(z->connect, ZKLAB_CLIENT_SESSION_MS, ZKLAB_WAIT_MS, z->ctx->run_dir,
			     out);
	/* zkc_connect's WB_EUNAVAIL means nothing answered in time, not a
	 * missing program. */
	if (rc == WB_EUNAVAIL)
		report_cannot(z->ctx->report,
			      "cannot connect to ZooKeeper at %s within %d ms: it is unreachable "
			      "(no server answered there)",
			      z->connect, ZKLAB_WAIT_MS);
	else if (rc)
		report_cannot(z->ctx->report, "cannot connect to ZooKeeper at %s within %d ms (%s)",
			      z->connect, ZKLAB_WAIT_MS, wb_strerror(rc));
	return rc;
}

int zklab_delete_tree(struct zkc *c, const char *path)
{
	zhandle_t *zh = zkc_handle(c);
	struct String_vector kids = {0};
	int rc = zoo_get_children(zh, path, 0, &kids);
	if (rc == ZNONODE)
		return ZOK;
	if (rc != ZOK)
		return rc;
	int first = ZOK;
	for (int i = 0; i < kids.count; i++) {
		char *child = wb_xasprintf("%s/%s", strcmp(path, "/") ? path : "", kids.data[i]);
		int r = zklab_delete_tree(c, child);
		if (r != ZOK && first == ZOK)
			first = r;
		free(child);
	}
	deallocate_String_vector(&kids);
	rc = zoo_delete(zh, path, -1);
	if (rc != ZOK && rc != ZNONODE && first == ZOK)
		first = rc;
	return first;
}

void zklab_close(struct zklab *z)
{
	if (!z)
		return;
	if (z->admin && z->base) {
		zklab_delete_tree(z->admin, z->base);
		/* Leave /workbench when other runs still use it. */
		zoo_delete(zkc_handle(z->admin), "/workbench", -1);
	}
	zkc_close(z->admin);
	zkserver_free(z->server);
	free(z->base);
	free(z);
}
