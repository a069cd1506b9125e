/*
 * zk-herd.c - the lab "zk-herd": how many clients wake up each time the
 * lock changes hands, with predecessor watches (the recipe) and with
 * watches on the parent's children (the herd), for N = 2 to 64 waiters
 * (chapters 01 and 02).
 *
 *   Predecessor watches: each waiter runs labs/recipes/zklock.c; a
 *   release deletes one node, and only the waiter watching it wakes.
 *   One wakeup per release, whatever N.
 *
 *   Parent watches (control): each waiter lists the children with a
 *   child watch (zoo_wget_children) and lists again after every event.
 *   A release fires the watch of every waiter still queued: N-1, N-2, ...
 *   wakeups, N/2 per release on average, each followed by a getChildren
 *   of the whole list - O(N^2) work per full hand-over of the queue.
 *
 * Counting is exact, not sampled: after each release the lab waits until
 * the next holder holds and every other waiter has listed again and
 * re-armed (a condition, with a deadline), and at the end a session
 * barrier on every client proves no event was still on its way.  The
 * figures go to the report as a table and a bar chart.  It does not time
 * anything (bench/zklock_bench.c does) beyond declaring the hand-overs,
 * the wakeups it counts, as the story's time (report_story_wait).
 *
 * Set-up is done all at once, since nothing in it is counted: the 64
 * sessions connect in parallel, a run's waiters queue together (their
 * order is read from the sequence numbers afterwards, not forced by
 * queueing one after the other), the barriers of all sessions are issued
 * together, and the sessions close in parallel.
 *
 * Its clients have long sessions (zklab_client): nothing here is about
 * expiry, and 64 one-second sessions in one process lose their
 * connections whenever the process stalls for ~700 ms.  A run that cannot
 * finish says what stopped it: a deadline that passed, or the waiter and
 * the error.
 */
#include "base/wb.h"
#include "base/mono.h"
#include "harness/report.h"
#include "harness/zk/zkasync.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "rigs/zklockrig.h"
#include "lab.h"
#include "recipes/zklock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_N	   64
#define ACQUIRE_MS 120000

static const int sizes[] = {2, 4, 8, 16, 32, 64};

/* Session barriers (zklockrig_flush's exists("/")) on clients[0..n),
 * issued together and then waited for, so n barriers cost about one
 * round trip.  0, or WB_EBUSY / WB_EIO with *bad the first client whose
 * barrier did not complete within ZKLAB_WAIT_MS. */
static int flush_all(struct zkc **clients, int n, int *bad)
{
	struct zkasync *a = wb_xcalloc((size_t)n, sizeof *a);
	int issued = 0, rc = 0;
	for (; issued < n; issued++) {
		zkasync_init(&a[issued]);
		if (zoo_aexists(zkc_handle(clients[issued]), "/", 0, zkasync_stat_done,
				&a[issued]) != ZOK) {
			zkasync_destroy(&a[issued]);
			*bad = issued;
			rc = WB_EIO;
			break;
		}
	}
	long long deadline = mono_now_ms() + ZKLAB_WAIT_MS;
	int late = 0;
	for (int i = 0; i < issued; i++) {
		long long left = deadline - mono_now_ms();
		if (zkasync_wait(&a[i], left > 0 ? (int)left : 1, NULL) != 0) {
			late = 1;
			if (rc == 0) {
				*bad = i;
				rc = WB_EBUSY;
			}
		}
	}
	/* A completion that did not come yet comes at the latest when the
	 * handle closes: its struct must outlive it, so it is not freed. */
	if (late)
		return rc;
	for (int i = 0; i < issued; i++)
		zkasync_destroy(&a[i]);
	free(a);
	return rc;
}

/* ---- the herd: waiters watching the parent ----------------------------- */

struct herd;

