/*
 * zk-fencing.c - the lab "zk-fencing": chapter 02's scenario run for real
 * ("Fencing: the resource rejects old writes once it has accepted a new
 * token").
 *
 *   A holds the lock (token = its sequence suffix) and its business thread
 *   writes once, then waits at a barrier (a paused worker: it does not
 *   look at the lock any more).
 *   B waits on the lock, its watch on A's candidate.
 *   The proxy holds A's traffic; nothing is closed by hand and nothing
 *   forces the expiry: the server expires A's session by itself and
 *   deletes the candidate.  B is notified, re-lists and holds a larger
 *   token.
 *   The window: before B writes, a write with A's token is still accepted.
 *   B writes "new-owner" (the mark advances to B's token).
 *   A's thread is released and writes "stale-late":
 *     unfenced resource (control)  accepts it: final value stale-late
 *     fenced resource (recipe)     rejects it: final value new-owner
 *   The fenced database is closed and reopened: its mark still rejects A.
 *   An equal token (B again) is accepted; a larger one (C, after B
 *   releases) advances the mark.
 *   Forced interleaving: B, which released the lock, still has a write in
 *   flight; it starts while B's token is the mark, C writes in between
 *   (the recipe's before-transaction hook), and B's write must then be
 *   rejected.
 *
 * The fenced write is a parameter (zk-fencing.h): the lab uses the
 * recipe's statement, the exercise "fenced-write" the learner's.
 *
 * Both resources are real SQLite files in the run directory
 * (recipes/fenced.h); A's thread has its own connections.  Every wait is
 * for an event or a barrier, with a deadline, and ends early when the
 * lab's server dies (zklab_server_gone: the run could not go on, which is
 * not a failed check).  It needs its own server and proxy, so it does not
 * run under --zk.  Test hook: testhook_hold("lab-step") once A's traffic
 * is held.
 *
 * History (docs/histories.md): the lock as ZooKeeper saw it (A's, B's and
 * C's acquire and release; A's session expiry is A's release, somewhere
 * between the hold and B's notification) must pass the mutual exclusion
 * checker; every write to each resource is an op (value = the token, ok =
 * accepted, fail = rejected): the fenced resource's must pass the token
 * order checker, the unfenced control's must fail it.
 */
#include "base/wb.h"
#include "base/mono.h"
#include "base/testhook.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "rigs/zkhold.h"
#include "harness/zk/zklab.h"
#include "harness/zk/zkproxy.h"
#include "harness/zk/zkserver.h"
#include "lab.h"
#include "checkers/history.h"
#include "recipes/fenced.h"
#include "checkers/mutex.h"
#include "zk/zk-fencing.h"
#include "recipes/zklock.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A step counter shared by the lab and one thread: the lab lets the
 * thread past step n (baton_allow), the thread reports step n done
 * (baton_done); each side waits for the other with a deadline. */
struct baton {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* CLOCK_MONOTONIC */
	int allowed;	   /* the thread may run steps <= allowed */
	int done;	   /* steps the thread finished */
};

static void baton_init(struct baton *b)
{
	pthread_mutex_init(&b->mu, NULL);
	mono_cond_init(&b->cv);
	b->allowed = b->done = 0;
}

static void baton_destroy(struct baton *b)
{
	pthread_cond_destroy(&b->cv);
	pthread_mutex_destroy(&b->mu);
}

/* Waits until *field >= n.  Returns 0 or WB_EBUSY after ms; with z, also
 * WB_EUNAVAIL as soon as the lab's server died (asked every
 * ZKC_GONE_POLL_MS). */
static int baton_wait_z(struct baton *b, const int *field, int n, int ms, struct zklab *z)
{
	long long end = zkc_now_ms() + ms;
	pthread_mutex_lock(&b->mu);
	int rc = 0;
	while (*field < n) {
		if (z && zkserver_died(z->server, NULL, 0)) {
			rc = WB_EUNAVAIL;
			break;
		}
		long long left = end - zkc_now_ms();
		if (left <= 0) {
			rc = WB_EBUSY;
			break;
		}
		if (z && left > ZKC_GONE_POLL_MS)
			left = ZKC_GONE_POLL_MS;
		struct timespec dl;
		mono_deadline(&dl, (int)left);
		pthread_cond_timedwait(&b->cv, &b->mu, &dl);
	}
	pthread_mutex_unlock(&b->mu);
	return *field >= n ? 0 : rc;
}

