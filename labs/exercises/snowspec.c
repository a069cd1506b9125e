/*
 * snowspec.c - the rules of the exercise "snowflake-next", judged on the
 * learner's wbx_snowflake_next before the id-snowflake lab's story runs
 * (snowflake-next.c; spec.h).
 *
 * The generator is pure logic around a clock and a persistence callback,
 * so its situations run in the worker process on a clock the check moves
 * (the one place a fake is allowed: no server is involved) and a
 * reservation callback that can be told to fail.  The durable side of
 * the reservation (a real SQLite file, a SIGKILLed process) is the
 * story's, which runs afterwards unchanged.
 *
 * Every call is judged by one function, judge_call, against a model of
 * what api.h allows: the ids issued so far (in this life and the previous
 * ones), the durable reservation, the clock, and whether the last reserve
 * call failed.  A mismatch is charged to the one rule it breaks, in a
 * fixed order (restart, reservation, waits, sequence, layout, increase),
 * so a known-wrong variant fails the rule it was written for and no
 * other.  Situations stage the boundary cases; the exploration draws
 * seeded schedules of clock moves, calls, failed reservations and
 * restarts.
 *
 * A learner's loop that sleeps forever on a stuck clock is cut off: past
 * a budget, sleep_ms moves the clock again, and the wait is judged too
 * long.
 */
#include "spec.h"
#include "exercises/snowflake-next/api.h"
#include "harness/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef int (*next_fn)(struct wbx_snowflake *g, int64_t *id);

#define MAX_WAIT   50
#define RESERVE_MS 1000
#define WORKER	   5
#define T_MAX	   ((UINT64_C(1) << WBX_TIME_BITS) - 1)

enum { R_INCREASE, R_LAYOUT, R_BEHIND, R_FULL, R_RESERVE, R_RESERVE_FAIL, R_RESTART, R_ABLE, R_N };

static const struct spec_rule rules[R_N] = {
	{"ids-increase",
	 N_("every id is greater than every id this worker issued before, in this life or an "
	    "earlier one")},
	{"id-layout",
	 N_("an id is (t << 22) | (worker << 12) | seq with this worker, seq <= 4095 and a t the "
	    "clock has reached and that fits 41 bits")},
	{"clock-behind-waits",
	 N_("a clock behind the last id's ms is waited for through sleep_ms; no call sleeps more "
	    "than max_wait_ms in all; past that, WBX_EBUSY and nothing issued")},
	{"full-ms-waits",
	 N_("after seq 4095 the next id waits for the next millisecond; the sequence never "
	    "wraps within one")},
	{"reserve-before-issue",
	 N_("every id's t is below a reservation that reserve() made durable before the id was "
	    "returned")},
	{"reserve-failure-is-eio",
	 N_("when reserve() fails the call returns WBX_EIO and issues nothing")},
	{"restart-above-reservation",
	 N_("after a restart the first id has t >= resumed_from, waiting for the clock (bounded) "
	    "when it reads less")},
	{"issues-when-able",
	 N_("when the clock has a free slot within reach and the reservation succeeds, the call "
	    "returns 0 and an id")},
};

struct sf {
	struct spec sp;
	next_fn next;
	struct wbx_snowflake g;
	uint64_t now;		/* the clock */
	int stuck;		/* sleep_ms does not move the clock */
	int slow;		/* sleep_ms moves it half of what was asked (rounded up) */
	uint64_t slept;		/* ms slept in the current call */
	uint64_t durable;	/* the reservation made durable */
	uint64_t reserve_asked; /* until of the last reserve call (0: none this call) */
	int fail_reserve;	/* the next reserve() fails */
	int reserve_failed;	/* a reserve() failed during this call */
	int64_t max_id;		/* the greatest id issued by any life (-1: none) */
	uint64_t last_t;	/* t and seq of the last id of this life */
	uint32_t last_seq;
	int have_last;
	int fresh_life; /* no id yet since the restart */
	int broken;	/* a situation of this group broke a rule: skip the rest */
};

static uint64_t c_now(void *arg)
{
	return ((struct sf *)arg)->now;
}

static void c_sleep(void *arg, uint64_t ms)
{
	struct sf *x = arg;
	x->slept += ms;
	if (x->slept > 100 * MAX_WAIT)
		x->now += ms ? ms : 1; /* a runaway wait: let it end */
	else if (x->slow)
		x->now += (ms + 1) / 2;
	else if (!x->stuck)
		x->now += ms;
}

static int p_reserve(void *arg, uint64_t until)
{
	struct sf *x = arg;
	x->reserve_asked = until;
	if (x->fail_reserve) {
		x->fail_reserve = 0;
		x->reserve_failed = 1;
		return WBX_EIO;
	}
	if (until > x->durable)
		x->durable = until;
	return 0;
}

