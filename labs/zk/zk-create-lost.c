/*
 * zk-create-lost.c - the lab "zk-create-lost": a create's reply is lost,
 * and the candidate is recovered by its GUID and its ephemeralOwner
 * (chapters 01 and 02).
 *
 *   The client talks to the server through the fault proxy
 *   (harness/zkproxy.h), armed to drop the reply of the next create under
 *   the lock path.  The server creates the node; the client sees
 *   ZCONNECTIONLOSS and cannot know.  The recipe (labs/recipes/zklock.c)
 *   waits for the session to come back - the same session - lists the
 *   children, finds exactly one carrying its GUID whose ephemeralOwner is
 *   its session, and resumes with it.  The dropped reply's zxid is that
 *   node's czxid: the create had happened.
 *
 *   Control: a naive client that retries the create blindly after the
 *   loss.  Now two candidates of one session carry the GUID; the recipe's
 *   recovery refuses to pick one and deletes neither, and the orphan
 *   candidates block every other client until the session ends.
 *
 * It needs its own server and proxy (no --zk).  It does not show expiry
 * (zk-disconnect-expire does).
 *
 * History (docs/histories.md): A's, A2's and B's acquires (A's result is
 * the recovered candidate; completions are recorded when the lab sees the
 * acquire return, a bound) and releases, the blind retry's create, and the
 * dropped reply as a mark; the mutual exclusion checker must pass it.
 */
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "rigs/zklockrig.h"
#include "harness/zk/zkproxy.h"
#include "harness/zk/zkserver.h"
#include "lab.h"
#include "checkers/history.h"
#include "recipes/zklock.h"
#include "checkers/mutex.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Long enough that reconnecting through the proxy never races expiry. */
#define SESSION_MS 4000
#define ACQUIRE_MS 20000

/* The naive client of the control: retries the create after the loss. */
struct blind {
	struct report *r;
	struct zkc *c;	/* the session that lost the reply */
	int fired;	/* the retry ran */
	int wait_rc;	/* waiting for the session to come back */
	int zrc;	/* the retry's answer */
	char path[512]; /* the second candidate */
};

static void blind_retry(void *arg, struct zklock *l, int zrc)
{
	struct blind *b = arg;
	if (zrc != ZCONNECTIONLOSS || b->fired)
		return;
	b->fired = 1;
	/* Wait for the reconnection the watcher reports (zoo_state may still
	 * say CONNECTED right after the loss), then do what a naive client
	 * does: create again, same name, same GUID. */
	b->wait_rc = zkc_wait_state(b->c, ZOO_CONNECTING_STATE, ZKLAB_WAIT_MS, NULL);
	if (!b->wait_rc)
		b->wait_rc = zkc_wait_state(b->c, ZOO_CONNECTED_STATE, ZKLAB_WAIT_MS, NULL);
	char *prefix = zklock_name_prefix(zklock_path(l), zklock_guid(l));
	int op = report_invoke(b->r, "A2", "create", "retry");
	b->zrc = zoo_create(zkc_handle(b->c), prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			    ZOO_EPHEMERAL_SEQUENTIAL, b->path, sizeof b->path);
	report_complete(b->r, op, b->zrc == ZOK ? HIST_OK : HIST_INFO,
			b->zrc == ZOK ? zklockrig_short(b->path) : NULL);
	free(prefix);
}

/* Children of lock whose name carries guid, counted from another session. */
static int count_guid(struct zkc *admin, const char *lock, const char *guid)
{
	struct String_vector sv = {0};
	if (zoo_get_children(zkc_handle(admin), lock, 0, &sv) != ZOK)
		return -1;
	int n = 0;
	for (int i = 0; i < sv.count; i++)
		n += strstr(sv.data[i], guid) != NULL;
	deallocate_String_vector(&sv);
	return n;
}

/* The lab's clients and rigs. */
struct create_lost {
	struct lab_ctx *ctx;
	struct report *r;
	struct zklab *z;
	struct zkproxy *p;	    /* A's only way to the server */
	struct zkc *a, *other;	    /* A through the proxy; another client direct */
	struct zklockrig w, wb, wo; /* the recipe, the blind retry, the other client */
	int w_open, wb_open, wo_open;
	char *lock;	 /* the lock path */
	int64_t session; /* A's session */
	int stopped;	 /* a check failed that leaves nothing to show */
};

