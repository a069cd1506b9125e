/*
 * cli/quiz_lint.c - `workbench quiz lint [PATH...]`: every problem of the
 * given bank files or folders (default: the shipped and the instructor's
 * banks) as file:line: messages; exit 1 on any error.  The other banks
 * are read as context (ids used elsewhere, translations).  The checks
 * themselves are core/quizlint.c.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/quizlint.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>

static void push_str(char ***v, size_t *n, char *s)
{
	*v = wb_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

static int quiz_lint(struct app *app, const struct args *args)
{
	char **targets = NULL, **context = NULL;
	size_t nt = 0, nc = 0;
	int rc = EXIT_OK;
	for (int i = 0; i < args->argc; i++) {
		if (quizlint_expand(args->argv[i], &targets, &nt) != 0) {
			fprintf(stderr, "workbench quiz lint: %s: no such file or folder\n",
				args->argv[i]);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	quizcmd_bank_files(app, &context, &nc);
	if (args->argc == 0)
		for (size_t i = 0; i < nc; i++)
			push_str(&targets, &nt, wb_xstrdup(context[i]));
	struct quizlint_report r;
	quizlint_run(app->content, app->lang, (const char *const *)targets, nt,
		     (const char *const *)context, nc, &r);
	for (size_t i = 0; i < r.n; i++) {
		const char *kind = r.m[i].is_error ? "error" : "warning";
		if (r.m[i].col > 0)
			printf("%s:%d:%d: %s: %s\n", r.m[i].file, r.m[i].line, r.m[i].col, kind,
			       r.m[i].msg);
		else
			printf("%s:%d: %s: %s\n", r.m[i].file, r.m[i].line, kind, r.m[i].msg);
	}
	fprintf(stderr, "quiz lint: %zu file%s, %d error%s, %d warning%s\n", nt, nt == 1 ? "" : "s",
		r.errors, r.errors == 1 ? "" : "s", r.warnings, r.warnings == 1 ? "" : "s");
	rc = r.errors ? EXIT_FAIL : EXIT_OK;
	quizlint_report_free(&r);
out:
	quizlint_free_list(targets, nt);
	quizlint_free_list(context, nc);
	return rc;
}

const struct command cmd_quiz_lint = {
	.name = "quiz",
	.sub = "lint",
	.args = {.upper = -1},
	.usage = "[PATH...]",
	.help = "check question banks (file:line: message)",
	.more = "Banks: <content>/quizzes/<lang>/ and the instructor's folder (--quizzes DIR,\n"
		"default $XDG_DATA_HOME/workbench/quizzes), each with en/ and zh/ subfolders.\n",
	.run = quiz_lint,
};
