/*
 * zklab.h - what every ZooKeeper lab does first and last: choose the target
 * (the --zk ensemble, or a fresh local server in the run directory), make a
 * unique base path for this run, and remove it again at the end.
 *
 * Failures to set up are reported once through report_cannot (the lab
 * then exits 2, "could not run"), with the package to install when java or
 * the server jars are missing.  Nothing here makes checks.
 */
#ifndef WB_ZKLAB_H
#define WB_ZKLAB_H

struct lab_ctx;
struct zkserver;
struct zkc;

struct zklab {
	struct lab_ctx *ctx;	 /* borrowed */
	struct zkserver *server; /* our own server, or NULL under --zk */
	const char *connect;	 /* host string for clients (borrowed from ctx or server) */
	char *base;		 /* this run's base path, e.g. "/workbench/zk-cas-3f2a9c1e" */
	struct zkc *admin;	 /* a connected client used for set-up and clean-up */
	int opened;		 /* clients zklab_client connected so far */
	int gone_said;		 /* zklab_server_gone reported the death */
};

/* Session timeout of the labs that show a session expiring (ms): each
 * expiry they wait for takes this long, so it is short; but a client
 * gives up on a silent connection after 2/3 of it, and what must happen
 * before the expiry the lab causes (a reconnect that must beat it, a
 * second client's watch) must not lose a race with a stall.  Stalls of
 * ~700 ms were seen (ASan, a loaded 2-core machine), which a 1 s session
 * did not survive; 4 s leaves a margin of seconds. */
#define ZKLAB_SESSION_MS 4000
/* Session timeout of zklab_client (ms), for labs whose point is not
 * expiry: long enough that no scheduling delay ends a session by itself.
 * Within the default maxSessionTimeout of our server (60 s) and of a --zk
 * ensemble with the default tickTime (20 x 2000 ms). */
#define ZKLAB_CLIENT_SESSION_MS 30000
/* How long labs wait for a connection or an event before giving up (ms). */
#define ZKLAB_WAIT_MS 10000

/* Sets up the target and creates base (and its parents).  Narrates a step
 * and records evidence (server port and start time, or the --zk target).
 * Returns 0, or a negative WB_E* code after report_cannot; *out is freed
 * with zklab_close either way (it may be NULL on error). */
int zklab_open(struct lab_ctx *ctx, struct zklab **out);

/* zklab_open, but when it starts its own server, calls prepare(server, arg)
 * after the server directory exists and before the JVM starts (e.g. to
 * seed data/version-2 or append zoo.cfg lines with
 * zkserver_set_extra_cfg).  A non-zero return from prepare aborts with that
 * code; prepare reports its own errors.  Under --zk, prepare is not
 * called: check z->server. */
int zklab_open_prepared(struct lab_ctx *ctx, int (*prepare)(struct zkserver *s, void *arg),
			void *arg, struct zklab **out);

/* Deletes base recursively (best effort, so --zk ensembles are left as they
 * were), closes the admin client, ends our server (zkserver_discard:
 * SIGKILL, its data goes with the run folder), frees z.  Accepts NULL. */
void zklab_close(struct zklab *z);

/* Connects a new client to the target with ZKLAB_CLIENT_SESSION_MS (a lab
 * that shows expiry connects with zkc_connect and ZKLAB_SESSION_MS), its
 * waits watched (zklab_watch); on failure reports it (report_cannot: our
 * server's death, a --zk server that refuses more sessions than the lab
 * needs, or no connection in time) and returns the negative code. */
int zklab_client(struct zklab *z, struct zkc **out);

/* zklab_client for n clients at once: every handle is started before the
 * first is waited for, so n connections cost about one hand-shake, not n
 * (zk-herd's 64).  out[0..n) receive the clients, NULL where none; on
 * failure the ones already in out stay there for the caller to close
 * (zklab_close_clients) and it is reported as zklab_client does.  Returns
 * 0 or the negative code. */
int zklab_clients(struct zklab *z, int n, struct zkc **out);

/* zkc_close on c[0..n) (NULL entries skipped), several at a time: each
 * close waits for the server to answer the session's close, so closing
 * many one after the other costs one round trip each.  Sets each entry to
 * NULL. */
void zklab_close_clients(struct zkc **c, int n);

/* Whether our own server died under the lab (never under --zk): the first
 * time it returns 1 it reports "the ZooKeeper server (pid N) died: ..."
 * through report_cannot, so the lab ends as could-not-run; a lab calls it
 * where a wait or an operation failed, before it would make a check of
 * that failure.  0 while the server runs or when it is not ours. */
int zklab_server_gone(struct zklab *z);

/* Makes every wait on c (zkc_wait_*) end as soon as our own server dies
 * (zkc_set_gone); zklab_client does this for its clients, a lab calls it
 * for clients it connects itself.  Nothing under --zk. */
void zklab_watch(struct zklab *z, struct zkc *c);

/* Deletes path and everything below it.  Returns 0 or the first zoo_*
 * error other than ZNONODE (a raw ZooKeeper code). */
int zklab_delete_tree(struct zkc *c, const char *path);

#endif
