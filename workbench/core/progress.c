/*
 * progress.c - what the progress database says about a learner (see
 * progress.h): the end-of-test summary, a question's schedule, what is
 * due and when, mastery of a chapter, points per test over time,
 * per-question statistics (of everyone or one learner) and the learners
 * the database holds answers of; exercises solved per chapter.
 *
 * Every function here only reads; none opens a transaction.  Not here:
 * writing answers (answers.c) or tests (session.c).
 */
#include "core/progress.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "core/quizbank.h"
#include "core/sched.h"
#include "core/store.h"
#include "base/sqlitex.h"
#include "base/wb.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int weaker(const struct answers_item *a, const struct answers_item *b)
{
	/* a/amax < b/bmax without division. */
	long l = (long)a->points * (b->max_points ? b->max_points : 1);
	long r = (long)b->points * (a->max_points ? a->max_points : 1);
	if (l != r)
		return l < r;
	return a->grade < b->grade;
}

int answers_test_summary(struct store *s, const char *test_uid, struct answers_summary *out)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		store_db(s),
		"SELECT question, chapter, points, max_points, grade, shown_at, graded_at "
		"FROM quiz_answer WHERE test_uid = ?1 ORDER BY graded_at, rowid",
		&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, test_uid, -1, SQLITE_STATIC);
	int rc;
	size_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->n == cap) {
			cap = cap ? cap * 2 : 16;
			out->items = wb_xrealloc(out->items, cap * sizeof *out->items);
		}
		struct answers_item *it = &out->items[out->n++];
		it->question = sqlitex_column_dup(st, 0);
		it->chapter = sqlitex_column_dup(st, 1);
		it->points = sqlite3_column_int(st, 2);
		it->max_points = sqlite3_column_int(st, 3);
		it->grade = sqlite3_column_int(st, 4);
		out->points += it->points;
		out->max_points += it->max_points;
		if (it->grade >= GRADE_AGAIN && it->grade <= GRADE_GOT)
			out->grades[it->grade]++;
		int64_t d = sqlite3_column_int64(st, 6) - sqlite3_column_int64(st, 5);
		out->time_ms += d > 0 ? d : 0;
	}
	sqlite3_finalize(st);
	/* Stable insertion sort, weakest first. */
	for (size_t i = 1; i < out->n; i++) {
		struct answers_item v = out->items[i];
		size_t j = i;
		while (j > 0 && weaker(&v, &out->items[j - 1])) {
			out->items[j] = out->items[j - 1];
			j--;
		}
		out->items[j] = v;
	}
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

void answers_summary_free(struct answers_summary *sum)
{
	if (!sum)
		return;
	for (size_t i = 0; i < sum->n; i++) {
		free(sum->items[i].question);
		free(sum->items[i].chapter);
	}
	free(sum->items);
	memset(sum, 0, sizeof *sum);
}

int answers_schedule_get(struct store *s, const char *question, struct sched_state *out)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st;
	int err =
		sqlitex_prepare(store_db(s),
				"SELECT stability, difficulty, reps, lapses, last_review, due FROM "
				"quiz_schedule WHERE question = ?1",
				&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->stability = sqlite3_column_double(st, 0);
		out->difficulty = sqlite3_column_double(st, 1);
		out->reps = sqlite3_column_int(st, 2);
		out->lapses = sqlite3_column_int(st, 3);
		out->last_review = sqlite3_column_int64(st, 4);
		out->due = sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? WB_ENOENT : sqlitex_err(rc);
}

/* ---- what is due: the review queue ---- */

static int new_per_day = ANSWERS_NEW_PER_DAY;

int answers_set_new_per_day(int n)
{
	if (n < 0 || n > 100000)
		return WB_EINVAL;
	new_per_day = n;
	return 0;
}

int answers_new_per_day(void)
{
	return new_per_day;
}

int64_t answers_day_start(int64_t t_s, int days)
{
	return sched_day_begin(sched_day(t_s) + days);
}

/* How many new questions the day ending at until_s still allows: the
 * daily limit minus the questions this learner graded for the first time
 * that day. */
static int allowance(sqlite3 *db, int64_t until_s, int *left)
{
	*left = 0;
	long day = sched_day(until_s - 1);
	sqlite3_stmt *st;
	int err =
		sqlitex_prepare(db,
				"SELECT COUNT(*) FROM (SELECT MIN(graded_at) AS first FROM "
				"quiz_answer WHERE learner = '' GROUP BY question) WHERE first >= "
				"?1 AND first < ?2",
				&st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, sched_day_begin(day) * 1000);
	sqlite3_bind_int64(st, 2, sched_day_begin(day + 1) * 1000);
	int rc = sqlite3_step(st);
	int seen = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return sqlitex_err(rc);
	*left = new_per_day > seen ? new_per_day - seen : 0;
	return 0;
}

static void push(const struct quiz_question ***out, size_t *n, const struct quiz_question *q)
{
	*out = wb_xrealloc(*out, (*n + 1) * sizeof **out);
	(*out)[(*n)++] = q;
}

