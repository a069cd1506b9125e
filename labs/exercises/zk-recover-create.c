/*
 * zk-recover-create.c - the check of the exercise zk-recover-create: the
 * learner's create_candidate (exercises/zk-recover-create/api.h) judged
 * by the task's rules on a real ZooKeeper, then under the fault of the
 * lab zk-create-lost as before (the story).
 *
 * Three sessions: O (connected first, so its session id is the smallest),
 * A (the learner's handle, through the fault proxy, harness/zk/zkproxy.h)
 * and N (connected last, the largest id).  Every situation has a lock
 * folder of its own and a GUID of its own (spec_hex_id: a rerun sees the
 * same ones); the check stages the folder, calls create_candidate once
 * (twice in the "earlier attempt" situations: two lost replies in a row)
 * and compares what it returned with what the server has:
 *   answered-create-returned: the create is answered (ZOK, among other
 *     sessions' nodes with the GUID and a node an earlier try of this
 *     attempt left; ZNOAUTH in a folder without CREATE permission): that
 *     answer is returned, nothing listed, nothing created again.
 *   no-second-create: the create's reply is lost (drop-create: the node
 *     exists): one node of A's with the GUID afterwards, the one whose
 *     czxid is the dropped reply's zxid.  A learner whose first request
 *     after reconnecting is a create is judged here in every situation.
 *   guid-and-session: O's and N's nodes carry A's GUID, before and after
 *     A's: the node returned is the one with the GUID and A's session.
 *   ignores-earlier-attempt: A's node of an earlier attempt (another GUID,
 *     its reply lost too) sorts first: it is not taken; next to it N's
 *     node with the current GUID (a taken node is judged by whose it is;
 *     ZAPIERROR there tells neither mistake apart and judges nothing).
 *   several-refused: A already had a node with the GUID and the lost
 *     create adds one: ZAPIERROR, both kept.
 *   none-is-unknown: the create never reached the server (the proxy holds
 *     it and cuts the connection): ZNONODE, nothing created.
 *   syncs-before-listing: after the reconnection the first request of A
 *     is a sync (the proxy holds it: wait_connected starts the hold, the
 *     check reads the op and lets it go), not the listing; a learner that
 *     does not list there is not judged by it.
 *   errors-returned: the folder cannot be listed (its ACL lacks READ):
 *     the listing's ZNOAUTH is returned, not "none found".
 * No exploration: a situation is one call on a folder the check stages;
 * the folder's possible contents are what the situations enumerate.
 * Every wait is for an event (a held request, the proxy's drop, a state
 * of A's session, the thread's return), never a sleep.
 *
 * The story (unchanged): another session holds the lock and has a node
 * carrying A's GUID, created before A's create and again while A waits
 * to reconnect; the proxy drops the reply to A's create.
 *
 * It needs its own server and proxy (no --zk).  It does not show what the
 * orphans of a blind retry do to other clients (the lab does).
 */
#include "base/wb.h"
#include "exercise.h"
#include "exzk.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkframe.h"
#include "harness/zk/zklab.h"
#include "harness/zk/zkproxy.h"
#include "harness/zk/zkserver.h"
#include "lab.h"
#include "recipes/zklock.h"
#include "rigs/exthread.h"
#include "rigs/zklockrig.h"
#include "spec.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SESSION_MS 4000 /* as the lab: reconnecting never races expiry */
#define CALL_MS	   20000
#define MAX_KIDS   16

enum { R_ANSWERED, R_ONCE, R_GUID, R_EARLIER, R_SEVERAL, R_NONE, R_SYNC, R_ERRORS, R_COUNT };

static const struct spec_rule rules[] = {
	{"answered-create-returned",
	 N_("an answered create is returned as it is: ZOK with the path it created, or its error "
	    "(ZNOAUTH); nothing listed or created after it")},
	{"no-second-create",
	 N_("after a lost reply no second create: A's session has one node with the GUID, the "
	    "one the lost create made")},
	{"guid-and-session",
	 N_("the node returned carries this attempt's GUID and has A's session as ephemeralOwner; "
	    "other sessions' nodes with the GUID are not taken")},
	{"ignores-earlier-attempt",
	 N_("a node of A's session from an earlier attempt (another GUID) is not taken")},
	{"several-refused", N_("two nodes with the GUID and A's session: ZAPIERROR, both kept")},
	{"none-is-unknown",
	 N_("no node with the GUID and A's session (the create never reached the server): "
	    "ZNONODE, nothing created")},
	{"syncs-before-listing",
	 N_("after reconnecting, a sync of the lock folder before the listing")},
	{"errors-returned",
	 N_("a step that fails returns its error (the wait's ZSESSIONEXPIRED, the sync's "
	    "ZCONNECTIONLOSS, the listing's ZNOAUTH), not ZNONODE; nothing created")},
};

struct create_ctx {
	zhandle_t *zh;
	const char *dir;
	const char *guid;
	const char *prefix;
	int64_t session;
	int (*wait_connected)(const struct create_ctx *c, int timeout_ms);
	int (*sync_dir)(const struct create_ctx *c);
	void *priv;
}; /* exercises/zk-recover-create/api.h, field for field */
typedef int (*create_candidate_fn)(const struct create_ctx *c, char *path, int path_len);

/* How a call's create is treated. */
enum {
	M_ANSWER,  /* the create is answered */
	M_DROP,	   /* its reply is dropped (the node exists) */
	M_CUT,	   /* it is held and the connection cut (it never arrives) */
	M_CUTSYNC, /* its reply is dropped, and the connection cut again at the
		      first request after the reconnection */
	M_EXPIRE,  /* as M_CUT, and A's reconnection held until on_fault (which
		      ends A's session) lets it go */
};

