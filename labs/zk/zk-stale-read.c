/*
 * zk-stale-read.c - the lab "zk-stale-read": on a real three-server
 * ensemble, a follower that lags serves a plain read that is older than a
 * write that has already completed; sync (or a write of the session's own)
 * before the read closes that gap; a follower held back for longer than
 * syncLimit x tickTime leaves the quorum (chapter 02, "Updates have one
 * order; plain reads can still be stale" and "What sync does").
 *
 *   Set-up: harness/zkensemble.h starts three servers whose follower ->
 *   leader quorum links each run through a raw relay (harness/tcphold.h).
 *   After the election the lab picks the lagging follower F (the follower
 *   with the lowest myid) and the leader L; client A talks to L only, B to
 *   F only.  Both sessions are opened before any hold and ask for 30 s, so
 *   they outlive every hold.
 *
 *   Part 1 (a hold shorter than syncLimit x tickTime): the relay F -> L
 *   buffers everything L sends to F.  A sets /x = 1 and gets OK (L and the
 *   other follower are a majority), then tells B through a pipe.  B reads
 *   /x on F with a plain getData: 0, with the old mzxid.  B then issues,
 *   asynchronously, sync + getData and setData(/barrier) + getData.  A's
 *   watch on /barrier fires on L: B's write is committed by a majority.
 *   Yet none of B's four calls has completed, and the relay holds bytes
 *   for F: the answers are in that buffer.  Release: all four complete,
 *   both reads return 1, and the time from release is measured.
 *
 *   Part 2 (a hold longer than syncLimit x tickTime): the link is held
 *   again and B sets /x = 2.  A's watch shows it committed on L.  F hears
 *   nothing from L for syncLimit ticks and leaves the quorum: B's write
 *   ends with ZCONNECTIONLOSS although it was committed (A reads 2 on L),
 *   and F's 'srvr' says it is not serving.  After release F rejoins, B's
 *   session comes back on F, and B reads 2.
 *
 * Every wait is for an event (a completion, a watch, a relay counter, a
 * server mode) with a generous deadline, and ends early when the
 * servers' JVM dies (zkenslab_watch, zkensemble_died); a check that
 * failed because it died is not made (zkenslab_checkf): the run could
 * not go on.  Timings are evidence, never checks.  Test hook:
 * testhook_hold("lab-step") once both sessions are open.
 * ZOOKEEPER-1675 (sync during a partition) is the lab zk-sync-partition.
 * This lab cannot run against --zk.
 *
 * History (docs/histories.md): A's and B's calls on the register /x are
 * recorded as ops (B's sync + getData as one read); part 1's plain-read
 * history must come out NOT linearizable, its sync-then-read history
 * (the same without the plain read) linearizable.
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
#include "checkers/linear.h"
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

#define TICK_MS	      200
#define SYNC_LIMIT    20    /* ticks: a follower silent for 4 s is dropped */
#define INIT_LIMIT    50    /* ticks: 10 s to connect and sync */
#define SESSION_MS    30000 /* outlives both holds */
#define WAIT_MS	      20000 /* deadline for anything that should happen */
#define START_WAIT_MS 90000 /* three JVMs on a busy two-core machine */

/* B's side of the out-of-band channel: a thread that blocks on the pipe
 * until A's message arrives, then reads /x on the follower. */
struct oob_reader {
	struct report *r;
	int op;		   /* B's plain read in the history */
	int fd;		   /* read end of the pipe */
	struct zkc *b;	   /* B, connected to the lagging follower */
	char msg[128];	   /* what A sent */
	long long msg_ms;  /* when it arrived */
	int zrc;	   /* B's getData */
	char value[64];	   /* ... its value */
	struct Stat st;	   /* ... its stat */
	long long read_ms; /* when getData returned */
};

