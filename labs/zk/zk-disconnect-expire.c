/*
 * zk-disconnect-expire.c - the lab "zk-disconnect-expire": Disconnected
 * keeps the session; Expired ends the attempt (chapter 01, "Disconnected is
 * not Expired").
 *
 * Client A reaches a real ZooKeeper server only through the fault proxy
 * (harness/zkproxy.h) and holds the lock (recipes/zklock.h).  An observer
 * client talks to the server directly.  Two timelines on the same holder:
 *
 *   (a) short disconnect   the proxy holds new traffic and cuts A's
 *       connection; A's reconnect waits in the proxy until the lab has
 *       seen A go CONNECTING and the recipe tell the holder SUSPENDED
 *       (protected work paused); then the proxy lets it through, well
 *       inside the session timeout.  A is CONNECTED on the same session;
 *       its candidate is still there with the same ephemeralOwner; the
 *       holder re-checks candidate and order before working again.
 *
 *   (b) expiry             the proxy holds all of A's traffic, nothing is
 *       closed: A's heartbeats stop reaching the server, which expires the
 *       session by itself and deletes the candidate (the observer's watch
 *       fires).  A call A queued meanwhile is answered ZSESSIONEXPIRED
 *       once the proxy lets A's reconnect through, and A's handle goes
 *       ZOO_EXPIRED_SESSION_STATE.  The old handle cannot compete again;
 *       a new handle gets a new session, a new GUID and a larger token.
 *
 * Nothing is forced: no zookeeper_close, no forced expiry, no sleeps; every
 * wait is for an event with a deadline.  It needs its own server (the
 * proxy and the expiry depend on it), so it does not run under --zk.
 */
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkasync.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkasync.h"
#include "rigs/zkhold.h"
#include "harness/zk/zklab.h"
#include "harness/zk/zkproxy.h"
#include "lab.h"
#include "recipes/zklock.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything the run owns; freed in one place, handles closed before the
 * completions they may still call are destroyed. */
struct run {
	struct lab_ctx *ctx;
	struct report *r;
	struct zklab *z;	 /* server, base path, observer client */
	struct zkproxy *p;	 /* A's only way to the server */
	struct zkc *a;		 /* client A (through the proxy) */
	struct zkc *a2;		 /* A's new attempt after expiry */
	struct zklock *la, *la2; /* their locks */
	struct zkhold *ha, *ha2; /* what the locks told their holders */
	struct zkasync pending;	 /* a call A queued while cut off */
	char *lock_path;	 /* <base>/lock: the lock domain */
	int pending_init;	 /* pending was initialised */
};

static char *hex(int64_t id, char buf[ZKC_HEX_LEN])
{
	return zkc_hex(id, buf);
}

/* Reads path's ephemeralOwner and czxid through c.  Returns the zoo_* code. */
static int owner_of(struct zkc *c, const char *path, int64_t *owner, int64_t *czxid)
{
	struct Stat st;
	int zrc = zoo_exists(zkc_handle(c), path, 0, &st);
	if (zrc == ZOK) {
		*owner = st.ephemeralOwner;
		*czxid = st.czxid;
	}
	return zrc;
}

/*
 * The holder's re-check after a reconnect, on its own handle: a fresh
 * listing, sorted by suffix, must still contain the own node, first; and
 * the node's ephemeralOwner must be this session.  Returns 1 when all hold;
 * obs receives what was seen.
 */
static int recheck(struct run *R, struct zkc *c, struct zklock *l, char *obs, size_t n)
{
	zhandle_t *zh = zkc_handle(c);
	struct String_vector kids = {0};
	int ok = 0, zrc = zoo_get_children(zh, R->lock_path, 0, &kids);
	if (zrc != ZOK) {
		snprintf(obs, n, "getChildren: %s", zkc_err_name(zrc));
		return 0;
	}
	struct zklock_entry *e = NULL;
	size_t ne = 0;
	const char *bad = NULL;
	const char *own = strrchr(zklock_own_path(l), '/') + 1;
	if (zklock_sort(kids.data, (size_t)kids.count, &e, &ne, &bad) != 0) {
		snprintf(obs, n, "cannot order %s", bad ? bad : "?");
		goto out;
	}
	long idx = zklock_index(e, ne, own);
	int64_t owner = 0, czxid = 0;
	zrc = owner_of(c, zklock_own_path(l), &owner, &czxid);
	char h1[ZKC_HEX_LEN], h2[ZKC_HEX_LEN];
	snprintf(obs, n, "%zu contender(s), own node at index %ld; ephemeralOwner %s, session %s",
		 ne, idx, zrc == ZOK ? hex(owner, h1) : zkc_err_name(zrc),
		 hex(zkc_session_id(c), h2));
	ok = idx == 0 && zrc == ZOK && owner == zkc_session_id(c);
out:
	free(e);
	deallocate_String_vector(&kids);
	return ok;
}

