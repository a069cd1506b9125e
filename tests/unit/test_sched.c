/* test_sched.c - the FSRS-5 scheduler against the reference: review
 * histories whose stability, difficulty and interval were worked out by
 * hand from the formulas and default weights of ts-fsrs 4.7.1
 * (src/fsrs/algorithm.ts, FSRS-5.0, enable_short_term, no fuzz), with the
 * arithmetic in the comments; the grade mapping; the learner's calendar
 * days (rollover at 4 am); bounds.  TZ is UTC; time is passed in, never
 * read.
 *
 * Shorthands: w = sched_default_weights, F = 19/81,
 * R(t, S) = (1 + F t / S)^-0.5, e^w8 = 4.691488925,
 * e^(w17 w18) = e^(0.51655 * 0.6621) = 1.407771215,
 * D0(4) = 7.1949 - e^(0.5345 * 3) + 1 = 3.224501589. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <math.h>
#include <cmocka.h>

#include "core/quizfile.h"
#include "core/sched.h"
#include "base/wb.h"

#define DAY  86400
#define HOUR 3600
#define T0   1767268800 /* 2026-01-01 12:00:00 UTC */
/* The start (04:00 UTC) of the k-th day after T0's day. */
#define DAYSTART(k) ((int64_t)T0 - 8 * HOUR + (int64_t)(k)*DAY)

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-6)
		fail_msg("got %.9f, want %.9f", got, want);
}

static void test_weights_and_curve(void **state)
{
	(void)state;
	near(sched_default_weights[0], 0.40255);
	near(sched_default_weights[18], 0.6621);
	/* Stability is the time to 90 % recall: I(0.9, S) = S, R(S, S) = 0.9. */
	near(sched_interval_days(10, 0.9), 10);
	near(sched_interval_days(3.173, 0.9), 3.173);
	assert_true(sched_interval_days(10, 0.8) > 10);
	struct sched_state s = {.stability = 7, .difficulty = 5, .reps = 1, .last_review = T0};
	near(sched_retrievability(&s, T0 + 7 * DAY), 0.9);
	near(sched_retrievability(&s, T0), 1.0);
	struct sched_state fresh = {0};
	near(sched_retrievability(&fresh, T0), 1.0);
}

static void test_initial_difficulty(void **state)
{
	(void)state;
	/* D0(G) = 7.1949 - e^(0.5345 (G - 1)) + 1 */
	near(sched_init_difficulty(SCHED_AGAIN), 7.1949);     /* 8.1949 - 1 */
	near(sched_init_difficulty(SCHED_HARD), 6.488305268); /* 8.1949 - 1.706594732 */
	near(sched_init_difficulty(SCHED_GOOD), 5.282434422); /* 8.1949 - 2.912465578 */
	near(sched_init_difficulty(SCHED_EASY), 3.224501589); /* 8.1949 - 4.970398411 */
}

static void test_first_reviews(void **state)
{
	(void)state;
	/* New, Good at T0: S0 = w2 = 3.173, D0(3) = 5.282434422, interval
	 * round(3.173) = 3 days: due at the start of the third day after. */
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, T0);
	near(s.stability, 3.173);
	near(s.difficulty, 5.282434422);
	assert_int_equal(s.reps, 1);
	assert_int_equal(s.lapses, 0);
	assert_int_equal(s.last_review, T0);
	assert_int_equal(s.interval, 3);
	assert_int_equal(s.due, DAYSTART(3));

	/* New, Again: S0 = w0 = 0.40255, due tomorrow at 4 am (16 h later,
	 * not 24 h). */
	struct sched_state a = {0};
	sched_review(&a, SCHED_AGAIN, T0);
	near(a.stability, 0.40255);
	assert_int_equal(a.due, DAYSTART(1));
	assert_int_equal(a.due, T0 + 16 * HOUR);
	assert_int_equal(a.lapses, 0); /* a first Again is not a lapse */
}

