/*
 * zklab.c - ZooKeeper lab set-up and clean-up (see zklab.h).
 *
 * The base path is unique per run (lab id + 32 random bits) even with our
 * own fresh server, so a lab's code is the same with and without --zk and
 * never touches nodes it did not create.
 *
 * Two things a lab cannot see by itself are found here: our own server
 * dying under the lab (zkserver_died, asked by every watched wait, so a
 * lab ends as could-not-run within a poll interval instead of at its
 * deadline), and a --zk server whose per-address limit (maxClientCnxns) is
 * below the sessions the lab declares in catalog.def: asked with the
 * `conf` four-letter word when the server allows it, recognised by the
 * refused connection when it does not.
 */
#include "harness/zk/zklab.h"
#include "base/mono.h"
#include "base/wb.h"
#include "harness/report.h"
#include "harness/runctx.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkserver.h"

#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
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

static int server_died(void *arg)
{
	struct zklab *z = arg;
	return zkserver_died(z->server, NULL, 0);
}

int zklab_server_gone(struct zklab *z)
{
	char why[256];
	if (!z || !z->server || !zkserver_died(z->server, why, sizeof why))
		return 0;
	if (!z->gone_said) {
		z->gone_said = 1;
		report_cannot(z->ctx->report, "%s; the lab cannot go on", why);
	}
	return 1;
}

void zklab_watch(struct zklab *z, struct zkc *c)
{
	if (z && z->server && c)
		zkc_set_gone(c, server_died, z);
}

/* The first host and port of a connect string, for four-letter words.
 * 0, or WB_EINVAL. */
static int first_host(const char *connect, char *host, size_t n, int *port)
{
	size_t hl = strcspn(connect, ":");
	if (hl == 0 || hl >= n || connect[hl] != ':')
		return WB_EINVAL;
	memcpy(host, connect, hl);
	host[hl] = '\0';
	*port = atoi(connect + hl + 1);
	return *port > 0 ? 0 : WB_EINVAL;
}

/* The maxClientCnxns the --zk server reports through `conf`: >= 0, or -1
 * when it cannot tell (the word is not allowed, an old server). */
static int server_max_cnxns(const char *connect)
{
	char host[256], *text = NULL;
	int port, max = -1;
	if (first_host(connect, host, sizeof host, &port) ||
	    zk_four_letter(host, port, "conf", ZKLAB_WAIT_MS, &text))
		return -1;
	const char *p = strstr(text, "maxClientCnxns=");
	if (p && isdigit((unsigned char)p[15]))
		max = atoi(p + 15);
	free(text);
	return max;
}

/* Under --zk: a lab that declares more sessions than the server allows
 * per client address cannot run; says so.  0 or WB_EUNAVAIL. */
