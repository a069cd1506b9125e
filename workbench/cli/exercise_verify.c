/*
 * cli/exercise_verify.c - `workbench exercise verify`: runs the check of
 * every started exercise in turn (`exercise check ID --json` as a child,
 * cli/excmd.h) and prints a summary table: passed, failing with the
 * failed checks' names, or could not run.  Exit 0 when all pass, 1 when
 * any fails, 2 when none failed but one could not run.  The checks
 * record the attempts themselves; verify records nothing.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/excmd.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "base/wb.h"
#include "event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs one check; returns its exit code with the failed checks' names
 * (comma-separated) in *failed (caller frees). */
static int run_one(struct app *app, const char *id, char **failed)
{
	struct wb_buf names = {0};
	int fds[2];
	pid_t pid;
	*failed = NULL;
	if (pipe(fds) != 0)
		return 2;
	if (excmd_spawn_check(app, id, 1, fds[1], &pid) != 0) {
		close(fds[0]);
		close(fds[1]);
		return 2;
	}
	close(fds[1]);
	FILE *f = fdopen(fds[0], "r");
	char *line = NULL;
	size_t cap = 0;
	while (f && !excmd_stopped() && getline(&line, &cap, f) > 0) {
		struct event_line ev;
		if (event_parse(line, &ev) != 0)
			continue;
		if (ev.kind == EVENT_CHECK && !ev.ok) {
			if (names.len)
				wb_buf_puts(&names, ", ");
			wb_buf_puts(&names, ev.text);
		}
		event_clear(&ev);
	}
	free(line);
	if (f)
		fclose(f);
	else
		close(fds[0]);
	int rc = excmd_wait(pid);
	*failed = wb_buf_steal(&names);
	wb_buf_free(&names);
	return rc;
}

static int exercise_verify(struct app *app, const struct args *args)
{
	(void)args;
	size_t n, started = 0, passed = 0;
	int any_fail = 0, any_cannot = 0;
	const struct excat_entry *all = excat_all(&n);
	excmd_catch_stop();
	char **failed = wb_xcalloc(n + 1, sizeof *failed);
	int *verdict = wb_xcalloc(n + 1, sizeof *verdict);
	for (size_t i = 0; i < n && !excmd_stopped(); i++) {
		verdict[i] = -1;
		if (!exws_started(&all[i]))
			continue;
		started++;
		fprintf(stderr, i18n(app->lang, M_EX_VERIFY_CHECKING), all[i].id);
		fprintf(stderr, "\n");
		verdict[i] = run_one(app, all[i].id, &failed[i]);
		passed += verdict[i] == 0;
		any_fail |= verdict[i] == 1;
		any_cannot |= verdict[i] > 1;
	}
	if (!started) {
		printf("%s\n", i18n(app->lang, M_EX_VERIFY_NONE));
	} else {
		for (size_t i = 0; i < n; i++) {
			if (verdict[i] < 0)
				continue;
			enum msg m = verdict[i] == 0   ? M_EX_PASSED
				     : verdict[i] == 1 ? M_EX_FAILING
						       : M_EX_CANNOT_RUN;
			printf("%-3s %-20s %-14s ", all[i].chapter, all[i].id, i18n(app->lang, m));
			if (failed[i] && *failed[i])
				printf(i18n(app->lang, M_EX_FAILED_CHECKS), failed[i]);
			printf("\n");
		}
		printf(i18n(app->lang, M_EX_VERIFY_SUMMARY), (int)passed, (int)started);
		printf("\n");
	}
	for (size_t i = 0; i < n; i++)
		free(failed[i]);
	free(failed);
	free(verdict);
	if (excmd_stopped())
		return EXIT_USAGE;
	return any_fail ? EXIT_FAIL : any_cannot ? EXIT_USAGE : EXIT_OK;
}

const struct command cmd_exercise_verify = {
	.name = "exercise",
	.sub = "verify",
	.args = {.upper = 0},
	.usage = "",
	.help = "check every started exercise in turn; a summary table",
	.more = "  Exit status: 0 all pass, 1 one fails, 2 one could not run.\n",
	.run = exercise_verify,
};
