/*
 * cli/progress_import.c - `workbench progress import FILE`: merges an
 * export of `progress export` (CSV or JSON; "-" reads stdin) into this
 * database; answers already present (same uid) are skipped, and a bad
 * file imports nothing.  The parsing is core's (answers_import).
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/exchange.h"
#include "core/store.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int progress_import(struct app *app, const struct args *args)
{
	const char *file = args->argv[0];
	char *text = NULL;
	size_t len = 0;
	int rc;
	if (!strcmp(file, "-")) {
		struct wb_buf b = {0};
		char chunk[65536];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
			wb_buf_append(&b, chunk, n);
		len = b.len;
		text = wb_buf_steal(&b);
		rc = 0;
	} else {
		rc = wb_read_file(file, &text, &len);
	}
	if (rc) {
		fprintf(stderr, "workbench: cannot read %s: %s\n", file, wb_strerror(rc));
		return EXIT_FAIL;
	}
	struct store *st;
	if (quizcmd_open_store(app, &st)) {
		free(text);
		return EXIT_FAIL;
	}
	size_t added, skipped;
	char err[512];
	rc = answers_import(st, text, len, &added, &skipped, err, sizeof err);
	free(text);
	store_close(st);
	if (rc) {
		fprintf(stderr, "workbench: %s: %s; nothing was imported\n", file, err);
		return EXIT_FAIL;
	}
	printf("imported %zu answer%s, %zu already present\n", added, added == 1 ? "" : "s",
	       skipped);
	return EXIT_OK;
}

const struct command cmd_progress_import = {
	.name = "progress",
	.sub = "import",
	.args = {.lower = 1, .upper = 1},
	.usage = "FILE",
	.help = "merge an export (- for stdin), no duplicates",
	.run = progress_import,
};
