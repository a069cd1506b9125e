/* test_unique.c - the unique-id checker (labs/checkers/unique.h) on
 * hand-made histories with known answers: distinct increasing ids
 * (VALID), a duplicate across two generators (INVALID, the pair), one
 * generator going backwards in completion order (INVALID; VALID with
 * UNIQUE_ANY_ORDER), numeric against string comparison, info and failed
 * generates ignored, and random histories against a brute-force pairwise
 * check.  Malformed input fails with WB_EINVAL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "checkers/unique.h"

#define NEVER INT64_MAX
#define GEN(i, p, r, e, a, b)                                                                      \
	{                                                                                          \
		.index = (i), .process = (p), .f = "generate", .value = NULL, .result = (r),       \
		.end = (e), .t_invoke = (a), .t_complete = (b)                                     \
	}
#define HIST(arr) ((struct history){.ops = (arr), .n = sizeof(arr) / sizeof((arr)[0])})

static void test_valid(void **state)
{
	(void)state;
	/* 9 < 10 numerically, though "10" < "9" as strings. */
	struct hist_op ops[] = {
		GEN(0, "w1", "9", HIST_OK, 1, 2),	 GEN(1, "w2", "4", HIST_OK, 1, 3),
		GEN(2, "w1", "10", HIST_OK, 3, 4),	 GEN(3, "w2", "5", HIST_OK, 4, 5),
		GEN(4, "w2", NULL, HIST_INFO, 6, NEVER), GEN(5, "w1", "3", HIST_FAIL, 6, 7),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(unique_check(&h, 0, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	assert_int_equal(r.n_witness, 0);
}

static void test_duplicate(void **state)
{
	(void)state;
	/* Two generators with the same worker id issue the same id. */
	struct hist_op ops[] = {
		GEN(0, "w1", "4194332672", HIST_OK, 1, 2),
		GEN(1, "w2", "4194332671", HIST_OK, 1, 2),
		GEN(2, "w2", "4194332672", HIST_OK, 3, 4),
		GEN(3, "w1", "4194332673", HIST_OK, 3, 4),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(unique_check(&h, 0, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.n_witness, 2);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[1], 2);
	assert_int_equal(unique_check(&h, UNIQUE_ANY_ORDER, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	/* The failed one did not hand the id out. */
	ops[2].end = HIST_FAIL;
	assert_int_equal(unique_check(&h, 0, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_backwards(void **state)
{
	(void)state;
	/* The clock stepped back: w1 issues 999 after 1000.  Order is by
	 * completion, not by position in the history. */
	struct hist_op ops[] = {
		GEN(0, "w1", "1000", HIST_OK, 1, 2),
		GEN(1, "w2", "5", HIST_OK, 1, 2),
		GEN(2, "w1", "999", HIST_OK, 3, 4),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(unique_check(&h, 0, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[1], 2);
	assert_int_equal(unique_check(&h, UNIQUE_ANY_ORDER, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	/* Another generator's smaller id is no violation. */
	ops[2].process = "w3";
	assert_int_equal(unique_check(&h, 0, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_strings(void **state)
{
	(void)state;
	/* v7 UUIDs sort by time as text; a repeated v4 is a duplicate. */
	struct hist_op ops[] = {
		GEN(0, "g", "01890a5d-ac96-774b-bcce-b302099a8057", HIST_OK, 1, 2),
		GEN(1, "g", "01890a5d-ac97-7000-8000-000000000000", HIST_OK, 3, 4),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(unique_check(&h, 0, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	ops[1].result = "01890a5d-ac96-774b-bcce-b302099a8057";
	assert_int_equal(unique_check(&h, UNIQUE_ANY_ORDER, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
}

static uint64_t rng = 0x1d5eedULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void test_random_vs_pairwise(void **state)
{
	(void)state;
	static const char *const IDS[] = {"1", "2", "3", "4",  "5",  "6",
					  "7", "8", "9", "10", "11", "12"};
	static const char *const PROCS[] = {"a", "b", "c"};
	int valid = 0, invalid = 0;
	for (int iter = 0; iter < 400; iter++) {
		struct hist_op ops[8];
		int n = 1 + (int)rnd(8), bad = 0;
		for (int i = 0; i < n; i++)
			ops[i] = (struct hist_op)GEN(i, PROCS[rnd(3)], IDS[rnd(12)], HIST_OK, i, i);
		/* pairwise: equal ids anywhere, or one process not increasing */
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				int a = atoi(ops[i].result), b = atoi(ops[j].result);
				if (a == b ||
				    (strcmp(ops[i].process, ops[j].process) == 0 && b < a))
					bad = 1;
			}
		struct history h = {.ops = ops, .n = (size_t)n};
		struct hist_result r;
		assert_int_equal(unique_check(&h, 0, &r), 0);
		if (r.verdict != (bad ? HIST_INVALID : HIST_VALID))
			fail_msg("iteration %d: checker %d, pairwise %d", iter, r.verdict, bad);
		bad ? invalid++ : valid++;
	}
	assert_true(valid > 50 && invalid > 50);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct hist_op ops[] = {GEN(0, "w1", NULL, HIST_OK, 1, 2)};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(unique_check(&h, 0, &r), WB_EINVAL);
	assert_int_equal(unique_check(NULL, 0, &r), WB_EINVAL);
	ops[0].result = "1";
	assert_int_equal(unique_check(&h, 0, NULL), WB_EINVAL);
	assert_int_equal(unique_check(&h, 4, &r), WB_EINVAL);
	assert_int_equal(unique_check(&h, 0, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_random_vs_pairwise),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