static int baton_wait(struct baton *b, const int *field, int n, int ms)
{
	return baton_wait_z(b, field, n, ms, NULL);
}

static void baton_set(struct baton *b, int *field, int n)
{
	pthread_mutex_lock(&b->mu);
	if (*field < n)
		*field = n;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

/* One write to both resources, as seen by its writer. */
struct both {
	int rc_f, rc_u;		   /* fenced_write results */
	struct fenced_result f, u; /* fenced and unfenced outcomes */
};

/* The history's writes per resource (op indexes).  A's thread and the lab
 * append in turn, one after the other (the baton orders them). */
struct res_ops {
	struct report *r;
	int fenced[16], unfenced[16];
	int n_fenced, n_unfenced;
};

/* A's business thread. */
struct worker {
	const char *fenced_path, *unfenced_path, *domain; /* borrowed */
	int64_t token;					  /* A's fencing token */
	struct baton b;					  /* steps 1..3 */
	struct res_ops *ops;				  /* the history */
	struct both first, window, late;		  /* what each write did */
	char err[256];					  /* first open error */
	const struct fenced_impl *impl;			  /* the fenced write */
};

static void setup_impl(const struct fenced_impl *impl, struct fenced *f)
{
	if (impl && impl->setup && f)
		impl->setup(impl->arg, f);
}

#define STEP_WAIT_MS 60000 /* A's pause: the lab always ends it sooner */

/* One write of process with token to one resource, recorded in list. */
static int write_one(struct res_ops *ops, int *list, int *n, const char *process, struct fenced *f,
		     const char *domain, int64_t token, const char *value,
		     struct fenced_result *out)
{
	char tok[24];
	snprintf(tok, sizeof tok, "%" PRId64, token);
	char what[96];
	snprintf(what, sizeof what, "%s %s", list == ops->fenced ? "fenced" : "unfenced", value);
	int op = report_invoke(ops->r, process, "write", tok);
	int rc = fenced_write(f, domain, token, value, out);
	enum hist_type end = rc ? HIST_INFO : out->accepted ? HIST_OK : HIST_FAIL;
	report_complete(ops->r, op, end, what);
	if (op >= 0 && *n < 16)
		list[(*n)++] = op;
	return rc;
}

static void write_both(struct res_ops *ops, const char *process, struct fenced *f, struct fenced *u,
		       const char *domain, int64_t token, const char *value, struct both *out)
{
	out->rc_f = write_one(ops, ops->fenced, &ops->n_fenced, process, f, domain, token, value,
			      &out->f);
	out->rc_u = write_one(ops, ops->unfenced, &ops->n_unfenced, process, u, domain, token,
			      value, &out->u);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fenced *f = NULL, *u = NULL;
	struct fenced_opts off = {.mode = FENCED_OFF};
	if (fenced_open(w->fenced_path, NULL, &f, w->err, sizeof w->err) ||
	    fenced_open(w->unfenced_path, &off, &u, w->err, sizeof w->err)) {
		baton_set(&w->b, &w->b.done, 3);
		goto out;
	}
	setup_impl(w->impl, f);
	/* Step 1: A holds the lock and does its work. */
	write_both(w->ops, "A", f, u, w->domain, w->token, "a-first", &w->first);
	baton_set(&w->b, &w->b.done, 1);
	/* A's thread now pauses (GC, stopped VM) and never looks at the lock. */
	if (baton_wait(&w->b, &w->b.allowed, 2, STEP_WAIT_MS))
		goto out;
	write_both(w->ops, "A", f, u, w->domain, w->token, "a-window", &w->window);
	baton_set(&w->b, &w->b.done, 2);
	if (baton_wait(&w->b, &w->b.allowed, 3, STEP_WAIT_MS))
		goto out;
	write_both(w->ops, "A", f, u, w->domain, w->token, "stale-late", &w->late);
out:
	baton_set(&w->b, &w->b.done, 3);
	fenced_free(f);
	fenced_free(u);
	return NULL;
}

/* B's acquisition, on its own thread, with the recipe's hooks. */
struct waiter {
	struct report *r;
	int op; /* B's acquire in the history */
	struct zklock *l;
	struct baton b;	      /* done: 1 = watch set, 2 = acquire returned */
	int rc;		      /* zklock_acquire's result */
	int watched_zrc;      /* the predecessor watch's result */
	char pred[512];	      /* the predecessor it watched */
	int woken_type;	      /* type of the notification it took */
	char woken_path[512]; /* on which node */
	long long woken_at;   /* when (CLOCK_MONOTONIC ms) */
};

static void on_watched(void *arg, struct zklock *l, const char *pred, int zrc)
{
	(void)l;
	struct waiter *w = arg;
	w->watched_zrc = zrc;
	snprintf(w->pred, sizeof w->pred, "%s", pred);
	if (zrc == ZOK)
		baton_set(&w->b, &w->b.done, 1);
}

static void on_woken(void *arg, struct zklock *l, int type, const char *path)
{
	(void)l;
	struct waiter *w = arg;
	w->woken_type = type;
	w->woken_at = zkc_now_ms();
	snprintf(w->woken_path, sizeof w->woken_path, "%s", path ? path : "");
}

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	w->op = report_invoke(w->r, "B", "acquire", NULL);
	w->rc = zklock_acquire(w->l, ZKLAB_WAIT_MS * 3);
	report_complete(w->r, w->op, w->rc == 0 ? HIST_OK : HIST_FAIL, NULL);
	baton_set(&w->b, &w->b.done, 2);
	return NULL;
}

