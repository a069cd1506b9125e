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
 * the output file.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/exchange.h"
#include "core/store.h"
#include "core/utf8.h"
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
	FILE *out = file && strcmp(file, "-") ? fopen(file, "w") : stdout;
	if (!out) {
		fprintf(stderr, "workbench: cannot write %s: %s\n", file, strerror(errno));
		store_close(st);
		return EXIT_FAIL;
	}
	int to_stdout = out == stdout;
	int err = answers_export(st, out, fmt, learner);
	int closed = to_stdout ? fflush(stdout) : fclose(out);
	if (closed != 0 && !err)
		err = WB_EIO;
	if (err)
		fprintf(stderr, "workbench: export failed: %s (%s)\n", wb_strerror(err),
			store_errmsg(st));
	store_close(st);
	return err ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_progress_export = {
	.name = "progress",
	.sub = "export",
	.args = {.opts = "--format= --learner= -o|--output=", .upper = 0},
	.usage = "[--format csv|json] [--learner NAME] [-o FILE]",
	.help = "export graded answers (csv/json)",
	.data_out = 1,
	.run = progress_export,
};
