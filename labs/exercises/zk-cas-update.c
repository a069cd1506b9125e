/*
 * zk-cas-update.c - the check of the exercise zk-cas-update: the learner's
 * counter_add (exercises/zk-cas-update/api.h) judged by the task's rules
 * on a real ZooKeeper, then in the interleaving the lab zk-cas narrates,
 * forced instead of told (the story).
 *
 * Rules (spec.h), each situation on a counter node of its own under the
 * run's base path, client A (the learner's handle) reaching the server
 * through the fault proxy (harness/zk/zkproxy.h), client B direct:
 *   adds-delta: alone, +1 from "40", -5 from "7", +1 from "9000000000",
 *     +1 from "010" (decimal: 11).
 *   errors-returned: a missing counter (ZNONODE), a read-only one and a
 *     write-only one (ZNOAUTH) are answered with their error within ERR_MS, nothing
 *     created or written; a call still running then is let go by the
 *     check (the node created, the ACL opened) and fails the rule.
 *   no-lost-update and retries-after-conflict: the proxy holds A's
 *     replies, A reads "40", B writes "42" with its version in between,
 *     then A's answer goes through; the counter must end 43 (40 + 2 + 1
 *     when A says ZOK) and A report ZOK with the counter's value.
 *   lost-reply-applied-once: the proxy lets A's setData through and drops
 *     its reply (zkproxy_arm_drop_set): the write is applied, A sees
 *     ZCONNECTIONLOSS; the counter must hold the delta once, and A answer
 *     ZCONNECTIONLOSS, or ZOK with that value (a learner that checked).
 *     A retry that reads again and adds again applies it twice.
 * Every wait is for an event (a held reply, a dropped reply, the thread's
 * return, the session's next handshake), never a sleep.
 *
 * The story (unchanged): the counter holds "40".  A runs counter_add(+1):
 * the server answers its read, the answer waits in the proxy.  B runs
 * counter_add(+2) to the end: "42".  Then the proxy lets A's answer
 * through: a correct counter_add is refused (ZBADVERSION), reads again
 * and stores "43".
 *
 * It needs its own server (the proxy sits in front of it), so it cannot
 * run against --zk.
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
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define START  40   /* the counter's first value */
#define ERR_MS 2000 /* how long an error may take to come back */

enum { R_ADDS, R_ERRORS, R_LOST, R_RETRIES, R_ONCE, R_COUNT };

static const struct spec_rule rules[] = {
	{"adds-delta",
	 N_("alone, counter_add stores the old value plus delta and returns ZOK with it in "
	    "*new_value")},
	{"errors-returned",
	 N_("a missing counter gives ZNONODE, a read-only or unreadable one ZNOAUTH, at once (no "
	    "endless retry), nothing created or written")},
	{"concurrent-write-kept",
	 N_("a write by another client between the read and the write is kept: the counter "
	    "ends 40 + 2 + 1 (or 40 + 2 when counter_add reports an error)")},
	{"retries-after-conflict",
	 N_("refused with ZBADVERSION, counter_add reads again and stores: ZOK, and *new_value "
	    "is the value the counter then holds")},
	{"lost-reply-applied-once",
	 N_("when the write's reply is lost, the delta is applied once: ZCONNECTIONLOSS, or ZOK "
	    "with the counter's value")},
};

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
	struct spec sp;
	int nsit;  /* situations staged: their node names */
	int stuck; /* a learner's call never returned: A is no longer usable */
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

/* --- the rules --------------------------------------------------------- */

/* A node of its own for one situation, holding text with acl (text NULL:
 * none is created).  Returns its path (caller frees) or NULL after
 * report_cannot. */
static char *sit_node(struct cas_ex *x, const char *text, struct ACL_vector *acl)
{
	char *path = wb_xasprintf("%s/s%d", x->z->base, x->nsit++);
	if (!text)
		return path;
	int zrc = zoo_create(zkc_handle(x->b), path, text, (int)strlen(text), acl, 0, NULL, 0);
	if (zrc != ZOK) {
		report_cannot(x->r, "cannot create %s: %s", path, zkc_err_name(zrc));
		free(path);
		return NULL;
	}
	return path;
}

/* The node's text as B reads it, or the error's name. */
static void node_text(struct cas_ex *x, const char *path, char *buf, int size)
{
	int len = size - 1;
	int zrc = zoo_get(zkc_handle(x->b), path, 0, buf, &len, NULL);
	if (zrc != ZOK)
		snprintf(buf, (size_t)size, "(%s)", zkc_err_name(zrc));
	else
		buf[len > 0 ? len : 0] = '\0';
}

/* Starts counter_add(delta) on A's handle.  NULL after report_cannot. */
static struct updater *start_a(struct cas_ex *x, counter_add_fn add, const char *path, long delta)
{
	struct updater *u = updater_new(add, x->a, path, delta);
	if (exthread_start(&u->t, updater_main, u) != 0) {
		report_cannot(x->r, "cannot start a thread");
		free(u);
		return NULL;
	}
	return u;
}

