/* test_checkers_malformed.c - every checker under labs/checkers/ refuses a
 * malformed history (histres_validate, history.h) with WB_EINVAL and the
 * verdict HIST_MALFORMED, never a verdict: for each checker a history it
 * judges valid, then each malformed class applied to one operation of
 * its vocabulary (a completion before its invocation, ok or failed; a
 * completion with no invocation; a duplicate operation id, in and out of
 * order; no process; no f; an unknown end; an ok without completion time;
 * an op never completed that has a completion time; a negative id), and
 * the reason names the op by its id.  Review histories-r3, class 1: four
 * of the five checkers answered "valid" for a completion before its
 * invocation.  Also: the parts of one batch may share an id; NULL
 * history; the verdict's name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "checkers/histres.h"
#include "checkers/linear.h"
#include "checkers/mutex.h"
#include "checkers/tasks.h"
#include "checkers/unique.h"

#define NEVER INT64_MAX
#define OP(i, p, fn, v, r, e, a, b)                                                                \
	{                                                                                          \
		.index = (i), .process = (p), .f = (fn), .value = (v), .result = (r), .end = (e),  \
		.t_invoke = (a), .t_complete = (b)                                                 \
	}

static int run_mutex(const struct history *h, struct hist_result *r)
{
	return mutex_check(h, r);
}

static int run_tokens(const struct history *h, struct hist_result *r)
{
	return mutex_check_tokens(h, r);
}

static int run_linear(const struct history *h, struct hist_result *r)
{
	return linear_check(h, NULL, r);
}

static int run_tasks(const struct history *h, struct hist_result *r)
{
	return tasks_check(h, r);
}

static int run_unique(const struct history *h, struct hist_result *r)
{
	return unique_check(h, 0, r);
}

/* A checker and a four-op history it judges valid; ops[3] (id 7, ids
 * not dense as in a lab's subset) is of its vocabulary. */
struct subject {
	const char *name;
	int (*run)(const struct history *h, struct hist_result *r);
	struct hist_op ops[4];
};

static const struct subject subjects[] = {
	{"mutex_check",
	 run_mutex,
	 {OP(0, "c1", "acquire", NULL, NULL, HIST_OK, 10, 20),
	  OP(2, "c1", "release", NULL, NULL, HIST_OK, 30, 40),
	  OP(5, "c2", "release", NULL, NULL, HIST_OK, 90, 95),
	  OP(7, "c2", "acquire", NULL, NULL, HIST_OK, 50, 60)}},
	{"mutex_check_tokens",
	 run_tokens,
	 {OP(0, "A", "write", "1", "fenced", HIST_OK, 10, 20),
	  OP(2, "B", "write", "2", "fenced", HIST_OK, 30, 40),
	  OP(5, "A", "write", "1", NULL, HIST_FAIL, 50, 60),
	  OP(7, "B", "write", "3", "fenced", HIST_OK, 70, 80)}},
	{"linear_check",
	 run_linear,
	 {OP(0, "A", "write", "1", NULL, HIST_OK, 10, 20),
	  OP(2, "B", "read", NULL, "1", HIST_OK, 30, 40),
	  OP(5, "A", "write", "2", NULL, HIST_OK, 50, 60),
	  OP(7, "B", "read", NULL, "2", HIST_OK, 70, 80)}},
	{"tasks_check",
	 run_tasks,
	 {OP(0, "A", "claim", "T7:1", "1", HIST_OK, 10, 20),
	  OP(2, "A", "renew", "T7:1", "1", HIST_OK, 30, 40),
	  OP(5, "B", "claim", "T7", "0", HIST_OK, 50, 60),
	  OP(7, "A", "complete", "T7:1", "1", HIST_OK, 70, 80)}},
	{"unique_check",
	 run_unique,
	 {OP(0, "w1", "generate", NULL, "1", HIST_OK, 10, 20),
	  OP(2, "w2", "generate", NULL, "2", HIST_OK, 30, 40),
	  OP(5, "w1", "generate", NULL, "3", HIST_OK, 50, 60),
	  OP(7, "w2", "generate", NULL, "4", HIST_OK, 70, 80)}},
};

