/*
 * cli/exercise_reset.c - `workbench exercise reset ID [--yes]`: puts a
 * fresh starter in the workspace after asking (y/N on a terminal, --yes
 * otherwise required); the learner's file is kept as
 * <file>.bak-<YYYYmmdd-HHMMSS> (core/exercise_ws.h).  Recorded in
 * progress.db.  Hints and passes already recorded stay.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/excmd.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "core/store.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>

static int exercise_reset(struct app *app, const struct args *args)
{
	const struct excat_entry *e = excmd_find(app, args->argv[0]);
	if (!e)
		return EXIT_FAIL;
	int yes =
		excmd_confirm(app, args_has(args, "--yes"), i18n(app->lang, M_EX_RESET_ASK), e->id);
	if (yes < 0)
		return EXIT_USAGE;
	if (!yes) {
		printf("%s\n", i18n(app->lang, M_EX_UNCHANGED));
		return EXIT_OK;
	}
	char *path, *backup, err[512];
	if (exws_reset(app->content, e, &path, &backup, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		free(backup);
		return EXIT_FAIL;
	}
	printf(i18n(app->lang, M_EX_RESET_DONE), e->id, path);
	printf("\n");
	if (backup) {
		printf(i18n(app->lang, M_EX_BACKUP), backup);
		printf("\n");
	}
	struct store *s;
	char serr[STORE_ERRLEN];
	int rc = EXIT_OK;
	if (store_open(app->db_path, &s, serr, sizeof serr) != 0) {
		fprintf(stderr, "workbench: %s\n", serr);
		rc = EXIT_FAIL;
	} else {
		if (store_ex_add(s, e->id, STORE_EX_RESET, 0, 0) != 0 ||
		    store_ex_add(s, e->id, STORE_EX_START, 0, 0) != 0) {
			fprintf(stderr, "workbench: %s\n", store_errmsg(s));
			rc = EXIT_FAIL;
		}
		store_close(s);
	}
	free(path);
	free(backup);
	return rc;
}

const struct command cmd_exercise_reset = {
	.name = "exercise",
	.sub = "reset",
	.args = {.opts = "-y|--yes", .lower = 1, .upper = 1},
	.usage = "ID [--yes]",
	.help = "start the exercise over (asks first, keeps a .bak copy)",
	.run = exercise_reset,
};
