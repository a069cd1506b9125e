/*
 * cli/exercise_start.c - `workbench exercise start ID [--no-edit]`:
 * copies the starter into the learner's workspace (core/exercise_ws.h;
 * an exercise already started keeps the learner's file), records the
 * start, and on a terminal opens $VISUAL or $EDITOR on the file; off a
 * terminal (or with --no-edit) prints the path and the task text.  It
 * does not run the check (`exercise check`, `exercise watch`).
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/excmd.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "core/store.h"
#include "core/textsafe.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Records the start in progress.db; a failure is reported, not fatal
 * (the learner's file is there either way). */
static void record_start(struct app *app, const char *id)
{
	struct store *s;
	char err[STORE_ERRLEN];
	if (store_open(app->db_path, &s, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		return;
	}
	if (store_ex_add(s, id, STORE_EX_START, 0, 0) != 0)
		fprintf(stderr, "workbench: %s\n", store_errmsg(s));
	store_close(s);
}

static int exercise_start(struct app *app, const struct args *args)
{
	const struct excat_entry *e = excmd_find(app, args->argv[0]);
	if (!e)
		return EXIT_FAIL;
	char err[512], *path = NULL, *task = NULL;
	int created, rc = EXIT_FAIL;
	if (exws_start(app->content, e, &path, &created, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		goto out;
	}
	record_start(app, e->id);
	if (!created) {
		printf(i18n(app->lang, M_EX_KEPT), e->id);
		printf("\n");
	}
	const char *ed = exws_editor(0);
	if (!args_has(args, "--no-edit") && ed && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		int st = exws_run_editor(ed, path);
		if (st != 0) {
			fprintf(stderr, "workbench: ");
			fprintf(stderr, i18n(app->lang, M_EX_EDITOR_FAILED), ed, st);
			fprintf(stderr, "\n");
		}
	} else if (exws_task(app->content, e->id, app->lang, &task) == 0) {
		textsafe_fputs(task, stdout);
		if (*task && task[strlen(task) - 1] != '\n')
			printf("\n");
		printf("\n");
	}
	printf(i18n(app->lang, M_EX_FILE), path);
	printf("\n");
	printf(i18n(app->lang, M_EX_NEXT), e->id, e->id);
	printf("\n");
	rc = EXIT_OK;
out:
	free(task);
	free(path);
	return rc;
}

const struct command cmd_exercise_start = {
	.name = "exercise",
	.sub = "start",
	.args = {.opts = "--no-edit", .lower = 1, .upper = 1},
	.usage = "ID [--no-edit]",
	.help = "copy the starter into your workspace and open it in $EDITOR",
	.more = "  The file lives in $XDG_DATA_HOME/workbench/exercises/ID/ and is never\n"
		"  overwritten: starting a started exercise opens your file again.\n"
		"  Off a terminal, or with --no-edit, prints the task and the path.\n",
	.run = exercise_start,
};