/* A malformed class: applied to ops[3] of a copy of the history; the
 * reason must contain want. */
struct mutation {
	const char *name;
	void (*apply)(struct hist_op *ops);
	const char *want;
};

static void completes_before_invocation(struct hist_op *ops)
{
	ops[3].t_complete = ops[3].t_invoke - 1000;
}

static void fails_before_invocation(struct hist_op *ops)
{
	ops[3].end = HIST_FAIL;
	ops[3].t_complete = ops[3].t_invoke - 1;
}

static void no_invocation(struct hist_op *ops)
{
	ops[3].t_invoke = -1;
}

static void never_invoked(struct hist_op *ops)
{
	ops[3].t_invoke = NEVER;
}

static void duplicate_id(struct hist_op *ops)
{
	ops[3].index = 2; /* ids 0 2 5 2: out of order, the sort finds it */
}

static void duplicate_id_adjacent(struct hist_op *ops)
{
	ops[3].index = 5; /* ids 0 2 5 5: the one-pass scan finds it */
}

static void no_process(struct hist_op *ops)
{
	ops[3].process = NULL;
}

static void no_f(struct hist_op *ops)
{
	ops[3].f = NULL;
}

static void unknown_end(struct hist_op *ops)
{
	ops[3].end = (enum hist_type)9;
}

static void ok_without_completion(struct hist_op *ops)
{
	ops[3].t_complete = NEVER;
}

static void invoke_with_completion(struct hist_op *ops)
{
	ops[3].end = HIST_INVOKE;
}

static void negative_id(struct hist_op *ops)
{
	ops[3].index = -3;
}

static const struct mutation mutations[] = {
	{"completion before invocation", completes_before_invocation, "op #7 completes at"},
	{"failed completion before invocation", fails_before_invocation, "before its invocation"},
	{"completion with no invocation", no_invocation,
	 "op #7 has a completion but no invocation"},
	{"invocation time never", never_invoked, "op #7 has a completion but no invocation"},
	{"duplicate id", duplicate_id, "op #2 appears twice (positions 1 and 3)"},
	{"duplicate id, adjacent", duplicate_id_adjacent,
	 "op #5 appears twice (positions 2 and 3)"},
	{"no process", no_process, "op #7 has no process"},
	{"no f", no_f, "op #7 has no f"},
	{"unknown end", unknown_end, "op #7 has the unknown completion type 9"},
	{"ok without completion time", ok_without_completion,
	 "op #7 ended ok but has no completion"},
	{"never completed, has a completion time", invoke_with_completion,
	 "op #7 never completed but has a completion time"},
	{"negative id", negative_id, "position 3 has the negative id -3"},
};

static void test_base_histories_are_valid(void **state)
{
	(void)state;
	for (size_t s = 0; s < WB_ARRAY_LEN(subjects); s++) {
		struct hist_op ops[4];
		memcpy(ops, subjects[s].ops, sizeof ops);
		struct history h = {ops, 4};
		struct hist_result r;
		int rc = subjects[s].run(&h, &r);
		if (rc != 0 || r.verdict != HIST_VALID)
			fail_msg("%s: base history: rc %d, %s: %s", subjects[s].name, rc,
				 histres_verdict_name(r.verdict), r.why);
	}
}

/* Every pair is tried, and each one that is not refused is printed, so
 * that a run without the form check lists them all. */
