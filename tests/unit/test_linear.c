/* test_linear.c - the single-register linearizability checker
 * (labs/checkers/linear.h).  Hand-made histories with known answers: the
 * stale-read story (w1 ok, then a read of 0 invoked after w1 completed:
 * INVALID, witness {w1, read}), sync-then-read (VALID), the
 * zk-sync-partition history (INVALID, {w1, read}), concurrent and
 * info writes, cas, failed ops; 600 random small histories (<= 8 ops, 2-3
 * processes, a seeded PRNG) compared with a brute-force search over every
 * order consistent with real time, each INVALID witness checked to be
 * non-linearizable and 1-minimal by the brute force too; the bound giving
 * HIST_UNKNOWN; malformed input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "checkers/linear.h"

#define NEVER INT64_MAX
#define OP(i, p, fn, v, r, e, a, b)                                                                \
	{                                                                                          \
		.index = (i), .process = (p), .f = (fn), .value = (v), .result = (r), .end = (e),  \
		.t_invoke = (a), .t_complete = (b)                                                 \
	}
#define HIST(arr) ((struct history){.ops = (arr), .n = sizeof(arr) / sizeof((arr)[0])})

static enum hist_verdict check(struct history *h, struct hist_result *r)
{
	assert_int_equal(linear_check(h, NULL, r), 0);
	return r->verdict;
}

static void test_stale_read(void **state)
{
	(void)state;
	/* A writes 1 and is acknowledged; B (told by A) reads 0 from a
	 * lagging follower, its read invoked after the write completed.
	 * Other traffic around it must not end up in the witness. */
	struct hist_op ops[] = {
		OP(0, "c3", "read", NULL, "0", HIST_OK, 1, 5),
		OP(1, "c1", "write", "1", NULL, HIST_OK, 10, 20),
		OP(2, "c3", "read", NULL, "1", HIST_OK, 15, 25),
		OP(3, "c2", "read", NULL, "0", HIST_OK, 30, 40),
		OP(4, "c1", "read", NULL, "1", HIST_OK, 30, 45),
		OP(5, "c3", "sync", NULL, NULL, HIST_OK, 50, 60),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(check(&h, &r), HIST_INVALID);
	assert_int_equal(r.n_witness, 2);
	assert_int_equal(r.witness[0], 1);
	assert_int_equal(r.witness[1], 3);
	assert_non_null(strstr(r.why, "read #3 ->0"));
	/* The read invoked before the write completed may see 0: valid. */
	ops[3].t_invoke = 18;
	assert_int_equal(check(&h, &r), HIST_VALID);
	/* Equal times count as concurrent. */
	ops[3].t_invoke = 20;
	assert_int_equal(check(&h, &r), HIST_VALID);
}

static void test_sync_then_read(void **state)
{
	(void)state;
	/* The normal case: B syncs, then reads 1. */
	struct hist_op ops[] = {
		OP(0, "c1", "write", "1", NULL, HIST_OK, 10, 20),
		OP(1, "c2", "sync", NULL, NULL, HIST_OK, 25, 28),
		OP(2, "c2", "read", NULL, "1", HIST_OK, 30, 40),
		OP(3, "c1", "write", "2", NULL, HIST_OK, 50, 60),
		OP(4, "c2", "read", NULL, "2", HIST_OK, 55, 65),
		OP(5, "c2", "read", NULL, "2", HIST_OK, 70, 75),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(check(&h, &r), HIST_VALID);
	assert_int_equal(r.n_witness, 0);
	/* A later read going back to 1 is not: witness {w1, w2, read 1},
	 * and nothing else (the reads in between are not needed). */
	ops[5].result = "1";
	assert_int_equal(check(&h, &r), HIST_INVALID);
	assert_int_equal(r.n_witness, 3);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[1], 3);
	assert_int_equal(r.witness[2], 5);
}

