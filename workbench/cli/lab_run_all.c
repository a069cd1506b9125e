/*
 * cli/lab_run_all.c - `workbench lab run --all [--only ID,ID...] [--json]`
 * (rustlings' verify): runs every lab of the catalogue, or the listed ones
 * in the order given, one after the other, each under the same supervisor
 * as `lab run ID` (cli/labsuper.h: its own run folder, its processes
 * reaped, its run recorded), then prints a summary table (lab, seconds,
 * the time split of its "timing" event: the waits its story needs, server
 * start and stop, the rest; verdict) and the totals.
 *
 * Exit: 1 when any lab failed, else 2 when any could not run (or the run
 * was cancelled), else 0.  A SIGINT/SIGTERM/SIGHUP stops the current lab
 * as `lab run` does and the labs after it are not started.  With --json
 * stdout carries only one summary object per lab (the labs' own text goes
 * to stderr), so a pipe gets data and a person still sees progress.
 *
 * It does not run labs in parallel (they start servers on fixed ports and
 * share the one machine), does not take --zk (each lab starts what it
 * needs) and holds no lab logic.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/labcmd.h"
#include "cli/labsuper.h"
#include "core/i18n.h"
#include "base/wb.h"
#include "lab.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern const struct command cmd_lab_run;

/* What became of one lab of the run. */
enum all_verdict { ALL_NOT_RUN, ALL_PASS, ALL_FAIL, ALL_CANNOT, ALL_CANCELLED };

struct all_row {
	const struct lab *lab;
	enum all_verdict verdict;
	double seconds;
	struct labsuper_timing timing; /* the lab's own split (have: it wrote one) */
};

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *verdict_word(enum all_verdict v)
{
	switch (v) {
	case ALL_PASS: return "pass";
	case ALL_FAIL: return "fail";
	case ALL_CANNOT: return "cannot";
	case ALL_CANCELLED: return "cancelled";
	case ALL_NOT_RUN: break;
	}
	return "not-run";
}

static const char *verdict_text(enum all_verdict v, const char *lang)
{
	switch (v) {
	case ALL_PASS: return i18n(lang, M_LAB_PASS);
	case ALL_FAIL: return i18n(lang, M_LAB_FAIL);
	case ALL_CANNOT: return i18n(lang, M_LAB_CANNOT);
	case ALL_CANCELLED: return i18n(lang, M_LAB_CANCELLED);
	case ALL_NOT_RUN: break;
	}
	return i18n(lang, M_LABALL_NOT_RUN);
}

/* Fills rows from --only (comma-separated ids, in that order) or the whole
 * catalogue.  Returns -1 to go on (*rows and *n set, caller frees), or the
 * exit code after a message. */
static int pick_labs(const char *only, struct all_row **rows, size_t *n)
{
	size_t total;
	const struct lab *const *labs = lab_all(&total);
	*rows = wb_xcalloc(total + 1, sizeof **rows);
	*n = 0;
	if (!only) {
		for (size_t i = 0; i < total; i++)
			(*rows)[(*n)++].lab = labs[i];
		return -1;
	}
	char *list = wb_xstrdup(only), *save = NULL;
	int rc = -1;
	for (char *id = strtok_r(list, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		const struct lab *lab = lab_find(id);
		const char *near = lab ? NULL : labcmd_suggest(id);
		if (!lab) {
			fprintf(stderr,
				"workbench: no lab '%s' in this build%s%s%s; see `workbench lab "
				"list`\n",
				id, near ? " (did you mean " : "", near ? near : "",
				near ? "?)" : "");
			rc = EXIT_USAGE;
			break;
		}
		for (size_t i = 0; i < *n; i++)
			if ((*rows)[i].lab == lab)
				lab = NULL; /* named twice: run once */
		if (lab && *n < total)
			(*rows)[(*n)++].lab = lab;
	}
	free(list);
	if (rc < 0 && *n == 0) {
		fprintf(stderr, "workbench: --only names no lab\n");
		rc = EXIT_USAGE;
	}
	return rc;
}

/* Runs one lab under the supervisor; with json its text goes to stderr. */
static void run_one(struct app *app, struct all_row *row, int json)
{
	char *title = wb_xasprintf("%s: %s", row->lab->id, lab_title(row->lab, app->lang));
	struct labsuper_job job = {
		.lab = row->lab,
		.what = "lab",
		.id = row->lab->id,
		.title = title,
		.record = 1,
		.keep_failed = 1,
		.timing = &row->timing,
	};
	int saved = -1;
	fflush(stdout);
	if (json) {
		saved = dup(STDOUT_FILENO);
		if (saved >= 0)
			dup2(STDERR_FILENO, STDOUT_FILENO);
	}
	int signals = labsuper_signals();
	double t0 = mono_s();
	int rc = labsuper_run(app, &job);
	row->seconds = mono_s() - t0;
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	free(title);
	if (labsuper_signals() != signals)
		row->verdict = ALL_CANCELLED;
	else
		row->verdict = rc == LAB_EXIT_PASS   ? ALL_PASS
			       : rc == LAB_EXIT_FAIL ? ALL_FAIL
						     : ALL_CANNOT;
}

static void print_json(const struct all_row *row)
{
	json_t *o = json_pack("{s:s, s:s, s:f}", "lab", row->lab->id, "verdict",
			      verdict_word(row->verdict), "seconds", row->seconds);
	if (o && row->timing.have) {
		json_object_set_new(o, "story_ms", json_integer(row->timing.story_ms));
		json_object_set_new(o, "server_ms", json_integer(row->timing.server_ms));
		json_object_set_new(o, "other_ms", json_integer(row->timing.other_ms));
	}
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(4)) : NULL;
	if (s)
		printf("%s\n", s);
	free(s);
	json_decref(o);
}

