/*
 * cli/quiz.c - `workbench quiz ...`: instructor tools for question banks
 * (lint, new, list, stats, export --anki) and the plain-text self-test
 * (`quiz run CHAPTER --plain`) for scripts and screen readers.
 *
 * The plain runner drives the same session model as the TUI
 * (core/answers.h), line by line on stdin/stdout, so its answers, grades,
 * resume and undo behave exactly as on screen.  This file does not parse
 * Markdown beyond handing it to cmark-gfm for the Anki export.
 */
#include "app.h"
#include "core/answers.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/session.h"
#include "core/content.h"
#include "core/i18n.h"
#include "core/lesson.h"
#include "core/quizbank.h"
#include "core/quizlint.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void quiz_usage(FILE *f)
{
	fputs("usage:\n"
	      "  workbench quiz lint [PATH...]           check banks (default: shipped and the\n"
	      "                                          instructor's); file:line: messages,\n"
	      "                                          exit 1 on any error\n"
	      "  workbench quiz new CHAPTER [--lang L]   append a template question with a fresh\n"
	      "                                          id to the instructor's file, open "
	      "$EDITOR\n"
	      "  workbench quiz list [CHAPTER]           id, kind, chapter and question text\n"
	      "  workbench quiz stats                    attempts, mean points and grade spread\n"
	      "                                          per question (every learner imported)\n"
	      "  workbench quiz run CHAPTER|--due --plain [--limit N] [--open-book] [--abandon]\n"
	      "                                          the self-test on stdin/stdout\n"
	      "  workbench quiz export --anki FILE [CHAPTER]\n"
	      "                                          tab-separated front/back/tags for Anki\n"
	      "Banks: <content>/quizzes/<lang>/ and the instructor's folder (--quizzes DIR,\n"
	      "default $XDG_DATA_HOME/workbench/quizzes), each with en/ and zh/ subfolders.\n",
	      f);
}

static int open_store(struct app *app, struct store **st)
{
	char err[512];
	if (store_open(app->db_path, st, err, sizeof err) != 0) {
		fprintf(stderr, "workbench: %s\n", err);
		return EXIT_FAIL;
	}
	return 0;
}

