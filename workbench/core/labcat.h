/*
 * labcat.h - the lab catalogue as the model sees it (docs/architecture.md §5): ids,
 * chapters and one-line titles in each language, and whether this build
 * can run each lab.
 *
 * core does not own the data: the application hands it the catalogue at
 * start-up with labcat_init (built from labs/catalog.def), so core never
 * includes labs/.  This is descriptive data for lesson cards and lint; it
 * does not run labs.
 */
#ifndef WB_LABCAT_H
#define WB_LABCAT_H

#include <stddef.h>

struct labcat_entry {
	const char *id;	      /* fixed lab id, e.g. "zk-create-lost" */
	const char *chapters; /* chapter numbers, e.g. "01,02" */
	const char *title_en;
	const char *title_zh;
	int runnable; /* this build can run it */
};

/* Installs the catalogue: table (n entries) is borrowed and must outlive
 * every other labcat_ call.  Until it is called the catalogue is empty.
 * Calling it again replaces the table. */
void labcat_init(const struct labcat_entry *table, size_t n);

/* Returns the entry for id, or NULL for an unknown id. */
const struct labcat_entry *labcat_find(const char *id);

/* The whole catalogue; *n receives its length. */
const struct labcat_entry *labcat_all(size_t *n);

/* Title in lang ("zh" or anything else for English). */
const char *labcat_summary(const struct labcat_entry *e, const char *lang);

/* 1 when id is in the catalogue and this build can run it, else 0: the
 * one "lab in this build" predicate (lesson cards, lesson lint). */
int labcat_runnable(const char *id);

#endif
