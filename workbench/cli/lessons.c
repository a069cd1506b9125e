/*
 * cli/lessons.c - `workbench lessons`: chapter ids and titles, one per
 * line, tab-separated, for scripts and for humans.
 */
#include "app.h"
#include "core/content.h"

#include <stdio.h>

int cli_lessons(struct app *app, int argc, char **argv)
{
	(void)argv;
	if (argc > 0) {
		fprintf(stderr, "workbench lessons: unexpected argument '%s'\n", argv[0]);
		return EXIT_USAGE;
	}
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