/* Appends up to `left` questions of bank with no schedule, in bank order. */
static int add_new(sqlite3 *db, const struct quiz_bank *bank, int left,
		   const struct quiz_question ***out, size_t *n)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(db, "SELECT 1 FROM quiz_schedule WHERE question = ?1", &st);
	if (err)
		return err;
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < bank->n && left > 0; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, bank->q[i]->id, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE) {
			push(out, n, bank->q[i]);
			left--;
		} else if (rc != SQLITE_ROW) {
			break;
		}
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return sqlitex_err(rc);
}

/* The review queue (answers_due); *ndue of its first entries are due,
 * the rest new. */
static int review_queue(struct store *s, const struct quiz_bank *bank, int64_t until_s,
			const struct quiz_question ***out, size_t *n, size_t *ndue)
{
	*out = NULL;
	*n = *ndue = 0;
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		db, "SELECT question FROM quiz_schedule WHERE due < ?1 ORDER BY due, question",
		&st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, until_s);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct quiz_question *q =
			quiz_bank_find(bank, (const char *)sqlite3_column_text(st, 0));
		if (q)
			push(out, n, q);
	}
	sqlite3_finalize(st);
	*ndue = *n;
	if (rc != SQLITE_DONE)
		return sqlitex_err(rc);
	int left;
	err = allowance(db, until_s, &left);
	return err ? err : add_new(db, bank, left, out, n);
}

int answers_due(struct store *s, const struct quiz_bank *bank, int64_t until_s,
		const struct quiz_question ***out, size_t *n)
{
	size_t ndue;
	return review_queue(s, bank, until_s, out, n, &ndue);
}

int answers_due_today(struct store *s, const struct quiz_bank *bank, const char *chapter,
		      int64_t now_s, int *due, int *fresh)
{
	const struct quiz_question **qs;
	size_t n, ndue;
	int err = review_queue(s, bank, answers_day_start(now_s, 1), &qs, &n, &ndue);
	int d = 0, f = 0;
	for (size_t i = 0; i < n; i++) {
		if (chapter && strcmp(qs[i]->file->chapter, chapter) != 0)
			continue;
		if (i < ndue)
			d++;
		else
			f++;
	}
	free(qs);
	if (due)
		*due = d;
	if (fresh)
		*fresh = f;
	return err;
}

/* ---- the next intervals, for the grade keys ---- */

int answers_next_intervals(struct store *s, const char *question, int64_t now_s, int days[4])
{
	struct sched_state st, next[4];
	int err = answers_schedule_get(s, question, &st);
	if (err)
		memset(&st, 0, sizeof st);
	sched_preview(&st, now_s, next);
	days[0] = 0;
	for (int g = GRADE_AGAIN; g <= GRADE_GOT; g++)
		days[g] = next[sched_rating_of_grade(g) - 1].interval;
	return err == WB_ENOENT ? 0 : err;
}

void answers_interval_text(const char *lang, int days, char *buf, size_t size)
{
	if (days <= 1)
		snprintf(buf, size, "%s", i18n(lang, M_IVL_TOMORROW));
	else if (days < 31)
		snprintf(buf, size, i18n(lang, M_IVL_DAYS), days);
	else if (days < 365)
		snprintf(buf, size, i18n(lang, M_IVL_MONTHS), days / 30.4);
	else
		snprintf(buf, size, i18n(lang, M_IVL_YEARS), days / 365.25);
}

void answers_intervals_text(const char *lang, const int days[4], char *buf, size_t size)
{
	static const enum msg names[] = {M_GRADE_AGAIN, M_GRADE_AGAIN, M_GRADE_PARTLY, M_GRADE_GOT};
	size_t used = 0;
	buf[0] = '\0';
	for (int g = GRADE_AGAIN; g <= GRADE_GOT && used < size; g++) {
		char ivl[32];
		answers_interval_text(lang, days[g], ivl, sizeof ivl);
		int w = snprintf(buf + used, size - used, i18n(lang, M_IVL_ITEM),
				 g > GRADE_AGAIN ? " · " : "", i18n(lang, names[g]), ivl);
		used += w > 0 ? (size_t)w : 0;
	}
}

int answers_due_days(struct store *s, const struct quiz_bank *bank, int64_t now_s, int days,
		     int *counts)
{
	for (int i = 0; i < days; i++)
		counts[i] = 0;
	if (days <= 0)
		return 0;
	int64_t *ends = wb_xmalloc((size_t)days * sizeof *ends);
	for (int i = 0; i < days; i++)
		ends[i] = answers_day_start(now_s, i + 1);
	sqlite3_stmt *st;
	int err = sqlitex_prepare(store_db(s),
				  "SELECT question, due FROM quiz_schedule WHERE due < ?1", &st);
	if (err) {
		free(ends);
		return err;
	}
	sqlite3_bind_int64(st, 1, ends[days - 1]);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (bank && !quiz_bank_find(bank, (const char *)sqlite3_column_text(st, 0)))
			continue;
		int64_t due = sqlite3_column_int64(st, 1);
		for (int i = 0; i < days; i++)
			if (due < ends[i]) {
				counts[i]++;
				break;
			}
	}
	sqlite3_finalize(st);
	free(ends);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

