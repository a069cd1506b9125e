/*
 * cli/progress_import.c - `workbench progress import FILE`: merges an
 * export of `progress export` (CSV or JSON; "-" reads stdin) into this
 * database; answers already present (same uid) are skipped, and a bad
 * file imports nothing.  The parsing is core's (answers_import), and so
 * is the size limit (ANSWERS_FILE_MAX, for stdin too).  --learner NAME
 * names an unnamed export, --as-mine lets one join this learner's own
 * state (answers_import_with: review ux-r3 B2, B3).
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/exchange.h"
#include "core/store.h"
#include "core/textsafe.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int progress_import(struct app *app, const struct args *args)
{
	const char *file = args->argv[0];
	const char *learner = args_value(args, "--learner");
	if (learner && args_has(args, "--as-mine")) {
		fprintf(stderr, "workbench progress import: --learner and --as-mine exclude each "
				"other\n");
		return EXIT_USAGE;
	}
	if (learner && (!*learner || strlen(learner) >= 64 || strpbrk(learner, ",\"\r\n\t") ||
			!utf8_valid(learner, strlen(learner)))) {
		fprintf(stderr, "workbench progress import: --learner needs a plain name of at "
				"most 63 bytes\n");
		return EXIT_USAGE;
	}
	char *text = NULL;
	size_t len = 0;
	int rc;
	/* Capped, from a file or stdin alike: /dev/zero or `yes | workbench
	 * progress import -` stop at ANSWERS_FILE_MAX (review r3 N6). */
	if (!strcmp(file, "-"))
		rc = wb_read_fd_max(0, ANSWERS_FILE_MAX, &text, &len);
	else
		rc = wb_read_file_max(file, ANSWERS_FILE_MAX, &text, &len);
	if (rc) {
		char why[96];
		fprintf(stderr, "workbench: cannot read %s: %s%s; nothing was imported\n",
			!strcmp(file, "-") ? "standard input" : file,
			wb_read_strerror(rc, ANSWERS_FILE_MAX, why, sizeof why),
			rc == WB_EINVAL ? " (give - to read standard input)" : "");
		return EXIT_FAIL;
	}
	struct store *st;
	if (quizcmd_open_store(app, &st)) {
		free(text);
		return EXIT_FAIL;
	}
	struct answers_import_opts o = {.learner = learner, .as_mine = args_has(args, "--as-mine")};
	struct answers_import_result r;
	char err[512];
	rc = answers_import_with(st, text, len, &o, &r, err, sizeof err);
	free(text);
	store_close(st);
	if (rc) {
		fprintf(stderr, "workbench: %s: %s; nothing was imported\n", file, err);
		return EXIT_FAIL;
	}
	printf("imported %zu answer%s, %zu already present", r.added, r.added == 1 ? "" : "s",
	       r.skipped);
	if (r.learner[0]) {
		printf(" (learner ");
		textsafe_fputs(r.learner, stdout); /* a name from the file */
		printf(")");
	}
	if (r.ex_left)
		printf("; %zu exercise%s left out: a learner's are not yours (`workbench class "
		       "report FILE` shows them)",
		       r.ex_left, r.ex_left == 1 ? "" : "s");
	else
		printf("; merged %zu exercise%s", r.ex_merged, r.ex_merged == 1 ? "" : "s");
	printf("\n");
	return EXIT_OK;
}

const struct command cmd_progress_import = {
	.name = "progress",
	.sub = "import",
	.args = {.opts = "--learner= --as-mine", .lower = 1, .upper = 1},
	.usage = "FILE [--learner NAME | --as-mine]",
	.help = "merge an export (- for stdin), no duplicates",
	.more = "  A learner's export (`progress export --learner NAME`) stays that learner's:\n"
		"  `quiz stats --learner NAME` shows it; it never changes your reviews or\n"
		"  exercise list.  --learner NAME names an export written without one.\n"
		"  An unnamed export joins your own state only in a database without any\n"
		"  answers or exercises of its own, or with --as-mine.\n",
	.run = progress_import,
};
