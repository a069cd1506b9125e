/*
 * cli/quizcmd.c - helpers the quiz and progress commands share (see
 * quizcmd.h).  It prints only the store's open error; it does not parse
 * arguments or banks itself.
 */
#include "cli/quizcmd.h"
#include "cli/chapter.h"
#include "core/content.h"
#include "core/quizbank.h"
#include "core/quizlint.h"
#include "core/store.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int quizcmd_open_store(struct app *app, struct store **st)
{
	char err[STORE_ERRLEN];
	if (store_open(app->db_path, st, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	return 0;
}

int quizcmd_open_existing(struct app *app, struct store **st)
{
	char err[STORE_ERRLEN];
	if (store_open_existing(app->db_path, st, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	return 0;
}

void quizcmd_bank_files(struct app *app, char ***files, size_t *n)
{
	char *dirs[2] = {NULL, NULL};
	size_t nd = quiz_bank_dirs(app->content, app->quizzes, dirs);
	for (size_t i = 0; i < nd; i++) {
		quizlint_expand(dirs[i], files, n);
		free(dirs[i]);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *quizcmd_bank_chapter(const char *cmd, const struct quiz_bank *b, const char *word)
{
	const char **ids = wb_xcalloc(b->n + 1, sizeof *ids);
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++) {
		const char *c = b->q[i]->file->chapter;
		int seen = 0;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp(ids[k], c);
		if (!seen)
			ids[n++] = c;
	}
	qsort(ids, n, sizeof *ids, cmp_str);
	const char *got = cli_chapter_pick(cmd, word, ids, n);
	free(ids);
	return got;
}

char *quizcmd_chapter_title(struct app *app, const char *lang, const char *chapter)
{
	struct chapter_list l;
	char *title = NULL;
	const char *langs[] = {lang, "en", "zh"};
	for (size_t k = 0; k < WB_ARRAY_LEN(langs) && !title; k++) {
		if (content_list_chapters(app->content, langs[k], &l) != 0)
			continue;
		for (size_t i = 0; i < l.n && !title; i++)
			if (!strcmp(l.items[i].id, chapter))
				title = wb_xstrdup(l.items[i].title);
		chapter_list_free(&l);
	}
	return title;
}
