/*
 * cli/exercise_list.c - `workbench exercise list [--json]`: every exercise
 * in this build with its chapter, id, language, state (not started,
 * failing, passed: from progress.db and the workspace) and the hints
 * used, like rustlings' list.  It does not start or check anything.
 */
#include "app.h"
#include "cli/commands.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "core/store.h"
#include "base/wb.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

/* "not started", "failing" or "passed" as a message. */
static enum msg state_msg(const struct excat_entry *e, const struct store_ex_state *x)
{
	if (x->passed)
		return M_EX_PASSED;
	return x->started || exws_started(e) ? M_EX_FAILING : M_EX_NOT_STARTED;
}

static const char *state_key(enum msg m)
{
	return m == M_EX_PASSED ? "passed" : m == M_EX_FAILING ? "failing" : "not-started";
}

static int exercise_list(struct app *app, const struct args *args)
{
	int json = args_has(args, "--json");
	size_t n;
	const struct excat_entry *all = excat_all(&n);
	struct store *s = NULL;
	char err[STORE_ERRLEN];
	/* a missing database is no progress yet, not an error */
	int rc = store_open_existing(app->db_path, &s, err, sizeof err);
	if (rc && rc != WB_ENOENT)
		fprintf(stderr, "workbench: %s\n", err);
	if (!n && !json)
		printf("%s\n", i18n(app->lang, M_EX_NONE));
	else if (!json)
		printf("%s\n", i18n(app->lang, M_EX_LIST_HEAD));
	for (size_t i = 0; i < n; i++) {
		struct store_ex_state x = {.last_verdict = -1};
		if (s && store_ex_get(s, all[i].id, &x) != 0)
			fprintf(stderr, "workbench: %s\n", store_errmsg(s));
		enum msg m = state_msg(&all[i], &x);
		if (json) {
			json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:b}", "chapter",
					      all[i].chapter, "id", all[i].id, "lang", all[i].lang,
					      "title", excat_title(&all[i], app->lang), "state",
					      state_key(m), "attempts", x.attempts, "hints",
					      x.hints, "solution_seen", x.solution_seen);
			char *line = json_dumps(o, JSON_COMPACT);
			printf("%s\n", line);
			free(line);
			json_decref(o);
		} else {
			printf("%-3s %-20s %-5s %-12s %d/%d    %s\n", all[i].chapter, all[i].id,
			       all[i].lang, i18n(app->lang, m), x.hints, EXWS_HINTS,
			       excat_title(&all[i], app->lang));
		}
	}
	store_close(s);
	return EXIT_OK;
}

const struct command cmd_exercise_list = {
	.name = "exercise",
	.sub = "list",
	.args = {.opts = "--json", .upper = 0},
	.usage = "[--json]",
	.help = "list the exercises: chapter, language, state, hints used",
	.run = exercise_list,
};
