/*
 * cli/exercise_hint.c - `workbench exercise hint ID [--all]`: reveals the
 * next of the exercise's three hints (each a step closer) and records it
 * in progress.db; --all shows again those already revealed, without
 * revealing more.  Hint text is content: it is printed sanitised
 * (core/textsafe).  It does not start the exercise.
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

static void show_hint(struct app *app, char *hint[EXWS_HINTS], int k)
{
	printf(i18n(app->lang, M_EX_HINT_N), k + 1, EXWS_HINTS);
	printf(": ");
	textsafe_fputs(hint[k], stdout);
	printf("\n\n");
}

static int exercise_hint(struct app *app, const struct args *args)
{
	const struct excat_entry *e = excmd_find(app, args->argv[0]);
	if (!e)
		return EXIT_FAIL;
	char *hint[EXWS_HINTS], err[512];
	struct store *s = NULL;
	struct store_ex_state x;
	int rc = EXIT_FAIL;
	if (exws_hints_load(app->content, e->id, app->lang, hint, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	char serr[STORE_ERRLEN];
	if (store_open(app->db_path, &s, serr, sizeof serr) != 0) {
		fprintf(stderr, "workbench: %s\n", serr);
		goto out;
	}
	if (store_ex_get(s, e->id, &x) != 0) {
		fprintf(stderr, "workbench: %s\n", store_errmsg(s));
		goto out;
	}
	if (args_has(args, "--all")) {
		for (int k = 0; k < x.hints; k++)
			show_hint(app, hint, k);
		if (!x.hints) {
			printf(i18n(app->lang, M_EX_HINTS_NONE_YET), e->id);
			printf("\n");
		}
	} else if (x.hints >= EXWS_HINTS) {
		show_hint(app, hint, EXWS_HINTS - 1);
		printf(i18n(app->lang, M_EX_HINTS_ALL_SHOWN), EXWS_HINTS, e->id);
		printf("\n");
	} else {
		if (store_ex_add(s, e->id, STORE_EX_HINT, x.hints + 1, 0) != 0) {
			fprintf(stderr, "workbench: %s\n", store_errmsg(s));
			goto out;
		}
		show_hint(app, hint, x.hints);
	}
	rc = EXIT_OK;
out:
	store_close(s);
	exws_hints_free(hint);
	return rc;
}

const struct command cmd_exercise_hint = {
	.name = "exercise",
	.sub = "hint",
	.args = {.opts = "--all", .lower = 1, .upper = 1},
	.usage = "ID [--all]",
	.help = "reveal the next of three hints (--all: those revealed so far)",
	.run = exercise_hint,
};
