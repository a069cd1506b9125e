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
 *   without acknowledgements (5 s here).  (A symmetric cut would close L's
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
 * counter) with a generous deadline, and ends early when the servers' JVM
 * dies (zkenslab_watch, zkensemble_died); a check that failed because it
 * died is not made (zkenslab_checkf): the run could not go on.  Timings
 * are evidence, never checks.  Test hook: testhook_hold("lab-step") once
 * /x = 0 is everywhere and R's session is open.
 * It cannot run against --zk.
 *
 * History (docs/histories.md): the calls on /x by the set-up client S, W
 * and R are recorded (sync + getData as one read); the linearizability
 * checker must find the whole history NOT linearizable, with W's write
 * and R's stale read as the witness.
 */
#define _GNU_SOURCE /* pipe2 */
#include "base/wb.h"
#include "base/mono.h"
#include "base/testhook.h"
#include "harness/report.h"
#include "harness/tcphold.h"
#include "harness/zk/zkasync.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkensemble.h"
#include "harness/zk/zkenslab.h"
#include "harness/zk/zkhist.h"
#include "harness/zk/zkserver.h"
#include "checkers/linear.h"
#include "lab.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N_SERVERS 5
#define TICK_MS	  200
#define SYNC_LIMIT                                                                                 \
	25		     /* ticks: the old leader's window is 5 s, > 10 x the                  \
				 election and W's write seen (<= 460 ms, loaded) */
#define INIT_LIMIT    50     /* ticks */
#define SESSION_MS    30000  /* R's session outlives the partition */
#define WAIT_MS	      20000  /* deadline for anything that should happen */
#define START_WAIT_MS 120000 /* five JVMs on a busy two-core machine */

/* The lab's state, step to step. */
struct part_state {
	struct lab_ctx *ctx;
	struct report *r;
	struct zkensemble *e;
	struct zkc *a, *rc_r, *w;   /* set-up client, R on the old follower, W */
	int leader, old_f;	    /* the old side: L and O */
	int side[N_SERVERS], nside; /* the new side */
	int new_leader;
	struct Stat x0, xw;  /* /x = 0, and W's write of 1 */
	struct zkasync rset; /* R's setData, forwarded to L */
	int rset_issued;
	int op_rset; /* its op in the history */
	long long t_part, t_elected, t_write;
	int stopped; /* a check failed that leaves nothing to show */
};

/* Names the sides: the old leader L and the lowest other member O (old
 * side), the three others (new side). */
static int pick_sides(struct part_state *s)
{
	struct report *r = s->r;
	int others[N_SERVERS], n = 0;
	s->leader = zkenslab_roles(s->e, others, N_SERVERS, &n);
	s->old_f = n > 0 ? others[0] : 0;
	for (int i = 1; i < n; i++)
		s->side[s->nside++] = others[i];
	if (!s->leader || s->nside != 3) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "no single leader after start-up");
		return WB_EIO;
	}
	report_evidence(r, "sides", "old side: leader %d + follower %d; new side: %d, %d, %d",
			s->leader, s->old_f, s->side[0], s->side[1], s->side[2]);
	report_evidence(r, "timing", "tickTime %d ms, syncLimit %d ticks (%d ms)", TICK_MS,
			SYNC_LIMIT, SYNC_LIMIT * TICK_MS);
	return 0;
}

/* /x = 0 everywhere; R on the old follower. */
static int seed_x(struct part_state *s)
{
	struct report *r = s->r;
	char h1[24];
	int rc = zkc_connect(zkensemble_connect(s->e, s->leader), SESSION_MS, WAIT_MS,
			     s->ctx->run_dir, &s->a);
	if (!rc)
		rc = zkc_connect(zkensemble_connect(s->e, s->old_f), SESSION_MS, WAIT_MS,
				 s->ctx->run_dir, &s->rc_r);
	if (rc) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "cannot connect to the leader or to follower %d",
				      s->old_f);
		return rc;
	}
	zkenslab_watch(s->e, s->a); /* their waits end when the servers die */
	zkenslab_watch(s->e, s->rc_r);
	int op = report_invoke(r, "S", "write", "0");
	int zrc = zoo_create(zkc_handle(s->a), "/x", "0", 1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	report_complete(r, op, zkhist_type(zrc), NULL);
	if (zrc == ZOK)
		zrc = zoo_exists(zkc_handle(s->a), "/x", 0, &s->x0);
	if (zrc != ZOK) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "cannot create /x: %s", zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	for (int id = 1; id <= N_SERVERS; id++) {
		if (zkensemble_wait_zxid(s->e, id, s->x0.czxid, WAIT_MS) != 0) {
			if (!zkenslab_gone(r, s->e))
				report_cannot(r, "server %d did not apply /x = 0 in time", id);
			return WB_EIO;
		}
	}
	zkc_close(s->a);
	s->a = NULL;
	report_step(r, "/x = 0 (mzxid %s) on all five; R has a session on follower %d",
		    zkenslab_hex(s->x0.mzxid, h1), s->old_f);
	return 0;
}