/* The table and the total line; returns the exit code. */
static int summarise(const struct app *app, const struct all_row *rows, size_t n, double total,
		     int json)
{
	int counts[ALL_CANCELLED + 1] = {0};
	long sum[3] = {0};
	const char *lang = app->lang;
	if (!json)
		printf("\n%-24s %8s %8s %8s %8s  %s\n", i18n(lang, M_LABALL_LAB),
		       i18n(lang, M_LABALL_SECONDS), i18n(lang, M_LABALL_STORY),
		       i18n(lang, M_LABALL_SERVER), i18n(lang, M_LABALL_OTHER),
		       i18n(lang, M_LABALL_VERDICT));
	for (size_t i = 0; i < n; i++) {
		const struct all_row *w = &rows[i];
		counts[w->verdict]++;
		if (w->timing.have) {
			sum[0] += w->timing.story_ms;
			sum[1] += w->timing.server_ms;
			sum[2] += w->timing.other_ms;
		}
		if (json)
			print_json(w);
		else if (w->verdict == ALL_NOT_RUN)
			printf("%-24s %8s %8s %8s %8s  %s\n", w->lab->id, "-", "-", "-", "-",
			       verdict_text(w->verdict, lang));
		else if (!w->timing.have)
			printf("%-24s %8.1f %8s %8s %8s  %s\n", w->lab->id, w->seconds, "-", "-",
			       "-", verdict_text(w->verdict, lang));
		else
			printf("%-24s %8.1f %8.1f %8.1f %8.1f  %s\n", w->lab->id, w->seconds,
			       w->timing.story_ms / 1e3, w->timing.server_ms / 1e3,
			       w->timing.other_ms / 1e3, verdict_text(w->verdict, lang));
	}
	if (!json) {
		printf(i18n(lang, M_LABALL_TOTAL), (int)n, total, counts[ALL_PASS],
		       counts[ALL_FAIL], counts[ALL_CANNOT] + counts[ALL_CANCELLED],
		       counts[ALL_NOT_RUN]);
		printf("\n");
		printf(i18n(lang, M_LABALL_SPLIT), sum[0] / 1e3, sum[1] / 1e3, sum[2] / 1e3);
		printf("\n");
	}
	fflush(stdout);
	if (counts[ALL_FAIL])
		return LAB_EXIT_FAIL;
	if (counts[ALL_CANNOT] || counts[ALL_CANCELLED] || counts[ALL_NOT_RUN])
		return LAB_EXIT_CANNOT;
	return LAB_EXIT_PASS;
}

int labcmd_run_all(struct app *app, const struct args *args)
{
	if (args->argc > 0)
		return command_usage_error(&cmd_lab_run, "--all and --only take no lab ID");
	if (args_value(args, "--zk"))
		return command_usage_error(&cmd_lab_run,
					   "--all runs each lab with the servers it starts; --zk "
					   "is for one lab");
	struct all_row *rows = NULL;
	size_t n = 0;
	int json = args_has(args, "--json") > 0;
	int rc = pick_labs(args_value(args, "--only"), &rows, &n);
	if (rc >= 0) {
		free(rows);
		return rc;
	}
	double t0 = mono_s();
	for (size_t i = 0; i < n; i++) {
		run_one(app, &rows[i], json);
		if (rows[i].verdict == ALL_CANCELLED)
			break; /* the rest stay ALL_NOT_RUN */
	}
	rc = summarise(app, rows, n, mono_s() - t0, json);
	free(rows);
	return rc;
}
