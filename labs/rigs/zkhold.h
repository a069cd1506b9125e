/*
 * zkhold.h - the holder's side of the session and fencing labs: what the
 * lock recipe told the holder (SUSPENDED, RESUMED, LOST, with times) and
 * whether the holder currently allows itself protected work.  (The
 * completion of one asynchronous call is harness/zk/zkasync.h.)
 *
 * The "may work" flag is the discipline chapter 01 asks for: SUSPENDED and
 * LOST clear it at once; RESUMED does not set it again, because after a
 * reconnect the holder must first re-check its candidate and order (the
 * lab does, then calls zkhold_set_may_work).
 *
 * Nothing here talks to ZooKeeper, makes checks or prints.
 */
#ifndef WB_ZKHOLD_H
#define WB_ZKHOLD_H

#include "recipes/zklock.h"

#include <pthread.h>
#include <stddef.h>

struct zkhold;

/* A new, empty holder with may_work 0.  Never NULL (aborts on no memory).
 * Free with zkhold_free (accepts NULL) after the lock is freed. */
struct zkhold *zkhold_new(void);
void zkhold_free(struct zkhold *h);

/* The zklock_opts.on_event callback; arg is the zkhold.  Records the event
 * with its CLOCK_MONOTONIC time and clears may_work on SUSPENDED/LOST. */
void zkhold_on_event(void *arg, enum zklock_event ev, const char *why);

/* Waits for the next event ev after the read cursor (consuming those
 * before it).  Returns 0 with *at_ms (may be NULL) and why (may be NULL,
 * truncated to whylen), or WB_EBUSY after timeout_ms. */
int zkhold_wait(struct zkhold *h, enum zklock_event ev, int timeout_ms, long long *at_ms, char *why,
		size_t whylen);

/* How many events of kind ev were recorded so far (consumed or not). */
int zkhold_count(struct zkhold *h, enum zklock_event ev);

int zkhold_may_work(struct zkhold *h);
void zkhold_set_may_work(struct zkhold *h, int yes);

#endif