struct herd_waiter {
	struct herd *h;	 /* shared state (its mutex guards the fields below) */
	struct zkc *c;	 /* this waiter's session (borrowed) */
	pthread_t th;	 /* its thread */
	int started;	 /* th runs or ran */
	char own[512];	 /* its node */
	int armed_n;	 /* lock nodes in the list that armed its watch, -1 if none */
	int pending;	 /* an event came since it last listed */
	int holding;	 /* it is first and holds */
	int release;	 /* the lab tells the holder to release */
	int done;	 /* the thread ended */
	int err;	 /* a ZooKeeper error ended it (raw code), 0 if none */
	unsigned events; /* child events taken while waiting */
	int created;	 /* the create of its node completed ... */
	int create_rc;	 /* ... with this code */
};

struct herd {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* CLOCK_MONOTONIC */
	const char *lock;  /* the lock path */
	unsigned total;	   /* all child events taken while waiting */
};

static void herd_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	(void)state;
	(void)path;
	struct herd_waiter *hw = ctx;
	if (type == ZOO_SESSION_EVENT)
		return;
	pthread_mutex_lock(&hw->h->mu);
	if (!hw->holding && !hw->done) {
		hw->events++;
		hw->h->total++;
	}
	hw->pending = 1;
	hw->armed_n = -1;
	pthread_cond_broadcast(&hw->h->cv);
	pthread_mutex_unlock(&hw->h->mu);
}

static void *herd_main(void *arg)
{
	struct herd_waiter *hw = arg;
	struct herd *h = hw->h;
	zhandle_t *zh = zkc_handle(hw->c);
	int zrc = ZOK; /* its node exists: run_herd created it */
	const char *own_name = zklockrig_name(hw->own);
	while (zrc == ZOK) {
		pthread_mutex_lock(&h->mu);
		hw->pending = 0;
		pthread_mutex_unlock(&h->mu);
		struct String_vector sv = {0};
		zrc = zoo_wget_children(zh, h->lock, herd_watcher, hw, &sv);
		if (zrc != ZOK)
			break;
		struct zklock_entry *e = NULL;
		size_t n = 0;
		zklock_sort(sv.data, (size_t)sv.count, &e, &n, NULL);
		long idx = zklock_index(e, n, own_name);
		free(e);
		deallocate_String_vector(&sv);
		pthread_mutex_lock(&h->mu);
		if (idx == 0) {
			hw->holding = 1;
			pthread_cond_broadcast(&h->cv);
			while (!hw->release)
				pthread_cond_wait(&h->cv, &h->mu);
			pthread_mutex_unlock(&h->mu);
			zrc = zoo_delete(zh, hw->own, -1);
			break;
		}
		if (!hw->pending)
			hw->armed_n = (int)n;
		pthread_cond_broadcast(&h->cv);
		while (!hw->pending && !hw->release)
			pthread_cond_wait(&h->cv, &h->mu);
		int quit = hw->release;
		pthread_mutex_unlock(&h->mu);
		if (quit)
			break;
	}
	pthread_mutex_lock(&h->mu);
	hw->err = zrc;
	hw->done = 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	return NULL;
}

/* Under h->mu: waiter `holder` holds and every waiter after it has
 * listed `n` nodes and armed its watch. */
static int herd_settled(struct herd_waiter *hw, int holder, int n_waiters, int n)
{
	if (!hw[holder].holding)
		return 0;
	for (int j = holder + 1; j < n_waiters; j++)
		if (hw[j].armed_n != n || hw[j].done)
			return 0;
	return 1;
}

/* Under h->mu: the first waiter that ended on an error, or ended although
 * it should still hold or wait (from `holder` on), or -1. */
static int herd_ended(struct herd_waiter *hw, int holder, int n_waiters)
{
	for (int j = 0; j < n_waiters; j++)
		if (hw[j].done && (j >= holder || hw[j].err != ZOK))
			return j;
	return -1;
}

/* Waits, with a deadline, until herd_settled; a waiter that ended on an
 * error ends the wait at once.  1, or 0 with the reason in why. */
