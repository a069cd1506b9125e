/*
 * zk-cas-update.c - the check of the exercise zk-cas-update: the learner's
 * counter_add (exercises/zk-cas-update/api.h) under the interleaving the
 * lab zk-cas narrates, forced instead of told.
 *
 *   The counter holds "40".  Client A reaches the server through the fault
 *   proxy (harness/zk/zkproxy.h), which holds every reply to A.  A runs
 *   counter_add(+1): the server answers its read (the proxy says so), the
 *   answer waits in the proxy.  Meanwhile client B, direct, runs
 *   counter_add(+2) to the end: "42", version 1.  Then the proxy lets A's
 *   answer through: A computes from "40" at version 0.  A conditional
 *   write is refused (ZBADVERSION); a correct counter_add reads again and
 *   stores "43".  Version -1 stores "41": B's update is lost and nobody is
 *   told; no retry reports A's update failed and the counter ends short.
 *
 * The hold is the barrier: no sleep decides the order.  It needs its own
 * server (the proxy sits in front of it), so it cannot run against --zk.
 * It does not show the lab's version arithmetic (the lab does).
 */
#include "base/wb.h"
#include "exercise.h"
#include "exzk.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "harness/zk/zkproxy.h"
#include "lab.h"
#include "rigs/exthread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define START 40 /* the counter's first value */

struct cas_counter {
	zhandle_t *zh;
	const char *path;
}; /* exercises/zk-cas-update/api.h, field for field */
typedef int (*counter_add_fn)(const struct cas_counter *c, long delta, long *new_value);

/* One updater: a call of the learner's function on its own thread.  Heap
 * allocated: a call that never returns keeps it (exthread.h). */
struct updater {
	counter_add_fn add;
	struct cas_counter c;
	long delta;
	long value; /* what the learner reported */
	int zrc;    /* what it returned */
	struct exthread t;
};

static void updater_main(void *arg)
{
	struct updater *u = arg;
	u->value = -1;
	u->zrc = u->add(&u->c, u->delta, &u->value);
}

struct cas_ex {
	struct report *r;
	struct zklab *z;
	struct zkproxy *p;
	struct zkc *a, *b; /* A through the proxy, B direct */
	char *path;
	struct updater *ua, *ub;
	int a_leaked, b_leaked;
};

