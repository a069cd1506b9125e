/*
 * mono.h - the monotonic clock: milliseconds, deadlines
 * for pthread_cond_timedwait, and condition variables that time out on
 * CLOCK_MONOTONIC.
 *
 * Every wait in the labs and the harness is measured on CLOCK_MONOTONIC:
 * the id labs move the wall clock of their generators on purpose, and a
 * deadline on CLOCK_REALTIME would stretch or fire early when the machine's
 * clock is stepped.
 */
#ifndef WB_MONO_H
#define WB_MONO_H

#include <pthread.h>
#include <time.h>

/* CLOCK_MONOTONIC in milliseconds. */
long long mono_now_ms(void);

/* *ts = now + timeout_ms on CLOCK_MONOTONIC (a negative timeout counts as
 * 0), for pthread_cond_timedwait on a condition from mono_cond_init. */
void mono_deadline(struct timespec *ts, long long timeout_ms);

/* pthread_cond_init with CLOCK_MONOTONIC as the clock of timed waits. */
void mono_cond_init(pthread_cond_t *cv);

#endif
