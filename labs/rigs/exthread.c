/*
 * exthread.c - a learner's function on a thread of its own with a bounded
 * wait (see exthread.h).  It cannot cancel the thread: pthread_cancel in
 * the middle of a ZooKeeper call would leave the client's locks held.
 */
#include "rigs/exthread.h"
#include "base/mono.h"
#include "base/wb.h"

#include <errno.h>
#include <string.h>

static void *exthread_main(void *arg)
{
	struct exthread *t = arg;
	t->fn(t->arg);
	pthread_mutex_lock(&t->mu);
	t->done = 1;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

int exthread_start(struct exthread *t, void (*fn)(void *arg), void *arg)
{
	memset(t, 0, sizeof *t);
	t->fn = fn;
	t->arg = arg;
	pthread_mutex_init(&t->mu, NULL);
	mono_cond_init(&t->cv);
	if (pthread_create(&t->th, NULL, exthread_main, t) != 0)
		return WB_EIO;
	t->started = 1;
	return 0;
}

int exthread_wait(struct exthread *t, int timeout_ms)
{
	if (!t->started)
		return 0;
	struct timespec ts;
	mono_deadline(&ts, timeout_ms);
	pthread_mutex_lock(&t->mu);
	while (!t->done)
		if (pthread_cond_timedwait(&t->cv, &t->mu, &ts) == ETIMEDOUT)
			break;
	int done = t->done;
	pthread_mutex_unlock(&t->mu);
	if (!done)
		return WB_EBUSY;
	if (!t->joined) {
		pthread_join(t->th, NULL);
		t->joined = 1;
	}
	return 0;
}

int exthread_done(struct exthread *t)
{
	if (!t->started)
		return 1;
	pthread_mutex_lock(&t->mu);
	int done = t->done;
	pthread_mutex_unlock(&t->mu);
	return done;
}

int exthread_end(struct exthread *t)
{
	if (!t->started || t->joined || t->leaked)
		return t->leaked;
	if (exthread_wait(t, 0) == 0)
		return 0;
	/* Still inside learner code: it may use its handle until the worker
	 * exits.  The struct (and its mutex) must outlive the thread too, so
	 * callers keep it static or leak it. */
	pthread_detach(t->th);
	t->leaked = 1;
	return 1;
}
