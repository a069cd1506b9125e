/*
 * cli/quiz_run.c - `workbench quiz run CHAPTER|--due --plain`: the
 * self-test on stdin/stdout, line by line, for scripts and screen readers.
 *
 * It drives the same session model as the TUI (core/answers.h), so its
 * answers, grades, resume and undo behave exactly as on screen.  Steps:
 * read the options, open the session (core's resume-or-start policy,
 * quiz_session_open, worded in resume_or_start), then the ask loop.  It does not
 * draw anything or parse banks itself.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/answers.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/session.h"
#include "core/content.h"
#include "core/i18n.h"
#include "core/quizbank.h"
#include "core/quizlint.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

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
	printf("%s\n%s\n", i18n(p->lang, choice == M_PLAIN_FULL_CHOICE ? M_QUIZ_FULL : M_QUIZ_BUSY),
	       i18n(p->lang, choice));
	int in = read_in(p);
	return in == IN_LINE || in == IN_UNDO;
}

/* ---- ask: one question ---- */

/* Reads the learner's lines up to a "." line into *text (NULL when the
 * first line is "."; caller frees).  Returns IN_LINE, or the command /
 * IN_EOF that interrupted it (*text untouched). */
static int read_recall(struct plain *p, char **text)
{
	struct wb_buf b = {0};
	int first = 1, wrote = 1, in;
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
	*text = wrote ? wb_buf_steal(&b) : NULL;
	wb_buf_free(&b);
	return IN_LINE;
}

/* Asks which rubric items the answer has, into ticked[0..nrubric). */
static int tick_rubric(struct plain *p, const struct quiz_question *q, unsigned char *ticked)
{
	int in;
	for (;;) {
		printf("%s\n", i18n(p->lang, M_PLAIN_TICK));
		if ((in = read_in(p)) != IN_LINE)
			return in;
		if (parse_numbers(p->line, ticked, q->nrubric, 1) >= 0)
			return IN_LINE;
		printf(i18n(p->lang, M_PLAIN_BAD_INPUT), q->nrubric);
		printf("\n");
	}
}

/* Asks for the grade of q, with the next interval each grade gives; an
 * empty line takes the suggested one. */
static int choose_grade(struct plain *p, const struct quiz_question *q, int suggested, int *grade)
{
	const char *L = p->lang;
	int in, days[4];
	char ivl[256];
	answers_next_intervals(p->st, q->id, answers_now_ms() / 1000, days);
	answers_intervals_text(L, days, ivl, sizeof ivl);
	*grade = 0;
	while (!*grade) {
		printf(i18n(L, M_IVL_NEXT), ivl);
		printf("\n");
		printf(i18n(L, M_PLAIN_GRADE), grade_name(L, suggested));
		printf("\n");
		if ((in = read_in(p)) != IN_LINE)
			return in;
		const char *s = p->line;
		while (isspace((unsigned char)*s))
			s++;
		*grade = !*s			    ? suggested
			 : (*s == 'a' || *s == '1') ? GRADE_AGAIN
			 : (*s == 'p' || *s == '2') ? GRADE_PARTLY
			 : (*s == 'g' || *s == '3') ? GRADE_GOT
						    : 0;
	}
	return IN_LINE;
}

/* A recall question: the answer, the reference and rubric, the ticks,
 * the grade.  Fills a; returns IN_LINE when graded or what interrupted. */
