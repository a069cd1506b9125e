/*
 * zkasync.h - the completion of one asynchronous ZooKeeper call (zoo_a*),
 * which a lab can wait for with a deadline: done, the return code and when
 * it ran (CLOCK_MONOTONIC).
 *
 * It issues no call itself, makes no checks and prints nothing; it knows
 * no recipe.
 */
#ifndef WB_ZKASYNC_H
#define WB_ZKASYNC_H

#include <pthread.h>
#include <zookeeper/zookeeper.h>

/* One asynchronous call's completion. */
struct zkasync {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done;	 /* the completion ran */
	int rc;		 /* its ZooKeeper return code */
	long long at_ms; /* when (CLOCK_MONOTONIC ms) */
};

/* Prepares a for one call (done 0); pair with zkasync_destroy once the
 * completion can no longer run. */
void zkasync_init(struct zkasync *a);
/* Releases a's mutex and condition; a itself is the caller's. */
void zkasync_destroy(struct zkasync *a);
/* A stat_completion_t for zoo_aexists & co.; data is the zkasync. */
void zkasync_stat_done(int rc, const struct Stat *stat, const void *data);
/* 1 when the completion already ran. */
int zkasync_finished(struct zkasync *a);
/* Waits for the completion.  Returns 0 with *rc, or WB_EBUSY. */
int zkasync_wait(struct zkasync *a, int timeout_ms, int *rc);

#endif
