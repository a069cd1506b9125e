/*
 * zkasync.h - the completion of one asynchronous ZooKeeper call that a lab
 * or rig waits for with a deadline: its return code, when it ran, and for
 * getData/setData/exists what it returned (value and stat).
 *
 * The completions run on the ZooKeeper completion thread; they only record
 * and wake.  A completion may come after its waiter gave up (the client
 * completes every request, at the latest in zookeeper_close), so the
 * struct must live until zkasync_finished says it ran.
 *
 * Nothing here issues calls, makes checks or prints.
 */
#ifndef WB_ZKASYNC_H
#define WB_ZKASYNC_H

#include <pthread.h>
/* zookeeper_mt: the synchronous zoo_* calls exist only with THREADED. */
#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

struct zkasync {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* CLOCK_MONOTONIC */
	int done;	   /* the completion ran */
	int rc;		   /* its ZooKeeper return code */
	long long at_ms;   /* when (CLOCK_MONOTONIC ms) */
	char data[64];	   /* getData: the value, NUL-terminated (truncated) */
	struct Stat st;	   /* getData/setData/exists: the stat, when one came */
};

/* Empties a (not done) and sets up its lock and condition variable;
 * zkasync_destroy releases them once the completion ran or never will. */
void zkasync_init(struct zkasync *a);
void zkasync_destroy(struct zkasync *a);

/* Completions; data is the zkasync.  stat_done: zoo_aexists, zoo_aset & co.;
 * data_done: zoo_aget; string_done: zoo_async (sync) and zoo_acreate. */
void zkasync_stat_done(int rc, const struct Stat *stat, const void *data);
void zkasync_data_done(int rc, const char *value, int len, const struct Stat *stat,
		       const void *data);
void zkasync_string_done(int rc, const char *value, const void *data);

/* 1 when the completion already ran. */
int zkasync_finished(struct zkasync *a);

/* Waits up to timeout_ms for the completion.  Returns 0 with *rc (rc may
 * be NULL), or WB_EBUSY. */
int zkasync_wait(struct zkasync *a, int timeout_ms, int *rc);

#endif