static void *oob_reader_main(void *arg)
{
	struct oob_reader *o = arg;
	size_t got = 0;
	while (got < sizeof o->msg - 1) {
		ssize_t n = read(o->fd, o->msg + got, sizeof o->msg - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		if (memchr(o->msg, '\n', got))
			break;
	}
	o->msg[got] = '\0';
	o->msg_ms = zkc_now_ms();
	o->op = got ? report_invoke(o->r, "B", "read", NULL) : -1;
	o->zrc = got ? zkenslab_read(o->b, "/x", o->value, sizeof o->value, &o->st) : ZSYSTEMERROR;
	o->read_ms = zkc_now_ms();
	report_complete(o->r, o->op, zkhist_type(o->zrc), o->value);
	return NULL;
}

/* The lab's shared state. */
struct lab_state {
	struct report *r;
	struct zkensemble *e;
	int leader, lagger, other; /* myids: L, F, and the other follower */
	struct tcphold *link;	   /* relay F -> L (its DOWN side is L -> F) */
	struct zkc *a, *b;	   /* A on L, B on F */
	int op_w0, op_base;	   /* history: A's create of /x = 0, B's baseline read */
};

static void relay_evidence(struct lab_state *s, const char *key)
{
	struct tcphold_stats st;
	tcphold_stats(s->link, &st);
	report_evidence(s->r, key,
			"accepted %d, open %d; leader->follower: forwarded %" PRIu64
			" B, held now %" PRIu64 " B, released %" PRIu64 " B; follower->leader "
			"forwarded %" PRIu64 " B",
			st.accepted, st.open, st.forwarded[1], st.held[1], st.released[1],
			st.forwarded[0]);
}

/* How often c's session left the CONNECTED state so far. */
static int session_losses(struct zkc *c)
{
	int n = 0;
	for (size_t i = 0; i < zkc_event_count(c); i++) {
		struct zkc_event ev;
		if (zkc_event_get(c, i, &ev) == 0 && ev.type == ZOO_SESSION_EVENT &&
		    ev.state != ZOO_CONNECTED_STATE)
			n++;
	}
	return n;
}

static int64_t server_zxid(struct lab_state *s, int myid)
{
	int64_t z = -1;
	zkensemble_mode(s->e, myid, &z);
	return z;
}

/* Part 1's calls and times. */
struct short_hold {
	struct zkasync sync1, get1, set1, get2; /* B's four calls during the hold */
	int op_w1, op_plain, op_sync, op_own;	/* history: A's write, B's three reads */
	struct Stat xa;				/* A's write of 1 */
	long long t_hold, t_write;
	int stopped;   /* A's write failed: nothing to show */
	int queued[4]; /* sync1, get1, set1, get2 were queued: a completion comes */
};

/* Holds the leader's bytes to F; A writes on the leader and gets OK. */
static void a_writes_on_leader(struct lab_state *s, struct short_hold *h)
{
	struct report *r = s->r;
	char h1[24];
	report_step(r,
		    "part 1: hold every byte the leader (server %d) sends to follower %d; "
		    "server %d still hears the leader",
		    s->leader, s->lagger, s->other);
	h->t_hold = zkc_now_ms();
	tcphold_hold(s->link, TCPHOLD_DOWN);
	report_mark(r, "relay", "hold zk%d -> zk%d", s->leader, s->lagger);

	/* A writes on the leader and waits for OK. */
	report_step(r, "A (on the leader) sets /x = 1 and waits for the reply");
	h->op_w1 = report_invoke(r, "A", "write", "1");
	int zrc = zoo_set2(zkc_handle(s->a), "/x", "1", 1, -1, &h->xa);
	report_complete(r, h->op_w1, zkhist_type(zrc), NULL);
	h->t_write = zkc_now_ms();
	if (!zkenslab_checkf(r, s->e, "write-completes-without-the-follower", zrc == ZOK,
			     "ZOK: the leader and the other follower are a majority", "%s",
			     zkc_err_name(zrc))) {
		h->stopped = 1;
		return;
	}
	report_evidence(r, "a_write_mzxid", "%s", zkenslab_hex(h->xa.mzxid, h1));
	report_evidence(r, "a_write_ms", "%lld", h->t_write - h->t_hold);
}

/* A tells B through a pipe; B's plain read on F is stale. */
static int tell_b_out_of_band(struct lab_state *s, struct short_hold *h, const struct Stat *x0)
{
	struct report *r = s->r;
	char h1[24], h2[24], h3[24];
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) != 0) {
		report_cannot(r, "cannot make a pipe for the out-of-band message");
		return WB_EIO;
	}
	struct oob_reader rd = {.r = r, .op = -1, .fd = pfd[0], .b = s->b};
	pthread_t th;
	if (pthread_create(&th, NULL, oob_reader_main, &rd) != 0) {
		report_cannot(r, "cannot start B's reader thread");
		close(pfd[0]);
		close(pfd[1]);
		return WB_EIO;
	}
	char msg[96];
	int n = snprintf(msg, sizeof msg, "x is 1 now (mzxid %s)\n", zkenslab_hex(h->xa.mzxid, h1));
	ssize_t w = write(pfd[1], msg, (size_t)n);
	(void)w;
	pthread_join(th, NULL);
	h->op_plain = rd.op;
	close(pfd[0]);
	close(pfd[1]);
	report_step(r, "A tells B through a pipe: \"%.*s\"; B reads /x on follower %d", n - 1, msg,
		    s->lagger);
	report_evidence(r, "oob_message_to_b_read_ms", "%lld", rd.read_ms - h->t_write);
	zkenslab_checkf(r, s->e, "stale-read-after-completed-write",
			rd.zrc == ZOK && !strcmp(rd.value, "0") && rd.st.mzxid == x0->mzxid &&
				rd.st.mzxid < h->xa.mzxid,
			"B reads 0 with the old mzxid although A's write of 1 completed first",
			"%s, \"%s\", mzxid %s (A's write: mzxid %s)", zkc_err_name(rd.zrc),
			rd.value, zkenslab_hex(rd.st.mzxid, h2), zkenslab_hex(h->xa.mzxid, h3));
	report_evidence(r, "follower_zxid_during_hold", "%s",
			zkenslab_hex(server_zxid(s, s->lagger), h1));
	report_evidence(r, "leader_zxid_during_hold", "%s",
			zkenslab_hex(server_zxid(s, s->leader), h1));
	relay_evidence(s, "relay_after_stale_read");

	return 0;
}

