/*
 * testlib_zk.h - ZooKeeper fixtures for the C integration tests: a run
 * directory that is cleaned up with everything recorded in it, and a real
 * standalone server of the harness (labs/harness/zk/zkserver) started in a
 * fresh run directory with a client connected to it directly.
 *
 * The server is the harness's, not a mock: tests exercise the same start,
 * readiness and stop code as the labs.  It deliberately knows nothing of
 * proxies, locks or ensembles (each test file arranges those from these
 * pieces); it makes no cmocka assertions (setup functions must return).
 */
#ifndef WB_TESTLIB_ZK_H
#define WB_TESTLIB_ZK_H

#include "harness/zk/zkclient.h"
#include "harness/zk/zkserver.h"

/* Creates a run directory (rundir_create: under $WORKBENCH_RUN_BASE, or
 * /tmp/workbench-<uid>; owned by this process).  Returns 0 or WB_EIO;
 * *out is freed with testlib_rundir_free. */
int testlib_rundir_new(char **out);

/* Kills every process recorded in dir (proc_kill_all), removes the
 * directory and frees the string.  Accepts NULL. */
void testlib_rundir_free(char *dir);

/* A server in its own run directory, and a direct client. */
struct testlib_zk {
	char *run_dir;		 /* the run directory: server files, client log */
	struct zkserver *server; /* started and serving */
	struct zkc *client;	 /* connected, no proxy; NULL when session_ms is 0 */
};

/* Creates a run directory, starts a server in it (opts as for
 * zkserver_new, NULL for the defaults) and, when session_ms > 0, connects
 * a client asking for session_ms, waiting up to timeout_ms.  On failure
 * it prints why to stderr and leaves no process or directory behind.
 * Returns 0, WB_EUNAVAIL (no java or jars, or no answer from the server),
 * WB_EIO or WB_EINVAL; *out is freed with testlib_zk_free. */
int testlib_zk_start(const struct zkserver_opts *opts, int session_ms, int timeout_ms,
		     struct testlib_zk **out);

/* Closes the client, stops the server, kills whatever else was recorded
 * in the run directory, removes it and frees z.  Accepts NULL. */
void testlib_zk_free(struct testlib_zk *z);

#endif
