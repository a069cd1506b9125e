/*
 * zk-lock-loop.c - the check of the exercise zk-lock-loop: the learner's
 * whole acquire loop, lock_acquire (exercises/zk-lock-loop/api.h), in the
 * scenarios of the labs zk-lock-chain and zk-lock-race.
 *
 *   Another session has four candidates: A (the holder), B, C and D; the
 *   learner's L queues behind D.
 *   A releases: L must hear nothing - its predecessor D is still there
 *   (no-herd; a waiter watching the lowest node is woken).
 *   D gives up while B holds: L is notified, must list again, find C in
 *   front and keep waiting (mutual-exclusion; a waiter that takes the
 *   notification for the lock holds beside B).
 *   C gives up, and the race hook of zk-lock-race runs inside L's next
 *   list: right after the getChildren answered, B releases.  L's listing
 *   still shows B; its watch call finds B gone and no notification will
 *   ever come, so L must list again at once and hold.
 *
 * Before the story, the rules (spec.h), each on a lock path of its own:
 * the four above staged one at a time, and own-node-gone (L's node
 * deleted while it waits, then the holder releases: ZNONODE) and
 * errors-returned (a lock path refusing the create, one refusing the
 * listing, a holder whose node L may not read: ZNOAUTH at once, or with
 * zoo_wexists a watch that wakes L).  A wait with timeout 0 (a busy loop)
 * fails watches-predecessor.
 *
 * The check waits for exact points (L inside lk->wait, a session barrier
 * on L's session for "no notification came"), never by sleeping.  It does
 * not measure wake-ups at scale (zk-herd does).
 */
#include "base/mono.h"
#include "base/wb.h"
#include "exercise.h"
#include "exzk.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "lab.h"
#include "recipes/zklock.h"
#include "rigs/exthread.h"
#include "rigs/zklockrig.h"
#include "spec.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lock_ctx {
	zhandle_t *zh;
	const char *dir;
	int (*list)(const struct lock_ctx *lk, struct String_vector *out);
	watcher_fn watcher;
	void *watch_ctx;
	int (*wait)(const struct lock_ctx *lk, int timeout_ms);
	long (*seq)(const char *name);
	void *priv;
}; /* exercises/zk-lock-loop/api.h, field for field */
typedef int (*lock_acquire_fn)(const struct lock_ctx *lk, char *own, int own_len);

enum { N_OTHERS = 4 }; /* A, B, C, D */

/* Everything of one run.  Heap allocated: a learner's call that never
 * returns keeps it (exthread.h). */
struct loop_ex {
	struct report *r;
	struct zklab *z;
	struct zkc *l, *other; /* the learner's session; the other candidates' */
	char *lock;
	char node[N_OTHERS][512];
	pthread_mutex_t mu; /* guards the counters below */
	pthread_cond_t cv;  /* CLOCK_MONOTONIC; broadcast on every change */
	unsigned events;    /* node events lk->watcher received */
	unsigned consumed;  /* ... returned by lk->wait */
	int last_type;
	unsigned lists, waits;
	int waiting;	/* inside lk->wait */
	int zero_waits; /* lk->wait calls with timeout_ms 0: a busy loop */
	int stop;	/* lk->wait returns -1 from now on */
	int hook_armed, hook_fired, hook_rc;
	const char *hook_path; /* what the hook deletes */
	lock_acquire_fn fn;
	struct lock_ctx lk;
	char own[512];
	int zrc;
	int returned; /* lock_acquire returned (under mu) */
	struct exthread t;
	int stopped; /* a check failed that leaves nothing more to show */
};

static int ex_list(const struct lock_ctx *lk, struct String_vector *out)
{
	struct loop_ex *x = lk->priv;
	int zrc = zoo_get_children(lk->zh, lk->dir, 0, out);
	pthread_mutex_lock(&x->mu);
	x->lists++;
	int fire = zrc == ZOK && x->hook_armed && !x->hook_fired;
	if (fire) {
		/* zk-lock-race's hook: the holder releases between this
		 * getChildren and the learner's watch call. */
		x->hook_fired = 1;
		x->hook_rc = zoo_delete(zkc_handle(x->other), x->hook_path, -1);
	}
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	return zrc;
}

