/*
 * zkserver_int.h - what the files of one ZooKeeper server share inside
 * labs/harness/zk: the server object's fields and the few helpers that
 * zkserver.c (one server), zkhost.c (members in one shared JVM) and
 * zkjvm.c (the JVM, the class-data cache and the launcher) call across.
 * Like SQLite's btreeInt.h: for these files only; everything else uses
 * zkserver.h.
 *
 * Invariants (they hold between calls of zkserver.h):
 *  - pid > 0 exactly while a JVM of this server may be running.  A hosted
 *    server's pid is its zkhost's JVM: it is never signalled or reaped
 *    through the server, only forgotten (zkhost_end ends that JVM).
 *  - cds_tmp and cds_final are both set or both NULL: set while this
 *    server's own JVM may write the class archive at its exit; cleared by
 *    zkjvm_cds_settle once that JVM has ended.
 *  - connect always names port; quorum_line is "" for a standalone server.
 */
#ifndef WB_ZKSERVER_INT_H
#define WB_ZKSERVER_INT_H

#include "harness/zk/zkserver.h"

#include <netinet/in.h>
#include <stddef.h>
#include <sys/types.h>

/* How long a stop waits after SIGTERM (or a hosted member's shutdown)
 * before it gives up or kills. */
#define ZKSERVER_STOP_GRACE_MS 5000

struct zkserver {
	char *run_dir;	      /* where pids are recorded (borrowed path copied) */
	char *dir;	      /* <run_dir>/<name>: zoo.cfg, data/, logs */
	char *log_path;	      /* <dir>/zookeeper.log */
	int tick_ms;	      /* tickTime */
	int min_session_ms;   /* minSessionTimeout */
	int max_session_ms;   /* maxSessionTimeout */
	int start_timeout;    /* ms to wait for 'imok' */
	int myid;	      /* 0 standalone, else ensemble member id */
	int port;	      /* client port */
	int quorum_port;      /* peer port (myid > 0) */
	int election_port;    /* leader election port (myid > 0) */
	char connect[32];     /* "127.0.0.1:<port>" */
	char *quorum_line;    /* "server.N=..." or "" */
	char *extra_cfg;      /* appended to zoo.cfg, or NULL */
	pid_t pid;	      /* running JVM, 0 if none */
	int start_ms;	      /* last successful start, spawn to serving */
	long long spawned_at; /* CLOCK_MONOTONIC ms of the last spawn */
	size_t log_off;	      /* zookeeper.log size at the last spawn */
	char *cds_tmp;	      /* this JVM writes the class archive here at exit */
	char *cds_final;      /* ... to be renamed to this, or NULL */
	int hosted;	      /* runs in a shared JVM (zkhost): pid is not ours to end */
	char err[1024];	      /* last error message */
};

/* Sets s's last error (zkserver_error) from a printf format.  Cannot
 * fail; a long message is cut to fit. */
void zkserver_set_err(struct zkserver *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* 127.0.0.1:port as a socket address (port 0: any free one). */
struct sockaddr_in zkserver_loopback(int port);

/* Writes s's zoo.cfg (with its extra config) and log4j.properties into
 * its directory, replacing earlier ones.  0, or WB_EIO (nothing is
 * said in s->err: the caller says which file and where). */
int zkserver_write_config(struct zkserver *s);

#endif
