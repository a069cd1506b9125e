/*
 * zkserver.h - a real ZooKeeper server (Debian's `zookeeper` package, a Java
 * program) started for one lab or test: 127.0.0.1 only, free ports, its own
 * directory under the run directory, a short tickTime so that a session of
 * about one second is granted and expires in about one second, the admin
 * server off, every four-letter word allowed, and the server log written to
 * <dir>/zookeeper.log.
 *
 * The JVM is spawned through harness/proc.h (minimal environment, its own
 * process group, SIGKILL when the spawning thread dies, pid recorded in the
 * run directory), so it is reaped on every path, even after a SIGKILL of
 * the workbench.  Call zkserver_start from a thread that lives as long as
 * the server: PR_SET_PDEATHSIG fires when the spawning *thread* exits.
 *
 * Ensembles (issue 7) are built from several zkserver objects: create each
 * member with opts.myid = 1..N (zkserver_new reserves its client, quorum and
 * election ports), pass every member the same "server.N=..." lines with
 * zkserver_set_extra_cfg (zkserver_quorum_line gives each member's line),
 * then zkserver_spawn all of them and zkserver_wait_ready each (a member
 * serves only once a quorum is up).  Stop, kill and restart work per member.  This module does not
 * implement the ensemble itself, and it knows nothing about clients, proxies or reports.
 *
 * Files: zkserver.c (one server: config, spawn, readiness, lifecycle),
 * zkjvm.c (java, the class-data cache, the launcher jar: zkjvm.h), zkhost.c
 * (members in one shared JVM); zkserver_int.h is what they share.
 *
 * Environment: $JAVA (path of the java binary, else `java` in PATH) and
 * $ZOOKEEPER_CLASSPATH (replaces the default class path
 * /usr/share/java/zookeeper.jar + slf4j-log4j12 + log4j-1.2; the run
 * directory holding log4j.properties is always put first).
 *
 * Test hook (base/testhook.h): when $WORKBENCH_TEST_ZK_READY_DIR names a directory holding two
 * FIFOs "ready" and "go", zkserver_start, once the server answers, writes
 * "<java pid>\n" into "ready" and then blocks until "go" is opened and
 * closed by the test.  This lets a test kill the workbench at a known
 * moment without sleeping.
 */
#ifndef WB_ZKSERVER_H
#define WB_ZKSERVER_H

#include <stddef.h>
#include <sys/types.h>

/* Options; a zeroed struct gives a standalone server with the defaults. */
struct zkserver_opts {
	int tick_ms;	      /* tickTime; 0: 200 */
	int min_session_ms;   /* minSessionTimeout; 0: 2 * tick (400 ms by default) */
	int max_session_ms;   /* maxSessionTimeout; 0: 60000 */
	int start_timeout_ms; /* how long zkserver_start waits to be serving; 0: 60000 */
	const char *name;     /* sub-directory of run_dir; NULL: "zk" or "zk<myid>" */
	int myid;	      /* 0: standalone; 1..255: ensemble member (writes myid) */
};

struct zkserver;

/* Creates the server object: makes <run_dir>/<name> (0700) and reserves its
 * client port (and, when opts->myid > 0, its quorum and election ports) by
 * binding port 0 on 127.0.0.1.  Starts nothing.  opts may be NULL.
 * Returns 0, WB_EINVAL (bad options), WB_EIO (directory or socket); on
 * error *out is NULL and *why (if why is non-NULL) receives a message the
 * caller frees.  *out is freed with zkserver_free. */
int zkserver_new(const char *run_dir, const struct zkserver_opts *opts, struct zkserver **out,
		 char **why);

/* Text appended to zoo.cfg on every start (e.g. the server.N lines of an
 * ensemble, or "forceSync=no\n").  Copied; NULL clears. */
void zkserver_set_extra_cfg(struct zkserver *s, const char *text);

/* This member's "server.<myid>=127.0.0.1:<quorum>:<election>" line
 * (without newline), or "" for a standalone server.  Borrowed. */
const char *zkserver_quorum_line(const struct zkserver *s);

/* Checks that java and the server jars are there.  Returns 0, or
 * WB_EUNAVAIL with *why (caller frees) naming the Debian package to install
 * (default-jre-headless or zookeeper). */
int zkserver_check_runtime(char **why);

/* Writes zoo.cfg and log4j.properties, spawns the JVM and waits until the
 * 'ruok' four-letter word answers 'imok' and 'srvr' reports a Mode (imok
 * alone comes before the database is loaded), until the start timeout:
 * asked when the server log says its start-up is done (inotify), else
 * every 200 ms, and the JVM's exit is seen at once (a pidfd).
 * With the Debian jars (no $ZOOKEEPER_CLASSPATH) the JVM maps the
 * server's classes from a class-data-sharing archive in
 * $XDG_CACHE_HOME/workbench (else ~/.cache/workbench), which the first
 * server that finds none writes when zkserver_discard ends it: a start
 * about half as long.
 * Also restarts a stopped or killed server on the same directory and ports.
 * A standalone server whose port was taken meanwhile is retried on fresh
 * ports.  Returns 0, WB_EUNAVAIL (no java or no jars), WB_EIO (the JVM
 * exited or did not answer in time; it is killed).  On error
 * zkserver_error() says why, with the log path. */
int zkserver_start(struct zkserver *s);

/* The two halves of zkserver_start, for ensembles whose members only
 * serve once a quorum is up: spawn every member, then wait for each.
 * zkserver_spawn writes the config and starts the JVM without waiting
 * (0, WB_EINVAL when already running, WB_EUNAVAIL, WB_EIO).
 * zkserver_wait_ready waits as zkserver_start does until the server is
 * serving, it exits (WB_EIO, zkserver_error has the log tail) or the
 * start timeout, counted from the spawn, passes (WB_EIO; the JVM is
 * killed).  No port retry here. */
