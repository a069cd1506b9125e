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
 * anything (bench/zklock_bench.c does).
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
	char guid[ZKLOCK_GUID_LEN + 1];
	zklock_guid_new(guid);
	char *prefix = zklock_name_prefix(h->lock, guid);
	int zrc = zoo_create(zh, prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL_SEQUENTIAL,
			     hw->own, sizeof hw->own);
	free(prefix);
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

/* Runs the herd with n waiters; *wakeups receives the events taken per
 * release (n-1 entries).  0, or -1 with the reason in why. */
static int run_herd(struct zkc **clients, int n, const char *lock, unsigned *wakeups, char *why,
		    size_t cap)
{
	struct herd h = {.lock = lock};
	pthread_mutex_init(&h.mu, NULL);
	mono_cond_init(&h.cv);
	struct herd_waiter *hw = wb_xcalloc((size_t)n, sizeof *hw);
	int rc = 0;
	zoo_create(zkc_handle(clients[0]), lock, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	/* One at a time, so that the queue order is the index order. */
	for (int i = 0; i < n && rc == 0; i++) {
		hw[i].h = &h;
		hw[i].c = clients[i];
		hw[i].armed_n = -1;
		if (pthread_create(&hw[i].th, NULL, herd_main, &hw[i]) != 0) {
			snprintf(why, cap, "cannot start waiter %d's thread", i);
			rc = -1;
			break;
		}
		hw[i].started = 1;
		struct timespec ts;
		mono_deadline(&ts, ZKLAB_WAIT_MS);
		pthread_mutex_lock(&h.mu);
		while (!(i == 0 ? hw[0].holding : hw[i].armed_n >= 0) && !hw[i].done)
			if (pthread_cond_timedwait(&h.cv, &h.mu, &ts) == ETIMEDOUT)
				break;
		if (hw[i].done) {
			snprintf(why, cap, "waiter %d ended while queueing: %s", i,
				 zkc_err_name(hw[i].err));
			rc = -1;
		} else if (!(i == 0 ? hw[0].holding : hw[i].armed_n >= 0)) {
			snprintf(why, cap, "waiter %d did not %s within %d ms", i,
				 i == 0 ? "hold" : "list and watch", ZKLAB_WAIT_MS);
			rc = -1;
		}
		pthread_mutex_unlock(&h.mu);
	}
	/* Setup events (each create fired the watches set before it) are not
	 * hand-overs: settle, then count from zero. */
	if (rc == 0 && !herd_wait_settled(&h, hw, 0, n, why, cap))
		rc = -1;
	for (int k = 0; rc == 0 && k < n - 1; k++) {
		pthread_mutex_lock(&h.mu);
		unsigned before = h.total;
		hw[k].release = 1;
		pthread_cond_broadcast(&h.cv);
		pthread_mutex_unlock(&h.mu);
		if (!herd_wait_settled(&h, hw, k + 1, n, why, cap)) {
			rc = -1;
			break;
		}
		pthread_mutex_lock(&h.mu);
		wakeups[k] = h.total - before;
		pthread_mutex_unlock(&h.mu);
	}
	if (rc == 0) {
		/* Nothing was still on its way. */
		pthread_mutex_lock(&h.mu);
		unsigned total = h.total;
		pthread_mutex_unlock(&h.mu);
		for (int i = 0; i < n && rc == 0; i++)
			if (zklockrig_flush(clients[i], ZKLAB_WAIT_MS) != 0) {
				snprintf(why, cap,
					 "the session barrier on waiter %d's client did not "
					 "complete "
					 "within %d ms",
					 i, ZKLAB_WAIT_MS);
				rc = -1;
			}
		pthread_mutex_lock(&h.mu);
		if (rc == 0 && h.total != total) {
			snprintf(why, cap,
				 "%u wakeups arrived after the last hand-over had settled (%u "
				 "before the session barriers)",
				 h.total - total, total);
			rc = -1;
		}
		pthread_mutex_unlock(&h.mu);
	}
	pthread_mutex_lock(&h.mu);
	for (int i = 0; i < n; i++)
		hw[i].release = 1;
	pthread_cond_broadcast(&h.cv);
	pthread_mutex_unlock(&h.mu);
	for (int i = 0; i < n; i++)
		if (hw[i].started)
			pthread_join(hw[i].th, NULL);
	for (int i = 0; i < n; i++) /* a waiter told to quit leaves its node */
		if (hw[i].own[0])
			zoo_delete(zkc_handle(clients[i]), hw[i].own, -1);
	free(hw);
	pthread_mutex_destroy(&h.mu);
	pthread_cond_destroy(&h.cv);
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

/* Runs the recipe with n waiters; *wakeups receives the notifications
 * taken per release (n-1 entries).  0, or -1 with the reason in why. */
static int run_recipe(struct zkc **clients, int n, const char *lock, unsigned *wakeups, char *why,
		      size_t cap)
{
	struct zklockrig *w = wb_xcalloc((size_t)n, sizeof *w);
	int rc = 0, opened = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		char name[16];
		snprintf(name, sizeof name, "w%d", i);
		if (zklockrig_open(&w[i], name, clients[i], lock, NULL, NULL) != 0) {
			snprintf(why, cap, "cannot make waiter %s", name);
			rc = -1;
			break;
		}
		opened++;
		if (zklockrig_start(&w[i], ACQUIRE_MS) != 0) {
			snprintf(why, cap, "cannot start %s's thread", name);
			rc = -1;
			break;
		}
		if (i == 0) {
			rc = recipe_wait_held(&w[0], why, cap);
		} else if (zklockrig_wait_watches(&w[i], 1, ZKLAB_WAIT_MS) != 0) {
			snprintf(why, cap, "%s set no predecessor watch within %d ms", name,
				 ZKLAB_WAIT_MS);
			rc = -1;
		} else {
			struct zklockrig s;
			zklockrig_snapshot(&w[i], &s);
			if (s.done) { /* it should be waiting behind w[i-1] */
				rc = recipe_wait_held(&w[i], why, cap);
				if (rc == 0) {
					snprintf(why, cap, "%s got the lock while %s held it", name,
						 w[i - 1].name);
					rc = -1;
				}
			}
		}
	}
	for (int k = 0; rc == 0 && k < n - 1; k++) {
		unsigned before = 0, after = 0;
		for (int j = 0; j < n; j++)
			before += rig_wakes(&w[j]);
		zklock_release(w[k].l);
		if ((rc = recipe_wait_held(&w[k + 1], why, cap)) != 0)
			break;
		for (int j = 0; j < n; j++)
			after += rig_wakes(&w[j]);
		wakeups[k] = after - before;
	}
	if (rc == 0) {
		unsigned total = 0, late = 0;
		for (int j = 0; j < n; j++)
			total += rig_wakes(&w[j]);
		for (int i = 0; i < n && rc == 0; i++)
			if (zklockrig_flush(clients[i], ZKLAB_WAIT_MS) != 0) {
				snprintf(why, cap,
					 "the session barrier on w%d's client did not complete "
					 "within "
					 "%d ms",
					 i, ZKLAB_WAIT_MS);
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
		zklock_release(w[n - 1].l);
	}
	for (int i = 0; i < opened; i++)
		zklockrig_close(&w[i]);
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
	int rc = zklab_open(ctx, &z);
	if (rc)
		goto out;
	report_step(r, "opening %d client sessions (one per waiter)", MAX_N);
	for (int i = 0; i < MAX_N; i++)
		if ((rc = zklab_client(z, &clients[i])) != 0)
			goto out;

	for (size_t si = 0; si < WB_ARRAY_LEN(sizes); si++) {
		int n = sizes[si];
		unsigned pw[MAX_N] = {0}, hwk[MAX_N] = {0};
		char *lock = wb_xasprintf("%s/pred-%02d", z->base, n);
		report_step(r, "N = %d: the recipe (predecessor watches), %d hand-over%s", n, n - 1,
			    n == 2 ? "" : "s");
		char why[512] = "";
		int prc = run_recipe(clients, n, lock, pw, why, sizeof why);
		free(lock);
		if (prc) {
			report_cannot(r, "N = %d: the recipe run could not finish: %s", n, why);
			rc = WB_EIO;
			goto out;
		}
		lock = wb_xasprintf("%s/herd-%02d", z->base, n);
		report_step(r, "N = %d: the control (every waiter watches the parent)", n);
		int hrc = run_herd(clients, n, lock, hwk, why, sizeof why);
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
	for (int i = 0; i < MAX_N; i++)
		zkc_close(clients[i]);
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