struct run {
	struct lab_ctx *ctx;
	struct report *r;
	struct zklab *z;		   /* server, base path, observer */
	struct zkproxy *p;		   /* A's only way to the server */
	struct zkc *a, *b, *c;		   /* A via the proxy; B and C direct */
	struct zklock *la, *lb, *lc;	   /* their locks */
	struct zkhold *ha;		   /* what A's lock told A's holder */
	struct fenced *res, *ctl;	   /* the lab's connections: fenced, unfenced */
	char *lock_path;		   /* the lock domain */
	char *fenced_path, *unfenced_path; /* the two SQLite files */
	struct worker wa;		   /* A's business thread */
	struct waiter wb;		   /* B's acquiring thread */
	pthread_t ta, tb;		   /* and their threads */
	int ta_started, tb_started;	   /* to be joined */
	int64_t token_a, token_b, token_c; /* A's, B's and C's fencing tokens */
	const struct fenced_impl *impl;	   /* the fenced write */
	long long held_at;		   /* when A's traffic was held */
	struct res_ops ops;		   /* the resources' writes in the history */
	int op_a_expiry;		   /* A's release by session expiry */
};

static const char *verdict(const struct fenced_result *res, int rc)
{
	return rc ? "error" : res->accepted ? "accepted" : "rejected";
}

/* Reads the value and mark of the lock domain in one resource. */
static void read_state(struct fenced *f, const char *domain, int64_t *mark, char **value)
{
	*mark = -1;
	*value = NULL;
	if (fenced_read(f, domain, mark, value) != 0)
		*value = wb_xstrdup("(unreadable)");
}

static int open_resources(struct run *R)
{
	char err[512];
	struct fenced_opts off = {.mode = FENCED_OFF};
	int rc = fenced_open(R->fenced_path, NULL, &R->res, err, sizeof err);
	if (rc == 0)
		rc = fenced_open(R->unfenced_path, &off, &R->ctl, err, sizeof err);
	if (rc)
		report_cannot(R->r, "%s", err);
	else
		setup_impl(R->impl, R->res);
	return rc;
}

static int connect_and_lock(struct run *R, const char *hosts, struct zkc **c, struct zklock **l,
			    const struct zklock_opts *o)
{
	int rc = zkc_open(hosts, ZKLAB_SESSION_MS, R->ctx->run_dir, c);
	if (rc == 0) {
		zklab_watch(R->z, *c);
		rc = zkc_wait_state(*c, ZOO_CONNECTED_STATE, ZKLAB_WAIT_MS, NULL);
	}
	if (rc && zklab_server_gone(R->z))
		return WB_EUNAVAIL;
	if (rc) {
		report_cannot(R->r, "cannot connect to %s: %s", hosts, wb_strerror(rc));
		return rc;
	}
	rc = zklock_new(zkc_handle(*c), R->lock_path, o, l);
	if (rc)
		report_cannot(R->r, "zklock_new: %s", wb_strerror(rc));
	return rc;
}