/* A new life of the generator: state zeroed, the durable reservation
 * found (resumed_from) as a real open finds it. */
static void open_life(struct sf *x)
{
	memset(&x->g, 0, sizeof x->g);
	x->g.worker = WORKER;
	x->g.max_wait_ms = MAX_WAIT;
	x->g.reserve_ms = RESERVE_MS;
	x->g.clock = (struct wbx_clock){c_now, c_sleep, x};
	x->g.persist = (struct wbx_persist){p_reserve, x};
	x->g.resumed_from = x->durable;
	x->have_last = 0;
	x->fresh_life = x->durable > 0;
}

static void reset(struct sf *x, uint64_t now)
{
	x->now = now;
	x->stuck = 0;
	x->slow = 0;
	x->durable = 0;
	x->fail_reserve = 0;
	x->max_id = -1;
	x->broken = 0;
	open_life(x);
}

static const char *code_name(int rc)
{
	switch (rc) {
	case 0: return "0";
	case WBX_EBUSY: return "WBX_EBUSY";
	case WBX_EIO: return "WBX_EIO";
	case WBX_ERANGE: return "WBX_ERANGE";
	default: return "a code api.h does not define";
	}
}

/*
 * One call of the learner's function, judged.  Returns the index + 1 of
 * the rule it broke (why says how), or 0.  The model: before the call the
 * clock reads c0; the slot the rules allow next is the smallest (t, seq)
 * above the last id (and, after a restart, with t >= resumed_from); the
 * call may wait for the clock at most MAX_WAIT ms.
 */
static int call(struct sf *x, char *why, size_t len)
{
	uint64_t c0 = x->now;
	x->slept = 0;
	x->reserve_failed = 0;
	x->reserve_asked = 0;
	uint64_t durable0 = x->durable;
	int will_fail = x->fail_reserve;
	int64_t id = -1;
	int rc = x->next(&x->g, &id);
	/* What the model says the call had to reach: its lowest t. */
	uint64_t need = c0;
	int after_restart = x->fresh_life;
	if (x->have_last && x->last_t > need)
		need = x->last_t;
	if (x->have_last && x->last_t >= c0 && x->last_seq == WBX_SEQ_MAX)
		need = x->last_t + 1;
	if (after_restart && x->g.resumed_from > need)
		need = x->g.resumed_from;
	uint64_t max_wait = x->g.max_wait_ms;
	int reachable = need <= c0 + max_wait && !x->stuck && need <= T_MAX;
	if (x->slept > max_wait) { /* every wait is bounded: one rule */
		snprintf(why, len, "slept %" PRIu64 " ms in one call (max_wait_ms %" PRIu64 ")",
			 x->slept, max_wait);
		return R_BEHIND + 1;
	}
	if (rc != 0) {
		if (x->reserve_failed && rc == WBX_EIO)
			return 0;
		if (x->reserve_failed) {
			snprintf(why, len, "reserve() failed and the call returned %s, not WBX_EIO",
				 code_name(rc));
			return R_RESERVE_FAIL + 1;
		}
		if (rc == WBX_ERANGE && need > T_MAX)
			return 0;
		if (rc == WBX_EBUSY && x->now < need && x->slept < max_wait) {
			snprintf(why, len,
				 "returned WBX_EBUSY after sleeping %" PRIu64
				 " of max_wait_ms %" PRIu64 " ms, the clock still behind (%" PRIu64
				 " < %" PRIu64 ")",
				 x->slept, max_wait, x->now, need);
			return R_BEHIND + 1;
		}
		if (rc == WBX_EBUSY && (!reachable || x->now < need))
			return 0;
		snprintf(why, len,
			 "returned %s with the clock at %" PRIu64
			 " ms and the next free slot at t = "
			 "%" PRIu64 ", within max_wait_ms",
			 code_name(rc), c0, need);
		if (after_restart)
			return R_RESTART + 1;
		if (x->have_last && c0 < x->last_t)
			return R_BEHIND + 1;
		if (x->have_last && c0 == x->last_t && x->last_seq == WBX_SEQ_MAX)
			return R_FULL + 1;
		return R_ABLE + 1;
	}
	uint64_t t = (uint64_t)id >> 22;
	uint32_t w = (uint32_t)(((uint64_t)id >> 12) & 1023), seq = (uint32_t)((uint64_t)id & 4095);
	if (will_fail && x->reserve_failed) {
		snprintf(why, len,
			 "reserve() failed, yet the call returned 0 and id %" PRId64
			 " (t = %" PRIu64 ")",
			 id, t);
		return R_RESERVE_FAIL + 1;
	}
	if (id < 0 || w != WORKER || t > x->now) {
		snprintf(why, len,
			 "id %" PRId64 " decodes to t = %" PRIu64 ", worker %" PRIu32
			 ", seq %" PRIu32 " with the clock at %" PRIu64 " ms and worker %d",
			 id, t, w, seq, x->now, WORKER);
		return R_LAYOUT + 1;
	}
	if (after_restart && t < x->g.resumed_from) {
		snprintf(why, len,
			 "the first id after the restart has t = %" PRIu64
			 ", below resumed_from %" PRIu64,
			 t, x->g.resumed_from);
		return R_RESTART + 1;
	}
	if (t >= x->durable) {
		snprintf(why, len,
			 "id at t = %" PRIu64 " with the durable reservation at %" PRIu64
			 " (was %" PRIu64 " before the call%s)",
			 t, x->durable, durable0,
			 x->reserve_asked ? "" : "; reserve() was not called");
		return R_RESERVE + 1;
	}
	if (id <= x->max_id) {
		uint64_t pt = (uint64_t)x->max_id >> 22;
		uint32_t ps = (uint32_t)((uint64_t)x->max_id & 4095);
		snprintf(why, len,
			 "id (t = %" PRIu64 ", seq %" PRIu32 ") after (t = %" PRIu64
			 ", seq %" PRIu32 "), clock %" PRIu64 " ms before the call",
			 t, seq, pt, ps, c0);
		if (x->have_last && t < x->last_t && c0 < x->last_t)
			return R_BEHIND + 1;
		if (x->have_last && t == x->last_t && x->last_seq == WBX_SEQ_MAX)
			return R_FULL + 1;
		return R_INCREASE + 1;
	}
	x->max_id = id;
	x->have_last = 1;
	x->last_t = t;
	x->last_seq = seq;
	x->fresh_life = 0;
	return 0;
}

