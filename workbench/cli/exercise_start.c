/*
 * cli/exercise_start.c - `workbench exercise start ID [--no-edit]`:
 * copies the starter into the learner's workspace (core/exercise_ws.h;
 * an exercise already started keeps the learner's file), records the
 * start, and prints the task text (the workspace also gets it as
 * TASK.md).  On a terminal it then waits for Enter and opens $VISUAL or
 * $EDITOR on the file, so the task is read before the editor covers it
 * (review ux-r3 B1); off a terminal (or with --no-edit) it prints the
 * path.  It does not run the check (`exercise check`, `exercise watch`).
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

/* Prints the task text of e (as --no-edit always did): sanitised, with a
 * blank line after it.  Nothing when there is none. */
static void print_task(struct app *app, const struct excat_entry *e)
{
	char *task = NULL;
	if (exws_task(app->content, e->id, app->lang, &task) == 0) {
		textsafe_fputs(task, stdout);
		if (*task && task[strlen(task) - 1] != '\n')
			printf("\n");
		printf("\n");
	}
	free(task);
}

/* Asks for Enter before the editor opens.  1 on Enter, 0 on end of
 * input (the learner chose not to edit now). */
static int wait_enter(struct app *app, const char *ed, const char *path)
{
	int zh = app->lang && !strcmp(app->lang, "zh");
	printf(zh ? "按 Enter 用 %s 打开 %s（任务也在同一文件夹的 TASK.md 里；Ctrl-D 不打开；"
		    "--no-edit 跳过这一步）"
		  : "Press Enter to open %s on %s (the task is also in TASK.md beside it; "
		    "Ctrl-D: not now; --no-edit skips this) ",
	       ed, path);
	fflush(stdout);
	int c;
	while ((c = getchar()) != EOF && c != '\n')
		;
	if (c == EOF)
		printf("\n");
	return c != EOF;
}

static int exercise_start(struct app *app, const struct args *args)
{
	const struct excat_entry *e = excmd_find(app, args->argv[0]);
	if (!e)
		return EXIT_FAIL;
	char err[512], *path = NULL;
	int created, rc = EXIT_FAIL;
	if (exws_start_lang(app->content, e, app->lang, &path, &created, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		goto out;
	}
	record_start(app, e->id);
	if (!created) {
		printf(i18n(app->lang, M_EX_KEPT), e->id);
		printf("\n");
	}
	const char *ed = exws_editor(0);
	print_task(app, e);
	if (!args_has(args, "--no-edit") && ed && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) &&
	    wait_enter(app, ed, path)) {
		int st = exws_run_editor(ed, path);
		if (st != 0) {
			fprintf(stderr, "workbench: ");
			fprintf(stderr, i18n(app->lang, M_EX_EDITOR_FAILED), ed, st);
			fprintf(stderr, "\n");
		}
	}
	printf(i18n(app->lang, M_EX_FILE), path);
	printf("\n");
	printf(i18n(app->lang, M_EX_NEXT), e->id, e->id);
	printf("\n");
	rc = EXIT_OK;
out:
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
		"  Prints the task (also kept as TASK.md beside your file); on a terminal\n"
		"  then waits for Enter and opens the editor.  --no-edit: no editor.\n",
	.run = exercise_start,
};
