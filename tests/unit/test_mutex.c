/* test_mutex.c - the mutual-exclusion and token-order checkers
 * (labs/checkers/mutex.h) on hand-made histories with known answers: two
 * holders that certainly overlap (INVALID, witness the two acquires),
 * back-to-back holders and overlapping-but-uncertain intervals (VALID),
 * an info acquire held to the end or to its own release, failed acquires
 * and releases; fenced writes in token order (VALID) and the unfenced
 * control's stale write (INVALID with the pair); malformed input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/wb.h"
#include "checkers/mutex.h"

#define NEVER INT64_MAX
#define OP(i, p, fn, v, e, a, b)                                                                   \
	{                                                                                          \
		.index = (i), .process = (p), .f = (fn), .value = (v), .result = NULL, .end = (e), \
		.t_invoke = (a), .t_complete = (b)                                                 \
	}
#define HIST(arr) ((struct history){.ops = (arr), .n = sizeof(arr) / sizeof((arr)[0])})

static void test_overlap_is_invalid(void **state)
{
	(void)state;
	/* c1 holds [20,50), c2 acquires at 40 (certainly before c1 lets go). */
	struct hist_op ops[] = {
		OP(0, "c1", "acquire", NULL, HIST_OK, 10, 20),
		OP(1, "c2", "acquire", NULL, HIST_OK, 30, 40),
		OP(2, "c1", "release", NULL, HIST_OK, 50, 60),
		OP(3, "c2", "release", NULL, HIST_OK, 70, 80),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.n_witness, 2);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[1], 1);
}

static void test_handover_is_valid(void **state)
{
	(void)state;
	/* c2's acquire is invoked before c1's release but completes after
	 * the release was invoked: the lock may have passed in between. */
	struct hist_op ops[] = {
		OP(0, "c1", "acquire", NULL, HIST_OK, 10, 20),
		OP(1, "c2", "acquire", NULL, HIST_OK, 30, 55),
		OP(2, "c1", "release", NULL, HIST_OK, 50, 60),
		OP(3, "c2", "release", NULL, HIST_OK, 70, 80),
		OP(4, "c1", "acquire", NULL, HIST_OK, 75, 90),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	assert_int_equal(r.n_witness, 0);
}

static void test_failed_ops(void **state)
{
	(void)state;
	/* A failed acquire holds nothing; a failed release lets go of
	 * nothing, so c1 still holds when c3 gets the lock. */
	struct hist_op ops[] = {
		OP(0, "c1", "acquire", NULL, HIST_OK, 10, 20),
		OP(1, "c2", "acquire", NULL, HIST_FAIL, 25, 30),
		OP(2, "c1", "release", NULL, HIST_FAIL, 40, 45),
		OP(3, "c3", "acquire", NULL, HIST_OK, 50, 60),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[1], 3);
	/* The same without the failed release's failure: valid. */
	ops[2].end = HIST_OK;
	assert_int_equal(mutex_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_info_acquire(void **state)
{
	(void)state;
	/* c1's acquire lost its reply: held from its invocation (10) to the
	 * end of the history, so c2's later grant overlaps it. */
	struct hist_op ops[] = {
		OP(0, "c1", "acquire", NULL, HIST_INFO, 10, NEVER),
		OP(1, "c2", "acquire", NULL, HIST_OK, 30, 40),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[1], 1);
	/* Never completed counts as info. */
	ops[0].end = HIST_INVOKE;
	assert_int_equal(mutex_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);

	/* With its own release at 20 (before c2 was granted), it is fine;
	 * an info release lets go at the earliest at its invocation too. */
	struct hist_op ops2[] = {
		OP(0, "c1", "acquire", NULL, HIST_INFO, 10, NEVER),
		OP(1, "c1", "release", NULL, HIST_INFO, 20, NEVER),
		OP(2, "c2", "acquire", NULL, HIST_OK, 30, 40),
	};
	struct history h2 = HIST(ops2);
	assert_int_equal(mutex_check(&h2, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	/* The release invoked after c2's grant: overlap again. */
	ops2[1].t_invoke = 45;
	assert_int_equal(mutex_check(&h2, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
}

static void test_same_process_and_empty(void **state)
{
	(void)state;
	struct hist_op ops[] = {
		OP(0, "c1", "acquire", NULL, HIST_OK, 10, 20),
		OP(1, "c1", "acquire", NULL, HIST_OK, 30, 40),
		OP(2, "c1", "read", NULL, HIST_OK, 30, 40),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	struct history empty = {.ops = NULL, .n = 0};
	assert_int_equal(mutex_check(&empty, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	assert_int_equal(mutex_check_tokens(&empty, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_tokens_fenced_valid(void **state)
{
	(void)state;
	/* Accepted writes with tokens 1, 2, 2, 4; the stale writer's token-1
	 * write was rejected (fail) and so is no accepted effect. */
	struct hist_op ops[] = {
		OP(0, "c1", "write", "1", HIST_OK, 10, 20),
		OP(1, "c2", "write", "2", HIST_OK, 30, 40),
		OP(2, "c1", "write", "1", HIST_FAIL, 50, 60),
		OP(3, "c3", "write", "4", HIST_OK, 70, 80),
		OP(4, "c2", "write", "x", HIST_INFO, 70, NEVER),
		OP(5, "c2", "write", "2", HIST_OK, 35, 45),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check_tokens(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_tokens_unfenced_invalid(void **state)
{
	(void)state;
	/* The unfenced control accepted the paused client's token-1 write
	 * after token 2: INVALID with the pair (2's write, then 1's). */
	struct hist_op ops[] = {
		OP(0, "c1", "write", "1", HIST_OK, 10, 20),
		OP(1, "c2", "write", "2", HIST_OK, 30, 40),
		OP(2, "c1", "write", "1", HIST_OK, 50, 60),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check_tokens(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.n_witness, 2);
	assert_int_equal(r.witness[0], 1);
	assert_int_equal(r.witness[1], 2);
	/* Concurrent writes may have been accepted in either order. */
	ops[2].t_invoke = 35;
	assert_int_equal(mutex_check_tokens(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	/* An equal token is the current holder writing again: accepted. */
	ops[2].t_invoke = 50;
	ops[2].value = "2";
	assert_int_equal(mutex_check_tokens(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct hist_op ops[] = {
		OP(0, "c1", "write", "one", HIST_OK, 10, 20),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(mutex_check_tokens(&h, &r), WB_EINVAL);
	assert_int_equal(mutex_check(NULL, &r), WB_EINVAL);
	assert_int_equal(mutex_check(&h, NULL), WB_EINVAL);
	ops[0].process = NULL;
	assert_int_equal(mutex_check(&h, &r), WB_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap_is_invalid),
		cmocka_unit_test(test_handover_is_valid),
		cmocka_unit_test(test_failed_ops),
		cmocka_unit_test(test_info_acquire),
		cmocka_unit_test(test_same_process_and_empty),
		cmocka_unit_test(test_tokens_fenced_valid),
		cmocka_unit_test(test_tokens_unfenced_invalid),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
