/*
 * api.h - the interface of the exercise "snowflake-next": you write one
 * function, wbx_snowflake_next, which issues the next 64-bit id of a
 * Snowflake-style generator (chapter 01, "Snowflake: uniqueness is a bit
 * budget plus recovery rules").
 *
 *  bit 63 62                          22 21          12 11           0
 *     +--+------------------------------+--------------+--------------+
 *     |0 | t: ms since the epoch  (41)  | worker  (10) | sequence (12)|
 *     +--+------------------------------+--------------+--------------+
 *
 * The workbench owns everything around the function: it opens the state
 * (reading the durable reservation from a SQLite file), passes the clock
 * and the persistence callbacks, and checks every id you return.  You
 * keep the generator's state in struct wbx_snowflake between calls.
 *
 * This header declares no other function for you to write, and nothing
 * here talks to ZooKeeper: the worker id is given and already exclusive.
 */
#ifndef WBX_SNOWFLAKE_API_H
#define WBX_SNOWFLAKE_API_H

#include <stdint.h>

#define WBX_TIME_BITS	41
#define WBX_WORKER_BITS 10
#define WBX_SEQ_BITS	12
#define WBX_SEQ_MAX	4095u /* the last sequence number of a millisecond */

/* What wbx_snowflake_next returns besides 0. */
#define WBX_EBUSY  (-7) /* the clock stayed behind (or stuck) past max_wait_ms */
#define WBX_EIO	   (-2) /* the reservation could not be made durable */
#define WBX_ERANGE (-8) /* t does not fit in 41 bits */

/* The clock.  now_ms: ms since the generator's epoch.  sleep_ms: waits
 * (about) ms milliseconds; read now_ms again afterwards, it may say less
 * than you hoped. */
struct wbx_clock {
	uint64_t (*now_ms)(void *arg);
	void (*sleep_ms)(void *arg, uint64_t ms);
	void *arg;
};

/* The durable reservation.  reserve(arg, until) commits "this worker may
 * issue ids with t < until" to disk (SQLite, synchronous) and returns 0
 * once it is durable, or a negative code when it could not: then issue
 * nothing. */
struct wbx_persist {
	int (*reserve)(void *arg, uint64_t until);
	void *arg;
};

struct wbx_snowflake {
	/* Configuration: set by the workbench, read-only for you. */
	uint32_t worker;      /* < 1024 */
	uint64_t max_wait_ms; /* longest wait for a clock that is behind */
	uint64_t reserve_ms;  /* how far past the clock a new reservation reaches */
	struct wbx_clock clock;
	struct wbx_persist persist;
	/* Found at open: the reservation the previous life of this worker
	 * committed (0: none).  It may have issued ids with any t below it. */
	uint64_t resumed_from;

	/* Your state.  The workbench zeroes it at open and never touches it
	 * again; use it as you see fit (these are the fields the reference
	 * solution needs). */
	int have_last;		 /* last_ms and seq describe an issued id */
	uint64_t last_ms;	 /* t of the last id issued */
	uint32_t seq;		 /* sequence of the last id issued */
	uint64_t reserved_until; /* what you last reserved (0: nothing yet) */
};

/*
 * Issues the next id into *id: (t << 22) | (worker << 12) | seq.
 * Every id must be greater than every id this worker issued before, in
 * this life or a previous one.  Returns 0, or WBX_EBUSY / WBX_EIO /
 * WBX_ERANGE having issued nothing.
 */
int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id);

#endif