/* B asks for fresh data, sync + read and own write + read: its write
 * commits on the leader, yet all four answers wait in the relay. */
static int b_asks_for_fresh_data(struct lab_state *s, struct short_hold *h)
{
	struct report *r = s->r;
	char h1[24];
	struct tcphold_stats before;
	tcphold_stats(s->link, &before);
	struct Stat ignore;
	int zrc = zoo_exists(zkc_handle(s->a), "/barrier", 1, &ignore);
	if (zrc != ZOK) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "A cannot watch /barrier: %s", zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	report_step(r, "B issues sync(/x) + getData(/x), then setData(/barrier) + getData(/x), "
		       "without waiting");
	zhandle_t *zb = zkc_handle(s->b);
	/* history: sync + getData is one read, setData(/barrier) + getData
	 * another (the barrier is not the register: a mark) */
	h->op_sync = report_invoke(r, "B", "read", NULL);
	int q1 = zoo_async(zb, "/x", zkasync_string_done, &h->sync1);
	int q2 = zoo_aget(zb, "/x", 0, zkasync_data_done, &h->get1);
	h->op_own = report_invoke(r, "B", "read", NULL);
	report_mark(r, "B", "setData /barrier, then getData /x");
	int q3 = zoo_aset(zb, "/barrier", "b", 1, -1, zkasync_stat_done, &h->set1);
	int q4 = zoo_aget(zb, "/x", 0, zkasync_data_done, &h->get2);
	h->queued[0] = q1 == ZOK;
	h->queued[1] = q2 == ZOK;
	h->queued[2] = q3 == ZOK;
	h->queued[3] = q4 == ZOK;
	if (q1 || q2 || q3 || q4) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "B could not queue its calls (%s %s %s %s)",
				      zkc_err_name(q1), zkc_err_name(q2), zkc_err_name(q3),
				      zkc_err_name(q4));
		return WB_EIO;
	}
	/* B's setData commits on the leader: it was forwarded after the sync,
	 * so the leader has answered the sync by then, and both answers went
	 * to the relay's buffer. */
	struct zkc_event ev;
	int wrc = zkc_wait_event(s->a, ZOO_CHANGED_EVENT, "/barrier", WAIT_MS, &ev);
	if (wrc != 0 && zkenslab_gone(r, s->e))
		return WB_EUNAVAIL;
	zkenslab_checkf(r, s->e, "b-write-committed-on-leader", wrc == 0,
			"A's watch on /barrier fires on the leader", "%s",
			wrc == 0 ? "fired" : "no event within the deadline");
	uint64_t held_before = before.held[1];
	struct tcphold_stats now;
	int hrc = tcphold_wait(s->link, tcphold_pred_held_down_over, &held_before, WAIT_MS, &now);
	int pending = !zkasync_finished(&h->sync1) + !zkasync_finished(&h->get1) +
		      !zkasync_finished(&h->set1) + !zkasync_finished(&h->get2);
	zkenslab_checkf(
		r, s->e, "sync-and-write-wait-for-the-held-link",
		wrc == 0 && hrc == 0 && pending == 4,
		"none of B's 4 calls completed; the relay holds more bytes for the follower",
		"%d of 4 pending; held leader->follower bytes %" PRIu64 " -> %" PRIu64, pending,
		before.held[1], now.held[1]);
	report_evidence(r, "follower_zxid_before_release", "%s",
			zkenslab_hex(server_zxid(s, s->lagger), h1));
	relay_evidence(s, "relay_before_release");

	return 0;
}