static int ask_recall(struct plain *p, const struct quiz_question *q, struct answer *a)
{
	const char *L = p->lang;
	unsigned char *ticked = NULL;
	int in, pts, grade;
	printf("%s\n", i18n(L, M_PLAIN_WRITE));
	if ((in = read_recall(p, &a->text)) != IN_LINE)
		goto out;
	a->revealed_at = answers_now_ms();
	printf("%s:\n", i18n(L, M_QUIZ_REFERENCE));
	print_indented(q->answer);
	printf("%s:\n", i18n(L, M_QUIZ_RUBRIC));
	for (size_t i = 0; i < q->nrubric; i++)
		printf("  %zu. (%d) %s\n", i + 1, q->rubric[i].points, q->rubric[i].text);
	ticked = wb_xcalloc(q->nrubric + 1, 1);
	if ((in = tick_rubric(p, q, ticked)) != IN_LINE)
		goto out;
	int suggested = quiz_suggest_grade(q, ticked, &pts);
	printf(i18n(L, M_QUIZ_SUGGESTED), grade_name(L, suggested), pts, q->max_points);
	printf("\n  %s\n  %s\n  %s\n", i18n(L, M_GRADE_AGAIN_MEANS), i18n(L, M_GRADE_PARTLY_MEANS),
	       i18n(L, M_GRADE_GOT_MEANS));
	if ((in = choose_grade(p, q, suggested, &grade)) != IN_LINE)
		goto out;
	a->ticked = marks_text(ticked, q->nrubric);
	a->points = pts;
	a->grade = grade;
	a->graded_at = answers_now_ms();
out:
	free(ticked);
	return in;
}

/* A choice question: the options, the pick, right or wrong. */
static int ask_choice(struct plain *p, const struct quiz_question *q, struct answer *a,
		      int *correct)
{
	const char *L = p->lang;
	int in;
	printf("%s (%s):\n", i18n(L, M_QUIZ_OPTIONS), i18n(L, M_QUIZ_CHOICE_MULTI));
	for (size_t i = 0; i < q->noptions; i++)
		printf("  %zu. %s\n", i + 1, q->options[i].text);
	unsigned char *picked = wb_xcalloc(q->noptions + 1, 1);
	for (;;) {
		printf("%s\n", i18n(L, M_PLAIN_CHOOSE));
		if ((in = read_in(p)) != IN_LINE)
			goto out;
		if (parse_numbers(p->line, picked, q->noptions, 0) > 0)
			break;
		printf(i18n(L, M_PLAIN_BAD_INPUT), q->noptions);
		printf("\n");
	}
	*correct = quiz_grade_choice(q, picked);
	a->text = marks_text(picked, q->noptions);
	unsigned char *right = wb_xcalloc(q->noptions + 1, 1);
	for (size_t i = 0; i < q->noptions; i++)
		right[i] = q->options[i].correct != 0;
	char *r = marks_text(right, q->noptions);
	free(right);
	printf("%s. ", i18n(L, *correct ? M_QUIZ_CORRECT : M_QUIZ_WRONG));
	printf(i18n(L, M_PLAIN_CORRECT_OPTIONS), r);
	printf("\n");
	free(r);
out:
	free(picked);
	return in;
}

/* 1 when line is "." or blank: the learner skips the question. */
static int is_skip(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	size_t n = strlen(line);
	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	return n == 0 || (n == 1 && *line == '.');
}

/* A numeric question: a number, right or wrong within the tolerance.  "."
 * or an empty line skips it as a first line "." skips writing a recall
 * answer: no answer (a->text NULL), not correct, so it is saved as Again
 * with 0 points. */
static int ask_numeric(struct plain *p, const struct quiz_question *q, struct answer *a,
		       int *correct)
{
	const char *L = p->lang;
	double v;
	int in, skipped = 0;
	for (;;) {
		printf("%s\n", i18n(L, M_PLAIN_NUMERIC_PROMPT));
		if ((in = read_in(p)) != IN_LINE)
			return in;
		if ((skipped = is_skip(p->line))) {
			*correct = 0;
			break;
		}
		int g = quiz_grade_numeric(q, p->line, &v);
		if (g >= 0) {
			*correct = g;
			break;
		}
		printf(i18n(L, M_QUIZ_NOT_NUMBER), p->line);
		printf("\n");
	}
	a->text = skipped ? NULL : wb_xstrdup(p->line);
	char expect[64];
	if (q->tolerance > 0)
		snprintf(expect, sizeof expect, "%.15g ± %.15g", q->number, q->tolerance);
	else
		snprintf(expect, sizeof expect, "%.15g", q->number);
	printf("%s. ", i18n(L, skipped	  ? M_PLAIN_SKIPPED
			       : *correct ? M_QUIZ_CORRECT
					  : M_QUIZ_WRONG));
	printf(i18n(L, M_QUIZ_EXPECTED), expect);
	printf("\n");
	return IN_LINE;
}

