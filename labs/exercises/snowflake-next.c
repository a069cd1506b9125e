/*
 * snowflake-next.c - the check of the exercise "snowflake-next": the
 * learner's wbx_snowflake_next (exercises/snowflake-next/api.h) in place of
 * the recipe's generator in steps 1 to 3 of the id-snowflake lab's
 * scenario (labs/ids/idsnowflake.h):
 *
 *   1. rollback on the lab's fake clock: checks rollback-waits,
 *      no-reuse-of-999, rollback-refused, resumes-when-clock-returns;
 *   2. exhaustion of a millisecond, the clock frozen: sequence-never-wraps;
 *   3. a generator process SIGKILLed after issuing at ms 1000 and its
 *      successor started with the clock still at 1000, the reservation in
 *      a real SQLite file (synchronous=FULL): restart-resumes-above-reservation.
 *
 * The adapter here owns what api.h says the workbench owns: the state
 * struct, the clock callbacks (forwarding to the lab's clock and counting
 * the time waited) and the durable reservation (its own table in the
 * lab's reservation file).  It also checks every id the learner returns:
 * an id whose t is not below the reservation made durable before it stops
 * the step as the failed check issues-within-reservation; a negative id or
 * another worker's bits as generator-answers.
 *
 * Not run: step 4 (the worker-id lease and the generation fence are the
 * recipe's, not the learner's) and step 5 (its checks count the recipe's
 * internal counters).  The fake clock is the lab's: the generator is pure
 * logic around it, the one place a fake is allowed.
 */
#include "base/sqlitex.h"
#include "base/wb.h"
#include "exercise.h"
#include "exercises/snowflake-next/api.h"
#include "harness/report.h"
#include "ids/idsnowflake.h"
#include "recipes/snowflake.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*next_fn)(struct wbx_snowflake *g, int64_t *id);

/* The learner's function, set before the scenario forks its generator
 * processes (they inherit it). */
static next_fn learner_next;

/* One generator: the learner's state and what surrounds it. */
struct adapter {
	struct wbx_snowflake s;
	struct snowflake_clock clock; /* the lab's */
	sqlite3 *db;
	sqlite3_stmt *save;
	uint64_t durable; /* the reservation the file holds */
	uint64_t waited;  /* ms the learner slept */
	uint64_t issued;
	char err[256];
};

static uint64_t clock_now(void *arg)
{
	struct adapter *a = arg;
	return a->clock.now_ms(a->clock.arg);
}

static void clock_sleep(void *arg, uint64_t ms)
{
	struct adapter *a = arg;
	a->waited += ms;
	a->clock.sleep_ms(a->clock.arg, ms);
}

/* The durable reservation: one synced autocommit statement. */
static int reserve(void *arg, uint64_t until)
{
	struct adapter *a = arg;
	if (until > INT64_MAX)
		return WBX_ERANGE;
	sqlite3_reset(a->save);
	sqlite3_bind_int64(a->save, 1, a->s.worker);
	sqlite3_bind_int64(a->save, 2, (sqlite3_int64)until);
	int src = sqlite3_step(a->save);
	sqlite3_reset(a->save);
	if (src != SQLITE_DONE) {
		snprintf(a->err, sizeof a->err, "reservation commit failed: %s",
			 sqlite3_errmsg(a->db));
		return WBX_EIO;
	}
	a->durable = until;
	return 0;
}

static void adapter_free(void *g)
{
	struct adapter *a = g;
	if (!a)
		return;
	sqlite3_finalize(a->save);
	sqlite3_close(a->db);
	free(a);
}

