/* test_tasks_checker.c - the task-table checker (labs/checkers/tasks.h)
 * on the lesson's T7 trace and variants with known answers: the recipe's
 * trace (VALID); A's complete accepted after B's takeover (INVALID: two
 * completions); A's renew accepted after B's claim (INVALID: late writer,
 * witness B's claim then A's renew); the newer holder's write as proof of
 * a claim whose reply was lost; concurrent ops and info ops that prove
 * nothing (VALID); malformed input (WB_EINVAL). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "checkers/tasks.h"

#define NEVER INT64_MAX
#define OP(i, p, fn, v, r, e, a, b)                                                                \
	{                                                                                          \
		.index = (i), .process = (p), .f = (fn), .value = (v), .result = (r), .end = (e),  \
		.t_invoke = (a), .t_complete = (b)                                                 \
	}
#define HIST(arr) ((struct history){.ops = (arr), .n = sizeof(arr) / sizeof((arr)[0])})

/* The T7 trace of chapter 01, as recipes/tasktable.c runs it. */
static void t7(struct hist_op *ops)
{
	struct hist_op t[] = {
		OP(0, "A", "claim", "T7:1", "1", HIST_OK, 100, 101),
		OP(1, "B", "claim", "T7", "0", HIST_OK, 100, 102),
		OP(2, "B", "claim", "T7:2", "1", HIST_OK, 131, 132),
		OP(3, "A", "renew", "T7:1", "0", HIST_OK, 133, 134),
		OP(4, "A", "complete", "T7:1", "0", HIST_OK, 135, 136),
		OP(5, "B", "complete", "T7:2", "1", HIST_OK, 150, 151),
		OP(6, "C", "claim", "T8:1", "1", HIST_OK, 150, 151),
		OP(7, "C", "complete", "T8:1", "1", HIST_OK, 160, 161),
	};
	memcpy(ops, t, sizeof t);
}

static void test_trace_valid(void **state)
{
	(void)state;
	struct hist_op ops[8];
	t7(ops);
	struct history h = {.ops = ops, .n = 8};
	struct hist_result r;
	assert_int_equal(tasks_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	assert_int_equal(r.n_witness, 0);
}

static void test_double_completion(void **state)
{
	(void)state;
	struct hist_op ops[8];
	t7(ops);
	ops[4].result = "1"; /* a naive UPDATE without the version */
	struct history h = {.ops = ops, .n = 8};
	struct hist_result r;
	assert_int_equal(tasks_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.n_witness, 2);
	assert_int_equal(r.witness[0], 4);
	assert_int_equal(r.witness[1], 5);
	/* Without B's completion it is still a late writer. */
	ops[5].result = "0";
	assert_int_equal(tasks_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.witness[0], 2);
	assert_int_equal(r.witness[1], 4);
}

static void test_late_renew(void **state)
{
	(void)state;
	struct hist_op ops[8];
	t7(ops);
	ops[3].result = "1";
	struct history h = {.ops = ops, .n = 8};
	struct hist_result r;
	assert_int_equal(tasks_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.witness[0], 2);
	assert_int_equal(r.witness[1], 3);
	/* Invoked before B's claim completed: the renew may have come first. */
	ops[3].t_invoke = 131;
	assert_int_equal(tasks_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	/* B's claim lost its reply (info): nothing proves it... */
	ops[3].t_invoke = 140;
	ops[3].t_complete = 141;
	ops[2].end = HIST_INFO;
	ops[2].t_complete = NEVER;
	ops[5].t_invoke = 160;
	ops[5].t_complete = 161;
	assert_int_equal(tasks_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	/* ...until B's own accepted write with version 2 does. */
	struct hist_op more[9];
	memcpy(more, ops, sizeof ops);
	more[8] = (struct hist_op)OP(8, "B", "renew", "T7:2", "1", HIST_OK, 133, 135);
	struct history h2 = {.ops = more, .n = 9};
	assert_int_equal(tasks_check(&h2, &r), 0);
	assert_int_equal(r.verdict, HIST_INVALID);
	assert_int_equal(r.witness[0], 8);
	assert_int_equal(r.witness[1], 3);
}

static void test_other_tasks_and_ops(void **state)
{
	(void)state;
	/* A newer version of another task proves nothing about T7; failed
	 * and info ops and other f values are not read. */
	struct hist_op ops[] = {
		OP(0, "A", "claim", "T7:1", "1", HIST_OK, 1, 2),
		OP(1, "B", "claim", "T9:5", "1", HIST_OK, 3, 4),
		OP(2, "A", "complete", "T7:1", "1", HIST_OK, 5, 6),
		OP(3, "A", "complete", "T7:1", NULL, HIST_INFO, 7, NEVER),
		OP(4, "A", "complete", "T7:1", NULL, HIST_FAIL, 8, 9),
		OP(5, "A", "pay", "settle:T7", NULL, HIST_OK, 8, 9),
		OP(6, "B", "claim", "a:b:T7:1", "1", HIST_OK, 10, 11),
		OP(7, "B", "complete", "a:b:T7:1", "1", HIST_OK, 12, 13),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(tasks_check(&h, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct hist_op ops[] = {OP(0, "A", "complete", "T7:1", "2", HIST_OK, 1, 2)};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(tasks_check(&h, &r), WB_EINVAL);
	ops[0].result = "1";
	ops[0].value = "T7";
	assert_int_equal(tasks_check(&h, &r), WB_EINVAL);
	ops[0].value = "T7:x";
	assert_int_equal(tasks_check(&h, &r), WB_EINVAL);
	ops[0].value = NULL;
	assert_int_equal(tasks_check(&h, &r), WB_EINVAL);
	assert_int_equal(tasks_check(NULL, &r), WB_EINVAL);
	ops[0].value = "T7:1";
	assert_int_equal(tasks_check(&h, NULL), WB_EINVAL);
	assert_int_equal(tasks_check(&h, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_valid), cmocka_unit_test(test_double_completion),
		cmocka_unit_test(test_late_renew),  cmocka_unit_test(test_other_tasks_and_ops),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
