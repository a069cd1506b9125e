/*
 * zkensemble.c - an N-server ZooKeeper ensemble on 127.0.0.1 (see
 * zkensemble.h).
 *
 * Design notes:
 *  - Members are plain zkserver objects with myid 1..N; zkserver reserves
 *    their three ports and writes the myid file.  This file only writes
 *    each member's own view of the server.N lines (real ports for itself,
 *    relay ports for the links that are relayed) plus initLimit/syncLimit,
 *    through zkserver_set_extra_cfg.
 *  - One thread per member (an actor with a one-slot mailbox) performs
 *    that member's starts and stops.  Starts must come from a thread that
 *    outlives the JVM (PR_SET_PDEATHSIG is per thread), and all members
 *    must start at once (none serves before a quorum has formed).  Stops
 *    run in parallel too, so tearing down N members costs one grace
 *    period, not N.  Kill is immediate and runs on the caller's thread.
 *  - Modes come from 'srvr' ("Mode: leader"); a server that is up but has
 *    no quorum answers "This ZooKeeper instance is not currently serving
 *    requests".
 *
 * Invariants: e->mu guards the mailboxes (req, seq, done, rc); a zkserver
 * object is touched by its member thread only while a start or stop it
 * was asked for runs, and the caller waits for that to finish.
 */
#include "harness/zk/zkensemble.h"
#include "base/mono.h"
#include "base/wb.h"
#include "harness/tcphold.h"
#include "harness/zk/zkserver.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum req { REQ_NONE, REQ_START, REQ_STOP, REQ_KILL, REQ_HOST, REQ_EXIT };

struct member {
	struct zkensemble *e; /* back pointer */
	int myid;	      /* 1..n */
	struct zkserver *s;   /* the server */
	int quorum_port;      /* real ports, parsed from its quorum line */
	int election_port;    /* " */
	pthread_t thread;     /* its actor thread */
	int thread_started;   /* must be joined */
	enum req req;	      /* posted request, REQ_NONE when idle */
	uint64_t seq, done;   /* posted / finished requests */
	int rc;		      /* result of the last finished request */
};

struct zkensemble {
	int n;							/* members */
	int tick_ms, init_limit, sync_limit;			/* shared settings */
	struct member m[ZKENSEMBLE_MAX];			/* m[i] has myid i + 1 */
	struct tcphold *qrelay[ZKENSEMBLE_MAX][ZKENSEMBLE_MAX]; /* [from-1][to-1] or NULL */
	struct tcphold *erelay[ZKENSEMBLE_MAX][ZKENSEMBLE_MAX]; /* same, election */
	char *connect_all;					/* "h:p,h:p,..." */
	pthread_mutex_t mu;					/* guards the mailboxes */
	pthread_cond_t cond;					/* mailbox changes */
	char *run_dir;						/* for the shared JVM */
	char *launcher;						/* its source, or NULL */
	int want_shared;     /* opts.shared_jvm, until it fails */
	struct zkhost *host; /* the shared JVM, or NULL */
	char note[1024];     /* why none is shared */
	char err[2048];	     /* last error */
	int death_told;	     /* zkensemble_died told a caller of a death */
};

static void set_err(struct zkensemble *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_err(struct zkensemble *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->err, sizeof e->err, fmt, ap);
	va_end(ap);
}

static struct member *member(struct zkensemble *e, int myid)
{
	return e && myid >= 1 && myid <= e->n ? &e->m[myid - 1] : NULL;
}

#ifndef WB_ZK_LAUNCHER
#define WB_ZK_LAUNCHER "data/zk/MultiPeer.java"
#endif
#ifndef WB_ZK_LAUNCHER_SHARE
#define WB_ZK_LAUNCHER_SHARE "/usr/local/share/workbench/data/zk/MultiPeer.java"
#endif

/* Spawns the shared JVM with every member (from member 1's thread).
 * WB_EUNAVAIL: no launcher (the caller falls back, e->note says why). */