/* Starts w's acquire, recorded as an op of w's name.  Returns the op. */
static int start(struct create_lost *c, struct zklockrig *w, int wait_ms)
{
	int op = report_invoke(c->r, w->name, "acquire", NULL);
	zklockrig_start(w, wait_ms);
	return op;
}

/* zklockrig_wait_done, recording the end of acquire op: ok (result: the
 * candidate held) or fail. */
static int wait_done(struct create_lost *c, struct zklockrig *w, int op, int ms, int *arc)
{
	int rc = zklockrig_wait_done(w, ms, arc);
	if (rc == 0)
		report_complete(c->r, op, *arc == 0 ? HIST_OK : HIST_FAIL,
				*arc == 0 ? zklockrig_short(zklock_own_path(w->l)) : NULL);
	return rc;
}

/* w's release, recorded. */
static void release(struct create_lost *c, struct zklockrig *w)
{
	int op = report_invoke(c->r, w->name, "release", NULL);
	int rc = zklock_release(w->l);
	report_complete(c->r, op, rc == 0 ? HIST_OK : HIST_INFO, NULL);
}

/* Arms the proxy to drop the reply to A's next create under the lock. */
static void arm_drop(struct create_lost *c)
{
	char *prefix = wb_xasprintf("%s/" ZKLOCK_PROTECTED_PREFIX, c->lock);
	zkproxy_arm_drop_create(c->p, prefix);
	free(prefix);
}

/* A through the proxy, another client direct, the lock path named. */
static int connect_clients(struct create_lost *c)
{
	struct report *r = c->r;
	struct lab_ctx *ctx = c->ctx;
	char hex[ZKC_HEX_LEN];
	int rc;
	if (!c->z->server) {
		report_cannot(r, "this lab proxies its own server; it cannot run against --zk");
		return WB_EINVAL;
	}
	if ((rc = zkproxy_new(zkserver_connect(c->z->server), &c->p)) != 0) {
		report_cannot(r, "cannot start the fault proxy: %s", wb_strerror(rc));
		return rc;
	}
	report_step(r, "client A connects through the fault proxy on %s", zkproxy_connect(c->p));
	if ((rc = zkc_connect(zkproxy_connect(c->p), SESSION_MS, ZKLAB_WAIT_MS, ctx->run_dir,
			      &c->a)) != 0) {
		report_cannot(r, "client A cannot connect through the proxy");
		return rc;
	}
	if ((rc = zklab_client(c->z, &c->other)) != 0)
		return rc;
	c->lock = wb_xasprintf("%s/lock", c->z->base);
	report_evidence(r, "lock_path", "%s", c->lock);
	c->session = zkc_session_id(c->a);
	report_evidence(r, "session", "%s", zkc_hex(c->session, hex));

	return 0;
}

/* The recipe recovers: the create's reply is lost, the recipe finds its
 * one candidate by GUID on the same session and holds. */
