/*
 * cli/quiz_new.c - `workbench quiz new CHAPTER`: appends a template
 * question with a fresh id to the instructor's bank file of the chapter
 * (made with a title line when new) and opens $VISUAL or $EDITOR at it.
 * CHAPTER may be a unique prefix ("01").  When the editor returns (or
 * there is none) it says whether the template text is still there, which
 * `quiz lint` rejects (core/quizlint.h); the other checks are lint's.
 */
#include "app.h"
#include "cli/chapter.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/content.h"
#include "core/quizbank.h"
#include "core/quizlint.h"
#include "base/wb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* True when id is used in any bank file of either language. */
static int id_taken(struct quiz_file **files, size_t n, const char *id)
{
	for (size_t f = 0; f < n; f++)
		for (size_t k = 0; k < files[f]->nq; k++)
			if (files[f]->q[k].id && !strcmp(files[f]->q[k].id, id))
				return 1;
	return 0;
}

/* The first id "q-NN-K" no bank uses, into id[QUIZ_ID_MAX + 1]. */
static void fresh_id(struct app *app, const char *chapter, char *id)
{
	char **paths = NULL;
	size_t np = 0;
	quizcmd_bank_files(app, &paths, &np);
	struct quiz_file **files = wb_xcalloc(np + 1, sizeof *files);
	size_t nf = 0;
	for (size_t i = 0; i < np; i++)
		if (quiz_load_file(paths[i], app->lang, &files[nf]) == 0)
			nf++;
	for (int k = 1;; k++) {
		snprintf(id, QUIZ_ID_MAX + 1, "q-%.2s-%d", chapter, k);
		if (!id_taken(files, nf, id))
			break;
	}
	for (size_t i = 0; i < nf; i++)
		quiz_file_free(files[i]);
	free(files);
	quizlint_free_list(paths, np);
}

/* Editors that understand "+LINE FILE" (the vi convention). */
static int takes_line(const char *ed)
{
	static const char *known[] = {"vi",    "vim",	      "nvim",  "view", "nano",
				      "emacs", "emacsclient", "micro", "joe",  "mg",
				      "kak",   "ne",	      "jed"};
	size_t n = strcspn(ed, " \t");
	const char *base = ed;
	for (size_t i = 0; i < n; i++)
		if (ed[i] == '/')
			base = ed + i + 1;
	size_t len = (size_t)(ed + n - base);
	for (size_t i = 0; i < WB_ARRAY_LEN(known); i++)
		if (strlen(known[i]) == len && !strncmp(base, known[i], len))
			return 1;
	return 0;
}

/* Runs the editor command ed (it may carry arguments, "code -w") on path
 * and waits.  Returns 0 when it exits with status 0, -1 otherwise. */
static int run_editor(const char *ed, const char *path, int line)
{
	char linearg[32];
	snprintf(linearg, sizeof linearg, "+%d", line);
	setenv("WB_EDITOR", ed, 1);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (takes_line(ed))
			execl("/bin/sh", "sh", "-c", "exec $WB_EDITOR \"$1\" \"$2\"", "sh", linearg,
			      path, (char *)NULL);
		else
			execl("/bin/sh", "sh", "-c", "exec $WB_EDITOR \"$1\"", "sh", path,
			      (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Appends the template question id to the bank file path in dir (a title
 * line first when the file is new or empty).  Returns 0 with *line the
 * line of its heading, or EXIT_FAIL (message printed). */
static int append_template(struct app *app, const char *dir, const char *path, const char *title,
			   const char *id, int *line)
{
	char *old = NULL;
	size_t oldlen = 0;
	int exists = wb_read_file(path, &old, &oldlen) == 0;
	int rc = EXIT_FAIL;
	if (wb_mkdir_p(dir, 0755) != 0) {
		fprintf(stderr, "workbench: cannot create %s\n", dir);
		goto out;
	}
	FILE *f = fopen(path, "a");
	if (!f) {
		fprintf(stderr, "workbench: cannot write %s: %s\n", path, strerror(errno));
		goto out;
	}
	*line = 1;
	if (!exists || oldlen == 0) {
		fprintf(f, "# %s%s\n", !strcmp(app->lang, "zh") ? "自测：" : "Self-test: ", title);
		*line = 2;
	} else {
		for (size_t i = 0; i < oldlen; i++)
			*line += old[i] == '\n';
		if (old[oldlen - 1] != '\n') {
			fputc('\n', f);
			(*line)++;
		}
	}
	fprintf(f,
		"\n## [%s] " QUIZLINT_TEMPLATE_QUESTION "\n"
		"kind: recall\n"
		"\n"
		"### Answer\n" QUIZLINT_TEMPLATE_ANSWER "\n"
		"\n"
		"### Rubric\n"
		"- 1: " QUIZLINT_TEMPLATE_RUBRIC "\n",
		id);
	(*line)++;
	if (fclose(f) != 0) {
		fprintf(stderr, "workbench: cannot write %s\n", path);
		goto out;
	}
	rc = 0;
out:
	free(old);
	return rc;
}

/* After the editor: says so when question id in path still holds the
 * template text, which `quiz lint` rejects. */
static void report_template(struct app *app, const char *path, int line, const char *id)
{
	struct quiz_file *f = NULL;
	int left = 0;
	if (quiz_load_file(path, app->lang, &f) == 0)
		for (size_t k = 0; k < f->nq; k++)
			if (f->q[k].id && !strcmp(f->q[k].id, id))
				left = quizlint_placeholders(&f->q[k]);
	quiz_file_free(f);
	if (left)
		fprintf(stderr,
			"workbench quiz new: [%s] still has the template text (%d part%s): "
			"`workbench "
			"quiz lint` reports it as an error until you write the question, its "
			"answer and its rubric at %s:%d\n",
			id, left, left == 1 ? "" : "s", path, line);
}

static int quiz_new(struct app *app, const struct args *args)
{
	char *chapter = NULL;
	int rc = cli_chapter_lesson(app, "quiz new", args->argv[0], &chapter);
	if (rc)
		return rc;
	char *title = quizcmd_chapter_title(app, app->lang, chapter);
	if (!title)
		title = wb_xstrdup(chapter);
	char id[QUIZ_ID_MAX + 1];
	fresh_id(app, chapter, id);
	char *dir = wb_xasprintf("%s/%s", app->quizzes, app->lang);
	char *path = wb_xasprintf("%s/%s.md", dir, chapter);
	int line = 0;
	rc = append_template(app, dir, path, title, id, &line);
	if (rc)
		goto out;
	printf("%s:%d: new question [%s]\n", path, line, id);
	fflush(stdout);
	const char *ed = getenv("VISUAL");
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (ed && *ed && run_editor(ed, path, line) < 0) {
		fprintf(stderr, "workbench: the editor (%s) failed\n", ed);
		rc = EXIT_FAIL;
	}
	report_template(app, path, line, id);
out:
	free(chapter);
	free(title);
	free(dir);
	free(path);
	return rc;
}

const struct command cmd_quiz_new = {
	.name = "quiz",
	.sub = "new",
	.args = {.lower = 1, .upper = 1},
	.usage = "CHAPTER [--lang en|zh]",
	.help = "add a template question, open $EDITOR at it",
	.run = quiz_new,
};
