/*
 * cli/lessons.c - `workbench lessons`: chapter ids and titles, one per
 * line, tab-separated, for scripts and for humans.  It reads only the
 * titles (core/content.c), not the lessons themselves.
 */
#include "app.h"
#include "cli/commands.h"
#include "core/content.h"

#include <stdio.h>

static int lessons(struct app *app, const struct args *args)
{
	(void)args;
	struct chapter_list list;
	if (content_list_chapters(app->content, app->lang, &list) != 0) {
		fprintf(stderr,
			"workbench: no lessons folder at %s/lessons/%s (use --content DIR)\n",
			app->content, app->lang);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < list.n; i++)
		printf("%s\t%s\n", list.items[i].id, list.items[i].title);
	chapter_list_free(&list);
	return EXIT_OK;
}

const struct command cmd_lessons = {
	.name = "lessons",
	.args = {.upper = 0},
	.usage = "",
	.help = "list chapters with their ids and titles",
	.run = lessons,
};
