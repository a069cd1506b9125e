/*
 * zk-recover-create.c - the check of the exercise zk-recover-create: the
 * learner's create_candidate (exercises/zk-recover-create/api.h) under
 * the fault of the lab zk-create-lost.
 *
 *   Client A reaches the server through the fault proxy
 *   (harness/zk/zkproxy.h), armed to drop the reply to A's create under
 *   the lock path: the server creates the node, A sees ZCONNECTIONLOSS.
 *   Around it stand two nodes of another session: a holder with a GUID of
 *   its own, created first, and a node carrying A's GUID (a copied client
 *   that reused it), created before A's create and again while A waits to
 *   reconnect, so it sorts both before and after A's node.  Only the
 *   child with A's GUID whose ephemeralOwner is A's session is the node
 *   the lost create made (its czxid is the dropped reply's zxid).
 *
 *   A blind retry leaves two candidates of A's session (one-candidate
 *   fails); matching by the GUID or the name prefix alone takes another
 *   session's node (own-candidate fails).
 *
 * It needs its own server and proxy (no --zk).  It does not show what the
 * orphans of a blind retry do to other clients (the lab does).
 */
#include "base/wb.h"
#include "exercise.h"
#include "exzk.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "harness/zk/zkproxy.h"
#include "lab.h"
#include "recipes/zklock.h"
#include "rigs/exthread.h"
#include "rigs/zklockrig.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SESSION_MS 4000 /* as the lab: reconnecting never races expiry */
#define CALL_MS	   20000

struct create_ctx {
	zhandle_t *zh;
	const char *dir;
	const char *guid;
	const char *prefix;
	int64_t session;
	int (*wait_connected)(const struct create_ctx *c, int timeout_ms);
	void *priv;
}; /* exercises/zk-recover-create/api.h, field for field */
typedef int (*create_candidate_fn)(const struct create_ctx *c, char *path, int path_len);

/* Everything of one run.  Heap allocated: a learner's call that never
 * returns keeps it (exthread.h). */
struct recover_ex {
	struct report *r;
	struct zklab *z;
	struct zkproxy *p;
	struct zkc *a, *other; /* A through the proxy; another session direct */
	char *lock, *prefix;
	char guid[ZKLOCK_GUID_LEN + 1];
	char holder[512], decoy[2][512];
	pthread_mutex_t mu; /* guards the three below (A's thread and the check's) */
	int reconnected;    /* wait_connected consumed the reconnection */
	int decoy2_rc;	    /* the second decoy's create: ZOK, or -1 when not made */
	int waits;	    /* wait_connected calls */
	create_candidate_fn fn;
	struct create_ctx cx;
	char path[512]; /* what the learner returned */
	int zrc;
	struct exthread t;
};

/* The proxy's drop event, if any, copied to *ev.  1 when there is one. */
static int dropped_event(struct zkproxy *p, struct zkproxy_event *ev)
{
	size_t n = zkproxy_event_count(p);
	for (size_t i = 0; i < n; i++)
		if (zkproxy_event_get(p, i, ev) == 0 && ev->kind == ZKPROXY_EV_DROPPED)
			return 1;
	return 0;
}

/* A ZooKeeper error code for a WB one from zkc_wait_state. */
static int wait_zrc(int rc)
{
	return rc == 0 ? ZOK : rc == WB_ENOENT ? ZSESSIONEXPIRED : ZOPERATIONTIMEOUT;
}

/* The api's wait_connected.  After the drop, it first has the other
 * session create the GUID again (so a node with A's GUID sorts after
 * A's), then waits for A's reconnection in the handle's event order. */