/* Everything of one run.  Heap allocated: a learner's call that never
 * returns keeps it (exthread.h). */
struct sit;

struct recover_ex {
	struct report *r;
	struct zklab *z;
	struct zkproxy *p;
	struct zkc *older, *a, *other; /* O direct, A through the proxy, N direct */
	struct zkc *a2;		       /* a second session through the proxy (expired) */
	struct spec sp;
	int nsit;  /* situations staged: their folder names */
	int stuck; /* a learner's call never returned: A is no longer usable */
	/* the story */
	char *lock, *prefix;
	char guid[ZKLOCK_GUID_LEN + 1];
	char holder[512], decoy[2][512];
	pthread_mutex_t mu; /* guards the fields below (A's thread and the check's) */
	int story;	    /* a story call: wait_connected holds nothing */
	/* run by wait_connected at its first call after the fault, before it
	 * waits: others create nodes while A is cut off */
	void (*on_fault)(struct recover_ex *x);
	struct sit *cur; /* the situation of the call (NULL in the story) */
	int reconnected; /* wait_connected consumed the reconnection */
	int decoy2_rc;	 /* the second decoy's create: ZOK, or -1 when not made */
	int waits;	 /* wait_connected calls */
	int syncs;	 /* sync_dir calls */
	size_t ev0;	 /* the proxy's event count when the call started */
	/* one call */
	create_candidate_fn fn;
	struct create_ctx cx;
	char path[512]; /* what the learner returned */
	int zrc;
	struct exthread t;
};

/* The last proxy event of kind from index from on, copied to *ev.  1 when
 * there is one: with several lost replies in a row the latest is the one
 * of this call. */
static int last_event(struct zkproxy *p, size_t from, enum zkproxy_ev_kind kind,
		      struct zkproxy_event *ev)
{
	size_t n = zkproxy_event_count(p);
	int found = 0;
	struct zkproxy_event e;
	for (size_t i = from; i < n; i++)
		if (zkproxy_event_get(p, i, &e) == 0 && e.kind == kind) {
			*ev = e;
			found = 1;
		}
	return found;
}

/* A ZooKeeper error code for a WB one from zkc_wait_state. */
static int wait_zrc(int rc)
{
	return rc == 0 ? ZOK : rc == WB_ENOENT ? ZSESSIONEXPIRED : ZOPERATIONTIMEOUT;
}

/* The api's wait_connected.  After the fault it first runs x->on_fault
 * (in the story: the other session creates the GUID again, so a node
 * with A's GUID sorts after A's).  It waits for A's reconnection in the handle's event order;
 * in a situation it then has the proxy hold A's requests, so the check
 * sees which comes first. */
static int ex_wait_connected(const struct create_ctx *c, int timeout_ms)
{
	struct recover_ex *x = c->priv;
	struct zkproxy_event ev;
	pthread_mutex_lock(&x->mu);
	x->waits++;
	int first = !x->reconnected && (last_event(x->p, x->ev0, ZKPROXY_EV_DROPPED, &ev) ||
					last_event(x->p, x->ev0, ZKPROXY_EV_CUT, &ev));
	void (*on_fault)(struct recover_ex *) = first ? x->on_fault : NULL;
	x->on_fault = NULL;
	int story = x->story;
	pthread_mutex_unlock(&x->mu);
	if (on_fault)
		on_fault(x);
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
		if (!rc && !story)
			zkproxy_hold(x->p, ZKPROXY_C2S);
		return wait_zrc(rc);
	}
	if (zoo_state(c->zh) == ZOO_CONNECTED_STATE)
		return ZOK;
	return wait_zrc(zkc_wait_state(x->a, ZOO_CONNECTED_STATE, timeout_ms, NULL));
}

/* The api's sync_dir: zoo_async (the C client's only sync) and a wait for
 * its completion.  The waiter is on the heap: after a timeout the
 * completion, which the client always calls in the end, frees it. */
struct sync_wait {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done, rc, abandoned;
};

static void sync_done(int rc, const char *value, const void *data)
{
	(void)value;
	struct sync_wait *w = (struct sync_wait *)data;
	pthread_mutex_lock(&w->mu);
	w->rc = rc;
	w->done = 1;
	int gone = w->abandoned;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	if (gone)
		free(w);
}

static int ex_sync_dir(const struct create_ctx *c)
{
	struct recover_ex *x = c->priv;
	pthread_mutex_lock(&x->mu);
	x->syncs++;
	pthread_mutex_unlock(&x->mu);
	struct sync_wait *w = wb_xcalloc(1, sizeof *w);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	int rc = zoo_async(c->zh, c->dir, sync_done, w);
	if (rc != ZOK) {
		free(w);
		return rc;
	}
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += CALL_MS / 1000;
	pthread_mutex_lock(&w->mu);
	while (!w->done)
		if (pthread_cond_timedwait(&w->cv, &w->mu, &dl) == ETIMEDOUT)
			break;
	int done = w->done;
	rc = done ? w->rc : ZOPERATIONTIMEOUT;
	w->abandoned = !done;
	pthread_mutex_unlock(&w->mu);
	if (done)
		free(w);
	return rc;
}

static void learner_main(void *arg)
{
	struct recover_ex *x = arg;
	x->zrc = x->fn(&x->cx, x->path, (int)sizeof x->path);
	x->path[sizeof x->path - 1] = '\0';
}

/* --- the rules --------------------------------------------------------- */

