/*
 * fuzz_classreport.c - libFuzzer target for the class report's reader of
 * progress exports (core/classreport.h).
 *
 * The input is added twice under two file names (the duplicate-uid path),
 * then every format is written to /dev/null.  Aborts when a figure breaks
 * its invariant: a share of Again outside 0..1, mean points above mean
 * max, more learners than answers, or a learner with more questions than
 * the report has.
 */
#include "core/classreport.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	struct classreport *r = classreport_new();
	char err[256];
	classreport_add_json(r, "a.json", (const char *)data, size, err, sizeof err);
	classreport_add_json(r, "dir/b.json", (const char *)data, size, err, sizeof err);
	size_t nq, nl;
	const struct cr_question *q = classreport_questions(r, &nq);
	for (size_t i = 0; i < nq; i++)
		if (q[i].again_share < 0 || q[i].again_share > 1 ||
		    q[i].mean_points > q[i].mean_max + 1e-9 || q[i].learners > q[i].answers ||
		    q[i].learners < 1)
			abort();
	const struct cr_learner *l = classreport_learners(r, &nl);
	for (size_t i = 0; i < nl; i++)
		if (l[i].answered < 0 || (size_t)l[i].answered > nq ||
		    l[i].exercises_solved > l[i].exercises_tried)
			abort();
	size_t idx[8];
	if (classreport_hardest(r, idx, 8) > (nq < 8 ? nq : 8))
		abort();
	for (int f = CR_TEXT; f <= CR_JSON; f++)
		classreport_write(r, (enum cr_format)f, 80, null);
	classreport_free(r);
	return 0;
}