static void test_sync_partition(void **state)
{
	(void)state;
	/* zk-sync-partition: W sets 1 on the new leader (ok); R, on a
	 * follower of the old leader, syncs, reads 0, and its own write
	 * ends with connection loss (info) and never happens; later /x is 1
	 * everywhere.  Not linearizable, witness {W's write, R's read}. */
	struct hist_op ops[] = {
		OP(0, "W", "write", "1", NULL, HIST_OK, 10, 20),
		OP(1, "R", "sync", NULL, NULL, HIST_OK, 25, 30),
		OP(2, "R", "read", NULL, "0", HIST_OK, 31, 35),
		OP(3, "R", "write", "2", NULL, HIST_INFO, 40, NEVER),
		OP(4, "W", "read", NULL, "1", HIST_OK, 100, 110),
		OP(5, "R", "read", NULL, "1", HIST_OK, 120, 130),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(check(&h, &r), HIST_INVALID);
	assert_int_equal(r.n_witness, 2);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[1], 2);
	/* The normal case of the same lab's story: the read after sync
	 * sees 1. */
	ops[2].result = "1";
	assert_int_equal(check(&h, &r), HIST_VALID);
}

static void test_info_and_fail(void **state)
{
	(void)state;
	/* A write whose reply was lost may take effect later... */
	struct hist_op ops[] = {
		OP(0, "c1", "write", "1", NULL, HIST_INFO, 10, NEVER),
		OP(1, "c2", "read", NULL, "0", HIST_OK, 30, 40),
		OP(2, "c2", "read", NULL, "1", HIST_OK, 50, 60),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(check(&h, &r), HIST_VALID);
	/* ...or never. */
	ops[2].result = "0";
	assert_int_equal(check(&h, &r), HIST_VALID);
	/* But once seen it cannot be unseen: all three are needed. */
	ops[1].result = "1";
	assert_int_equal(check(&h, &r), HIST_INVALID);
	assert_int_equal(r.n_witness, 3);
	assert_int_equal(r.witness[0], 0);
	assert_int_equal(r.witness[2], 2);
	/* A failed write never took effect: reading its value is invalid. */
	ops[0].end = HIST_FAIL;
	ops[0].t_complete = 20;
	ops[1].result = "0";
	ops[2].result = "1";
	assert_int_equal(check(&h, &r), HIST_INVALID);
	assert_int_equal(r.n_witness, 1);
	assert_int_equal(r.witness[0], 2);
	/* A failed or unknown read says nothing. */
	ops[2].end = HIST_FAIL;
	assert_int_equal(check(&h, &r), HIST_VALID);
	ops[2].end = HIST_INFO;
	assert_int_equal(check(&h, &r), HIST_VALID);
}

static void test_concurrent_writes_and_cas(void **state)
{
	(void)state;
	struct hist_op ops[] = {
		OP(0, "c1", "write", "1", NULL, HIST_OK, 10, 50),
		OP(1, "c2", "write", "2", NULL, HIST_OK, 20, 40),
		OP(2, "c3", "read", NULL, "1", HIST_OK, 60, 70),
		OP(3, "c3", "cas", "1:3", NULL, HIST_OK, 80, 90),
		OP(4, "c2", "cas", "1:4", NULL, HIST_FAIL, 95, 99),
		OP(5, "c1", "read", NULL, "3", HIST_OK, 100, 110),
	};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(check(&h, &r), HIST_VALID);
	/* The failed cas did not happen, so a read of 4 is impossible. */
	ops[5].result = "4";
	assert_int_equal(check(&h, &r), HIST_INVALID);
	/* The same cas, ok, would explain 4 only if it came after 1:3: it
	 * expects 1, the register holds 3: still invalid. */
	ops[4].end = HIST_OK;
	assert_int_equal(check(&h, &r), HIST_INVALID);
	/* Initial value is a parameter. */
	struct hist_op one[] = {OP(0, "c1", "read", NULL, "7", HIST_OK, 1, 2)};
	struct history h1 = HIST(one);
	struct linear_opts o = {.initial = "7"};
	assert_int_equal(linear_check(&h1, &o, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
	assert_int_equal(check(&h1, &r), HIST_INVALID);
}

/* ---- brute force: every order consistent with real time ---- */

struct bf {
	const struct hist_op *ops;
	int n;
	int use[8]; /* 1 required, 2 optional (info write/cas), 0 dropped */
};

static int bf_step(const struct hist_op *op, const char *s, const char **next)
{
	if (strcmp(op->f, "read") == 0) {
		*next = s;
		return strcmp(op->result, s) == 0;
	}
	if (strcmp(op->f, "write") == 0) {
		*next = op->value;
		return 1;
	}
	/* cas "a:b" with one-character values in these tests */
	if (strncmp(op->value, s, 1) != 0 || s[1] != '\0')
		return 0;
	*next = op->value + 2;
	return 1;
}

static int bf_dfs(const struct bf *b, unsigned placed, const char *s)
{
	int done = 1;
	for (int i = 0; i < b->n; i++)
		if (b->use[i] == 1 && !(placed & (1u << i)))
			done = 0;
	if (done)
		return 1;
	for (int i = 0; i < b->n; i++) {
		const char *next;
		int ready = 1;
		if (b->use[i] == 0 || (placed & (1u << i)))
			continue;
		for (int j = 0; j < b->n; j++)
			if (b->use[j] == 1 && !(placed & (1u << j)) &&
			    b->ops[j].t_complete < b->ops[i].t_invoke)
				ready = 0;
		if (ready && bf_step(&b->ops[i], s, &next) && bf_dfs(b, placed | (1u << i), next))
			return 1;
	}
	return 0;
}

/* Brute-force linearizable? over the ops whose bit is set in mask. */
static int bf_linearizable(const struct hist_op *ops, int n, unsigned mask)
{
	struct bf b = {.ops = ops, .n = n};
	for (int i = 0; i < n; i++) {
		const struct hist_op *op = &ops[i];
		int info = op->end == HIST_INFO;
		if (!(mask & (1u << i)) || op->end == HIST_FAIL || (info && op->f[0] == 'r'))
			b.use[i] = 0;
		else
			b.use[i] = info ? 2 : 1;
	}
	return bf_dfs(&b, 0, "0");
}

/* The value an effective op leaves ("" for a read), and the one it needs
 * ("" for a write); one-character values. */
static const char *bf_produces(const struct hist_op *op)
{
	return op->f[0] == 'w' ? op->value : op->f[0] == 'c' ? op->value + 2 : "";
}

static int bf_needs(const struct hist_op *op, const char *v)
{
	if (op->f[0] == 'r')
		return strcmp(op->result, v) == 0;
	return op->f[0] == 'c' && op->value[0] == v[0];
}

/* linear.h's shrink rule: op w may leave the witness mask unless it is the
 * last producer of a non-initial value that another op there needs. */
static int bf_may_drop(const struct hist_op *ops, int n, unsigned mask, int w)
{
	const char *p = bf_produces(&ops[w]);
	if (*p == '\0' || strcmp(p, "0") == 0)
		return 1;
	for (int j = 0; j < n; j++)
		if (j != w && (mask & (1u << j)) && strcmp(bf_produces(&ops[j]), p) == 0)
			return 1;
	for (int j = 0; j < n; j++)
		if (j != w && (mask & (1u << j)) && bf_needs(&ops[j], p))
			return 0;
	return 1;
}

static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

static const char *const VALS[] = {"0", "1", "2"};
static const char *const CAS[] = {"0:1", "1:2", "2:0", "1:0", "0:2"};
static const char *const PROCS[] = {"p0", "p1", "p2"};

/* A random history: per process a sequence of ops with random gaps and
 * durations (small times, so ties happen). */
static int random_history(struct hist_op *ops)
{
	int np = 2 + (int)rnd(2), n = 1 + (int)rnd(8), k = 0;
	int64_t clock[3] = {0, 0, 0};
	while (k < n) {
		int p = (int)rnd((unsigned)np);
		struct hist_op *op = &ops[k];
		unsigned kind = rnd(10), e = rnd(10);
		memset(op, 0, sizeof *op);
		op->index = k;
		op->process = PROCS[p];
		op->t_invoke = clock[p] + rnd(4);
		op->t_complete = op->t_invoke + rnd(6);
		clock[p] = op->t_complete + 1;
		if (kind < 4) {
			op->f = "read";
			op->result = VALS[rnd(3)];
		} else if (kind < 8) {
			op->f = "write";
			op->value = VALS[rnd(3)];
		} else {
			op->f = "cas";
			op->value = CAS[rnd(5)];
		}
		op->end = e < 7 ? HIST_OK : e < 9 ? HIST_INFO : HIST_FAIL;
		if (op->end == HIST_INFO) {
			op->t_complete = NEVER;
			clock[p] = op->t_invoke + 1 + rnd(8); /* a new process takes over */
		}
		k++;
	}
	/* invocation order, as a history is */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && ops[j].t_invoke < ops[j - 1].t_invoke; j--) {
			struct hist_op t = ops[j];
			ops[j] = ops[j - 1];
			ops[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		ops[i].index = i;
	return n;
}

static void test_random_vs_brute_force(void **state)
{
	(void)state;
	int valid = 0, invalid = 0;
	rng_state = 0x5eed1234abcdULL;
	for (int iter = 0; iter < 600; iter++) {
		struct hist_op ops[8];
		int n = random_history(ops);
		struct history h = {.ops = ops, .n = (size_t)n};
		struct hist_result r;
		unsigned all = (1u << n) - 1, wmask = 0;
		int want = bf_linearizable(ops, n, all);
		assert_int_equal(linear_check(&h, NULL, &r), 0);
		if (r.verdict != (want ? HIST_VALID : HIST_INVALID))
			fail_msg("iteration %d: checker %d, brute force %s", iter, r.verdict,
				 want ? "linearizable" : "not linearizable");
		if (want) {
			valid++;
			continue;
		}
		invalid++;
		assert_true(r.n_witness >= 1);
		for (size_t w = 0; w < r.n_witness; w++)
			wmask |= 1u << r.witness[w];
		assert_false(bf_linearizable(ops, n, wmask));
		for (size_t w = 0; w < r.n_witness; w++)
			if (bf_may_drop(ops, n, wmask, r.witness[w]) &&
			    !bf_linearizable(ops, n, wmask & ~(1u << r.witness[w])))
				fail_msg("iteration %d: witness op %d is not needed", iter,
					 r.witness[w]);
	}
	/* Both answers must occur often, or the comparison proves little. */
	assert_true(valid > 100);
	assert_true(invalid > 100);
}

static void test_bound_gives_unknown(void **state)
{
	(void)state;
	/* 40 concurrent writes of distinct values, then a read of a value
	 * never written: deciding it explores every subset of the writes. */
	static struct hist_op ops[41];
	static char vals[40][16];
	for (int i = 0; i < 40; i++) {
		snprintf(vals[i], sizeof vals[i], "v%d", i);
		ops[i] = (struct hist_op)OP(i, "c", "write", vals[i], NULL, HIST_OK, i, 1000);
	}
	ops[40] = (struct hist_op)OP(40, "r", "read", NULL, "never", HIST_OK, 500, 2000);
	struct history h = {.ops = ops, .n = 41};
	struct hist_result r;
	struct linear_opts mem = {.max_bytes = 64 << 10, .max_ms = 60000};
	assert_int_equal(linear_check(&h, &mem, &r), 0);
	assert_int_equal(r.verdict, HIST_UNKNOWN);
	struct linear_opts tm = {.max_ms = 20};
	assert_int_equal(linear_check(&h, &tm, &r), 0);
	assert_int_equal(r.verdict, HIST_UNKNOWN);
	/* Without the impossible read the same writes are quick to accept. */
	h.n = 40;
	assert_int_equal(linear_check(&h, &mem, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct hist_op ops[] = {OP(0, "c1", "read", NULL, NULL, HIST_OK, 1, 2)};
	struct history h = HIST(ops);
	struct hist_result r;
	assert_int_equal(linear_check(&h, NULL, &r), WB_EINVAL);
	ops[0] = (struct hist_op)OP(0, "c1", "cas", "12", NULL, HIST_OK, 1, 2);
	assert_int_equal(linear_check(&h, NULL, &r), WB_EINVAL);
	ops[0] = (struct hist_op)OP(0, "c1", "write", "1", NULL, HIST_OK, 5, 2);
	assert_int_equal(linear_check(&h, NULL, &r), WB_EINVAL);
	assert_int_equal(linear_check(NULL, NULL, &r), WB_EINVAL);
	assert_int_equal(linear_check(&h, NULL, NULL), WB_EINVAL);
	struct history empty = {0};
	assert_int_equal(linear_check(&empty, NULL, &r), 0);
	assert_int_equal(r.verdict, HIST_VALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale_read),
		cmocka_unit_test(test_sync_then_read),
		cmocka_unit_test(test_sync_partition),
		cmocka_unit_test(test_info_and_fail),
		cmocka_unit_test(test_concurrent_writes_and_cas),
		cmocka_unit_test(test_random_vs_brute_force),
		cmocka_unit_test(test_bound_gives_unknown),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