/* Good, Good 3 days later, Again on the due day, Good the day after. */
static void test_history(void **state)
{
	(void)state;
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, T0); /* S 3.173, D 5.282434422 */
	/* t = 3: R = (1 + F * 3 / 3.173)^-0.5 = 0.904698211;
	 * e^(w10 (1 - R)) - 1 = e^(1.01925 * 0.095301789) - 1 = 0.102010621;
	 * S^-w9 = 3.173^-0.1192 = 0.871414470;
	 * S' = 3.173 * (1 + 4.691488925 * (11 - 5.282434422) * 0.871414470 *
	 *      0.102010621) = 3.173 * 3.384470737 = 10.738925846;
	 * D' = 5.282434422 (G = 3: no change before reversion);
	 * D'' = 0.0046 * 3.224501589 + 0.9954 * 5.282434422 = 5.272967931;
	 * interval round(10.738925846) = 11 days. */
	sched_review(&s, SCHED_GOOD, T0 + 3 * DAY);
	near(s.stability, 10.738925846);
	near(s.difficulty, 5.272967931);
	assert_int_equal(s.interval, 11);
	assert_int_equal(s.due, DAYSTART(14));
	/* Again on day 14, t = 11: R = (1 + F * 11 / 10.738925846)^-0.5 =
	 * 0.897928582; S'f = 1.9395 * 5.272967931^-0.11 * (11.738925846^0.29605
	 * - 1) * e^(2.2698 * 0.102071418) = 2.185775232; the cap
	 * S / e^(w17 w18) = 10.738925846 / 1.407771215 = 7.628317537 is above
	 * it: S = 2.185775232.  D' = 5.272967931 + 2 * 1.4604 * (10 -
	 * 5.272967931) / 9 = 6.807047195; D'' = 0.0046 * 3.224501589 + 0.9954 *
	 * 6.807047195 = 6.790567695.  Again: tomorrow. */
	sched_review(&s, SCHED_AGAIN, T0 + 14 * DAY);
	near(s.stability, 2.185775232);
	near(s.difficulty, 6.790567695);
	assert_int_equal(s.lapses, 1);
	assert_int_equal(s.reps, 3);
	assert_int_equal(s.interval, 1);
	assert_int_equal(s.due, DAYSTART(15));
	/* Good on day 15, t = 1: R = (1 + F / 2.185775232)^-0.5 = 0.950307770;
	 * S' = 2.185775232 * (1 + 4.691488925 * (11 - 6.790567695) *
	 * 2.185775232^-0.1192 * (e^(1.01925 * 0.049692230) - 1)) = 4.228795283;
	 * D'' = 0.0046 * 3.224501589 + 0.9954 * 6.790567695 = 6.774163790;
	 * interval round(4.228795283) = 4. */
	sched_review(&s, SCHED_GOOD, T0 + 15 * DAY);
	near(s.stability, 4.228795283);
	near(s.difficulty, 6.774163790);
	assert_int_equal(s.interval, 4);
	assert_int_equal(s.due, DAYSTART(19));
}

/* FSRS-5's post-lapse stability min(S'f, S / e^(w17 w18)): a weak memory
 * forgotten long after is less stable than before (min(S'f, S) kept it at
 * 0.40255). */
static void test_lapse_cap(void **state)
{
	(void)state;
	struct sched_state s = {0};
	sched_review(&s, SCHED_AGAIN, T0); /* S 0.40255, D 7.1949 */
	/* t = 30: R = (1 + F * 30 / 0.40255)^-0.5 = 0.232613813;
	 * S'f = 1.9395 * 7.1949^-0.11 * (1.40255^0.29605 - 1) *
	 *       e^(2.2698 * 0.767386187) = 0.938561615;
	 * cap = 0.40255 / 1.407771215 = 0.285948452 < S'f: S = 0.285948452.
	 * D' = 7.1949 + 2.9208 * 2.8051 / 9 = 8.105240987;
	 * D'' = 0.0046 * 3.224501589 + 0.9954 * 8.105240987 = 8.082797018. */
	sched_review(&s, SCHED_AGAIN, T0 + 30 * DAY);
	near(s.stability, 0.285948452);
	near(s.difficulty, 8.082797018);
	near(sched_lapse_stability(7.1949, 0.40255, 0.232613813), 0.285948452);
	near(sched_forget_stability(7.1949, 0.40255, 0.232613813), 0.938561615);
	assert_int_equal(s.lapses, 1);
}

