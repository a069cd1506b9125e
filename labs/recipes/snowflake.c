/*
 * snowflake.c - the 41/10/12 layout and a generator that does not repeat a
 * (t, worker, seq) triple (see snowflake.h for the rules).
 *
 * Invariants the generator keeps, in the order snowflake_gen_next checks
 * them:
 *   - (last_ms, seq) is the last triple issued by this process, or, after
 *     a restart, (R - 1, 4095): "the previous life may have used every slot
 *     below its reservation R".  Every id issued is strictly greater.
 *   - reserved_until is durable in SQLite before any id with
 *     t >= the previous reservation is returned; ids satisfy
 *     t < reserved_until.
 *   - the reservation row's generation equals ours whenever we extend it;
 *     otherwise a newer generator owns the worker and we stop for good.
 *
 * What this file does not do: keep worker ids apart by itself (that is the
 * lease's job), or retry a refused request (the caller decides whether to
 * wait longer, alarm, or fail).
 */
#ifndef THREADED
#define THREADED 1 /* the synchronous zoo_* calls of zookeeper_mt */
#endif
#include "recipes/snowflake.h"
#include "base/mono.h"
#include "base/sqlitex.h"
#include "base/wb.h"

#include <inttypes.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zookeeper/zookeeper.h>

#define SEQ_MAX (SNOWFLAKE_SEQS - 1)

int snowflake_encode(uint64_t t, uint32_t worker, uint32_t seq, int64_t *id)
{
	if (t >= SNOWFLAKE_TIME_LIMIT || worker >= SNOWFLAKE_WORKERS || seq >= SNOWFLAKE_SEQS)
		return WB_ERANGE;
	*id = (int64_t)((t << (SNOWFLAKE_WORKER_BITS + SNOWFLAKE_SEQ_BITS)) |
			((uint64_t)worker << SNOWFLAKE_SEQ_BITS) | seq);
	return 0;
}

int snowflake_decode(int64_t id, struct snowflake_triple *out)
{
	if (id < 0)
		return WB_ERANGE;
	uint64_t u = (uint64_t)id;
	out->t = u >> (SNOWFLAKE_WORKER_BITS + SNOWFLAKE_SEQ_BITS);
	out->worker = (uint32_t)((u >> SNOWFLAKE_SEQ_BITS) & (SNOWFLAKE_WORKERS - 1));
	out->seq = (uint32_t)(u & (SNOWFLAKE_SEQS - 1));
	return 0;
}

void snowflake_bits(int64_t id, char buf[SNOWFLAKE_BITS_LEN])
{
	uint64_t u = (uint64_t)id;
	size_t k = 0;
	for (int bit = 63; bit >= 0; bit--) {
		buf[k++] = (u >> bit) & 1 ? '1' : '0';
		if (bit == 63 || bit == 22 || bit == 12)
			buf[k++] = ' ';
	}
	buf[k] = '\0';
}

double snowflake_years(void)
{
	return (double)SNOWFLAKE_TIME_LIMIT / (1000.0 * 60 * 60 * 24 * 365.2425);
}

/* ------------------------------------------------------------------ */
/* Clocks                                                               */

static uint64_t system_now(void *arg)
{
	(void)arg;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	/* A wall clock set before the epoch reads as 0: the rollback rule
	 * then keeps us from reissuing anything. */
	return ms > SNOWFLAKE_EPOCH_MS ? ms - SNOWFLAKE_EPOCH_MS : 0;
}

/* Sleeps until the wall clock reaches the start of the ms `ms` ahead of
 * its current one, not a full `ms` from now: waiting out an exhausted
 * millisecond then loses only the wake-up latency, not most of the next
 * millisecond.  The distance is slept on the monotonic clock, so a wall
 * clock stepped back meanwhile cannot stretch the wait.
 *
 * No spin before the boundary.  Filling a ms takes ~130 us, so a wake-up
 * that is late by the usual 70-130 us costs nothing; only stalls near a
 * whole ms lose slots, and sleeping until 150-400 us early and spinning
 * moved those no more than runs differ anyway (bench/id_bench.c under
 * SCHED_FIFO: 98.3-98.9% of the budget without, 98.4-99.5% with) while
 * burning up to 40% of a CPU.  Stalls of whole milliseconds are what
 * catch_up_ms is for. */
