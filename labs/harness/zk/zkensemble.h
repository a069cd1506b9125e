/*
 * zkensemble.h - an N-server ZooKeeper ensemble on 127.0.0.1 for one lab
 * or test, built from harness/zkserver.h members (myid 1..N, each with its
 * own client, quorum and election ports, data directory and myid file).
 *
 * Links between servers can be routed through relays (harness/tcphold.h):
 * with relay_quorum, member i reaches member j's quorum port (the port a
 * follower connects to when j leads) through a relay of its own, i->j, so
 * a lab can hold or cut exactly the link between one follower and the
 * leader, whichever server won the election.  relay_election does the same
 * for election ports (needed to partition an ensemble).  Each member's
 * zoo.cfg carries its own view of the server.N lines.  A quorum relay
 * waits (up to 2 s, or initLimit x tickTime when shorter) for a leader
 * that does not listen yet, as ZooKeeper's own connect retries would
 * (5 tries 100 ms apart); then it closes, and the follower looks for a
 * leader again, as it does when its connects are refused.
 *
 * Election links need two more rules.  ZooKeeper keeps one election
 * connection per pair, the one the higher myid opened; when a lower myid
 * connects, the higher one drops that connection and connects back to the
 * address the lower one announced for itself - its real port, past any
 * relay.  So the relays from a lower to a higher myid refuse every
 * connection, for the whole life of the ensemble, and each pair talks only
 * over the higher member's relay.  Since the lower member can then never
 * start the connection, the higher member's first attempt must not be
 * lost: its relay accepts at once and retries the lower member's port
 * until that member listens (members start in any order).  Blocking an
 * election link therefore holds it (both directions buffered, the
 * connection kept) rather than cutting it: a cut pair could only meet
 * again when the higher member next has something to say.
 *
 * Start-up: every member is started at once (a member only reports a Mode
 * once a quorum has formed, so starting them one by one would wait
 * forever), and zkensemble_start returns when each answers 'ruok' and
 * 'srvr' reports Mode leader or follower, with exactly one leader.  Each
 * member is started from a thread of its own that lives as long as the
 * ensemble, because the JVM is killed when the thread that spawned it
 * exits (PR_SET_PDEATHSIG, see zkserver.h).  Every JVM is recorded in the
 * run directory (harness/proc.h) and stopped by zkensemble_free.
 *
 * Settings the members share: tickTime, initLimit and syncLimit (a
 * follower that hears nothing from its leader for syncLimit ticks leaves
 * the quorum, and the leader drops a follower that does not answer for as
 * long), maxSessionTimeout.  initLimit and syncLimit are appended to
 * zoo.cfg after zkserver's own defaults; the server reads zoo.cfg as Java
 * properties, where the last value of a key wins.
 *
 * Shared JVM (opts.shared_jvm): every member runs as a thread group of
 * one JVM (zkhost in zkserver.h: Debian's QuorumPeerMain per member, each
 * with its own zoo.cfg, ports, data and log, the same relays), so the
 * JVM's start and class loading are paid once: on 2 cores a 3- or
 * 5-member start takes about half as long.  That JVM is spawned from
 * member 1's thread and recorded like any server; stop_member and
 * start_member shut a member's peer down and start it again inside it;
 * kill_member is refused (a crash of one member needs its own process).
 * When the launcher cannot be compiled (a runtime without the
 * jdk.compiler module) the ensemble runs one JVM per member and
 * zkensemble_note says so.
 *
 * Not here: clients, dynamic reconfiguration, observers, reports.
 */
#ifndef WB_ZKENSEMBLE_H
#define WB_ZKENSEMBLE_H

#include <stddef.h>
#include <stdint.h>

struct tcphold;
struct zkserver;

#define ZKENSEMBLE_MAX 9

struct zkensemble_opts {
	int n;		       /* members, 1..ZKENSEMBLE_MAX; 0: 3 */
	int tick_ms;	       /* tickTime; 0: 200 */
	int init_limit;	       /* initLimit in ticks; 0: 50 */
	int sync_limit;	       /* syncLimit in ticks; 0: 10 */
	int max_session_ms;    /* maxSessionTimeout; 0: 60000 */
	int start_timeout_ms;  /* how long a start may take; 0: 60000 */
	int relay_quorum;      /* route i -> j quorum links through relays */
	int relay_election;    /* route i -> j election links through relays */
	const char *extra_cfg; /* appended to every member's zoo.cfg, or NULL */
	int shared_jvm;	       /* every member in one JVM (see below) */
	const char *launcher;  /* its source; NULL: the shipped data/zk/MultiPeer.java */
};

/* What 'srvr' says about one member. */
enum zkensemble_mode {
	ZKENS_DOWN = 0,	   /* no answer (not running, or not listening) */
	ZKENS_NOT_SERVING, /* up, but "not currently serving requests" */
	ZKENS_FOLLOWER,	   /* Mode: follower */
	ZKENS_LEADER,	   /* Mode: leader */
	ZKENS_OTHER,	   /* another Mode (standalone, observer) */
};

struct zkensemble;

/* Creates the members (directories, myid files, reserved ports) and, when
 * asked, the relays; starts no server.  opts may be NULL.  Returns 0,
 * WB_EINVAL (bad options) or WB_EIO; on error *out is NULL and *why (when
 * why is non-NULL) receives a message the caller frees.  *out is freed
 * with zkensemble_free. */
int zkensemble_new(const char *run_dir, const struct zkensemble_opts *opts, struct zkensemble **out,
		   char **why);