/* A, through the proxy, holds the lock; its business thread writes once
 * with A's token and pauses at a barrier. */
static int a_takes_the_lock(struct run *R)
{
	struct report *r = R->r;
	char h1[ZKC_HEX_LEN];
	int rc;
	const char *dom = R->lock_path;
	/* A: through the proxy; holds the lock. */
	R->ha = zkhold_new();
	struct zklock_opts oa = {.on_event = zkhold_on_event, .event_arg = R->ha};
	if ((rc = connect_and_lock(R, zkproxy_connect(R->p), &R->a, &R->la, &oa)))
		return rc;
	report_evidence(r, "session_timeout_ms", "%d", zkc_session_timeout(R->a));
	int op = report_invoke(r, "A", "acquire", NULL);
	rc = zklock_acquire(R->la, ZKLAB_WAIT_MS);
	report_complete(r, op, rc == 0 ? HIST_OK : HIST_FAIL, NULL);
	if (rc && zklab_server_gone(R->z))
		return WB_EUNAVAIL;
	if (!report_check(r, "a-holds-lock", rc == 0,
			  "A acquires the free lock (through the proxy)",
			  rc == 0 ? "held" : zklock_message(R->la)))
		return WB_EIO;
	R->token_a = zklock_token(R->la);
	int64_t sid_a = zkc_session_id(R->a);
	report_step(r, "A holds %s on session %s; its fencing token is its suffix: %" PRId64,
		    strrchr(zklock_own_path(R->la), '/') + 1, zkc_hex(sid_a, h1), R->token_a);

	/* A's business thread: writes once, then pauses. */
	R->wa.fenced_path = R->fenced_path;
	R->wa.unfenced_path = R->unfenced_path;
	R->wa.domain = dom;
	R->wa.token = R->token_a;
	R->wa.ops = &R->ops;
	if (pthread_create(&R->ta, NULL, worker_main, &R->wa) != 0) {
		report_cannot(r, "cannot start A's business thread");
		return WB_EUNAVAIL;
	}
	R->ta_started = 1;
	if (baton_wait(&R->wa.b, &R->wa.b.done, 1, ZKLAB_WAIT_MS) || R->wa.err[0]) {
		report_cannot(r, "A's business thread did not start: %s", R->wa.err);
		return WB_EUNAVAIL;
	}
	report_checkf(r, "a-first-write", R->wa.first.f.accepted && R->wa.first.u.accepted,
		      "A's write with its token is accepted by both resources",
		      "fenced %s (mark %" PRId64 "), unfenced %s",
		      verdict(&R->wa.first.f, R->wa.first.rc_f), R->wa.first.f.mark_after,
		      verdict(&R->wa.first.u, R->wa.first.rc_u));
	report_step(r, "A's business thread now waits at a barrier: a paused worker that still "
		       "believes it holds the lock and will not look again");
	return 0;
}

/* B, direct to the server, waits with its watch on A's candidate. */
static int b_watches_a(struct run *R)
{
	struct report *r = R->r;
	int rc;
	/* B: direct to the server; waits with its watch on A's candidate. */
	struct zklock_opts ob = {
		.hooks = {.arg = &R->wb, .watched = on_watched, .woken = on_woken}};
	if ((rc = connect_and_lock(R, R->z->connect, &R->b, &R->lb, &ob)))
		return rc;
	R->wb.l = R->lb;
	R->wb.r = r;
	if (pthread_create(&R->tb, NULL, waiter_main, &R->wb) != 0) {
		report_cannot(r, "cannot start B's thread");
		return WB_EUNAVAIL;
	}
	R->tb_started = 1;
	rc = baton_wait_z(&R->wb.b, &R->wb.b.done, 1, ZKLAB_WAIT_MS, R->z);
	if (rc && zklab_server_gone(R->z))
		return WB_EUNAVAIL;
	report_checkf(r, "b-watches-a", rc == 0 && !strcmp(R->wb.pred, zklock_own_path(R->la)),
		      "B waits with a watch on A's candidate, its predecessor", "%s",
		      rc == 0 ? strrchr(R->wb.pred, '/') + 1 : "B set no watch");
	if (rc)
		return WB_EIO;
	return 0;
}