static void ex_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	(void)state;
	(void)path;
	struct loop_ex *x = ctx;
	if (type == ZOO_SESSION_EVENT)
		return;
	pthread_mutex_lock(&x->mu);
	x->events++;
	x->last_type = type;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
}

static int ex_wait(const struct lock_ctx *lk, int timeout_ms)
{
	struct loop_ex *x = lk->priv;
	struct timespec ts;
	mono_deadline(&ts, timeout_ms < 0 ? 60000 : timeout_ms);
	pthread_mutex_lock(&x->mu);
	x->waits++;
	x->zero_waits += timeout_ms == 0;
	x->waiting = 1;
	pthread_cond_broadcast(&x->cv);
	while (x->events == x->consumed && !x->stop)
		if (pthread_cond_timedwait(&x->cv, &x->mu, &ts) == ETIMEDOUT)
			break;
	int r = 0;
	if (x->stop)
		r = -1;
	else if (x->events != x->consumed) {
		x->consumed++;
		r = x->last_type;
	}
	x->waiting = 0;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	return r;
}

static long ex_seq(const char *name)
{
	struct zklock_name n;
	return name && zklock_name_parse(name, &n) == 0 ? (long)n.seq : -1;
}

static void learner_main(void *arg)
{
	struct loop_ex *x = arg;
	x->zrc = x->fn(&x->lk, x->own, (int)sizeof x->own);
	x->own[sizeof x->own - 1] = '\0';
	pthread_mutex_lock(&x->mu);
	x->returned = 1;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
}

/* Waits until L is inside lk->wait for the n-th time or lock_acquire
 * returned.  1 when waiting. */
static int wait_waiting(struct loop_ex *x, unsigned n)
{
	struct timespec ts;
	mono_deadline(&ts, ZKLAB_WAIT_MS);
	pthread_mutex_lock(&x->mu);
	while (!(x->waiting && x->waits >= n) && !x->returned)
		if (pthread_cond_timedwait(&x->cv, &x->mu, &ts) == ETIMEDOUT)
			break;
	int w = x->waiting && x->waits >= n;
	pthread_mutex_unlock(&x->mu);
	return w;
}

/* What L is doing, for an observed value. */
static const char *l_state(struct loop_ex *x)
{
	pthread_mutex_lock(&x->mu);
	const char *s = !x->returned	? (x->waiting ? "waiting" : "running, not waiting")
			: x->zrc == ZOK ? "returned ZOK: holds"
					: zkc_err_name(x->zrc);
	pthread_mutex_unlock(&x->mu);
	return s;
}

/* Whether lock_acquire returned ZOK. */
static int l_holds(struct loop_ex *x)
{
	pthread_mutex_lock(&x->mu);
	int h = x->returned && x->zrc == ZOK;
	pthread_mutex_unlock(&x->mu);
	return h;
}

/* The count of node events so far. */
static unsigned events_now(struct loop_ex *x)
{
	pthread_mutex_lock(&x->mu);
	unsigned n = x->events;
	pthread_mutex_unlock(&x->mu);
	return n;
}

/* The children of the lock path owned by the learner's session: their
 * count, and the lowest-numbered one's full path in *own.  -1 when the
 * listing failed. */
static int l_nodes(struct loop_ex *x, char *own, size_t len)
{
	struct String_vector sv = {0};
	own[0] = '\0';
	if (zoo_get_children(zkc_handle(x->other), x->lock, 0, &sv) != ZOK)
		return -1;
	int n = 0;
	for (int i = 0; i < sv.count; i++) {
		char *p = wb_xasprintf("%s/%s", x->lock, sv.data[i]);
		struct Stat st;
		if (zoo_exists(zkc_handle(x->other), p, 0, &st) == ZOK &&
		    st.ephemeralOwner == zkc_session_id(x->l) && n++ == 0)
			snprintf(own, len, "%s", p);
		free(p);
	}
	deallocate_String_vector(&sv);
	return n;
}

