/*
 * api.h - the interface of the exercise zk-lock-loop: the whole acquire
 * loop of the ZooKeeper lock (chapter 01).
 *
 * You write one function, lock_acquire.  The workbench gives you a
 * connected handle, the lock path, and three helpers that it needs in
 * order to force races at exact points (it pauses inside list, and it
 * sees when you wait): list the children with lk->list, pass lk->watcher
 * and lk->watch_ctx to the watch call, and wait with lk->wait.
 *
 * Other contenders' nodes are named "_c_<GUID>-lock-<10 digits>"; yours
 * may be "<dir>/lock-" plus the suffix, or the same protected form.
 * Order is the 10-digit suffix the server appends, never the whole name.
 *
 * This header is all you may rely on.
 */
#ifndef ZK_LOCK_LOOP_API_H
#define ZK_LOCK_LOOP_API_H

#ifndef THREADED
#define THREADED /* the synchronous zoo_* calls of libzookeeper_mt */
#endif
#include <zookeeper/zookeeper.h>

struct lock_ctx {
	zhandle_t *zh;	 /* connected; do not close it */
	const char *dir; /* the lock path, e.g. "/workbench/x/lock"; it exists */
	/* zoo_get_children(zh, dir) without a watch, into *out (free it with
	 * deallocate_String_vector).  Returns a ZOO code. */
	int (*list)(const struct lock_ctx *lk, struct String_vector *out);
	/* Pass these two to zoo_wexists or zoo_wget as the watcher and its
	 * context.  Every node event they receive is kept for lk->wait. */
	watcher_fn watcher;
	void *watch_ctx;
	/* Blocks until lk->watcher has received a node event that no earlier
	 * wait returned (an event that came before the call counts: none is
	 * lost), or timeout_ms passed.  Returns the event type (e.g.
	 * ZOO_DELETED_EVENT), 0 on timeout, or -1 when the workbench stops
	 * the attempt (return an error then). */
	int (*wait)(const struct lock_ctx *lk, int timeout_ms);
	/* The sequence number at the end of a child name, or -1 when the name
	 * does not end in "lock-" and ten digits. */
	long (*seq)(const char *name);
	void *priv; /* the workbench's; leave it alone */
};

/* Takes the lock: creates one candidate (ZOO_EPHEMERAL_SEQUENTIAL under
 * lk->dir), then loops: list the children; if the own candidate has the
 * lowest sequence number, the lock is held; else watch the candidate just
 * before the own one (the predecessor), wait, and after any notification
 * list again.  A notification means "look again", never "you hold it".
 * When the predecessor is already gone at the watch call, list again at
 * once.
 *
 * Returns ZOK when held, with the own node's full path in own (own_len
 * bytes); else a ZooKeeper error code (or ZSYSTEMERROR when lk->wait said
 * stop).  The workbench deletes the own node afterwards. */
int lock_acquire(const struct lock_ctx *lk, char *own, int own_len);

#endif
