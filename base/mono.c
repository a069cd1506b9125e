/*
 * mono.c - the monotonic clock helpers (see mono.h).
 */
#include "base/mono.h"

long long mono_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void mono_deadline(struct timespec *ts, long long timeout_ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	if (timeout_ms < 0)
		timeout_ms = 0;
	ts->tv_sec += (time_t)(timeout_ms / 1000);
	ts->tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

void mono_cond_init(pthread_cond_t *cv)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(cv, &ca);
	pthread_condattr_destroy(&ca);
}
