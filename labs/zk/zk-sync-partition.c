/*
 * zk-sync-partition.c - the lab "zk-sync-partition": ZOOKEEPER-1675 on a
 * real five-server ensemble.  During a partition two servers both believe
 * they lead; a client whose server still follows the old leader completes
 * sync and then reads data older than a write that has already completed
 * on the new majority (chapter 02, "ZOOKEEPER-1675: a counterexample
 * window").
 *
 *   Set-up: harness/zkensemble.h starts five servers whose follower ->
 *   leader quorum links and leader election links each run through a
 *   relay (harness/tcphold.h).  The old leader L and one follower O form
 *   the old side; the three other servers are the new side.  R is a
 *   session on O.
 *
 *   The partition is asymmetric on purpose: the relays that carry the new
 *   side's links to L are severed - the followers' ends close at once, so
 *   they elect a new leader within about a second, while L's ends stay open
 *   and silent, so L notices nothing until syncLimit x tickTime has passed
 *   without acknowledgements (8 s here).  (A symmetric cut would close L's
 *   learner connections too and L would give up within a tick: no
 *   window.)  The relays also refuse new connections to L, and the
 *   election links between the sides are held, so the new side elects
 *   among itself without hearing L and O claim that L still leads.
 *
 *   In the window: the new leader and L both report Mode leader.  W, on
 *   the new leader, sets /x = 1 and gets OK, then tells R through a pipe.
 *   R calls sync(/x) on O: O forwards it to L, which has no outstanding
 *   proposal and answers at once, without asking a quorum.  The sync
 *   completes, and R's getData returns 0, the old value.  R's write,
 *   forwarded the same way, cannot be committed: L has one follower, not
 *   two.  When L's syncLimit runs out it steps down, R's write ends with
 *   ZCONNECTIONLOSS, L and O rejoin the new leader, and /x is 1 everywhere
 *   (R's write never happened).
 *
 * Every wait is for an event (a completion, a server mode, a relay
 * counter) with a generous deadline; timings are evidence, never checks.
 * It cannot run against --zk.
 */
#define _GNU_SOURCE /* pipe2 */
#include "base/wb.h"
#include "base/mono.h"
#include "harness/report.h"
#include "harness/tcphold.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkensemble.h"
#include "harness/zk/zkserver.h"
#include "lab.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N_SERVERS     5
#define TICK_MS	      200
#define SYNC_LIMIT    40     /* ticks: the old leader's window is 8 s */
#define INIT_LIMIT    50     /* ticks */
#define SESSION_MS    30000  /* R's session outlives the partition */
#define WAIT_MS	      20000  /* deadline for anything that should happen */
#define START_WAIT_MS 120000 /* five JVMs on a busy two-core machine */

/* One asynchronous call's completion. */
struct op {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* CLOCK_MONOTONIC */
	int done;	   /* the completion ran */
	int rc;		   /* its ZooKeeper code */
	char data[64];	   /* getData: the value */
	struct Stat st;	   /* getData/setData: the stat */
	long long at_ms;   /* when it ran */
};

static void op_init(struct op *o)
{
	memset(o, 0, sizeof *o);
	pthread_mutex_init(&o->mu, NULL);
	mono_cond_init(&o->cv);
}

static void op_destroy(struct op *o)
{
	pthread_cond_destroy(&o->cv);
	pthread_mutex_destroy(&o->mu);
}

static void op_finish(struct op *o, int rc, const char *value, int len, const struct Stat *st)
{
	pthread_mutex_lock(&o->mu);
	o->rc = rc;
	if (value && len > 0) {
		size_t n = (size_t)len < sizeof o->data - 1 ? (size_t)len : sizeof o->data - 1;
		memcpy(o->data, value, n);
		o->data[n] = '\0';
	}
	if (st)
		o->st = *st;
	o->at_ms = zkc_now_ms();
	o->done = 1;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
}

static void op_stat_done(int rc, const struct Stat *st, const void *data)
{
	op_finish((struct op *)data, rc, NULL, 0, st);
}