/* Asks one question; fills a.  Returns IN_LINE when graded, or the
 * command / IN_EOF that interrupted it. */
static int ask(struct plain *p, const struct quiz_question *q, struct answer *a)
{
	int correct = 0, in;
	a->shown_at = answers_now_ms();
	if (q->kind == QK_RECALL)
		return ask_recall(p, q, a);
	in = q->kind == QK_CHOICE ? ask_choice(p, q, a, &correct) : ask_numeric(p, q, a, &correct);
	if (in != IN_LINE)
		return in;
	a->revealed_at = a->graded_at = answers_now_ms();
	a->points = correct ? 1 : 0;
	a->grade = correct ? GRADE_GOT : GRADE_AGAIN;
	printf("%s:\n", i18n(p->lang, M_QUIZ_REFERENCE));
	print_indented(q->answer);
	return IN_LINE;
}

/* The plain runner has no reader to open (the TUI's summary rereads on
 * Enter): it names the command that shows each chapter of the first
 * `shown` (weakest) items once, those with a lesson only. */
static void print_reread(struct plain *p, const struct answers_summary *sum, size_t shown)
{
	for (size_t i = 0; i < shown; i++) {
		const char *ch = sum->items[i].chapter;
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(sum->items[k].chapter, ch);
		char *title = seen ? NULL : quizcmd_chapter_title(p->app, p->lang, ch);
		if (title) {
			printf(i18n(p->lang, M_PLAIN_REREAD), ch);
			printf("\n");
		}
		free(title);
	}
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
			printf("%s\n", i18n(L, M_PLAIN_WEAKEST));
		printf("  %d/%d  %-8s [%s] (%s)\n", it->points, it->max_points,
		       grade_name(L, it->grade), it->question, it->chapter);
	}
	if (!shown)
		printf("%s\n", i18n(L, M_QUIZ_ALL_GOT));
	print_reread(p, &sum, shown);
	answers_summary_free(&sum);
}

/* ---- run ---- */

/* What `quiz run` was asked for. */
struct run_opts {
	const char *chapter; /* NULL with --due */
	int due, open_book, abandon;
	long limit; /* 0: every question */
};

/* Reads and checks the options.  Returns -1 to go on, or EXIT_USAGE
 * (message printed). */
static int read_run_opts(const struct args *args, struct run_opts *o)
{
	const char *limit = args_value(args, "--limit");
	char *end = NULL;
	*o = (struct run_opts){
		.chapter = args->argc ? args->argv[0] : NULL,
		.due = args_has(args, "--due"),
		.open_book = args_has(args, "--open-book"),
		.abandon = args_has(args, "--abandon"),
		.limit = limit ? strtol(limit, &end, 10) : 0,
	};
	const char *npd = args_value(args, "--new-per-day");
	char *nend = NULL;
	long n = npd ? strtol(npd, &nend, 10) : 0;
	if (npd && (!*npd || *nend || answers_set_new_per_day(n < 0 || n > 100000 ? -1 : (int)n))) {
		fprintf(stderr,
			"workbench: --new-per-day must be a whole number from 0 to 100000, "
			"got '%s'\n",
			npd);
		return EXIT_USAGE;
	}
	if (!args_has(args, "--plain") || (!o->chapter == !o->due)) {
		command_print_usage(&cmd_quiz_run, 0, stderr);
		return EXIT_USAGE;
	}
	if (limit && (end == limit || *end || o->limit < 1)) {
		fprintf(stderr, "workbench: --limit takes a number of questions, 1 or more: '%s'\n",
			limit);
		return EXIT_USAGE;
	}
	if (o->chapter && !content_valid_chapter_id(o->chapter)) {
		fprintf(stderr, "workbench: '%s' is not a chapter id\n", o->chapter);
		return EXIT_USAGE;
	}
	return -1;
}

/* Looks up the running test into *running (NULL when none).  Returns 0,
 * or EXIT_FAIL (message printed). */
static int look_running(struct plain *p, struct quiz_test **running)
{
	*running = NULL;
	int err = answers_running_test(p->st, running);
	if (err && err != WB_ENOENT) {
		fprintf(stderr, "workbench: cannot read the progress database: %s\n",
			store_errmsg(p->st));
		return EXIT_FAIL;
	}
	return 0;
}