/* Completes op from the getData get, unless an earlier call of the same
 * op (failed) ended it; an op still pending stays invoked (unknown). */
static void complete_async(struct report *r, int op, const struct zkasync *get,
			   const struct zkasync *failed)
{
	if (failed)
		report_complete_at(r, op, zkhist_type(failed->rc), NULL, zkhist_done_ns(failed));
	else if (get->done)
		report_complete_at(r, op, zkhist_type(get->rc), get->data, zkhist_done_ns(get));
}

/* Part 1's two histories through the linearizability checker: with the
 * plain read (the lesson: not linearizable) and without it (the
 * sync-then-read history: linearizable). */
static void check_part1_histories(struct lab_state *s, const struct short_hold *h)
{
	struct report *r = s->r;
	int plain[] = {s->op_w0, s->op_base, h->op_w1, h->op_plain};
	int synced[] = {s->op_w0, s->op_base, h->op_w1, h->op_sync, h->op_own};
	struct history hp, hs;
	if (report_history_subset(r, plain, WB_ARRAY_LEN(plain), &hp) != 0)
		return;
	if (report_history_subset(r, synced, WB_ARRAY_LEN(synced), &hs) != 0) {
		free(hp.ops);
		return;
	}
	struct hist_result res;
	int crc = linear_check(&hp, &(struct linear_opts){.initial = "0"}, &res);
	if (crc)
		report_checker_error(&res, crc);
	report_checker(r, "plain-read-history-not-linearizable", &res, HIST_INVALID);
	crc = linear_check(&hs, &(struct linear_opts){.initial = "0"}, &res);
	if (crc)
		report_checker_error(&res, crc);
	report_checker(r, "sync-then-read-history-linearizable", &res, HIST_VALID);
	free(hp.ops);
	free(hs.ops);
}

