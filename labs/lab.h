/*
 * lab.h - what a lab is: a descriptor (docs/architecture.md §5), built by registry.c
 * from the one catalogue labs/catalog.def, and the context its run
 * function receives.
 *
 * A lab narrates steps, makes checks and records evidence through
 * harness/report.h; the verdict is pass only when every check holds and
 * run() returned LAB_RAN.  Labs never print directly.  Every process a lab
 * starts goes through harness/proc.h so it is recorded and reaped.  This
 * header holds no lab logic and no UI text other than the titles.
 *
 * It is the narrow header the app sees (docs/architecture.md §1): the
 * run context comes from harness/runctx.h, which only declares the
 * reporter, so main.c, the TUI and the CLI do not see the reporter's API
 * through it; a lab file includes harness/report.h itself.
 */
#ifndef WB_LAB_H
#define WB_LAB_H

#include "harness/runctx.h" /* struct lab_ctx, the context a run gets */

#include <stddef.h>

enum lab_needs {
	LAB_NEEDS_NONE = 0,
	LAB_NEEDS_ZK = 1 << 0,	     /* one ZooKeeper server (or --zk) */
	LAB_NEEDS_ENSEMBLE = 1 << 1, /* a 3-node ensemble it controls itself */
	LAB_NEEDS_REDIS = 1 << 2,    /* redis-server */
	LAB_NEEDS_SQLITE = 1 << 3,   /* SQLite files only */
	LAB_NEEDS_PROCCTL = 1 << 4,  /* must start/stop/proxy servers itself: no --zk */
};

/* What a run function returns: how the run ended.  The checks decide the
 * rest (report_verdict_rule; the supervisor, cli/labsuper.c, hands it to
 * report_finish as the matching enum report_end).  Not a WB_E* code. */
enum lab_outcome {
	LAB_RAN,	/* ran to the end */
	LAB_CANNOT_RUN, /* the environment prevented it */
	LAB_BROKE,	/* stopped by an unexpected error: a failure */
};

/* A lab's entry point: the symbol its file exports (catalog.def). */
typedef enum lab_outcome (*lab_run_fn)(struct lab_ctx *ctx);

struct lab {
	const char *id;		 /* catalogue id, e.g. "zk-cas" */
	const char *chapters;	 /* chapter numbers, e.g. "01,02" */
	const char *title_en;	 /* one line */
	const char *title_zh;	 /* the same line in Chinese */
	unsigned needs;		 /* enum lab_needs bits */
	const char *recipe_file; /* source the lab exercises, relative to the
				    source tree (and to share/workbench) */
	const char *recipe_func; /* function to show in that file */
	const lab_run_fn *run;	 /* the lab file's symbol: call (*run)(ctx) */
	int sessions;		 /* ZooKeeper sessions open at once, when many
				    (catalog.def); 0: a few */
};

/* All labs in this build, in catalogue order (registry.c).  *n receives
 * the count; the array ends with NULL. */
const struct lab *const *lab_all(size_t *n);
/* The lab with this id, or NULL. */
const struct lab *lab_find(const char *id);
/* The title in lang ("zh", anything else English). */
const char *lab_title(const struct lab *lab, const char *lang);

/* The outcome of a run that stopped with rc (0 or a negative WB_E* code):
 * LAB_RAN for 0; LAB_CANNOT_RUN when the lab already said why with
 * report_cannot; LAB_BROKE otherwise. */
enum lab_outcome lab_outcome_of(const struct lab_ctx *ctx, int rc);

/* Writes "<ctx->data_dir>/<name>" into buf (len bytes, truncated) and
 * returns buf, for a shipped file such as the task table's schema. */
const char *lab_data_file(const struct lab_ctx *ctx, const char *name, char *buf, size_t len);
#define LAB_PATH_MAX 4096

/* Checks a --zk value before any run: HOST:PORT[,HOST:PORT...] with a
 * port from 1 to 65535 (harness/zk/zkclient.h, zkc_check_hosts).  Returns
 * 0, or WB_EINVAL with the whole message ("bad --zk 'X': expected ...")
 * in msg (n bytes).  Implemented in zkcheck.c. */
int lab_check_zk(const char *zk, char *msg, size_t n);

/* Exit codes of `workbench lab run`. */
enum { LAB_EXIT_PASS = 0, LAB_EXIT_FAIL = 1, LAB_EXIT_CANNOT = 2 };

#endif
