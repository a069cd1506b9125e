/*
 * cli/lesson_lint.c - `workbench lesson lint [PATH...]`: every problem as
 * file:line: message; exit 1 on any error.  Without paths, lints every
 * shipped lesson.  Lab ids missing from this build are errors once every
 * catalogue lab exists in the build, warnings before that.
 */
#include "app.h"
#include "cli/commands.h"
#include "core/labcat.h"
#include "core/lessonlint.h"
#include "base/wb.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print(void *arg, enum lint_level level, const char *file, int line, int col,
		  const char *msg)
{
	int *warnings = arg;
	if (level == LINT_WARNING)
		(*warnings)++;
	if (col > 0)
		fprintf(stderr, "%s:%d:%d: %s%s\n", file, line, col,
			level == LINT_WARNING ? "warning: " : "", msg);
	else
		fprintf(stderr, "%s:%d: %s%s\n", file, line,
			level == LINT_WARNING ? "warning: " : "", msg);
}

static int lint_file(const char *path, int strict, int *warnings)
{
	char *text;
	size_t len;
	int rc = wb_read_file(path, &text, &len);
	if (rc) {
		fprintf(stderr, "%s:1: cannot read: %s\n", path, wb_strerror(rc));
		return 1;
	}
	int errors = lessonlint_text(path, text, len, labcat_runnable, strict, print, warnings);
	free(text);
	return errors;
}

static int lesson_lint(struct app *app, const struct args *args)
{
	int argc = args->argc;
	char **argv = args->argv;
	size_t n;
	const struct labcat_entry *cat = labcat_all(&n);
	int strict = 1;
	for (size_t i = 0; i < n; i++)
		strict &= cat[i].runnable;
	int errors = 0, warnings = 0, files = 0;
	for (int i = 0; i < argc; i++) {
		errors += lint_file(argv[i], strict, &warnings);
		files++;
	}
	if (argc == 0) {
		const char *langs[] = {"en", "zh"};
		for (int k = 0; k < 2; k++) {
			char *dir = wb_xasprintf("%s/lessons/%s", app->content, langs[k]);
			DIR *d = opendir(dir);
			struct dirent *e;
			while (d && (e = readdir(d))) {
				size_t l = strlen(e->d_name);
				if (l < 4 || strcmp(e->d_name + l - 3, ".md"))
					continue;
				char *path = wb_xasprintf("%s/%s", dir, e->d_name);
				errors += lint_file(path, strict, &warnings);
				files++;
				free(path);
			}
			if (d)
				closedir(d);
			free(dir);
		}
	}
	fprintf(stderr, "%d file%s, %d error%s, %d warning%s\n", files, files == 1 ? "" : "s",
		errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	return errors ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_lesson_lint = {
	.name = "lesson",
	.sub = "lint",
	.args = {.upper = -1},
	.usage = "[PATH...]",
	.help = "check lessons: title, lab ids (file:line: message)",
	.run = lesson_lint,
};
