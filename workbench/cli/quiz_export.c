/*
 * cli/quiz_export.c - `workbench quiz export --anki FILE [--force]
 * [CHAPTER]`: every question as an Anki note, tab-separated
 * front/back/tags/guid with HTML rendered by cmark-gfm ("-" writes to
 * stdout); CHAPTER may be a unique prefix.  The guid is
 * workbench-<lang>-<question id>, stable across exports, so Anki updates
 * the notes of an earlier import instead of adding duplicates.  An
 * existing FILE is only overwritten with --force.  It does not talk to
 * Anki.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/lesson.h"
#include "core/quizbank.h"
#include "core/textsafe.h"
#include "base/wb.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Markdown to one-line HTML: newlines become <br> inside <pre>, nothing
 * elsewhere; tabs become spaces so the TSV stays intact.  Control
 * characters, escapes and bidi controls of the bank become the visible
 * placeholders of core/textsafe first: the file is read by Anki and by
 * whatever terminal someone cats it to. */
static void md_html(struct wb_buf *out, const char *md)
{
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	lesson_attach_extensions(p);
	char *safe = textsafe_str(md ? md : "");
	cmark_parser_feed(p, safe, strlen(safe));
	free(safe);
	cmark_node *doc = cmark_parser_finish(p);
	char *html =
		cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p));
	int pre = 0;
	for (const char *c = html; *c; c++) {
		if (!strncmp(c, "<pre", 4))
			pre = 1;
		else if (!strncmp(c, "</pre>", 6))
			pre = 0;
		if (*c == '\n')
			wb_buf_puts(out, pre ? "<br>" : "");
		else if (*c == '\t')
			wb_buf_puts(out, "    ");
		else if (*c != '\r')
			wb_buf_append(out, c, 1);
	}
	free(html);
	cmark_node_free(doc);
	cmark_parser_free(p);
}

/* md as HTML without the <p> wrapper of a one-paragraph text (an option,
 * a rubric item). */
static void md_inline_html(struct wb_buf *out, const char *md)
{
	struct wb_buf it = {0};
	md_html(&it, md);
	char *s = it.data ? it.data : "";
	size_t len = strlen(s);
	if (len >= 7 && !strncmp(s, "<p>", 3) && !strcmp(s + len - 4, "</p>"))
		wb_buf_append(out, s + 3, len - 7);
	else
		wb_buf_puts(out, s);
	wb_buf_free(&it);
}

/* The question, its body and (choice) the numbered options. */
static void front_html(struct wb_buf *front, const struct quiz_question *q)
{
	md_html(front, q->text);
	if (*q->body)
		md_html(front, q->body);
	if (q->kind != QK_CHOICE)
		return;
	wb_buf_puts(front, "<ol>");
	for (size_t k = 0; k < q->noptions; k++) {
		wb_buf_puts(front, "<li>");
		md_inline_html(front, q->options[k].text);
		wb_buf_puts(front, "</li>");
	}
	wb_buf_puts(front, "</ol>");
}

/* The correct options or number, the answer and the rubric. */
static void back_html(struct wb_buf *back, const struct quiz_question *q)
{
	if (q->kind == QK_CHOICE) {
		wb_buf_puts(back, "<p>");
		for (size_t k = 0, first = 1; k < q->noptions; k++)
			if (q->options[k].correct) {
				wb_buf_printf(back, "%s%zu", first ? "" : ", ", k + 1);
				first = 0;
			}
		wb_buf_puts(back, "</p>");
	} else if (q->kind == QK_NUMERIC) {
		wb_buf_printf(back, "<p><b>%.15g</b>", q->number);
		if (q->tolerance > 0)
			wb_buf_printf(back, " ± %.15g", q->tolerance);
		wb_buf_puts(back, "</p>");
	}
	md_html(back, q->answer);
	if (!q->nrubric)
		return;
	wb_buf_puts(back, "<ul>");
	for (size_t k = 0; k < q->nrubric; k++) {
		wb_buf_printf(back, "<li>%d: ", q->rubric[k].points);
		md_inline_html(back, q->rubric[k].text);
		wb_buf_puts(back, "</li>");
	}
	wb_buf_puts(back, "</ul>");
}

/* The export's file: stdout for "-"; a new file, or with force an
 * existing one truncated.  Returns NULL after printing why. */
static FILE *open_out(const char *file, int force)
{
	if (!strcmp(file, "-"))
		return stdout;
	int fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL), 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f)
		return f;
	if (errno == EEXIST)
		fprintf(stderr, "workbench: %s exists; add --force to overwrite it\n", file);
	else
		fprintf(stderr, "workbench: cannot write %s: %s\n", file, strerror(errno));
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int quiz_export(struct app *app, const struct args *args)
{
	const char *file = args_value(args, "--anki");
	const char *chapter = NULL;
	if (!file)
		return command_usage_error(&cmd_quiz_export, "%s", "--anki FILE is required");
	struct quiz_bank *b;
	quiz_bank_open(app->content, app->quizzes, app->lang, &b);
	if (args->argc && !(chapter = quizcmd_bank_chapter("quiz export", b, args->argv[0]))) {
		quiz_bank_free(b);
		return EXIT_FAIL;
	}
	FILE *f = open_out(file, args_has(args, "--force"));
	if (!f) {
		quiz_bank_free(b);
		return EXIT_FAIL;
	}
	fputs("#separator:tab\n#html:true\n#tags column:3\n#guid column:4\n", f);
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct quiz_question *q = b->q[i];
		if (chapter && strcmp(q->file->chapter, chapter) != 0)
			continue;
		struct wb_buf front = {0}, back = {0};
		front_html(&front, q);
		back_html(&back, q);
		fprintf(f, "%s\t%s\tworkbench %s %s lang-%s\tworkbench-%s-%s\n",
			front.data ? front.data : "", back.data ? back.data : "", q->file->chapter,
			quiz_kind_name(q->kind), b->lang, b->lang, q->id);
		wb_buf_free(&front);
		wb_buf_free(&back);
		n++;
	}
	int bad = ferror(f);
	if (f != stdout)
		bad |= fclose(f) != 0;
	quiz_bank_free(b);
	if (bad) {
		fprintf(stderr, "workbench: cannot write %s\n", file);
		return EXIT_FAIL;
	}
	fprintf(stderr, "quiz export: %zu notes written to %s\n", n, file);
	return EXIT_OK;
}

const struct command cmd_quiz_export = {
	.name = "quiz",
	.sub = "export",
	.args = {.opts = "--anki= --force", .upper = 1},
	.usage = "--anki FILE [--force] [CHAPTER]",
	.help = "front/back/tags/guid for Anki, tab-separated",
	.more = "An existing FILE is overwritten only with --force.  Each note's guid is\n"
		"workbench-<lang>-<question id>: importing a later export into Anki updates\n"
		"the notes instead of adding duplicates.\n",
	.run = quiz_export,
};
