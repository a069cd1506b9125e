/*
 * cli/lesson_show.c - `workbench lesson show ID`: the reader's layout as
 * plain text on stdout, so what the reader shows can be checked by tests,
 * diffed and piped.  ID may be a unique prefix ("01"), cli/chapter.c, or
 * "glossary" for the language's glossary.
 */
#include "app.h"
#include "cli/chapter.h"
#include "cli/commands.h"
#include "core/content.h"
#include "core/layout.h"
#include "core/lesson.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int lesson_show(struct app *app, const struct args *args)
{
	char *id = NULL;
	int rc = 0;
	/* The glossary (lessons/<lang>/glossary.md) is shown like a chapter. */
	if (!strcmp(args->argv[0], "glossary"))
		id = wb_xstrdup("glossary");
	else
		rc = cli_chapter_lesson(app, "lesson show", args->argv[0], &id);
	if (rc)
		return rc;
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
	rc = lesson_load(path, id, app->lang, &lesson);
	if (rc) {
		if (rc == WB_ERANGE)
			fprintf(stderr,
				"workbench: lesson %s is larger than %u MiB; lessons are limited "
				"to "
				"that\n",
				id, LESSON_MAX_BYTES >> 20);
		else
			fprintf(stderr, "workbench: cannot read lesson %s (%s): %s\n", id,
				app->lang, wb_strerror(rc));
		free(path);
		free(id);
		return EXIT_FAIL;
	}
	struct layout *lay = layout_build(lesson, width);
	layout_print(lay, stdout);
	layout_free(lay);
	lesson_free(lesson);
	free(path);
	free(id);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

const struct command cmd_lesson_show = {
	.name = "lesson",
	.sub = "show",
	.args = {.lower = 1, .upper = 1},
	.usage = "ID|glossary [--width N]",
	.help = "print a chapter as laid out by the reader",
	.run = lesson_show,
};