/* One staged situation: its folder, its GUID and what one call did. */
struct sit {
	const char *name;
	char dir[256];
	char guid[ZKLOCK_GUID_LEN + 1];
	char *prefix;
	int done;	/* the call returned */
	int zrc;	/* what it returned */
	char path[512]; /* the path it returned */
	int faulted;	/* a drop or a cut happened */
	int64_t zxid;	/* the dropped reply's zxid (0 when none) */
	int first_op;	/* A's first request after reconnecting (0: none seen) */
	int cut_again;	/* M_CUTSYNC: that request was cut */
	int expires;	/* A's session is ended while A is cut off */
	int syncs;	/* sync_dir calls */
	int made[2];	/* nodes the check made in A's session, with the GUID */
	char mine[2][512];
};

/* A child of a folder as the server has it. */
struct kid {
	char path[512];
	int64_t owner, czxid;
	int guid; /* its name carries the situation's GUID */
};

/* The children of s->dir, read by N.  Count, or -1 when the listing
 * failed. */
static int list_kids(struct recover_ex *x, const struct sit *s, struct kid *k, int max)
{
	struct String_vector sv = {0};
	/* A folder without READ (errors-returned) is opened for the look. */
	zoo_set_acl(zkc_handle(x->other), s->dir, -1, &ZOO_OPEN_ACL_UNSAFE);
	if (zoo_get_children(zkc_handle(x->other), s->dir, 0, &sv) != ZOK)
		return -1;
	int n = 0;
	for (int i = 0; i < sv.count && n < max; i++) {
		struct Stat st;
		snprintf(k[n].path, sizeof k[n].path, "%s/%s", s->dir, sv.data[i]);
		if (zoo_exists(zkc_handle(x->other), k[n].path, 0, &st) != ZOK)
			continue;
		k[n].owner = st.ephemeralOwner;
		k[n].czxid = st.czxid;
		k[n].guid = strstr(sv.data[i], s->guid) != NULL;
		n++;
	}
	deallocate_String_vector(&sv);
	return n;
}

/* The nodes of A's session carrying the GUID. */
static int own_with_guid(const struct kid *k, int n, int64_t session)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		m += k[i].guid && k[i].owner == session;
	return m;
}

/* The kid at path, or NULL. */
static const struct kid *kid_at(const struct kid *k, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(k[i].path, path))
			return &k[i];
	return NULL;
}

static void guid_text(struct recover_ex *x, char out[ZKLOCK_GUID_LEN + 1])
{
	char hex[33];
	spec_hex_id(&x->sp, hex);
	snprintf(out, ZKLOCK_GUID_LEN + 1, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
		 hex + 16, hex + 20);
}

/* A folder of its own (acl: its ACL) and a GUID.  0 or a WB code after
 * report_cannot. */