/* The proxy holds A's traffic until the server expires A's session and
 * B holds the lock with a larger token. */
static int a_goes_silent(struct run *R)
{
	struct report *r = R->r;
	int rc;
	report_step(r, "the proxy now holds all of A's traffic: A's heartbeats stop reaching the "
		       "server. Nothing is closed and no expiry is forced");
	R->held_at = zkc_now_ms();
	/* A's session expiry ends A's hold, as ZooKeeper sees it: at the
	 * earliest now, at the latest when B hears of the delete. */
	R->op_a_expiry = report_invoke(r, "A", "release", "session expiry");
	report_mark(r, "A", "proxy holds all traffic");
	zkproxy_hold(R->p, ZKPROXY_BOTH);
	testhook_hold("lab-step");

	rc = baton_wait_z(&R->wb.b, &R->wb.b.done, 2, zkc_session_timeout(R->a) + 3 * ZKLAB_WAIT_MS,
			  R->z);
	if ((rc || R->wb.rc) && zklab_server_gone(R->z))
		return WB_EUNAVAIL;
	R->token_b = zklock_token(R->lb);
	struct zklock_stats sb = zklock_stats(R->lb);
	int b_ok = rc == 0 && R->wb.rc == 0;
	report_checkf(r, "b-notified-rechecks-holds",
		      b_ok && R->wb.woken_type == ZOO_DELETED_EVENT &&
			      !strcmp(R->wb.woken_path, R->wb.pred) && sb.lists >= 2,
		      "the server expires A's session and deletes its candidate; B gets the "
		      "delete notification, lists again and holds",
		      "%s; notification %s on %s; %u listings",
		      b_ok ? "held" : (rc ? "B still waiting" : zklock_message(R->lb)),
		      zkc_type_name(R->wb.woken_type),
		      R->wb.woken_path[0] ? strrchr(R->wb.woken_path, '/') + 1 : "-", sb.lists);
	if (R->wb.woken_type == ZOO_DELETED_EVENT)
		report_complete_at(r, R->op_a_expiry, HIST_OK, NULL, R->wb.woken_at * 1000000LL);
	if (R->wb.woken_at)
		report_mark(r, "B", "notified: %s", zkc_type_name(R->wb.woken_type));
	if (!b_ok)
		return WB_EIO;
	report_evidence(r, "a_candidate_deleted_after_ms", "%lld (of silence)",
			R->wb.woken_at - R->held_at);
	report_story_wait(r, (long)(R->wb.woken_at - R->held_at), "session-expiry");
	report_evidence(r, "a_handle_state_when_b_holds", "%s",
			zkc_state_name(zoo_state(zkc_handle(R->a))));
	report_checkf(r, "b-token-larger", R->token_b > R->token_a, "B's token is larger than A's",
		      "A %" PRId64 ", B %" PRId64, R->token_a, R->token_b);
	return 0;
}

/* The window: A's paused thread writes with its old token before and
 * after B's write reaches the resources. */