static void system_sleep(void *arg, uint64_t ms)
{
	(void)arg;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	uint64_t ns = ms * 1000000 - (uint64_t)(now.tv_nsec % 1000000);
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000),
			      .tv_nsec = (long)(ns % 1000000000)};
	while (nanosleep(&ts, &ts) != 0)
		;
}

const char *snowflake_system_clock_wait(void)
{
	return "nanosleep (CLOCK_MONOTONIC, relative) for the distance to the next CLOCK_REALTIME "
	       "ms boundary; no spin";
}

struct snowflake_clock snowflake_system_clock(void)
{
	return (struct snowflake_clock){.now_ms = system_now, .sleep_ms = system_sleep};
}

static uint64_t fake_now(void *arg)
{
	struct snowflake_fake_clock *fc = arg;
	fc->reads++;
	if (fc->tick_every && fc->reads % fc->tick_every == 0)
		fc->now++;
	return fc->now;
}

static void fake_sleep(void *arg, uint64_t ms)
{
	struct snowflake_fake_clock *fc = arg;
	fc->now += ms;
	fc->slept += ms;
}

struct snowflake_clock snowflake_fake_clock(struct snowflake_fake_clock *fc)
{
	return (struct snowflake_clock){.now_ms = fake_now, .sleep_ms = fake_sleep, .arg = fc};
}

/* ------------------------------------------------------------------ */
/* The generator                                                        */

struct snowflake_gen {
	struct snowflake_config cfg; /* copy; db_path points at path below */
	char *path;		     /* owned copy of cfg.db_path */
	sqlite3 *db;		     /* the reservation database */
	sqlite3_stmt *extend;	     /* UPDATE ... WHERE generation = ours */
	int have_last;		     /* last_ms/seq are meaningful */
	uint64_t last_ms;	     /* t of the last issued id (or R - 1) */
	uint32_t seq;		     /* seq of the last issued id */
	int stopped;		     /* permanent error code, 0 while serving */
	int stale_lease;	     /* lab hook: read the lease as HELD */
	int resuming;		     /* no id issued yet since resuming above R */
	int behind;		     /* last_ms was entered behind the clock */
	struct snowflake_stats st;   /* counters */
	void (*hook)(void *);	     /* after a reservation commit */
	void *hook_arg;
	char err[256]; /* last error message */
};

static int fail(struct snowflake_gen *g, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct snowflake_gen *g, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->err, sizeof g->err, fmt, ap);
	va_end(ap);
	return rc;
}

/* A failed statement's WB_E* code (base/sqlitex's one map). */
static int sql_rc(int rc)
{
	return sqlitex_err(rc) ? sqlitex_err(rc) : WB_EIO;
}

static const char schema[] = "CREATE TABLE IF NOT EXISTS snowflake_worker("
			     " worker INTEGER PRIMARY KEY,"
			     " generation INTEGER NOT NULL,"
			     " reserved_until INTEGER NOT NULL)"; /* exclusive bound on t */

/* Takes the worker's row for our generation in one transaction and
 * returns the reservation the previous holder left. */