static void test_every_checker_refuses_every_class(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t s = 0; s < WB_ARRAY_LEN(subjects); s++) {
		for (size_t m = 0; m < WB_ARRAY_LEN(mutations); m++) {
			struct hist_op ops[4];
			memcpy(ops, subjects[s].ops, sizeof ops);
			mutations[m].apply(ops);
			struct history h = {ops, 4};
			struct hist_result r;
			memset(&r, 0x5a, sizeof r);
			int rc = subjects[s].run(&h, &r);
			if (rc != WB_EINVAL || r.verdict != HIST_MALFORMED) {
				print_message("%s, %s: rc %d, verdict %s (%s)\n", subjects[s].name,
					      mutations[m].name, rc,
					      histres_verdict_name(r.verdict),
					      rc == 0 ? r.why : "");
				bad++;
			} else if (strstr(r.why, mutations[m].want) == NULL || r.n_witness != 0) {
				print_message("%s, %s: reason \"%s\", want \"%s\"\n",
					      subjects[s].name, mutations[m].name, r.why,
					      mutations[m].want);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

/* The parts of one batch (id-snowflake's ids of one request) share an id:
 * same process, f and invocation.  Anything else sharing it is refused. */
static void test_batch_parts_share_an_id(void **state)
{
	(void)state;
	struct hist_op ops[] = {
		OP(4, "W1", "generate", NULL, "10", HIST_OK, 100, 110),
		OP(4, "W1", "generate", NULL, "11", HIST_OK, 100, 120),
		OP(1, "W9", "generate", NULL, "20", HIST_OK, 50, 60),
		OP(4, "W1", "generate", NULL, "12", HIST_OK, 100, 130),
	};
	struct history h = {ops, WB_ARRAY_LEN(ops)};
	struct hist_result r;
	assert_int_equal(histres_validate(&h, &r), 0);
	assert_int_equal(unique_check(&h, 0, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	ops[3].process = "W9";
	assert_int_equal(unique_check(&h, 0, &r), WB_EINVAL);
	assert_int_equal(r.verdict, HIST_MALFORMED);
	assert_non_null(strstr(r.why, "op #4 appears twice (positions 1 and 3)"));
	ops[3].process = "W1";
	ops[3].t_invoke = 101;
	assert_int_equal(histres_validate(&h, &r), WB_EINVAL);
	ops[3].t_invoke = 100;
	ops[3].f = "issue";
	assert_int_equal(histres_validate(&h, NULL), WB_EINVAL);
}

/* Equal times are well-formed (an instant operation); info ops' times
 * are not read; an empty history is fine; NULL is not. */
static void test_edges(void **state)
{
	(void)state;
	struct hist_op ops[] = {
		OP(0, "A", "write", "1", NULL, HIST_OK, 10, 10),
		OP(1, "B", "write", "2", NULL, HIST_INFO, 20, 5),
		OP(2, "C", "read", NULL, NULL, HIST_INVOKE, 0, NEVER),
	};
	struct history h = {ops, WB_ARRAY_LEN(ops)};
	struct hist_result r;
	assert_int_equal(histres_validate(&h, &r), 0);
	assert_int_equal(linear_check(&h, NULL, &r), 0);
	struct history empty = {0};
	assert_int_equal(histres_validate(&empty, &r), 0);
	assert_int_equal(histres_validate(NULL, &r), WB_EINVAL);
	assert_int_equal(r.verdict, HIST_MALFORMED);
	assert_string_equal(r.why, "no history");
	struct history no_ops = {NULL, 2};
	assert_int_equal(mutex_check(&no_ops, &r), WB_EINVAL);
	assert_int_equal(r.verdict, HIST_MALFORMED);
	assert_string_equal(histres_verdict_name(HIST_MALFORMED), "malformed");
	/* A checker's own rules give the same verdict, naming the op. */
	struct hist_op w[] = {OP(3, "A", "write", "T1", NULL, HIST_OK, 1, 2)};
	struct history hw = {w, 1};
	assert_int_equal(mutex_check_tokens(&hw, &r), WB_EINVAL);
	assert_int_equal(r.verdict, HIST_MALFORMED);
	assert_non_null(strstr(r.why, "write #3"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_histories_are_valid),
		cmocka_unit_test(test_every_checker_refuses_every_class),
		cmocka_unit_test(test_batch_parts_share_an_id),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests_name("checkers_malformed", tests, NULL, NULL);
}
