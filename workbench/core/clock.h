/*
 * clock.h - now, shuffle seeds and uids for the progress model
 * (answers, sessions, exchange).
 *
 * Two environment variables make runs repeatable for tests and
 * demonstrations: WORKBENCH_NOW=SECONDS starts the clock at that time
 * (it still advances), WORKBENCH_SEED=N fixes the shuffle seed.  This
 * module does not touch the database and does not schedule anything.
 */
#ifndef WB_CLOCK_H
#define WB_CLOCK_H

#include <stdint.h>

/* Now, in unix milliseconds.  WORKBENCH_NOW=SECONDS (for tests and
 * demonstrations) starts the clock at that time; it still advances.
 * Cannot fail. */
int64_t answers_now_ms(void);

/* A seed for shuffling from the system's random source, or
 * WORKBENCH_SEED=N (tests that want a known order).  Cannot fail: without
 * /dev/urandom the seed comes from the clock and the pid. */
uint64_t answers_random_seed(void);

/* A fresh uid: 32 lower-case hex digits from /dev/urandom (or the
 * fallback generator).  The caller frees.  Cannot fail (aborts on out of
 * memory). */
char *clock_new_uid(void);

/* The next number of the splitmix64 sequence whose state is *state
 * (advanced).  Used to shuffle a test from its seed, so one seed gives
 * one order.  Cannot fail. */
uint64_t clock_splitmix(uint64_t *state);

#endif