static int ex_wait_connected(const struct create_ctx *c, int timeout_ms)
{
	struct recover_ex *x = c->priv;
	struct zkproxy_event ev;
	pthread_mutex_lock(&x->mu);
	x->waits++;
	int first = !x->reconnected && dropped_event(x->p, &ev);
	if (first && x->decoy2_rc == -1)
		x->decoy2_rc =
			zoo_create(zkc_handle(x->other), x->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
				   ZOO_EPHEMERAL_SEQUENTIAL, x->decoy[1], sizeof x->decoy[1]);
	pthread_mutex_unlock(&x->mu);
	if (timeout_ms < 0 || timeout_ms > CALL_MS)
		timeout_ms = CALL_MS;
	int rc;
	if (first) {
		rc = zkc_wait_state(x->a, ZOO_CONNECTING_STATE, timeout_ms, NULL);
		if (!rc)
			rc = zkc_wait_state(x->a, ZOO_CONNECTED_STATE, timeout_ms, NULL);
		pthread_mutex_lock(&x->mu);
		x->reconnected = rc == 0;
		pthread_mutex_unlock(&x->mu);
		return wait_zrc(rc);
	}
	if (zoo_state(c->zh) == ZOO_CONNECTED_STATE)
		return ZOK;
	return wait_zrc(zkc_wait_state(x->a, ZOO_CONNECTED_STATE, timeout_ms, NULL));
}

static void learner_main(void *arg)
{
	struct recover_ex *x = arg;
	x->zrc = x->fn(&x->cx, x->path, (int)sizeof x->path);
	x->path[sizeof x->path - 1] = '\0';
}

/* Server, proxy, the two clients, the lock path, the holder and the
 * first node with A's GUID. */