static int sit_open(struct recover_ex *x, struct sit *s, const char *name, struct ACL_vector *acl)
{
	s->name = name;
	snprintf(s->dir, sizeof s->dir, "%s/s%d", x->z->base, x->nsit++);
	guid_text(x, s->guid);
	s->prefix = zklock_name_prefix(s->dir, s->guid);
	int zrc = zoo_create(zkc_handle(x->other), s->dir, NULL, -1, acl, 0, NULL, 0);
	if (zrc != ZOK) {
		report_cannot(x->r, "cannot create %s: %s", s->dir, zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	return 0;
}

/* A new GUID for the situation's next attempt. */
static void sit_next_attempt(struct recover_ex *x, struct sit *s)
{
	guid_text(x, s->guid);
	free(s->prefix);
	s->prefix = zklock_name_prefix(s->dir, s->guid);
}

/* A node with the situation's GUID in session c's name (into out when
 * non-NULL).  0 or a WB code after report_cannot. */
static int sit_node(struct recover_ex *x, struct sit *s, struct zkc *c, char *out, int len)
{
	char tmp[512];
	int zrc =
		zoo_create(zkc_handle(c), s->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			   ZOO_EPHEMERAL_SEQUENTIAL, out ? out : tmp, out ? len : (int)sizeof tmp);
	if (zrc != ZOK) {
		report_cannot(x->r, "cannot create a node under %s: %s", s->dir, zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	return 0;
}

/* Drains A's session events and the proxy's unread events: a wait in
 * this call sees only what happens from now on. */
static void drain(struct recover_ex *x)
{
	zkc_wait_state(x->a, -12345, 0, NULL);
	zkproxy_wait(x->p, ZKPROXY_EV_HELD, 0, NULL);
}

static int is_create(int32_t op)
{
	return op == ZKOP_CREATE || op == ZKOP_CREATE2 || op == ZKOP_CREATE_CONTAINER ||
	       op == ZKOP_CREATE_TTL;
}

/* Runs create_candidate once in s under mode, watching A's requests: the
 * first one after the reconnection is recorded and let go (in M_CUT the
 * create itself is held, its connection cut, and the hold ended before
 * A can reconnect: a handshake held in between is flushed with it).  0, or a WB code
 * after report_cannot; a call that never returns marks x->stuck. */
static int wait_back(struct recover_ex *x);

static int sit_call(struct recover_ex *x, struct sit *s, int mode)
{
	drain(x);
	pthread_mutex_lock(&x->mu);
	x->ev0 = zkproxy_event_count(x->p);
	x->reconnected = 0;
	x->syncs = 0;
	x->cur = s;
	pthread_mutex_unlock(&x->mu);
	s->done = 0;
	s->zrc = ZOK;
	s->path[0] = '\0';
	s->faulted = 0;
	s->zxid = 0;
	s->first_op = 0;
	x->path[0] = '\0';
	x->zrc = ZOK;
	x->cx = (struct create_ctx){.zh = zkc_handle(x->a),
				    .dir = s->dir,
				    .guid = s->guid,
				    .prefix = s->prefix,
				    .session = zkc_session_id(x->a),
				    .wait_connected = ex_wait_connected,
				    .sync_dir = ex_sync_dir,
				    .priv = x};
	if (mode == M_DROP || mode == M_CUTSYNC)
		zkproxy_arm_drop_create(x->p, s->prefix);
	if (mode == M_CUT || mode == M_EXPIRE)
		zkproxy_hold(x->p, ZKPROXY_C2S);
	s->expires = mode == M_EXPIRE;
	memset(&x->t, 0, sizeof x->t);
	if (exthread_start(&x->t, learner_main, x) != 0) {
		zkproxy_release(x->p);
		zkproxy_disarm(x->p);
		report_cannot(x->r, "cannot start a thread");
		return WB_EIO;
	}
	long long until = zkc_now_ms() + CALL_MS;
	int cut = 0;
	struct zkproxy_event ev;
	while (!s->first_op && !exthread_done(&x->t) && zkc_now_ms() < until) {
		/* short slices: a call that returned ends the wait soon */
		if (zkproxy_wait(x->p, ZKPROXY_EV_HELD, 5, &ev) != 0 || ev.dir != ZKPROXY_C2S ||
		    ev.xid <= 0)
			continue; /* pings and the client's own requests have xid <= 0 */
		if ((mode == M_CUT || mode == M_EXPIRE) && !cut && is_create(ev.op)) {
			zkproxy_cut(x->p); /* the create goes with the held bytes */
			if (mode == M_CUT) /* a new connection's handshake held meanwhile */
				zkproxy_release(x->p);
			cut = 1;
			continue; /* wait_connected holds again after the reconnection */
		}
		s->first_op = ev.op;
		if (mode == M_CUTSYNC && !is_create(ev.op)) {
			zkproxy_cut(x->p); /* the sync (or listing) goes */
			s->cut_again = 1;
		}
		zkproxy_release(x->p);
	}
	long long left = until - zkc_now_ms();
	exthread_wait(&x->t, left > 0 ? (int)left : 0);
	zkproxy_release(x->p);
	zkproxy_disarm(x->p);
	pthread_mutex_lock(&x->mu);
	x->on_fault = NULL; /* not run: no fault, or not waited for */
	pthread_mutex_unlock(&x->mu);
	s->done = exthread_wait(&x->t, 0) == 0;
	if (!s->done) {
		exthread_end(&x->t);
		x->stuck = 1;
		return 0;
	}
	exthread_end(&x->t);
	s->zrc = x->zrc;
	snprintf(s->path, sizeof s->path, "%s", x->path);
	if (last_event(x->p, x->ev0, ZKPROXY_EV_DROPPED, &ev)) {
		s->faulted = 1;
		s->zxid = ev.zxid;
	} else if (last_event(x->p, x->ev0, ZKPROXY_EV_CUT, &ev)) {
		s->faulted = 1;
	}
	pthread_mutex_lock(&x->mu);
	s->syncs = x->syncs;
	pthread_mutex_unlock(&x->mu);
	/* A is connected again before the next call, whatever the learner
	 * waited for (not when its session was ended on purpose). */
	if (s->faulted && !s->expires && wait_back(x) != 0) {
		report_cannot(x->r, "client A did not reconnect after the fault");
		return WB_EBUSY;
	}
	return 0;
}

/* Waits until A is connected on a connection the proxy accepted after
 * the call's last fault: its handshake answered with A's session (the
 * client reconnects only after it saw the loss, so then CONNECTED is the
 * new connection's).  0 or WB_EBUSY. */
static int wait_back(struct recover_ex *x)
{
	long long until = zkc_now_ms() + ZKLAB_WAIT_MS;
	int64_t session = zkc_session_id(x->a);
	for (;;) {
		size_t n = zkproxy_event_count(x->p);
		struct zkproxy_event e;
		int fault = 0, back = 0;
		for (size_t i = x->ev0; i < n; i++) {
			if (zkproxy_event_get(x->p, i, &e) != 0)
				continue;
			if (e.kind == ZKPROXY_EV_DROPPED || e.kind == ZKPROXY_EV_CUT) {
				fault = 1;
				back = 0;
			} else if (fault && e.kind == ZKPROXY_EV_SESSION && e.session == session) {
				back = 1;
			}
		}
		if (back && zoo_state(zkc_handle(x->a)) == ZOO_CONNECTED_STATE)
			return 0;
		if (zkc_now_ms() >= until)
			return WB_EBUSY;
		/* the next event, or the client's state change, soon */
		zkc_wait_state(x->a, ZOO_CONNECTED_STATE, 20, NULL);
	}
}

/* "ZOK /x/s3/_c_...-lock-0000000002" or the error's name. */
static const char *answer(const struct sit *s, char *buf, size_t len)
{
	if (!s->done)
		return "still running";
	if (s->zrc == ZOK)
		snprintf(buf, len, "ZOK %s", s->path[0] ? zklockrig_short(s->path) : "(no path)");
	else
		snprintf(buf, len, "%s", zkc_err_name(s->zrc));
	return buf;
}

/* What a returned path is: "A's node of this attempt", "N's node", ... */
static const char *whose(struct recover_ex *x, const struct kid *k)
{
	if (!k)
		return "no such node";
	if (k->owner == zkc_session_id(x->a))
		return k->guid ? "A's node with the GUID" : "A's node of another attempt";
	if (k->owner == zkc_session_id(x->older))
		return k->guid ? "O's node with the GUID" : "O's node";
	if (k->owner == zkc_session_id(x->other))
		return k->guid ? "N's node with the GUID" : "N's node";
	return "another session's node";
}

/* The syncs-before-listing judgement of a call that reconnected. */
static void judge_sync(struct recover_ex *x, const struct sit *s)
{
	int op = s->first_op;
	if (!s->faulted)
		return; /* no reconnection */
	if (!op || is_create(op)) {
		/* nothing after the reconnection (or not waited for), or a
		 * second create (no-second-create's): no listing to judge */
		spec_judge(&x->sp, rules[R_SYNC].id, s->name, 1, "%s", "");
		return;
	}
	spec_judge(&x->sp, rules[R_SYNC].id, s->name, op == ZKOP_SYNC,
		   "A's first request after reconnecting: %s (want sync, then the listing)",
		   zkframe_op_name(op));
}

/* A create as the first request after the reconnection is a second
 * create, judged by no-second-create in every situation; the rule the
 * situation is for (rule, or -1) judges what comes after a listing, and
 * that call never listed: it is not this rule's failure (counted as
 * held, so that the mistake fails one rule).  1 when it was. */
static int judged_second_create(struct recover_ex *x, const struct sit *s, int rule)
{
	if (!s->faulted || !is_create(s->first_op))
		return 0;
	char buf[600];
	spec_judge(&x->sp, rules[R_ONCE].id, s->name, 0,
		   "A's first request after reconnecting was a create; it returned %s",
		   answer(s, buf, sizeof buf));
	if (rule >= 0)
		spec_judge(&x->sp, rules[rule].id, s->name, 1, "%s", "");
	return 1;
}

/* The lost reply's recovery, judged: the node returned is the one the
 * lost create made (rule: the situation's; ambiguous: ZAPIERROR could be
 * either of two mistakes and judges nothing), one node of A's with the
 * GUID (no-second-create), the sync. */
static void judge_recovered(struct recover_ex *x, const struct sit *s, int rule, int ambiguous)
{
	struct kid k[MAX_KIDS];
	char buf[600];
	int n = list_kids(x, s, k, MAX_KIDS);
	int64_t session = zkc_session_id(x->a);
	judge_sync(x, s);
	if (judged_second_create(x, s, rule))
		return;
	if (!s->faulted) {
		spec_judge(&x->sp, rules[R_ONCE].id, s->name, 0,
			   "no create of this attempt's prefix reached the server; it returned %s",
			   answer(s, buf, sizeof buf));
		return;
	}
	int own = own_with_guid(k, n, session);
	const struct kid *got = s->done && s->zrc == ZOK ? kid_at(k, n, s->path) : NULL;
	spec_judge(&x->sp, rules[R_ONCE].id, s->name, own == 1,
		   "%d nodes of A's session carry the GUID after the call (want 1, czxid 0x%" PRIx64
		   "); it returned %s",
		   own, (uint64_t)s->zxid, answer(s, buf, sizeof buf));
	if (own != 1)
		return;
	int right = got && got->guid && got->owner == session && got->czxid == s->zxid;
	if (rule == R_EARLIER && got && !right && got->owner != session) {
		rule = R_GUID; /* it took another session's node: not this rule's mistake */
	} else if (ambiguous && s->done && s->zrc == ZAPIERROR) {
		return; /* counted the leftover or N's node: the other situations tell */
	}
	spec_judge(&x->sp, rules[rule].id, s->name, right,
		   "it returned %s%s%s (want ZOK and A's node with the GUID, czxid 0x%" PRIx64 ")",
		   answer(s, buf, sizeof buf), got ? ": " : "", got ? whose(x, got) : "",
		   (uint64_t)s->zxid);
}

/* Frees s, unless a call never returned: its thread may still read it. */
static void sit_close(struct recover_ex *x, struct sit *s)
{
	if (x->stuck)
		return;
	free(s->prefix);
	free(s);
}

/* answered-create-returned: the create is answered ZOK in a folder where
 * O and N have nodes with the GUID and an earlier try of this attempt
 * left one of A's. */
static int sit_answered_ok(struct recover_ex *x)
{
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s,
			  "the create is answered, among nodes with the GUID (O's, N's, "
			  "A's earlier try)",
			  &ZOO_OPEN_ACL_UNSAFE);
	if (!rc)
		rc = sit_node(x, s, x->older, NULL, 0);
	if (!rc)
		rc = sit_node(x, s, x->a, s->mine[0], sizeof s->mine[0]);
	if (!rc)
		rc = sit_node(x, s, x->other, NULL, 0);
	if (!rc)
		rc = sit_call(x, s, M_ANSWER);
	if (!rc && !x->stuck) {
		struct kid k[MAX_KIDS];
		char buf[600];
		int n = list_kids(x, s, k, MAX_KIDS);
		const struct kid *got = s->zrc == ZOK ? kid_at(k, n, s->path) : NULL;
		int own = own_with_guid(k, n, zkc_session_id(x->a));
		spec_judge(&x->sp, rules[R_ANSWERED].id, s->name,
			   got && got->owner == zkc_session_id(x->a) && got->guid &&
				   strcmp(s->path, s->mine[0]) && own == 2,
			   "it returned %s: %s; A's nodes with the GUID: %d (want ZOK, the node "
			   "the create made, 2 nodes)",
			   answer(s, buf, sizeof buf), whose(x, got), own);
	}
	sit_close(x, s);
	return rc;
}

/* answered-create-returned: the folder refuses the create (ZNOAUTH). */
static int sit_answered_error(struct recover_ex *x)
{
	struct ACL ro_acl[] = {{ZOO_PERM_READ | ZOO_PERM_ADMIN, {"world", "anyone"}}};
	struct ACL_vector ro = {1, ro_acl};
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s, "the create is refused: ZNOAUTH (the folder lacks CREATE)", &ro);
	if (!rc)
		rc = sit_call(x, s, M_ANSWER);
	if (!rc && !x->stuck) {
		struct kid k[MAX_KIDS];
		char buf[600];
		int n = list_kids(x, s, k, MAX_KIDS);
		spec_judge(&x->sp, rules[R_ANSWERED].id, s->name, s->zrc == ZNOAUTH && n == 0,
			   "it returned %s; %d nodes in the folder (want ZNOAUTH, none)",
			   answer(s, buf, sizeof buf), n);
	}
	sit_close(x, s);
	return rc;
}

/* on_fault: N and O create nodes with the GUID while A is cut off, so
 * they sort after A's. */
static void later_guid_nodes(struct recover_ex *x)
{
	char tmp[512];
	zoo_create(zkc_handle(x->other), x->cur->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
		   ZOO_EPHEMERAL_SEQUENTIAL, tmp, sizeof tmp);
	zoo_create(zkc_handle(x->older), x->cur->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
		   ZOO_EPHEMERAL_SEQUENTIAL, tmp, sizeof tmp);
}

/* A lost reply; others' nodes per with: 0 none, 1 O's and N's with the
 * GUID, before and after A's. */
static int sit_lost(struct recover_ex *x, int with)
{
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s,
			  with ? "the reply is lost; O's and N's nodes carry the GUID, before and "
				 "after A's"
			       : "the reply is lost, nobody else in the folder",
			  &ZOO_OPEN_ACL_UNSAFE);
	if (!rc && with)
		rc = sit_node(x, s, x->older, NULL, 0);
	if (!rc && with)
		rc = sit_node(x, s, x->other, NULL, 0);
	if (!rc && with) {
		pthread_mutex_lock(&x->mu);
		x->on_fault = later_guid_nodes;
		pthread_mutex_unlock(&x->mu);
	}
	if (!rc)
		rc = sit_call(x, s, M_DROP);
	if (!rc && !x->stuck)
		judge_recovered(x, s, R_GUID, 0);
	sit_close(x, s);
	return rc;
}

/* Two lost replies in a row in one folder: attempt 1 (another GUID), then
 * attempt 2; with_n: N's node with attempt 2's GUID sorts before A's. */
static int sit_earlier(struct recover_ex *x, int with_n)
{
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s,
			  with_n ? "two lost replies in a row: A's node of attempt 1 and N's node "
				   "with attempt 2's GUID sort first"
				 : "two lost replies in a row: A's node of attempt 1 sorts first",
			  &ZOO_OPEN_ACL_UNSAFE);
	if (!rc)
		rc = sit_call(x, s, M_DROP);
	if (rc || x->stuck) {
		sit_close(x, s);
		return rc;
	}
	if (!with_n) /* attempt 1 alone is the plainest recovery */
		judge_recovered(x, s, R_GUID, 0);
	sit_next_attempt(x, s);
	if (with_n)
		rc = sit_node(x, s, x->other, NULL, 0);
	if (!rc)
		rc = sit_call(x, s, M_DROP);
	if (!rc && !x->stuck)
		judge_recovered(x, s, R_EARLIER, with_n);
	sit_close(x, s);
	return rc;
}