/* Ends a call: joined and freed with its path, or (never returned) both
 * kept, since the thread may still read them, and A marked unusable. */
static void end_a(struct cas_ex *x, struct updater *u, char *path)
{
	if (exthread_end(&u->t)) {
		x->stuck = 1;
		return;
	}
	free(u);
	free(path);
}

static int adds(struct cas_ex *x, counter_add_fn add)
{
	static const struct {
		const char *from, *want;
		long delta;
	} cases[] = {{"40", "41", 1},
		     {"7", "2", -5},
		     {"9000000000", "9000000001", 1},
		     {"010", "11", 1}}; /* decimal text: 010 is ten */
	for (size_t k = 0; k < sizeof cases / sizeof cases[0] && !x->stuck; k++) {
		char *path = sit_node(x, cases[k].from, &ZOO_OPEN_ACL_UNSAFE);
		struct updater *u = path ? start_a(x, add, path, cases[k].delta) : NULL;
		if (!u) {
			free(path);
			return WB_EIO;
		}
		int done = exthread_wait(&u->t, ZKLAB_WAIT_MS) == 0;
		char now[64], sit[96], got[32];
		node_text(x, path, now, sizeof now);
		snprintf(sit, sizeof sit, "alone, %+ld from \"%s\"", cases[k].delta, cases[k].from);
		snprintf(got, sizeof got, "%ld", u->value);
		spec_judge(&x->sp, rules[R_ADDS].id, sit,
			   done && u->zrc == ZOK && !strcmp(got, cases[k].want) &&
				   !strcmp(now, cases[k].want),
			   "%s%s, *new_value %ld, counter \"%s\" (want ZOK, %s, \"%s\")",
			   done ? "" : "still running: ", zkc_err_name(u->zrc), u->value, now,
			   cases[k].want, cases[k].want);
		end_a(x, u, path);
	}
	return 0;
}

/* A missing counter (kind 0), a read-only one (1) or one that may be
 * written but not read (2): the error at once, nothing created or
 * written.  A call still running after ERR_MS is let go (the node
 * created, or its ACL opened) so it can return. */
static int errors(struct cas_ex *x, counter_add_fn add, int kind)
{
	struct ACL ro_acl[] = {{ZOO_PERM_READ | ZOO_PERM_ADMIN, {"world", "anyone"}}};
	struct ACL wo_acl[] = {{ZOO_PERM_WRITE | ZOO_PERM_ADMIN, {"world", "anyone"}}};
	struct ACL_vector ro = {1, ro_acl}, wo = {1, wo_acl};
	int readonly = kind != 0;
	char *path = sit_node(x, readonly ? "40" : NULL, kind == 2 ? &wo : &ro);
	struct updater *u = path ? start_a(x, add, path, 1) : NULL;
	if (!u) {
		free(path);
		return WB_EIO;
	}
	int in_time = exthread_wait(&u->t, ERR_MS) == 0;
	if (kind == 2) /* B reads what is there now */
		zoo_set_acl(zkc_handle(x->b), path, -1, &ZOO_OPEN_ACL_UNSAFE);
	if (!in_time) {
		if (readonly)
			zoo_set_acl(zkc_handle(x->b), path, -1, &ZOO_OPEN_ACL_UNSAFE);
		else
			zoo_create(zkc_handle(x->b), path, "0", 1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL,
				   0);
		exthread_wait(&u->t, ZKLAB_WAIT_MS);
	}
	char now[64];
	node_text(x, path, now, sizeof now);
	int want = readonly ? ZNOAUTH : ZNONODE;
	int kept = readonly ? !strcmp(now, "40") : !strcmp(now, "(ZNONODE)");
	spec_judge(&x->sp, rules[R_ERRORS].id,
		   kind == 2  ? "an unreadable counter (ACL world:anyone write)"
		   : readonly ? "a read-only counter (ACL world:anyone read)"
			      : "no counter node",
		   in_time && u->zrc == want && kept,
		   "%s%s, counter %s (want %s within %d ms, counter %s)",
		   in_time ? "" : "no answer within the time, then ", zkc_err_name(u->zrc), now,
		   zkc_err_name(want), ERR_MS, readonly ? "\"40\"" : "still missing");
	end_a(x, u, path);
	return 0;
}