static int recover_open(struct recover_ex *x, struct lab_ctx *ctx)
{
	struct report *r = x->r;
	char hex[ZKC_HEX_LEN];
	int rc = exzk_open_proxied(ctx, SESSION_MS, &x->z, &x->p, &x->a);
	if (rc)
		return rc;
	if ((rc = zklab_client(x->z, &x->other)) != 0)
		return rc;
	x->lock = wb_xasprintf("%s/lock", x->z->base);
	zoo_create(zkc_handle(x->other), x->lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	char other_guid[ZKLOCK_GUID_LEN + 1];
	if (zklock_guid_new(x->guid) != 0 || zklock_guid_new(other_guid) != 0) {
		report_cannot(r, "no randomness for a GUID");
		return WB_EIO;
	}
	x->prefix = zklock_name_prefix(x->lock, x->guid);
	char *hp = zklock_name_prefix(x->lock, other_guid);
	int z1 = zoo_create(zkc_handle(x->other), hp, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			    ZOO_EPHEMERAL_SEQUENTIAL, x->holder, sizeof x->holder);
	free(hp);
	int z2 = zoo_create(zkc_handle(x->other), x->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			    ZOO_EPHEMERAL_SEQUENTIAL, x->decoy[0], sizeof x->decoy[0]);
	if (z1 != ZOK || z2 != ZOK) {
		report_cannot(r, "cannot create the other session's nodes: %s",
			      zkc_err_name(z1 != ZOK ? z1 : z2));
		return zkc_to_wb(z1 != ZOK ? z1 : z2);
	}
	report_step(r, "another session holds the lock, and has a node carrying A's GUID");
	report_evidence(r, "lock_path", "%s", x->lock);
	report_evidence(r, "session_A", "%s", zkc_hex(zkc_session_id(x->a), hex));
	report_evidence(r, "guid", "%s", x->guid);
	report_evidence(r, "other_nodes", "%s, %s", zklockrig_short(x->holder),
			zklockrig_short(x->decoy[0]));
	return 0;
}

/* Children of the lock path owned by session, counted from another one;
 * -1 when the listing failed. */
static int count_owned(struct recover_ex *x, int64_t session)
{
	struct String_vector sv = {0};
	if (zoo_get_children(zkc_handle(x->other), x->lock, 0, &sv) != ZOK)
		return -1;
	int n = 0;
	for (int i = 0; i < sv.count; i++) {
		char *p = wb_xasprintf("%s/%s", x->lock, sv.data[i]);
		struct Stat st;
		n += zoo_exists(zkc_handle(x->other), p, 0, &st) == ZOK &&
		     st.ephemeralOwner == session;
		free(p);
	}
	deallocate_String_vector(&sv);
	return n;
}

/* The learner's call under the drop; then what it returned, against
 * what the server has. */
static void recover_judge(struct recover_ex *x)
{
	struct report *r = x->r;
	char hex[ZKC_HEX_LEN], hex2[ZKC_HEX_LEN];
	struct zkproxy_event dropped;
	int64_t session = zkc_session_id(x->a);
	int have_drop = dropped_event(x->p, &dropped);
	report_checkf(r, "proxy-dropped-reply", have_drop, "the create's reply dropped", "%s",
		      have_drop ? dropped.text
				: "no create of the given prefix reached the server");
	if (!report_checkf(r, "returns-candidate", x->zrc == ZOK && x->path[0], "ZOK and a path",
			   "%s", zkc_err_name(x->zrc)))
		return;
	report_evidence(r, "returned", "%s", zklockrig_short(x->path));
	struct Stat st;
	int zrc = zoo_exists(zkc_handle(x->other), x->path, 0, &st);
	int ours = zrc == ZOK && st.ephemeralOwner == session &&
		   !strncmp(x->path, x->prefix, strlen(x->prefix));
	report_checkf(r, "own-candidate", ours,
		      "a node with A's GUID whose ephemeralOwner is A's session",
		      "%s, ephemeralOwner %s", zklockrig_short(x->path),
		      zrc == ZOK ? zkc_hex(st.ephemeralOwner, hex) : zkc_err_name(zrc));
	if (have_drop)
		report_checkf(r, "found-the-lost-create", zrc == ZOK && st.czxid == dropped.zxid,
			      "its czxid is the dropped reply's zxid",
			      "czxid 0x%" PRIx64 ", zxid 0x%" PRIx64, (uint64_t)st.czxid,
			      (uint64_t)dropped.zxid);
	int n = count_owned(x, session);
	report_checkf(r, "one-candidate", n == 1, "1 node of A's session (no second create)",
		      "%d (session %s)", n, zkc_hex(session, hex2));
}

static int recover_check_run(struct recover_ex *x, struct lab_ctx *ctx)
{
	struct report *r = x->r;
	int rc = recover_open(x, ctx);
	if (rc)
		return rc;
	zkproxy_arm_drop_create(x->p, x->prefix);
	report_step(r, "the proxy will drop the reply to A's create; A calls create_candidate");
	x->cx = (struct create_ctx){.zh = zkc_handle(x->a),
				    .dir = x->lock,
				    .guid = x->guid,
				    .prefix = x->prefix,
				    .session = zkc_session_id(x->a),
				    .wait_connected = ex_wait_connected,
				    .priv = x};
	if (exthread_start(&x->t, learner_main, x) != 0) {
		report_cannot(r, "cannot start a thread");
		return WB_EIO;
	}
	if (exthread_wait(&x->t, CALL_MS) != 0) {
		report_check(r, "returns-candidate", 0, "ZOK and a path", "still running");
		return 0;
	}
	pthread_mutex_lock(&x->mu);
	if (x->decoy2_rc == ZOK)
		report_evidence(r, "second_guid_node", "%s (the other session, after the drop)",
				zklockrig_short(x->decoy[1]));
	pthread_mutex_unlock(&x->mu);
	recover_judge(x);
	return 0;
}

static int recover_main(struct lab_ctx *ctx, const struct ex_code *code)
{
	struct recover_ex *x = wb_xcalloc(1, sizeof *x);
	x->r = ctx->report;
	x->decoy2_rc = -1;
	pthread_mutex_init(&x->mu, NULL);
	*(void **)&x->fn = exzk_sym(x->r, code, "create_candidate", N_("create_candidate defined"));
	if (!x->fn) {
		free(x);
		return 0;
	}
	int rc = recover_check_run(x, ctx);
	if (x->p)
		zkproxy_report(x->p, x->r, 0);
	if (exthread_end(&x->t))
		return rc; /* the learner's thread may still use all of it */
	zkc_close(x->a);
	zkc_close(x->other);
	zkproxy_free(x->p);
	zklab_close(x->z);
	free(x->lock);
	free(x->prefix);
	free(x);
	return rc;
}

static enum lab_outcome ex_main(struct lab_ctx *ctx, const struct ex_code *code)
{
	report_conclusion(ctx->report,
			  "Your create_candidate did not create again after the lost reply: it "
			  "found the one node with its GUID and its session as ephemeralOwner, the "
			  "node the lost create had made.");
	return lab_outcome_of(ctx, recover_main(ctx, code));
}

const ex_check_fn ex_zk_recover_create = ex_main;
