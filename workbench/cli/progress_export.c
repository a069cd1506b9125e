/*
 * cli/progress_export.c - `workbench progress export`: every graded
 * answer out as CSV or JSON (`progress import`, cli/progress_import.c,
 * merges such an export into a database without duplicates: answers
 * carry a uid).  It never creates a database: a missing one is "no
 * progress database at PATH".
 *
 * `--learner NAME` names this learner's answers in the export, so an
 * instructor can import several learners into one database and read
 * `workbench quiz stats` over all of them; imported answers of another
 * learner never change this learner's review schedule.  The formats are
 * implemented in core/answers.c; this file only handles arguments and
 * the output file, which base/outfile.h opens: never the database in
 * use, an existing file only with --force, in place only once the
 * export is complete.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/exchange.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/outfile.h"
#include "base/wb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int progress_export(struct app *app, const struct args *args)
{
	const char *format = args_value(args, "--format");
	const char *learner = args_value(args, "--learner");
	const char *file = args_value(args, "-o");
	if (!format)
		format = "csv";
	enum answers_format fmt;
	if (!strcmp(format, "csv"))
		fmt = ANSWERS_CSV;
	else if (!strcmp(format, "json"))
		fmt = ANSWERS_JSON;
	else {
		fprintf(stderr,
			"workbench progress export: --format must be csv or json, got '%s'\n",
			format);
		return EXIT_USAGE;
	}
	if (learner &&
	    (!*learner || strpbrk(learner, ",\"\r\n\t") || !utf8_valid(learner, strlen(learner)))) {
		fprintf(stderr, "workbench progress export: --learner needs a plain name\n");
		return EXIT_USAGE;
	}
	struct store *st;
	if (quizcmd_open_existing(app, &st))
		return EXIT_FAIL;
	struct wb_outfile of = {0};
	char why[1024];
	if (file && strcmp(file, "-") &&
	    wb_outfile_open(&of, file, app->db_path, args_has(args, "--force"), why, sizeof why)) {
		fprintf(stderr, "workbench: %s\n", why);
		store_close(st);
		return EXIT_FAIL;
	}
	FILE *out = of.f ? of.f : stdout;
	int err = answers_export(st, out, fmt, learner);
	if (err) {
		fprintf(stderr, "workbench: export failed: %s (%s)\n", wb_strerror(err),
			store_errmsg(st));
		if (of.f)
			wb_outfile_abort(&of);
	} else if (of.f && wb_outfile_commit(&of, app->db_path, why, sizeof why) != 0) {
		fprintf(stderr, "workbench: export failed: %s\n", why);
		err = WB_EIO;
	} else if (!of.f && fflush(stdout) != 0) {
		fprintf(stderr, "workbench: export failed: %s\n", wb_strerror(WB_EIO));
		err = WB_EIO;
	}
	store_close(st);
	return err ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_progress_export = {
	.name = "progress",
	.sub = "export",
	.args = {.opts = "--format= --learner= -o|--output= --force", .upper = 0},
	.usage = "[--format csv|json] [--learner NAME] [-o FILE [--force]]",
	.help = "export graded answers (csv/json)",
	.more = "An existing FILE is replaced only with --force, and never when it is the\n"
		"progress database in use (or its -wal or -shm file); FILE appears only\n"
		"once the export is complete.\n",
	.data_out = 1,
	.run = progress_export,
};
