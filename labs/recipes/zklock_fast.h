/*
 * zklock_fast.h - the lock recipe's shared state and its performance
 * paths (zklock_fast.c), for zklock.c and zklock_fast.c only: labs, tools
 * and tests use zklock.h.
 *
 * The contract of the fast paths: each gives the answers its plain
 * counterpart in zklock.c would give, and differs only in when requests
 * are sent and on which thread their answers are read.
 *  - zkl_send_create_and_list = zklock.c's send_create, then list() with
 *    the child watch; one round trip instead of two.
 *  - The watcher-side re-list (inside zkl_mbox_watcher, taken with
 *    zkl_relist_take) = the getChildren the waiter would send after the
 *    predecessor's notification; sent by the watcher so that its answer
 *    is on its way during the thread hop.
 *  - zkl_first_take and zkl_relist_take answer 1 ("none: ask yourself")
 *    whenever the fast path did not run or could not be sent, so list()
 *    always has an answer.
 * A lock with create hooks (labs that pause between the create and the
 * first list) takes the plain create; everything else is the same code.
 *
 * Threads: the acquiring thread owns struct zklock; the ZooKeeper
 * completion thread runs zkl_mbox_watcher, zkl_mbox_armed and the re-list
 * completion, which touch only the mailbox, under its mutex; the monitor
 * thread reads the mailbox under the same mutex.
 */
#ifndef WB_ZKLOCK_FAST_H
#define WB_ZKLOCK_FAST_H

#include "recipes/zklock.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct mbox {
	pthread_mutex_t mu;
	pthread_cond_t cv;	   /* CLOCK_MONOTONIC */
	int refs;		   /* the lock's + one per watch + one per pending arm */
	char *own_path;		   /* events on this path are about our own node */
	unsigned pred_events;	   /* node events on other paths (the predecessor) */
	int pred_type;		   /* type of the last of those */
	unsigned own_events;	   /* node events on the own node */
	unsigned child_regs;	   /* child watches registered on the lock path */
	unsigned child_done;	   /* of those, fired (event taken) or removed */
	unsigned child_mark;	   /* the holder's one is gone when child_done gets here */
	int own_deleted;	   /* one of them was a delete */
	unsigned session_gen;	   /* session events seen */
	int session_state;	   /* state carried by the last one */
	unsigned session_drops;	   /* those with a state other than CONNECTED */
	pthread_cond_t mon_cv;	   /* the monitor sleeps here (CLOCK_MONOTONIC) */
	int hold;		   /* a hold is on: the monitor watches it */
	unsigned hold_gen;	   /* claims so far; the monitor's current hold */
	int mon_busy;		   /* the monitor is out of mu (event, hook, arm) */
	int mon_exit;		   /* tells the monitor thread to end */
	int cancel;		   /* zklock_cancel was called */
	int own_watch;		   /* a get-with-watch on the own node was asked for
				      this candidate: one may be registered */
	unsigned arm_done;	   /* own-node watch requests answered */
	int arm_rc;		   /* the last answer (ZOK: watch set) */
	enum zklock_status status; /* the lock's status (under mu) */
	zhandle_t *zh;		   /* the lock's handle, for the re-list */
	char *lock_path;	   /* the lock path, for the re-list */
	char *pred_path;	   /* the predecessor watched now, or NULL */
	struct relist *relist;	   /* the re-list its notification started */
};

/* What a getChildren says about the own node's place (note 2): all a
 * waiter keeps of the names. */
struct listing {
	size_t n;	/* lock nodes */
	long own_index; /* the own node's place in suffix order, -1: absent */
	char *pred;	/* the name just before it (owned), or NULL */
	char *bad;	/* on WB_ERANGE: the name that cannot be ordered (owned) */
};

/* A getChildren the watcher sent when the predecessor's notification
 * came, so the waiter finds the fresh list on its way instead of asking
 * for it after the thread hop (note 4: the list is sent after the
 * notification, so it is as fresh as one the waiter would ask for).  Its
 * completion reads the own node's place out of the answer there and then
 * (zkl_listing_make), so the names are neither copied nor handed over.
 * Owned by the mailbox while mbox.relist points at it; an orphan (the
 * attempt ended first) is freed by its completion. */
struct relist {
	struct mbox *m;
	int done;	   /* the answer came (or the call failed) */
	int rc;		   /* its ZooKeeper code */
	int orphan;	   /* nobody waits for it: the completion frees it */
	int lrc;	   /* on ZOK: zkl_listing_make's answer */
	struct listing li; /* on ZOK: the own node's place (owned) */
};

