/*
 * snowflake.h - 64-bit Snowflake-style ids: the 41/10/12 layout and a
 * generator that keeps (t, worker, seq) unique across clock rollback,
 * restarts in the same millisecond and a second process on the same worker.
 *
 *  bit 63 62                          22 21          12 11           0
 *     ┌──┬──────────────────────────────┬──────────────┬──────────────┐
 *     │0 │ ms since chosen epoch  (41)  │ worker  (10) │ sequence (12)│
 *     └──┴──────────────────────────────┴──────────────┴──────────────┘
 *
 * The generator's rules (chapter 01, "Remedies, and what each costs"):
 *
 *  1. Clock behind the last issued millisecond: wait up to max_wait_ms for
 *     it to catch up, then refuse (WB_EBUSY).  Never reuse a past ms.
 *  2. Sequence exhausted (4096 ids in one ms): wait for the next ms, never
 *     wrap seq back to 0 within the same ms.  With catch_up_ms = K > 0,
 *     a caller that keeps all 4096 slots busy may also use milliseconds
 *     the clock has already passed while this process was not running
 *     (a late wake-up, a reservation commit): the ms after a full one is
 *     last + 1 when that is at most K ms behind the clock, and such a ms
 *     is filled while it stays within K.  t never runs ahead of the clock
 *     and never repeats; it may lag the moment of issue by up to K ms.
 *     K = 0 (the default): every id carries the ms the clock read.
 *  3. Restart: a time reservation "this worker may issue t < R" is
 *     committed to SQLite *before* any id with t in the new window is
 *     issued; a restarted generator starts at t >= R, waiting for the
 *     clock up to reserve_ms + max_wait_ms (R is at most one window ahead
 *     of the clock that committed it), refusing after that.  A crash before the
 *     commit issued nothing in the new window; a crash after it restarts
 *     beyond the window.
 *  4. Duplicate worker: the worker id is held through a ZooKeeper ephemeral
 *     node whose czxid is the holder's generation.  A generator whose node
 *     is gone (session expired or node deleted) stops issuing; while it is
 *     disconnected it pauses.  The reservation row records the generation
 *     and every reservation commit is conditional on it, so even a paused
 *     old generator that has not yet seen its expiry cannot issue past its
 *     reservation once a newer generation has taken the worker, and the
 *     newer one starts above that reservation.
 *
 * What this file deliberately does not do: pick worker ids for you, run a
 * logical clock ahead of the wall clock, or order ids causally (two
 * workers' ids compare by two different clocks).
 */
#ifndef WB_SNOWFLAKE_H
#define WB_SNOWFLAKE_H

#include <stddef.h>
#include <stdint.h>

#define SNOWFLAKE_TIME_BITS   41
#define SNOWFLAKE_WORKER_BITS 10
#define SNOWFLAKE_SEQ_BITS    12
#define SNOWFLAKE_TIME_LIMIT  (UINT64_C(1) << SNOWFLAKE_TIME_BITS) /* t < this */
#define SNOWFLAKE_WORKERS     (1u << SNOWFLAKE_WORKER_BITS)	   /* 1024 */
#define SNOWFLAKE_SEQS	      (1u << SNOWFLAKE_SEQ_BITS)	   /* 4096 per ms */
/* The epoch this build counts from: 2024-01-01T00:00:00Z in Unix ms. */
#define SNOWFLAKE_EPOCH_MS UINT64_C(1704067200000)
/* "0 " + 41 + " " + 10 + " " + 12 bits + NUL */
#define SNOWFLAKE_BITS_LEN 68

/* One issued id, decoded. */
struct snowflake_triple {
	uint64_t t;	 /* ms since the epoch, < 2^41 */
	uint32_t worker; /* < 1024 */
	uint32_t seq;	 /* < 4096 */
};

/* Encodes (t << 22) | (worker << 12) | seq.  Returns 0, or WB_ERANGE when
 * any field is out of its range (nothing is masked or wrapped). */
