/*
 * cli/lesson_show.c - `workbench lesson show ID`: the reader's layout as
 * plain text on stdout, so what the reader shows can be checked by tests,
 * diffed and piped.
 */
#include "app.h"
#include "cli/commands.h"
#include "core/content.h"
#include "core/layout.h"
#include "core/lesson.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int lesson_show(struct app *app, const struct args *args)
{
	const char *id = args->argv[0];
	if (!content_valid_chapter_id(id)) {
		fprintf(stderr, "workbench: '%s' is not a chapter id (see `workbench lessons`)\n",
			id);
		return EXIT_USAGE;
	}
	int width = app->width;
	if (!width) {
		struct winsize ws;
		width = (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
			 ws.ws_col >= LAYOUT_MIN_WIDTH)
				? ws.ws_col
				: 80;
	}
	char *path = content_lesson_path(app->content, app->lang, id);
	struct lesson *lesson = NULL;
	int rc = lesson_load(path, id, app->lang, &lesson);
	if (rc) {
		if (rc == WB_ERANGE)
			fprintf(stderr,
				"workbench: %s is larger than %u MiB; lessons are limited to "
				"that\n",
				path, LESSON_MAX_BYTES >> 20);
		else
			fprintf(stderr, "workbench: cannot read %s: %s\n", path, wb_strerror(rc));
		free(path);
		return EXIT_FAIL;
	}
	struct layout *lay = layout_build(lesson, width);
	layout_print(lay, stdout);
	layout_free(lay);
	lesson_free(lesson);
	free(path);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

const struct command cmd_lesson_show = {
	.name = "lesson",
	.sub = "show",
	.args = {.lower = 1, .upper = 1},
	.usage = "ID [--width N]",
	.help = "print a chapter as laid out by the reader",
	.run = lesson_show,
};