struct zklock {
	zhandle_t *zh;			/* borrowed handle */
	char *path;			/* lock path, e.g. /locks/NAME */
	struct zklock_opts opts;	/* copied options (data borrowed) */
	struct mbox *mb;		/* shared with watchers; holds the status */
	char guid[ZKLOCK_GUID_LEN + 1]; /* this attempt's GUID */
	char *own_path;			/* own candidate's full path, or NULL */
	const char *own_name;		/* its last component (points into own_path) */
	int32_t seq;			/* its sequence number */
	int64_t session_id;		/* the session of the candidate */
	char *pred_path;		/* predecessor with a watch possibly set */
	pthread_t monitor;		/* watches each hold; joined in zklock_free */
	int monitor_running;		/* monitor was started and not yet joined */
	int recovered;			/* this attempt's candidate was found by GUID */
	unsigned arm_seen;		/* mb->arm_done before the own-node watch was asked */
	unsigned own_seen;		/* mb->own_events then */
	unsigned child_mark;	/* mb->child_done once the last list's child watch is gone */
	int hold_by_child;	/* the claim's list carried the holder's watch */
	unsigned gen_seen;	/* mb->session_gen then */
	unsigned drops_seen;	/* mb->session_drops then */
	unsigned drops_known;	/* mb->session_drops at the last answer absorbed */
	struct zklock_stats st; /* counters of the current attempt */
	struct {		/* the listing sent with the create */
		int valid;	/* not taken yet */
		int rc;		/* its ZooKeeper code */
		int lrc;	/* on ZOK: zkl_listing_make's answer */
		struct listing li;
	} first;
	char *prefix;	    /* the create path, "<path>/_c_<guid>-lock-" */
	size_t prefix_guid; /* where the GUID goes in it */
	char msg[512];	    /* last outcome, one sentence */
};

/* ---- The mailbox (note 6 of zklock.c) ------------------------------------ */

/* A mailbox with one reference (the lock's) and status 0.  Cannot fail. */
struct mbox *zkl_mbox_new(void);

/* Drops n references; the last one frees the mailbox.  Thread-safe. */
void zkl_mbox_unref(struct mbox *m, int n);

/* The watcher of every watch the recipe sets, with the mailbox as
 * context: records the event in the mailbox's counters and wakes the
 * acquiring thread and the monitor; on the watched predecessor's
 * notification it also sends the re-list.  Never blocks on ZooKeeper. */
void zkl_mbox_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx);

/* Completion of an asynchronous get-with-watch on the own node, with the
 * mailbox as data: counts the answer (arm_done, arm_rc).  The caller took
 * two references before sending (the watch's and this completion's). */
void zkl_mbox_armed(int rc, const char *value, int len, const struct Stat *stat, const void *data);

/* ---- Listings -------------------------------------------------------------- */

/* Reads own_name's place out of a getChildren answer (borrowed) into
 * *li: 0, or WB_ERANGE with li->bad set.  Free with zkl_listing_free. */
int zkl_listing_make(const struct String_vector *sv, const char *own_name, struct listing *li);
void zkl_listing_free(struct listing *li);

/* The watcher's re-list, if one was started: waits for its answer (it
 * always comes) and returns its ZooKeeper code with the listing moved
 * into *li and zkl_listing_make's answer in *lrc; 1 when there is none. */
int zkl_relist_take(struct zklock *l, struct listing *li, int *lrc);

/* Under m->mu: lets go of a re-list nobody will read; one still out is
 * freed by its completion. */
void zkl_relist_drop_locked(struct mbox *m);

/* The listing sent with the create (zkl_send_create_and_list), if not
 * taken yet: as zkl_relist_take; 1 when there is none. */
int zkl_first_take(struct zklock *l, struct listing *li, int *lrc);

/* ---- The pipelined create and the holder's child watch (note 4) ---------- */

/* A getChildren of the lock path with the child watch of note 4 (the
 * holder's, if this list makes it the holder): the ZooKeeper code, names
 * in *sv (caller deallocates). */
int zkl_get_children_watched(struct zklock *l, struct String_vector *sv);

/* Removes our child watch on the lock path, if one is still registered,
 * on the client only.  Cannot fail. */
void zkl_drop_child_watch(struct zklock *l);

/* Sends the candidate's create (prefix) and, right behind it, the first
 * listing with the child watch; waits for both.  The create's ZooKeeper
 * code, with *path (caller frees) on ZOK; the listing is kept for
 * zkl_first_take. */
int zkl_send_create_and_list(struct zklock *l, const char *prefix, char **path);

#endif
