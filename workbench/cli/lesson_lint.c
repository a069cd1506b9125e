/*
 * cli/lesson_lint.c - `workbench lesson lint [PATH...]`: every problem as
 * file:line: message; exit 1 on any error.  Without paths, lints every
 * shipped lesson and glossary; with paths, the other .md files of each
 * path's folder and of its en/zh sibling are read for the checks across
 * files (core/lessonlint.h) but not reported on.  Lab ids missing from this build are errors once
 * every catalogue lab exists in the build, warnings before that.
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

/* en/zh differences (## sections, lab cards, glossary terms) are errors:
 * the shipped chapters line up.  0 turns them into warnings, for a time
 * when one language is being rewritten ahead of the other. */
#define LESSON_LINT_STRICT_PARITY 1

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

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

/* The files being linted: targets, then context (the other lessons of
 * both languages, for links, glossary terms and en/zh parity). */
struct files {
	struct lessonlint_doc *d;
	size_t n;
	char **paths, **texts, **langs, **names;
	int errors; /* unreadable targets */
};

static int have_file(const struct files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->paths[i], path))
			return 1;
	return 0;
}

/* "en"/"zh" from the parent folder's name, else "en". */
static char *lang_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash - path < 2)
		return wb_xstrdup("en");
	const char *b = slash - 2;
	if ((b == path || b[-1] == '/') && (!strncmp(b, "zh", 2) || !strncmp(b, "en", 2)))
		return wb_xstrndup(b, 2);
	return wb_xstrdup("en");
}

static void add_file(struct files *f, const char *path, int target)
{
	if (have_file(f, path))
		return;
	char *text;
	size_t len;
	int rc = wb_read_file(path, &text, &len);
	if (rc) {
		if (target) {
			fprintf(stderr, "%s:1: cannot read: %s\n", path, wb_strerror(rc));
			f->errors++;
		}
		return;
	}
	f->d = wb_xrealloc(f->d, (f->n + 1) * sizeof *f->d);
	f->paths = wb_xrealloc(f->paths, (f->n + 1) * sizeof *f->paths);
	f->texts = wb_xrealloc(f->texts, (f->n + 1) * sizeof *f->texts);
	f->langs = wb_xrealloc(f->langs, (f->n + 1) * sizeof *f->langs);
	f->names = wb_xrealloc(f->names, (f->n + 1) * sizeof *f->names);
	const char *slash = strrchr(path, '/');
	f->paths[f->n] = wb_xstrdup(path);
	f->texts[f->n] = text;
	f->langs[f->n] = lang_of(path);
	f->names[f->n] = wb_xstrdup(slash ? slash + 1 : path);
	f->d[f->n] = (struct lessonlint_doc){
		f->paths[f->n], f->langs[f->n], f->names[f->n], text, len, target};
	f->n++;
}

/* Adds every .md file of dir (sorted) as target or context. */
static void add_dir(struct files *f, const char *dir, int target)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' || l < 4 || strcmp(e->d_name + l - 3, ".md"))
			continue;
		names = wb_xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = wb_xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; i < n; i++) {
		char *path = wb_xasprintf("%s/%s", dir, names[i]);
		add_file(f, path, target);
		free(path);
		free(names[i]);
	}
	free(names);
}

static void files_free(struct files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->paths[i]);
		free(f->texts[i]);
		free(f->langs[i]);
		free(f->names[i]);
	}
	free(f->d);
	free(f->paths);
	free(f->texts);
	free(f->langs);
	free(f->names);
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
	struct files f = {0};
	for (int i = 0; i < argc; i++)
		add_file(&f, argv[i], 1);
	size_t targets = f.n;
	/* Context: the folder of each target and its other-language sibling. */
	for (size_t i = 0; i < targets; i++) {
		char *dir = wb_xstrdup(f.paths[i]);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		else
			strcpy(dir, ".");
		add_dir(&f, dir, 0);
		size_t dl = strlen(dir);
		if (dl >= 2 && (dl == 2 || dir[dl - 3] == '/') &&
		    (!strcmp(dir + dl - 2, "en") || !strcmp(dir + dl - 2, "zh"))) {
			char *other = wb_xstrdup(dir);
			memcpy(other + dl - 2, strcmp(dir + dl - 2, "en") ? "en" : "zh", 2);
			add_dir(&f, other, 0);
			free(other);
		}
		free(dir);
	}
	if (argc == 0) {
		const char *langs[] = {"en", "zh"};
		for (int k = 0; k < 2; k++) {
			char *dir = wb_xasprintf("%s/lessons/%s", app->content, langs[k]);
			add_dir(&f, dir, 1);
			free(dir);
		}
		targets = f.n;
	}
	int warnings = 0;
	struct lessonlint_opts o = {labcat_runnable, strict, LESSON_LINT_STRICT_PARITY};
	int errors = f.errors + lessonlint_set(f.d, f.n, &o, print, &warnings);
	int files = (int)targets + f.errors;
	files_free(&f);
	fprintf(stderr, "%d file%s, %d error%s, %d warning%s\n", files, files == 1 ? "" : "s",
		errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	return errors ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_lesson_lint = {
	.name = "lesson",
	.sub = "lint",
	.args = {.upper = -1},
	.usage = "[PATH...]",
	.help = "check lessons: title, lab ids, links, [[terms]], en/zh parity (file:line: "
		"message)",
	.run = lesson_lint,
};
