/*
 * labcat.h - the lab catalogue of DESIGN.md §4: ids, chapters and one-line
 * summaries in each language.
 *
 * This is descriptive data for lesson cards and lint; it does not run labs.
 * The lab runtime marks ids runnable with labcat_set_runner().
 */
#ifndef WB_LABCAT_H
#define WB_LABCAT_H

#include <stddef.h>

struct labcat_entry {
	const char *id;	      /* fixed lab id, e.g. "zk-create-lost" */
	const char *chapters; /* e.g. "01,02" */
	const char *summary_en;
	const char *summary_zh;
};

/* Returns the entry for id, or NULL for an unknown id. */
const struct labcat_entry *labcat_find(const char *id);

/* The whole catalogue; *n receives its length. */
const struct labcat_entry *labcat_all(size_t *n);

/* Summary in lang ("zh" or anything else for English). */
const char *labcat_summary(const struct labcat_entry *e, const char *lang);

/* The lab runtime installs a predicate telling which ids this build can
 * run; until then every lab reports "not in this build". */
typedef int (*labcat_runnable_fn)(const char *id);
void labcat_set_runner(labcat_runnable_fn fn);
int labcat_runnable(const char *id);

#endif
