/*
 * runctx.h - the context one run gets from the supervisor (cli/labsuper.c):
 * which lab, where it runs, which ZooKeeper, where its report goes.
 *
 * lab.h hands it to every run function as struct lab_ctx; it is defined
 * here so that the harness (harness/zk/zklab.c sets a ZooKeeper lab up
 * from it) reads it without including the lab layer: the catalogue's
 * descriptor is not in it, only what a run needs of it.  Fields are
 * read-only for labs.  No functions.
 */
#ifndef WB_RUNCTX_H
#define WB_RUNCTX_H

struct report;

/* The context a lab runs in. */
struct lab_ctx {
	const char *id;		/* the lab's catalogue id, e.g. "zk-cas" (names, base paths) */
	int sessions;		/* ZooKeeper sessions it opens at once when many
				   (catalog.def); 0: a few */
	const char *run_dir;	/* fresh 0700 directory for this run */
	const char *zk_connect; /* --zk HOST:PORT,... or NULL: start our own */
	struct report *report;	/* where steps, checks and evidence go */
	const char *source_dir; /* source tree root when known, else NULL */
	const char *data_dir;	/* the shipped data/ (schemas such as tasks.sql) */
};

#endif
