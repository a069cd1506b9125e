/*
 * cli/quiz_stats.c - `workbench quiz stats`: attempts, mean points and the
 * grade spread per question over every graded answer in the database
 * (imported learners included), with a rough note on questions worth an
 * instructor's look.  It never creates a database.  The figures come
 * from core (answers_question_stats); this file only prints them.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/quizcmd.h"
#include "core/progress.h"
#include "core/store.h"

#include <stdio.h>

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

static int quiz_stats(struct app *app, const struct args *args)
{
	(void)args;
	struct store *st;
	if (quizcmd_open_existing(app, &st))
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
		printf("%-34s %-22s %8d %5.0f%% %6d %6d %6d  %s\n", q->question, q->chapter,
		       q->attempts, q->mean_share * 100, q->grades[1], q->grades[2], q->grades[3],
		       note_of(q));
	}
	answers_question_stats_free(qs, n);
	store_close(st);
	return EXIT_OK;
}

const struct command cmd_quiz_stats = {
	.name = "quiz",
	.sub = "stats",
	.args = {.upper = 0},
	.usage = "",
	.help = "attempts, mean points, grades per question",
	.run = quiz_stats,
};