/* --abandon: ends the running test when it is the one asked for. */
static int abandon_running(struct plain *p, const struct run_opts *o)
{
	struct quiz_test *running;
	int rc = look_running(p, &running), err;
	if (rc)
		return rc;
	if (!quiz_session_is_same(running, o->chapter)) {
		fprintf(stderr, "workbench: no self-test of %s is in progress\n",
			o->due ? "due questions" : o->chapter);
		rc = EXIT_FAIL;
		goto out;
	}
	while ((err = answers_abandon_running(p->st, answers_now_ms())) == WB_EBUSY &&
	       busy_ask(p, M_PLAIN_BUSY_CHOICE_STOP))
		;
	if (!err) {
		printf("%s\n", i18n(p->app->lang, M_QUIZ_ABANDONED));
	} else {
		printf("%s\n", i18n(p->app->lang, M_QUIZ_BUSY_NOTHING));
		rc = EXIT_FAIL;
	}
out:
	quiz_test_free(running);
	return rc;
}

/* Opens the test asked for through core's one resume-or-start policy
 * (quiz_session_open): resumes it, or starts one; another running test
 * is refused.  Asks whether to try again while the database is busy.
 * Returns -1 with p->ss (and *bank, the test's language) open, or the
 * exit code (EXIT_OK when nothing is due; messages printed). */
static int resume_or_start(struct plain *p, const struct run_opts *o, struct quiz_bank **bank)
{
	struct quiz_session_req req = {
		.chapter = o->chapter,
		.lang = p->app->lang,
		.closed_book = !o->open_book,
		.limit = (size_t)o->limit,
		.resume = 1,
		.content_root = p->app->content,
		.instructor_dir = p->app->quizzes,
	};
	struct quiz_session_opened op = {0};
	size_t pool = 0;
	int err = quiz_session_pool(p->st, &req, &pool);
	if (!err && o->limit && pool && (size_t)o->limit > pool) {
		fprintf(stderr, "workbench: --limit %ld: %s %zu questions (--limit 1 to %zu)\n",
			o->limit, o->due ? "there are only" : "the chapter has", pool, pool);
		return EXIT_USAGE;
	}
	while ((err = quiz_session_open(p->st, &req, &op)) == WB_EBUSY &&
	       busy_ask(p, M_PLAIN_BUSY_CHOICE_STOP))
		quiz_session_opened_clear(&op);
	int rc = EXIT_FAIL;
	const struct quiz_test *run = op.conflict;
	if (!err) {
		p->ss = op.ss;
		*bank = op.bank;
		op.ss = NULL;
		op.bank = NULL;
		p->lang = (*bank)->lang;
		if (op.trimmed)
			printf(i18n(p->lang, M_QUIZ_TRIMMED), quiz_session_answered(p->ss),
			       p->ss->test->n, (size_t)o->limit, (size_t)o->limit);
		else if (op.resumed)
			printf(i18n(p->lang, M_QUIZ_RESUMED), quiz_session_answered(p->ss),
			       p->ss->test->n);
		if (op.resumed)
			printf("\n");
		rc = -1;
	} else if (err == WB_ECONFLICT && run) {
		const char *ch = run->chapter;
		fprintf(stderr,
			"workbench: another self-test is in progress (%s, %zu of %zu "
			"answered): finish it with `workbench quiz run %s --plain` or "
			"abandon "
			"it with `workbench quiz run %s --plain --abandon`\n",
			ch ? ch : "review", run->answered, run->n, ch ? ch : "--due",
			ch ? ch : "--due");
	} else if (err == WB_ENOENT && op.step == QUIZ_OPEN_START && o->due) {
		printf("%s\n", i18n(p->lang, M_QUIZ_NONE_DUE));
		rc = EXIT_OK;
	} else if (err == WB_ENOENT && op.step == QUIZ_OPEN_START) {
		fprintf(stderr, "workbench: chapter %s has no questions in %s\n", o->chapter,
			p->lang);
	} else if (err == WB_EBUSY) {
		printf("%s\n", i18n(p->lang, M_QUIZ_BUSY_NOTHING));
	} else if (err == WB_ENOSPC) {
		fprintf(stderr,
			"workbench: cannot %s the test: no space left on device; nothing "
			"saved before is lost: free some space and run the command again\n",
			op.step == QUIZ_OPEN_RESUME ? "resume" : "start");
	} else if (op.step == QUIZ_OPEN_LOOK) {
		fprintf(stderr, "workbench: cannot read the progress database: %s\n",
			store_errmsg(p->st));
	} else {
		fprintf(stderr, "workbench: cannot %s the test: %s\n",
			op.step == QUIZ_OPEN_RESUME ? "resume" : "start", store_errmsg(p->st));
	}
	quiz_session_opened_clear(&op);
	return rc;
}