static int timeline_a(struct run *R, int64_t *sid_out)
{
	struct report *r = R->r;
	char h1[ZKC_HEX_LEN], h2[ZKC_HEX_LEN], obs[256];
	int64_t sid = zkc_session_id(R->a);
	*sid_out = sid;
	int64_t owner0 = 0, czxid0 = 0, owner1 = 0, czxid1 = 0;
	const char *own = zklock_own_path(R->la);

	report_step(r, "(a) short disconnect: A holds %s (token %" PRId64 ") on session %s",
		    zklock_own_path(R->la), zklock_token(R->la), hex(sid, h1));
	int zrc = owner_of(R->z->admin, own, &owner0, &czxid0);
	report_checkf(r, "candidate-owned-by-a", zrc == ZOK && owner0 == sid,
		      "the observer sees A's candidate with ephemeralOwner = A's session",
		      "ephemeralOwner %s", zrc == ZOK ? hex(owner0, h1) : zkc_err_name(zrc));

	report_step(r, "the proxy holds new traffic and cuts A's connection; A's reconnect will "
		       "wait in the proxy until the lab lets it through");
	zkproxy_hold(R->p, ZKPROXY_BOTH);
	int cut = zkproxy_cut(R->p);
	report_evidence(r, "connections_cut", "%d", cut);

	struct zkc_event down, up;
	int rc = zkc_wait_state(R->a, ZOO_CONNECTING_STATE, ZKLAB_WAIT_MS, &down);
	report_check(r, "a-sees-connecting", rc == 0, "A's watcher gets CONNECTING (Disconnected)",
		     rc == 0 ? "ZOO_CONNECTING_STATE" : "no CONNECTING event");
	if (rc)
		return WB_EIO;
	char why[160] = "";
	rc = zkhold_wait(R->ha, ZKLOCK_EV_SUSPENDED, ZKLAB_WAIT_MS, NULL, why, sizeof why);
	report_checkf(r, "work-paused-while-disconnected", rc == 0 && !zkhold_may_work(R->ha),
		      "the recipe tells the holder SUSPENDED and protected work stops",
		      "%s; may work: %s", rc == 0 ? why : "no SUSPENDED event",
		      zkhold_may_work(R->ha) ? "yes" : "no");

	report_step(r, "the proxy lets A's reconnect through, well inside the session timeout");
	zkproxy_release(R->p);
	rc = zkc_wait_state(R->a, ZOO_CONNECTED_STATE, ZKLAB_WAIT_MS, &up);
	int64_t sid2 = zkc_session_id(R->a);
	report_checkf(r, "same-session-after-reconnect", rc == 0 && sid2 == sid,
		      "CONNECTED again with the same session id", "%s, session %s -> %s",
		      rc == 0 ? "CONNECTED" : "no CONNECTED event", hex(sid, h1), hex(sid2, h2));
	if (rc)
		return WB_EIO;
	report_evidence(r, "disconnected_ms", "%lld (session timeout %d ms)", up.at_ms - down.at_ms,
			zkc_session_timeout(R->a));

	zrc = owner_of(R->z->admin, own, &owner1, &czxid1);
	report_checkf(r, "candidate-survives-disconnect",
		      zrc == ZOK && owner1 == sid && czxid1 == czxid0,
		      "the same node (same czxid) with the same ephemeralOwner is still there",
		      "%s; ephemeralOwner %s, czxid 0x%" PRIx64 " (was 0x%" PRIx64 ")",
		      zrc == ZOK ? "exists" : zkc_err_name(zrc), hex(owner1, h1), (uint64_t)czxid1,
		      (uint64_t)czxid0);

	rc = zkhold_wait(R->ha, ZKLOCK_EV_RESUMED, ZKLAB_WAIT_MS, NULL, why, sizeof why);
	report_checkf(r, "holder-told-resumed", rc == 0 && !zkhold_may_work(R->ha),
		      "the recipe tells the holder RESUMED; work stays paused until the re-check",
		      "%s; may work: %s", rc == 0 ? why : "no RESUMED event",
		      zkhold_may_work(R->ha) ? "yes" : "no");

	int ok = recheck(R, R->a, R->la, obs, sizeof obs);
	report_check(r, "recheck-candidate-and-order", ok,
		     "a fresh listing still has A's node first, owned by A's session", obs);
	if (ok) {
		zkhold_set_may_work(R->ha, 1);
		report_step(r, "only now does A resume protected work");
	}
	return 0;
}

