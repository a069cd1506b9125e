/*
 * cli/lab_run.c - `workbench lab run ID [--json] [--zk HOST:PORT,...]`:
 * finds the lab, checks --zk against it, and runs it under the lab
 * supervisor (cli/labsuper.h), which owns the run folder, the worker, the
 * cancel and the record.  Titles come from the lab catalogue in the UI
 * language.  No lab logic here.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/labcmd.h"
#include "cli/labsuper.h"
#include "base/wb.h"
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

/* Finds the lab and checks --zk against it.  Returns -1 to go on, or the
 * exit code. */
static int find_lab(const char *id, const char *zk, const struct lab **out)
{
	const struct lab *lab = lab_find(id);
	if (!lab) {
		const char *near = labcmd_suggest(id);
		fprintf(stderr,
			"workbench: no lab '%s' in this build%s%s%s; see `workbench lab list`\n",
			id, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		return EXIT_USAGE;
	}
	char msg[512];
	if (zk && lab_check_zk(zk, msg, sizeof msg) != 0) {
		fprintf(stderr, "workbench: %s\n", msg);
		return EXIT_USAGE;
	}
	if (zk && (lab->needs & (LAB_NEEDS_PROCCTL | LAB_NEEDS_ENSEMBLE))) {
		fprintf(stderr,
			"workbench: lab %s starts, cuts or proxies its own servers; it cannot run "
			"against --zk %s\n",
			id, zk);
		return LAB_EXIT_CANNOT;
	}
	if (zk && !labcmd_takes_zk(lab)) {
		fprintf(stderr,
			"workbench: lab %s does not use ZooKeeper, so --zk %s has nothing to do; "
			"the labs marked --zk in `workbench lab list` take it\n",
			id, zk);
		return EXIT_USAGE;
	}
	*out = lab;
	return -1;
}

static int lab_run(struct app *app, const struct args *args)
{
	const char *id = args->argv[0], *zk = args_value(args, "--zk");
	const struct lab *lab = NULL;
	int rc = find_lab(id, zk, &lab);
	if (rc >= 0)
		return rc;
	char *title = wb_xasprintf("%s: %s", lab->id, lab_title(lab, app->lang));
	struct labsuper_job job = {
		.lab = lab,
		.what = "lab",
		.id = lab->id,
		.title = title,
		.zk = zk,
		.json = args_has(args, "--json"),
		.record = 1,
		.keep_failed = 1,
	};
	rc = labsuper_run(app, &job);
	free(title);
	return rc;
}

const struct command cmd_lab_run = {
	.name = "lab",
	.sub = "run",
	.args = {.opts = "--json --zk=", .lower = 1, .upper = 1},
	.usage = "ID [--json] [--zk HOST:PORT,...]",
	.help = "run a lab (exit 0 pass, 1 fail, 2 could not run)",
	.run = lab_run,
};
