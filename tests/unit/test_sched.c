/* test_sched.c - the FSRS-5 scheduler: known values (computed separately
 * from the published formulas and default weights), grade mapping,
 * bounds and the shape of the intervals.  Time is passed in, never read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <cmocka.h>

#include "core/quizfile.h"
#include "core/sched.h"

#define DAY 86400
#define T0  1767225600 /* 2026-01-01 00:00:00 UTC */

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
	near(sched_init_difficulty(SCHED_AGAIN), 7.1949);
	near(sched_init_difficulty(SCHED_HARD), 6.488305268);
	near(sched_init_difficulty(SCHED_GOOD), 5.282434422);
	near(sched_init_difficulty(SCHED_EASY), 3.224501589);
}

static void test_first_reviews(void **state)
{
	(void)state;
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, T0);
	near(s.stability, 3.173);
	near(s.difficulty, 5.282434422);
	assert_int_equal(s.reps, 1);
	assert_int_equal(s.lapses, 0);
	assert_int_equal(s.last_review, T0);
	assert_int_equal(s.due, T0 + 3 * DAY);

	struct sched_state a = {0};
	sched_review(&a, SCHED_AGAIN, T0);
	near(a.stability, 0.40255);
	assert_int_equal(a.due, T0 + DAY);
	assert_int_equal(a.lapses, 0); /* a first Again is not a lapse */
}

static void test_history(void **state)
{
	(void)state;
	/* Good, Good after 3 days, Again on the due date. */
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, T0);
	sched_review(&s, SCHED_GOOD, T0 + 3 * DAY);
	near(s.stability, 10.738925846);
	near(s.difficulty, 5.272967931);
	assert_int_equal(s.due, T0 + (3 + 11) * DAY);
	sched_review(&s, SCHED_AGAIN, T0 + 14 * DAY);
	near(s.stability, 2.185775232);
	near(s.difficulty, 6.790567695);
	assert_int_equal(s.lapses, 1);
	assert_int_equal(s.reps, 3);
	assert_int_equal(s.due, T0 + 15 * DAY); /* a lapse comes back the next day */
}

static void test_partly_is_hard(void **state)
{
	(void)state;
	assert_int_equal(sched_rating_of_grade(GRADE_AGAIN), SCHED_AGAIN);
	assert_int_equal(sched_rating_of_grade(GRADE_PARTLY), SCHED_HARD);
	assert_int_equal(sched_rating_of_grade(GRADE_GOT), SCHED_GOOD);
	assert_int_equal(sched_rating_of_grade(0), SCHED_AGAIN);
	struct sched_state h = {0}, g = {0};
	sched_review(&h, SCHED_GOOD, T0);
	sched_review(&g, SCHED_GOOD, T0);
	sched_review(&h, SCHED_HARD, T0 + 3 * DAY);
	sched_review(&g, SCHED_GOOD, T0 + 3 * DAY);
	near(h.stability, 4.924511833);
	near(h.difficulty, 6.034950256);
	assert_true(h.stability < g.stability);
	assert_true(h.difficulty > g.difficulty);
	assert_true(h.due < g.due);
}

static void test_same_day(void **state)
{
	(void)state;
	/* Two reviews an hour apart use the short-term formula. */
	struct sched_state s = {0};
	sched_review(&s, SCHED_GOOD, T0);
	sched_review(&s, SCHED_GOOD, T0 + 3600);
	near(s.stability, 4.466858064);
	struct sched_state a = {0};
	sched_review(&a, SCHED_GOOD, T0);
	sched_review(&a, SCHED_AGAIN, T0 + 3600);
	near(a.stability, 1.589763507);
	/* A clock that went backwards counts as the same moment. */
	struct sched_state b = {0};
	sched_review(&b, SCHED_GOOD, T0);
	sched_review(&b, SCHED_GOOD, T0 - 5 * DAY);
	assert_int_equal(b.last_review, T0);
	assert_true(b.due > T0);
}

static void test_bounds_and_growth(void **state)
{
	(void)state;
	struct sched_state s = {0};
	int64_t t = T0;
	for (int i = 0; i < 200; i++) {
		sched_review(&s, SCHED_AGAIN, t);
		t = s.due;
		assert_true(s.difficulty >= 1 && s.difficulty <= 10);
		assert_true(s.stability >= 0.01);
		assert_true(s.due >= s.last_review + DAY);
	}
	assert_true(s.difficulty > 9.5);
	/* Got it again and again: every interval longer than the one before,
	 * capped at the maximum. */
	struct sched_state g = {0};
	t = T0;
	int64_t prev = 0;
	for (int i = 0; i < 40; i++) {
		sched_review(&g, SCHED_GOOD, t);
		int64_t ivl = g.due - g.last_review;
		assert_true(ivl >= prev);
		assert_true(ivl <= (int64_t)SCHED_MAX_DAYS * DAY);
		assert_true(g.difficulty >= 1 && g.difficulty <= 10);
		prev = ivl;
		t = g.due;
	}
	assert_int_equal(prev, (int64_t)SCHED_MAX_DAYS * DAY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights_and_curve), cmocka_unit_test(test_initial_difficulty),
		cmocka_unit_test(test_first_reviews),	  cmocka_unit_test(test_history),
		cmocka_unit_test(test_partly_is_hard),	  cmocka_unit_test(test_same_day),
		cmocka_unit_test(test_bounds_and_growth),
	};
	return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
