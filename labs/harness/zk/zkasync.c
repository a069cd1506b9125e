/*
 * zkasync.c - one asynchronous call's completion (see zkasync.h).  Waits
 * use a CLOCK_MONOTONIC condition variable, so a clock step cannot stretch
 * or cut a deadline.  It does not talk to ZooKeeper.
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

static void finish(struct zkasync *a, int rc, const char *value, int len, const struct Stat *st)
{
	pthread_mutex_lock(&a->mu);
	a->rc = rc;
	if (value && len > 0) {
		size_t n = (size_t)len < sizeof a->data - 1 ? (size_t)len : sizeof a->data - 1;
		memcpy(a->data, value, n);
		a->data[n] = '\0';
	}
	if (st)
		a->st = *st;
	a->at_ms = mono_now_ms();
	a->done = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

void zkasync_stat_done(int rc, const struct Stat *stat, const void *data)
{
	finish((struct zkasync *)data, rc, NULL, 0, stat);
}

void zkasync_data_done(int rc, const char *value, int len, const struct Stat *stat,
		       const void *data)
{
	finish((struct zkasync *)data, rc, value, len, stat);
}

void zkasync_string_done(int rc, const char *value, const void *data)
{
	(void)value;
	finish((struct zkasync *)data, rc, NULL, 0, NULL);
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