int snowflake_encode(uint64_t t, uint32_t worker, uint32_t seq, int64_t *id);

/* Decodes an id.  Returns 0, or WB_ERANGE for a negative id (sign bit set). */
int snowflake_decode(int64_t id, struct snowflake_triple *out);

/* Writes the id's 64 bits as "s time worker seq" groups separated by one
 * space into buf (SNOWFLAKE_BITS_LEN bytes). */
void snowflake_bits(int64_t id, char buf[SNOWFLAKE_BITS_LEN]);

/* 2^41 ms in Gregorian years of 365.2425 days (about 69.7). */
double snowflake_years(void);

/*
 * The clock a generator reads.  now_ms returns ms since the generator's
 * epoch; sleep_ms waits (a fake clock advances instead).  Labs inject
 * faults by swapping in a fake clock.
 */
struct snowflake_clock {
	uint64_t (*now_ms)(void *arg);
	void (*sleep_ms)(void *arg, uint64_t ms);
	void *arg;
};

/* The wall clock (CLOCK_REALTIME) minus SNOWFLAKE_EPOCH_MS; real sleeps. */
struct snowflake_clock snowflake_system_clock(void);
/* One line saying how the system clock's sleep_ms waits for a later
 * millisecond (static storage; printed by the benchmark). */
const char *snowflake_system_clock_wait(void);

/* A controllable clock: reads return now; every tick_every reads (0 =
 * never) now advances by 1 ms, as if time passed while generating;
 * sleep_ms(d) advances now by d and adds d to slept.  Set now directly to
 * step the clock back or forward. */
struct snowflake_fake_clock {
	uint64_t now;	     /* current reading, ms since the epoch */
	uint64_t tick_every; /* reads per simulated ms, 0 = frozen */
	uint64_t reads;	     /* reads so far */
	uint64_t slept;	     /* total ms "slept" */
};
/* A clock reading fc (borrowed; must outlive the generator). */
struct snowflake_clock snowflake_fake_clock(struct snowflake_fake_clock *fc);

/* A worker-id lease (ZooKeeper; see snowflake_lease_acquire). */
struct snowflake_lease;

struct snowflake_config {
	uint32_t worker;	       /* < 1024 */
	uint64_t generation;	       /* from the lease, else a fixed value >= 1 */
	struct snowflake_lease *lease; /* borrowed; NULL = no ZooKeeper lease */
	const char *db_path;	       /* SQLite file with the reservations */
	uint64_t reserve_ms;	       /* each reservation reaches this far ahead */
	uint64_t max_wait_ms;	       /* longest wait on a clock behind us */
	uint64_t catch_up_ms;	       /* rule 2: K, 0 = off (t = the clock's ms) */
	struct snowflake_clock clock;  /* see above */
};

struct snowflake_stats {
	uint64_t issued;	   /* ids returned */
	uint64_t commits;	   /* reservation commits */
	uint64_t rollback_waits;   /* times the clock was behind and we waited */
	uint64_t rollback_refused; /* times it stayed behind past max_wait_ms */
	uint64_t exhausted_waits;  /* times 4096 ids used up the clock's ms: waited */
	uint64_t waited_ms;	   /* ms spent waiting, all causes */
	uint64_t behind_ms;	   /* ms entered behind the clock (catch-up) */
	uint64_t max_lag_ms;	   /* largest clock - t when issuing */
	uint64_t reserved_until;   /* current reservation, exclusive */
	uint64_t resumed_from;	   /* reservation found at open (0 = none) */
};

struct snowflake_gen;

/*
 * Opens a generator.  In one SQLite transaction it reads the worker's
 * reservation row and takes the worker for cfg->generation; the first id
 * will have t >= the reservation found.  Returns 0; WB_EINVAL (bad config);
 * WB_EUNAVAIL (the row holds a newer generation: another generator owns
 * the worker; or the lease is not held); WB_ENOENT (cannot open the
 * database file), WB_EIO / WB_EBUSY (database).
 * err (may be NULL, errlen bytes) receives a message.  Free with
 * snowflake_gen_free.
 */