int answers_mastery(struct store *s, const struct quiz_bank *bank, const char *chapter, int *got,
		    int *total)
{
	*got = *total = 0;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(store_db(s),
				  "SELECT last_grade FROM quiz_schedule WHERE question = ?1", &st);
	if (err)
		return err;
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < bank->n; i++) {
		const struct quiz_question *q = bank->q[i];
		if (strcmp(q->file->chapter, chapter) != 0)
			continue;
		(*total)++;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW && sqlite3_column_int(st, 0) == GRADE_GOT)
			(*got)++;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			break;
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return sqlitex_err(rc);
}

int answers_test_history(struct store *s, struct answers_test_points **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		store_db(s),
		"SELECT test_uid, MIN(shown_at), SUM(points), SUM(max_points), COUNT(*) "
		"FROM quiz_answer WHERE learner = '' AND test_uid IS NOT NULL GROUP BY "
		"test_uid ORDER BY MIN(shown_at)",
		&st);
	if (err)
		return err;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = wb_xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = (struct answers_test_points){
			.test_uid = sqlitex_column_dup(st, 0),
			.started_at = sqlite3_column_int64(st, 1),
			.points = sqlite3_column_int(st, 2),
			.max_points = sqlite3_column_int(st, 3),
			.answers = sqlite3_column_int(st, 4),
		};
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

void answers_test_history_free(struct answers_test_points *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(h[i].test_uid);
	free(h);
}

int answers_question_stats(struct store *s, struct answers_qstat **out, size_t *n)
{
	return answers_learner_question_stats(s, NULL, out, n);
}

int answers_learner_question_stats(struct store *s, const char *learner, struct answers_qstat **out,
				   size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	/* The last grade: the grade of the row with the largest graded_at
	 * (SQLite takes the bare column from the MAX row). */
	int err = sqlitex_prepare(
		store_db(s),
		"SELECT question, MIN(chapter), COUNT(*), "
		"AVG(CASE WHEN max_points > 0 THEN CAST(points AS REAL) / max_points ELSE "
		"0 END), SUM(grade = 1), SUM(grade = 2), SUM(grade = 3), "
		"(SELECT l.grade FROM quiz_answer l WHERE l.question = a.question AND "
		"(?1 IS NULL OR l.learner = ?1) ORDER BY l.graded_at DESC, l.rowid DESC LIMIT 1) "
		"FROM quiz_answer a WHERE ?1 IS NULL OR learner = ?1 "
		"GROUP BY question ORDER BY MIN(chapter), question",
		&st);
	if (err)
		return err;
	if (learner)
		sqlite3_bind_text(st, 1, learner, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = wb_xrealloc(*out, (*n + 1) * sizeof **out);
		struct answers_qstat *q = &(*out)[(*n)++];
		memset(q, 0, sizeof *q);
		q->question = sqlitex_column_dup(st, 0);
		q->chapter = sqlitex_column_dup(st, 1);
		q->attempts = sqlite3_column_int(st, 2);
		q->mean_share = sqlite3_column_double(st, 3);
		q->grades[1] = sqlite3_column_int(st, 4);
		q->grades[2] = sqlite3_column_int(st, 5);
		q->grades[3] = sqlite3_column_int(st, 6);
		q->last_grade = sqlite3_column_int(st, 7);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

int answers_learners(struct store *s, struct answers_learner **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(store_db(s),
				  "SELECT learner, COUNT(*), COUNT(DISTINCT question), "
				  "SUM(points), SUM(max_points), MIN(graded_at), MAX(graded_at) "
				  "FROM quiz_answer GROUP BY learner ORDER BY learner",
				  &st);
	if (err)
		return err;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = wb_xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = (struct answers_learner){
			.name = sqlitex_column_dup(st, 0),
			.answers = sqlite3_column_int(st, 1),
			.questions = sqlite3_column_int(st, 2),
			.points = sqlite3_column_int64(st, 3),
			.max_points = sqlite3_column_int64(st, 4),
			.first_ms = sqlite3_column_int64(st, 5),
			.last_ms = sqlite3_column_int64(st, 6),
		};
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

void answers_learners_free(struct answers_learner *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i].name);
	free(l);
}

void answers_question_stats_free(struct answers_qstat *q, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(q[i].question);
		free(q[i].chapter);
	}
	free(q);
}

int progress_exercises_solved(struct store *s, const char *chapter, int *solved, int *total)
{
	size_t n;
	const struct excat_entry *all = excat_all(&n);
	*solved = *total = 0;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(all[i].chapter, chapter, 2) != 0)
			continue;
		struct store_ex_state x;
		(*total)++;
		if (store_ex_get(s, all[i].id, &x) != 0)
			return WB_EIO;
		*solved += x.passed;
	}
	return 0;
}