static void op_string_done(int rc, const char *value, const void *data)
{
	(void)value;
	op_finish((struct op *)data, rc, NULL, 0, NULL);
}

static int op_done(struct op *o)
{
	pthread_mutex_lock(&o->mu);
	int d = o->done;
	pthread_mutex_unlock(&o->mu);
	return d;
}

static int op_wait(struct op *o, int timeout_ms)
{
	struct timespec dl;
	mono_deadline(&dl, timeout_ms);
	pthread_mutex_lock(&o->mu);
	while (!o->done)
		if (pthread_cond_timedwait(&o->cv, &o->mu, &dl) != 0 && !o->done)
			break;
	int d = o->done;
	pthread_mutex_unlock(&o->mu);
	return d ? 0 : WB_EBUSY;
}

/* sync(path) and wait.  Returns the ZooKeeper code (ZOPERATIONTIMEOUT
 * when no completion came); *at_ms receives the completion time. */
static int sync_wait(struct zkc *c, const char *path, int timeout_ms, long long *at_ms)
{
	struct op o;
	op_init(&o);
	int rc = zoo_async(zkc_handle(c), path, op_string_done, &o);
	if (rc == ZOK)
		rc = op_wait(&o, timeout_ms) == 0 ? o.rc : ZOPERATIONTIMEOUT;
	if (at_ms)
		*at_ms = o.at_ms;
	/* The completion may still come after a timeout: it must not find
	 * freed memory. */
	if (!op_done(&o))
		op_wait(&o, 2 * WAIT_MS);
	op_destroy(&o);
	return rc;
}

static int read_x(struct zkc *c, char *buf, int cap, struct Stat *st)
{
	int len = cap - 1;
	int rc = zoo_get(zkc_handle(c), "/x", 0, buf, &len, st);
	buf[rc == ZOK && len > 0 ? len : 0] = '\0';
	return rc;
}

static char *hex(int64_t v, char buf[24])
{
	snprintf(buf, 24, "0x%" PRIx64, (uint64_t)v);
	return buf;
}

/* Polls until member myid reports a zxid >= want.  Returns 0 or WB_EBUSY. */
static int wait_zxid(struct zkensemble *e, int myid, int64_t want, int timeout_ms)
{
	long long deadline = zkc_now_ms() + timeout_ms;
	struct timespec step = {0, 20 * 1000 * 1000};
	for (;;) {
		int64_t z = -1;
		zkensemble_mode(e, myid, &z);
		if (z >= want)
			return 0;
		if (zkc_now_ms() >= deadline)
			return WB_EBUSY;
		nanosleep(&step, NULL);
	}
}

/* Polls the new side until one of them reports Mode leader.  Returns its
 * myid, or 0 after the deadline. */
static int wait_new_leader(struct zkensemble *e, const int *side, int n, int timeout_ms)
{
	long long deadline = zkc_now_ms() + timeout_ms;
	struct timespec step = {0, 20 * 1000 * 1000};
	for (;;) {
		for (int i = 0; i < n; i++)
			if (zkensemble_mode(e, side[i], NULL) == ZKENS_LEADER)
				return side[i];
		if (zkc_now_ms() >= deadline)
			return 0;
		nanosleep(&step, NULL);
	}
}

/* The modes of all members, "1:follower 2:leader ...".  Caller frees. */
static char *modes_line(struct zkensemble *e)
{
	struct wb_buf b = {0};
	for (int id = 1; id <= zkensemble_size(e); id++) {
		int64_t z = -1;
		enum zkensemble_mode md = zkensemble_mode(e, id, &z);
		wb_buf_printf(&b, "%s%d:%s", id > 1 ? ", " : "", id, zkensemble_mode_name(md));
		if (z >= 0)
			wb_buf_printf(&b, " (zxid 0x%" PRIx64 ")", (uint64_t)z);
	}
	return wb_buf_steal(&b);
}