static int herd_wait_settled(struct herd *h, struct herd_waiter *hw, int holder, int n_waiters,
			     char *why, size_t cap)
{
	struct timespec ts;
	mono_deadline(&ts, ZKLAB_WAIT_MS);
	int ok = 1, timed_out = 0;
	pthread_mutex_lock(&h->mu);
	while (!herd_settled(hw, holder, n_waiters, n_waiters - holder)) {
		int j = herd_ended(hw, holder, n_waiters);
		if (j >= 0) {
			snprintf(why, cap, "waiter %d ended: %s", j,
				 hw[j].err == ZOK ? "it stopped waiting" : zkc_err_name(hw[j].err));
			ok = 0;
			break;
		}
		if (timed_out) {
			snprintf(why, cap,
				 "waiter %d did not hold, or the others did not list again, within "
				 "%d ms",
				 holder, ZKLAB_WAIT_MS);
			ok = 0;
			break;
		}
		timed_out = pthread_cond_timedwait(&h->cv, &h->mu, &ts) == ETIMEDOUT;
	}
	pthread_mutex_unlock(&h->mu);
	return ok;
}

/* zoo_acreate's completion for a waiter's node (its client's completion
 * thread). */
static void herd_created(int rc, const char *value, const void *data)
{
	struct herd_waiter *hw = (struct herd_waiter *)data;
	pthread_mutex_lock(&hw->h->mu);
	hw->create_rc = rc;
	if (rc == ZOK && value)
		snprintf(hw->own, sizeof hw->own, "%s", value);
	hw->created = 1;
	pthread_cond_broadcast(&hw->h->cv);
	pthread_mutex_unlock(&hw->h->mu);
}

static long own_seq(const struct herd_waiter *hw)
{
	const char *dash = strrchr(hw->own, '-');
	return dash ? strtol(dash + 1, NULL, 10) : -1;
}

static int by_seq(const void *a, const void *b)
{
	long x = own_seq(a), y = own_seq(b);
	return (x > y) - (x < y);
}

/* Creates every waiter's node (ephemeral sequential, in its own session)
 * at once, then sorts hw[0..n) into queue order, by sequence number.  No
 * waiter lists yet, so no create fires a watch (queued one by one, each
 * create woke every waiter queued before it: a herd of N(N-1)/2 set-up
 * wakeups).  0, or -1 with the reason in why; *stuck is set when a
 * completion did not come in time (hw must then outlive the clients). */
static int herd_create_all(struct herd *h, struct herd_waiter *hw, int n, int *stuck, char *why,
			   size_t cap)
{
	int issued = 0, rc = 0;
	for (; issued < n; issued++) {
		char guid[ZKLOCK_GUID_LEN + 1];
		zklock_guid_new(guid);
		char *prefix = zklock_name_prefix(h->lock, guid);
		int zrc = zoo_acreate(zkc_handle(hw[issued].c), prefix, NULL, -1,
				      &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL_SEQUENTIAL, herd_created,
				      &hw[issued]);
		free(prefix);
		if (zrc != ZOK) {
			snprintf(why, cap, "waiter %d cannot create its node: %s", issued,
				 zkc_err_name(zrc));
			rc = -1;
			break;
		}
	}
	struct timespec ts;
	mono_deadline(&ts, ZKLAB_WAIT_MS);
	pthread_mutex_lock(&h->mu);
	for (int i = 0; i < issued; i++) {
		while (!hw[i].created)
			if (pthread_cond_timedwait(&h->cv, &h->mu, &ts) == ETIMEDOUT)
				break;
		if (!hw[i].created) {
			snprintf(why, cap, "waiter %d's create did not complete within %d ms", i,
				 ZKLAB_WAIT_MS);
			*stuck = 1;
			rc = -1;
			break;
		}
		if (hw[i].create_rc != ZOK && rc == 0) {
			snprintf(why, cap, "waiter %d cannot create its node: %s", i,
				 zkc_err_name(hw[i].create_rc));
			rc = -1;
		}
	}
	pthread_mutex_unlock(&h->mu);
	if (rc == 0)
		qsort(hw, (size_t)n, sizeof *hw, by_seq);
	return rc;
}

