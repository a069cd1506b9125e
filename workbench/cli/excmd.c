/*
 * cli/excmd.c - helpers the exercise commands share (see excmd.h).  It
 * prints only its own errors; it parses no arguments.
 */
#include "cli/excmd.h"
#include "cli/suggest.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "base/spawn.h"
#include "base/wb.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const struct excat_entry *excmd_find(struct app *app, const char *id)
{
	const struct excat_entry *e = excat_find(id);
	if (e)
		return e;
	size_t n;
	const struct excat_entry *all = excat_all(&n);
	const char **ids = wb_xcalloc(n + 1, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[i] = all[i].id;
	const char *near = suggest_closest(id, ids, n);
	char hint[160] = "";
	if (near)
		snprintf(hint, sizeof hint, i18n(app->lang, M_EX_DID_YOU_MEAN), near);
	fprintf(stderr, "workbench: ");
	fprintf(stderr, i18n(app->lang, M_EX_UNKNOWN), id, hint);
	fprintf(stderr, "\n");
	free(ids);
	return NULL;
}

int excmd_confirm(struct app *app, int yes, const char *prompt, const char *id)
{
	if (yes)
		return 1;
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "workbench: %s\n", i18n(app->lang, M_EX_NEEDS_YES));
		return -1;
	}
	printf(prompt, id);
	fflush(stdout);
	char line[64];
	if (!fgets(line, sizeof line, stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

int excmd_spawn_check(struct app *app, const char *id, int json, int out_fd, pid_t *pid)
{
	struct spawn_opts o = {
		.new_group = 1, .death_signal = SIGTERM, .stdin_null = 1, .out_fd = out_fd};
	if (spawn_fork(&o, pid) != 0) {
		fprintf(stderr, "workbench: ");
		fprintf(stderr, i18n(app->lang, M_EX_CHECK_FAILED_START), strerror(errno));
		fprintf(stderr, "\n");
		return WB_EIO;
	}
	if (*pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		char *argv[] = {"workbench",  "--lang",	  (char *)app->lang,	  "--content",
				app->content, "--db",	  app->db_path,		  "exercise",
				"check",      (char *)id, json ? "--json" : NULL, NULL};
		execv("/proc/self/exe", argv);
		fprintf(stderr, "workbench: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(2);
	}
	return 0;
}

static volatile sig_atomic_t stop_seen;

static void on_stop(int sig)
{
	(void)sig;
	stop_seen = 1;
}

void excmd_catch_stop(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int excmd_stopped(void)
{
	return stop_seen != 0;
}

int excmd_wait(pid_t pid)
{
	int status, sent = 0;
	for (;;) {
		if (stop_seen && !sent) {
			kill(-pid, SIGTERM);
			sent = 1;
		}
		if (waitpid(pid, &status, 0) == pid)
			break;
		if (errno != EINTR)
			return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