/* Releases the hold: the four answers arrive, both reads see 1. */
static void release_short_hold(struct lab_state *s, struct short_hold *h)
{
	struct report *r = s->r;
	char h1[24];
	/* Release: the buffered stream reaches F in order. */
	long long t_rel = zkc_now_ms();
	long long bytes = tcphold_release(s->link);
	report_mark(r, "relay", "release: %lld bytes to zk%d", bytes, s->lagger);
	report_step(r,
		    "release after %lld ms held (syncLimit x tickTime = %d ms): %lld bytes "
		    "flushed to follower %d in order",
		    t_rel - h->t_hold, SYNC_LIMIT * TICK_MS, bytes, s->lagger);
	report_evidence(r, "short_hold_ms", "%lld", t_rel - h->t_hold);
	report_story_wait(r, (long)(t_rel - h->t_hold), "short-hold");
	report_evidence(r, "released_bytes", "%lld", bytes);
	int all = !zkasync_wait(&h->sync1, WAIT_MS, NULL) &&
		  !zkasync_wait(&h->get1, WAIT_MS, NULL) &&
		  !zkasync_wait(&h->set1, WAIT_MS, NULL) && !zkasync_wait(&h->get2, WAIT_MS, NULL);
	complete_async(r, h->op_sync, &h->get1,
		       h->sync1.done && h->sync1.rc != ZOK ? &h->sync1 : NULL);
	complete_async(r, h->op_own, &h->get2, h->set1.done && h->set1.rc != ZOK ? &h->set1 : NULL);
	zkenslab_checkf(r, s->e, "sync-then-read-sees-1",
			all && h->sync1.rc == ZOK && h->get1.rc == ZOK &&
				!strcmp(h->get1.data, "1") && h->get1.st.mzxid == h->xa.mzxid,
			"after release: sync ZOK, then getData 1 with A's mzxid",
			"sync %s, getData %s \"%s\" mzxid %s",
			h->sync1.done ? zkc_err_name(h->sync1.rc) : "pending",
			h->get1.done ? zkc_err_name(h->get1.rc) : "pending", h->get1.data,
			zkenslab_hex(h->get1.st.mzxid, h1));
	zkenslab_checkf(r, s->e, "own-write-then-read-sees-1",
			all && h->set1.rc == ZOK && h->get2.rc == ZOK && !strcmp(h->get2.data, "1"),
			"after release: setData(/barrier) ZOK, then getData 1",
			"setData %s (mzxid %s), getData %s \"%s\"",
			h->set1.done ? zkc_err_name(h->set1.rc) : "pending",
			zkenslab_hex(h->set1.st.mzxid, h1),
			h->get2.done ? zkc_err_name(h->get2.rc) : "pending", h->get2.data);
	if (all) {
		report_evidence(r, "release_to_sync_ms", "%lld", h->sync1.at_ms - t_rel);
		report_evidence(r, "follower_serves_1_after_release_ms", "%lld",
				h->get1.at_ms - t_rel);
		report_evidence(r, "release_to_own_write_ms", "%lld", h->set1.at_ms - t_rel);
		report_evidence(r, "barrier_mzxid", "%s", zkenslab_hex(h->set1.st.mzxid, h1));
	}
	enum zkensemble_mode md = zkensemble_mode(s->e, s->lagger, NULL);
	int lost = session_losses(s->b);
	zkenslab_checkf(r, s->e, "short-hold-keeps-follower", md == ZKENS_FOLLOWER && lost == 0,
			"still a follower, B never disconnected", "%s, B disconnected %d times",
			zkensemble_mode_name(md), lost);
}

/* Part 1: a short hold.  Returns 0 or a negative code (could not run). */
static int part_short_hold(struct lab_state *s, const struct Stat *x0)
{
	struct short_hold h = {0};
	zkasync_init(&h.sync1);
	zkasync_init(&h.get1);
	zkasync_init(&h.set1);
	zkasync_init(&h.get2);
	int rc = 0;
	a_writes_on_leader(s, &h);
	if (!h.stopped)
		rc = tell_b_out_of_band(s, &h, x0);
	if (!rc && !h.stopped)
		rc = b_asks_for_fresh_data(s, &h);
	if (!rc && !h.stopped) {
		release_short_hold(s, &h);
		if (!zkensemble_died(s->e, 0, NULL, 0, NULL))
			check_part1_histories(s, &h);
	}
	/* Completions may still run if we stop early: release so they can, and
	 * wait for them before their storage goes away (only for the calls
	 * that were queued: no completion comes for the others). */
	tcphold_release(s->link);
	struct zkasync *ops[] = {&h.sync1, &h.get1, &h.set1, &h.get2};
	for (size_t i = 0; i < 4; i++) {
		if (h.queued[i])
			zkasync_wait(ops[i], WAIT_MS, NULL);
		zkasync_destroy(ops[i]);
	}
	return rc;
}