/* several-refused: an earlier try of this attempt left A's node with the
 * GUID; the lost create makes a second. */
static int sit_several(struct recover_ex *x)
{
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s, "the reply is lost and an earlier try left A's node with the GUID",
			  &ZOO_OPEN_ACL_UNSAFE);
	if (!rc)
		rc = sit_node(x, s, x->a, s->mine[0], sizeof s->mine[0]);
	if (!rc)
		rc = sit_call(x, s, M_DROP);
	if (!rc && !x->stuck) {
		struct kid k[MAX_KIDS];
		char buf[600];
		int n = list_kids(x, s, k, MAX_KIDS);
		int own = own_with_guid(k, n, zkc_session_id(x->a));
		judge_sync(x, s);
		if (!judged_second_create(x, s, R_SEVERAL)) {
			spec_judge(&x->sp, rules[R_ONCE].id, s->name, own == 2,
				   "%d nodes of A's session carry the GUID (want 2: the earlier "
				   "try's and the lost create's)",
				   own);
			if (own == 2)
				spec_judge(&x->sp, rules[R_SEVERAL].id, s->name,
					   s->zrc == ZAPIERROR,
					   "it returned %s (want ZAPIERROR, both nodes kept)",
					   answer(s, buf, sizeof buf));
			else if (own < 2)
				spec_judge(
					&x->sp, rules[R_SEVERAL].id, s->name, 0,
					"it returned %s; %d of A's 2 nodes with the GUID are left "
					"(want ZAPIERROR, both kept)",
					answer(s, buf, sizeof buf), own);
		}
	}
	sit_close(x, s);
	return rc;
}