static int recipe_recovers(struct create_lost *c)
{
	struct report *r = c->r;
	char hex[ZKC_HEX_LEN], hex2[ZKC_HEX_LEN];
	struct zklockrig s;
	int rc, arc = -1;
	arm_drop(c);
	report_step(r, "the proxy will drop the reply to A's next create under the lock path");
	if ((rc = zklockrig_open(&c->w, "A", c->a, c->lock, NULL, NULL)) != 0)
		return rc;
	c->w_open = 1;
	/* The lock path must exist so that the dropped create is the
	 * candidate itself, not the path. */
	zoo_create(zkc_handle(c->other), c->lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	report_step(r, "A asks for the lock (a new GUID, one create)");
	int op = start(c, &c->w, ACQUIRE_MS);
	struct zkproxy_event dropped = {0};
	int have_drop = zkproxy_wait(c->p, ZKPROXY_EV_DROPPED, ZKLAB_WAIT_MS, &dropped) == 0;
	if (have_drop)
		report_mark(r, "proxy", "create reply dropped (xid %" PRId32 ")", dropped.xid);
	report_checkf(r, "proxy-dropped-reply", have_drop, "the create's reply dropped", "%s",
		      have_drop ? dropped.text : "no drop within the deadline");
	if (have_drop)
		report_evidence(r, "dropped_xid", "%" PRId32, dropped.xid);
	rc = wait_done(c, &c->w, op, ACQUIRE_MS, &arc);
	if (rc) {
		report_check(r, "A-holds", 0, "held", "still waiting");
		c->stopped = 1;
		return 0;
	}
	zklockrig_snapshot(&c->w, &s);
	report_evidence(r, "A_history", "%s", s.log);
	report_checkf(r, "create-connection-loss", strstr(s.log, "create=ZCONNECTIONLOSS") != NULL,
		      "ZCONNECTIONLOSS: outcome unknown", "%s", s.log);
	report_checkf(r, "same-session",
		      zkc_session_id(c->a) == c->session && zklock_session(c->w.l) == c->session,
		      zkc_hex(c->session, hex), "%s", zkc_hex(zkc_session_id(c->a), hex2));
	report_checkf(r, "found-by-guid", strstr(s.log, "recovered=1") != NULL,
		      "exactly one candidate of this session with our GUID", "%s", s.note);
	report_checkf(r, "A-holds", arc == 0, "held", "%s (%s)",
		      zklock_status_name(zklock_status(c->w.l)), zklock_message(c->w.l));
	if (arc != 0) {
		c->stopped = 1;
		return 0;
	}
	char *first = wb_xstrdup(zklock_own_path(c->w.l));
	struct Stat st;
	int zrc = zoo_exists(zkc_handle(c->other), first, 0, &st);
	report_checkf(r, "ephemeral-owner", zrc == ZOK && st.ephemeralOwner == c->session,
		      zkc_hex(c->session, hex), "%s",
		      zrc == ZOK ? zkc_hex(st.ephemeralOwner, hex2) : zkc_err_name(zrc));
	if (have_drop)
		report_checkf(r, "create-had-happened", zrc == ZOK && st.czxid == dropped.zxid,
			      "node czxid = the dropped reply's zxid", "czxid 0x%llx, zxid 0x%llx",
			      (unsigned long long)st.czxid, (unsigned long long)dropped.zxid);
	report_checkf(r, "one-candidate", count_guid(c->other, c->lock, zklock_guid(c->w.l)) == 1,
		      "1 node with A's GUID (no blind retry)", "%d",
		      count_guid(c->other, c->lock, zklock_guid(c->w.l)));
	report_evidence(r, "fencing_token", "%lld", (long long)zklock_token(c->w.l));
	release(c, &c->w);
	zklockrig_close(&c->w);
	c->w_open = 0;
	free(first);
	return 0;
}

/* Control: the same loss, and a client that simply creates again - two
 * candidates of one GUID, which recovery refuses to choose between. */
static int blind_retry_control(struct create_lost *c)
{
	struct report *r = c->r;
	struct zklockrig s;
	int rc, arc = -1;
	report_step(r, "control: the same loss, and a client that simply creates again");
	/* Consume phase one's reconnection from A's event queue. */
	zkc_wait_state(c->a, ZOO_CONNECTED_STATE, ZKLAB_WAIT_MS, NULL);
	struct blind blind = {.r = r, .c = c->a};
	struct zklock_hooks bh = {.arg = &blind, .create_done = blind_retry};
	if ((rc = zklockrig_open(&c->wb, "A2", c->a, c->lock, &bh, NULL)) != 0)
		return rc;
	c->wb_open = 1;
	arm_drop(c);
	int op = start(c, &c->wb, ACQUIRE_MS);
	rc = wait_done(c, &c->wb, op, ACQUIRE_MS, &arc);
	if (rc) {
		report_check(r, "recovery-refuses", 0, "ambiguous", "still waiting");
		c->stopped = 1;
		return 0;
	}
	zklockrig_snapshot(&c->wb, &s);
	report_evidence(r, "A2_history", "%s", s.log);
	report_checkf(r, "blind-retry-created", blind.fired && blind.zrc == ZOK,
		      "a second create succeeds", "%s",
		      blind.fired ? zkc_err_name(blind.zrc) : "the loss did not happen");
	if (blind.fired && blind.zrc == ZOK)
		report_evidence(r, "second_candidate", "%s", zklockrig_name(blind.path));
	int n = count_guid(c->other, c->lock, zklock_guid(c->wb.l));
	report_checkf(r, "control-two-candidates", n == 2, "2 nodes with one GUID", "%d", n);
	report_checkf(r, "recovery-refuses",
		      arc == WB_ECORRUPT && zklock_status(c->wb.l) == ZKLOCK_AMBIGUOUS,
		      "ambiguous: refused", "%s: %s", zklock_status_name(zklock_status(c->wb.l)),
		      zklock_message(c->wb.l));
	n = count_guid(c->other, c->lock, zklock_guid(c->wb.l));
	report_checkf(r, "nothing-deleted", n == 2, "both still there", "%d", n);

	return 0;
}

/* The orphans block another client until A's session ends. */
static int orphans_block_others(struct create_lost *c)
{
	struct report *r = c->r;
	int rc, arc = -1;
	report_step(r, "another client tries the lock while A's two orphan candidates stand");
	if ((rc = zklockrig_open(&c->wo, "B", c->other, c->lock, NULL, NULL)) != 0)
		return rc;
	c->wo_open = 1;
	int op = start(c, &c->wo, 0);
	wait_done(c, &c->wo, op, ZKLAB_WAIT_MS, &arc);
	report_checkf(r, "control-others-blocked", arc == WB_EBUSY,
		      "busy: the orphans are in front", "%s",
		      zklock_status_name(zklock_status(c->wo.l)));
	report_step(r, "only the end of A's session clears them");
	zklockrig_close(&c->wb);
	c->wb_open = 0;
	zkc_close(c->a);
	c->a = NULL;
	report_mark(r, "A", "session closed: its candidates are deleted");
	op = start(c, &c->wo, ZKLAB_WAIT_MS);
	wait_done(c, &c->wo, op, ZKLAB_WAIT_MS, &arc);
	report_checkf(r, "session-end-clears", arc == 0, "B holds", "%s",
		      zklock_status_name(zklock_status(c->wo.l)));
	if (arc == 0)
		release(c, &c->wo);
	zkproxy_report(c->p, r, 0);
	return 0;
}

static int create_lost_run(struct lab_ctx *ctx)
{
	struct create_lost c = {.ctx = ctx, .r = ctx->report};
	int rc = zklab_open(ctx, &c.z);
	if (!rc)
		rc = connect_clients(&c);
	if (!rc)
		rc = recipe_recovers(&c);
	if (!rc && !c.stopped)
		rc = blind_retry_control(&c);
	if (!rc && !c.stopped)
		rc = orphans_block_others(&c);
	if (!rc && !c.stopped) {
		struct hist_result res;
		int crc = mutex_check(report_history(c.r), &res);
		if (crc)
			report_checker_error(&res, crc);
		report_checker(c.r, "lock-history-mutual-exclusion", &res, HIST_VALID);
	}
	if (c.w_open)
		zklockrig_close(&c.w);
	if (c.wb_open)
		zklockrig_close(&c.wb);
	if (c.wo_open)
		zklockrig_close(&c.wo);
	zkc_close(c.a);
	zkc_close(c.other);
	zkproxy_free(c.p);
	zklab_close(c.z);
	free(c.lock);
	return rc;
}

/* The entry point registered as lab_zk_create_lost in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"A create whose reply was lost had happened (the node's czxid is the dropped "
		"reply's zxid), and the recipe found its one candidate by GUID and "
		"ephemeralOwner on the same session. A blind retry left two candidates, which "
		"recovery refused to choose between, and they blocked every other client until "
		"the session ended.");
	return lab_outcome_of(ctx, create_lost_run(ctx));
}

const lab_run_fn lab_zk_create_lost = lab_main;