static int the_window(struct run *R)
{
	struct report *r = R->r;
	const char *dom = R->lock_path;
	int64_t mark;
	char *val = NULL;
	/* The window. */
	report_step(r, "the window: B holds the lock but its token has not reached the resource. "
		       "A's thread gets one write through now");
	baton_set(&R->wa.b, &R->wa.b.allowed, 2);
	if (baton_wait(&R->wa.b, &R->wa.b.done, 2, ZKLAB_WAIT_MS))
		return WB_EIO;
	report_checkf(r, "window-accepts-old-token",
		      R->wa.window.f.accepted && R->wa.window.f.mark_before == R->token_a,
		      "the fenced resource still accepts A's token: its mark is A's, it cannot "
		      "know ZooKeeper moved on",
		      "%s, mark %" PRId64, verdict(&R->wa.window.f, R->wa.window.rc_f),
		      R->wa.window.f.mark_before);

	struct both bw;
	write_both(&R->ops, "B", R->res, R->ctl, dom, R->token_b, "new-owner", &bw);
	report_checkf(r, "b-write-advances-mark",
		      bw.f.accepted && bw.u.accepted && bw.f.mark_after == R->token_b,
		      "B writes \"new-owner\" with its token; the fenced mark advances to it",
		      "fenced %s, mark %" PRId64 " -> %" PRId64 "; unfenced %s",
		      verdict(&bw.f, bw.rc_f), bw.f.mark_before, bw.f.mark_after,
		      verdict(&bw.u, bw.rc_u));

	report_step(r, "A's thread resumes and writes \"stale-late\" with token %" PRId64,
		    R->token_a);
	baton_set(&R->wa.b, &R->wa.b.allowed, 3);
	if (baton_wait(&R->wa.b, &R->wa.b.done, 3, ZKLAB_WAIT_MS))
		return WB_EIO;
	pthread_join(R->ta, NULL);
	R->ta_started = 0;

	read_state(R->ctl, dom, &mark, &val);
	report_checkf(r, "unfenced-control-fails",
		      R->wa.late.u.accepted && !strcmp(val, "stale-late"),
		      "the control fails: the unfenced resource accepts A's late write; final "
		      "value stale-late",
		      "%s; final value %s", verdict(&R->wa.late.u, R->wa.late.rc_u), val);
	free(val);
	read_state(R->res, dom, &mark, &val);
	report_checkf(r, "fenced-rejects-stale",
		      !R->wa.late.f.accepted && R->wa.late.rc_f == 0 && !strcmp(val, "new-owner") &&
			      mark == R->token_b,
		      "the fenced resource rejects token A < mark B; final value new-owner",
		      "%s (%" PRId64 " < %" PRId64 "); final value %s, mark %" PRId64,
		      verdict(&R->wa.late.f, R->wa.late.rc_f), R->token_a, R->wa.late.f.mark_before,
		      val, mark);
	free(val);
	return 0;
}

/* Durability: the fenced mark survives closing and reopening; an equal
 * token is accepted. */
static int mark_survives_reopen(struct run *R)
{
	struct report *r = R->r;
	const char *dom = R->lock_path;
	int64_t mark;
	char *val = NULL;
	int rc;
	/* Durability: close, reopen, A is still refused. */
	report_step(r, "the fenced database is closed and opened again");
	fenced_free(R->res);
	fenced_free(R->ctl);
	R->res = R->ctl = NULL;
	if ((rc = open_resources(R)))
		return rc;
	struct fenced_result again;
	rc = write_one(&R->ops, R->ops.fenced, &R->ops.n_fenced, "A", R->res, dom, R->token_a,
		       "stale-after-reopen", &again);
	read_state(R->res, dom, &mark, &val);
	report_checkf(r, "mark-survives-reopen",
		      rc == 0 && !again.accepted && mark == R->token_b && !strcmp(val, "new-owner"),
		      "after reopening, the stored mark still rejects A's token",
		      "%s; mark %" PRId64 ", value %s", verdict(&again, rc), mark, val);
	free(val);

	struct fenced_result eq;
	rc = write_one(&R->ops, R->ops.fenced, &R->ops.n_fenced, "B", R->res, dom, R->token_b,
		       "new-owner-2", &eq);
	report_checkf(r, "equal-token-accepted",
		      rc == 0 && eq.accepted && eq.mark_after == R->token_b,
		      "B writes again with the same token: accepted, mark unchanged",
		      "%s, mark %" PRId64 " -> %" PRId64, verdict(&eq, rc), eq.mark_before,
		      eq.mark_after);
	return 0;
}

/* C, the next real holder, writes with a larger token. */
static int larger_token_advances(struct run *R)
{
	struct report *r = R->r;
	const char *dom = R->lock_path;
	int rc;
	/* A larger token from the next real holder. */
	int op = report_invoke(r, "B", "release", NULL);
	rc = zklock_release(R->lb);
	report_complete(r, op, rc == 0 ? HIST_OK : HIST_INFO, NULL);
	if ((rc = connect_and_lock(R, R->z->connect, &R->c, &R->lc, NULL)))
		return rc;
	op = report_invoke(r, "C", "acquire", NULL);
	rc = zklock_acquire(R->lc, ZKLAB_WAIT_MS);
	report_complete(r, op, rc == 0 ? HIST_OK : HIST_FAIL, NULL);
	if (rc && zklab_server_gone(R->z))
		return WB_EUNAVAIL;
	int64_t tc = zklock_token(R->lc);
	R->token_c = tc;
	struct fenced_result up = {0};
	int wrc = rc == 0 ? write_one(&R->ops, R->ops.fenced, &R->ops.n_fenced, "C", R->res, dom,
				      tc, "third-owner", &up)
			  : rc;
	report_checkf(
		r, "larger-token-advances",
		rc == 0 && wrc == 0 && up.accepted && up.mark_after == tc && tc > R->token_b,
		"after B releases, C holds a larger token; its write is accepted and the mark "
		"advances",
		"C token %" PRId64 ": %s, mark %" PRId64 " -> %" PRId64, tc,
		wrc ? wb_strerror(wrc) : verdict(&up, 0), wrc ? -1 : up.mark_before,
		wrc ? -1 : up.mark_after);
	return 0;
}