/* none-is-unknown: the proxy holds A's create and cuts the connection:
 * the create never reached the server. */
static int sit_none(struct recover_ex *x)
{
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s, "the create never reached the server (held, connection cut)",
			  &ZOO_OPEN_ACL_UNSAFE);
	if (!rc)
		rc = sit_call(x, s, M_CUT);
	if (!rc && !x->stuck) {
		struct kid k[MAX_KIDS];
		char buf[600];
		int n = list_kids(x, s, k, MAX_KIDS);
		int own = own_with_guid(k, n, zkc_session_id(x->a));
		judge_sync(x, s);
		if (!judged_second_create(x, s, R_NONE))
			spec_judge(&x->sp, rules[R_NONE].id, s->name,
				   s->faulted && s->zrc == ZNONODE && own == 0,
				   "it returned %s; A's nodes with the GUID: %d (want ZNONODE, "
				   "none)%s",
				   answer(s, buf, sizeof buf), own,
				   s->faulted ? "" : "; no create reached the proxy");
	}
	sit_close(x, s);
	return rc;
}

/* errors-returned: the folder lets A create but not list (no READ). */
static int sit_unlistable(struct recover_ex *x)
{
	struct ACL wo_acl[] = {
		{ZOO_PERM_CREATE | ZOO_PERM_DELETE | ZOO_PERM_ADMIN, {"world", "anyone"}}};
	struct ACL_vector wo = {1, wo_acl};
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s, "the reply is lost and the folder cannot be listed (no READ)", &wo);
	if (!rc)
		rc = sit_call(x, s, M_DROP);
	if (!rc && !x->stuck) {
		struct kid k[MAX_KIDS];
		char buf[600];
		int n = list_kids(x, s, k, MAX_KIDS);
		int own = own_with_guid(k, n, zkc_session_id(x->a));
		judge_sync(x, s);
		if (!judged_second_create(x, s, R_ERRORS))
			spec_judge(
				&x->sp, rules[R_ERRORS].id, s->name,
				s->faulted && s->zrc == ZNOAUTH && own == 1,
				"it returned %s; A's nodes with the GUID: %d (want the listing's "
				"ZNOAUTH, 1 node)",
				answer(s, buf, sizeof buf), own);
	}
	sit_close(x, s);
	return rc;
}

