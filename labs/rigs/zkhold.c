/*
 * zkhold.c - lock events for the holder (see zkhold.h).  Waits use
 * CLOCK_MONOTONIC condition variables, so a clock step cannot stretch or
 * cut a deadline.
 */
#include "rigs/zkhold.h"
#include "base/mono.h"
#include "base/wb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ZKHOLD_MAX 32 /* events kept; later ones are dropped (labs see a handful) */

struct hold_event {
	enum zklock_event ev;
	long long at_ms;
	char why[160];
};

struct zkhold {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* CLOCK_MONOTONIC; broadcast on every event */
	struct hold_event evs[ZKHOLD_MAX];
	int n;	      /* recorded */
	int cursor;   /* next one zkhold_wait looks at */
	int may_work; /* the holder allows itself protected work */
};

struct zkhold *zkhold_new(void)
{
	struct zkhold *h = wb_xcalloc(1, sizeof *h);
	pthread_mutex_init(&h->mu, NULL);
	mono_cond_init(&h->cv);
	return h;
}

void zkhold_free(struct zkhold *h)
{
	if (!h)
		return;
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

void zkhold_on_event(void *arg, enum zklock_event ev, const char *why)
{
	struct zkhold *h = arg;
	pthread_mutex_lock(&h->mu);
	if (ev == ZKLOCK_EV_SUSPENDED || ev == ZKLOCK_EV_LOST)
		h->may_work = 0;
	if (h->n < ZKHOLD_MAX) {
		struct hold_event *e = &h->evs[h->n++];
		e->ev = ev;
		e->at_ms = mono_now_ms();
		snprintf(e->why, sizeof e->why, "%s", why ? why : "");
	}
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

int zkhold_wait(struct zkhold *h, enum zklock_event ev, int timeout_ms, long long *at_ms, char *why,
		size_t whylen)
{
	struct timespec dl;
	mono_deadline(&dl, timeout_ms);
	int rc = WB_EBUSY;
	pthread_mutex_lock(&h->mu);
	for (;;) {
		while (h->cursor < h->n) {
			const struct hold_event *e = &h->evs[h->cursor++];
			if (e->ev != ev)
				continue;
			if (at_ms)
				*at_ms = e->at_ms;
			if (why && whylen)
				snprintf(why, whylen, "%s", e->why);
			rc = 0;
			goto out;
		}
		if (pthread_cond_timedwait(&h->cv, &h->mu, &dl) == ETIMEDOUT && h->cursor >= h->n)
			break;
	}
out:
	pthread_mutex_unlock(&h->mu);
	return rc;
}

int zkhold_count(struct zkhold *h, enum zklock_event ev)
{
	int n = 0;
	pthread_mutex_lock(&h->mu);
	for (int i = 0; i < h->n; i++)
		n += h->evs[i].ev == ev;
	pthread_mutex_unlock(&h->mu);
	return n;
}

int zkhold_may_work(struct zkhold *h)
{
	pthread_mutex_lock(&h->mu);
	int y = h->may_work;
	pthread_mutex_unlock(&h->mu);
	return y;
}

void zkhold_set_may_work(struct zkhold *h, int yes)
{
	pthread_mutex_lock(&h->mu);
	h->may_work = yes;
	pthread_mutex_unlock(&h->mu);
}