/* C's write, from the before-transaction hook of B's late write. */
struct between {
	struct fenced *c; /* C's own connection */
	int64_t token;
	int done, rc;
	struct fenced_result res;
};

static void c_writes(void *arg, struct fenced *f, const char *domain, int64_t token)
{
	(void)f;
	(void)token;
	struct between *x = arg;
	if (x->done++)
		return;
	x->rc = fenced_write(x->c, domain, x->token, "c-in-between", &x->res);
}

/* B still has a write in flight after releasing: it starts while B's
 * token is the mark, and C's write lands before it. */
static int interleaved_write(struct run *R)
{
	struct report *r = R->r;
	char err[512];
	struct between x = {.token = R->token_c};
	char *dom = wb_xasprintf("%s/interleave", R->lock_path);
	struct fenced_result first = {0}, late = {0};
	int64_t mark = -1;
	char *val = NULL;
	int rc = fenced_open(R->fenced_path, NULL, &x.c, err, sizeof err);
	if (rc) {
		report_cannot(r, "%s", err);
		goto out;
	}
	setup_impl(R->impl, x.c);
	report_step(r, "forced interleaving on a second domain: B's write is accepted (the mark "
		       "is B's), then B, which has released the lock, sends one more write; "
		       "after it starts and before it reaches the database, C writes with its "
		       "larger token (the recipe's hook)");
	int frc = fenced_write(R->res, dom, R->token_b, "b-first", &first);
	fenced_set_before_hook(R->res, c_writes, &x);
	int lrc = fenced_write(R->res, dom, R->token_b, "b-late", &late);
	fenced_set_before_hook(R->res, NULL, NULL);
	read_state(R->res, dom, &mark, &val);
	report_checkf(
		r, "interleaved-stale-rejected",
		frc == 0 && first.accepted && lrc == 0 && x.done && x.rc == 0 && x.res.accepted &&
			!late.accepted && mark == R->token_c && !strcmp(val, "c-in-between"),
		"C's write is accepted in between; B's late write is rejected; final value "
		"c-in-between, mark C's token",
		"B first %s; C %s; B late %s; final value %s, mark %" PRId64, verdict(&first, frc),
		x.done ? verdict(&x.res, x.rc) : "did not write", verdict(&late, lrc), val, mark);
	free(val);
out:
	fenced_free(x.c);
	free(dom);
	return rc;
}

/* What A itself learned, and when (evidence only). */
static void what_a_learned(struct run *R)
{
	struct report *r = R->r;
	/* What A itself learned, and when. */
	zkproxy_release(R->p);
	struct zkc_event exp;
	if (zkc_wait_state(R->a, ZOO_EXPIRED_SESSION_STATE, ZKLAB_WAIT_MS, &exp) == 0)
		report_evidence(r, "a_learned_expired_after_b_notified_ms", "%lld",
				exp.at_ms - R->wb.woken_at);
	long long lost_at, susp_at;
	if (zkhold_wait(R->ha, ZKLOCK_EV_SUSPENDED, 0, &susp_at, NULL, 0) == 0)
		report_evidence(r, "a_recipe_said_suspended_after_hold_ms",
				"%lld (A's paused "
				"thread did not look)",
				susp_at - R->held_at);
	if (zkhold_wait(R->ha, ZKLOCK_EV_LOST, 0, &lost_at, NULL, 0) == 0)
		report_evidence(r, "a_recipe_said_lost_vs_b_notified_ms", "%+lld",
				lost_at - R->wb.woken_at);
	report_step(r, "ZooKeeper did everything right and could not stop A's late write; the "
		       "resource could, from the moment it accepted B's token, and not before");
}

/* The history through the checkers: the lock as ZooKeeper saw it, then
 * each resource's accepted writes in token order (the control must fail). */