static void test_partly_is_hard(void **state)
{
	(void)state;
	assert_int_equal(sched_rating_of_grade(GRADE_AGAIN), SCHED_AGAIN);
	assert_int_equal(sched_rating_of_grade(GRADE_PARTLY), SCHED_HARD);
	assert_int_equal(sched_rating_of_grade(GRADE_GOT), SCHED_GOOD);
	assert_int_equal(sched_rating_of_grade(0), SCHED_AGAIN);
	/* Good, then Hard 3 days later: as in test_history, with the hard
	 * penalty w15 = 0.2315 on the gain: S' = 3.173 * (1 + 2.384470737 *
	 * 0.2315) = 4.924511833; D' = 5.282434422 + 1.4604 * 4.717565578 / 9 =
	 * 6.047939461, D'' = 0.0046 * 3.224501589 + 0.9954 * 6.047939461 =
	 * 6.034950256; interval round(4.924511833) = 5 (below Good's 11). */
	struct sched_state h = {0}, g = {0};
	sched_review(&h, SCHED_GOOD, T0);
	sched_review(&g, SCHED_GOOD, T0);
	sched_review(&h, SCHED_HARD, T0 + 3 * DAY);
	sched_review(&g, SCHED_GOOD, T0 + 3 * DAY);
	near(h.stability, 4.924511833);
	near(h.difficulty, 6.034950256);
	assert_int_equal(h.interval, 5);
	assert_true(h.due < g.due);
}

static void test_same_day(void **state)
{
	(void)state;
	/* Two reviews on one day (t = 0) use the short-term formula
	 * S * e^(w17 (G - 3 + w18)): Good 3.173 * e^(0.51655 * 0.6621) =
	 * 3.173 * 1.407771215 = 4.466858064; Again 3.173 * e^(0.51655 *
	 * -1.3379) = 3.173 * 0.501028524 = 1.589763507. */
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, T0);
	sched_review(&s, SCHED_GOOD, T0 + HOUR);
	near(s.stability, 4.466858064);
	near(s.difficulty, 5.272967931);
	struct sched_state a = {0};
	sched_review(&a, SCHED_GOOD, T0);
	sched_review(&a, SCHED_AGAIN, T0 + HOUR);
	near(a.stability, 1.589763507);
	/* A clock that went backwards counts as the same moment. */
	struct sched_state b = {0};
	sched_review(&b, SCHED_GOOD, T0);
	sched_review(&b, SCHED_GOOD, T0 - 5 * DAY);
	assert_int_equal(b.last_review, T0);
	assert_true(b.due > T0);
}

/* Elapsed days are calendar days at the rollover hour, not 24 h spans. */
static void test_calendar_days(void **state)
{
	(void)state;
	int64_t eleven_pm = T0 + 11 * HOUR; /* 2026-01-01 23:00 */
	assert_int_equal(sched_day(eleven_pm + 3 * HOUR), sched_day(eleven_pm));     /* 02:00 */
	assert_int_equal(sched_day(eleven_pm + 6 * HOUR), sched_day(eleven_pm) + 1); /* 05:00 */
	assert_int_equal(sched_day_begin(sched_day(T0)), DAYSTART(0));
	/* Good at 23:00, Good at 05:00 the next morning: t = 1, not the
	 * same-day formula.  R = (1 + F / 3.173)^-0.5 = 0.964967700; S' = 3.173 *
	 * (1 + 4.691488925 * 5.717565578 * 0.871414470 * (e^(1.01925 *
	 * 0.035032300) - 1)) = 5.869141823. */
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, eleven_pm);
	sched_review(&s, SCHED_GOOD, eleven_pm + 6 * HOUR);
	near(s.stability, 5.869141823);
	/* At 02:00 it is still the same day: t = 0. */
	struct sched_state n = {0};
	sched_review(&n, SCHED_GOOD, eleven_pm);
	sched_review(&n, SCHED_GOOD, eleven_pm + 3 * HOUR);
	near(n.stability, 4.466858064);
	/* Another rollover hour moves the boundary. */
	assert_int_equal(sched_set_day_start(0), 0);
	assert_int_equal(sched_day(eleven_pm + 3 * HOUR), sched_day(eleven_pm) + 1);
	assert_int_equal(sched_set_day_start(24), WB_EINVAL);
	assert_int_equal(sched_set_day_start(-1), WB_EINVAL);
	assert_int_equal(sched_set_day_start(SCHED_DAY_START_DEF), 0);
	assert_int_equal(sched_day_start(), 4);
}