/* The asymmetric partition. */
static void partition(struct part_state *s)
{
	struct report *r = s->r;
	s->t_part = zkc_now_ms();
	for (int i = 0; i < s->nside; i++) {
		zkensemble_block_election(s->e, s->side[i], s->leader, 1);
		zkensemble_block_election(s->e, s->side[i], s->old_f, 1);
	}
	for (int i = 0; i < s->nside; i++) {
		struct tcphold *link = zkensemble_quorum_relay(s->e, s->side[i], s->leader);
		tcphold_refuse(link, 1);
		tcphold_sever(link);
	}
	/* Lanes by role, not by server: which server leads varies by run. */
	report_mark(r, "old leader", "partition: zk%d cut off from zk%d, zk%d, zk%d", s->leader,
		    s->side[0], s->side[1], s->side[2]);
	report_step(r,
		    "partition: the links of servers %d, %d, %d to leader %d are severed - "
		    "their ends close now, the leader's ends stay open and silent; election "
		    "messages between the sides are held",
		    s->side[0], s->side[1], s->side[2], s->leader);
	int severed = 0;
	for (int i = 0; i < s->nside; i++) {
		struct tcphold_stats st;
		tcphold_stats(zkensemble_quorum_relay(s->e, s->side[i], s->leader), &st);
		severed += st.severed;
	}
	report_evidence(r, "severed_links", "%d (leader side kept open)", severed);
}

/* The new side elects a leader while the old one still says it leads. */
static void two_leaders(struct part_state *s)
{
	struct report *r = s->r;
	s->new_leader =
		zkensemble_wait_leader(s->e, s->side, s->nside, SYNC_LIMIT * TICK_MS + WAIT_MS);
	s->t_elected = zkc_now_ms();
	enum zkensemble_mode old_mode = zkensemble_mode(s->e, s->leader, NULL);
	if (s->new_leader) {
		report_mark(r, "new leader", "zk%d elected leader", s->new_leader);
	}
	char *modes = zkenslab_modes(s->e);
	report_evidence(r, "modes_after_election", "%s", modes);
	free(modes);
	zkenslab_checkf(r, s->e, "two-leaders", s->new_leader != 0 && old_mode == ZKENS_LEADER,
			"a new side server and the old leader both report Mode leader",
			"new side: %s; old leader %d: %s",
			s->new_leader ? "leader elected" : "no leader", s->leader,
			zkensemble_mode_name(old_mode));
	if (!s->new_leader || old_mode != ZKENS_LEADER) {
		s->stopped = 1;
		return;
	}
	report_evidence(r, "partition_to_new_leader_ms", "%lld", s->t_elected - s->t_part);
}

/* W writes on the new majority. */
static int new_majority_write(struct part_state *s)
{
	struct report *r = s->r;
	char h1[24];
	int rc = zkc_connect(zkensemble_connect(s->e, s->new_leader), SESSION_MS, WAIT_MS,
			     s->ctx->run_dir, &s->w);
	if (rc) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "cannot connect W to the new leader %d", s->new_leader);
		return rc;
	}
	zkenslab_watch(s->e, s->w);
	int op = report_invoke(r, "W", "write", "1");
	int zrc = zoo_set2(zkc_handle(s->w), "/x", "1", 1, -1, &s->xw);
	report_complete(r, op, zkhist_type(zrc), NULL);
	s->t_write = zkc_now_ms();
	zkenslab_checkf(r, s->e, "new-majority-commits", zrc == ZOK,
			"W's setData(/x = 1) on the new leader: ZOK", "%s, mzxid %s",
			zkc_err_name(zrc), zkenslab_hex(s->xw.mzxid, h1));
	if (zrc != ZOK) {
		s->stopped = 1;
		return 0;
	}
	report_evidence(r, "w_write_mzxid", "%s", zkenslab_hex(s->xw.mzxid, h1));
	report_evidence(r, "partition_to_w_ok_ms", "%lld", s->t_write - s->t_part);
	return 0;
}