int zkserver_spawn(struct zkserver *s);
int zkserver_wait_ready(struct zkserver *s);

/* Stops the server: SIGTERM, a grace period, then SIGKILL; reaps it.
 * Returns 0, or WB_ENOENT when it was not running. */
int zkserver_stop(struct zkserver *s);

/* Kills the server with SIGKILL at once (a crash) and reaps it.  Returns 0,
 * or WB_ENOENT when it was not running. */
int zkserver_kill(struct zkserver *s);

/* Ends a server whose data is no longer needed (a lab's own server at
 * the end of the run): SIGKILL at once, except for the one start that
 * writes the class-data-sharing archive (see zkserver_start), which is
 * stopped as zkserver_stop does so that the JVM writes it, and the
 * archive put in place.  Returns 0, or WB_ENOENT when it was not
 * running. */
int zkserver_discard(struct zkserver *s);

/* Whether the JVM this object started has ended without zkserver_stop or
 * zkserver_kill (a crash, or a kill from outside): 1 with the reason
 * ("the ZooKeeper server (pid N) died: killed by signal 9") in why (n
 * bytes, may be NULL), else 0.  Does not reap, so it is safe from any
 * thread of the process that started the server. */
int zkserver_died(const struct zkserver *s, char *why, size_t n);

/* Stops the server if it runs and frees s.  Accepts NULL.  The directory
 * stays (it is part of the run directory). */
void zkserver_free(struct zkserver *s);

/* Accessors; strings are borrowed from s. */
int zkserver_port(const struct zkserver *s);		 /* client port */
const char *zkserver_connect(const struct zkserver *s);	 /* "127.0.0.1:<port>" */
const char *zkserver_dir(const struct zkserver *s);	 /* its directory */
const char *zkserver_log_path(const struct zkserver *s); /* <dir>/zookeeper.log */
pid_t zkserver_pid(const struct zkserver *s);		 /* JVM pid, 0 if not running */
int zkserver_start_ms(const struct zkserver *s);	 /* last start: spawn to serving */
const char *zkserver_error(const struct zkserver *s);	 /* last error, "" if none */
int zkserver_myid(const struct zkserver *s);		 /* 0 for standalone */

/* Members in one shared JVM (zkensemble's shared_jvm): the launcher
 * data/zk/MultiPeer.java runs one QuorumPeer per member from a thread of
 * its own, so the JVM starts and loads the server's classes once instead
 * of once per member (see that file).  It is compiled once, with the
 * runtime's own javac and jar modules, into a jar in the cache directory
 * named by a hash of java, the class path and the source; a missing or
 * broken jar is rebuilt.  The JVM maps its classes from a class-data-
 * sharing archive of its own (made as zkserver_start's is).  Members keep
 * their own zoo.cfg, ports, data and zookeeper.log; zkserver_pid of a
 * member is the shared JVM's pid while the member runs, zkserver_wait_ready
 * works on it as usual (it sees the JVM's exit without reaping it), and
 * zkserver_stop, _kill and _discard only forget that pid: the JVM is
 * zkhost_end's to end. */
#define ZKHOST_MAX 16
struct zkhost;

/* Builds the launcher from src if needed, writes each member's zoo.cfg
 * and spawns one JVM running members m[0..n) (position k = m[k - 1]),
 * without waiting: then zkserver_wait_ready each.  Call it from a thread
 * that outlives the JVM (PR_SET_PDEATHSIG, as zkserver_start).  The JVM
 * is recorded in <run_dir>/pids; its output and the lines of no member go
 * to <run_dir>/zkhost/.  Returns 0 with *out (freed by zkhost_end);
 * WB_EUNAVAIL (no java or jars, or the launcher cannot be read or
 * compiled: a caller may run one JVM per member instead), WB_EINVAL (bad
 * arguments, a member already running), WB_EIO; on error *why (caller
 * frees) says why and nothing runs.  The members are borrowed: they must
 * outlive *out. */
int zkhost_spawn(const char *run_dir, const char *src, struct zkserver *const *m, int n,
		 struct zkhost **out, char **why);

/* Shuts member pos's peer down inside the JVM and waits (up to 5 s) until
 * its client port closes.  0, WB_EINVAL (no such position), WB_ENOENT
 * (not running), WB_EIO (no answer in time; zkserver_error says so). */
int zkhost_stop_member(struct zkhost *h, int pos);

/* Starts member pos again on its zoo.cfg, without waiting: then
 * zkserver_wait_ready.  0, WB_EINVAL (no such position, or running),
 * WB_EIO. */
int zkhost_start_member(struct zkhost *h, int pos);

/* The JVM's pid, 0 if none. */
pid_t zkhost_pid(const struct zkhost *h);

/* The position of the member whose failed start ended the JVM (the
 * launcher's line "member K failed to start" in its output), 0 when none
 * did.  Only one member reports: the one whose error names the reason. */
int zkhost_failed_member(const struct zkhost *h);

/* Ends the JVM (SIGKILL; SIGTERM and a grace period when it writes its
 * class archive at exit), reaps it, forgets its members' pids, removes
 * the control FIFO and frees h.  Accepts NULL. */
void zkhost_end(struct zkhost *h);

/* Sends a four-letter word ("ruok", "srvr", "stat", "cons", "mntr", ...)
 * to host:port and reads the answer until the server closes.  Returns 0
 * with *out (caller frees, NUL-terminated, possibly empty), WB_EIO when the
 * connection failed or the deadline passed. */
int zk_four_letter(const char *host, int port, const char *word, int timeout_ms, char **out);

/* The same, to this server. */
int zkserver_four_letter(const struct zkserver *s, const char *word, char **out);

#endif