int snowflake_gen_open(const struct snowflake_config *cfg, struct snowflake_gen **out, char *err,
		       size_t errlen);

/*
 * Issues the next id.  Returns 0 and *id; or, issuing nothing:
 * WB_EBUSY    the clock stayed behind the last issued ms for max_wait_ms;
 * WB_EUNAVAIL the worker lease is lost or suspended, or a newer
 *             generation took the worker (the reservation commit was fenced);
 * WB_ERANGE   the 41-bit time budget is used up;
 * WB_EIO      the reservation could not be committed.
 * snowflake_gen_errmsg says which.  After WB_EUNAVAIL for a fenced commit
 * the generator stays stopped; a lost lease is final by itself.
 */
int snowflake_gen_next(struct snowflake_gen *g, int64_t *id);

/* Message for the last error (static storage inside g). */
const char *snowflake_gen_errmsg(const struct snowflake_gen *g);
/* Counters so far. */
void snowflake_gen_stats(const struct snowflake_gen *g, struct snowflake_stats *out);
/* Closes the database; persists nothing more (a crash and a close leave
 * the same state).  Accepts NULL. */
void snowflake_gen_free(struct snowflake_gen *g);

/* Lab hook: when on, the lease is read as HELD whatever its watcher saw,
 * as in a process that has just resumed from a pause and whose client has
 * not yet delivered the expiry.  The generation fence still applies. */
void snowflake_gen_set_stale_lease(struct snowflake_gen *g, int on);

/* Test and lab hook: called after a reservation commit is durable and
 * before the id that needed it is issued (e.g. to crash there). */
void snowflake_gen_set_commit_hook(struct snowflake_gen *g, void (*fn)(void *arg), void *arg);

/* ------------------------------------------------------------------ */
/* Worker-id leases in ZooKeeper                                        */

typedef struct _zhandle zhandle_t; /* <zookeeper/zookeeper.h> */

enum snowflake_lease_state {
	SNOWFLAKE_LEASE_HELD,	   /* node exists, session connected */
	SNOWFLAKE_LEASE_SUSPENDED, /* disconnected: cannot know; do not issue */
	SNOWFLAKE_LEASE_LOST,	   /* session expired or node deleted: final */
};

/*
 * Takes worker `worker` by creating the ephemeral node <dir>/worker-NNNN
 * (parents are created as persistent nodes).  Its czxid becomes the
 * generation, so a later holder always has a larger one.  A watch on the
 * node turns session and deletion events into the lease state.
 * Returns 0; WB_EBUSY when another session holds the node (err names its
 * ephemeralOwner); WB_EUNAVAIL (connection); WB_EIO (other ZooKeeper
 * errors).  zh is borrowed and must outlive the lease.
 */
int snowflake_lease_acquire(zhandle_t *zh, const char *dir, uint32_t worker,
			    struct snowflake_lease **out, char *err, size_t errlen);
/* The lease's generation (the node's czxid). */
uint64_t snowflake_lease_generation(const struct snowflake_lease *l);
/* The node path (owned by l). */
const char *snowflake_lease_path(const struct snowflake_lease *l);
/* Current state (an atomic read; cheap enough to call per id). */
enum snowflake_lease_state snowflake_lease_state(const struct snowflake_lease *l);
/* Blocks until the state differs from `from` or timeout_ms passes;
 * returns the state then. */
enum snowflake_lease_state snowflake_lease_wait(struct snowflake_lease *l,
						enum snowflake_lease_state from, int timeout_ms);
/* Deletes the node if still held and frees.  Call before closing zh.
 * Accepts NULL. */
void snowflake_lease_free(struct snowflake_lease *l);

#endif
