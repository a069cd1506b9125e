/*
 * cli/labsuper.h - the lab supervisor that `workbench lab run` and
 * `workbench exercise check` share: reap leftovers, make a fresh run
 * directory, run the work in a forked worker (its own process group,
 * killed with the supervisor), kill every recorded process and every
 * descendant after it, and say what became of the run folder.  The
 * worker's output comes through the supervisor (bounded, sanitised), and
 * its verdict through a record on the report channel, not its exit status
 * alone (cli/labsuper.c says how).  No lab logic and no event format here
 * (labs/event.h).
 */
#ifndef WB_CLI_LABSUPER_H
#define WB_CLI_LABSUPER_H

#include "app.h"
#include "lab.h"

#include <stdio.h>

/* Where a run's time went: its "timing" event (event.h), read back from
 * the run's events before the folder goes.  have is 0 when the run wrote
 * none (it broke before report_finish). */
struct labsuper_timing {
	int have;
	long story_ms, server_ms, other_ms;
};

/* One supervised run. */
struct labsuper_job {
	const struct lab *lab;	  /* the lab whose context the worker gets */
	const char *what;	  /* "lab" or "exercise", for messages */
	const char *id;		  /* what the messages name (lab or exercise id) */
	const char *title;	  /* the first line of plain output */
	const char *zk;		  /* --zk, or NULL */
	int json;		  /* event lines on stdout instead of text */
	int record;		  /* 1: store the run in progress.db (lab_runs) */
	int keep_failed;	  /* 1: keep the run folder of a failed run */
	FILE *history;		  /* borrowed: the worker writes the run's operation
				     history here after the lab (histfile.h), or NULL */
	int history_format;	  /* enum histfile_format */
	const char *timeline_svg; /* not NULL: after the run, its timeline as SVG there */
	/* The worker's work; NULL runs (*lab->run)(ctx).  Runs in the
	 * worker process, after the worker set its limits. */
	enum lab_outcome (*body)(struct lab_ctx *ctx, void *arg);
	void *arg;
	unsigned wall_limit_s;		/* > 0: kill the worker's group after this long */
	struct labsuper_timing *timing; /* borrowed: filled after the run, or NULL */
	int limit_worker;		/* 1: CPU, address-space and core limits in the worker */
};

/* Runs job under supervision and returns the exit code of `lab run`
 * (LAB_EXIT_PASS, LAB_EXIT_FAIL, LAB_EXIT_CANNOT).  A pass needs the
 * worker's verdict record and exit status 0: a worker that ends without
 * the record (the code under test called exit) fails.  A SIGINT, SIGTERM
 * or SIGHUP stops the worker and every process it recorded, and is
 * reported as a cancel; a wall limit that passes is a failure.  Whatever
 * the worker's descendants leave running is killed when it ends.  The run
 * folder is removed after a pass or a cancel, and after a failure unless
 * keep_failed (then its path goes to stderr).  Not reentrant: the process
 * is a child subreaper while it runs. */
int labsuper_run(struct app *app, const struct labsuper_job *job);

/* How many SIGINT, SIGTERM or SIGHUP the supervisor's handler has caught
 * in this process, over every run (never reset): a caller that runs many
 * jobs compares it before and after one to tell a cancel from a run that
 * could not start, and stops.  Cannot fail. */
int labsuper_signals(void);

#endif