static int host_spawn(struct zkensemble *e)
{
	const char *src = e->launcher			      ? e->launcher
			  : access(WB_ZK_LAUNCHER, R_OK) == 0 ? WB_ZK_LAUNCHER
							      : WB_ZK_LAUNCHER_SHARE;
	struct zkserver *m[ZKENSEMBLE_MAX];
	for (int i = 0; i < e->n; i++)
		m[i] = e->m[i].s;
	char *why = NULL;
	int rc = zkhost_spawn(e->run_dir, src, m, e->n, &e->host, &why);
	if (rc == WB_EUNAVAIL)
		snprintf(e->note, sizeof e->note, "one JVM per member: %s", why);
	else if (rc)
		set_err(e, "the shared JVM: %s", why);
	free(why);
	return rc;
}

static void *member_main(void *arg)
{
	struct member *m = arg;
	struct zkensemble *e = m->e;
	pthread_mutex_lock(&e->mu);
	for (;;) {
		while (m->req == REQ_NONE)
			pthread_cond_wait(&e->cond, &e->mu);
		enum req req = m->req;
		if (req == REQ_EXIT)
			break;
		pthread_mutex_unlock(&e->mu);
		int rc = req == REQ_START  ? zkserver_start(m->s)
			 : req == REQ_KILL ? zkserver_discard(m->s)
			 : req == REQ_HOST ? host_spawn(e)
					   : zkserver_stop(m->s);
		pthread_mutex_lock(&e->mu);
		m->req = REQ_NONE;
		m->rc = rc;
		m->done = m->seq;
		pthread_cond_broadcast(&e->cond);
	}
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

/* Posts req to every member whose bit is set in mask, then waits for all
 * of them.  rcs[i] receives member i+1's result. */
static void run_on(struct zkensemble *e, unsigned mask, enum req req, int rcs[ZKENSEMBLE_MAX])
{
	uint64_t want[ZKENSEMBLE_MAX] = {0};
	pthread_mutex_lock(&e->mu);
	for (int i = 0; i < e->n; i++) {
		if (!(mask & (1u << i)) || !e->m[i].thread_started)
			continue;
		e->m[i].req = req;
		want[i] = ++e->m[i].seq;
	}
	pthread_cond_broadcast(&e->cond);
	for (int i = 0; i < e->n; i++) {
		if (!want[i])
			continue;
		while (e->m[i].done < want[i])
			pthread_cond_wait(&e->cond, &e->mu);
		rcs[i] = e->m[i].rc;
	}
	pthread_mutex_unlock(&e->mu);
}

/* Writes member i's view of the ensemble into its extra config. */
static void member_config(struct zkensemble *e, int i, const char *extra)
{
	struct wb_buf b = {0};
	wb_buf_printf(&b,
		      "# zkensemble: this member's view (relayed links point at relays)\n"
		      "initLimit=%d\n"
		      "syncLimit=%d\n",
		      e->init_limit, e->sync_limit);
	for (int j = 0; j < e->n; j++) {
		int q = e->m[j].quorum_port, el = e->m[j].election_port;
		if (e->qrelay[i][j])
			q = tcphold_port(e->qrelay[i][j]);
		if (e->erelay[i][j])
			el = tcphold_port(e->erelay[i][j]);
		wb_buf_printf(&b, "server.%d=127.0.0.1:%d:%d\n", j + 1, q, el);
	}
	if (extra && *extra) {
		wb_buf_puts(&b, extra);
		if (b.data[b.len - 1] != '\n')
			wb_buf_puts(&b, "\n");
	}
	zkserver_set_extra_cfg(e->m[i].s, b.data);
	wb_buf_free(&b);
}

/* The members' servers (directories, myid files, reserved ports) and
 * the connect string of them all.  0, or the error with *why. */
static int make_members(struct zkensemble *e, const char *run_dir,
			const struct zkensemble_opts *opts, char **why)
{
	int n = e->n, rc = 0;
	struct wb_buf all = {0};
	for (int i = 0; i < n; i++) {
		struct member *m = &e->m[i];
		m->e = e;
		m->myid = i + 1;
		struct zkserver_opts so = {
			.tick_ms = e->tick_ms,
			.max_session_ms = opts->max_session_ms,
			.start_timeout_ms = opts->start_timeout_ms,
			.myid = i + 1,
		};
		rc = zkserver_new(run_dir, &so, &m->s, why);
		if (rc)
			break;
		int id = 0;
		if (sscanf(zkserver_quorum_line(m->s), "server.%d=127.0.0.1:%d:%d", &id,
			   &m->quorum_port, &m->election_port) != 3) {
			if (why)
				*why = wb_xasprintf("zkensemble: unexpected quorum line \"%s\"",
						    zkserver_quorum_line(m->s));
			rc = WB_EIO;
			break;
		}
		wb_buf_printf(&all, "%s%s", i ? "," : "", zkserver_connect(m->s));
	}
	if (!rc)
		e->connect_all = wb_buf_steal(&all);
	wb_buf_free(&all);
	return rc;
}

/* How long a quorum relay waits for its leader to listen (see
 * make_relays): QUORUM_RETRY_MS, or initLimit x tickTime when shorter. */
#define QUORUM_RETRY_MS 2000
static int quorum_retry_ms(const struct zkensemble *e)
{
	int init = e->init_limit * e->tick_ms;
	return init < QUORUM_RETRY_MS ? init : QUORUM_RETRY_MS;
}

/* The relays asked for (quorum and election links, i -> j for i != j),
 * lower -> higher election relays refusing, the others retrying their
 * member.  0, or WB_EIO (or tcphold's code) with *why. */
static int make_relays(struct zkensemble *e, const struct zkensemble_opts *opts, char **why)
{
	int n = e->n, rc = 0;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			if (i == j)
				continue;
			char name[64];
			if (opts->relay_quorum) {
				snprintf(name, sizeof name, "quorum %d->%d", i + 1, j + 1);
				rc = tcphold_new(e->m[j].quorum_port, name, &e->qrelay[i][j]);
				/* A follower may connect the moment its leader is
				 * elected, before the leader listens: without a
				 * relay it would be refused and retry; through one
				 * it is accepted, so the relay must wait instead of
				 * closing (which the follower takes for a dead
				 * leader).  But not for long: a follower can also
				 * pick a member that then follows someone else
				 * (its vote came before a better one reached that
				 * member), and while the relay waits the follower
				 * waits for a leader that never comes, initLimit x
				 * tickTime (10 s) before it looks again.  ZooKeeper
				 * itself gives a refused leader 5 tries 100 ms
				 * apart; QUORUM_RETRY_MS is that with room for a
				 * loaded machine. */
				if (!rc)
					tcphold_set_connect_retry(e->qrelay[i][j],
								  quorum_retry_ms(e));
			}
			if (!rc && opts->relay_election) {
				snprintf(name, sizeof name, "election %d->%d", i + 1, j + 1);
				rc = tcphold_new(e->m[j].election_port, name, &e->erelay[i][j]);
			}
			if (rc) {
				if (why)
					*why = wb_xstrdup("zkensemble: cannot start a relay on "
							  "127.0.0.1");
				return rc;
			}
		}
	}
	/* Lower -> higher election relays refuse for good, higher -> lower
	 * ones wait for their member to listen: see zkensemble.h. */
	int retry = opts->start_timeout_ms ? opts->start_timeout_ms : 60000;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			if (!e->erelay[i][j])
				continue;
			if (i < j)
				tcphold_refuse(e->erelay[i][j], 1);
			else
				tcphold_set_connect_retry(e->erelay[i][j], retry);
		}
	}
	return 0;
}

