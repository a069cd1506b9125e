/*
 * cli/progress.c - `workbench progress export|import`: every graded
 * answer out as CSV or JSON, and an export merged into this database
 * without duplicates (answers carry a uid).
 *
 * `--learner NAME` names this learner's answers in the export, so an
 * instructor can import several learners into one database and read
 * `workbench quiz stats` over all of them; imported answers of another
 * learner never change this learner's review schedule.  The formats are
 * implemented in core/answers.c; this file only handles arguments and
 * files.
 */
#include "app.h"
#include "core/exchange.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void progress_usage(FILE *f)
{
	fputs("usage:\n"
	      "  workbench progress export [--format csv|json] [--learner NAME] [-o FILE]\n"
	      "  workbench progress import FILE      (CSV or JSON from export; - for stdin)\n",
	      f);
}

static int open_store(struct app *app, struct store **st)
{
	char err[512];
	if (store_open(app->db_path, st, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	return 0;
}

/* Takes the value of "--opt V" or "--opt=V"; NULL when argv[*i] is not it. */
static const char *opt(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name) != 0)
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

static int progress_export(struct app *app, int argc, char **argv)
{
	const char *format = "csv", *learner = NULL, *file = NULL;
	for (int i = 0; i < argc; i++) {
		int missing = 0;
		const char *v;
		if ((v = opt(argc, argv, &i, "--format", &missing)))
			format = v;
		else if ((v = opt(argc, argv, &i, "--learner", &missing)))
			learner = v;
		else if ((v = opt(argc, argv, &i, "-o", &missing)) ||
			 (v = opt(argc, argv, &i, "--output", &missing)))
			file = v;
		else {
			if (missing)
				fprintf(stderr, "workbench progress export: %s needs a value\n",
					argv[i]);
			else
				fprintf(stderr,
					"workbench progress export: unexpected argument '%s'\n",
					argv[i]);
			progress_usage(stderr);
			return EXIT_USAGE;
		}
	}
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
	if (open_store(app, &st))
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

static int progress_import(struct app *app, int argc, char **argv)
{
	if (argc != 1) {
		progress_usage(stderr);
		return EXIT_USAGE;
	}
	const char *file = argv[0];
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
	if (open_store(app, &st)) {
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

int cli_progress(struct app *app, int argc, char **argv)
{
	if (argc == 0) {
		progress_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "export"))
		return progress_export(app, argc - 1, argv + 1);
	if (!strcmp(argv[0], "import"))
		return progress_import(app, argc - 1, argv + 1);
	if (!strcmp(argv[0], "help") || !strcmp(argv[0], "--help")) {
		progress_usage(stdout);
		return EXIT_OK;
	}
	fprintf(stderr, "workbench progress: unknown subcommand '%s'\n", argv[0]);
	progress_usage(stderr);
	return EXIT_USAGE;
}
