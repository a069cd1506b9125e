/*
 * cli/exercise_solution.c - `workbench exercise solution ID [--yes]`:
 * after a confirmation (y/N on a terminal, --yes otherwise required)
 * prints the reference solution, sanitised (core/textsafe), and records
 * that it was seen.  It never touches the learner's file.
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

static int exercise_solution(struct app *app, const struct args *args)
{
	const struct excat_entry *e = excmd_find(app, args->argv[0]);
	if (!e)
		return EXIT_FAIL;
	char *text = NULL;
	if (exws_solution(app->content, e, &text) != 0) {
		char *p = exws_shipped_file(app->content, e->id, "solution");
		fprintf(stderr, "workbench: cannot read %s.%s\n", p, e->lang);
		free(p);
		return EXIT_FAIL;
	}
	int yes = excmd_confirm(app, args_has(args, "--yes"), i18n(app->lang, M_EX_SOLUTION_ASK),
				e->id);
	int rc = EXIT_OK;
	if (yes <= 0) {
		if (yes == 0)
			printf("%s\n", i18n(app->lang, M_EX_UNCHANGED));
		rc = yes < 0 ? EXIT_USAGE : EXIT_OK;
		goto out;
	}
	struct store *s;
	char serr[STORE_ERRLEN];
	if (store_open(app->db_path, &s, serr, sizeof serr) != 0) {
		fprintf(stderr, "workbench: %s\n", serr);
		rc = EXIT_FAIL;
		goto out;
	}
	if (store_ex_add(s, e->id, STORE_EX_SOLUTION, 0, 0) != 0) {
		fprintf(stderr, "workbench: %s\n", store_errmsg(s));
		rc = EXIT_FAIL;
	}
	store_close(s);
	if (rc)
		goto out;
	printf(i18n(app->lang, M_EX_SOLUTION_TITLE), e->id, e->lang);
	printf("\n\n");
	textsafe_fputs(text, stdout);
	if (*text && text[strlen(text) - 1] != '\n')
		printf("\n");
out:
	free(text);
	return rc;
}

const struct command cmd_exercise_solution = {
	.name = "exercise",
	.sub = "solution",
	.args = {.opts = "-y|--yes", .lower = 1, .upper = 1},
	.usage = "ID [--yes]",
	.help = "show the reference solution (asks first; recorded)",
	.run = exercise_solution,
};
