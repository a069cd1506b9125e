/*
 * cli/chapter.c - a command's chapter word to a chapter id (chapter.h).
 * The matching is core's (content_find_chapter), the "did you mean" is
 * cli/suggest.c; this file only words the messages.
 */
#include "cli/chapter.h"
#include "cli/suggest.h"
#include "core/content.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "a, b, c" of ids[0..n), only those starting with prefix when given. */
static char *join(const char *const *ids, size_t n, const char *prefix)
{
	struct wb_buf b = {0};
	for (size_t i = 0; i < n; i++) {
		if (prefix && strncmp(ids[i], prefix, strlen(prefix)) != 0)
			continue;
		wb_buf_printf(&b, "%s%s", b.len ? ", " : "", ids[i]);
	}
	return b.data ? wb_buf_steal(&b) : wb_xstrdup("none");
}

const char *cli_chapter_pick(const char *cmd, const char *word, const char *const *ids, size_t n)
{
	struct chapter_info *items = wb_xcalloc(n + 1, sizeof *items);
	for (size_t i = 0; i < n; i++)
		items[i].id = (char *)ids[i];
	struct chapter_list l = {items, n};
	size_t k = 0;
	int rc = content_find_chapter(&l, word, &k);
	free(items);
	if (rc == 0)
		return ids[k];
	char *list = join(ids, n, rc == WB_EINVAL ? word : NULL);
	if (rc == WB_EINVAL) {
		fprintf(stderr, "workbench %s: '%s' names several chapters: %s\n", cmd, word, list);
	} else {
		const char *near = suggest_closest(word, ids, n);
		fprintf(stderr, "workbench %s: no chapter '%s'%s%s%s; chapters: %s\n", cmd, word,
			near ? " (did you mean " : "", near ? near : "", near ? "?)" : "", list);
	}
	free(list);
	return NULL;
}

int cli_chapter_lesson(struct app *app, const char *cmd, const char *word, char **id)
{
	struct chapter_list l;
	*id = NULL;
	if (content_list_chapters(app->content, app->lang, &l) != 0 || l.n == 0) {
		chapter_list_free(&l);
		if (content_list_chapters(app->content, "en", &l) != 0 || l.n == 0) {
			chapter_list_free(&l);
			fprintf(stderr,
				"workbench %s: no lessons in this content folder (use --content "
				"DIR)\n",
				cmd);
			return EXIT_FAIL;
		}
	}
	const char **ids = wb_xcalloc(l.n + 1, sizeof *ids);
	for (size_t i = 0; i < l.n; i++)
		ids[i] = l.items[i].id;
	const char *got = cli_chapter_pick(cmd, word, ids, l.n);
	if (got)
		*id = wb_xstrdup(got);
	free(ids);
	chapter_list_free(&l);
	return got ? 0 : EXIT_USAGE;
}