/* W tells R; R syncs through the old follower and reads. */
static int stale_sync_read(struct part_state *s)
{
	struct report *r = s->r;
	char h1[24], h2[24];
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) != 0) {
		report_cannot(r, "cannot make a pipe");
		return WB_EIO;
	}
	char msg[64], got[64] = {0};
	int n = snprintf(msg, sizeof msg, "x is 1 now\n");
	ssize_t io = write(pfd[1], msg, (size_t)n);
	io = read(pfd[0], got, sizeof got - 1);
	(void)io;
	close(pfd[0]);
	close(pfd[1]);
	report_step(r,
		    "W tells R through a pipe: \"x is 1 now\"; R calls sync(/x) on follower %d, "
		    "then getData(/x)",
		    s->old_f);
	long long t_sync = 0;
	int op = report_invoke(r, "R", "read", NULL);
	int src = zkenslab_sync(s->rc_r, "/x", WAIT_MS, &t_sync);
	char val[64] = "";
	struct Stat xr;
	int grc = src == ZOK ? zkenslab_read(s->rc_r, "/x", val, sizeof val, &xr) : src;
	report_complete(r, op, zkhist_type(grc), val);
	enum zkensemble_mode still = zkensemble_mode(s->e, s->leader, NULL);
	zkenslab_checkf(r, s->e, "sync-then-read-is-stale",
			src == ZOK && grc == ZOK && !strcmp(val, "0") && xr.mzxid == s->x0.mzxid,
			"sync ZOK, then getData returns 0 with the old mzxid, after W's write of 1 "
			"completed",
			"sync %s, getData %s \"%s\" mzxid %s (W's write: mzxid %s)",
			zkc_err_name(src), zkc_err_name(grc), grc == ZOK ? val : "",
			zkenslab_hex(grc == ZOK ? xr.mzxid : 0, h1), zkenslab_hex(s->xw.mzxid, h2));
	report_evidence(r, "w_ok_to_r_sync_ms", "%lld", t_sync - s->t_write);
	report_evidence(r, "old_leader_mode_after_read", "%s", zkensemble_mode_name(still));
	return 0;
}

/* Writes are safe: R's write, forwarded to L, cannot be committed. */
static int old_side_write(struct part_state *s)
{
	struct report *r = s->r;
	report_step(r, "R sets /x = r through follower %d (forwarded to the old leader)", s->old_f);
	s->op_rset = report_invoke(r, "R", "write", "r");
	int zrc = zoo_aset(zkc_handle(s->rc_r), "/x", "r", 1, -1, zkasync_stat_done, &s->rset);
	if (zrc != ZOK) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "R could not queue setData: %s", zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	s->rset_issued = 1;
	enum zkensemble_mode md = ZKENS_LEADER;
	int wrc = zkensemble_wait_mode(s->e, s->leader, ~(1u << ZKENS_LEADER),
				       SYNC_LIMIT * TICK_MS + WAIT_MS, &md);
	long long t_down = zkc_now_ms();
	if (wrc == 0) {
		report_mark(r, "old leader", "zk%d steps down: %s", s->leader,
			    zkensemble_mode_name(md));
	}
	int r_done_when_down = zkasync_finished(&s->rset) && s->rset.rc == ZOK;
	zkenslab_checkf(r, s->e, "old-leader-steps-down", wrc == 0,
			"the old leader gives up once syncLimit x tickTime passes without a quorum",
			"%s after %lld ms", zkensemble_mode_name(md), t_down - s->t_part);
	report_evidence(r, "partition_to_old_leader_down_ms", "%lld", t_down - s->t_part);
	report_story_wait(r, (long)(t_down - s->t_part), "sync-limit");
	report_evidence(r, "two_leaders_ms", "at least %lld", t_down - s->t_elected);
	int rdone = zkasync_wait(&s->rset, 2 * WAIT_MS, NULL) == 0;
	if (rdone)
		report_complete_at(r, s->op_rset, zkhist_type(s->rset.rc), NULL,
				   zkhist_done_ns(&s->rset));
	zkenslab_checkf(
		r, s->e, "old-side-write-not-committed",
		!r_done_when_down && rdone && s->rset.rc != ZOK,
		"R's setData never succeeds: no ZOK while the old leader led, then an error", "%s",
		rdone ? zkc_err_name(s->rset.rc) : "no completion");
	return 0;
}