/* One thread per member, which starts its JVM on request and lives as long
 * as the ensemble.  0, or WB_EIO with *why. */
static int start_member_threads(struct zkensemble *e, char **why)
{
	for (int i = 0; i < e->n; i++) {
		if (pthread_create(&e->m[i].thread, NULL, member_main, &e->m[i]) != 0) {
			if (why)
				*why = wb_xstrdup("zkensemble: cannot create a member thread");
			return WB_EIO;
		}
		e->m[i].thread_started = 1;
	}
	return 0;
}

int zkensemble_new(const char *run_dir, const struct zkensemble_opts *opts, struct zkensemble **out,
		   char **why)
{
	static const struct zkensemble_opts defaults;
	if (!opts)
		opts = &defaults;
	*out = NULL;
	if (why)
		*why = NULL;
	int n = opts->n ? opts->n : 3;
	if (!run_dir || n < 1 || n > ZKENSEMBLE_MAX || opts->tick_ms < 0 || opts->init_limit < 0 ||
	    opts->sync_limit < 0 || opts->max_session_ms < 0 || opts->start_timeout_ms < 0) {
		if (why)
			*why = wb_xasprintf("zkensemble: bad options (1..%d members, no negative "
					    "times)",
					    ZKENSEMBLE_MAX);
		return WB_EINVAL;
	}
	struct zkensemble *e = wb_xcalloc(1, sizeof *e);
	e->n = n;
	e->tick_ms = opts->tick_ms ? opts->tick_ms : 200;
	e->init_limit = opts->init_limit ? opts->init_limit : 50;
	e->sync_limit = opts->sync_limit ? opts->sync_limit : 10;
	e->run_dir = wb_xstrdup(run_dir);
	e->launcher = opts->launcher ? wb_xstrdup(opts->launcher) : NULL;
	e->want_shared = opts->shared_jvm;
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->cond, NULL);
	int rc = make_members(e, run_dir, opts, why);
	if (!rc)
		rc = make_relays(e, opts, why);
	if (!rc) {
		for (int i = 0; i < n; i++)
			member_config(e, i, opts->extra_cfg);
		rc = start_member_threads(e, why);
	}
	if (rc) {
		zkensemble_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

void zkensemble_free(struct zkensemble *e)
{
	if (!e)
		return;
	int rcs[ZKENSEMBLE_MAX];
	unsigned running = 0;
	zkhost_end(e->host); /* its members' pids are forgotten */
	e->host = NULL;
	for (int i = 0; i < e->n; i++)
		if (e->m[i].s && zkserver_pid(e->m[i].s) > 0)
			running |= 1u << i;
	/* The members' data is the run's and goes with the run folder: a
	 * SIGKILL ends each at once, where SIGTERM waits for the JVM. */
	run_on(e, running, REQ_KILL, rcs);
	pthread_mutex_lock(&e->mu);
	for (int i = 0; i < e->n; i++)
		e->m[i].req = REQ_EXIT;
	pthread_cond_broadcast(&e->cond);
	pthread_mutex_unlock(&e->mu);
	for (int i = 0; i < e->n; i++) {
		if (e->m[i].thread_started)
			pthread_join(e->m[i].thread, NULL);
		zkserver_free(e->m[i].s); /* stops it if a start raced the free */
	}
	for (int i = 0; i < e->n; i++) {
		for (int j = 0; j < e->n; j++) {
			tcphold_free(e->qrelay[i][j]);
			tcphold_free(e->erelay[i][j]);
		}
	}
	free(e->connect_all);
	free(e->run_dir);
	free(e->launcher);
	pthread_cond_destroy(&e->cond);
	pthread_mutex_destroy(&e->mu);
	free(e);
}

enum zkensemble_mode zkensemble_mode(struct zkensemble *e, int myid, int64_t *zxid)
{
	if (zxid)
		*zxid = -1;
	struct member *m = member(e, myid);
	if (!m)
		return ZKENS_DOWN;
	char *answer = NULL;
	if (zk_four_letter("127.0.0.1", zkserver_port(m->s), "srvr", 2000, &answer) != 0) {
		free(answer);
		return ZKENS_DOWN;
	}
	enum zkensemble_mode mode = ZKENS_NOT_SERVING;
	const char *p = strstr(answer, "Mode: ");
	if (p) {
		p += 6;
		if (!strncmp(p, "leader", 6))
			mode = ZKENS_LEADER;
		else if (!strncmp(p, "follower", 8))
			mode = ZKENS_FOLLOWER;
		else
			mode = ZKENS_OTHER;
	} else if (!*answer) {
		mode = ZKENS_DOWN; /* closed without a word: not really up */
	}
	const char *z = strstr(answer, "Zxid: ");
	if (z && zxid)
		*zxid = (int64_t)strtoull(z + 6, NULL, 0);
	free(answer);
	return mode;
}

int zkensemble_leader(struct zkensemble *e)
{
	for (int id = 1; id <= e->n; id++)
		if (zkensemble_mode(e, id, NULL) == ZKENS_LEADER)
			return id;
	return 0;
}

/* Whether a JVM of e has died by now (see zkensemble_died). */
static int died_now(struct zkensemble *e, char *why, size_t n)
{
	if (e->host) {
		pid_t pid = zkhost_pid(e->host);
		siginfo_t si;
		memset(&si, 0, sizeof si);
		if (pid <= 0 || waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
		    si.si_pid != pid)
			return 0;
		if (why && n && si.si_code == CLD_EXITED)
			snprintf(why, n,
				 "the ZooKeeper server (pid %d, the JVM of all %d members) died: "
				 "it exited with status %d",
				 (int)pid, e->n, si.si_status);
		else if (why && n)
			snprintf(why, n,
				 "the ZooKeeper server (pid %d, the JVM of all %d members) died: "
				 "killed by signal %d",
				 (int)pid, e->n, si.si_status);
		return 1;
	}
	for (int i = 0; i < e->n; i++)
		if (e->m[i].s && zkserver_died(e->m[i].s, why, n))
			return 1;
	return 0;
}

int zkensemble_died(struct zkensemble *e, int wait_ms, char *why, size_t n, int *first)
{
	if (!e)
		return 0;
	long long end = mono_now_ms() + (wait_ms > 0 ? wait_ms : 0);
	struct timespec step = {0, 10 * 1000 * 1000};
	while (!died_now(e, why, n)) {
		if (mono_now_ms() >= end)
			return 0;
		nanosleep(&step, NULL);
	}
	if (first) {
		*first = !e->death_told;
		e->death_told = 1;
	}
	return 1;
}

int zkensemble_wait_mode(struct zkensemble *e, int myid, unsigned mask, int timeout_ms,
			 enum zkensemble_mode *mode)
{
	long long deadline = mono_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	struct timespec step = {0, 20 * 1000 * 1000};
	for (;;) {
		enum zkensemble_mode md = zkensemble_mode(e, myid, NULL);
		if (mask & (1u << md)) {
			if (mode)
				*mode = md;
			return 0;
		}
		if (mono_now_ms() >= deadline || died_now(e, NULL, 0)) {
			if (mode)
				*mode = md;
			return WB_EBUSY;
		}
		nanosleep(&step, NULL);
	}
}

int zkensemble_wait_zxid(struct zkensemble *e, int myid, int64_t want, int timeout_ms)
{
	long long deadline = mono_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	struct timespec step = {0, 20 * 1000 * 1000};
	for (;;) {
		int64_t z = -1;
		zkensemble_mode(e, myid, &z);
		if (z >= want)
			return 0;
		if (mono_now_ms() >= deadline || died_now(e, NULL, 0))
			return WB_EBUSY;
		nanosleep(&step, NULL);
	}
}

int zkensemble_wait_leader(struct zkensemble *e, const int *among, int n, int timeout_ms)
{
	long long deadline = mono_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	struct timespec step = {0, 20 * 1000 * 1000};
	if (!among)
		n = e->n;
	for (;;) {
		for (int i = 0; i < n; i++) {
			int id = among ? among[i] : i + 1;
			if (zkensemble_mode(e, id, NULL) == ZKENS_LEADER)
				return id;
		}
		if (mono_now_ms() >= deadline || died_now(e, NULL, 0))
			return 0;
		nanosleep(&step, NULL);
	}
}

const char *zkensemble_mode_name(enum zkensemble_mode mode)
{
	switch (mode) {
	case ZKENS_DOWN: return "down";
	case ZKENS_NOT_SERVING: return "not serving";
	case ZKENS_FOLLOWER: return "follower";
	case ZKENS_LEADER: return "leader";
	case ZKENS_OTHER: return "other";
	}
	return "?";
}

/* Starts the members in mask inside the shared JVM (spawning it the
 * first time) and waits for each; rcs[i] receives member i+1's result.
 * When the launcher cannot be had, the members start one JVM each. */
static void start_shared(struct zkensemble *e, unsigned mask, int rcs[ZKENSEMBLE_MAX])
{
	if (!e->host) {
		int hrc[ZKENSEMBLE_MAX] = {0};
		run_on(e, 1u, REQ_HOST, hrc);
		if (hrc[0] == WB_EUNAVAIL) {
			e->want_shared = 0;
			run_on(e, mask, REQ_START, rcs);
			return;
		}
		for (int i = 0; i < e->n; i++)
			rcs[i] = hrc[0];
		if (hrc[0])
			return;
	} else {
		for (int i = 0; i < e->n; i++)
			if (mask & (1u << i))
				rcs[i] = zkhost_start_member(e->host, i + 1);
	}
	/* The members come up together inside the JVM: waiting for them
	 * one after the other costs no more than the slowest. */
	for (int i = 0; i < e->n; i++)
		if ((mask & (1u << i)) && !rcs[i])
			rcs[i] = zkserver_wait_ready(e->m[i].s);
}

int zkensemble_start(struct zkensemble *e)
{
	e->err[0] = '\0';
	char *why = NULL;
	int rc = zkserver_check_runtime(&why);
	if (rc) {
		set_err(e, "%s", why);
		free(why);
		return rc;
	}
	unsigned mask = 0;
	for (int i = 0; i < e->n; i++)
		if (zkserver_pid(e->m[i].s) <= 0)
			mask |= 1u << i;
	int rcs[ZKENSEMBLE_MAX] = {0};
	if (e->want_shared)
		start_shared(e, mask, rcs);
	else
		run_on(e, mask, REQ_START, rcs);
	/* In a shared JVM one member's failure ends every member: report the
	 * member that failed, whose log holds the reason. */
	int first = zkhost_failed_member(e->host) - 1;
	if (first < 0 || !(mask & (1u << first)) || !rcs[first])
		first = 0;
	for (int j = 0; j < e->n; j++) {
		int i = (first + j) % e->n;
		if ((mask & (1u << i)) && rcs[i]) {
			if (!e->host && e->want_shared) /* the shared JVM did not start */
				return rcs[i] == WB_EUNAVAIL ? WB_EUNAVAIL : WB_EIO;
			set_err(e, "member %d: %s", i + 1, zkserver_error(e->m[i].s));
			return rcs[i] == WB_EUNAVAIL ? WB_EUNAVAIL : WB_EIO;
		}
	}
	int leaders = 0;
	struct wb_buf modes = {0};
	for (int id = 1; id <= e->n; id++) {
		enum zkensemble_mode md = zkensemble_mode(e, id, NULL);
		leaders += md == ZKENS_LEADER;
		wb_buf_printf(&modes, "%s%d: %s", id > 1 ? ", " : "", id, zkensemble_mode_name(md));
	}
	rc = 0;
	if (leaders != 1) {
		set_err(e, "after start-up %d members report Mode leader (%s); see %s", leaders,
			modes.data, zkserver_log_path(e->m[0].s));
		rc = WB_EIO;
	}
	wb_buf_free(&modes);
	return rc;
}

int zkensemble_start_member(struct zkensemble *e, int myid)
{
	struct member *m = member(e, myid);
	if (!m || zkserver_pid(m->s) > 0)
		return WB_EINVAL;
	int rcs[ZKENSEMBLE_MAX] = {0};
	if (e->host)
		start_shared(e, 1u << (myid - 1), rcs);
	else
		run_on(e, 1u << (myid - 1), REQ_START, rcs);
	if (rcs[myid - 1]) {
		set_err(e, "member %d: %s", myid, zkserver_error(m->s));
		return rcs[myid - 1] == WB_EUNAVAIL ? WB_EUNAVAIL : WB_EIO;
	}
	return 0;
}

int zkensemble_stop_member(struct zkensemble *e, int myid)
{
	struct member *m = member(e, myid);
	if (!m)
		return WB_EINVAL;
	if (e->host)
		return zkhost_stop_member(e->host, myid);
	int rcs[ZKENSEMBLE_MAX] = {0};
	run_on(e, 1u << (myid - 1), REQ_STOP, rcs);
	return rcs[myid - 1];
}

int zkensemble_kill_member(struct zkensemble *e, int myid)
{
	struct member *m = member(e, myid);
	if (m && e->host) {
		set_err(e,
			"member %d runs in the shared JVM: a crash of one member needs "
			"one JVM per member (shared_jvm off)",
			myid);
		return WB_EINVAL;
	}
	return m ? zkserver_kill(m->s) : WB_EINVAL;
}

int zkensemble_size(const struct zkensemble *e)
{
	return e->n;
}

struct zkserver *zkensemble_server(struct zkensemble *e, int myid)
{
	struct member *m = member(e, myid);
	return m ? m->s : NULL;
}

const char *zkensemble_connect(struct zkensemble *e, int myid)
{
	struct member *m = member(e, myid);
	return m ? zkserver_connect(m->s) : "";
}

const char *zkensemble_connect_all(struct zkensemble *e)
{
	return e->connect_all;
}

int zkensemble_quorum_port(const struct zkensemble *e, int myid)
{
	return myid >= 1 && myid <= e->n ? e->m[myid - 1].quorum_port : 0;
}

int zkensemble_election_port(const struct zkensemble *e, int myid)
{
	return myid >= 1 && myid <= e->n ? e->m[myid - 1].election_port : 0;
}

int zkensemble_tick_ms(const struct zkensemble *e)
{
	return e->tick_ms;
}

int zkensemble_sync_limit(const struct zkensemble *e)
{
	return e->sync_limit;
}

int zkensemble_init_limit(const struct zkensemble *e)
{
	return e->init_limit;
}

const char *zkensemble_error(const struct zkensemble *e)
{
	return e->err;
}

int zkensemble_shared(const struct zkensemble *e)
{
	return e->host != NULL;
}

const char *zkensemble_note(const struct zkensemble *e)
{
	return e->note;
}

struct tcphold *zkensemble_quorum_relay(struct zkensemble *e, int from, int to)
{
	if (from < 1 || from > e->n || to < 1 || to > e->n)
		return NULL;
	return e->qrelay[from - 1][to - 1];
}

struct tcphold *zkensemble_election_relay(struct zkensemble *e, int from, int to)
{
	if (from < 1 || from > e->n || to < 1 || to > e->n)
		return NULL;
	return e->erelay[from - 1][to - 1];
}

int zkensemble_block_election(struct zkensemble *e, int a, int b, int block)
{
	if (a < 1 || a > e->n || b < 1 || b > e->n || a == b)
		return WB_EINVAL;
	int hi = a > b ? a : b, lo = a > b ? b : a;
	struct tcphold *carrier = e->erelay[hi - 1][lo - 1];
	if (!carrier)
		return WB_EINVAL;
	if (block)
		tcphold_hold(carrier, TCPHOLD_BOTH);
	else
		tcphold_release(carrier);
	return 0;
}
