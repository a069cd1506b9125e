/*
 * zkasync.c - one asynchronous call's completion (see zkasync.h).  Moved
 * out of the lock-holder rig: it has nothing to do with the lock recipe.
 */
#include "harness/zk/zkasync.h"
#include "base/mono.h"
#include "base/wb.h"

#include <errno.h>
#include <string.h>
#include <time.h>

void zkasync_init(struct zkasync *a)
{
	memset(a, 0, sizeof *a);
	pthread_mutex_init(&a->mu, NULL);
	mono_cond_init(&a->cv);
}

void zkasync_destroy(struct zkasync *a)
{
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
}

void zkasync_stat_done(int rc, const struct Stat *stat, const void *data)
{
	(void)stat;
	struct zkasync *a = (struct zkasync *)data;
	pthread_mutex_lock(&a->mu);
	a->done = 1;
	a->rc = rc;
	a->at_ms = mono_now_ms();
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

int zkasync_finished(struct zkasync *a)
{
	pthread_mutex_lock(&a->mu);
	int d = a->done;
	pthread_mutex_unlock(&a->mu);
	return d;
}

int zkasync_wait(struct zkasync *a, int timeout_ms, int *rc)
{
	struct timespec dl;
	mono_deadline(&dl, timeout_ms);
	pthread_mutex_lock(&a->mu);
	while (!a->done)
		if (pthread_cond_timedwait(&a->cv, &a->mu, &dl) == ETIMEDOUT)
			break;
	int done = a->done;
	if (done && rc)
		*rc = a->rc;
	pthread_mutex_unlock(&a->mu);
	return done ? 0 : WB_EBUSY;
}
