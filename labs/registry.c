/*
 * registry.c - the table of labs in this build.  Adding a lab: write
 * labs/<id>.c with its descriptor and add one line to labs.def.
 */
#include "lab.h"

#include <string.h>

#define LAB(sym) extern const struct lab sym;
#include "labs.def"
#undef LAB

static const struct lab *const all[] = {
#define LAB(sym) &sym,
#include "labs.def"
#undef LAB
	NULL,
};

const struct lab *const *lab_all(size_t *n)
{
	*n = sizeof all / sizeof all[0] - 1;
	return all;
}

const struct lab *lab_find(const char *id)
{
	for (size_t i = 0; id && all[i]; i++)
		if (!strcmp(all[i]->id, id))
			return all[i];
	return NULL;
}
