/*
 * cli/exercise_watch.c - `workbench exercise watch ID`: runs the check
 * once, then again every time the learner's file is saved (inotify on
 * the workspace folder: IN_CLOSE_WRITE for editors that write in place,
 * IN_MOVED_TO for those that write a temporary file and rename it), until
 * SIGINT or SIGTERM.  Each check is `exercise check ID` as a child in its
 * own process group (cli/excmd.h); a stop sends it SIGTERM and waits for
 * it, so nothing is left behind.  It records nothing itself (the check
 * records its attempt) and never writes the learner's file.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/excmd.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "base/wb.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

/* Reads the pending inotify events; returns 1 when one names file. */
static int saved(int fd, const char *file)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n = read(fd, buf, sizeof buf);
	int hit = 0;
	for (char *p = buf; n > 0 && p < buf + n;) {
		const struct inotify_event *ev = (const struct inotify_event *)p;
		if (ev->len && !strcmp(ev->name, file))
			hit = 1;
		p += sizeof *ev + ev->len;
	}
	return hit;
}

/* Runs one check with our stdout; prints which run it was and how it
 * ended.  Returns its exit code. */
static int check_once(struct app *app, const char *id, int nrun)
{
	pid_t pid;
	if (excmd_spawn_check(app, id, 0, -1, &pid) != 0)
		return 2;
	int rc = excmd_wait(pid);
	enum msg m = rc == 0 ? M_EX_PASSED : rc == 1 ? M_EX_FAILING : M_EX_CANNOT_RUN;
	printf(i18n(app->lang, M_EX_WATCH_RUN), nrun, id, i18n(app->lang, m));
	printf("\n");
	fflush(stdout);
	return rc;
}

static int exercise_watch(struct app *app, const struct args *args)
{
	const struct excat_entry *e = excmd_find(app, args->argv[0]);
	if (!e)
		return EXIT_FAIL;
	if (!exws_started(e)) {
		fprintf(stderr, "workbench: ");
		fprintf(stderr, i18n(app->lang, M_EX_NOT_STARTED_ERR), e->id, e->id);
		fprintf(stderr, "\n");
		return EXIT_FAIL;
	}
	char *dir = exws_dir(e->id), *file = exws_file(e);
	int rc = EXIT_FAIL, nrun = 0;
	int fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0 || inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		fprintf(stderr, "workbench: cannot watch %s: %s\n", dir, strerror(errno));
		goto out;
	}
	excmd_catch_stop();
	printf(i18n(app->lang, M_EX_WATCHING), file);
	printf("\n");
	check_once(app, e->id, ++nrun);
	while (!excmd_stopped()) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, -1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "workbench: poll: %s\n", strerror(errno));
			goto out;
		}
		if (!saved(fd, e->file))
			continue;
		/* an editor's save can be several events: take the burst */
		while (poll(&p, 1, 50) > 0)
			saved(fd, e->file);
		if (!excmd_stopped())
			check_once(app, e->id, ++nrun);
	}
	printf("%s\n", i18n(app->lang, M_EX_WATCH_STOPPED));
	rc = EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	free(dir);
	free(file);
	return rc;
}

const struct command cmd_exercise_watch = {
	.name = "exercise",
	.sub = "watch",
	.args = {.upper = 1, .lower = 1},
	.usage = "ID",
	.help = "check the exercise on every save of your file, until Ctrl-C",
	.run = exercise_watch,
};
