/*
 * cli/exercise_check.c - `workbench exercise check ID [--file PATH]
 * [--json]`: runs the lab scenario of an exercise with the learner's code
 * in place of the recipe (docs/exercises.md §4).
 *
 * The lab supervisor (cli/labsuper.h) runs it: the same run folder,
 * process records, reaping and cancel as `lab run`, plus a wall limit and
 * resource limits on the worker, because the worker runs learner code (the
 * supervisor also takes the verdict from the report's record, not from an
 * exit(0) of that code, and kills what it forks: cli/labsuper.c).  In
 * the worker, C is built with the system compiler into <run>/learner.so
 * (a failed build is the failed check "builds", the compiler's messages
 * its evidence) and dlopen()ed; then the exercise's check runs.  Nothing
 * the learner wrote is changed.  The workspace itself (start, reset,
 * hints) is the other exercise commands' business.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/labsuper.h"
#include "core/exercise_ws.h"
#include "core/store.h"
#include "base/wb.h"
#include "exercise.h"
#include "harness/report.h"
#include "lab.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Default wall limit of one check, in seconds
 * (WORKBENCH_EXERCISE_TIMEOUT overrides). */
#define EX_WALL_LIMIT_S 120

/* What the worker needs to judge the learner's code. */
struct check_arg {
	const struct exercise *ex;
	const char *src;	 /* the learner's file, absolute */
	const char *ex_dir;	 /* exercises/<id> in the content root */
	unsigned long long seed; /* --seed N */
	int seed_given;
};

/* Builds a C exercise into <run>/learner.so and loads it.  Returns 0 with
 * *dl set, or the outcome to end the run with (after its checks). */
static int build_and_load(struct lab_ctx *ctx, const struct check_arg *a, void **dl,
			  enum lab_outcome *how)
{
	char *so = wb_xasprintf("%s/learner.so", ctx->run_dir);
	char *log = wb_xasprintf("%s/build.log", ctx->run_dir);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = ex_build_c(a->ex, a->src, a->ex_dir, so, fd);
	if (fd >= 0)
		close(fd);
	char *diag = NULL;
	if (wb_read_file(log, &diag, NULL) != 0)
		diag = NULL;
	int out = -1;
	if (rc == WB_EIO) {
		report_cannot(ctx->report, "no C compiler ran ($CC or cc): install gcc");
		*how = LAB_CANNOT_RUN;
		goto out;
	}
	if (diag && *diag)
		report_evidence(ctx->report, "compiler", "%s", diag);
	if (!report_check(ctx->report, "builds", rc == 0, "the file compiles",
			  rc == 0 ? "compiled" : "the compiler rejected it")) {
		*how = LAB_RAN;
		goto out;
	}
	*dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!report_check(ctx->report, "loads", *dl != NULL, "the shared object loads",
			  *dl ? "loaded" : dlerror())) {
		*how = LAB_RAN;
		goto out;
	}
	out = 0;
out:
	free(diag);
	free(log);
	free(so);
	return out;
}

/* The worker's work: build (C), load, then the exercise's check. */
static enum lab_outcome check_body(struct lab_ctx *ctx, void *argp)
{
	const struct check_arg *a = argp;
	struct ex_code code = {.ex = a->ex,
			       .path = a->src,
			       .dir = a->ex_dir,
			       .seed = a->seed,
			       .seed_given = a->seed_given};
	enum lab_outcome how = LAB_RAN;
	if (a->ex->lang == EX_LANG_C && build_and_load(ctx, a, &code.dl, &how) != 0)
		return how;
	return (*a->ex->check)(ctx, &code);
}

/* The learner's file in the workspace (core/exercise_ws.h's folder, the
 * one `exercise start` fills), or NULL when there is no home.  Caller
 * frees. */
static char *workspace_file(const struct exercise *ex)
{
	char *dir = exws_dir(ex->id);
	char *path = dir ? wb_xasprintf("%s/%s", dir, ex->file) : NULL;
	free(dir);
	return path;
}

/* The wall limit: WORKBENCH_EXERCISE_TIMEOUT seconds when it is a number
 * from 1 to 3600, else the default. */