/* Kills every member (SIGKILL: its data goes with the run folder), reaps them, stops the relays
 * and the member threads, frees e.  Accepts NULL. */
void zkensemble_free(struct zkensemble *e);

/* Starts every member that is not running, all at once, and waits until
 * each serves (Mode leader or follower) and exactly one leads.  Returns 0,
 * WB_EUNAVAIL (no java or no server jars) or WB_EIO (a member did not
 * come up in time, or not exactly one member leads; the members that came
 * up keep running until zkensemble_free).  zkensemble_error() says why,
 * with the log path. */
int zkensemble_start(struct zkensemble *e);

/* Starts one stopped member (from its own thread) and waits until it
 * serves.  Returns 0, WB_EINVAL (no such member, or running), WB_EIO. */
int zkensemble_start_member(struct zkensemble *e, int myid);

/* Stops (SIGTERM, grace, SIGKILL) or kills (SIGKILL) one member and reaps
 * it.  Returns 0, WB_EINVAL (no such member; kill in a shared JVM) or
 * WB_ENOENT (not running).  In a shared JVM stop shuts the member's peer
 * down there (WB_EIO when its port stays open). */
int zkensemble_stop_member(struct zkensemble *e, int myid);
int zkensemble_kill_member(struct zkensemble *e, int myid);

/* Asks member myid with 'srvr'.  Returns its mode; *zxid (when non-NULL)
 * receives the "Zxid:" it reported, or -1. */
enum zkensemble_mode zkensemble_mode(struct zkensemble *e, int myid, int64_t *zxid);

/* The myid of the member that reports Mode leader (the lowest, if several
 * do), or 0 when none does. */
int zkensemble_leader(struct zkensemble *e);

/* Polls member myid with 'srvr' (every 20 ms) until its mode is one of
 * the modes in mask (a bit 1 << mode per mode) or timeout_ms passes.
 * Returns 0 (mode in *mode when non-NULL) or WB_EBUSY, also as soon as a
 * JVM of e died (zkensemble_died); so do the two waits below. */
int zkensemble_wait_mode(struct zkensemble *e, int myid, unsigned mask, int timeout_ms,
			 enum zkensemble_mode *mode);

/* Polls member myid with 'srvr' (every 20 ms) until the zxid it reports
 * is >= want (it has applied that transaction).  0, or WB_EBUSY after
 * timeout_ms. */
int zkensemble_wait_zxid(struct zkensemble *e, int myid, int64_t want, int timeout_ms);

/* Polls the members among[0..n) (among NULL: every member, in myid order)
 * every 20 ms until one reports Mode leader.  Returns its myid, or 0
 * after timeout_ms. */
int zkensemble_wait_leader(struct zkensemble *e, const int *among, int n, int timeout_ms);

/* Whether a JVM of e died under it: the shared JVM, or a member's own
 * JVM that was started and not stopped or killed through this API
 * (waitid with WNOWAIT: it is not reaped here).  When none has, it asks
 * again every 10 ms for up to wait_ms (0: once), for a death already
 * under way: a client sees its connection close a moment before the
 * process can be waited for.  On 1, why (may be NULL) receives "the
 * ZooKeeper server (pid N) died: ..." and *first (may be NULL) is 1 the
 * first time a caller passing first learns of it, so the death is told
 * once.  Safe from any thread while no start or stop runs. */
int zkensemble_died(struct zkensemble *e, int wait_ms, char *why, size_t n, int *first);

/* "leader", "follower", "not serving", "down", "other". */
const char *zkensemble_mode_name(enum zkensemble_mode mode);

/* Accessors.  Strings and objects are borrowed from e; myid is 1..n. */
int zkensemble_size(const struct zkensemble *e);
struct zkserver *zkensemble_server(struct zkensemble *e, int myid); /* NULL if no such */
const char *zkensemble_connect(struct zkensemble *e, int myid);	    /* "127.0.0.1:<client>" */
const char *zkensemble_connect_all(struct zkensemble *e); /* every member, comma-separated */
int zkensemble_quorum_port(const struct zkensemble *e, int myid);
int zkensemble_election_port(const struct zkensemble *e, int myid);
int zkensemble_tick_ms(const struct zkensemble *e);
int zkensemble_sync_limit(const struct zkensemble *e);
int zkensemble_init_limit(const struct zkensemble *e);
const char *zkensemble_error(const struct zkensemble *e); /* last error, "" if none */
int zkensemble_shared(const struct zkensemble *e);	  /* 1: members run in one JVM */
/* Why a shared JVM was asked for but one JVM per member runs, or "". */
const char *zkensemble_note(const struct zkensemble *e);

/* The relay member from uses to reach member to's quorum port (or
 * election port), or NULL when that link is not relayed.  An election
 * relay from a lower to a higher myid always refuses (see above): use
 * zkensemble_block_election rather than its refuse switch. */
struct tcphold *zkensemble_quorum_relay(struct zkensemble *e, int from, int to);
struct tcphold *zkensemble_election_relay(struct zkensemble *e, int from, int to);

/* block != 0: holds the election link between members a and b in both
 * directions (their leader election messages are buffered, the connection
 * stays up); 0: releases it, delivering what was held in order.  Needs
 * relay_election.  Returns 0 or WB_EINVAL (no such members, a == b, or
 * election links not relayed). */
int zkensemble_block_election(struct zkensemble *e, int a, int b, int block);

#endif
