/*
 * labcat.c - the lab catalogue (see labcat.h).  It holds no data of its
 * own: labcat_init installs the application's table.  Ids are fixed by
 * docs/architecture.md §5 and embedded in lessons, so nothing here renames them.
 */
#include "core/labcat.h"

#include <string.h>

static const struct labcat_entry *catalogue;
static size_t ncatalogue;

void labcat_init(const struct labcat_entry *table, size_t n)
{
	catalogue = table;
	ncatalogue = table ? n : 0;
}

const struct labcat_entry *labcat_find(const char *id)
{
	for (size_t i = 0; id && i < ncatalogue; i++)
		if (!strcmp(catalogue[i].id, id))
			return &catalogue[i];
	return NULL;
}

const struct labcat_entry *labcat_all(size_t *n)
{
	*n = ncatalogue;
	return catalogue;
}

const char *labcat_summary(const struct labcat_entry *e, const char *lang)
{
	return (lang && !strcmp(lang, "zh")) ? e->title_zh : e->title_en;
}

int labcat_runnable(const char *id)
{
	const struct labcat_entry *e = labcat_find(id);
	return e && e->runnable;
}