/* Waits for a connect request the proxy saw at or after since_ms. */
static int next_connect_after(struct run *R, long long since_ms)
{
	struct zkproxy_event ev;
	for (;;) {
		if (zkproxy_wait(R->p, ZKPROXY_EV_CONNECT_REQ, ZKLAB_WAIT_MS, &ev))
			return WB_EBUSY;
		if (ev.at_ms >= since_ms)
			return 0;
	}
}

/* (b), first: the observer watches A's candidate, the proxy holds A's
 * traffic, and the server expires A's silent session by itself (*del:
 * the candidate's deletion as the observer saw it). */
static int b_server_expires(struct run *R, const char *own, struct zkc_event *del)
{
	struct report *r = R->r;
	int rc, zrc;
	report_step(r, "(b) expiry: the observer watches A's candidate; then the proxy holds all "
		       "of A's traffic. Nothing is closed and nothing forces the expiry");
	/* watch=1: the notification lands in the observer's event queue. */
	struct Stat st;
	zrc = zoo_exists(zkc_handle(R->z->admin), own, 1, &st);
	if (zrc != ZOK) {
		report_check(r, "observer-watch", 0, "the observer sets a watch on A's candidate",
			     zkc_err_name(zrc));
		rc = WB_EIO;
		return rc;
	}
	long long held_at = zkc_now_ms();
	zkproxy_hold(R->p, ZKPROXY_BOTH);

	rc = zkc_wait_event(R->z->admin, ZOO_DELETED_EVENT, own,
			    zkc_session_timeout(R->a) + ZKLAB_WAIT_MS, del);
	int64_t o = 0, c = 0;
	int gone = owner_of(R->z->admin, own, &o, &c);
	report_checkf(r, "server-expires-session", rc == 0 && gone == ZNONODE,
		      "the server expires A's silent session itself and deletes its candidate",
		      "%s %lld ms after the hold began; exists: %s",
		      rc == 0 ? "deleted" : "not deleted", rc == 0 ? del->at_ms - held_at : -1LL,
		      zkc_err_name(gone));
	if (rc) {
		rc = WB_EIO;
		return rc;
	}
	report_story_wait(r, (long)(del->at_ms - held_at), "session-expiry");
	report_evidence(r, "a_state_at_server_expiry", "%s",
			zkc_state_name(zoo_state(zkc_handle(R->a))));

	return 0;
}

/* A, cut off, queues a re-check of its candidate on a fresh connection
 * attempt; then the proxy lets that attempt reach the server. */
static int b_queue_recheck(struct run *R, const char *own, long long del_at)
{
	struct report *r = R->r;
	int rc = 0, zrc;
	/*
	 * A call A makes while cut off is queued on its handle.  Issue it as
	 * soon as A starts a fresh connection attempt (the proxy shows its
	 * handshake), then let that handshake through: the server's answer
	 * "session expired" completes the queued call.  If the attempt timed
	 * out in between (the call already completed), wait for the next.
	 */
	for (int tries = 0; tries < 5; tries++) {
		if (next_connect_after(R, del_at)) {
			rc = WB_EIO;
			break;
		}
		if (R->pending_init) {
			if (!zkasync_finished(&R->pending))
				break; /* a completion may still come: keep this one */
			zkasync_destroy(&R->pending);
		}
		zkasync_init(&R->pending);
		R->pending_init = 1;
		zrc = zoo_aexists(zkc_handle(R->a), own, 0, zkasync_stat_done, &R->pending);
		if (zrc != ZOK) {
			report_check(r, "a-queues-recheck", 0,
				     "A's re-check is queued on its handle", zkc_err_name(zrc));
			rc = WB_EIO;
			return rc;
		}
		if (!zkasync_finished(&R->pending)) {
			rc = 0;
			break;
		}
		rc = WB_EBUSY;
	}
	if (rc) {
		report_check(r, "a-queues-recheck", 0,
			     "A's re-check is queued on a connection attempt still open",
			     "no attempt stayed open");
		return rc;
	}
	report_step(r, "A, cut off, queues a re-check of its candidate; the proxy now lets A's "
		       "reconnect reach the server");
	zkproxy_release(R->p);

	return 0;
}

