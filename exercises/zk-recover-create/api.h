/*
 * api.h - the interface of the exercise zk-recover-create: create a lock
 * candidate, and when the create's reply is lost, find the node the
 * create made instead of creating another.
 *
 * You write one function, create_candidate.  The workbench gives you a
 * handle whose connection runs through its fault proxy, this attempt's
 * GUID and the exact path to create.  The proxy lets the create through
 * to the server and throws its reply away: your zoo_create answers
 * ZCONNECTIONLOSS although the node exists.
 *
 * Node names are Curator's protected mode (labs/recipes/zkseq.h):
 *     <dir>/_c_<GUID>-lock-<10-digit sequence>
 *
 * This header is all you may rely on.  It does not retry or search for
 * you.
 */
#ifndef ZK_RECOVER_CREATE_API_H
#define ZK_RECOVER_CREATE_API_H

#ifndef THREADED
#define THREADED /* the synchronous zoo_* calls of libzookeeper_mt */
#endif
#include <zookeeper/zookeeper.h>

#include <stdint.h>

/* What the workbench passes in.  Everything is borrowed. */
struct create_ctx {
	zhandle_t *zh;	    /* connected (through the proxy); do not close it */
	const char *dir;    /* the lock path, e.g. "/workbench/x/lock"; it exists */
	const char *guid;   /* this attempt's GUID: 36 characters, lowercase */
	const char *prefix; /* "<dir>/_c_<guid>-lock-": create exactly this, with
			       ZOO_EPHEMERAL_SEQUENTIAL; the server appends the suffix */
	int64_t session;    /* this handle's session id, the ephemeralOwner of
			       every ephemeral node it creates */
	/* After a ZCONNECTIONLOSS, waits until the handle is connected again
	 * (zoo_state() may still say CONNECTED right after the loss, so do
	 * not poll it).  Returns ZOK (the same session: its ephemeral nodes
	 * are intact), ZOPERATIONTIMEOUT when timeout_ms passed, or
	 * ZSESSIONEXPIRED when the session is over. */
	int (*wait_connected)(const struct create_ctx *c, int timeout_ms);
	/* Sends a sync of c->dir and waits for its answer: the server you are
	 * attached to has then applied everything the leader had committed
	 * when it got the sync (the C client has only the asynchronous
	 * zoo_async; this waits for its completion).  Returns ZOK or the
	 * error.  Calling zoo_async yourself is just as good. */
	int (*sync_dir)(const struct create_ctx *c);
	void *priv; /* the workbench's; leave it alone */
};

/* Creates this attempt's candidate and writes its full path (with the
 * suffix) into path (path_len bytes).  An answered create (ZOK or an
 * error) is returned as it is.  When the create's outcome is unknown
 * (ZCONNECTIONLOSS), it must not create again: wait until connected, sync
 * c->dir (c->sync_dir), list c->dir, and pick the child whose name
 * carries c->guid AND whose ephemeralOwner (zoo_exists fills a struct
 * Stat) is c->session.
 *
 * Returns ZOK with path set; ZNONODE when no such child exists (read it
 * as "unknown": the create may not have happened, or this server may not
 * show it yet; give up, do not create); ZAPIERROR when several match (do
 * not choose, delete nothing); or the ZooKeeper error that stopped it
 * (the wait's, the sync's, the listing's). */
int create_candidate(const struct create_ctx *c, char *path, int path_len);

#endif