/* The choices shown on the grade keys. */
static void test_preview(void **state)
{
	(void)state;
	struct sched_state next[4], fresh = {0};
	/* New: Again 1, Hard round(1.18385) = 1, Good round(3.173) = 3, Easy
	 * round(15.69105) = 16. */
	sched_preview(&fresh, T0, next);
	assert_int_equal(next[0].interval, 1);
	assert_int_equal(next[1].interval, 1);
	assert_int_equal(next[2].interval, 3);
	assert_int_equal(next[3].interval, 16);
	assert_int_equal(fresh.reps, 0);
	/* After Good at T0, three days later: Again 1 (S'f = 1.055561091 is
	 * below the cap 3.173 / 1.407771215 = 2.253928), Hard 5, Good 11, Easy
	 * round(3.173 * (1 + 2.384470737 * 2.9898)) = round(25.793605095) = 26. */
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, T0);
	sched_preview(&s, T0 + 3 * DAY, next);
	near(next[0].stability, 1.055561091);
	assert_int_equal(next[0].interval, 1);
	assert_int_equal(next[1].interval, 5);
	assert_int_equal(next[2].interval, 11);
	near(next[3].stability, 25.793605095);
	assert_int_equal(next[3].interval, 26);
	assert_int_equal(s.reps, 1);
}

static void test_bounds_and_growth(void **state)
{
	(void)state;
	struct sched_state s = {0};
	int64_t t = T0;
	for (int i = 0; i < 200; i++) {
		sched_review(&s, SCHED_AGAIN, t);
		assert_true(s.difficulty >= 1 && s.difficulty <= 10);
		assert_true(s.stability >= 0.01);
		assert_true(sched_day(s.due) > sched_day(s.last_review));
		t = s.due + HOUR;
	}
	assert_true(s.difficulty > 9.5);
	/* Got it again and again: every interval at least the one before,
	 * capped at the maximum. */
	struct sched_state g = {0};
	t = T0;
	int prev = 0;
	for (int i = 0; i < 40; i++) {
		sched_review(&g, SCHED_GOOD, t);
		assert_true(g.interval >= prev);
		assert_true(g.interval <= SCHED_MAX_DAYS);
		assert_true(g.difficulty >= 1 && g.difficulty <= 10);
		prev = g.interval;
		t = g.due + HOUR;
	}
	assert_int_equal(prev, SCHED_MAX_DAYS);
	/* Stability itself is capped at 36500 days. */
	struct sched_state e = {0};
	t = T0;
	for (int i = 0; i < 30; i++) {
		sched_review(&e, SCHED_EASY, t);
		assert_true(e.stability <= 36500.0);
		t = e.due + HOUR;
	}
	near(e.stability, 36500.0);
}

int main(void)
{
	setenv("TZ", "UTC0", 1);
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights_and_curve), cmocka_unit_test(test_initial_difficulty),
		cmocka_unit_test(test_first_reviews),	  cmocka_unit_test(test_history),
		cmocka_unit_test(test_lapse_cap),	  cmocka_unit_test(test_partly_is_hard),
		cmocka_unit_test(test_same_day),	  cmocka_unit_test(test_calendar_days),
		cmocka_unit_test(test_preview),		  cmocka_unit_test(test_bounds_and_growth),
	};
	return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