static int take_worker(struct snowflake_gen *g, uint64_t *reserved)
{
	sqlite3_stmt *sel = NULL, *up = NULL;
	int rc = 0, src;
	*reserved = 0;
	src = sqlite3_exec(g->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = fail(g, sql_rc(src), "%s: BEGIN: %s", g->path, sqlite3_errmsg(g->db));
		goto out;
	}
	if (sqlite3_prepare_v2(g->db,
			       "SELECT generation, reserved_until FROM snowflake_worker"
			       " WHERE worker = ?1",
			       -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(g->db,
			       "INSERT INTO snowflake_worker(worker, generation, reserved_until)"
			       " VALUES(?1, ?2, 0) ON CONFLICT(worker)"
			       " DO UPDATE SET generation = excluded.generation",
			       -1, &up, NULL) != SQLITE_OK) {
		rc = fail(g, WB_EIO, "%s: %s", g->path, sqlite3_errmsg(g->db));
		goto rollback;
	}
	sqlite3_bind_int64(sel, 1, g->cfg.worker);
	src = sqlite3_step(sel);
	if (src == SQLITE_ROW) {
		uint64_t gen = (uint64_t)sqlite3_column_int64(sel, 0);
		*reserved = (uint64_t)sqlite3_column_int64(sel, 1);
		if (gen > g->cfg.generation) {
			rc = fail(g, WB_EUNAVAIL,
				  "worker %" PRIu32 " belongs to generation %" PRIu64
				  ", newer than ours (%" PRIu64 ")",
				  g->cfg.worker, gen, g->cfg.generation);
			goto rollback;
		}
	} else if (src != SQLITE_DONE) {
		rc = fail(g, sql_rc(src), "%s: %s", g->path, sqlite3_errmsg(g->db));
		goto rollback;
	}
	sqlite3_bind_int64(up, 1, g->cfg.worker);
	sqlite3_bind_int64(up, 2, (sqlite3_int64)g->cfg.generation);
	src = sqlite3_step(up);
	if (src != SQLITE_DONE) {
		rc = fail(g, sql_rc(src), "%s: %s", g->path, sqlite3_errmsg(g->db));
		goto rollback;
	}
	src = sqlite3_exec(g->db, "COMMIT", NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = fail(g, sql_rc(src), "%s: COMMIT: %s", g->path, sqlite3_errmsg(g->db));
		goto rollback;
	}
	goto out;
rollback:
	sqlite3_exec(g->db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	return rc;
}

int snowflake_gen_open(const struct snowflake_config *cfg, struct snowflake_gen **out, char *err,
		       size_t errlen)
{
	struct snowflake_gen *g = wb_xcalloc(1, sizeof *g);
	int rc = 0;
	uint64_t reserved = 0;
	*out = NULL;
	g->cfg = *cfg;
	if (cfg->lease)
		g->cfg.generation = snowflake_lease_generation(cfg->lease);
	if (!cfg->db_path || !cfg->clock.now_ms || !cfg->clock.sleep_ms) {
		rc = fail(g, WB_EINVAL, "a generator needs a database path and a clock");
		goto out;
	}
	g->path = wb_xstrdup(cfg->db_path);
	g->cfg.db_path = g->path;
	if (cfg->worker >= SNOWFLAKE_WORKERS) {
		rc = fail(g, WB_EINVAL, "worker %" PRIu32 " is out of range (0..%u)", cfg->worker,
			  SNOWFLAKE_WORKERS - 1);
		goto out;
	}
	if (g->cfg.generation == 0 || g->cfg.generation > INT64_MAX) {
		rc = fail(g, WB_EINVAL, "generation must be 1..2^63-1");
		goto out;
	}
	if (cfg->reserve_ms == 0) {
		rc = fail(g, WB_EINVAL, "reserve_ms must be at least 1");
		goto out;
	}
	if (cfg->lease && snowflake_lease_state(cfg->lease) != SNOWFLAKE_LEASE_HELD) {
		rc = fail(g, WB_EUNAVAIL, "the lease on worker %" PRIu32 " is not held",
			  cfg->worker);
		goto out;
	}
	/* The reservation must survive a crash before an id in it is issued:
	 * WAL with synchronous=FULL syncs at every commit. */
	struct sqlitex_opts so = {.busy_timeout_ms = 5000, .synchronous = 2};
	rc = sqlitex_open(g->path, &so, &g->db, g->err, sizeof g->err);
	if (rc)
		goto out;
	if (sqlite3_exec(g->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		rc = fail(g, WB_EIO, "%s: %s", g->path, sqlite3_errmsg(g->db));
		goto out;
	}
	if (sqlite3_prepare_v2(g->db,
			       "UPDATE snowflake_worker SET reserved_until = ?3"
			       " WHERE worker = ?1 AND generation = ?2",
			       -1, &g->extend, NULL) != SQLITE_OK) {
		rc = fail(g, WB_EIO, "%s: %s", g->path, sqlite3_errmsg(g->db));
		goto out;
	}
	rc = take_worker(g, &reserved);
	if (rc)
		goto out;
	g->st.resumed_from = reserved;
	g->st.reserved_until = reserved;
	if (reserved > 0) {
		/* Treat every slot below R as used by the previous life. */
		g->have_last = 1;
		g->last_ms = reserved - 1;
		g->seq = SEQ_MAX;
		g->resuming = 1;
	}
out:
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "%s", g->err);
		snowflake_gen_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

void snowflake_gen_free(struct snowflake_gen *g)
{
	if (!g)
		return;
	sqlite3_finalize(g->extend);
	sqlite3_close(g->db);
	free(g->path);
	free(g);
}

const char *snowflake_gen_errmsg(const struct snowflake_gen *g)
{
	return g->err;
}

void snowflake_gen_stats(const struct snowflake_gen *g, struct snowflake_stats *out)
{
	*out = g->st;
}

void snowflake_gen_set_stale_lease(struct snowflake_gen *g, int on)
{
	g->stale_lease = on;
}

void snowflake_gen_set_commit_hook(struct snowflake_gen *g, void (*fn)(void *arg), void *arg)
{
	g->hook = fn;
	g->hook_arg = arg;
}

/* Durably moves the reservation to `until` (one autocommit statement, so
 * one synced commit).  Fenced by our generation. */
static int extend_reservation(struct snowflake_gen *g, uint64_t until)
{
	sqlite3_reset(g->extend);
	sqlite3_bind_int64(g->extend, 1, g->cfg.worker);
	sqlite3_bind_int64(g->extend, 2, (sqlite3_int64)g->cfg.generation);
	sqlite3_bind_int64(g->extend, 3, (sqlite3_int64)until);
	int src = sqlite3_step(g->extend);
	sqlite3_reset(g->extend);
	if (src != SQLITE_DONE)
		return fail(g, sql_rc(src), "%s: reservation commit failed: %s", g->path,
			    sqlite3_errmsg(g->db));
	if (sqlite3_changes(g->db) != 1) {
		g->stopped = WB_EUNAVAIL;
		return fail(g, WB_EUNAVAIL,
			    "worker %" PRIu32
			    " was taken by a newer generation; generation %" PRIu64
			    " stops issuing",
			    g->cfg.worker, g->cfg.generation);
	}
	g->st.commits++;
	g->st.reserved_until = until;
	return 0;
}

/* Waits until the clock reads >= target, for at most bound ms in total.
 * Returns the reading, or sets *late when the bound ran out. */
static uint64_t wait_until(struct snowflake_gen *g, uint64_t now, uint64_t target, uint64_t bound,
			   int *late)
{
	uint64_t waited = 0;
	*late = 0;
	while (now < target) {
		if (waited >= bound) {
			*late = 1;
			break;
		}
		uint64_t step = target - now;
		if (step > bound - waited)
			step = bound - waited;
		g->cfg.clock.sleep_ms(g->cfg.clock.arg, step);
		waited += step;
		now = g->cfg.clock.now_ms(g->cfg.clock.arg);
	}
	g->st.waited_ms += waited;
	return now;
}

int snowflake_gen_next(struct snowflake_gen *g, int64_t *id)
{
	const struct snowflake_clock *c = &g->cfg.clock;
	uint32_t seq = 0;
	int late, rc;

	if (g->stopped)
		return g->stopped;
	uint64_t now = c->now_ms(c->arg);

	/* 1. Clock behind the last issued ms: wait a bounded time, then refuse.
	 * Right after a restart the reservation found may be up to one window
	 * ahead of the clock that committed it, so the bound grows by that. */
	if (g->have_last && now < g->last_ms) {
		uint64_t bound = g->cfg.max_wait_ms + (g->resuming ? g->cfg.reserve_ms : 0);
		g->st.rollback_waits++;
		now = wait_until(g, now, g->last_ms, bound, &late);
		if (late) {
			g->st.rollback_refused++;
			return fail(g, WB_EBUSY,
				    "clock reads %" PRIu64 " ms, behind the last issued ms %" PRIu64
				    " after waiting %" PRIu64 " ms: refusing",
				    now, g->last_ms, bound);
		}
	}
	/* 2. Same ms: next sequence slot; all 4096 used: wait for the next ms.
	 * t is the ms the id gets: the clock's, unless catching up (K > 0)
	 * on milliseconds the clock passed while we were not running. */
	uint64_t t = now, k = g->cfg.catch_up_ms;
	if (g->have_last && now == g->last_ms) {
		if (g->seq < SEQ_MAX) {
			seq = g->seq + 1;
		} else {
			g->st.exhausted_waits++;
			now = wait_until(g, now, g->last_ms + 1, g->cfg.max_wait_ms + 1, &late);
			if (late)
				return fail(g, WB_EBUSY,
					    "sequence exhausted at %" PRIu64
					    " ms and the clock did not advance",
					    g->last_ms);
			t = now; /* > last_ms; a late wake-up is caught up below */
		}
	}
	if (g->have_last && k && now > g->last_ms) {
		if (g->seq < SEQ_MAX && g->behind && now - g->last_ms <= k) {
			t = g->last_ms; /* go on filling the ms being caught up */
			seq = g->seq + 1;
		} else if (g->seq == SEQ_MAX) {
			/* The last ms is full: the next one, if within K. */
			t = now - g->last_ms - 1 <= k ? g->last_ms + 1 : now - k;
		}
	}
	if (t >= SNOWFLAKE_TIME_LIMIT)
		return fail(g, WB_ERANGE, "t = %" PRIu64 " ms is past the 41-bit budget", t);

	/* 3. The lease, checked after any wait so a wait cannot outlive it. */
	if (g->cfg.lease && !g->stale_lease) {
		enum snowflake_lease_state ls = snowflake_lease_state(g->cfg.lease);
		if (ls == SNOWFLAKE_LEASE_LOST) /* final: the lease never comes back */
			return fail(g, WB_EUNAVAIL,
				    "the lease on worker %" PRIu32
				    " is lost (%s): stopped for good",
				    g->cfg.worker, snowflake_lease_path(g->cfg.lease));
		if (ls == SNOWFLAKE_LEASE_SUSPENDED)
			return fail(g, WB_EUNAVAIL,
				    "disconnected from ZooKeeper: not issuing until the session is "
				    "confirmed");
	}
	/* 4. Never past the durable reservation without a new commit first.
	 * The window reaches reserve_ms past the clock (t may lag it). */
	if (t >= g->st.reserved_until) {
		uint64_t until = now + g->cfg.reserve_ms;
		if (until > SNOWFLAKE_TIME_LIMIT)
			until = SNOWFLAKE_TIME_LIMIT;
		rc = extend_reservation(g, until);
		if (rc)
			return rc;
		if (g->hook)
			g->hook(g->hook_arg);
	}
	rc = snowflake_encode(t, g->cfg.worker, seq, id);
	if (rc)
		return fail(g, rc, "cannot encode (%" PRIu64 ", %" PRIu32 ", %" PRIu32 ")", t,
			    g->cfg.worker, seq);
	if (!g->have_last || t != g->last_ms) {
		g->behind = t < now;
		g->st.behind_ms += (uint64_t)g->behind;
	}
	if (now - t > g->st.max_lag_ms)
		g->st.max_lag_ms = now - t;
	g->have_last = 1;
	g->last_ms = t;
	g->seq = seq;
	g->resuming = 0;
	g->st.issued++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Worker-id leases                                                     */

struct snowflake_lease {
	zhandle_t *zh;	     /* borrowed */
	char *path;	     /* the ephemeral node */
	uint64_t generation; /* its czxid */
	int64_t session;     /* the session that created it */
	atomic_int state;    /* enum snowflake_lease_state */
	pthread_mutex_t mu;  /* with cv: lets snowflake_lease_wait block */
	pthread_cond_t cv;   /* broadcast on every state change */
};

static void lease_set(struct snowflake_lease *l, int to)
{
	pthread_mutex_lock(&l->mu);
	int cur = atomic_load(&l->state);
	/* LOST is final. */
	while (cur != SNOWFLAKE_LEASE_LOST && !atomic_compare_exchange_weak(&l->state, &cur, to))
		;
	pthread_cond_broadcast(&l->cv);
	pthread_mutex_unlock(&l->mu);
}

static void rearm_done(int rc, const struct Stat *stat, const void *data)
{
	(void)rc;
	(void)stat;
	(void)data;
}

/* Runs on the client's completion thread: only flips the state (and
 * re-arms a data watch, asynchronously). */
static void lease_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	struct snowflake_lease *l = ctx;
	(void)path;
	if (type == ZOO_SESSION_EVENT) {
		if (state == ZOO_EXPIRED_SESSION_STATE || state == ZOO_AUTH_FAILED_STATE)
			lease_set(l, SNOWFLAKE_LEASE_LOST);
		else if (state == ZOO_CONNECTED_STATE)
			lease_set(l, SNOWFLAKE_LEASE_HELD);
		else
			lease_set(l, SNOWFLAKE_LEASE_SUSPENDED);
	} else if (type == ZOO_DELETED_EVENT) {
		lease_set(l, SNOWFLAKE_LEASE_LOST);
	} else if (type == ZOO_CHANGED_EVENT || type == ZOO_CREATED_EVENT) {
		zoo_awexists(zh, l->path, lease_watcher, l, rearm_done, NULL);
	}
}

static int zk_rc(int zrc)
{
	return zrc == ZCONNECTIONLOSS || zrc == ZOPERATIONTIMEOUT || zrc == ZSESSIONEXPIRED ||
			       zrc == ZINVALIDSTATE
		       ? WB_EUNAVAIL
		       : WB_EIO;
}

static int ensure_parents(zhandle_t *zh, const char *dir)
{
	char *p = wb_xstrdup(dir);
	int rc = 0;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char keep = *s;
		*s = '\0';
		int zrc = zoo_create(zh, p, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
		*s = keep;
		if (zrc != ZOK && zrc != ZNODEEXISTS) {
			rc = zk_rc(zrc);
			break;
		}
		if (!keep)
			break;
	}
	free(p);
	return rc;
}

int snowflake_lease_acquire(zhandle_t *zh, const char *dir, uint32_t worker,
			    struct snowflake_lease **out, char *err, size_t errlen)
{
	struct snowflake_lease *l = NULL;
	struct Stat st;
	char *path = NULL;
	int rc = 0, zrc;
	char dummy[1];
	*out = NULL;
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	if (!dir || dir[0] != '/' || worker >= SNOWFLAKE_WORKERS) {
		snprintf(err, errlen, "bad lease directory or worker");
		return WB_EINVAL;
	}
	rc = ensure_parents(zh, dir);
	if (rc) {
		snprintf(err, errlen, "cannot create %s: %s", dir, wb_strerror(rc));
		return rc;
	}
	path = wb_xasprintf("%s/worker-%04" PRIu32, dir, worker);
	zrc = zoo_create2(zh, path, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL, NULL, 0, &st);
	if (zrc == ZNODEEXISTS) {
		struct Stat other;
		if (zoo_exists(zh, path, 0, &other) == ZOK)
			snprintf(err, errlen, "%s is held by session 0x%" PRIx64, path,
				 (uint64_t)other.ephemeralOwner);
		else
			snprintf(err, errlen, "%s is held by another session", path);
		rc = WB_EBUSY;
		goto out;
	}
	if (zrc != ZOK) {
		snprintf(err, errlen, "create %s: %s", path, zerror(zrc));
		rc = zk_rc(zrc);
		goto out;
	}
	l = wb_xcalloc(1, sizeof *l);
	l->zh = zh;
	l->path = path;
	path = NULL;
	l->generation = (uint64_t)st.czxid;
	l->session = st.ephemeralOwner;
	atomic_init(&l->state, SNOWFLAKE_LEASE_HELD);
	mono_cond_init(&l->cv);
	pthread_mutex_init(&l->mu, NULL);
	/* The watch turns deletion and session events into the state. */
	zrc = zoo_wexists(zh, l->path, lease_watcher, l, &st);
	if (zrc != ZOK) {
		snprintf(err, errlen, "watch %s: %s", l->path, zerror(zrc));
		rc = zk_rc(zrc);
		zoo_delete(zh, l->path, -1);
		pthread_cond_destroy(&l->cv);
		pthread_mutex_destroy(&l->mu);
		free(l->path);
		free(l);
		l = NULL;
		goto out;
	}
	*out = l;
out:
	free(path);
	return rc;
}

uint64_t snowflake_lease_generation(const struct snowflake_lease *l)
{
	return l->generation;
}

const char *snowflake_lease_path(const struct snowflake_lease *l)
{
	return l->path;
}

enum snowflake_lease_state snowflake_lease_state(const struct snowflake_lease *l)
{
	return (enum snowflake_lease_state)atomic_load(&((struct snowflake_lease *)l)->state);
}

enum snowflake_lease_state snowflake_lease_wait(struct snowflake_lease *l,
						enum snowflake_lease_state from, int timeout_ms)
{
	struct timespec until;
	mono_deadline(&until, timeout_ms);
	pthread_mutex_lock(&l->mu);
	while ((enum snowflake_lease_state)atomic_load(&l->state) == from)
		if (pthread_cond_timedwait(&l->cv, &l->mu, &until) != 0)
			break;
	enum snowflake_lease_state now = (enum snowflake_lease_state)atomic_load(&l->state);
	pthread_mutex_unlock(&l->mu);
	return now;
}

void snowflake_lease_free(struct snowflake_lease *l)
{
	if (!l)
		return;
	/* Remove our watch first so no event can reach freed memory, then
	 * delete the node only while it is still ours. */
	zoo_remove_watches(l->zh, l->path, ZWATCHTYPE_DATA, lease_watcher, l, 1);
	if (atomic_load(&l->state) != SNOWFLAKE_LEASE_LOST) {
		struct Stat st;
		if (zoo_exists(l->zh, l->path, 0, &st) == ZOK && st.ephemeralOwner == l->session)
			zoo_delete(l->zh, l->path, st.version);
	}
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
	free(l->path);
	free(l);
}