/* Runs the herd with n waiters; *wakeups receives the events taken per
 * release (n-1 entries), *handover_ms the time from the first release to
 * the last hand-over settled.  0, or -1 with the reason in why. */
static int run_herd(struct zkc **clients, int n, const char *lock, unsigned *wakeups,
		    long *handover_ms, char *why, size_t cap)
{
	/* On the heap: after a create that did not complete, its completion
	 * may still come, and h and hw must then outlive this call. */
	struct herd *h = wb_xcalloc(1, sizeof *h);
	h->lock = lock;
	pthread_mutex_init(&h->mu, NULL);
	mono_cond_init(&h->cv);
	struct herd_waiter *hw = wb_xcalloc((size_t)n, sizeof *hw);
	int rc = 0;
	zoo_create(zkc_handle(clients[0]), lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	for (int i = 0; i < n; i++) {
		hw[i].h = h;
		hw[i].c = clients[i];
		hw[i].armed_n = -1;
	}
	int stuck = 0;
	rc = herd_create_all(h, hw, n, &stuck, why, cap);
	if (stuck) /* a completion may still come: hw and h stay allocated */
		return -1;
	/* Then every waiter lists and arms its watch, all at once. */
	for (int i = 0; i < n && rc == 0; i++) {
		if (pthread_create(&hw[i].th, NULL, herd_main, &hw[i]) != 0) {
			snprintf(why, cap, "cannot start waiter %d's thread", i);
			rc = -1;
			break;
		}
		hw[i].started = 1;
	}
	/* Settled: waiter 0 holds, every other one listed all n nodes and
	 * armed its watch; count from here. */
	if (rc == 0 && !herd_wait_settled(h, hw, 0, n, why, cap))
		rc = -1;
	long long t0 = mono_now_ms();
	for (int k = 0; rc == 0 && k < n - 1; k++) {
		pthread_mutex_lock(&h->mu);
		unsigned before = h->total;
		hw[k].release = 1;
		pthread_cond_broadcast(&h->cv);
		pthread_mutex_unlock(&h->mu);
		if (!herd_wait_settled(h, hw, k + 1, n, why, cap)) {
			rc = -1;
			break;
		}
		pthread_mutex_lock(&h->mu);
		wakeups[k] = h->total - before;
		pthread_mutex_unlock(&h->mu);
	}
	*handover_ms = (long)(mono_now_ms() - t0);
	if (rc == 0) {
		/* Nothing was still on its way. */
		pthread_mutex_lock(&h->mu);
		unsigned total = h->total;
		pthread_mutex_unlock(&h->mu);
		int bad = 0;
		if (flush_all(clients, n, &bad) != 0) {
			snprintf(
				why, cap,
				"the session barrier on waiter %d's client did not complete within "
				"%d ms",
				bad, ZKLAB_WAIT_MS);
			rc = -1;
		}
		pthread_mutex_lock(&h->mu);
		if (rc == 0 && h->total != total) {
			snprintf(why, cap,
				 "%u wakeups arrived after the last hand-over had settled (%u "
				 "before the session barriers)",
				 h->total - total, total);
			rc = -1;
		}
		pthread_mutex_unlock(&h->mu);
	}
	pthread_mutex_lock(&h->mu);
	for (int i = 0; i < n; i++)
		hw[i].release = 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	for (int i = 0; i < n; i++)
		if (hw[i].started)
			pthread_join(hw[i].th, NULL);
	for (int i = 0; i < n; i++) /* a waiter told to quit leaves its node */
		if (hw[i].own[0])
			zoo_delete(zkc_handle(hw[i].c), hw[i].own, -1);
	/* The last holder's child watch fired at that delete; its callback
	 * gets hw: a barrier on every session lets it run before hw goes. */
	int bad = 0;
	if (flush_all(clients, n, &bad) != 0) { /* a callback may still come: h and hw stay */
		if (rc == 0)
			snprintf(why, cap,
				 "the final session barrier on client %d did not complete", bad);
		return -1;
	}
	free(hw);
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	free(h);
	return rc;
}

/* ---- the recipe: predecessor watches ----------------------------------- */

static unsigned rig_wakes(struct zklockrig *w)
{
	struct zklockrig s;
	zklockrig_snapshot(w, &s);
	return s.wakes;
}

/* Waits until waiter w acquired.  0, or -1 with the reason in why: the
 * deadline passed, or the acquire failed and the recipe says why. */
static int recipe_wait_held(struct zklockrig *w, char *why, size_t cap)
{
	int arc = -1;
	if (zklockrig_wait_done(w, ZKLAB_WAIT_MS, &arc) != 0) {
		snprintf(why, cap, "%s did not get the lock within %d ms", w->name, ZKLAB_WAIT_MS);
		return -1;
	}
	if (arc != 0) {
		snprintf(why, cap, "%s's acquire failed (%s): %s", w->name,
			 zklock_status_name(zklock_status(w->l)), zklock_message(w->l));
		return -1;
	}
	return 0;
}

/* The sequence number of a waiter's node, noted by the recipe's
 * create_done hook on the waiter's own thread (under the slot's mutex). */
struct seq_slot {
	pthread_mutex_t *mu;
	long seq; /* -1 until the create succeeded */
};

static void seq_noted(void *arg, struct zklock *l, int zrc)
{
	struct seq_slot *slot = arg;
	const char *own = zrc == ZOK ? zklock_own_path(l) : NULL;
	const char *dash = own ? strrchr(own, '-') : NULL;
	pthread_mutex_lock(slot->mu);
	slot->seq = dash ? strtol(dash + 1, NULL, 10) : -1;
	pthread_mutex_unlock(slot->mu);
}

/* Starts n waiters at once and waits until one holds and every other one
 * has set its predecessor watch; order[0..n) receives the waiters in
 * queue order (by sequence number: the holder first); slot[0..n) (their
 * mu set) must outlive the waiters' threads.  All at once is
 * safe: nothing is deleted meanwhile, so each waiter's listing, made
 * after its own create, shows its real predecessor, and no watch fires.
 * *opened: waiters to close.  0, or -1 with the reason in why. */
static int recipe_queue(struct zklockrig *w, struct seq_slot *slot, struct zkc **clients, int n,
			const char *lock, int *order, int *opened, char *why, size_t cap)
{
	pthread_mutex_t *mu = slot[0].mu;
	int rc = 0;
	zoo_create(zkc_handle(clients[0]), lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	for (int i = 0; i < n && rc == 0; i++) {
		char name[16];
		snprintf(name, sizeof name, "w%d", i);
		slot[i].seq = -1;
		struct zklock_hooks hooks = {.arg = &slot[i], .create_done = seq_noted};
		if (zklockrig_open(&w[i], name, clients[i], lock, &hooks, NULL) != 0) {
			snprintf(why, cap, "cannot make waiter %s", name);
			rc = -1;
			break;
		}
		(*opened)++;
		if (zklockrig_start(&w[i], ACQUIRE_MS) != 0) {
			snprintf(why, cap, "cannot start %s's thread", name);
			rc = -1;
		}
	}
	for (int i = 0; i < n && rc == 0; i++)
		if (zklockrig_wait_watches(&w[i], 1, ZKLAB_WAIT_MS) != 0) {
			snprintf(why, cap,
				 "w%d neither held nor set a predecessor watch within %d ms", i,
				 ZKLAB_WAIT_MS);
			rc = -1;
		}
	pthread_mutex_lock(mu);
	for (int i = 0; i < n; i++) { /* insertion sort by sequence number */
		int j = i;
		for (; j > 0 && slot[order[j - 1]].seq > slot[i].seq; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	int unnoted = n > 0 && slot[order[0]].seq < 0;
	pthread_mutex_unlock(mu);
	if (rc == 0 && unnoted) {
		snprintf(why, cap, "w%d's create did not succeed", order[0]);
		rc = -1;
	}
	if (rc == 0)
		rc = recipe_wait_held(&w[order[0]], why, cap);
	for (int k = 1; k < n && rc == 0; k++) {
		struct zklockrig snap;
		zklockrig_snapshot(&w[order[k]], &snap);
		if (snap.done) { /* it should be waiting behind order[k-1] */
			snprintf(why, cap, "%s's acquire returned while %s held the lock",
				 w[order[k]].name, w[order[0]].name);
			rc = -1;
		}
	}
	return rc;
}

/* Runs the recipe with n waiters; *wakeups receives the notifications
 * taken per release (n-1 entries), *handover_ms the time from the first
 * release to the last new holder.  0, or -1 with the reason in why. */
static int run_recipe(struct zkc **clients, int n, const char *lock, unsigned *wakeups,
		      long *handover_ms, char *why, size_t cap)
{
	struct zklockrig *w = wb_xcalloc((size_t)n, sizeof *w);
	int order[MAX_N] = {0};
	int opened = 0;
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct seq_slot slot[MAX_N];
	for (int i = 0; i < n; i++)
		slot[i] = (struct seq_slot){.mu = &mu, .seq = -1};
	int rc = recipe_queue(w, slot, clients, n, lock, order, &opened, why, cap);
	long long t0 = mono_now_ms();
	for (int k = 0; rc == 0 && k < n - 1; k++) {
		unsigned before = 0, after = 0;
		for (int j = 0; j < n; j++)
			before += rig_wakes(&w[j]);
		zklock_release(w[order[k]].l);
		if ((rc = recipe_wait_held(&w[order[k + 1]], why, cap)) != 0)
			break;
		for (int j = 0; j < n; j++)
			after += rig_wakes(&w[j]);
		wakeups[k] = after - before;
	}
	*handover_ms = (long)(mono_now_ms() - t0);
	if (rc == 0) {
		unsigned total = 0, late = 0;
		for (int j = 0; j < n; j++)
			total += rig_wakes(&w[j]);
		int bad = 0;
		if (flush_all(clients, n, &bad) != 0) {
			snprintf(
				why, cap,
				"the session barrier on w%d's client did not complete within %d ms",
				bad, ZKLAB_WAIT_MS);
			rc = -1;
		}
		for (int j = 0; j < n; j++)
			late += rig_wakes(&w[j]);
		if (rc == 0 && late != total) {
			snprintf(why, cap,
				 "%u notifications arrived after the last hand-over (%u before the "
				 "session barriers)",
				 late - total, total);
			rc = -1;
		}
		zklock_release(w[order[n - 1]].l);
	}
	for (int i = 0; i < opened; i++)
		zklockrig_close(&w[i]);
	pthread_mutex_destroy(&mu);
	free(w);
	return rc;
}

/* ---- the lab ------------------------------------------------------------- */

static void bar(char *buf, size_t cap, double v)
{
	size_t n = 0;
	int cells = (int)(v + 0.5);
	if (cells < 1 && v > 0)
		cells = 1;
	for (int i = 0; i < cells && n + 4 < cap; i++) {
		memcpy(buf + n, "\u2588", 3); /* full block */
		n += 3;
	}
	buf[n] = '\0';
}

static int herd_run(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	struct zklab *z = NULL;
	struct zkc *clients[MAX_N] = {0};
	double pred_avg[WB_ARRAY_LEN(sizes)], herd_avg[WB_ARRAY_LEN(sizes)];
	long pred_ms = 0, herd_ms = 0; /* the hand-overs measured: the story */
	int rc = zklab_open(ctx, &z);
	if (rc)
		goto out;
	report_step(r, "opening %d client sessions (one per waiter)", MAX_N);
	if ((rc = zklab_clients(z, MAX_N, clients)) != 0)
		goto out;

	for (size_t si = 0; si < WB_ARRAY_LEN(sizes); si++) {
		int n = sizes[si];
		unsigned pw[MAX_N] = {0}, hwk[MAX_N] = {0};
		char *lock = wb_xasprintf("%s/pred-%02d", z->base, n);
		report_step(r, "N = %d: the recipe (predecessor watches), %d hand-over%s", n, n - 1,
			    n == 2 ? "" : "s");
		char why[512] = "";
		long ms = 0;
		int prc = run_recipe(clients, n, lock, pw, &ms, why, sizeof why);
		pred_ms += ms;
		free(lock);
		if (prc) {
			report_cannot(r, "N = %d: the recipe run could not finish: %s", n, why);
			rc = WB_EIO;
			goto out;
		}
		lock = wb_xasprintf("%s/herd-%02d", z->base, n);
		report_step(r, "N = %d: the control (every waiter watches the parent)", n);
		ms = 0;
		int hrc = run_herd(clients, n, lock, hwk, &ms, why, sizeof why);
		herd_ms += ms;
		free(lock);
		if (hrc) {
			report_cannot(r, "N = %d: the control run could not finish: %s", n, why);
			rc = WB_EIO;
			goto out;
		}
		unsigned ptot = 0, htot = 0, pmax = 0;
		for (int k = 0; k < n - 1; k++) {
			ptot += pw[k];
			htot += hwk[k];
			if (pw[k] > pmax)
				pmax = pw[k];
		}
		pred_avg[si] = (double)ptot / (n - 1);
		herd_avg[si] = (double)htot / (n - 1);
		char name[32];
		snprintf(name, sizeof name, "predecessor-n%02d", n);
		report_checkf(r, name, ptot == (unsigned)(n - 1) && pmax == 1,
			      "exactly 1 wakeup per release", "%u wakeups in %d releases", ptot,
			      n - 1);
		unsigned expect = (unsigned)(n * (n - 1) / 2);
		snprintf(name, sizeof name, "control-herd-n%02d", n);
		report_checkf(r, name, htot == expect, "N-1, N-2, ..., 1 wakeups: N(N-1)/2 in all",
			      "%u wakeups in %d releases (expected %u)", htot, n - 1, expect);
	}

	/* What the lab measures is the hand-overs themselves, the herd's
	 * wakeups and re-listings and the recipe's single wakeups: the time
	 * from each first release to the last settled hand-over is the
	 * story; queueing the waiters, the barriers and the sessions are not. */
	report_story_wait(r, pred_ms, "recipe-handovers");
	report_story_wait(r, herd_ms, "herd-handovers");
	report_step(r, "wakeups per release (exact counts)");
	report_evidence(r, "table_header", "%4s %9s %22s %22s", "N", "releases",
			"predecessor watches", "parent watches");
	for (size_t si = 0; si < WB_ARRAY_LEN(sizes); si++) {
		char key[32];
		snprintf(key, sizeof key, "table_n%02d", sizes[si]);
		report_evidence(r, key, "%4d %9d %22.2f %22.2f", sizes[si], sizes[si] - 1,
				pred_avg[si], herd_avg[si]);
	}
	report_step(r, "bar chart: one block per wakeup per release (P = predecessor, H = parent)");
	for (size_t si = 0; si < WB_ARRAY_LEN(sizes); si++) {
		char key[32], pb[256], hb[256];
		bar(pb, sizeof pb, pred_avg[si]);
		bar(hb, sizeof hb, herd_avg[si]);
		snprintf(key, sizeof key, "chart_n%02d_P", sizes[si]);
		report_evidence(r, key, "%5.2f %s", pred_avg[si], pb);
		snprintf(key, sizeof key, "chart_n%02d_H", sizes[si]);
		report_evidence(r, key, "%5.2f %s", herd_avg[si], hb);
	}
	rc = 0;
out:
	zklab_close_clients(clients, MAX_N);
	zklab_close(z);
	return rc;
}

/* The entry point registered as lab_zk_herd in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"With predecessor watches every release woke exactly one waiter, whatever the "
		"number of waiters; with watches on the parent every release woke every waiter "
		"still queued, N(N-1)/2 wakeups for a queue of N.");
	return lab_outcome_of(ctx, herd_run(ctx));
}

const lab_run_fn lab_zk_herd = lab_main;