/* errors-returned: the reply is lost and the connection is cut again at
 * A's first request after reconnecting (the sync).  Its error comes
 * back; a learner that synced again (sync_dir) may go on and find its
 * node. */
static int sit_sync_cut(struct recover_ex *x)
{
	struct sit *s = wb_xcalloc(1, sizeof *s);
	int rc = sit_open(x, s,
			  "the reply is lost, and the sync after the reconnection too "
			  "(connection cut)",
			  &ZOO_OPEN_ACL_UNSAFE);
	if (!rc)
		rc = sit_call(x, s, M_CUTSYNC);
	if (!rc && !x->stuck) {
		struct kid k[MAX_KIDS];
		char buf[600];
		int n = list_kids(x, s, k, MAX_KIDS);
		int own = own_with_guid(k, n, zkc_session_id(x->a));
		const struct kid *got = s->zrc == ZOK ? kid_at(k, n, s->path) : NULL;
		int found = got && got->guid && got->owner == zkc_session_id(x->a) &&
			    got->czxid == s->zxid;
		judge_sync(x, s);
		if (!judged_second_create(x, s, R_ERRORS))
			spec_judge(
				&x->sp, rules[R_ERRORS].id, s->name,
				s->cut_again && own == 1 &&
					(s->zrc == ZCONNECTIONLOSS || (found && s->syncs >= 2)),
				"it returned %s after %d sync_dir calls; A's nodes with the GUID: "
				"%d (want the cut request's ZCONNECTIONLOSS, or a sync again and "
				"the node; 1 node)",
				answer(s, buf, sizeof buf), s->syncs, own);
	}
	sit_close(x, s);
	return rc;
}

/* A's session, ended from outside: a handle of its own connects to the
 * server with A's session id and password and closes, so the server ends
 * the session (its ephemeral nodes go).  Runs in wait_connected, while
 * A's new handshake waits in the proxy; then lets it go: the server
 * answers that the session expired. */
struct conn_wait {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int state;
};

static void conn_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	(void)path;
	struct conn_wait *w = ctx;
	if (type != ZOO_SESSION_EVENT)
		return;
	pthread_mutex_lock(&w->mu);
	w->state = state;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

static void end_session(struct recover_ex *x)
{
	struct conn_wait w = {.state = 0};
	pthread_mutex_init(&w.mu, NULL);
	pthread_cond_init(&w.cv, NULL);
	clientid_t id = *zoo_client_id(zkc_handle(x->a));
	zhandle_t *zh = zookeeper_init(zkserver_connect(x->z->server), conn_watcher, SESSION_MS,
				       &id, &w, 0);
	if (zh) {
		struct timespec dl;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += ZKLAB_WAIT_MS / 1000;
		pthread_mutex_lock(&w.mu);
		while (w.state != ZOO_CONNECTED_STATE && w.state != ZOO_EXPIRED_SESSION_STATE)
			if (pthread_cond_timedwait(&w.cv, &w.mu, &dl) == ETIMEDOUT)
				break;
		pthread_mutex_unlock(&w.mu);
		zookeeper_close(zh); /* ends the session on the server */
	}
	zkproxy_release(x->p);
}

/* errors-returned: A's session ends while A is cut off: wait_connected
 * answers ZSESSIONEXPIRED, which is returned.  A session of its own (A2),
 * since this one ends. */
static int sit_expired(struct recover_ex *x)
{
	struct sit *s = wb_xcalloc(1, sizeof *s);
	struct zkc *a = x->a;
	x->a = x->a2;
	int rc = sit_open(x, s, "the session ends while A is cut off", &ZOO_OPEN_ACL_UNSAFE);
	if (!rc) {
		pthread_mutex_lock(&x->mu);
		x->on_fault = end_session;
		pthread_mutex_unlock(&x->mu);
		rc = sit_call(x, s, M_EXPIRE);
	}
	if (!rc && !x->stuck) {
		char buf[600];
		spec_judge(&x->sp, rules[R_ERRORS].id, s->name, s->zrc == ZSESSIONEXPIRED,
			   "it returned %s (want wait_connected's ZSESSIONEXPIRED)",
			   answer(s, buf, sizeof buf));
	}
	if (!x->stuck)
		x->a = a;
	sit_close(x, s);
	return rc;
}

