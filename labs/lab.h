/*
 * lab.h - what a lab is: a descriptor (DESIGN.md §4) and the context its
 * run function receives.
 *
 * A lab narrates steps, makes checks and records evidence through
 * harness/report.h; the verdict is pass only when every check holds and
 * run() returned 0.  Labs never print directly.  Every process a lab starts
 * goes through harness/proc.h so it is recorded and reaped.
 */
#ifndef WB_LAB_H
#define WB_LAB_H

#include <stddef.h>

enum lab_needs {
	LAB_NEEDS_NONE = 0,
	LAB_NEEDS_ZK = 1 << 0,	     /* one ZooKeeper server (or --zk) */
	LAB_NEEDS_ENSEMBLE = 1 << 1, /* a 3-node ensemble it controls itself */
	LAB_NEEDS_REDIS = 1 << 2,    /* redis-server */
	LAB_NEEDS_SQLITE = 1 << 3,   /* SQLite files only */
	LAB_NEEDS_PROCCTL = 1 << 4,  /* must start/stop/proxy servers itself: no --zk */
};

struct lab_ctx;

struct lab {
	const char *id;			 /* catalogue id, e.g. "zk-cas" */
	const char *chapter;		 /* first chapter, e.g. "01-locks-ids-leases" */
	const char *title;		 /* one line, English */
	unsigned needs;			 /* enum lab_needs bits */
	int (*run)(struct lab_ctx *ctx); /* 0, or negative when it could not run */
	const char *recipe_file;	 /* source the lab exercises, relative to the
					    content root's parent source tree, or NULL */
	const char *recipe_func;	 /* function to show in that file, or NULL */
};

/* The context a lab runs in.  Fields are read-only for labs. */
struct lab_ctx {
	const struct lab *lab;
	const char *run_dir;	/* fresh 0700 directory for this run */
	const char *zk_connect; /* --zk HOST:PORT,... or NULL: start our own */
	struct report *report;	/* where steps, checks and evidence go */
	const char *source_dir; /* source tree root when known, else NULL */
};

/* All labs in this build (registry.c).  *n receives the count. */
const struct lab *const *lab_all(size_t *n);
/* The lab with this id, or NULL. */
const struct lab *lab_find(const char *id);

/* Exit codes of `workbench lab run`. */
enum { LAB_EXIT_PASS = 0, LAB_EXIT_FAIL = 1, LAB_EXIT_CANNOT = 2 };

#endif