/* A learns: its queued call and its watcher say expired, the recipe
 * says LOST, and the expired handle cannot compete again. */
static int b_a_learns_expired(struct run *R, long long del_at)
{
	struct report *r = R->r;
	char why[160] = "";
	int rc;
	int call_rc = 0;
	rc = zkasync_wait(&R->pending, ZKLAB_WAIT_MS, &call_rc);
	report_checkf(r, "queued-call-sessionexpired", rc == 0 && call_rc == ZSESSIONEXPIRED,
		      "the queued call is answered ZSESSIONEXPIRED", "%s",
		      rc == 0 ? zkc_err_name(call_rc) : "no answer");
	struct zkc_event exp;
	rc = zkc_wait_state(R->a, ZOO_EXPIRED_SESSION_STATE, ZKLAB_WAIT_MS, &exp);
	int st_now = zoo_state(zkc_handle(R->a));
	report_checkf(r, "a-sees-expired", rc == 0 && st_now == ZOO_EXPIRED_SESSION_STATE,
		      "A's watcher gets ZOO_EXPIRED_SESSION_STATE and the handle stays there",
		      "event %s; zoo_state %s", rc == 0 ? "EXPIRED" : "none",
		      zkc_state_name(st_now));
	if (rc) {
		rc = WB_EIO;
		return rc;
	}
	report_evidence(r, "expired_seen_after_delete_ms", "%lld", exp.at_ms - del_at);
	/* A hears of the expiry only on its next connection attempt, which
	 * its client makes at the pace the session timeout sets. */
	report_story_wait(r, (long)(exp.at_ms - del_at), "reconnect-after-expiry");
	long long lost_at = 0;
	rc = zkhold_wait(R->ha, ZKLOCK_EV_LOST, ZKLAB_WAIT_MS, &lost_at, why, sizeof why);
	report_checkf(r, "holder-told-lost", rc == 0 && !zkhold_may_work(R->ha),
		      "the recipe tells the holder LOST and work stays stopped", "%s",
		      rc == 0 ? why : "no LOST event");
	if (rc == 0)
		report_evidence(r, "lost_told_vs_server_delete_ms", "%+lld", lost_at - del_at);

	rc = zklock_acquire(R->la, 0);
	report_checkf(r, "old-handle-cannot-compete", rc == WB_EINVAL,
		      "acquiring again on the expired handle is refused", "%s: %s",
		      rc == WB_EINVAL ? "refused" : wb_strerror(rc), zklock_message(R->la));

	return 0;
}

/* A new attempt: a new handle (new session), a new lock, a new GUID. */
static int b_new_attempt(struct run *R, int64_t sid, const char *old_guid, int64_t old_token)
{
	struct report *r = R->r;
	char h1[ZKC_HEX_LEN], h2[ZKC_HEX_LEN];
	int rc;
	report_step(r, "a new attempt: a new handle (new session), a new lock, a new GUID");
	rc = zkc_connect(zkproxy_connect(R->p), ZKLAB_SESSION_MS, ZKLAB_WAIT_MS, R->ctx->run_dir,
			 &R->a2);
	if (rc) {
		report_cannot(r, "cannot open A's new handle: %s", wb_strerror(rc));
		return rc;
	}
	R->ha2 = zkhold_new();
	struct zklock_opts o2 = {.on_event = zkhold_on_event, .event_arg = R->ha2};
	rc = zklock_new(zkc_handle(R->a2), R->lock_path, &o2, &R->la2);
	if (rc == 0)
		rc = zklock_acquire(R->la2, ZKLAB_WAIT_MS);
	int64_t sid2 = zkc_session_id(R->a2);
	report_checkf(r, "new-attempt-new-identity",
		      rc == 0 && sid2 != sid && strcmp(zklock_guid(R->la2), old_guid) &&
			      zklock_token(R->la2) > old_token,
		      "held on a new session with a new GUID and a larger token",
		      "%s; session %s -> %s; GUID %.8s… -> %.8s…; token %" PRId64 " -> %" PRId64,
		      rc == 0 ? "held" : zklock_message(R->la2), hex(sid, h1), hex(sid2, h2),
		      old_guid, zklock_guid(R->la2), old_token, zklock_token(R->la2));
	rc = 0;
	report_step(r, "neither event proves that the old worker has stopped: Disconnected says "
		       "only that a TCP connection broke, and Expired is the server's verdict, "
		       "learned late; a paused thread of A can still send what it prepared. Only "
		       "the resource can refuse it (zk-fencing)");
	return 0;
}

