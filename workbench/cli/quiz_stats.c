/*
 * cli/quiz_stats.c - `workbench quiz stats [--learner NAME]`: attempts,
 * mean points and the grade spread per question over every graded
 * answer in the database (imported learners included), with a rough note
 * on questions worth an instructor's look, and the imported learners'
 * names; with --learner the same table over one learner's answers (the
 * names `progress import` kept), with that learner's totals and last
 * grades.  It never creates a database.  The figures come from core
 * (answers_learner_question_stats, answers_learners); this file only
 * prints them.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/progress.h"
#include "core/quizbank.h"
#include "core/store.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Rough flags to point an instructor at questions worth a look. */
static const char *note_of(const struct answers_qstat *q)
{
	double got = q->attempts ? (double)q->grades[3] / q->attempts : 0;
	double again = q->attempts ? (double)q->grades[1] / q->attempts : 0;
	if (q->attempts >= 3 && got >= 0.9 && q->mean_share >= 0.9)
		return "too easy?";
	if (q->attempts >= 3 && q->mean_share < 0.3)
		return "too hard?";
	if (q->attempts >= 4 && got >= 0.25 && again >= 0.25)
		return "unclear? (grades split)";
	return "";
}

static void print_table(const struct answers_qstat *qs, size_t n, int per_learner)
{
	printf("%-34s %-22s %8s %6s %6s %6s %6s  %s\n", "question", "chapter", "attempts", "mean",
	       "again", "partly", "got", per_learner ? "last" : "note");
	for (size_t i = 0; i < n; i++) {
		const struct answers_qstat *q = &qs[i];
		const char *last = quiz_grade_key(q->last_grade);
		printf("%-34s %-22s %8d %5.0f%% %6d %6d %6d  %s\n", q->question, q->chapter,
		       q->attempts, q->mean_share * 100, q->grades[1], q->grades[2], q->grades[3],
		       per_learner ? last : note_of(q));
	}
}

static void day_text(int64_t ms, char *buf, size_t size)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d", &tm))
		snprintf(buf, size, "?");
}

/* The learner named name in l[0..n), or NULL. */
static const struct answers_learner *find_learner(const struct answers_learner *l, size_t n,
						  const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i].name, name))
			return &l[i];
	return NULL;
}

/* Prints the imported learners ("" left out) as "ann (12 answers), bob
 * (3 answers)" after prefix on out; returns how many. */
static size_t print_learners(FILE *out, const char *prefix, const struct answers_learner *l,
			     size_t n)
{
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		if (!l[i].name[0])
			continue;
		fprintf(out, "%s%s (%d answer%s)", shown++ ? ", " : prefix, l[i].name, l[i].answers,
			l[i].answers == 1 ? "" : "s");
	}
	return shown;
}

/* --learner NAME: that learner's totals and table.  Returns the exit
 * code. */
static int learner_view(struct store *st, const char *name)
{
	struct answers_learner *ls = NULL;
	struct answers_qstat *qs = NULL;
	size_t nl = 0, n = 0;
	int rc = EXIT_FAIL;
	if (answers_learners(st, &ls, &nl) || answers_learner_question_stats(st, name, &qs, &n)) {
		fprintf(stderr, "workbench: cannot read answers: %s\n", store_errmsg(st));
		goto out;
	}
	const struct answers_learner *l = find_learner(ls, nl, name);
	if (!l || !*name) {
		fprintf(stderr, "workbench: no answers of learner '%s' in this database", name);
		if (!print_learners(stderr, "; learners: ", ls, nl))
			fprintf(stderr, "; it holds no imported learners (`workbench progress "
					"import FILE` adds them)");
		fprintf(stderr, "\n");
		goto out;
	}
	char from[32], to[32];
	day_text(l->first_ms, from, sizeof from);
	day_text(l->last_ms, to, sizeof to);
	printf("learner %s: %d answers to %d questions, %lld of %lld points (%lld%%), %s to %s\n",
	       l->name, l->answers, l->questions, (long long)l->points, (long long)l->max_points,
	       l->max_points ? (long long)(l->points * 100 / l->max_points) : 0LL, from, to);
	print_table(qs, n, 1);
	rc = EXIT_OK;
out:
	answers_question_stats_free(qs, n);
	answers_learners_free(ls, nl);
	return rc;
}

static int quiz_stats(struct app *app, const struct args *args)
{
	const char *learner = args_value(args, "--learner");
	struct store *st;
	if (quizcmd_open_existing(app, &st))
		return EXIT_FAIL;
	if (learner) {
		int rc = learner_view(st, learner);
		store_close(st);
		return rc;
	}
	struct answers_qstat *qs;
	struct answers_learner *ls = NULL;
	size_t n, nl = 0;
	int err = answers_question_stats(st, &qs, &n);
	if (!err)
		err = answers_learners(st, &ls, &nl);
	if (err) {
		fprintf(stderr, "workbench: cannot read answers: %s\n", store_errmsg(st));
		answers_question_stats_free(qs, n);
		answers_learners_free(ls, nl);
		store_close(st);
		return EXIT_FAIL;
	}
	if (n == 0)
		printf("no graded answers yet\n");
	else
		print_table(qs, n, 0);
	if (print_learners(stdout, "learners: ", ls, nl))
		printf("\n(`workbench quiz stats --learner NAME` shows one learner)\n");
	answers_question_stats_free(qs, n);
	answers_learners_free(ls, nl);
	store_close(st);
	return EXIT_OK;
}

const struct command cmd_quiz_stats = {
	.name = "quiz",
	.sub = "stats",
	.args = {.opts = "--learner=", .upper = 0},
	.usage = "[--learner NAME]",
	.help = "attempts, mean points, grades per question",
	.more = "Over every answer in the database, imported learners included; --learner NAME\n"
		"shows one learner's answers (the names `progress export --learner` gave).\n",
	.run = quiz_stats,
};
