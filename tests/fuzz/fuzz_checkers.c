/*
 * fuzz_checkers.c - libFuzzer target for the history checkers
 * (labs/checkers/): four bytes make one operation (process and f, value,
 * end and a malformation, time gaps), up to 12 operations, run through
 * every checker.  An op whose end byte has bits 0-1 set and bits 2-3 not
 * 0 is malformed (histories-r3, class 1): it completes before its
 * invocation, repeats the previous op's id, or has no invocation time;
 * the seeds in tests/fuzz/seeds/fuzz_checkers/ start from such histories.
 *
 * Aborts when histres_validate does not refuse exactly the histories made
 * malformed, when a checker returns an error on a well-formed history
 * that it has no vocabulary reason to refuse, gives anything but
 * WB_EINVAL and HIST_MALFORMED on a malformed one, names
 * a witness index that is not in the history, says INVALID with no
 * witness, or when the linearizability witness, checked again on its own,
 * is not INVALID.  It does not compare verdicts with a model (the unit
 * tests' brute force does that).
 */
#include "base/wb.h"
#include "checkers/histres.h"
#include "checkers/linear.h"
#include "checkers/mutex.h"
#include "checkers/tasks.h"
#include "checkers/unique.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const PROCS[] = {"a", "b", "c"};
static const char *const FS[] = {"read",     "write", "cas",   "acquire",  "release",
				 "generate", "claim", "renew", "complete", "sync"};
static const char *const VALS[] = {"0", "1", "2", "3"};
static const char *const PAIRS[] = {"0:1", "1:2", "2:0", "1:0", "T:1", "T:2", "U:1", "T"};

static void check_result(const struct hist_result *r, size_t n)
{
	if (r->verdict == HIST_INVALID && r->n_witness == 0)
		abort();
	for (size_t i = 0; i < r->n_witness; i++)
		if (r->witness[i] < 0 || (size_t)r->witness[i] >= n)
			abort();
}

/* Fills ops[0..*n); *bad: 1 when it made one malformed. */
static void build(const uint8_t *data, size_t size, struct hist_op *ops, size_t *n, int *bad)
{
	int64_t t = 0;
	*n = 0;
	*bad = 0;
	for (size_t k = 0; k + 4 <= size && *n < 12; k += 4) {
		struct hist_op *op = &ops[*n];
		unsigned fi = (data[k] >> 2) % 10, e = data[k + 2] % 4;
		memset(op, 0, sizeof *op);
		op->index = (int)*n;
		op->process = PROCS[data[k] % 3];
		op->f = FS[fi];
		op->value = fi == 2 || fi >= 6 ? PAIRS[data[k + 1] % 8] : VALS[data[k + 1] % 4];
		op->result = fi >= 6 ? VALS[(data[k + 1] >> 3) % 2] : VALS[(data[k + 1] >> 3) % 4];
		op->end = e == 0 ? HIST_OK : e == 1 ? HIST_FAIL : e == 2 ? HIST_INFO : HIST_OK;
		t += data[k + 3] & 7;
		op->t_invoke = t;
		op->t_complete = op->end == HIST_INFO ? INT64_MAX : t + ((data[k + 3] >> 3) & 15);
		/* e == 3: the end is ok; bits 2-3 of the end byte malform it */
		unsigned bad_kind = e == 3 ? (data[k + 2] >> 2) % 4 : 0;
		if (bad_kind == 1) { /* a completion before its invocation */
			op->t_complete = t - 1 - (data[k + 3] >> 7);
			*bad = 1;
		} else if (bad_kind == 2 && *n > 0) {
			/* the previous op's id, on another op (a later
			 * invocation: not a part of one batch) */
			op->index = ops[*n - 1].index;
			if (ops[*n - 1].t_invoke == t)
				op->t_invoke = ++t;
			*bad = 1;
		} else if (bad_kind == 3) { /* a completion with no invocation */
			op->t_invoke = -1;
			*bad = 1;
		}
		(*n)++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hist_op ops[12], sub[16];
	struct history h;
	struct hist_result r;
	struct linear_opts lo = {.max_ms = 2000};
	int rc, bad;

	build(data, size, ops, &h.n, &bad);
	h.ops = ops;
	if ((histres_validate(&h, NULL) != 0) != bad)
		abort();
	if (bad) {
		/* malformed: every checker refuses it, none gives a verdict */
		int rcs[5] = {mutex_check(&h, &r), 0, 0, 0, 0};
		if (r.verdict != HIST_MALFORMED)
			abort();
		rcs[1] = mutex_check_tokens(&h, &r);
		if (r.verdict != HIST_MALFORMED)
			abort();
		rcs[2] = unique_check(&h, 0, &r);
		if (r.verdict != HIST_MALFORMED)
			abort();
		rcs[3] = tasks_check(&h, &r);
		if (r.verdict != HIST_MALFORMED)
			abort();
		rcs[4] = linear_check(&h, &lo, &r);
		if (r.verdict != HIST_MALFORMED)
			abort();
		for (size_t i = 0; i < 5; i++)
			if (rcs[i] != WB_EINVAL)
				abort();
		return 0;
	}
	if (mutex_check(&h, &r) != 0)
		abort();
	check_result(&r, h.n);
	/* tokens "T:1" are not integers: an error is the right answer then */
	rc = mutex_check_tokens(&h, &r);
	if (rc == 0)
		check_result(&r, h.n);
	if (unique_check(&h, 0, &r) != 0)
		abort();
	check_result(&r, h.n);
	rc = tasks_check(&h, &r);
	if (rc == 0)
		check_result(&r, h.n);
	rc = linear_check(&h, &lo, &r);
	if (rc != 0)
		return 0; /* a cas "T" without ':' */
	check_result(&r, h.n);
	if (r.verdict == HIST_INVALID) {
		struct history w = {.ops = sub, .n = r.n_witness};
		for (size_t i = 0; i < r.n_witness; i++)
			sub[i] = ops[r.witness[i]];
		if (linear_check(&w, &lo, &r) != 0 || r.verdict == HIST_VALID)
			abort();
	}
	return 0;
}