static int timeline_b(struct run *R, int64_t sid)
{
	char *own = wb_xstrdup(zklock_own_path(R->la));
	char old_guid[ZKLOCK_GUID_LEN + 1];
	snprintf(old_guid, sizeof old_guid, "%s", zklock_guid(R->la));
	int64_t old_token = zklock_token(R->la);
	struct zkc_event del;
	int rc = b_server_expires(R, own, &del);
	if (!rc)
		rc = b_queue_recheck(R, own, del.at_ms);
	if (!rc)
		rc = b_a_learns_expired(R, del.at_ms);
	if (!rc)
		rc = b_new_attempt(R, sid, old_guid, old_token);
	free(own);
	return rc;
}

static int zk_disconnect_expire_run(struct lab_ctx *ctx)
{
	struct run R = {.ctx = ctx, .r = ctx->report};
	int64_t sid = 0;
	int rc = zklab_open(ctx, &R.z);
	if (rc)
		goto out;
	rc = zkproxy_new(R.z->connect, &R.p);
	if (rc) {
		report_cannot(R.r, "cannot start the fault proxy: %s", wb_strerror(rc));
		goto out;
	}
	report_step(R.r, "client A reaches the server only through the fault proxy on %s",
		    zkproxy_connect(R.p));
	rc = zkc_connect(zkproxy_connect(R.p), ZKLAB_SESSION_MS, ZKLAB_WAIT_MS, ctx->run_dir, &R.a);
	if (rc) {
		report_cannot(R.r, "A cannot connect through the proxy: %s", wb_strerror(rc));
		goto out;
	}
	report_evidence(R.r, "session_timeout_ms", "%d", zkc_session_timeout(R.a));
	R.lock_path = wb_xasprintf("%s/lock", R.z->base);
	R.ha = zkhold_new();
	struct zklock_opts o = {.on_event = zkhold_on_event, .event_arg = R.ha};
	rc = zklock_new(zkc_handle(R.a), R.lock_path, &o, &R.la);
	if (rc == 0)
		rc = zklock_acquire(R.la, ZKLAB_WAIT_MS);
	if (!report_check(R.r, "a-holds-lock", rc == 0, "A acquires the free lock",
			  rc == 0 ? "held" : zklock_message(R.la)))
		goto out;
	zkhold_set_may_work(R.ha, 1);

	rc = timeline_a(&R, &sid);
	if (rc == 0)
		rc = timeline_b(&R, sid);
out:
	if (R.p)
		zkproxy_report(R.p, R.r, 0);
	zklock_free(R.la);
	zklock_free(R.la2);
	zkc_close(R.a);
	zkc_close(R.a2);
	zkproxy_free(R.p);
	if (R.pending_init)
		zkasync_destroy(&R.pending);
	zkhold_free(R.ha);
	zkhold_free(R.ha2);
	free(R.lock_path);
	zklab_close(R.z);
	return rc;
}

/* The entry point registered as lab_zk_disconnect_expire in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"Disconnected is not Expired: after a short disconnect the same session and "
		"candidate were still there and the holder re-checked before working again. "
		"After expiry the server had deleted the candidate, the old handle could not "
		"compete again, and a new attempt got a new session, GUID and larger token.");
	return lab_outcome_of(ctx, zk_disconnect_expire_run(ctx));
}

const lab_run_fn lab_zk_disconnect_expire = lab_main;