static int judge_rules(struct recover_ex *x, struct lab_ctx *ctx, const struct ex_code *code)
{
	spec_init(&x->sp, ctx, code, rules, R_COUNT);
	report_step(x->r, "The rules: create_candidate in 11 situations, each in a lock folder and "
			  "with a GUID of its own");
	int (*sits[])(struct recover_ex *) = {sit_answered_ok, sit_answered_error, sit_several,
					      sit_none,	       sit_unlistable,	   sit_sync_cut,
					      sit_expired};
	int rc = sit_lost(x, 0);
	if (!rc && !x->stuck)
		rc = sit_lost(x, 1);
	if (!rc && !x->stuck)
		rc = sit_earlier(x, 0);
	if (!rc && !x->stuck)
		rc = sit_earlier(x, 1);
	for (size_t i = 0; i < sizeof sits / sizeof sits[0] && !rc && !x->stuck; i++)
		rc = sits[i](x);
	if (!rc)
		spec_finish(&x->sp);
	return rc;
}

/* --- the story --------------------------------------------------------- */

/* O, the proxy, A through it, N; the base path.  0 or a WB code after
 * report_cannot; what was opened stays in x for recover_main to close. */
static int recover_open(struct recover_ex *x, struct lab_ctx *ctx)
{
	struct report *r = x->r;
	int rc = zklab_open(ctx, &x->z);
	if (rc)
		return rc;
	if (!x->z->server) {
		report_cannot(r,
			      "this exercise proxies its own server; it cannot run against --zk");
		return WB_EINVAL;
	}
	if ((rc = zklab_client(x->z, &x->older)) != 0)
		return rc;
	if ((rc = zkproxy_new(zkserver_connect(x->z->server), &x->p)) != 0) {
		report_cannot(r, "cannot start the fault proxy: %s", wb_strerror(rc));
		return rc;
	}
	if ((rc = zkc_connect(zkproxy_connect(x->p), SESSION_MS, ZKLAB_WAIT_MS, ctx->run_dir,
			      &x->a)) != 0) {
		report_cannot(r, "client A cannot connect through the proxy");
		return rc;
	}
	zklab_watch(x->z, x->a);
	if ((rc = zklab_client(x->z, &x->other)) != 0)
		return rc;
	if ((rc = zkc_connect(zkproxy_connect(x->p), SESSION_MS, ZKLAB_WAIT_MS, ctx->run_dir,
			      &x->a2)) != 0) {
		report_cannot(r, "a second session cannot connect through the proxy");
		return rc;
	}
	report_step(r, "sessions O (direct), A (through the fault proxy) and N (direct), in "
		       "this order");
	return 0;
}

/* The story's lock path, the holder and the first node with A's GUID. */
static int story_open(struct recover_ex *x)
{
	struct report *r = x->r;
	char hex[ZKC_HEX_LEN];
	x->lock = wb_xasprintf("%s/lock", x->z->base);
	zoo_create(zkc_handle(x->other), x->lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	char other_guid[ZKLOCK_GUID_LEN + 1];
	guid_text(x, x->guid);
	guid_text(x, other_guid);
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
	int have_drop = last_event(x->p, x->ev0, ZKPROXY_EV_DROPPED, &dropped);
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

/* on_fault of the story: the other session creates A's GUID again. */
static void story_decoy(struct recover_ex *x)
{
	pthread_mutex_lock(&x->mu);
	if (x->decoy2_rc == -1)
		x->decoy2_rc =
			zoo_create(zkc_handle(x->other), x->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
				   ZOO_EPHEMERAL_SEQUENTIAL, x->decoy[1], sizeof x->decoy[1]);
	pthread_mutex_unlock(&x->mu);
}

static int story_run(struct recover_ex *x)
{
	struct report *r = x->r;
	int rc = story_open(x);
	if (rc)
		return rc;
	drain(x);
	pthread_mutex_lock(&x->mu);
	x->story = 1;
	x->cur = NULL;
	x->on_fault = story_decoy;
	x->reconnected = 0;
	x->ev0 = zkproxy_event_count(x->p);
	pthread_mutex_unlock(&x->mu);
	zkproxy_arm_drop_create(x->p, x->prefix);
	report_step(r, "the proxy will drop the reply to A's create; A calls create_candidate");
	x->path[0] = '\0';
	x->cx = (struct create_ctx){.zh = zkc_handle(x->a),
				    .dir = x->lock,
				    .guid = x->guid,
				    .prefix = x->prefix,
				    .session = zkc_session_id(x->a),
				    .wait_connected = ex_wait_connected,
				    .sync_dir = ex_sync_dir,
				    .priv = x};
	memset(&x->t, 0, sizeof x->t);
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
	int rc = recover_open(x, ctx);
	if (!rc)
		rc = judge_rules(x, ctx, code);
	if (!rc && !x->stuck) {
		report_step(x->r, "The story: the zk-create-lost lab's fault with your "
				  "create_candidate");
		rc = story_run(x);
	}
	if (x->p)
		zkproxy_report(x->p, x->r, 0);
	if (x->stuck || exthread_end(&x->t))
		return rc; /* the learner's thread may still use all of it */
	zkc_close(x->a);
	zkc_close(x->older);
	zkc_close(x->other);
	zkc_close(x->a2);
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