/* Part 2: a hold longer than syncLimit x tickTime. */
static int part_long_hold(struct lab_state *s)
{
	struct report *r = s->r;
	char h1[24], h2[24];
	int limit_ms = SYNC_LIMIT * TICK_MS;
	struct zkasync set2;
	zkasync_init(&set2);
	int rc = 0, op_w2 = -1, queued = 0;

	struct Stat ignore;
	int zrc = zoo_exists(zkc_handle(s->a), "/x", 1, &ignore);
	if (zrc != ZOK) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "A cannot watch /x: %s", zkc_err_name(zrc));
		rc = zkc_to_wb(zrc);
		goto out;
	}
	report_step(r,
		    "part 2: hold the leader's bytes to follower %d again, now until the "
		    "follower gives up (syncLimit x tickTime = %d ms)",
		    s->lagger, limit_ms);
	struct tcphold_stats st0;
	tcphold_stats(s->link, &st0);
	long long t_hold = zkc_now_ms();
	tcphold_hold(s->link, TCPHOLD_DOWN);
	report_mark(r, "relay", "hold zk%d -> zk%d", s->leader, s->lagger);
	report_step(r, "B sets /x = 2 through follower %d, asynchronously", s->lagger);
	op_w2 = report_invoke(r, "B", "write", "2");
	zrc = zoo_aset(zkc_handle(s->b), "/x", "2", 1, -1, zkasync_stat_done, &set2);
	queued = zrc == ZOK;
	if (zrc != ZOK) {
		if (!zkenslab_gone(r, s->e))
			report_cannot(r, "B could not queue setData: %s", zkc_err_name(zrc));
		rc = zkc_to_wb(zrc);
		goto out;
	}
	struct zkc_event ev;
	int wrc = zkc_wait_event(s->a, ZOO_CHANGED_EVENT, "/x", WAIT_MS, &ev);
	report_evidence(r, "b_write_seen_on_leader_ms", "%lld", wrc == 0 ? ev.at_ms - t_hold : -1);

	/* F hears nothing for syncLimit ticks: it leaves the quorum and drops
	 * its clients.  B's write ends with connection loss. */
	int done = zkasync_wait(&set2, limit_ms + 2 * WAIT_MS, NULL) == 0;
	long long t_loss = zkc_now_ms();
	if (done)
		report_complete_at(r, op_w2, zkhist_type(set2.rc), NULL, zkhist_done_ns(&set2));
	zkenslab_checkf(r, s->e, "follower-drops-clients", done && set2.rc == ZCONNECTIONLOSS,
			"B's setData ends with ZCONNECTIONLOSS", "%s",
			done ? zkc_err_name(set2.rc) : "no completion within the deadline");
	if (done)
		report_evidence(r, "hold_to_connection_loss_ms", "%lld", set2.at_ms - t_hold);
	enum zkensemble_mode md = zkensemble_mode(s->e, s->lagger, NULL);
	if (md == ZKENS_NOT_SERVING) {
		/* the lane by role: which server lags varies by run */
		report_mark(r, "follower", "zk%d left the quorum: not serving", s->lagger);
	}
	zkenslab_checkf(r, s->e, "follower-stops-serving", md == ZKENS_NOT_SERVING,
			"follower's srvr: not currently serving requests", "%s",
			zkensemble_mode_name(md));
	char val[64];
	struct Stat xl;
	int op = report_invoke(r, "A", "read", NULL);
	zrc = zkenslab_read(s->a, "/x", val, sizeof val, &xl);
	report_complete(r, op, zkhist_type(zrc), val);
	zkenslab_checkf(
		r, s->e, "lost-write-was-committed", zrc == ZOK && !strcmp(val, "2") && wrc == 0,
		"on the leader /x = 2: B's write took effect although B got connection loss",
		"%s, \"%s\", mzxid %s", zkc_err_name(zrc), val, zkenslab_hex(xl.mzxid, h1));
	report_evidence(r, "b_lost_write_mzxid", "%s", zkenslab_hex(xl.mzxid, h1));
	relay_evidence(s, "relay_after_follower_left");
	(void)t_loss;

	/* Release: F rejoins through the same relay and serves again. */
	long long t_rel = zkc_now_ms();
	long long bytes = tcphold_release(s->link);
	report_mark(r, "relay", "release: %lld bytes to zk%d", bytes, s->lagger);
	report_step(r, "release after %lld ms held: %lld bytes flushed; follower %d rejoins",
		    t_rel - t_hold, bytes, s->lagger);
	report_evidence(r, "long_hold_ms", "%lld", t_rel - t_hold);
	report_story_wait(r, (long)(t_rel - t_hold), "sync-limit");
	enum zkensemble_mode m2 = ZKENS_DOWN;
	int jrc = zkensemble_wait_mode(s->e, s->lagger, 1u << ZKENS_FOLLOWER, 2 * WAIT_MS, &m2);
	long long t_serving = zkc_now_ms();
	int crc = zkc_wait_state(s->b, ZOO_CONNECTED_STATE, 2 * WAIT_MS, &ev);
	zkenslab_checkf(r, s->e, "follower-rejoins", jrc == 0 && crc == 0,
			"follower again, and B's session reconnects to it", "%s; B %s",
			zkensemble_mode_name(m2), crc == 0 ? "reconnected" : "not reconnected");
	if (jrc == 0)
		report_evidence(r, "release_to_follower_serving_ms", "%lld", t_serving - t_rel);
	if (crc == 0) {
		report_evidence(r, "release_to_b_reconnected_ms", "%lld", ev.at_ms - t_rel);
		/* the follower re-syncs with the leader (initLimit), then B's
		 * client finds it again at its reconnect pace */
		report_story_wait(r, (long)(ev.at_ms - t_rel), "rejoin");
	}
	struct tcphold_stats st1;
	tcphold_stats(s->link, &st1);
	report_evidence(r, "follower_link_reconnects", "%d", st1.accepted - st0.accepted);
	struct Stat xb;
	op = report_invoke(r, "B", "read", NULL);
	zrc = zkenslab_read(s->b, "/x", val, sizeof val, &xb);
	report_complete(r, op, zkhist_type(zrc), val);
	zkenslab_checkf(r, s->e, "rejoined-follower-serves-current",
			zrc == ZOK && !strcmp(val, "2") && xb.mzxid == xl.mzxid,
			"B reads 2 on the follower, the write it was told was lost",
			"%s, \"%s\", mzxid %s", zkc_err_name(zrc), val, zkenslab_hex(xb.mzxid, h2));
