/*
 * mutex.c - the mutual-exclusion and token-order checkers (mutex.h).
 *
 * Both are quadratic in the number of holds or writes, which is fine for
 * lab histories (hundreds of operations) and keeps the certain-overlap
 * rule in one readable comparison.  They deliberately do not search over
 * orders: each verdict follows from interval endpoints alone.
 */
#include "checkers/mutex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/wb.h"
#include "checkers/histres.h"

/* One hold: the interval over which the process certainly held the lock. */
struct hold {
	const struct hist_op *acq;
	int64_t from, to; /* [from, to) */
};

static int is_f(const struct hist_op *op, const char *f)
{
	return strcmp(op->f, f) == 0;
}

/* The end of the hold that acq starts: the invocation of the process's
 * next non-failed release after it, else INT64_MAX.  (The earliest such
 * release, without relying on the history's order.) */
static int64_t hold_end(const struct history *h, size_t i)
{
	const struct hist_op *acq = &h->ops[i];
	int64_t end = INT64_MAX;
	for (size_t j = 0; j < h->n; j++) {
		const struct hist_op *op = &h->ops[j];
		if (j == i || strcmp(op->process, acq->process) != 0 || !is_f(op, "release"))
			continue;
		if (op->t_invoke < acq->t_invoke || (op->t_invoke == acq->t_invoke && j < i))
			continue;
		if (op->end == HIST_FAIL)
			continue;
		if (op->t_invoke < end)
			end = op->t_invoke;
	}
	return end;
}

int mutex_check(const struct history *h, struct hist_result *res)
{
	struct hold *holds = NULL;
	size_t n = 0;
	int rc;

	if (res == NULL)
		return WB_EINVAL;
	if ((rc = histres_validate(h, res)) != 0)
		return rc;
	histres_valid(res);
	holds = wb_xcalloc(h->n ? h->n : 1, sizeof *holds);
	for (size_t i = 0; i < h->n; i++) {
		const struct hist_op *op = &h->ops[i];
		if (!is_f(op, "acquire") || op->end == HIST_FAIL)
			continue;
		holds[n].acq = op;
		holds[n].from = op->end == HIST_OK ? op->t_complete : op->t_invoke;
		holds[n].to = hold_end(h, i);
		n++;
	}
	for (size_t a = 0; a < n; a++) {
		for (size_t b = a + 1; b < n; b++) {
			const struct hold *x = &holds[a], *y = &holds[b];
			if (strcmp(x->acq->process, y->acq->process) == 0)
				continue;
			if (x->from < y->to && y->from < x->to) {
				histres_witness(res, x->acq->index);
				histres_witness(res, y->acq->index);
				histres_set(res, HIST_INVALID,
					    "%s and %s both held the lock (acquires #%d and #%d "
					    "overlap)",
					    x->acq->process, y->acq->process, x->acq->index,
					    y->acq->index);
				goto out;
			}
		}
	}
	histres_set(res, HIST_VALID, "no two holders overlap (%zu holds)", n);
out:
	free(holds);
	return 0;
}

int mutex_check_tokens(const struct history *h, struct hist_result *res)
{
	int64_t *tok = NULL;
	size_t n = 0;
	int rc = 0;

	if (res == NULL)
		return WB_EINVAL;
	if ((rc = histres_validate(h, res)) != 0)
		return rc;
	histres_valid(res);
	tok = wb_xcalloc(h->n ? h->n : 1, sizeof *tok);
	for (size_t i = 0; i < h->n; i++) {
		const struct hist_op *op = &h->ops[i];
		if (!is_f(op, "write") || op->end != HIST_OK)
			continue;
		if (histres_parse_i64(op->value, &tok[i]) != 0) {
			rc = histres_malformed(res, "write #%d: its token (%.40s) is not a number",
					       op->index, op->value ? op->value : "none");
			goto out;
		}
		n++;
	}
	for (size_t b = 0; b < h->n; b++) {
		const struct hist_op *y = &h->ops[b];
		if (!is_f(y, "write") || y->end != HIST_OK)
			continue;
		for (size_t a = 0; a < h->n; a++) {
			const struct hist_op *x = &h->ops[a];
			if (a == b || !is_f(x, "write") || x->end != HIST_OK)
				continue;
			if (x->t_complete < y->t_invoke && tok[b] < tok[a]) {
				histres_witness(res, x->index);
				histres_witness(res, y->index);
				histres_set(
					res, HIST_INVALID,
					"write #%d with token %lld was accepted after write #%d "
					"with the larger token %lld",
					y->index, (long long)tok[b], x->index, (long long)tok[a]);
				goto out;
			}
		}
	}
	histres_set(res, HIST_VALID, "%zu accepted writes in increasing token order", n);
out:
	free(tok);
	return rc;
}