/* Whether path has the lowest suffix among the lock path's children. */
static int is_lowest(struct loop_ex *x, const char *path)
{
	struct String_vector sv = {0};
	if (zoo_get_children(zkc_handle(x->other), x->lock, 0, &sv) != ZOK)
		return 0;
	long mine = ex_seq(zklockrig_name(path)), low = -1;
	for (int i = 0; i < sv.count; i++) {
		long s = ex_seq(sv.data[i]);
		if (s >= 0 && (low < 0 || s < low))
			low = s;
	}
	deallocate_String_vector(&sv);
	return mine >= 0 && mine == low;
}

/* The clients, the lock path and the other session's four candidates. */
static int loop_open(struct loop_ex *x, struct lab_ctx *ctx)
{
	int rc = zklab_open(ctx, &x->z);
	if (rc)
		return rc;
	if ((rc = zklab_client(x->z, &x->l)) != 0 || (rc = zklab_client(x->z, &x->other)) != 0)
		return rc;
	x->lock = wb_xasprintf("%s/lock", x->z->base);
	zoo_create(zkc_handle(x->other), x->lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	for (int i = 0; i < N_OTHERS; i++) {
		char guid[ZKLOCK_GUID_LEN + 1];
		if (zklock_guid_new(guid) != 0) {
			report_cannot(x->r, "no randomness for a GUID");
			return WB_EIO;
		}
		char *prefix = zklock_name_prefix(x->lock, guid);
		int zrc = zoo_create(zkc_handle(x->other), prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
				     ZOO_EPHEMERAL_SEQUENTIAL, x->node[i], sizeof x->node[i]);
		free(prefix);
		if (zrc != ZOK) {
			report_cannot(x->r, "cannot create the other candidates: %s",
				      zkc_err_name(zrc));
			return zkc_to_wb(zrc);
		}
	}
	report_evidence(x->r, "lock_path", "%s", x->lock);
	report_evidence(x->r, "others", "A %s, B %s, C %s, D %s", zklockrig_short(x->node[0]),
			zklockrig_short(x->node[1]), zklockrig_short(x->node[2]),
			zklockrig_short(x->node[3]));
	x->lk = (struct lock_ctx){.zh = zkc_handle(x->l),
				  .dir = x->lock,
				  .list = ex_list,
				  .watcher = ex_watcher,
				  .watch_ctx = x,
				  .wait = ex_wait,
				  .seq = ex_seq,
				  .priv = x};
	return 0;
}

/* --- the rules --------------------------------------------------------- */

enum { R_FIRST, R_VANISHED, R_PRED, R_NOTIFIED, R_GONE, R_ERRORS, R_COUNT };

static const struct spec_rule rules[] = {
	{"holds-when-first",
	 N_("with no other candidate, lock_acquire returns ZOK and the full path of its one "
	    "ephemeral node")},
	{"vanished-predecessor-relists",
	 N_("a predecessor gone at the watch call means \"list again\": with the holder still "
	    "in front, keep waiting, and hold only after it releases")},
	{"watches-predecessor",
	 N_("the holder's release wakes only the waiter right behind it: a waiter further back "
	    "hears nothing")},
	{"keeps-waiting-after-notification",
	 N_("a notification means \"look again\": the waiter in front gave up while the holder "
	    "holds, so keep waiting")},
	{"own-node-gone",
	 N_("when a listing no longer shows the own node (deleted, or its session ended), "
	    "lock_acquire returns ZNONODE: never holds without it")},
	{"errors-returned",
	 N_("a create, listing or watch the server refuses (ZNOAUTH) returns its error at once "
	    "(or, with zoo_wexists, the watch is set and the waiter holds after the release)")},
};

/* One situation: lock path <base>/s<k> with n candidates of the other
 * session in front of L (node[0] the holder).  A loop_ex of its own that
 * borrows the lab, both clients and the learner's function from x. */
static struct loop_ex *sit_open_acl(struct loop_ex *x, int k, int n, struct ACL_vector *dir_acl,
				    struct ACL_vector *node_acl);

static struct loop_ex *sit_open(struct loop_ex *x, int k, int n)
{
	return sit_open_acl(x, k, n, &ZOO_OPEN_ACL_UNSAFE, &ZOO_OPEN_ACL_UNSAFE);
}

/* sit_open with the lock path's ACL and the other candidates' ACL. */
static struct loop_ex *sit_open_acl(struct loop_ex *x, int k, int n, struct ACL_vector *dir_acl,
				    struct ACL_vector *node_acl)
{
	struct loop_ex *y = wb_xcalloc(1, sizeof *y);
	y->r = x->r;
	y->z = x->z;
	y->l = x->l;
	y->other = x->other;
	y->fn = x->fn;
	pthread_mutex_init(&y->mu, NULL);
	mono_cond_init(&y->cv);
	y->lock = wb_xasprintf("%s/s%d", x->z->base, k);
	int zrc = zoo_create(zkc_handle(y->other), y->lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL,
			     0);
	for (int i = 0; zrc == ZOK && i < n; i++) {
		char *prefix = wb_xasprintf("%s/lock-", y->lock);
		zrc = zoo_create(zkc_handle(y->other), prefix, NULL, -1, node_acl,
				 ZOO_EPHEMERAL_SEQUENTIAL, y->node[i], sizeof y->node[i]);
		free(prefix);
	}
	if (zrc == ZOK && dir_acl != &ZOO_OPEN_ACL_UNSAFE)
		zrc = zoo_set_acl(zkc_handle(y->other), y->lock, -1, dir_acl);
	/* a placeholder: code that reads own before a create wrote it sees an
	 * empty name, not garbage */
	snprintf(y->own, sizeof y->own, "%s/", y->lock);
	if (zrc != ZOK) {
		report_cannot(x->r, "cannot stage %s: %s", y->lock, zkc_err_name(zrc));
		y->stopped = 1;
	}
	y->lk = (struct lock_ctx){.zh = zkc_handle(y->l),
				  .dir = y->lock,
				  .list = ex_list,
				  .watcher = ex_watcher,
				  .watch_ctx = y,
				  .wait = ex_wait,
				  .seq = ex_seq,
				  .priv = y};
	return y;
}

/* Ends a situation: a learner still waiting is told to stop, the lock
 * path removed.  Returns 1 when the learner's call never returned (y is
 * kept: the thread may still use it, and L's handle). */
static int sit_close(struct loop_ex *y)
{
	pthread_mutex_lock(&y->mu);
	y->stop = 1;
	pthread_cond_broadcast(&y->cv);
	pthread_mutex_unlock(&y->mu);
	exthread_wait(&y->t, ZKLAB_WAIT_MS);
	if (exthread_end(&y->t))
		return 1;
	zoo_set_acl(zkc_handle(y->other), y->lock, -1, &ZOO_OPEN_ACL_UNSAFE);
	zklab_delete_tree(y->other, y->lock);
	free(y->lock);
	free(y);
	return 0;
}

/* Starts L's lock_acquire; 0 or WB_EIO after report_cannot. */
static int sit_start(struct loop_ex *y)
{
	if (exthread_start(&y->t, learner_main, y) != 0) {
		report_cannot(y->r, "cannot start a thread");
		return WB_EIO;
	}
	return 0;
}

/* Deletes node i of the other session and waits until L returned (1) or
 * waits again after its (waits)th wait (0). */
static int release_and_see(struct loop_ex *y, int i)
{
	pthread_mutex_lock(&y->mu);
	unsigned waits = y->waits;
	pthread_mutex_unlock(&y->mu);
	zoo_delete(zkc_handle(y->other), y->node[i], -1);
	wait_waiting(y, waits + 1);
	return l_holds(y);
}

static int sit_first(struct loop_ex *x, struct spec *sp)
{
	struct loop_ex *y = sit_open(x, 0, 0);
	int rc = y->stopped ? WB_EIO : sit_start(y);
	if (!rc) {
		int done = exthread_wait(&y->t, ZKLAB_WAIT_MS) == 0;
		char own[512];
		int n = l_nodes(y, own, sizeof own);
		struct Stat st;
		int eph = n == 1 && zoo_exists(zkc_handle(y->other), own, 0, &st) == ZOK &&
			  st.ephemeralOwner == zkc_session_id(y->l);
		spec_judge(sp, rules[R_FIRST].id, "no other candidate",
			   done && y->zrc == ZOK && n == 1 && eph && !strcmp(own, y->own),
			   "%s, path \"%s\", %d node%s of L's session%s (want ZOK and the path of "
			   "its one ephemeral node)",
			   l_state(y), y->own, n, n == 1 ? "" : "s",
			   n == 1 && !eph ? ", not ephemeral" : "");
	}
	return sit_close(y) ? WB_EBUSY : rc;
}

/* H, P, L: P vanishes between L's list and its watch call while H holds. */
static int sit_vanished(struct loop_ex *x, struct spec *sp)
{
	struct loop_ex *y = sit_open(x, 1, 2);
	y->hook_armed = 1;
	y->hook_path = y->node[1];
	int rc = y->stopped ? WB_EIO : sit_start(y);
	if (!rc) {
		int w = wait_waiting(y, 1);
		const char *sit =
			"the waiter in front vanishes between L's list and its watch call";
		if (!w || !y->hook_fired) {
			spec_judge(sp, rules[R_VANISHED].id, sit, 0,
				   "%s after P vanished, while H holds (want waiting on H)",
				   l_state(y));
		} else {
			int held = release_and_see(y, 0);
			spec_judge(sp, rules[R_VANISHED].id, sit, held,
				   "waited while H held; after H's release: %s (want ZOK)",
				   l_state(y));
		}
	}
	return sit_close(y) ? WB_EBUSY : rc;
}

/* H, W, L: H releases (L hears nothing), then W gives up (L holds). */
static int sit_herd(struct loop_ex *x, struct spec *sp)
{
	struct loop_ex *y = sit_open(x, 2, 2);
	int rc = y->stopped ? WB_EIO : sit_start(y);
	if (!rc) {
		const char *sit = "the holder releases, one waiter between it and L";
		if (!wait_waiting(y, 1)) {
			spec_judge(sp, rules[R_PRED].id, sit, 0, "%s (want waiting behind W)",
				   l_state(y));
		} else {
			zoo_delete(zkc_handle(y->other), y->node[0], -1);
			if (zklockrig_flush(y->l, ZKLAB_WAIT_MS) != 0) {
				report_cannot(y->r, "the session barrier on L's client did not "
						    "complete");
				rc = WB_EBUSY;
			} else {
				unsigned ev = events_now(y);
				spec_judge(sp, rules[R_PRED].id, sit, ev == 0,
					   "%u notification%s to L (want 0: L watches W, not the "
					   "holder)",
					   ev, ev == 1 ? "" : "s");
				pthread_mutex_lock(&y->mu);
				int zero = y->zero_waits;
				pthread_mutex_unlock(&y->mu);
				spec_judge(sp, rules[R_PRED].id, "L waits behind W", zero == 0,
					   "%d calls of lk->wait with timeout 0 ms (want 0: a busy "
					   "loop lists again and again instead of waiting for the "
					   "watch)",
					   zero);
			}
		}
	}
	return sit_close(y) ? WB_EBUSY : rc;
}

/* H, W, L: W gives up while H holds (L keeps waiting), then H releases. */
static int sit_notified(struct loop_ex *x, struct spec *sp)
{
	struct loop_ex *y = sit_open(x, 3, 2);
	int rc = y->stopped ? WB_EIO : sit_start(y);
	if (!rc) {
		const char *sit = "the waiter in front gives up while the holder holds";
		if (!wait_waiting(y, 1)) {
			spec_judge(sp, rules[R_NOTIFIED].id, sit, 0, "%s (want waiting behind W)",
				   l_state(y));
		} else if (release_and_see(y, 1)) {
			spec_judge(sp, rules[R_NOTIFIED].id, sit, 0,
				   "%s while H still holds (want waiting on H)", l_state(y));
		} else {
			int held = release_and_see(y, 0);
			spec_judge(sp, rules[R_NOTIFIED].id, sit, held,
				   "kept waiting; after H's release: %s (want ZOK)", l_state(y));
		}
	}
	return sit_close(y) ? WB_EBUSY : rc;
}

/* H, L: L waits behind H; L's own node is deleted (as when its session
 * ends), then H releases: L's next listing does not show its node. */
static int sit_own_gone(struct loop_ex *x, struct spec *sp)
{
	struct loop_ex *y = sit_open(x, 4, 1);
	int rc = y->stopped ? WB_EIO : sit_start(y);
	if (!rc) {
		const char *sit =
			"L's own node is deleted while it waits, then the holder releases";
		if (!wait_waiting(y, 1)) {
			spec_judge(sp, rules[R_GONE].id, sit, 0, "%s (want waiting behind H)",
				   l_state(y));
		} else {
			/* L's node: every child but H's (ephemeral or not) */
			struct String_vector sv = {0};
			if (zoo_get_children(zkc_handle(y->other), y->lock, 0, &sv) == ZOK) {
				for (int i = 0; i < sv.count; i++) {
					char *p = wb_xasprintf("%s/%s", y->lock, sv.data[i]);
					if (strcmp(p, y->node[0]))
						zoo_delete(zkc_handle(y->other), p, -1);
					free(p);
				}
				deallocate_String_vector(&sv);
			}
			release_and_see(y, 0);
			pthread_mutex_lock(&y->mu);
			int ret = y->returned, zrc = y->zrc;
			pthread_mutex_unlock(&y->mu);
			spec_judge(sp, rules[R_GONE].id, sit, ret && zrc == ZNONODE,
				   "%s (want ZNONODE: the listing no longer shows L's node)",
				   l_state(y));
		}
	}
	return sit_close(y) ? WB_EBUSY : rc;
}

/* The server refuses: kind 0 the create (the lock path lacks CREATE), 1
 * the listing (it lacks READ), 2 the watch call on the predecessor H
 * (H's ACL lacks READ: zoo_wget is refused, zoo_wexists is not). */
static int sit_refused(struct loop_ex *x, struct spec *sp, int kind)
{
	static const char *const names[] = {"the create is refused (the lock path lacks CREATE)",
					    "the listing is refused (the lock path lacks READ)",
					    "the predecessor cannot be read (its ACL lacks READ)"};
	struct ACL ro[] = {{ZOO_PERM_READ | ZOO_PERM_ADMIN, {"world", "anyone"}}};
	struct ACL cd[] = {
		{ZOO_PERM_CREATE | ZOO_PERM_DELETE | ZOO_PERM_ADMIN, {"world", "anyone"}}};
	struct ACL wd[] = {
		{ZOO_PERM_WRITE | ZOO_PERM_DELETE | ZOO_PERM_ADMIN, {"world", "anyone"}}};
	struct ACL_vector ro_v = {1, ro}, cd_v = {1, cd}, wd_v = {1, wd};
	struct loop_ex *y = sit_open_acl(x, 5 + kind, kind == 2 ? 1 : 0,
					 kind == 0   ? &ro_v
					 : kind == 1 ? &cd_v
						     : &ZOO_OPEN_ACL_UNSAFE,
					 kind == 2 ? &wd_v : &ZOO_OPEN_ACL_UNSAFE);
	int rc = y->stopped ? WB_EIO : sit_start(y);
	if (!rc) {
		/* returned, or (kind 2, zoo_wexists) waiting, within ERR_MS */
		struct timespec ts;
		mono_deadline(&ts, 2000);
		pthread_mutex_lock(&y->mu);
		while (!y->returned && !y->waiting)
			if (pthread_cond_timedwait(&y->cv, &y->mu, &ts) == ETIMEDOUT)
				break;
		int ret = y->returned, waiting = y->waiting, zrc = y->zrc;
		pthread_mutex_unlock(&y->mu);
		if (ret || kind != 2 || !waiting) {
			spec_judge(sp, rules[R_ERRORS].id, names[kind], ret && zrc == ZNOAUTH,
				   "%s (want ZNOAUTH within 2 s)",
				   ret ? l_state(y) : "neither returned nor waiting: a busy loop?");
		} else {
			/* waiting on H: with a watch, H's release wakes it */
			zoo_delete(zkc_handle(y->other), y->node[0], -1);
			if (zklockrig_flush(y->l, ZKLAB_WAIT_MS) != 0) {
				report_cannot(y->r, "the session barrier on L's client did not "
						    "complete");
				rc = WB_EBUSY;
			} else {
				unsigned ev = events_now(y);
				int held = ev > 0 && release_and_see(y, 0);
				spec_judge(sp, rules[R_ERRORS].id, names[kind], held,
					   "waited; after H's release: %u notifications, %s (want "
					   "ZNOAUTH at once, or a watch that wakes L and ZOK)",
					   ev, l_state(y));
			}
		}
	}
	return sit_close(y) ? WB_EBUSY : rc;
}

static int judge_rules(struct loop_ex *x, struct lab_ctx *ctx, const struct ex_code *code)
{
	struct spec sp;
	spec_init(&sp, ctx, code, rules, R_COUNT);
	report_step(x->r,
		    "The rules: lock_acquire in 8 situations, each on a lock path of its own");
	int rc = sit_first(x, &sp);
	if (!rc)
		rc = sit_vanished(x, &sp);
	if (!rc)
		rc = sit_herd(x, &sp);
	if (!rc)
		rc = sit_notified(x, &sp);
	if (!rc)
		rc = sit_own_gone(x, &sp);
	for (int kind = 0; kind < 3 && !rc; kind++)
		rc = sit_refused(x, &sp, kind);
	if (!rc)
		spec_finish(&sp);
	return rc;
}

/* L queues behind A, B, C, D and waits with one candidate. */
static void l_queues(struct loop_ex *x)
{
	struct report *r = x->r;
	char own[512];
	report_step(r, "A holds, B, C and D wait; L calls lock_acquire");
	if (exthread_start(&x->t, learner_main, x) != 0) {
		report_cannot(r, "cannot start a thread");
		x->stopped = 1;
		return;
	}
	int w = wait_waiting(x, 1);
	if (!report_checkf(r, "waits-behind-others", w,
			   "waiting in lk->wait: four candidates in front", "%s", l_state(x))) {
		x->stopped = 1;
		return;
	}
	int n = l_nodes(x, own, sizeof own);
	report_checkf(r, "one-candidate", n == 1, "1 node of L's session", "%d", n);
	if (n >= 1)
		report_evidence(r, "L", "%s", zklockrig_short(own));
}

/* A releases: L's predecessor D is still there, so L hears nothing. */
static void a_releases(struct loop_ex *x)
{
	struct report *r = x->r;
	report_step(r, "A releases: B is first now; L's predecessor D is still there");
	pthread_mutex_lock(&x->mu);
	unsigned waits = x->waits;
	pthread_mutex_unlock(&x->mu);
	zoo_delete(zkc_handle(x->other), x->node[0], -1);
	if (zklockrig_flush(x->l, ZKLAB_WAIT_MS) != 0) {
		report_cannot(r, "the session barrier on L's client did not complete");
		x->stopped = 1;
		return;
	}
	unsigned ev = events_now(x);
	report_checkf(r, "no-herd", ev == 0, "0 notifications: L watches D, not the holder", "%u",
		      ev);
	/* A woken L lists again: let it settle in its next wait, so the next
	 * round starts from a known point, not from wherever L happens to be. */
	if (ev)
		wait_waiting(x, waits + 1);
}

/* D gives up while B holds: L is notified, lists again, keeps waiting. */
static void d_gives_up(struct loop_ex *x)
{
	struct report *r = x->r;
	pthread_mutex_lock(&x->mu);
	unsigned waits = x->waits, lists = x->lists;
	pthread_mutex_unlock(&x->mu);
	report_step(r, "D gives up while B still holds: L's watch fires");
	zoo_delete(zkc_handle(x->other), x->node[3], -1);
	wait_waiting(x, waits + 1);
	if (!report_checkf(r, "mutual-exclusion", !l_holds(x),
			   "L still waiting: B holds, and is in front", "%s", l_state(x))) {
		x->stopped = 1;
		return;
	}
	pthread_mutex_lock(&x->mu);
	unsigned lists_now = x->lists;
	pthread_mutex_unlock(&x->mu);
	report_checkf(r, "relists-after-notification", lists_now > lists,
		      "a new list after the notification", "%u lists before, %u after", lists,
		      lists_now);
}

/* C gives up; inside L's next list B releases (zk-lock-race's hook): L
 * must find B gone at its watch call, list again and hold. */
static void race_then_hold(struct loop_ex *x)
{
	struct report *r = x->r;
	char own[512];
	pthread_mutex_lock(&x->mu);
	x->hook_armed = 1;
	x->hook_path = x->node[1];
	pthread_mutex_unlock(&x->mu);
	report_step(r, "C gives up; a hook releases B right after L's next getChildren");
	zoo_delete(zkc_handle(x->other), x->node[2], -1);
	int done = exthread_wait(&x->t, ZKLAB_WAIT_MS) == 0;
	pthread_mutex_lock(&x->mu);
	int fired = x->hook_fired, hrc = x->hook_rc;
	unsigned lists = x->lists;
	pthread_mutex_unlock(&x->mu);
	report_checkf(r, "hook-deleted-predecessor", fired && hrc == ZOK,
		      "B deleted between L's list and its watch call", "%s",
		      fired ? zkc_err_name(hrc) : "L did not list again");
	report_checkf(r, "holds-after-race", done && x->zrc == ZOK, "ZOK: L listed again and holds",
		      "%s", l_state(x));
	report_evidence(r, "L_lists", "%u", lists);
	if (!done || x->zrc != ZOK)
		return;
	int n = l_nodes(x, own, sizeof own);
	report_checkf(r, "returns-own-path", n == 1 && !strcmp(own, x->own),
		      "the path of L's one node", "%s", x->own[0] ? x->own : "(empty)");
	report_checkf(r, "holder-is-lowest", is_lowest(x, x->own),
		      "L's node has the lowest sequence number", "%s", zklockrig_short(x->own));
}

static int loop_main(struct lab_ctx *ctx, const struct ex_code *code)
{
	struct loop_ex *x = wb_xcalloc(1, sizeof *x);
	x->r = ctx->report;
	pthread_mutex_init(&x->mu, NULL);
	mono_cond_init(&x->cv);
	*(void **)&x->fn = exzk_sym(x->r, code, "lock_acquire", N_("lock_acquire defined"));
	if (!x->fn) {
		free(x);
		return 0;
	}
	int rc = loop_open(x, ctx);
	if (!rc)
		rc = judge_rules(x, ctx, code);
	if (rc == WB_EBUSY)
		return rc; /* a learner's thread never returned: it may use L */
	if (!rc) {
		report_step(x->r, "The story: the zk-lock-chain and zk-lock-race labs' rounds");
		l_queues(x);
	}
	if (!rc && !x->stopped)
		a_releases(x);
	if (!rc && !x->stopped)
		d_gives_up(x);
	if (!rc && !x->stopped)
		race_then_hold(x);
	pthread_mutex_lock(&x->mu);
	x->stop = 1; /* a learner still in lk->wait gets -1 */
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	exthread_wait(&x->t, ZKLAB_WAIT_MS);
	if (exthread_end(&x->t))
		return rc; /* the learner's thread may still use all of it */
	zkc_close(x->l);
	zkc_close(x->other);
	zklab_close(x->z);
	free(x->lock);
	free(x);
	return rc;
}

static enum lab_outcome ex_main(struct lab_ctx *ctx, const struct ex_code *code)
{
	report_conclusion(
		ctx->report,
		"Your lock_acquire watched only its predecessor, listed again after every "
		"notification and held only when a fresh list showed its node first, also "
		"when the predecessor vanished before the watch call.");
	return lab_outcome_of(ctx, loop_main(ctx, code));
}

const ex_check_fn ex_zk_lock_loop = ex_main;