/* The servers, the proxy, the two clients and the counter at START. */
static int cas_open(struct cas_ex *x, struct lab_ctx *ctx)
{
	struct report *r = x->r;
	int rc = exzk_open_proxied(ctx, ZKLAB_CLIENT_SESSION_MS, &x->z, &x->p, &x->a);
	if (rc)
		return rc;
	if ((rc = zklab_client(x->z, &x->b)) != 0)
		return rc;
	x->path = wb_xasprintf("%s/counter", x->z->base);
	char text[16];
	int n = snprintf(text, sizeof text, "%d", START);
	int zrc = zoo_create(zkc_handle(x->b), x->path, text, n, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	if (zrc != ZOK) {
		report_cannot(r, "cannot create %s: %s", x->path, zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	report_step(r, "created %s with \"%d\"; A connects through the fault proxy, B directly",
		    x->path, START);
	return 0;
}

static struct updater *updater_new(counter_add_fn add, struct zkc *c, const char *path, long delta)
{
	struct updater *u = wb_xcalloc(1, sizeof *u);
	u->add = add;
	u->c.zh = zkc_handle(c);
	u->c.path = path;
	u->delta = delta;
	u->zrc = ZOK;
	return u;
}

/* Waits for the proxy to hold a reply to a request of A's (a positive
 * xid: not a ping).  1 when it did within the deadline. */
static int wait_held_reply(struct zkproxy *p, struct exthread *a, struct zkproxy_event *ev)
{
	long long until = zkc_now_ms() + ZKLAB_WAIT_MS;
	while (zkc_now_ms() < until) {
		/* In slices, so a counter_add that returned at once ends the
		 * wait early. */
		if (zkproxy_wait(p, ZKPROXY_EV_HELD, 200, ev) != 0) {
			if (exthread_done(a))
				return zkproxy_wait(p, ZKPROXY_EV_HELD, 0, ev) == 0 &&
				       ev->dir == ZKPROXY_S2C && ev->xid > 0;
			continue;
		}
		if (ev->dir == ZKPROXY_S2C && ev->xid > 0)
			return 1;
	}
	return 0;
}

/* A's read is answered and held; B updates to the end; A's answer goes
 * through.  0, or a WB code after report_cannot. */
static int interleave(struct cas_ex *x, counter_add_fn add)
{
	struct report *r = x->r;
	struct zkproxy_event ev;
	report_step(r, "the proxy holds every reply to A; A calls counter_add(+1)");
	zkproxy_hold(x->p, ZKPROXY_S2C);
	x->ua = updater_new(add, x->a, x->path, 1);
	if (exthread_start(&x->ua->t, updater_main, x->ua) != 0) {
		report_cannot(r, "cannot start a thread");
		return WB_EIO;
	}
	int held = wait_held_reply(x->p, &x->ua->t, &ev);
	if (!report_checkf(r, "a-read-answered", held,
			   "the server answered A's read; the reply is held", "%s",
			   held ? ev.text
			   : exthread_done(&x->ua->t)
				   ? "counter_add returned without asking the server"
				   : "no request from A within the deadline")) {
		zkproxy_release(x->p);
		return 0;
	}
	report_step(r, "B calls counter_add(+2) while A's answer waits in the proxy");
	x->ub = updater_new(add, x->b, x->path, 2);
	if (exthread_start(&x->ub->t, updater_main, x->ub) != 0) {
		zkproxy_release(x->p);
		report_cannot(r, "cannot start a thread");
		return WB_EIO;
	}
	int b_done = exthread_wait(&x->ub->t, ZKLAB_WAIT_MS) == 0;
	report_checkf(r, "b-update-stored",
		      b_done && x->ub->zrc == ZOK && x->ub->value == START + 2, "ZOK, new value 42",
		      "%s%s, new value %ld",
		      b_done ? "" : "still running: ", zkc_err_name(x->ub->zrc), x->ub->value);
	report_step(r, "the proxy lets A's answer through: A computes from the value it read");
	zkproxy_release(x->p);
	int a_done = exthread_wait(&x->ua->t, ZKLAB_WAIT_MS) == 0;
	report_checkf(r, "both-updates-stored",
		      a_done && b_done && x->ua->zrc == ZOK && x->ub->zrc == ZOK,
		      "ZOK from A and from B", "A: %s%s, B: %s%s", a_done ? "" : "still running ",
		      zkc_err_name(x->ua->zrc), b_done ? "" : "still running ",
		      zkc_err_name(x->ub->zrc));
	return 0;
}

/* The counter as the server has it: both deltas, or a lost update. */
static void judge(struct cas_ex *x)
{
	struct report *r = x->r;
	char buf[32];
	int len = sizeof buf - 1;
	struct Stat st;
	int zrc = zoo_get(zkc_handle(x->b), x->path, 0, buf, &len, &st);
	buf[zrc == ZOK && len > 0 ? len : 0] = '\0';
	long v = strtol(buf, NULL, 10);
	report_checkf(r, "no-lost-update", zrc == ZOK && v == START + 3,
		      "\"43\": 40 + 1 + 2, neither update lost", "\"%s\" (version %d)", buf,
		      zrc == ZOK ? st.version : -1);
	report_checkf(r, "a-reports-final-value",
		      exthread_done(&x->ua->t) && x->ua->value == START + 3,
		      "A's counter_add reports 43 (it read B's 42 again)", "%ld", x->ua->value);
	report_evidence(r, "versions", "final version %d", zrc == ZOK ? st.version : -1);
}

static int cas_check_run(struct lab_ctx *ctx, const struct ex_code *code)
{
	struct cas_ex x = {.r = ctx->report};
	counter_add_fn add;
	*(void **)&add = exzk_sym(x.r, code, "counter_add", N_("counter_add defined"));
	if (!add)
		return 0;
	int rc = cas_open(&x, ctx);
	if (!rc)
		rc = interleave(&x, add);
	if (!rc && x.ua && x.ub && exthread_done(&x.ua->t))
		judge(&x);
	if (x.p)
		zkproxy_report(x.p, x.r, 0);
	x.a_leaked = x.ua && exthread_end(&x.ua->t);
	x.b_leaked = x.ub && exthread_end(&x.ub->t);
	if (!x.a_leaked) {
		zkc_close(x.a);
		free(x.ua);
	}
	if (!x.b_leaked) {
		zkc_close(x.b);
		free(x.ub);
	}
	if (!x.a_leaked && !x.b_leaked) {
		zkproxy_free(x.p);
		zklab_close(x.z);
	}
	if (!x.a_leaked && !x.b_leaked)
		free(x.path); /* else a learner's thread may still read it */
	return rc;
}

static enum lab_outcome ex_main(struct lab_ctx *ctx, const struct ex_code *code)
{
	report_conclusion(ctx->report,
			  "Your counter_add wrote with the version it had read, was refused when "
			  "B had written in between, read again and stored 43: no update lost.");
	return lab_outcome_of(ctx, cas_check_run(ctx, code));
}

const ex_check_fn ex_zk_cas_update = ex_main;