static int sync_partition_run(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	struct zkensemble *e = NULL;
	struct zkc *a = NULL, *rc_r = NULL, *w = NULL;
	char *why = NULL, *modes = NULL;
	char h1[24], h2[24];
	int pfd[2] = {-1, -1};
	int rc = 0;
	struct op rset;
	op_init(&rset);
	int rset_issued = 0;
	struct zkensemble_opts opts = {
		.n = N_SERVERS,
		.tick_ms = TICK_MS,
		.sync_limit = SYNC_LIMIT,
		.init_limit = INIT_LIMIT,
		.max_session_ms = 60000,
		.start_timeout_ms = START_WAIT_MS,
		.relay_quorum = 1,
		.relay_election = 1,
	};
	report_step(r, "start five ZooKeeper servers on 127.0.0.1; every follower -> leader link "
		       "runs through a relay the lab controls");
	rc = zkensemble_new(ctx->run_dir, &opts, &e, &why);
	if (rc) {
		report_cannot(r, "%s", why ? why : "cannot set up the ensemble");
		goto out;
	}
	long long t0 = zkc_now_ms();
	rc = zkensemble_start(e);
	if (rc) {
		report_cannot(r, "%s", zkensemble_error(e));
		goto out;
	}
	report_evidence(r, "ensemble_start_ms", "%lld", zkc_now_ms() - t0);
	int leader = zkensemble_leader(e), old_f = 0, side[N_SERVERS], nside = 0;
	for (int id = 1; id <= N_SERVERS; id++) {
		if (id == leader)
			continue;
		if (!old_f)
			old_f = id;
		else
			side[nside++] = id;
	}
	if (!leader || nside != 3) {
		report_cannot(r, "no single leader after start-up");
		rc = WB_EIO;
		goto out;
	}
	report_evidence(r, "sides", "old side: leader %d + follower %d; new side: %d, %d, %d",
			leader, old_f, side[0], side[1], side[2]);
	report_evidence(r, "timing", "tickTime %d ms, syncLimit %d ticks (%d ms)", TICK_MS,
			SYNC_LIMIT, SYNC_LIMIT * TICK_MS);

	/* /x = 0 everywhere; R on the old follower. */
	rc = zkc_connect(zkensemble_connect(e, leader), SESSION_MS, WAIT_MS, ctx->run_dir, &a);
	if (!rc)
		rc = zkc_connect(zkensemble_connect(e, old_f), SESSION_MS, WAIT_MS, ctx->run_dir,
				 &rc_r);
	if (rc) {
		report_cannot(r, "cannot connect to the leader or to follower %d", old_f);
		goto out;
	}
	struct Stat x0;
	int zrc = zoo_create(zkc_handle(a), "/x", "0", 1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	if (zrc == ZOK)
		zrc = zoo_exists(zkc_handle(a), "/x", 0, &x0);
	if (zrc != ZOK) {
		report_cannot(r, "cannot create /x: %s", zkc_err_name(zrc));
		rc = zkc_to_wb(zrc);
		goto out;
	}
	for (int id = 1; id <= N_SERVERS; id++) {
		if (wait_zxid(e, id, x0.czxid, WAIT_MS) != 0) {
			report_cannot(r, "server %d did not apply /x = 0 in time", id);
			rc = WB_EIO;
			goto out;
		}
	}
	zkc_close(a);
	a = NULL;
	report_step(r, "/x = 0 (mzxid %s) on all five; R has a session on follower %d",
		    hex(x0.mzxid, h1), old_f);

	/* The asymmetric partition. */
	long long t_part = zkc_now_ms();
	for (int i = 0; i < nside; i++) {
		zkensemble_block_election(e, side[i], leader, 1);
		zkensemble_block_election(e, side[i], old_f, 1);
	}
	for (int i = 0; i < nside; i++) {
		struct tcphold *link = zkensemble_quorum_relay(e, side[i], leader);
		tcphold_refuse(link, 1);
		tcphold_sever(link);
	}
	report_step(r,
		    "partition: the links of servers %d, %d, %d to leader %d are severed - "
		    "their ends close now, the leader's ends stay open and silent; election "
		    "messages between the sides are held",
		    side[0], side[1], side[2], leader);
	int severed = 0;
	for (int i = 0; i < nside; i++) {
		struct tcphold_stats st;
		tcphold_stats(zkensemble_quorum_relay(e, side[i], leader), &st);
		severed += st.severed;
	}
	report_evidence(r, "severed_links", "%d (leader side kept open)", severed);

	int new_leader = wait_new_leader(e, side, nside, SYNC_LIMIT * TICK_MS + WAIT_MS);
	long long t_elected = zkc_now_ms();
	enum zkensemble_mode old_mode = zkensemble_mode(e, leader, NULL);
	modes = modes_line(e);
	report_evidence(r, "modes_after_election", "%s", modes);
	report_checkf(r, "two-leaders", new_leader != 0 && old_mode == ZKENS_LEADER,
		      "a new side server and the old leader both report Mode leader",
		      "new side: %s; old leader %d: %s",
		      new_leader ? "leader elected" : "no leader", leader,
		      zkensemble_mode_name(old_mode));
	if (!new_leader || old_mode != ZKENS_LEADER)
		goto out;
	report_evidence(r, "partition_to_new_leader_ms", "%lld", t_elected - t_part);

	/* W writes on the new majority. */
	rc = zkc_connect(zkensemble_connect(e, new_leader), SESSION_MS, WAIT_MS, ctx->run_dir, &w);
	if (rc) {
		report_cannot(r, "cannot connect W to the new leader %d", new_leader);
		goto out;
	}
	struct Stat xw;
	zrc = zoo_set2(zkc_handle(w), "/x", "1", 1, -1, &xw);
	long long t_write = zkc_now_ms();
	report_checkf(r, "new-majority-commits", zrc == ZOK,
		      "W's setData(/x = 1) on the new leader: ZOK", "%s, mzxid %s",
		      zkc_err_name(zrc), hex(xw.mzxid, h1));
	if (zrc != ZOK)
		goto out;
	report_evidence(r, "w_write_mzxid", "%s", hex(xw.mzxid, h1));
	report_evidence(r, "partition_to_w_ok_ms", "%lld", t_write - t_part);

	/* W tells R; R syncs through the old follower and reads. */
	if (pipe2(pfd, O_CLOEXEC) != 0) {
		report_cannot(r, "cannot make a pipe");
		rc = WB_EIO;
		goto out;
	}
	char msg[64], got[64] = {0};
	int n = snprintf(msg, sizeof msg, "x is 1 now\n");
	ssize_t io = write(pfd[1], msg, (size_t)n);
	io = read(pfd[0], got, sizeof got - 1);
	(void)io;
	report_step(r,
		    "W tells R through a pipe: \"x is 1 now\"; R calls sync(/x) on follower %d, "
		    "then getData(/x)",
		    old_f);
	long long t_sync = 0;
	int src = sync_wait(rc_r, "/x", WAIT_MS, &t_sync);
	char val[64];
	struct Stat xr;
	int grc = src == ZOK ? read_x(rc_r, val, sizeof val, &xr) : src;
	enum zkensemble_mode still = zkensemble_mode(e, leader, NULL);
	report_checkf(r, "sync-then-read-is-stale",
		      src == ZOK && grc == ZOK && !strcmp(val, "0") && xr.mzxid == x0.mzxid,
		      "sync ZOK, then getData returns 0 with the old mzxid, after W's write of 1 "
		      "completed",
		      "sync %s, getData %s \"%s\" mzxid %s (W's write: mzxid %s)",
		      zkc_err_name(src), zkc_err_name(grc), grc == ZOK ? val : "",
		      hex(grc == ZOK ? xr.mzxid : 0, h1), hex(xw.mzxid, h2));
	report_evidence(r, "w_ok_to_r_sync_ms", "%lld", t_sync - t_write);
	report_evidence(r, "old_leader_mode_after_read", "%s", zkensemble_mode_name(still));

	/* Writes are safe: R's write, forwarded to L, cannot be committed. */
	report_step(r, "R sets /x = r through follower %d (forwarded to the old leader)", old_f);
	zrc = zoo_aset(zkc_handle(rc_r), "/x", "r", 1, -1, op_stat_done, &rset);
	if (zrc != ZOK) {
		report_cannot(r, "R could not queue setData: %s", zkc_err_name(zrc));
		rc = zkc_to_wb(zrc);
		goto out;
	}
	rset_issued = 1;
	enum zkensemble_mode md = ZKENS_LEADER;
	int wrc = zkensemble_wait_mode(e, leader, ~(1u << ZKENS_LEADER),
				       SYNC_LIMIT * TICK_MS + WAIT_MS, &md);
	long long t_down = zkc_now_ms();
	int r_done_when_down = op_done(&rset) && rset.rc == ZOK;
	report_checkf(r, "old-leader-steps-down", wrc == 0,
		      "the old leader gives up once syncLimit x tickTime passes without a quorum",
		      "%s after %lld ms", zkensemble_mode_name(md), t_down - t_part);
	report_evidence(r, "partition_to_old_leader_down_ms", "%lld", t_down - t_part);
	report_evidence(r, "two_leaders_ms", "at least %lld", t_down - t_elected);
	int rdone = op_wait(&rset, 2 * WAIT_MS) == 0;
	report_checkf(r, "old-side-write-not-committed",
		      !r_done_when_down && rdone && rset.rc != ZOK,
		      "R's setData never succeeds: no ZOK while the old leader led, then an error",
		      "%s", rdone ? zkc_err_name(rset.rc) : "no completion");

	/* Heal: the old side rejoins the new leader. */
	for (int i = 0; i < nside; i++) {
		tcphold_refuse(zkensemble_quorum_relay(e, side[i], leader), 0);
		zkensemble_block_election(e, side[i], leader, 0);
		zkensemble_block_election(e, side[i], old_f, 0);
	}
	int j1 = zkensemble_wait_mode(e, leader, 1u << ZKENS_FOLLOWER, 2 * WAIT_MS, NULL);
	int j2 = zkensemble_wait_mode(e, old_f, 1u << ZKENS_FOLLOWER, 2 * WAIT_MS, NULL);
	int rc2 = zkc_wait_state(rc_r, ZOO_CONNECTED_STATE, 2 * WAIT_MS, NULL);
	free(modes);
	modes = modes_line(e);
	report_evidence(r, "modes_after_heal", "%s", modes);
	report_checkf(r, "old-side-rejoins", j1 == 0 && j2 == 0 && rc2 == 0,
		      "old leader and old follower follow the new leader; R reconnects", "%s; R %s",
		      modes, rc2 == 0 ? "reconnected" : "not reconnected");
	src = sync_wait(rc_r, "/x", WAIT_MS, NULL);
	grc = src == ZOK ? read_x(rc_r, val, sizeof val, &xr) : src;
	report_checkf(r, "after-heal-sync-read-sees-1",
		      grc == ZOK && !strcmp(val, "1") && xr.mzxid == xw.mzxid,
		      "R's sync + getData: 1 with W's mzxid; R's write is nowhere",
		      "%s \"%s\" mzxid %s", zkc_err_name(grc), grc == ZOK ? val : "",
		      hex(grc == ZOK ? xr.mzxid : 0, h1));
	rc = 0;
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	zkc_close(a);
	zkc_close(w);
	zkc_close(rc_r); /* runs any pending completion (ZCLOSING) */
	if (rset_issued)
		op_wait(&rset, WAIT_MS);
	op_destroy(&rset);
	free(modes);
	free(why);
	if (e) {
		long long t1 = zkc_now_ms();
		zkensemble_free(e);
		report_evidence(r, "ensemble_stop_ms", "%lld", zkc_now_ms() - t1);
	}
	return rc;
}

/* The entry point registered as lab_zk_sync_partition in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	return lab_outcome_of(ctx, sync_partition_run(ctx));
}

const lab_run_fn lab_zk_sync_partition = lab_main;
