/*
 * cli/class_report.c - `workbench class report [--format text|csv|json]
 * FILE...`: reads several learners' progress exports (JSON, `progress
 * export --format json`) and prints the class report of
 * core/classreport.h.  It reads files only: no database is opened or
 * changed.  The figures and formats are core's; this file reads the
 * files and reports bad ones by name.
 */
#include "app.h"
#include "cli/commands.h"
#include "core/classreport.h"
#include "core/exchange.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int class_report(struct app *app, const struct args *args)
{
	const char *f = args_value(args, "--format");
	enum cr_format fmt = CR_TEXT;
	if (f && !strcmp(f, "csv"))
		fmt = CR_CSV;
	else if (f && !strcmp(f, "json"))
		fmt = CR_JSON;
	else if (f && strcmp(f, "text") != 0)
		return command_usage_error(&cmd_class_report,
					   "--format must be text, csv or json, got '%s'", f);
	struct classreport *r = classreport_new();
	int rc = EXIT_OK;
	for (int i = 0; i < args->argc && rc == EXIT_OK; i++) {
		const char *path = args->argv[i];
		char *text = NULL, err[512];
		size_t len = 0;
		/* The limit progress import has, checked before reading
		 * (fstat): /dev/zero and huge files are refused unread. */
		int e = wb_read_file_max(path, ANSWERS_FILE_MAX, &text, &len);
		if (e) {
			char why[96];
			fprintf(stderr, "workbench class report: %s: %s\n", path,
				wb_read_strerror(e, ANSWERS_FILE_MAX, why, sizeof why));
			rc = EXIT_FAIL;
		} else if (classreport_add_json(r, path, text, len, err, sizeof err) != 0) {
			fprintf(stderr, "workbench class report: %s\n", err);
			rc = EXIT_FAIL;
		}
		free(text);
	}
	if (rc == EXIT_OK) {
		int width = app->width > 0 ? app->width : 80;
		if (classreport_write(r, fmt, width, stdout) != 0 || fflush(stdout) != 0) {
			fprintf(stderr, "workbench class report: cannot write the report\n");
			rc = EXIT_FAIL;
		}
	}
	classreport_free(r);
	return rc;
}

const struct command cmd_class_report = {
	.name = "class",
	.sub = "report",
	.args = {.opts = "--format=", .lower = 1, .upper = -1},
	.usage = "[--format text|csv|json] FILE...",
	.help = "per question and learner figures over several progress exports",
	.more = "FILE: `workbench progress export --format json` of each learner.  Per question:\n"
		"learners who answered it (each with their latest answer), mean points, share\n"
		"of Again; per learner: questions answered, labs passed, exercises solved (- when\n"
		"the export has none); a bar chart of the hardest questions.  --width sets the\n"
		"chart's width.\n",
	.run = class_report, /* no data_out: names and ids in the files are untrusted */
};