/* Heal: the old side rejoins the new leader. */
static void heal(struct part_state *s)
{
	struct report *r = s->r;
	char h1[24];
	long long t_heal = mono_now_ms();
	for (int i = 0; i < s->nside; i++) {
		tcphold_refuse(zkensemble_quorum_relay(s->e, s->side[i], s->leader), 0);
		zkensemble_block_election(s->e, s->side[i], s->leader, 0);
		zkensemble_block_election(s->e, s->side[i], s->old_f, 0);
	}
	int j1 = zkensemble_wait_mode(s->e, s->leader, 1u << ZKENS_FOLLOWER, 2 * WAIT_MS, NULL);
	int j2 = zkensemble_wait_mode(s->e, s->old_f, 1u << ZKENS_FOLLOWER, 2 * WAIT_MS, NULL);
	int rc2 = zkc_wait_state(s->rc_r, ZOO_CONNECTED_STATE, 2 * WAIT_MS, NULL);
	/* The old side's re-join is the story's last event, as in
	 * zk-stale-read: the old leader and follower elect, learn the new
	 * leader and re-sync (its uncommitted write dropped), and R's client
	 * finds its server again at its reconnect pace. */
	if (j1 == 0 && j2 == 0 && rc2 == 0)
		report_story_wait(r, (long)(mono_now_ms() - t_heal), "rejoin");
	char *modes = zkenslab_modes(s->e);
	report_evidence(r, "modes_after_heal", "%s", modes);
	zkenslab_checkf(r, s->e, "old-side-rejoins", j1 == 0 && j2 == 0 && rc2 == 0,
			"old leader and old follower follow the new leader; R reconnects",
			"%s; R %s", modes, rc2 == 0 ? "reconnected" : "not reconnected");
	free(modes);
	char val[64] = "";
	struct Stat xr;
	int op = report_invoke(r, "R", "read", NULL);
	int src = zkenslab_sync(s->rc_r, "/x", WAIT_MS, NULL);
	int grc = src == ZOK ? zkenslab_read(s->rc_r, "/x", val, sizeof val, &xr) : src;
	report_complete(r, op, zkhist_type(grc), val);
	zkenslab_checkf(r, s->e, "after-heal-sync-read-sees-1",
			grc == ZOK && !strcmp(val, "1") && xr.mzxid == s->xw.mzxid,
			"R's sync + getData: 1 with W's mzxid; R's write is nowhere",
			"%s \"%s\" mzxid %s", zkc_err_name(grc), grc == ZOK ? val : "",
			zkenslab_hex(grc == ZOK ? xr.mzxid : 0, h1));
}

/* The whole history through the linearizability checker: R's sync + read
 * of 0 after W's write of 1 completed is the counterexample. */
static void check_history(struct part_state *s)
{
	struct hist_result res;
	int crc = linear_check(report_history(s->r), &(struct linear_opts){.initial = "0"}, &res);
	if (crc)
		report_checker_error(&res, crc);
	report_checker(s->r, "sync-then-read-history-not-linearizable", &res, HIST_INVALID);
}

/* Whether the servers' JVM died under the lab (then said once, through
 * zkenslab_gone): the next stage is not started. */
static int servers_died(struct part_state *s)
{
	return zkensemble_died(s->e, 0, NULL, 0, NULL) && zkenslab_gone(s->r, s->e);
}

/* The lab: start, seed, partition, two leaders, the stale sync + read,
 * the old side's write, heal. */
static int sync_partition_run(struct lab_ctx *ctx)
{
	struct part_state s = {.ctx = ctx, .r = ctx->report};
	zkasync_init(&s.rset);
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
	report_step(s.r, "start five ZooKeeper servers on 127.0.0.1; every follower -> leader "
			 "link runs through a relay the lab controls");
	int rc = zkenslab_start(s.r, ctx->run_dir, &opts, &s.e);
	if (!rc)
		rc = pick_sides(&s);
	if (!rc)
		rc = seed_x(&s);
	/* Test hook: the servers are up and R's session is open (a test kills
	 * the JVM here: tests/integration/ensemble_death.sh). */
	if (!rc)
		testhook_hold("lab-step");
	if (!rc) {
		partition(&s);
		two_leaders(&s);
	}
	if (!rc && !s.stopped && servers_died(&s))
		rc = WB_EUNAVAIL;
	if (!rc && !s.stopped)
		rc = new_majority_write(&s);
	if (!rc && !s.stopped && servers_died(&s))
		rc = WB_EUNAVAIL;
	if (!rc && !s.stopped)
		rc = stale_sync_read(&s);
	if (!rc && !s.stopped && servers_died(&s))
		rc = WB_EUNAVAIL;
	if (!rc && !s.stopped)
		rc = old_side_write(&s);
	if (!rc && !s.stopped && servers_died(&s))
		rc = WB_EUNAVAIL;
	if (!rc && !s.stopped) {
		heal(&s);
		if (!servers_died(&s))
			check_history(&s);
	}
	zkc_close(s.a);
	zkc_close(s.w);
	zkc_close(s.rc_r); /* runs any pending completion (ZCLOSING) */
	if (s.rset_issued)
		zkasync_wait(&s.rset, WAIT_MS, NULL);
	zkasync_destroy(&s.rset);
	zkenslab_stop(s.r, s.e);
	return rc;
}

/* The entry point registered as lab_zk_sync_partition in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"During the partition two servers both reported leader, and sync followed by a "
		"read on the old side returned a value older than a write that had completed "
		"(ZOOKEEPER-1675): sync is not a linearizable read. The old side's write was "
		"never committed, and after the heal every server returned the new value.");
	return lab_outcome_of(ctx, sync_partition_run(ctx));
}

const lab_run_fn lab_zk_sync_partition = lab_main;
