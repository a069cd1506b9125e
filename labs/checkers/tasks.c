/*
 * tasks.c - the task-table checker (tasks.h): parses each row-changing
 * op into (task, version), then two pairwise scans.
 *
 * It deliberately builds no per-task index: lab histories hold tens of
 * ops, and the pairwise rule reads exactly as tasks.h states it.
 */
#include "checkers/tasks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/wb.h"
#include "checkers/histres.h"

/* One op of the vocabulary that completed ok. */
struct top {
	const struct hist_op *op;
	size_t task_len; /* the task is op->value[0..task_len) */
	int64_t version; /* -1 when value has none */
	int changed;	 /* result "1" */
	int is_write;	 /* renew, complete or fail */
	int is_complete;
};

static int vocab(const char *f, int *is_write, int *is_complete)
{
	*is_complete = strcmp(f, "complete") == 0;
	*is_write = *is_complete || strcmp(f, "renew") == 0 || strcmp(f, "fail") == 0;
	return *is_write || strcmp(f, "claim") == 0;
}

/* Parses op into *t.  1 kept, 0 not of the vocabulary or not ok,
 * WB_EINVAL with res HIST_MALFORMED. */
static int top_parse(const struct hist_op *op, struct top *t, struct hist_result *res)
{
	const char *colon;

	memset(t, 0, sizeof *t);
	if (op->f == NULL || !vocab(op->f, &t->is_write, &t->is_complete) || op->end != HIST_OK)
		return 0;
	if (op->value == NULL || op->result == NULL ||
	    (strcmp(op->result, "0") != 0 && strcmp(op->result, "1") != 0))
		return histres_malformed(res, "%s #%d: want a value and the result 0 or 1", op->f,
					 op->index);
	t->op = op;
	t->changed = op->result[0] == '1';
	colon = strrchr(op->value, ':');
	t->task_len = colon ? (size_t)(colon - op->value) : strlen(op->value);
	t->version = -1;
	if ((colon != NULL && histres_parse_i64(colon + 1, &t->version) != 0) ||
	    (t->changed && t->version < 0))
		return histres_malformed(res, "%s #%d: no version after the last ':' of %.40s",
					 op->f, op->index, op->value);
	return 1;
}

static int same_task(const struct top *a, const struct top *b)
{
	return a->task_len == b->task_len && memcmp(a->op->value, b->op->value, a->task_len) == 0;
}

static void pair(struct hist_result *res, const struct top *a, const struct top *b)
{
	histres_witness(res, a->op->index);
	histres_witness(res, b->op->index);
}

/* Check (1).  Returns 1 when it found a violation (res filled). */
static int double_completion(const struct top *t, size_t n, struct hist_result *res)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (t[i].is_complete && t[j].is_complete && t[i].changed && t[j].changed &&
			    same_task(&t[i], &t[j])) {
				pair(res, &t[i], &t[j]);
				histres_set(res, HIST_INVALID,
					    "task %.*s was completed twice: #%d (%.32s) and #%d "
					    "(%.32s)",
					    (int)(t[i].task_len > 64 ? 64 : t[i].task_len),
					    t[i].op->value, t[i].op->index, t[i].op->process,
					    t[j].op->index, t[j].op->process);
				return 1;
			}
	return 0;
}

/* Check (2).  Returns 1 when it found a violation (res filled). */
static int late_writer(const struct top *t, size_t n, struct hist_result *res)
{
	for (size_t w = 0; w < n; w++) {
		if (!t[w].is_write || !t[w].changed)
			continue;
		for (size_t e = 0; e < n; e++) {
			if (e == w || !t[e].changed || !same_task(&t[e], &t[w]) ||
			    t[e].version <= t[w].version ||
			    t[e].op->t_complete >= t[w].op->t_invoke)
				continue;
			pair(res, &t[e], &t[w]);
			histres_set(res, HIST_INVALID,
				    "late writer: %s #%d with version %lld changed the row after "
				    "%s #%d with version %lld",
				    t[w].op->f, t[w].op->index, (long long)t[w].version, t[e].op->f,
				    t[e].op->index, (long long)t[e].version);
			return 1;
		}
	}
	return 0;
}

int tasks_check(const struct history *h, struct hist_result *res)
{
	struct top *t = NULL;
	size_t n = 0;
	int rc = 0;

	if (res == NULL)
		return WB_EINVAL;
	if ((rc = histres_validate(h, res)) != 0)
		return rc;
	histres_valid(res);
	t = wb_xcalloc(h->n ? h->n : 1, sizeof *t);
	for (size_t i = 0; i < h->n; i++) {
		int kept = top_parse(&h->ops[i], &t[n], res);
		if (kept < 0) {
			rc = kept;
			goto out;
		}
		n += (size_t)kept;
	}
	if (double_completion(t, n, res) || late_writer(t, n, res))
		goto out;
	histres_set(res, HIST_VALID,
		    "%zu table writes: no task completed twice, no late writer changed a row", n);
out:
	free(t);
	return rc;
}