static unsigned wall_limit(void)
{
	const char *s = getenv("WORKBENCH_EXERCISE_TIMEOUT");
	char *end;
	long v = s ? strtol(s, &end, 10) : 0;
	if (s && *s && !*end && v >= 1 && v <= 3600)
		return (unsigned)v;
	return EX_WALL_LIMIT_S;
}

/* Records a check of the workspace file in progress.db (an attempt, and
 * a pass for exit 0): `exercise list`, statistics and home show it.  A
 * failure to record is reported; the verdict stands. */
static void record_attempt(struct app *app, const char *id, int rc)
{
	struct store *s;
	char err[STORE_ERRLEN];
	if (store_open(app->db_path, &s, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		return;
	}
	if (store_ex_record_check(s, id, rc) != 0)
		fprintf(stderr, "workbench: cannot record the attempt: %s\n", store_errmsg(s));
	store_close(s);
}

static int exercise_check(struct app *app, const struct args *args)
{
	const char *id = args->argv[0], *file = args_value(args, "--file");
	const struct exercise *ex = ex_find(id);
	if (!ex) {
		fprintf(stderr, "workbench: no exercise '%s'; see `workbench exercise list`\n", id);
		return EXIT_USAGE;
	}
	const struct lab *lab = lab_find(ex->lab);
	if (!lab) {
		fprintf(stderr, "workbench: exercise %s names lab %s, which this build lacks\n", id,
			ex->lab);
		return LAB_EXIT_CANNOT;
	}
	char *given = file ? wb_xstrdup(file) : workspace_file(ex);
	if (!given) {
		fprintf(stderr, "workbench: no home folder for the workspace (set HOME or "
				"XDG_DATA_HOME), or check a file with --file PATH\n");
		return EXIT_USAGE;
	}
	char *src = realpath(given, NULL);
	if (!src) {
		if (file)
			fprintf(stderr, "workbench: cannot read %s\n", given);
		else
			fprintf(stderr,
				"workbench: exercise %s is not started (no %s); run `workbench "
				"exercise start %s`, or check a file with --file PATH\n",
				id, given, id);
		free(given);
		return EXIT_USAGE;
	}
	free(given);
	char *ex_dir = exws_shipped(app->content, ex->id);
	char *title = wb_xasprintf("exercise %s: %s (%s)", ex->id, ex_title(ex, app->lang), src);
	struct check_arg arg = {ex, src, ex_dir, 0, 0};
	const char *seed = args_value(args, "--seed");
	if (seed) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(seed, &end, 10);
		if (!*seed || *end || errno || *seed == '-') {
			fprintf(stderr,
				"workbench: bad --seed '%s': expected a number from 0 to %llu\n",
				seed, ULLONG_MAX);
			free(title);
			free(ex_dir);
			free(src);
			return EXIT_USAGE;
		}
		arg.seed = v;
		arg.seed_given = 1;
	}
	struct labsuper_job job = {
		.lab = lab,
		.what = "exercise",
		.id = ex->id,
		.title = title,
		.json = args_has(args, "--json"),
		.record = 0,
		.body = check_body,
		.arg = &arg,
		.wall_limit_s = wall_limit(),
		.limit_worker = 1,
	};
	int rc = labsuper_run(app, &job);
	if (!file) /* the learner's own attempt (not a --file check of a variant) */
		record_attempt(app, ex->id, rc);
	free(title);
	free(ex_dir);
	free(src);
	return rc;
}

const struct command cmd_exercise_check = {
	.name = "exercise",
	.sub = "check",
	.args = {.opts = "--json --file= --seed=", .lower = 1, .upper = 1},
	.usage = "ID [--file PATH] [--seed N] [--json]",
	.help = "check your code for an exercise under the lab's faults (exit 0 pass, 1 fail, "
		"2 could not run)",
	.more = "  Without --file, checks the workspace copy that `exercise start` made.\n"
		"  --seed N replays the check's choices (ids, schedules) of a run that printed\n"
		"  seed N; without it the seed is fixed per exercise, so a verdict never\n"
		"  depends on luck.\n"
		"  WORKBENCH_EXERCISE_TIMEOUT: the wall limit in seconds (default 120).\n",
	.run = exercise_check,
};