/* Calls n times (stopping at the first broken rule); judges rule k in the
 * situation sit with what the first broken call said; a call that broke
 * another rule is judged against that one. */
static void situation(struct sf *x, int k, const char *sit, int n)
{
	char why[300] = "";
	int r = 0;
	if (x->broken)
		return;
	for (int i = 0; i < n && !r; i++)
		r = call(x, why, sizeof why);
	if (r && r - 1 != k)
		spec_judge(&x->sp, rules[r - 1].id, sit, 0, "%s", why);
	spec_judge(&x->sp, rules[k].id, sit, r - 1 != k, "%s", why);
	x->broken = r != 0;
}

static void situations(struct sf *x)
{
	reset(x, 1000);
	situation(x, R_INCREASE, "three calls in one ms, then the next ms", 3);
	x->now = 1001;
	situation(x, R_INCREASE, "three calls in one ms, then the next ms", 1);

	reset(x, 1000);
	situation(x, R_LAYOUT, "ids at ms 1000 for worker 5", 2);
	reset(x, T_MAX - 2);
	situation(x, R_ABLE, "the clock at the last ms that fits 41 bits, less 2", 1);
	reset(x, T_MAX + 1);
	situation(x, R_LAYOUT, "the clock past 41 bits", 1);

	reset(x, 1000);
	situation(x, R_BEHIND, "100 ids at 1000, the clock back to 980", 100);
	x->now = 980;
	situation(x, R_BEHIND, "100 ids at 1000, the clock back to 980", 1);
	x->now = 500;
	situation(x, R_BEHIND, "the clock back to 500 (beyond max_wait_ms)", 1);
	x->now = 900;
	x->stuck = 1;
	situation(x, R_BEHIND, "the clock back to 900 and stuck", 1);

	reset(x, 1000);
	situation(x, R_BEHIND, "the clock back 20 ms, sleep_ms moving it half as far", 1);
	x->now = 980;
	x->slow = 1;
	situation(x, R_BEHIND, "the clock back 20 ms, sleep_ms moving it half as far", 1);
	x->now = 960;
	situation(x, R_BEHIND, "the clock back 40 ms, sleep_ms moving it half as far", 1);

	reset(x, T_MAX);
	x->stuck = 1;
	situation(x, R_LAYOUT, "4096 ids in the last ms of 41 bits, then one more", 4096);
	x->stuck = 0;
	situation(x, R_LAYOUT, "4096 ids in the last ms of 41 bits, then one more", 1);

	reset(x, 2000);
	x->stuck = 1;
	situation(x, R_FULL, "4096 ids in ms 2000, the clock frozen", 4096);
	x->stuck = 0;
	situation(x, R_FULL, "the 4097th id in ms 2000", 2);

	reset(x, 1000);
	situation(x, R_RESERVE, "the first id, then ids past the first reservation", 1);
	x->now = 1000 + RESERVE_MS;
	situation(x, R_RESERVE, "the first id, then ids past the first reservation", 1);
	x->now = 1000 + 5 * RESERVE_MS;
	situation(x, R_RESERVE, "the clock jumps past the reservation", 1);

	reset(x, 1000);
	x->fail_reserve = 1;
	situation(x, R_RESERVE_FAIL, "the first reservation fails", 1);
	situation(x, R_RESERVE_FAIL, "the call after a failed reservation", 1);
	x->now = 1000 + 3 * RESERVE_MS;
	x->fail_reserve = 1;
	situation(x, R_RESERVE_FAIL, "a later reservation fails", 2);

	reset(x, 1000);
	situation(x, R_RESTART, "5000 ids at ms 1000, a restart, the clock still at 1000", 5000);
	open_life(x);
	x->g.max_wait_ms = 2 * RESERVE_MS;
	situation(x, R_RESTART, "5000 ids at ms 1000, a restart, the clock still at 1000", 1);
	reset(x, 1000);
	situation(x, R_RESTART, "a restart with the clock past the reservation", 3);
	x->now = 1000 + 3 * RESERVE_MS;
	open_life(x);
	situation(x, R_RESTART, "a restart with the clock past the reservation", 2);
	reset(x, 0);
	x->durable = 1; /* the previous life reserved [0, 1) and used all of ms 0 */
	x->max_id = (int64_t)(((uint64_t)WORKER << 12) | WBX_SEQ_MAX);
	open_life(x);
	situation(x, R_RESTART, "a restart with the reservation at 1 ms, the clock at 0", 1);
	reset(x, 1000);
	situation(x, R_RESTART, "a restart far below the reservation", 2);
	x->now = 1;
	open_life(x);
	situation(x, R_RESTART, "a restart far below the reservation", 1);
}