static int check_session_limit(struct zklab *z)
{
	int need = z->ctx->sessions;
	if (need <= 0)
		return 0;
	int max = server_max_cnxns(z->connect);
	report_evidence(z->ctx->report, "zk_max_client_cnxns", "%d%s", max,
			max < 0	   ? " (not told: conf not allowed)"
			: max == 0 ? " (no limit)"
				   : "");
	if (max <= 0 || max >= need)
		return 0;
	report_cannot(z->ctx->report,
		      "%s opens %d sessions; the server at %s allows %d per client address "
		      "(maxClientCnxns): raise it or run without --zk",
		      z->ctx->id, need, z->connect, max);
	return WB_EUNAVAIL;
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
		if ((rc = check_session_limit(z)) != 0)
			return rc;
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
		long long t0 = mono_now_ms();
		rc = zkserver_start(z->server);
		report_server_time(ctx->report, (long)(mono_now_ms() - t0));
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
	z->base = wb_xasprintf("/workbench/%s-%08x", ctx->id, (unsigned)random32());
	int zrc = create_parents(zkc_handle(z->admin), z->base);
	if (zrc != ZOK) {
		report_cannot(ctx->report, "cannot create %s on %s: %s", z->base, z->connect,
			      zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	report_evidence(ctx->report, "base_path", "%s", z->base);
	return 0;
}

/* Reports why a client of z could not connect (rc: its code), as
 * zklab_client's contract says. */
static void client_failed(struct zklab *z, int rc)
{
	int need = z->ctx->sessions;
	if (zklab_server_gone(z))
		return;
	if (!z->server && need > 0 && z->opened > 0)
		report_cannot(z->ctx->report,
			      "%s opens %d sessions; the server at %s took %d from this address "
			      "and then refused the next: it allows fewer per client address "
			      "(maxClientCnxns): raise it or run without --zk",
			      z->ctx->id, need, z->connect, z->opened);
	else if (rc == WB_EUNAVAIL) /* nothing answered in time, not a missing program */
		report_cannot(z->ctx->report,
			      "cannot connect to ZooKeeper at %s within %d ms: it is unreachable "
			      "(no server answered there)",
			      z->connect, ZKLAB_WAIT_MS);
	else
		report_cannot(z->ctx->report, "cannot connect to ZooKeeper at %s within %d ms (%s)",
			      z->connect, ZKLAB_WAIT_MS, wb_strerror(rc));
}

int zklab_client(struct zklab *z, struct zkc **out)
{
	int rc = zklab_clients(z, 1, out);
	if (rc) {
		zkc_close(*out); /* a handle that never connected */
		*out = NULL;
	}
	return rc;
}

int zklab_clients(struct zklab *z, int n, struct zkc **out)
{
	int rc = 0, failed = 0;
	for (int i = 0; i < n; i++)
		out[i] = NULL;
	for (int i = 0; i < n && rc == 0; i++) {
		rc = zkc_open(z->connect, ZKLAB_CLIENT_SESSION_MS, z->ctx->run_dir, &out[i]);
		if (rc == 0)
			zklab_watch(z, out[i]);
	}
	if (rc) {
		client_failed(z, rc);
		return rc;
	}
	/* They connect in parallel: one deadline for all of them. */
	long long deadline = mono_now_ms() + ZKLAB_WAIT_MS;
	for (int i = 0; i < n; i++) {
		long long left = deadline - mono_now_ms();
		if (zkc_wait_state(out[i], ZOO_CONNECTED_STATE, left > 0 ? (int)left : 1, NULL) ==
		    0)
			z->opened++;
		else
			failed++;
	}
	if (failed) {
		client_failed(z, WB_EUNAVAIL);
		return WB_EUNAVAIL;
	}
	return 0;
}

/* zklab_close_clients' workers take the next entry until none is left. */
struct closer {
	struct zkc **c;
	int n;
	atomic_int next;
};

static void *closer_main(void *arg)
{
	struct closer *k = arg;
	for (int i; (i = atomic_fetch_add(&k->next, 1)) < k->n;) {
		zkc_close(k->c[i]);
		k->c[i] = NULL;
	}
	return NULL;
}

void zklab_close_clients(struct zkc **c, int n)
{
	enum { CLOSERS = 8 };
	struct closer k = {.c = c, .n = n};
	atomic_init(&k.next, 0);
	pthread_t th[CLOSERS];
	int started = 0;
	while (started < CLOSERS && started < n - 1 &&
	       pthread_create(&th[started], NULL, closer_main, &k) == 0)
		started++;
	closer_main(&k); /* this thread too; alone when no thread started */
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
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
	/* After our server died every call would wait for its timeout. */
	if (z->admin && z->base && !zkserver_died(z->server, NULL, 0)) {
		zklab_delete_tree(z->admin, z->base);
		/* Leave /workbench when other runs still use it. */
		zoo_delete(zkc_handle(z->admin), "/workbench", -1);
	}
	zkc_close(z->admin);
	if (z->server) {
		/* The server's data is this run's and goes with the run
		 * folder: a SIGKILL ends it at once (and reaps it), where
		 * SIGTERM waits for the JVM's shutdown (zkserver_discard). */
		long long t0 = mono_now_ms();
		zkserver_discard(z->server);
		zkserver_free(z->server);
		report_server_time(z->ctx->report, (long)(mono_now_ms() - t0));
	}
	free(z->base);
	free(z);
}
