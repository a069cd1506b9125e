/*
 * histres.c - helpers shared by the checkers (histres.h): the form check
 * every checker runs first, result filling and integer parsing.  No
 * checker logic lives here.
 *
 * The form check reports the first bad op in array order, so that a
 * learner fixes the earliest mistake first; duplicate ids are looked for
 * last, after a sort of positions only when the ids are not increasing
 * (the labs' histories are, so the usual cost is one pass).
 */
#include "checkers/histres.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/wb.h"

static void vmalformed(struct hist_result *res, const char *fmt, va_list ap)
{
	if (res == NULL)
		return;
	memset(res, 0, sizeof *res);
	res->verdict = HIST_MALFORMED;
	if (vsnprintf(res->why, sizeof res->why, fmt, ap) < 0)
		res->why[0] = '\0';
}

int histres_malformed(struct hist_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmalformed(res, fmt, ap);
	va_end(ap);
	return WB_EINVAL;
}

static const char *end_name(enum hist_type e)
{
	return e == HIST_OK ? "ok" : e == HIST_FAIL ? "fail" : e == HIST_INFO ? "info" : "invoke";
}

/* The per-op rules; returns 0 or WB_EINVAL with res filled. */
static int validate_op(const struct hist_op *op, size_t pos, struct hist_result *res)
{
	if (op->index < 0)
		return histres_malformed(res, "op at position %zu has the negative id %d", pos,
					 op->index);
	if (op->process == NULL)
		return histres_malformed(res, "op #%d has no process", op->index);
	if (op->f == NULL)
		return histres_malformed(res, "op #%d has no f", op->index);
	if (op->end != HIST_INVOKE && op->end != HIST_OK && op->end != HIST_FAIL &&
	    op->end != HIST_INFO)
		return histres_malformed(res, "op #%d has the unknown completion type %d",
					 op->index, (int)op->end);
	if (op->t_invoke < 0 || op->t_invoke == INT64_MAX)
		return histres_malformed(res, "op #%d has a completion but no invocation time",
					 op->index);
	if (op->end == HIST_OK || op->end == HIST_FAIL) {
		if (op->t_complete == INT64_MAX)
			return histres_malformed(res, "op #%d ended %s but has no completion time",
						 op->index, end_name(op->end));
		if (op->t_complete < op->t_invoke)
			return histres_malformed(res,
						 "op #%d completes at %" PRId64
						 " ns, before its invocation at %" PRId64 " ns",
						 op->index, op->t_complete, op->t_invoke);
	}
	if (op->end == HIST_INVOKE && op->t_complete != INT64_MAX)
		return histres_malformed(
			res, "op #%d never completed but has a completion time (%" PRId64 " ns)",
			op->index, op->t_complete);
	return 0;
}

/* An op's id and position, sorted by id then position. */
struct idpos {
	int index;
	size_t pos;
};

static int by_index(const void *pa, const void *pb)
{
	const struct idpos *a = pa, *b = pb;
	if (a->index != b->index)
		return a->index < b->index ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* 1 when x and y, sharing an id, are parts of one operation. */
static int same_op(const struct hist_op *x, const struct hist_op *y)
{
	return x->t_invoke == y->t_invoke && strcmp(x->process, y->process) == 0 &&
	       strcmp(x->f, y->f) == 0;
}

static int validate_ids(const struct history *h, struct hist_result *res)
{
	struct idpos *ids;
	size_t i;
	int rc = 0;

	for (i = 1; i < h->n; i++)
		if (h->ops[i].index < h->ops[i - 1].index ||
		    (h->ops[i].index == h->ops[i - 1].index &&
		     !same_op(&h->ops[i], &h->ops[i - 1])))
			break;
	if (i >= h->n)
		return 0; /* increasing; equal ids only within a batch */
	ids = wb_xcalloc(h->n, sizeof *ids);
	for (i = 0; i < h->n; i++)
		ids[i] = (struct idpos){h->ops[i].index, i};
	qsort(ids, h->n, sizeof *ids, by_index);
	for (i = 1; i < h->n && !rc; i++) {
		const struct idpos *x = &ids[i - 1], *y = &ids[i];
		if (x->index == y->index && !same_op(&h->ops[x->pos], &h->ops[y->pos]))
			rc = histres_malformed(res,
					       "op #%d appears twice (positions %zu and %zu) as "
					       "different operations",
					       x->index, x->pos, y->pos);
	}
	free(ids);
	return rc;
}

int histres_validate(const struct history *h, struct hist_result *res)
{
	int rc;

	if (h == NULL || (h->n > 0 && h->ops == NULL))
		return histres_malformed(res, "no history");
	for (size_t i = 0; i < h->n; i++)
		if ((rc = validate_op(&h->ops[i], i, res)) != 0)
			return rc;
	return validate_ids(h, res);
}

void histres_valid(struct hist_result *res)
{
	memset(res, 0, sizeof *res);
	res->verdict = HIST_VALID;
}

void histres_set(struct hist_result *res, enum hist_verdict v, const char *fmt, ...)
{
	va_list ap;

	res->verdict = v;
	va_start(ap, fmt);
	if (vsnprintf(res->why, sizeof res->why, fmt, ap) < 0)
		res->why[0] = '\0';
	va_end(ap);
}

int histres_witness(struct hist_result *res, int index)
{
	if (res->n_witness >= WB_ARRAY_LEN(res->witness))
		return WB_ERANGE;
	res->witness[res->n_witness++] = index;
	return 0;
}

int histres_parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0' || *s == ' ' || *s == '\t')
		return WB_EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return WB_EINVAL;
	*out = (int64_t)v;
	return 0;
}

const char *histres_verdict_name(enum hist_verdict v)
{
	switch (v) {
	case HIST_VALID: return "valid";
	case HIST_INVALID: return "invalid";
	case HIST_UNKNOWN: return "unknown";
	case HIST_MALFORMED: return "malformed";
	}
	return "?";
}
