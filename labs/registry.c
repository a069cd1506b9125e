/*
 * registry.c - the labs in this build, built from labs/catalog.def: the
 * descriptors' public data comes from the catalogue row, the run function
 * from the symbol the lab's file exports.  Adding a lab is one row there.
 * This file runs no lab.
 */
#include "lab.h"
#include "harness/report.h"

#include <stdio.h>
#include <string.h>

#define LAB(sym, id, chapters, en, zh, needs, file, func, sessions) extern const lab_run_fn sym;
#include "catalog.def"
#undef LAB

/* Each row's index, so the pointer table below can name its element. */
enum {
#define LAB(sym, id, chapters, en, zh, needs, file, func, sessions) row_##sym,
#include "catalog.def"
#undef LAB
	row_count
};

static const struct lab labs[row_count] = {
#define LAB(sym, id, chapters, en, zh, needs, file, func, sessions)                                \
	[row_##sym] = {id, chapters, en, zh, needs, file, func, &sym, sessions},
#include "catalog.def"
#undef LAB
};

static const struct lab *const all[row_count + 1] = {
#define LAB(sym, id, chapters, en, zh, needs, file, func, sessions) [row_##sym] = &labs[row_##sym],
#include "catalog.def"
#undef LAB
	[row_count] = NULL,
};

const struct lab *const *lab_all(size_t *n)
{
	*n = row_count;
	return all;
}

const struct lab *lab_find(const char *id)
{
	for (size_t i = 0; id && all[i]; i++)
		if (!strcmp(all[i]->id, id))
			return all[i];
	return NULL;
}

const char *lab_title(const struct lab *lab, const char *lang)
{
	return lang && !strcmp(lang, "zh") ? lab->title_zh : lab->title_en;
}

enum lab_outcome lab_outcome_of(const struct lab_ctx *ctx, int rc)
{
	if (rc == 0)
		return LAB_RAN;
	return report_cannots(ctx->report) ? LAB_CANNOT_RUN : LAB_BROKE;
}

const char *lab_data_file(const struct lab_ctx *ctx, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", ctx->data_dir ? ctx->data_dir : "data", name);
	return buf;
}