/* --- exploration ---------------------------------------------------- */

enum { O_CALL, O_BURST, O_TICK, O_BACK_SMALL, O_BACK_BIG, O_JUMP, O_FAIL, O_RESTART, O_KINDS };
static const char *const op_names[] = {"call",	   "call-x50",	"tick",	     "back-10",
				       "back-500", "jump-2000", "fail-next", "restart"};

static int run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			size_t whylen)
{
	struct sf *x = arg;
	struct report *r = x->sp.ctx->report;
	reset(x, 1000);
	for (int i = 0; i < n; i++) {
		int calls = 0;
		switch (ops[i]) {
		case O_CALL: calls = 1; break;
		case O_BURST: calls = 50; break;
		case O_TICK: x->now++; break;
		case O_BACK_SMALL: x->now = x->now > 10 ? x->now - 10 : 0; break;
		case O_BACK_BIG: x->now = x->now > 500 ? x->now - 500 : 0; break;
		case O_JUMP: x->now += 2000; break;
		case O_FAIL: x->fail_reserve = 1; break;
		case O_RESTART: open_life(x); break;
		}
		if (record && !calls)
			report_mark(r, "clock", "%s: the clock reads %" PRIu64 " ms",
				    op_names[ops[i]], x->now);
		for (int c = 0; c < calls; c++) {
			int idx = record ? report_invoke(r, "gen", "next", NULL) : -1;
			int k = call(x, why, whylen);
			if (record) {
				char v[40];
				snprintf(v, sizeof v, "%" PRId64, x->max_id);
				report_complete(r, idx, k ? 3 /* HIST_INFO */ : 1 /* HIST_OK */,
						k ? why : v);
			}
			if (k) {
				char at[320];
				snprintf(at, sizeof at, "op %d (%s): %s", i + 1, op_names[ops[i]],
					 why);
				snprintf(why, whylen, "%s", at);
				return k;
			}
		}
	}
	return 0;
}

int snowspec_rules(struct lab_ctx *ctx, const struct ex_code *code, next_fn next)
{
	static struct sf x; /* large enough not to sit on the stack */
	memset(&x, 0, sizeof x);
	x.next = next;
	spec_init(&x.sp, ctx, code, rules, R_N);
	report_step(ctx->report,
		    "The rules: your function on a clock the check moves, in staged "
		    "situations and %d seeded schedules",
		    60);
	situations(&x);
	const char *judged[R_N + 1];
	for (int k = 0; k < R_N; k++)
		judged[k] = rules[k].id;
	judged[R_N] = NULL;
	int rc = spec_explore(&x.sp, judged, 60, 24, O_KINDS, op_names, run_schedule, &x);
	if (rc == 0)
		spec_finish(&x.sp);
	return rc;
}
