/*
 * api.h - exercise zk-lock-step: the one decision of the ZooKeeper lock
 * recipe (workbench exercise start zk-lock-step).
 *
 * A contender has created its own ephemeral sequential node under the lock
 * path and listed the lock path's children.  Each lock node's name ends
 * with "lock-" and the server's 10-digit sequence number, and may start
 * with a protected-mode prefix "_c_<GUID>-" (a random UUID per attempt):
 *
 *     _c_9f1e...-lock-0000000007
 *
 * Children whose name has no "lock-" are not contenders: skip them.
 */
#ifndef WBX_ZK_LOCK_STEP_H
#define WBX_ZK_LOCK_STEP_H

#include <stddef.h>

enum wbx_step {
	WBX_HOLDER = 0, /* own node has the smallest sequence number: it holds */
	WBX_WAIT = 1,	/* another node is in front: watch the one named */
	WBX_ERROR = -1, /* own is not among the children, or a lock node's
			   suffix is not a 10-digit number */
};

/*
 * Decides what the contender owning the node `own` does next.
 *   own       its own node's name (not a path), e.g. "_c_...-lock-0000000003"
 *   children  the names getChildren returned, in the server's order (no
 *             order is promised), n of them; own is among them
 *   watch     on WBX_WAIT, receives the name of the node to watch: the lock
 *             node immediately in front of own (len bytes, NUL-terminated)
 * Returns WBX_HOLDER, WBX_WAIT or WBX_ERROR.  Must not keep pointers to
 * its arguments or print anything.
 */
int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len);

#endif