static int adapter_open(const struct snowflake_config *cfg, void **g, char *err, size_t errlen)
{
	struct adapter *a = wb_xcalloc(1, sizeof *a);
	struct sqlitex_opts so = {.busy_timeout_ms = 5000, .synchronous = 2};
	sqlite3_stmt *sel = NULL;
	int rc = sqlitex_open(cfg->db_path, &so, &a->db, a->err, sizeof a->err);
	if (rc)
		goto out;
	if (sqlite3_exec(a->db,
			 "CREATE TABLE IF NOT EXISTS wbx_reservation("
			 " worker INTEGER PRIMARY KEY, reserved_until INTEGER NOT NULL)",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		    a->db,
		    "INSERT INTO wbx_reservation(worker, reserved_until) VALUES(?1, ?2)"
		    " ON CONFLICT(worker) DO UPDATE SET reserved_until = excluded.reserved_until",
		    -1, &a->save, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(a->db,
			       "SELECT reserved_until FROM wbx_reservation WHERE worker = ?1", -1,
			       &sel, NULL) != SQLITE_OK) {
		snprintf(a->err, sizeof a->err, "%s: %s", cfg->db_path, sqlite3_errmsg(a->db));
		rc = WB_EIO;
		goto out;
	}
	sqlite3_bind_int64(sel, 1, cfg->worker);
	int src = sqlite3_step(sel);
	if (src == SQLITE_ROW) {
		a->durable = (uint64_t)sqlite3_column_int64(sel, 0);
	} else if (src != SQLITE_DONE) {
		snprintf(a->err, sizeof a->err, "%s: %s", cfg->db_path, sqlite3_errmsg(a->db));
		rc = WB_EIO;
		goto out;
	}
	a->clock = cfg->clock;
	a->s.worker = cfg->worker;
	a->s.max_wait_ms = cfg->max_wait_ms;
	a->s.reserve_ms = cfg->reserve_ms;
	a->s.clock = (struct wbx_clock){.now_ms = clock_now, .sleep_ms = clock_sleep, .arg = a};
	a->s.persist = (struct wbx_persist){.reserve = reserve, .arg = a};
	a->s.resumed_from = a->durable;
out:
	sqlite3_finalize(sel);
	if (rc) {
		snprintf(err, errlen, "%s", a->err);
		adapter_free(a);
		a = NULL;
	}
	*g = a;
	return rc;
}

static const char *rc_name(int rc)
{
	switch (rc) {
	case WBX_EBUSY: return "WBX_EBUSY";
	case WBX_EIO: return "WBX_EIO";
	case WBX_ERANGE: return "WBX_ERANGE";
	default: return "not a code api.h defines";
	}
}

/* Calls the learner and checks the id it returned. */
static int adapter_next(void *g, int64_t *id)
{
	struct adapter *a = g;
	int64_t got = -1;
	int rc = learner_next(&a->s, &got);
	if (rc) {
		snprintf(a->err, sizeof a->err, "wbx_snowflake_next returned %d (%s)", rc,
			 rc_name(rc));
		return rc < 0 ? rc : WB_EINVAL;
	}
	struct snowflake_triple t;
	if (snowflake_decode(got, &t)) {
		snprintf(a->err, sizeof a->err,
			 "wbx_snowflake_next returned 0 and a negative id %" PRId64, got);
		return WB_EINVAL;
	}
	if (t.worker != a->s.worker) {
		snprintf(a->err, sizeof a->err,
			 "id %" PRId64 " carries worker %" PRIu32 ", not %" PRIu32, got, t.worker,
			 a->s.worker);
		return WB_EINVAL;
	}
	if (t.t >= a->durable) {
		snprintf(a->err, sizeof a->err,
			 "id (%" PRIu64 ", %" PRIu32 ", %" PRIu32 ") is at or beyond the durable "
			 "reservation %" PRIu64 " ms: reserve first, then issue",
			 t.t, t.worker, t.seq, a->durable);
		return WB_ECONFLICT;
	}
	a->issued++;
	*id = got;
	return 0;
}

static const char *adapter_errmsg(void *g)
{
	return ((struct adapter *)g)->err;
}

static void adapter_stats(void *g, struct snowflake_stats *out)
{
	struct adapter *a = g;
	memset(out, 0, sizeof *out);
	out->issued = a->issued;
	out->waited_ms = a->waited;
	out->reserved_until = a->durable;
	out->resumed_from = a->s.resumed_from;
}

static const struct id_snowflake_impl adapter = {
	.open = adapter_open,
	.next = adapter_next,
	.errmsg = adapter_errmsg,
	.stats = adapter_stats,
	.free = adapter_free,
	.under_test = 1,
};

/* snowspec.c: the rules, judged before the story (spec.h). */
int snowspec_rules(struct lab_ctx *ctx, const struct ex_code *code, next_fn next);

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	void *sym = ex_code_sym(code, "wbx_snowflake_next");
	if (!sym) {
		report_check(ctx->report, "defines wbx_snowflake_next", 0,
			     "the file defines wbx_snowflake_next (api.h)",
			     "no such function in the built object");
		return LAB_RAN;
	}
	memcpy(&learner_next, &sym, sizeof learner_next);
	int rc = snowspec_rules(ctx, code, learner_next);
	if (rc)
		return lab_outcome_of(ctx, rc);
	report_step(ctx->report,
		    "The story: steps 1 to 3 of the id-snowflake lab with your function");
	report_conclusion(ctx->report,
			  "Your generator never issued an id twice: it waited out a small clock "
			  "rollback and refused a large one, moved to the next millisecond instead "
			  "of wrapping, reserved time durably before using it, and after a restart "
			  "in the same millisecond resumed above its reservation.");
	return lab_outcome_of(
		ctx,
		id_snowflake_scenario(ctx, &adapter, ID_SNOWFLAKE_ROLLBACK | ID_SNOWFLAKE_RESTART));
}

const ex_check_fn ex_snowflake_next = check;
