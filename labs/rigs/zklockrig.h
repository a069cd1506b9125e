/*
 * zklockrig.h - the test rig of the lock labs (zk-lock-chain, zk-lock-race,
 * zk-create-lost, zk-herd), their integration test and the benchmark: a
 * "waiter" runs one zklock_acquire in its own thread and records, through
 * the recipe's hooks, what it did in order (list, watch, wake), so a lab
 * can wait for an exact point ("n3 has set its watch") with a deadline
 * instead of sleeping, and then check the history.
 *
 * Also a session barrier (zklockrig_flush): after it returns, every watch
 * event the server sent that session before is delivered, so "no event
 * came" is an observation, not a guess.
 *
 * It deliberately makes no checks and prints nothing; the labs do.
 */
#ifndef WB_ZKLOCKRIG_H
#define WB_ZKLOCKRIG_H

#include "recipes/zklock.h"

#include <pthread.h>

struct zkc;

struct zklockrig {
	char name[16];		  /* "n1", for logs */
	struct zkc *c;		  /* borrowed client */
	struct zklock *l;	  /* the lock (owned) */
	struct zklock_hooks user; /* the lab's own hooks, called after ours */
	pthread_mutex_t mu;	  /* guards everything below */
	pthread_cond_t cv;	  /* broadcast on every change below (CLOCK_MONOTONIC) */
	pthread_t th;		  /* the acquiring thread */
	int running;		  /* th was started and not joined */
	int done;		  /* the acquire returned */
	int rc;			  /* what it returned */
	unsigned lists;		  /* getChildren answers */
	unsigned watches;	  /* predecessor watches set */
	unsigned vanished;	  /* predecessor gone at the watch call */
	unsigned wakes;		  /* notifications taken */
	int wake_type;		  /* ZOO event type of the last one */
	long last_index;	  /* own index in the last list */
	char pred[512];		  /* predecessor of the last watch set */
	char note[512];		  /* zklock_message() when recovery decided */
	char log[4096];		  /* "list#1 watch(lock-0000000000) wake list#0 held" */
};

/* Makes a waiter named name over client c for lock_path, with the lab's
 * hooks user (may be NULL; its arg is passed to them).  opts (may be
 * NULL) gives on_event/data; its hooks are ignored.  Returns 0 or WB_EINVAL. */
int zklockrig_open(struct zklockrig *w, const char *name, struct zkc *c, const char *lock_path,
		   const struct zklock_hooks *user, const struct zklock_opts *opts);

/* Cancels a running acquire, joins its thread, frees the lock.  The
 * client is not closed.  Accepts a zeroed struct. */
void zklockrig_close(struct zklockrig *w);

/* Starts zklock_acquire(wait_ms) in the waiter's thread.  0 or WB_EIO. */
int zklockrig_start(struct zklockrig *w, int wait_ms);

/* Waits until the waiter has set at least n predecessor watches, or its
 * acquire returned.  0, or WB_EBUSY after timeout_ms. */
int zklockrig_wait_watches(struct zklockrig *w, unsigned n, int timeout_ms);

/* Waits until the acquire returned, joins the thread and gives its rc in
 * *rc.  0, or WB_EBUSY after timeout_ms (still running). */
int zklockrig_wait_done(struct zklockrig *w, int timeout_ms, int *rc);

/* A copy of the counters/log taken under the lock. */
void zklockrig_snapshot(struct zklockrig *w, struct zklockrig *out);

/* Session barrier: an asynchronous exists("/") on c's handle whose
 * completion runs on the client's completion thread after every event
 * already received.  0, or WB_EBUSY / WB_EIO. */
int zklockrig_flush(struct zkc *c, int timeout_ms);

/* The last path component ("_c_...-lock-0000000003"), and its short
 * display form "lock-0000000003" (pointers into path). */
const char *zklockrig_name(const char *path);
const char *zklockrig_short(const char *path);

#endif
