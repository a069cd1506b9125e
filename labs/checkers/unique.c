/*
 * unique.c - the unique-id checker (unique.h): two sorts, one for
 * duplicates (by id) and one per generator (by completion time).
 *
 * It deliberately keeps only pointers into the history and the parsed
 * integer, never a copy of an id.
 */
#include "checkers/unique.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/wb.h"
#include "checkers/histres.h"

struct uid {
	const struct hist_op *op;
	int64_t num;
	int is_num;
};

/* A total order: decimal ids by value, before every other id, those by
 * strcmp (mixing the two rules pairwise would not be transitive). */
static int id_cmp(const struct uid *a, const struct uid *b)
{
	if (a->is_num != b->is_num)
		return a->is_num ? -1 : 1;
	if (a->is_num)
		return a->num < b->num ? -1 : a->num > b->num;
	return strcmp(a->op->result, b->op->result);
}

static int by_id(const void *pa, const void *pb)
{
	const struct uid *a = pa, *b = pb;
	int c = id_cmp(a, b);
	return c != 0 ? c : (a->op->index > b->op->index) - (a->op->index < b->op->index);
}

static int by_process_time(const void *pa, const void *pb)
{
	const struct uid *a = pa, *b = pb;
	int c = strcmp(a->op->process, b->op->process);
	if (c != 0)
		return c;
	if (a->op->t_complete != b->op->t_complete)
		return a->op->t_complete < b->op->t_complete ? -1 : 1;
	return (a->op->index > b->op->index) - (a->op->index < b->op->index);
}

static void pair(struct hist_result *res, const struct uid *x, const struct uid *y)
{
	histres_witness(res, x->op->index);
	histres_witness(res, y->op->index);
}

int unique_check(const struct history *h, unsigned flags, struct hist_result *res)
{
	struct uid *ids = NULL;
	size_t n = 0;
	int rc = 0;

	if (res == NULL || (flags & ~UNIQUE_ANY_ORDER))
		return WB_EINVAL;
	if ((rc = histres_validate(h, res)) != 0)
		return rc;
	histres_valid(res);
	ids = wb_xcalloc(h->n ? h->n : 1, sizeof *ids);
	for (size_t i = 0; i < h->n; i++) {
		const struct hist_op *op = &h->ops[i];
		if (strcmp(op->f, "generate") != 0 || op->end != HIST_OK)
			continue;
		if (op->result == NULL) {
			rc = histres_malformed(res, "generate #%d ended ok without an id",
					       op->index);
			goto out;
		}
		ids[n].op = op;
		ids[n].is_num = histres_parse_i64(op->result, &ids[n].num) == 0;
		n++;
	}
	if (n > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(ids, n, sizeof *ids, by_id);
	for (size_t i = 1; i < n; i++) {
		if (id_cmp(&ids[i - 1], &ids[i]) == 0) {
			pair(res, &ids[i - 1], &ids[i]);
			histres_set(res, HIST_INVALID,
				    "id %.64s was handed out twice: #%d (%.32s) and #%d (%.32s)",
				    ids[i].op->result, ids[i - 1].op->index, ids[i - 1].op->process,
				    ids[i].op->index, ids[i].op->process);
			goto out;
		}
	}
	if (!(flags & UNIQUE_ANY_ORDER)) {
		if (n > 1) /* qsort wants a valid pointer even for 0 elements */
			qsort(ids, n, sizeof *ids, by_process_time);
		for (size_t i = 1; i < n; i++) {
			const struct uid *x = &ids[i - 1], *y = &ids[i];
			if (strcmp(x->op->process, y->op->process) == 0 && id_cmp(x, y) >= 0) {
				pair(res, x, y);
				histres_set(res, HIST_INVALID,
					    "%.32s went backwards: #%d returned %.40s after #%d "
					    "returned %.40s",
					    y->op->process, y->op->index, y->op->result,
					    x->op->index, x->op->result);
				goto out;
			}
		}
	}
	histres_set(res, HIST_VALID, "%zu ids, all distinct%s", n,
		    (flags & UNIQUE_ANY_ORDER) ? "" : ", increasing per generator");
out:
	free(ids);
	return rc;
}