/* The title a bank file of chapter in b gives it (<!-- title: -->, a
 * chapter of the bank's own), borrowed; NULL when none does. */
static const char *bank_chapter_title(const struct quiz_bank *b, const char *chapter, int *has)
{
	*has = 0;
	for (size_t i = 0; b && i < b->nfiles; i++) {
		const struct quiz_file *f = b->files[i];
		if (!f->chapter || strcmp(f->chapter, chapter) != 0)
			continue;
		*has = 1;
		if (f->chapter_title)
			return f->chapter_title;
	}
	return NULL;
}

/* A chapter's test needs what `quiz lint` needs: a lesson, or a title
 * the chapter's bank gives it.  Returns -1 to go on (also when no bank
 * file has the chapter: resume_or_start says so), or EXIT_FAIL with
 * lint's message. */
static int check_chapter(struct plain *p, const char *chapter)
{
	struct quiz_bank *b = NULL;
	int has, rc = -1;
	quiz_bank_open(p->app->content, p->app->quizzes, p->app->lang, &b);
	const char *own = bank_chapter_title(b, chapter, &has);
	char *unknown =
		has && !own ? quizlint_unknown_chapter(p->app->content, b->lang, chapter) : NULL;
	if (unknown) {
		fprintf(stderr, "workbench: %s\n", unknown);
		rc = EXIT_FAIL;
	}
	free(unknown);
	quiz_bank_free(b);
	return rc;
}

/* The chapter's title from its lesson, else from its bank, else its id;
 * a review has its own. */
static void print_title(struct plain *p, const struct quiz_bank *bank)
{
	const char *ch = p->ss->test->chapter;
	char *title = ch ? quizcmd_chapter_title(p->app, p->lang, ch) : NULL;
	int has;
	const char *own = ch && !title ? bank_chapter_title(bank, ch, &has) : NULL;
	if (ch)
		printf(i18n(p->lang, M_QUIZ_TITLE), title ? title : own ? own : ch);
	else
		printf("%s", i18n(p->lang, M_QUIZ_REVIEW_TITLE));
	printf("\n");
	free(title);
	printf("%s\n", i18n(p->lang, M_PLAIN_COMMANDS));
}

static void print_question(struct plain *p, const struct quiz_question *q)
{
	printf("\n");
	printf(i18n(p->lang, M_QUIZ_PROGRESS), p->ss->cur + 1, p->ss->test->n);
	printf(" [%s] (%s)\n%s\n", q->id,
	       i18n(p->lang, q->kind == QK_RECALL   ? M_KIND_RECALL
			     : q->kind == QK_CHOICE ? M_KIND_CHOICE
						    : M_KIND_NUMERIC),
	       q->text);
	if (*q->body)
		print_indented(q->body);
}

/* Saves the graded answer a of q.  Returns -1 to go on (saved, or graded
 * in another window first), or EXIT_FAIL to stop (message printed). */