out:
	tcphold_release(s->link);
	if (queued)
		zkasync_wait(&set2, WAIT_MS, NULL);
	zkasync_destroy(&set2);
	return rc;
}

static int stale_read_run(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	struct lab_state s = {.r = r};
	char h1[24];
	int rc = 0;
	struct zkensemble_opts opts = {
		.n = 3,
		.tick_ms = TICK_MS,
		.sync_limit = SYNC_LIMIT,
		.init_limit = INIT_LIMIT,
		.max_session_ms = 60000,
		.start_timeout_ms = START_WAIT_MS,
		.relay_quorum = 1,
	};
	report_step(r, "start three ZooKeeper servers on 127.0.0.1; every follower -> leader "
		       "link runs through a relay the lab controls");
	rc = zkenslab_start(r, ctx->run_dir, &opts, &s.e);
	if (rc)
		goto out;
	int followers[2], nf = 0;
	s.leader = zkenslab_roles(s.e, followers, 2, &nf);
	s.lagger = nf > 0 ? followers[0] : 0;
	s.other = nf > 1 ? followers[1] : 0;
	if (!s.leader || !s.lagger || !s.other) {
		if (!zkenslab_gone(r, s.e))
			report_cannot(r, "no single leader after start-up");
		rc = WB_EIO;
		goto out;
	}
	s.link = zkensemble_quorum_relay(s.e, s.lagger, s.leader);
	report_evidence(r, "servers", "leader %d (%s), lagging follower %d (%s), follower %d (%s)",
			s.leader, zkensemble_connect(s.e, s.leader), s.lagger,
			zkensemble_connect(s.e, s.lagger), s.other,
			zkensemble_connect(s.e, s.other));
	report_evidence(r, "timing", "tickTime %d ms, syncLimit %d ticks, initLimit %d ticks",
			TICK_MS, SYNC_LIMIT, INIT_LIMIT);

	rc = zkc_connect(zkensemble_connect(s.e, s.leader), SESSION_MS, WAIT_MS, ctx->run_dir,
			 &s.a);
	if (!rc)
		rc = zkc_connect(zkensemble_connect(s.e, s.lagger), SESSION_MS, WAIT_MS,
				 ctx->run_dir, &s.b);
	if (rc) {
		if (!zkenslab_gone(r, s.e))
			report_cannot(r, "cannot connect A to the leader or B to the follower");
		goto out;
	}
	zkenslab_watch(s.e, s.a); /* their waits end when the servers die */
	zkenslab_watch(s.e, s.b);
	char ha[ZKC_HEX_LEN], hb[ZKC_HEX_LEN];
	report_evidence(r, "sessions", "A %s on server %d, B %s on server %d, %d ms each",
			zkc_hex(zkc_session_id(s.a), ha), s.leader,
			zkc_hex(zkc_session_id(s.b), hb), s.lagger, zkc_session_timeout(s.b));
	s.op_w0 = report_invoke(r, "A", "write", "0");
	int zrc = zoo_create(zkc_handle(s.a), "/x", "0", 1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	report_complete(r, s.op_w0, zkhist_type(zrc), NULL);
	if (zrc == ZOK)
		zrc = zoo_create(zkc_handle(s.a), "/barrier", "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL,
				 0);
	if (zrc != ZOK) {
		if (!zkenslab_gone(r, s.e))
			report_cannot(r, "cannot create /x and /barrier: %s", zkc_err_name(zrc));
		rc = zkc_to_wb(zrc);
		goto out;
	}
	/* Baseline, nothing held: B's sync + read sees A's /x = 0. */
	s.op_base = report_invoke(r, "B", "read", NULL);
	zrc = zkenslab_sync(s.b, "/x", WAIT_MS, NULL);
	char val[64] = "";
	struct Stat x0;
	int grc = zrc == ZOK ? zkenslab_read(s.b, "/x", val, sizeof val, &x0) : zrc;
	report_complete(r, s.op_base, zkhist_type(grc), val);
	struct tcphold_stats st;
	tcphold_stats(s.link, &st);
	zkenslab_checkf(r, s.e, "baseline", grc == ZOK && !strcmp(val, "0") && st.open == 1,
			"B reads 0 on the follower; its link to the leader runs through the relay",
			"%s \"%s\", relay connections open %d", zkc_err_name(grc), val, st.open);
	if (grc != ZOK || st.open != 1) {
		rc = 0;
		goto out;
	}
	report_evidence(r, "x0_mzxid", "%s", zkenslab_hex(x0.mzxid, h1));

	/* Test hook: the servers are up and both sessions open (a test kills
	 * the JVM here: tests/integration/ensemble_death.sh). */
	testhook_hold("lab-step");
	rc = part_short_hold(&s, &x0);
	if (!rc && zkensemble_died(s.e, 0, NULL, 0, NULL))
		rc = zkenslab_gone(r, s.e) ? WB_EUNAVAIL : 0;
	if (!rc && report_failed(r) == 0)
		rc = part_long_hold(&s);
	else if (!rc)
		report_step(r, "part 2 skipped: part 1 failed");
out:
	zkc_close(s.a);
	zkc_close(s.b);
	zkenslab_stop(r, s.e);
	return rc;
}

/* The entry point registered as lab_zk_stale_read in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"A plain read on a lagging follower returned an older value than a write that "
		"had already completed; sync, or a write of the session's own, before the read "
		"returned the current value. A follower held back longer than syncLimit x "
		"tickTime left the quorum and dropped its clients, and served current data once "
		"it had rejoined.");
	return lab_outcome_of(ctx, stale_read_run(ctx));
}

const lab_run_fn lab_zk_stale_read = lab_main;