static void check_history(struct run *R)
{
	struct report *r = R->r;
	struct hist_result res;
	int crc = mutex_check(report_history(r), &res);
	if (crc)
		report_checker_error(&res, crc);
	report_checker(r, "lock-history-mutual-exclusion", &res, HIST_VALID);
	struct history h;
	if (report_history_subset(r, R->ops.fenced, (size_t)R->ops.n_fenced, &h) == 0) {
		crc = mutex_check_tokens(&h, &res);
		if (crc)
			report_checker_error(&res, crc);
		report_checker(r, "fenced-history-token-order", &res, HIST_VALID);
		free(h.ops);
	}
	if (report_history_subset(r, R->ops.unfenced, (size_t)R->ops.n_unfenced, &h) == 0) {
		crc = mutex_check_tokens(&h, &res);
		if (crc)
			report_checker_error(&res, crc);
		report_checker(r, "control-unfenced-history-out-of-order", &res, HIST_INVALID);
		free(h.ops);
	}
}

/* The scenario, in order; stops at the first step that cannot go on. */
static int scenario(struct run *R)
{
	int rc = a_takes_the_lock(R);
	if (!rc)
		rc = b_watches_a(R);
	if (!rc)
		rc = a_goes_silent(R);
	if (!rc)
		rc = the_window(R);
	if (!rc)
		rc = mark_survives_reopen(R);
	if (!rc)
		rc = larger_token_advances(R);
	if (!rc)
		rc = interleaved_write(R);
	if (!rc)
		what_a_learned(R);
	if (!rc)
		check_history(R);
	return rc;
}

int zk_fencing_scenario(struct lab_ctx *ctx, const struct fenced_impl *impl)
{
	struct run R = {.ctx = ctx,
			.r = ctx->report,
			.impl = impl,
			.ops = {.r = ctx->report},
			.op_a_expiry = -1};
	R.wa.impl = impl;
	baton_init(&R.wa.b);
	baton_init(&R.wb.b);
	int rc = zklab_open(ctx, &R.z);
	if (rc)
		goto out;
	rc = zkproxy_new(R.z->connect, &R.p);
	if (rc) {
		report_cannot(R.r, "cannot start the fault proxy: %s", wb_strerror(rc));
		goto out;
	}
	R.lock_path = wb_xasprintf("%s/lock", R.z->base);
	R.fenced_path = wb_xasprintf("%s/resource-fenced.db", ctx->run_dir);
	R.unfenced_path = wb_xasprintf("%s/resource-unfenced.db", ctx->run_dir);
	report_step(R.r,
		    "two SQLite resources in the run directory, one fenced (mark and data in "
		    "one row, compare and write in one transaction) and one unfenced; lock "
		    "domain %s",
		    R.lock_path);
	if ((rc = open_resources(&R)))
		goto out;
	rc = scenario(&R);
out:
	/* Release every barrier so no thread is left waiting, then join. */
	baton_set(&R.wa.b, &R.wa.b.allowed, 3);
	if (R.ta_started)
		pthread_join(R.ta, NULL);
	if (R.tb_started) {
		if (R.lb)
			zklock_cancel(R.lb);
		pthread_join(R.tb, NULL);
	}
	if (R.p)
		zkproxy_report(R.p, R.r, 0);
	zklock_free(R.la);
	zklock_free(R.lb);
	zklock_free(R.lc);
	zkc_close(R.a);
	zkc_close(R.b);
	zkc_close(R.c);
	zkproxy_free(R.p);
	zkhold_free(R.ha);
	fenced_free(R.res);
	fenced_free(R.ctl);
	baton_destroy(&R.wa.b);
	baton_destroy(&R.wb.b);
	free(R.lock_path);
	free(R.fenced_path);
	free(R.unfenced_path);
	zklab_close(R.z);
	return rc;
}

/* The entry point registered as lab_zk_fencing in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"ZooKeeper did everything right and still could not stop A's late write: the "
		"unfenced resource accepted it. The fenced resource, which keeps the largest "
		"token it has accepted (even across a reopen), rejected A's old token once it "
		"had accepted B's.");
	return lab_outcome_of(ctx, zk_fencing_scenario(ctx, NULL));
}

const lab_run_fn lab_zk_fencing = lab_main;
