/*
 * narration.c - the Chinese narration tables (see narration.h).
 *
 * Kept as data in .def files, one per group of labs, so that the people
 * translating one topic never touch another's file.  Lookup is a binary
 * search over a sorted copy made on first use (about 500 pairs).  Not
 * thread-safe on first use: the reporter is used from the lab's main
 * thread, which calls it before any worker thread reports.
 */
#include "harness/narration.h"

#include <inttypes.h> /* PRId64 in the tables, as the labs write it */
#include <stdlib.h>
#include <string.h>

static const struct narration_pair pairs[] = {
#define NARR(en, zh) {en, zh},
#include "harness/narration_zh_common.def"
#include "harness/narration_zh_zk.def"
#include "harness/narration_zh_labs.def"
#include "harness/narration_zh_ex_sql.def"
#include "harness/narration_zh_ex_lead.def"
#include "harness/narration_zh_ex_zk.def"
#include "harness/narration_zh_ex_misc.def"
#undef NARR
};

static const struct narration_pair **sorted;

static int cmp_pair(const void *a, const void *b)
{
	const struct narration_pair *x = *(const struct narration_pair *const *)a;
	const struct narration_pair *y = *(const struct narration_pair *const *)b;
	return strcmp(x->en, y->en);
}

static int cmp_key(const void *key, const void *elem)
{
	const struct narration_pair *p = *(const struct narration_pair *const *)elem;
	return strcmp((const char *)key, p->en);
}

const char *narration_text(const char *lang, const char *en)
{
	if (!en || !lang || strcmp(lang, "zh") != 0)
		return en;
	size_t n = sizeof pairs / sizeof pairs[0];
	if (n == 0)
		return en;
	if (!sorted) {
		const struct narration_pair **s = malloc(n * sizeof *s);
		if (!s)
			return en;
		for (size_t i = 0; i < n; i++)
			s[i] = &pairs[i];
		qsort(s, n, sizeof *s, cmp_pair);
		sorted = s;
	}
	const struct narration_pair *const *hit = bsearch(en, sorted, n, sizeof *sorted, cmp_key);
	return hit ? (*hit)->zh : en;
}

const struct narration_pair *narration_table(size_t *n)
{
	*n = sizeof pairs / sizeof pairs[0];
	return pairs;
}