/* The proxy holds A's answer to its read while B writes "42". */
static int conflict(struct cas_ex *x, counter_add_fn add)
{
	char *path = sit_node(x, "40", &ZOO_OPEN_ACL_UNSAFE);
	if (!path)
		return WB_EIO;
	zkproxy_hold(x->p, ZKPROXY_S2C);
	struct updater *u = start_a(x, add, path, 1);
	if (!u) {
		zkproxy_release(x->p);
		free(path);
		return WB_EIO;
	}
	struct zkproxy_event ev;
	int held = wait_held_reply(x->p, &u->t, &ev);
	int bz = ZOK;
	if (held) {
		char buf[32];
		int len = sizeof buf - 1;
		struct Stat st;
		bz = zoo_get(zkc_handle(x->b), path, 0, buf, &len, &st);
		if (bz == ZOK)
			bz = zoo_set(zkc_handle(x->b), path, "42", 2, st.version);
	}
	zkproxy_release(x->p);
	if (bz != ZOK) {
		report_cannot(x->r, "B cannot write %s: %s", path, zkc_err_name(bz));
		exthread_wait(&u->t, ZKLAB_WAIT_MS);
		end_a(x, u, path);
		return zkc_to_wb(bz);
	}
	int done = exthread_wait(&u->t, ZKLAB_WAIT_MS) == 0;
	char now[64];
	node_text(x, path, now, sizeof now);
	long final = strtol(now, NULL, 10);
	const char *sit = "B writes \"42\" between A's read and A's write";
	if (!held) {
		spec_judge(&x->sp, rules[R_LOST].id, sit, 0,
			   "counter_add %s without reading the counter",
			   done ? "returned" : "waited");
		spec_judge(&x->sp, rules[R_RETRIES].id, sit, 0,
			   "counter_add %s without reading the counter",
			   done ? "returned" : "waited");
	} else {
		long want = u->zrc == ZOK ? START + 3 : START + 2;
		spec_judge(&x->sp, rules[R_LOST].id, sit, done && final == want,
			   "A: %s%s, counter \"%s\" (want \"%ld\")",
			   done ? "" : "still running: ", zkc_err_name(u->zrc), now, want);
		spec_judge(&x->sp, rules[R_RETRIES].id, sit,
			   done && u->zrc == ZOK && u->value == final,
			   "A: %s%s, *new_value %ld, counter \"%s\" (want ZOK and the counter's "
			   "value)",
			   done ? "" : "still running: ", zkc_err_name(u->zrc), u->value, now);
	}
	end_a(x, u, path);
	return 0;
}

/* The reply to A's setData is dropped: the write is applied. */
static int lost_reply(struct cas_ex *x, counter_add_fn add)
{
	char *path = sit_node(x, "40", &ZOO_OPEN_ACL_UNSAFE);
	if (!path)
		return WB_EIO;
	zkproxy_arm_drop_set(x->p, path);
	struct updater *u = start_a(x, add, path, 1);
	if (!u) {
		free(path);
		return WB_EIO;
	}
	int done = exthread_wait(&u->t, ZKLAB_WAIT_MS) == 0;
	zkproxy_disarm(x->p);
	struct zkproxy_event ev;
	size_t n = zkproxy_event_count(x->p);
	int dropped = 0;
	for (size_t i = 0; i < n; i++)
		if (zkproxy_event_get(x->p, i, &ev) == 0 && ev.kind == ZKPROXY_EV_DROPPED)
			dropped = 1;
	char now[64];
	node_text(x, path, now, sizeof now);
	const char *sit = "the reply to A's write is lost (the write was applied)";
	if (!dropped)
		spec_judge(&x->sp, rules[R_ONCE].id, sit, 0,
			   "no conditional write of the counter reached the server: %s, counter "
			   "\"%s\"",
			   zkc_err_name(u->zrc), now);
	else
		spec_judge(&x->sp, rules[R_ONCE].id, sit,
			   done && !strcmp(now, "41") && (u->zrc != ZOK || u->value == START + 1),
			   "A: %s%s, *new_value %ld, counter \"%s\" (want \"41\": an error such as "
			   "ZCONNECTIONLOSS, or ZOK and 41)",
			   done ? "" : "still running: ", zkc_err_name(u->zrc), u->value, now);
	end_a(x, u, path);
	/* A's session comes back through the proxy for the story. */
	if (dropped && zkproxy_wait(x->p, ZKPROXY_EV_SESSION, ZKLAB_WAIT_MS, NULL) != 0) {
		report_cannot(x->r, "client A did not reconnect after the lost reply");
		return WB_EBUSY;
	}
	return 0;
}

static int judge_rules(struct cas_ex *x, struct lab_ctx *ctx, const struct ex_code *code,
		       counter_add_fn add)
{
	spec_init(&x->sp, ctx, code, rules, R_COUNT);
	report_step(x->r, "The rules: counter_add in 9 situations, each on a counter of its own");
	int rc = adds(x, add);
	if (!rc && !x->stuck)
		rc = errors(x, add, 0);
	if (!rc && !x->stuck)
		rc = errors(x, add, 1);
	if (!rc && !x->stuck)
		rc = errors(x, add, 2);
	if (!rc && !x->stuck)
		rc = conflict(x, add);
	if (!rc && !x->stuck)
		rc = lost_reply(x, add);
	if (!rc)
		spec_finish(&x->sp);
	return rc;
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
		rc = judge_rules(&x, ctx, code, add);
	if (!rc && !x.stuck) {
		report_step(x.r, "The story: the zk-cas lab's interleaving with your counter_add");
		rc = interleave(&x, add);
	}
	if (!rc && x.ua && x.ub && exthread_done(&x.ua->t))
		judge(&x);
	if (x.p)
		zkproxy_report(x.p, x.r, 0);
	x.a_leaked = x.stuck || (x.ua && exthread_end(&x.ua->t));
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