static void push_str(char ***v, size_t *n, char *s)
{
	*v = wb_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

/* Every bank file of the shipped and the instructor's folders. */
static void standard_files(struct app *app, char ***files, size_t *n)
{
	char *dirs[2] = {NULL, NULL};
	size_t nd = quiz_bank_dirs(app->content, app->quizzes, dirs);
	for (size_t i = 0; i < nd; i++) {
		quizlint_expand(dirs[i], files, n);
		free(dirs[i]);
	}
}

/* ---- lint ---- */

static int quiz_lint(struct app *app, int argc, char **argv)
{
	char **targets = NULL, **context = NULL;
	size_t nt = 0, nc = 0;
	int rc = EXIT_OK;
	for (int i = 0; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "workbench quiz lint: unknown option '%s'\n", argv[i]);
			rc = EXIT_USAGE;
			goto out;
		}
		if (quizlint_expand(argv[i], &targets, &nt) != 0) {
			fprintf(stderr, "workbench quiz lint: %s: no such file or folder\n",
				argv[i]);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	standard_files(app, &context, &nc);
	if (argc == 0)
		for (size_t i = 0; i < nc; i++)
			push_str(&targets, &nt, wb_xstrdup(context[i]));
	struct quizlint_report r;
	quizlint_run(app->content, app->lang, (const char *const *)targets, nt,
		     (const char *const *)context, nc, &r);
	for (size_t i = 0; i < r.n; i++)
		printf("%s:%d: %s: %s\n", r.m[i].file, r.m[i].line,
		       r.m[i].is_error ? "error" : "warning", r.m[i].msg);
	fprintf(stderr, "quiz lint: %zu file%s, %d error%s, %d warning%s\n", nt, nt == 1 ? "" : "s",
		r.errors, r.errors == 1 ? "" : "s", r.warnings, r.warnings == 1 ? "" : "s");
	rc = r.errors ? EXIT_FAIL : EXIT_OK;
	quizlint_report_free(&r);
out:
	quizlint_free_list(targets, nt);
	quizlint_free_list(context, nc);
	return rc;
}

/* ---- new ---- */

static char *chapter_title(struct app *app, const char *lang, const char *chapter)
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

/* True when id is used in any bank file of either language. */
static int id_taken(struct quiz_file **files, size_t n, const char *id)
{
	for (size_t f = 0; f < n; f++)
		for (size_t k = 0; k < files[f]->nq; k++)
			if (files[f]->q[k].id && !strcmp(files[f]->q[k].id, id))
				return 1;
	return 0;
}

/* Editors that understand "+LINE FILE" (the vi convention). */
static int takes_line(const char *ed)
{
	static const char *known[] = {"vi",    "vim",	      "nvim",  "view", "nano",
				      "emacs", "emacsclient", "micro", "joe",  "mg",
				      "kak",   "ne",	      "jed"};
	size_t n = strcspn(ed, " \t");
	const char *base = ed;
	for (size_t i = 0; i < n; i++)
		if (ed[i] == '/')
			base = ed + i + 1;
	size_t len = (size_t)(ed + n - base);
	for (size_t i = 0; i < WB_ARRAY_LEN(known); i++)
		if (strlen(known[i]) == len && !strncmp(base, known[i], len))
			return 1;
	return 0;
}

/* Runs the editor command ed (it may carry arguments, "code -w") on path
 * and waits.  Returns 0 when it exits with status 0, -1 otherwise. */
static int run_editor(const char *ed, const char *path, int line)
{
	char linearg[32];
	snprintf(linearg, sizeof linearg, "+%d", line);
	setenv("WB_EDITOR", ed, 1);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (takes_line(ed))
			execl("/bin/sh", "sh", "-c", "exec $WB_EDITOR \"$1\" \"$2\"", "sh", linearg,
			      path, (char *)NULL);
		else
			execl("/bin/sh", "sh", "-c", "exec $WB_EDITOR \"$1\"", "sh", path,
			      (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int quiz_new(struct app *app, int argc, char **argv)
{
	if (argc != 1) {
		fprintf(stderr, "usage: workbench quiz new CHAPTER [--lang en|zh]\n");
		return EXIT_USAGE;
	}
	const char *chapter = argv[0];
	if (!content_valid_chapter_id(chapter)) {
		fprintf(stderr, "workbench: '%s' is not a chapter id (see `workbench lessons`)\n",
			chapter);
		return EXIT_USAGE;
	}
	char *title = chapter_title(app, app->lang, chapter);
	if (!title) {
		fprintf(stderr, "workbench: unknown chapter '%s': no %s/lessons/<lang>/%s.md\n",
			chapter, app->content, chapter);
		return EXIT_FAIL;
	}
	char **paths = NULL;
	size_t np = 0;
	standard_files(app, &paths, &np);
	struct quiz_file **files = wb_xcalloc(np + 1, sizeof *files);
	size_t nf = 0;
	for (size_t i = 0; i < np; i++)
		if (quiz_load_file(paths[i], app->lang, &files[nf]) == 0)
			nf++;
	char id[QUIZ_ID_MAX + 1];
	for (int k = 1;; k++) {
		snprintf(id, sizeof id, "q-%.2s-%d", chapter, k);
		if (!id_taken(files, nf, id))
			break;
	}
	for (size_t i = 0; i < nf; i++)
		quiz_file_free(files[i]);
	free(files);
	quizlint_free_list(paths, np);

	char *dir = wb_xasprintf("%s/%s", app->quizzes, app->lang);
	char *path = wb_xasprintf("%s/%s.md", dir, chapter);
	int rc = EXIT_OK;
	char *old = NULL;
	size_t oldlen = 0;
	int exists = wb_read_file(path, &old, &oldlen) == 0;
	if (wb_mkdir_p(dir, 0755) != 0) {
		fprintf(stderr, "workbench: cannot create %s\n", dir);
		rc = EXIT_FAIL;
		goto out;
	}
	FILE *f = fopen(path, "a");
	if (!f) {
		fprintf(stderr, "workbench: cannot write %s: %s\n", path, strerror(errno));
		rc = EXIT_FAIL;
		goto out;
	}
	int line = 1;
	if (!exists || oldlen == 0) {
		fprintf(f, "# %s%s\n", !strcmp(app->lang, "zh") ? "自测：" : "Self-test: ", title);
		line = 2;
	} else {
		for (size_t i = 0; i < oldlen; i++)
			line += old[i] == '\n';
		if (old[oldlen - 1] != '\n') {
			fputc('\n', f);
			line++;
		}
	}
	fprintf(f,
		"\n## [%s] Write the question here, on one line\n"
		"kind: recall\n"
		"\n"
		"### Answer\n"
		"Write the reference answer here.\n"
		"\n"
		"### Rubric\n"
		"- 1: one checkable idea the answer must contain\n",
		id);
	line++;
	if (fclose(f) != 0) {
		fprintf(stderr, "workbench: cannot write %s\n", path);
		rc = EXIT_FAIL;
		goto out;
	}
	printf("%s:%d: new question [%s]\n", path, line, id);
	fflush(stdout);
	const char *ed = getenv("VISUAL");
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (ed && *ed) {
		if (run_editor(ed, path, line) < 0) {
			fprintf(stderr, "workbench: the editor (%s) failed\n", ed);
			rc = EXIT_FAIL;
		}
	}
out:
	free(old);
	free(title);
	free(dir);
	free(path);
	return rc;
}

/* ---- list ---- */

static int quiz_list(struct app *app, int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "usage: workbench quiz list [CHAPTER]\n");
		return EXIT_USAGE;
	}
	struct quiz_bank *b;
	quiz_bank_open(app->content, app->quizzes, app->lang, &b);
	size_t shown = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct quiz_question *q = b->q[i];
		if (argc == 1 && strcmp(q->file->chapter, argv[0]) != 0)
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
	int rc = argc == 1 && shown == 0 ? EXIT_FAIL : EXIT_OK;
	if (rc)
		fprintf(stderr, "workbench: no questions for chapter '%s' in %s\n", argv[0],
			app->lang);
	quiz_bank_free(b);
	return rc;
}

/* ---- stats ---- */

static int quiz_stats(struct app *app, int argc, char **argv)
{
	(void)argv;
	if (argc) {
		fprintf(stderr, "usage: workbench quiz stats\n");
		return EXIT_USAGE;
	}
	struct store *st;
	if (open_store(app, &st))
		return EXIT_FAIL;
	struct answers_qstat *qs;
	size_t n;
	int err = answers_question_stats(st, &qs, &n);
	if (err) {
		fprintf(stderr, "workbench: cannot read answers: %s\n", store_errmsg(st));
		store_close(st);
		return EXIT_FAIL;
	}
	if (n == 0)
		printf("no graded answers yet\n");
	else
		printf("%-34s %-22s %8s %6s %6s %6s %6s  %s\n", "question", "chapter", "attempts",
		       "mean", "again", "partly", "got", "note");
	for (size_t i = 0; i < n; i++) {
		const struct answers_qstat *q = &qs[i];
		/* Rough flags to point an instructor at questions worth a look. */
		const char *note = "";
		double got = q->attempts ? (double)q->grades[3] / q->attempts : 0;
		double again = q->attempts ? (double)q->grades[1] / q->attempts : 0;
		if (q->attempts >= 3 && got >= 0.9 && q->mean_share >= 0.9)
			note = "too easy?";
		else if (q->attempts >= 3 && q->mean_share < 0.3)
			note = "too hard?";
		else if (q->attempts >= 4 && got >= 0.25 && again >= 0.25)
			note = "unclear? (grades split)";
		printf("%-34s %-22s %8d %5.0f%% %6d %6d %6d  %s\n", q->question, q->chapter,
		       q->attempts, q->mean_share * 100, q->grades[1], q->grades[2], q->grades[3],
		       note);
	}
	answers_question_stats_free(qs, n);
	store_close(st);
	return EXIT_OK;
}

/* ---- export --anki ---- */

/* Markdown to one-line HTML: newlines become <br> inside <pre>, nothing
 * elsewhere; tabs become spaces so the TSV stays intact. */
static void md_html(struct wb_buf *out, const char *md)
{
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	lesson_attach_extensions(p);
	cmark_parser_feed(p, md, strlen(md));
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

static int quiz_export(struct app *app, int argc, char **argv)
{
	const char *file = NULL, *chapter = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--anki") && i + 1 < argc)
			file = argv[++i];
		else if (!strncmp(argv[i], "--anki=", 7))
			file = argv[i] + 7;
		else if (argv[i][0] != '-' && !chapter)
			chapter = argv[i];
		else {
			fprintf(stderr, "usage: workbench quiz export --anki FILE [CHAPTER]\n");
			return EXIT_USAGE;
		}
	}
	if (!file) {
		fprintf(stderr, "usage: workbench quiz export --anki FILE [CHAPTER]\n");
		return EXIT_USAGE;
	}
	struct quiz_bank *b;
	quiz_bank_open(app->content, app->quizzes, app->lang, &b);
	FILE *f = strcmp(file, "-") ? fopen(file, "w") : stdout;
	if (!f) {
		fprintf(stderr, "workbench: cannot write %s: %s\n", file, strerror(errno));
		quiz_bank_free(b);
		return EXIT_FAIL;
	}
	fputs("#separator:tab\n#html:true\n#tags column:3\n", f);
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct quiz_question *q = b->q[i];
		if (chapter && strcmp(q->file->chapter, chapter) != 0)
			continue;
		struct wb_buf front = {0}, back = {0};
		md_html(&front, q->text);
		if (*q->body)
			md_html(&front, q->body);
		if (q->kind == QK_CHOICE) {
			wb_buf_puts(&front, "<ol>");
			for (size_t k = 0; k < q->noptions; k++) {
				wb_buf_puts(&front, "<li>");
				struct wb_buf opt = {0};
				md_html(&opt, q->options[k].text);
				/* An option is one paragraph: drop the <p> wrapper. */
				char *s = opt.data ? opt.data : "";
				size_t len = strlen(s);
				if (len >= 7 && !strncmp(s, "<p>", 3) &&
				    !strcmp(s + len - 4, "</p>"))
					wb_buf_append(&front, s + 3, len - 7);
				else
					wb_buf_puts(&front, s);
				wb_buf_free(&opt);
				wb_buf_puts(&front, "</li>");
			}
			wb_buf_puts(&front, "</ol>");
			wb_buf_puts(&back, "<p>");
			for (size_t k = 0, first = 1; k < q->noptions; k++)
				if (q->options[k].correct) {
					wb_buf_printf(&back, "%s%zu", first ? "" : ", ", k + 1);
					first = 0;
				}
			wb_buf_puts(&back, "</p>");
		} else if (q->kind == QK_NUMERIC) {
			wb_buf_printf(&back, "<p><b>%.15g</b>", q->number);
			if (q->tolerance > 0)
				wb_buf_printf(&back, " ± %.15g", q->tolerance);
			wb_buf_puts(&back, "</p>");
		}
		md_html(&back, q->answer);
		if (q->nrubric) {
			wb_buf_puts(&back, "<ul>");
			for (size_t k = 0; k < q->nrubric; k++) {
				struct wb_buf it = {0};
				md_html(&it, q->rubric[k].text);
				char *s = it.data ? it.data : "";
				size_t len = strlen(s);
				wb_buf_printf(&back, "<li>%d: ", q->rubric[k].points);
				if (len >= 7 && !strncmp(s, "<p>", 3) &&
				    !strcmp(s + len - 4, "</p>"))
					wb_buf_append(&back, s + 3, len - 7);
				else
					wb_buf_puts(&back, s);
				wb_buf_puts(&back, "</li>");
				wb_buf_free(&it);
			}
			wb_buf_puts(&back, "</ul>");
		}
		fprintf(f, "%s\t%s\tworkbench %s %s lang-%s\n", front.data ? front.data : "",
			back.data ? back.data : "", q->file->chapter, quiz_kind_name(q->kind),
			b->lang);
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

/* ---- run --plain ---- */

enum { IN_LINE, IN_EOF, IN_UNDO, IN_QUIT, IN_ABANDON };

struct plain {
	struct app *app;
	const char *lang; /* the test's language */
	struct store *st;
	struct quiz_session *ss;
	char *line; /* last line read (getline buffer) */
	size_t cap;
};

/* Reads a line into p->line (newline stripped); recognises the commands. */
static int read_in(struct plain *p)
{
	fflush(stdout);
	ssize_t n = getline(&p->line, &p->cap, stdin);
	if (n < 0)
		return IN_EOF;
	while (n > 0 && (p->line[n - 1] == '\n' || p->line[n - 1] == '\r'))
		p->line[--n] = '\0';
	if (!utf8_valid(p->line, strlen(p->line))) {
		/* Answers are stored as UTF-8: a stray byte becomes U+FFFD
		 * instead of costing the learner the answer. */
		char *fixed = utf8_repair(p->line, strlen(p->line));
		free(p->line);
		p->line = fixed;
		p->cap = strlen(fixed) + 1;
	}
	if (!strcmp(p->line, ":undo"))
		return IN_UNDO;
	if (!strcmp(p->line, ":quit"))
		return IN_QUIT;
	if (!strcmp(p->line, ":abandon"))
		return IN_ABANDON;
	return IN_LINE;
}

static void print_indented(const char *text)
{
	const char *s = text;
	while (*s) {
		size_t n = strcspn(s, "\n");
		printf("  %.*s\n", (int)n, s);
		s += n;
		if (*s)
			s++;
	}
}

/* Parses "1 3" into marks[0..n); "all" marks everything.  Returns the
 * count marked, or -1 for bad input. */
static int parse_numbers(const char *s, unsigned char *marks, size_t n, int allow_all)
{
	memset(marks, 0, n ? n : 1);
	while (isspace((unsigned char)*s))
		s++;
	if (allow_all && !strcmp(s, "all")) {
		memset(marks, 1, n);
		return (int)n;
	}
	int count = 0;
	while (*s) {
		if (*s == ',' || isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v < 1 || (size_t)v > n)
			return -1;
		if (!marks[v - 1])
			count++;
		marks[v - 1] = 1;
		s = end;
	}
	return count;
}

static char *marks_text(const unsigned char *m, size_t n)
{
	struct wb_buf b = {0};
	for (size_t i = 0; i < n; i++)
		if (m[i])
			wb_buf_printf(&b, "%s%zu", b.len ? "," : "", i + 1);
	return wb_buf_steal(&b);
}

static const char *grade_name(const char *lang, int g)
{
	return i18n(lang, g == GRADE_GOT      ? M_GRADE_GOT
			  : g == GRADE_PARTLY ? M_GRADE_PARTLY
					      : M_GRADE_AGAIN);
}

/* The database stayed locked past the busy timeout (another workbench
 * holds a write transaction).  Says so and offers choice (what Enter
 * and :quit do).  Returns 1 to try
 * again, 0 when the learner chose to stop (or input ended). */
static int busy_ask(struct plain *p, enum msg choice)
{
	printf("%s\n%s\n", i18n(p->lang, M_QUIZ_BUSY), i18n(p->lang, choice));
	int in = read_in(p);
	return in == IN_LINE || in == IN_UNDO;
}

/* Asks one question; fills a.  Returns IN_LINE when graded, or the
 * command / IN_EOF that interrupted it. */
static int ask(struct plain *p, const struct quiz_question *q, struct answer *a)
{
	const char *L = p->lang;
	int in;
	a->shown_at = answers_now_ms();
	if (q->kind == QK_RECALL) {
		printf("%s\n", i18n(L, M_PLAIN_WRITE));
		struct wb_buf b = {0};
		int first = 1, wrote = 1;
		for (;;) {
			if ((in = read_in(p)) != IN_LINE) {
				wb_buf_free(&b);
				return in;
			}
			if (!strcmp(p->line, ".")) {
				wrote = !first;
				break;
			}
			if (!first)
				wb_buf_puts(&b, "\n");
			wb_buf_puts(&b, p->line);
			first = 0;
		}
		a->text = wrote ? wb_buf_steal(&b) : NULL;
		wb_buf_free(&b);
		a->revealed_at = answers_now_ms();
		printf("%s:\n", i18n(L, M_QUIZ_REFERENCE));
		print_indented(q->answer);
		printf("%s:\n", i18n(L, M_QUIZ_RUBRIC));
		for (size_t i = 0; i < q->nrubric; i++)
			printf("  %zu. (%d) %s\n", i + 1, q->rubric[i].points, q->rubric[i].text);
		unsigned char *ticked = wb_xcalloc(q->nrubric + 1, 1);
		for (;;) {
			printf("%s\n", i18n(L, M_PLAIN_TICK));
			if ((in = read_in(p)) != IN_LINE) {
				free(ticked);
				return in;
			}
			if (parse_numbers(p->line, ticked, q->nrubric, 1) >= 0)
				break;
			printf(i18n(L, M_PLAIN_BAD_INPUT), q->nrubric);
			printf("\n");
		}
		int pts;
		int suggested = quiz_suggest_grade(q, ticked, &pts);
		printf(i18n(L, M_QUIZ_SUGGESTED), grade_name(L, suggested), pts, q->max_points);
		printf("\n  %s\n  %s\n  %s\n", i18n(L, M_GRADE_AGAIN_MEANS),
		       i18n(L, M_GRADE_PARTLY_MEANS), i18n(L, M_GRADE_GOT_MEANS));
		int grade = 0;
		while (!grade) {
			printf(i18n(L, M_PLAIN_GRADE), grade_name(L, suggested));
			printf("\n");
			if ((in = read_in(p)) != IN_LINE) {
				free(ticked);
				return in;
			}
			const char *s = p->line;
			while (isspace((unsigned char)*s))
				s++;
			grade = !*s			   ? suggested
				: (*s == 'a' || *s == '1') ? GRADE_AGAIN
				: (*s == 'p' || *s == '2') ? GRADE_PARTLY
				: (*s == 'g' || *s == '3') ? GRADE_GOT
							   : 0;
		}
		a->ticked = marks_text(ticked, q->nrubric);
		free(ticked);
		a->points = pts;
		a->grade = grade;
		a->graded_at = answers_now_ms();
		return IN_LINE;
	}
	int correct;
	if (q->kind == QK_CHOICE) {
		printf("%s (%s):\n", i18n(L, M_QUIZ_OPTIONS), i18n(L, M_QUIZ_CHOICE_MULTI));
		for (size_t i = 0; i < q->noptions; i++)
			printf("  %zu. %s\n", i + 1, q->options[i].text);
		unsigned char *picked = wb_xcalloc(q->noptions + 1, 1);
		for (;;) {
			printf("%s\n", i18n(L, M_PLAIN_CHOOSE));
			if ((in = read_in(p)) != IN_LINE) {
				free(picked);
				return in;
			}
			if (parse_numbers(p->line, picked, q->noptions, 0) > 0)
				break;
			printf(i18n(L, M_PLAIN_BAD_INPUT), q->noptions);
			printf("\n");
		}
		correct = quiz_grade_choice(q, picked);
		a->text = marks_text(picked, q->noptions);
		free(picked);
		unsigned char *right = wb_xcalloc(q->noptions + 1, 1);
		for (size_t i = 0; i < q->noptions; i++)
			right[i] = q->options[i].correct != 0;
		char *r = marks_text(right, q->noptions);
		free(right);
		printf("%s. ", i18n(L, correct ? M_QUIZ_CORRECT : M_QUIZ_WRONG));
		printf(i18n(L, M_PLAIN_CORRECT_OPTIONS), r);
		printf("\n");
		free(r);
	} else {
		double v;
		for (;;) {
			printf("%s\n", i18n(L, M_QUIZ_NUMERIC_PROMPT));
			if ((in = read_in(p)) != IN_LINE)
				return in;
			int g = quiz_grade_numeric(q, p->line, &v);
			if (g >= 0) {
				correct = g;
				break;
			}
			printf(i18n(L, M_QUIZ_NOT_NUMBER), p->line);
			printf("\n");
		}
		a->text = wb_xstrdup(p->line);
		char expect[64];
		if (q->tolerance > 0)
			snprintf(expect, sizeof expect, "%.15g ± %.15g", q->number, q->tolerance);
		else
			snprintf(expect, sizeof expect, "%.15g", q->number);
		printf("%s. ", i18n(L, correct ? M_QUIZ_CORRECT : M_QUIZ_WRONG));
		printf(i18n(L, M_QUIZ_EXPECTED), expect);
		printf("\n");
	}
	a->revealed_at = a->graded_at = answers_now_ms();
	a->points = correct ? 1 : 0;
	a->grade = correct ? GRADE_GOT : GRADE_AGAIN;
	printf("%s:\n", i18n(L, M_QUIZ_REFERENCE));
	print_indented(q->answer);
	return IN_LINE;
}

static void print_summary(struct plain *p)
{
	const char *L = p->lang;
	struct answers_summary sum;
	if (answers_test_summary(p->st, p->ss->test->uid, &sum) != 0)
		return;
	printf("\n%s\n", i18n(L, M_QUIZ_SUMMARY));
	printf(i18n(L, M_QUIZ_POINTS), sum.points, sum.max_points,
	       sum.max_points ? sum.points * 100 / sum.max_points : 0);
	printf("\n%s %d · %s %d · %s %d\n", i18n(L, M_GRADE_AGAIN), sum.grades[GRADE_AGAIN],
	       i18n(L, M_GRADE_PARTLY), sum.grades[GRADE_PARTLY], i18n(L, M_GRADE_GOT),
	       sum.grades[GRADE_GOT]);
	int secs = (int)(sum.time_ms / 1000);
	printf(i18n(L, M_QUIZ_TIME), secs / 60, secs % 60);
	printf("\n");
	size_t shown = 0;
	for (size_t i = 0; i < sum.n && shown < 5; i++) {
		const struct answers_item *it = &sum.items[i];
		if (it->points >= it->max_points && it->grade == GRADE_GOT)
			break;
		if (shown++ == 0)
			printf("%s\n", i18n(L, M_QUIZ_WEAKEST));
		printf("  %d/%d  %-8s [%s] (%s)\n", it->points, it->max_points,
		       grade_name(L, it->grade), it->question, it->chapter);
	}
	if (!shown)
		printf("%s\n", i18n(L, M_QUIZ_ALL_GOT));
	answers_summary_free(&sum);
}

static int quiz_run(struct app *app, int argc, char **argv)
{
	const char *chapter = NULL;
	int plain = 0, due = 0, open_book = 0, abandon = 0;
	long limit = 0;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--plain"))
			plain = 1;
		else if (!strcmp(argv[i], "--due"))
			due = 1;
		else if (!strcmp(argv[i], "--open-book"))
			open_book = 1;
		else if (!strcmp(argv[i], "--abandon"))
			abandon = 1;
		else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
			limit = strtol(argv[++i], NULL, 10);
		else if (argv[i][0] != '-' && !chapter)
			chapter = argv[i];
		else {
			fprintf(stderr, "workbench quiz run: unexpected argument '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!plain || (!chapter == !due) || limit < 0) {
		fprintf(stderr, "usage: workbench quiz run CHAPTER|--due --plain [--limit N] "
				"[--open-book] [--abandon]\n"
				"(the interactive self-test is in `workbench`: s on a chapter)\n");
		return EXIT_USAGE;
	}
	if (chapter && !content_valid_chapter_id(chapter)) {
		fprintf(stderr, "workbench: '%s' is not a chapter id\n", chapter);
		return EXIT_USAGE;
	}
	struct plain p = {.app = app, .lang = app->lang};
	struct quiz_bank *bank = NULL;
	struct quiz_test *running = NULL;
	int rc = EXIT_OK, err;
	if (open_store(app, &p.st))
		return EXIT_FAIL;
	/* Looks for a running test, then resumes it or starts one.  Another
	 * workbench may start a test between the look and the start: the
	 * start sees it inside its transaction (WB_ECONFLICT) and we look
	 * again. */
	for (int attempt = 0;; attempt++) {
		quiz_test_free(running);
		running = NULL;
		err = answers_running_test(p.st, &running);
		if (err && err != WB_ENOENT) {
			fprintf(stderr, "workbench: cannot read the progress database: %s\n",
				store_errmsg(p.st));
			rc = EXIT_FAIL;
			goto out;
		}
		int same =
			running && (due ? !strcmp(running->kind, "review")
					: running->chapter && !strcmp(running->chapter, chapter));
		if (abandon) {
			if (!same) {
				fprintf(stderr, "workbench: no self-test of %s is in progress\n",
					due ? "due questions" : chapter);
				rc = EXIT_FAIL;
			} else {
				while ((err = answers_abandon_running(p.st, answers_now_ms())) ==
					       WB_EBUSY &&
				       busy_ask(&p, M_PLAIN_BUSY_CHOICE_STOP))
					;
				if (!err) {
					printf("%s\n", i18n(app->lang, M_QUIZ_ABANDONED));
				} else {
					printf("%s\n", i18n(app->lang, M_QUIZ_BUSY_NOTHING));
					rc = EXIT_FAIL;
				}
			}
			goto out;
		}
		if (running && !same) {
			fprintf(stderr,
				"workbench: another self-test is in progress (%s, %zu of %zu "
				"answered): finish it with `workbench quiz run %s --plain` or "
				"abandon "
				"it with `workbench quiz run %s --plain --abandon`\n",
				running->chapter ? running->chapter : "review", running->answered,
				running->n, running->chapter ? running->chapter : "--due",
				running->chapter ? running->chapter : "--due");
			rc = EXIT_FAIL;
			goto out;
		}
		if (running) {
			p.lang = !strcmp(running->lang, "zh") ? "zh" : "en";
			quiz_bank_free(bank);
			quiz_bank_open(app->content, app->quizzes, p.lang, &bank);
			err = quiz_session_resume(p.st, bank, &p.ss);
			if (err == WB_ENOENT && attempt < 3)
				continue; /* ended by another workbench in between */
			if (err) {
				fprintf(stderr, "workbench: cannot resume the test: %s\n",
					store_errmsg(p.st));
				rc = EXIT_FAIL;
				goto out;
			}
			printf(i18n(p.lang, M_QUIZ_RESUMED), quiz_session_answered(p.ss),
			       p.ss->test->n);
			printf("\n");
			break;
		}
		quiz_bank_free(bank);
		quiz_bank_open(app->content, app->quizzes, p.lang, &bank);
		const struct quiz_question **qs = NULL;
		size_t n = 0;
		if (due) {
			int64_t now = answers_now_ms() / 1000;
			answers_due(p.st, bank, answers_day_start(now, 1), &qs, &n);
		} else {
			n = quiz_bank_chapter(bank, chapter, &qs);
		}
		if (n == 0) {
			if (due)
				printf("%s\n", i18n(p.lang, M_QUIZ_NONE_DUE));
			else
				fprintf(stderr, "workbench: chapter %s has no questions in %s\n",
					chapter, p.lang);
			rc = due ? EXIT_OK : EXIT_FAIL;
			free(qs);
			goto out;
		}
		uint64_t seed = answers_random_seed();
		err = quiz_session_start(p.st, due ? "review" : "chapter", chapter, p.lang,
					 !open_book, qs, n, (size_t)limit, seed, answers_now_ms(),
					 &p.ss);
		free(qs);
		if (err == WB_ECONFLICT && attempt < 3)
			continue; /* a test started elsewhere a moment ago */
		if (err == WB_EBUSY && busy_ask(&p, M_PLAIN_BUSY_CHOICE_STOP))
			continue;
		if (err == WB_EBUSY) {
			printf("%s\n", i18n(p.lang, M_QUIZ_BUSY_NOTHING));
			rc = EXIT_FAIL;
			goto out;
		}
		if (err) {
			fprintf(stderr, "workbench: cannot start the test: %s\n",
				store_errmsg(p.st));
			rc = EXIT_FAIL;
			goto out;
		}
		break;
	}
	{
		const char *ch = p.ss->test->chapter;
		char *title = ch ? chapter_title(app, p.lang, ch) : NULL;
		if (title)
			printf(i18n(p.lang, M_QUIZ_TITLE), title);
		else
			printf("%s", i18n(p.lang, M_QUIZ_REVIEW_TITLE));
		printf("\n");
		free(title);
	}
	printf("%s\n", i18n(p.lang, M_PLAIN_COMMANDS));
	for (;;) {
		const struct quiz_question *q = quiz_session_current(p.ss);
		if (!q) {
			quiz_session_finish(p.ss, answers_now_ms());
			print_summary(&p);
			break;
		}
		printf("\n");
		printf(i18n(p.lang, M_QUIZ_PROGRESS), p.ss->cur + 1, p.ss->test->n);
		printf(" [%s] (%s)\n%s\n", q->id,
		       i18n(p.lang, q->kind == QK_RECALL   ? M_KIND_RECALL
				    : q->kind == QK_CHOICE ? M_KIND_CHOICE
							   : M_KIND_NUMERIC),
		       q->text);
		if (*q->body)
			print_indented(q->body);
		struct answer a = {0};
		int in = ask(&p, q, &a);
		if (in == IN_LINE) {
			while ((err = quiz_session_grade(p.ss, &a)) == WB_EBUSY &&
			       busy_ask(&p, M_PLAIN_BUSY_CHOICE))
				;
			if (err == WB_ECONFLICT && !strcmp(p.ss->test->state, "running")) {
				/* Another window graded this question first; its grade
				 * stands and the session has moved on. */
				printf(i18n(p.lang, M_QUIZ_GRADED_ELSEWHERE), q->id,
				       grade_name(p.lang, quiz_session_grade_of(p.ss, q->id)));
				printf("\n");
				answer_clear(&a);
				continue;
			}
			if (err == WB_ECONFLICT) {
				printf("%s\n", i18n(p.lang, M_QUIZ_ENDED_ELSEWHERE));
				answer_clear(&a);
				rc = EXIT_FAIL;
				break;
			}
			if (err == WB_EBUSY) {
				printf("%s\n", i18n(p.lang, M_PLAIN_PAUSED));
				answer_clear(&a);
				rc = EXIT_FAIL;
				break;
			}
			if (err) {
				printf(i18n(p.lang, M_QUIZ_SAVE_FAILED), store_errmsg(p.st));
				printf("\n");
				answer_clear(&a);
				rc = EXIT_FAIL;
				break;
			}
			printf(i18n(p.lang, M_QUIZ_SAVED), grade_name(p.lang, a.grade), a.points,
			       a.max_points);
			printf("\n");
		}
		answer_clear(&a);
		if (in == IN_UNDO) {
			err = quiz_session_undo(p.ss, NULL);
			if (err == 0)
				printf("%s\n", i18n(p.lang, M_QUIZ_UNDONE));
			else if (err == WB_ECONFLICT)
				printf("%s\n", i18n(p.lang, M_QUIZ_UNDO_ELSEWHERE));
			else if (err == WB_EBUSY)
				printf("%s %s\n", i18n(p.lang, M_QUIZ_BUSY),
				       i18n(p.lang, M_QUIZ_BUSY_NOTHING));
			else
				printf("%s\n", i18n(p.lang, M_QUIZ_NOTHING_TO_UNDO));
		} else if (in == IN_QUIT || in == IN_EOF) {
			printf("%s\n", i18n(p.lang, M_PLAIN_PAUSED));
			rc = in == IN_EOF ? EXIT_FAIL : EXIT_OK;
			break;
		} else if (in == IN_ABANDON) {
			quiz_session_abandon(p.ss, answers_now_ms());
			printf("%s\n", i18n(p.lang, M_QUIZ_ABANDONED));
			break;
		}
	}
out:
	free(p.line);
	quiz_session_free(p.ss);
	quiz_test_free(running);
	quiz_bank_free(bank);
	store_close(p.st);
	return rc;
}

int cli_quiz(struct app *app, int argc, char **argv)
{
	if (argc == 0 || !strcmp(argv[0], "help") || !strcmp(argv[0], "--help")) {
		quiz_usage(argc ? stdout : stderr);
		return argc ? EXIT_OK : EXIT_USAGE;
	}
	static const struct {
		const char *name;
		int (*run)(struct app *, int, char **);
	} subs[] = {
		{"lint", quiz_lint},   {"new", quiz_new}, {"list", quiz_list},
		{"stats", quiz_stats}, {"run", quiz_run}, {"export", quiz_export},
	};
	for (size_t i = 0; i < WB_ARRAY_LEN(subs); i++)
		if (!strcmp(argv[0], subs[i].name))
			return subs[i].run(app, argc - 1, argv + 1);
	fprintf(stderr, "workbench quiz: unknown subcommand '%s'\n", argv[0]);
	quiz_usage(stderr);
	return EXIT_USAGE;
}
