/*
 * cli/quiz_list.c - `workbench quiz list [CHAPTER]`: id, kind, chapter and
 * question text of every question in the banks, tab-separated, in the
 * bank's order; CHAPTER may be a unique prefix.  Questions with errors are left out and counted; it
 * does not say why (`quiz lint` does).
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/quizbank.h"

#include <stdio.h>
#include <string.h>

static int quiz_list(struct app *app, const struct args *args)
{
	const char *chapter = NULL;
	struct quiz_bank *b;
	quiz_bank_open(app->content, app->quizzes, app->lang, &b);
	if (args->argc && !(chapter = quizcmd_bank_chapter("quiz list", b, args->argv[0]))) {
		quiz_bank_free(b);
		return EXIT_FAIL;
	}
	size_t shown = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct quiz_question *q = b->q[i];
		if (chapter && strcmp(q->file->chapter, chapter) != 0)
			continue;
		printf("%s\t%s\t%s\t%s\n", q->id, quiz_kind_name(q->kind), q->file->chapter,
		       q->text);
		shown++;
	}
	if (b->skipped)
		fprintf(stderr,
			"workbench: %zu question%s with errors or duplicate ids left out (see "
			"`workbench quiz lint`)\n",
			b->skipped, b->skipped == 1 ? "" : "s");
	int rc = chapter && shown == 0 ? EXIT_FAIL : EXIT_OK;
	if (rc)
		fprintf(stderr, "workbench: no questions for chapter '%s' in %s\n", chapter,
			app->lang);
	quiz_bank_free(b);
	return rc;
}

const struct command cmd_quiz_list = {
	.name = "quiz",
	.sub = "list",
	.args = {.upper = 1},
	.usage = "[CHAPTER]",
	.help = "id, kind, chapter and question text",
	.run = quiz_list,
};