static int save_grade(struct plain *p, const struct quiz_question *q, struct answer *a)
{
	const char *L = p->lang;
	int err;
	/* Busy (another program holds the lock) and a full disk are both
	 * worth another try: nothing was written either way. */
	while ((err = quiz_session_grade(p->ss, a)) == WB_EBUSY || err == WB_ENOSPC)
		if (!busy_ask(p, err == WB_ENOSPC ? M_PLAIN_FULL_CHOICE : M_PLAIN_BUSY_CHOICE))
			break;
	if (err == WB_ECONFLICT && !strcmp(p->ss->test->state, "running")) {
		/* Another window graded this question first; its grade
		 * stands and the session has moved on. */
		printf(i18n(L, M_QUIZ_GRADED_ELSEWHERE), q->id,
		       grade_name(L, quiz_session_grade_of(p->ss, q->id)));
		printf("\n");
		return -1;
	}
	if (err == WB_ECONFLICT) {
		printf("%s\n", i18n(L, M_QUIZ_ENDED_ELSEWHERE));
		return EXIT_FAIL;
	}
	if (err == WB_EBUSY || err == WB_ENOSPC) {
		printf("%s\n", i18n(L, M_PLAIN_PAUSED));
		return EXIT_FAIL;
	}
	if (err) {
		printf(i18n(L, M_QUIZ_SAVE_FAILED), store_errmsg(p->st));
		printf("\n");
		return EXIT_FAIL;
	}
	printf(i18n(L, M_QUIZ_SAVED), grade_name(L, a->grade), a->points, a->max_points);
	printf("\n");
	return -1;
}

static void undo(struct plain *p)
{
	int err = quiz_session_undo(p->ss, NULL);
	if (err == 0)
		printf("%s\n", i18n(p->lang, M_QUIZ_UNDONE));
	else if (err == WB_ECONFLICT)
		printf("%s\n", i18n(p->lang, M_QUIZ_UNDO_ELSEWHERE));
	else if (err == WB_EBUSY)
		printf("%s %s\n", i18n(p->lang, M_QUIZ_BUSY), i18n(p->lang, M_QUIZ_BUSY_NOTHING));
	else
		printf("%s\n", i18n(p->lang, M_QUIZ_NOTHING_TO_UNDO));
}

/* Asks the session's questions until the end, a pause or an abandon.
 * Returns the exit code. */
static int ask_loop(struct plain *p)
{
	for (;;) {
		const struct quiz_question *q = quiz_session_current(p->ss);
		if (!q) {
			quiz_session_finish(p->ss, answers_now_ms());
			print_summary(p);
			return EXIT_OK;
		}
		print_question(p, q);
		struct answer a = {0};
		int in = ask(p, q, &a);
		int rc = in == IN_LINE ? save_grade(p, q, &a) : -1;
		answer_clear(&a);
		if (rc >= 0)
			return rc;
		if (in == IN_UNDO) {
			undo(p);
		} else if (in == IN_QUIT || in == IN_EOF) {
			printf("%s\n", i18n(p->lang, M_PLAIN_PAUSED));
			return in == IN_EOF ? EXIT_FAIL : EXIT_OK;
		} else if (in == IN_ABANDON) {
			quiz_session_abandon(p->ss, answers_now_ms());
			printf("%s\n", i18n(p->lang, M_QUIZ_ABANDONED));
			return EXIT_OK;
		}
	}
}

static int quiz_run(struct app *app, const struct args *args)
{
	struct run_opts o;
	int rc = read_run_opts(args, &o);
	if (rc >= 0)
		return rc;
	struct plain p = {.app = app, .lang = app->lang};
	struct quiz_bank *bank = NULL;
	if (quizcmd_open_store(app, &p.st))
		return EXIT_FAIL;
	if (o.abandon) {
		rc = abandon_running(&p, &o);
	} else if ((!o.chapter || (rc = check_chapter(&p, o.chapter)) < 0) &&
		   (rc = resume_or_start(&p, &o, &bank)) < 0) {
		print_title(&p, bank);
		rc = ask_loop(&p);
	}
	free(p.line);
	quiz_session_free(p.ss);
	quiz_bank_free(bank);
	store_close(p.st);
	return rc;
}

const struct command cmd_quiz_run = {
	.name = "quiz",
	.sub = "run",
	.args = {.opts = "--plain --due --open-book --abandon --limit= --new-per-day=", .upper = 1},
	.usage = "CHAPTER|--due --plain [--limit N] [--new-per-day N] [--open-book] [--abandon]",
	.help = "a self-test on stdin/stdout, for scripts",
	.more = "(the interactive self-test is in `workbench`: s on a chapter)\n",
	.run = quiz_run,
};
