/*
 * session.c - self-tests on the progress database (see session.h): the
 * running test, starting one in a shuffled order, resuming it, grading
 * and undoing within it, finishing or abandoning it; the resume-or-start
 * policy both the TUI and `quiz run` follow (quiz_session_open) and the
 * closed-book rule (quiz_session_blocks_lesson).
 *
 * Invariants
 * - At most one test runs (the unique partial index quiz_test_one_running,
 *   store.c migration 2).  quiz_session_start checks it again inside its
 *   transaction, so a test another process started a moment ago is a
 *   WB_ECONFLICT, never a second running test.
 * - A session only ever undoes the newest answer it knows of
 *   (last_uid); an answer another process gave is not its to take back.
 * - A test's order lives in quiz_test_item, so a resumed test asks in
 *   the same order after a restart.
 *
 * Not here: saving an answer (answers.c), statistics (progress.c).
 */
#include "core/session.h"
#include "core/answers.h"
#include "core/answers_db.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/quizbank.h"
#include "core/store.h"
#include "base/sqlitex.h"
#include "base/testhook.h"
#include "base/wb.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

void quiz_test_free(struct quiz_test *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->questions[i]);
		free(t->chapters[i]);
	}
	free(t->questions);
	free(t->chapters);
	free(t->uid);
	free(t->kind);
	free(t->chapter);
	free(t->lang);
	free(t->state);
	free(t);
}

int quiz_test_covers(const struct quiz_test *t, const char *chapter)
{
	if (t->chapter && !strcmp(t->chapter, chapter))
		return 1;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->chapters[i], chapter))
			return 1;
	return 0;
}

static int load_items(sqlite3 *db, struct quiz_test *t)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		db,
		"SELECT question, chapter FROM quiz_test_item WHERE test_uid = ?1 ORDER BY "
		"pos",
		&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, t->uid, -1, SQLITE_STATIC);
	int rc;
	size_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (t->n == cap) {
			cap = cap ? cap * 2 : 16;
			t->questions = wb_xrealloc(t->questions, cap * sizeof *t->questions);
			t->chapters = wb_xrealloc(t->chapters, cap * sizeof *t->chapters);
		}
		t->questions[t->n] = sqlitex_column_dup(st, 0);
		t->chapters[t->n] = sqlitex_column_dup(st, 1);
		t->n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sqlitex_err(rc);
	err = sqlitex_prepare(db, "SELECT COUNT(*) FROM quiz_answer WHERE test_uid = ?1", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, t->uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		t->answered = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sqlitex_err(rc);
}

int answers_running_test(struct store *s, struct quiz_test **out)
{
	*out = NULL;
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	int err =
		sqlitex_prepare(db,
				"SELECT uid, kind, chapter, lang, closed_book, state, started_at, "
				"COALESCE(finished_at, 0) FROM quiz_test WHERE state = 'running'",
				&st);
	if (err)
		return err;
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? WB_ENOENT : sqlitex_err(rc);
	}
	struct quiz_test *t = wb_xcalloc(1, sizeof *t);
	t->uid = sqlitex_column_dup(st, 0);
	t->kind = sqlitex_column_dup(st, 1);
	t->chapter = sqlitex_column_dup(st, 2);
	t->lang = sqlitex_column_dup(st, 3);
	t->closed_book = sqlite3_column_int(st, 4);
	t->state = sqlitex_column_dup(st, 5);
	t->started_at = sqlite3_column_int64(st, 6);
	t->finished_at = sqlite3_column_int64(st, 7);
	sqlite3_finalize(st);
	err = load_items(db, t);
	if (err) {
		quiz_test_free(t);
		return err;
	}
	*out = t;
	return 0;
}

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? wb_xstrdup(src) : NULL;
}

/* The first askable position without a grade. */
static void advance(struct quiz_session *ss)
{
	ss->cur = 0;
	while (ss->cur < ss->test->n && (ss->grade[ss->cur] || !ss->q[ss->cur]))
		ss->cur++;
}

/* order[0..n): 0..n-1 shuffled with seed (Fisher-Yates over splitmix64,
 * so one seed gives one order). */
static size_t *shuffled(size_t n, uint64_t seed)
{
	size_t *order = wb_xmalloc(n * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(clock_splitmix(&seed) % (i + 1));
		size_t tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	return order;
}

/* How weak this learner is on a question, for the covering draw: 0 last
 * graded Again, 1 Partly, 2 never graded, 3 Got it. */
static int weakness(sqlite3 *db, const char *question)
{
	sqlite3_stmt *st = NULL;
	if (sqlitex_prepare(db, "SELECT last_grade FROM quiz_schedule WHERE question = ?1", &st))
		return 2;
	sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
	int w = 2;
	if (sqlite3_step(st) == SQLITE_ROW) {
		int g = sqlite3_column_int(st, 0);
		w = g == GRADE_AGAIN ? 0 : g == GRADE_PARTLY ? 1 : 3;
	}
	sqlite3_finalize(st);
	return w;
}

/* The covering draw of a shorter chapter test (see session.h): order
 * holds 0..n-1 shuffled; its first k become the k questions drawn, one
 * from each of k runs of the bank order (the bank follows the lesson's
 * sections), in each run the weakest (weakness) with the shuffle breaking
 * ties; then ordered weakest first, the shuffle breaking ties. */
static void draw_covering(sqlite3 *db, const struct quiz_question *const *qs, size_t n, size_t k,
			  size_t *order)
{
	size_t *rank = wb_xmalloc(n * sizeof *rank);
	int *weak = wb_xmalloc(n * sizeof *weak);
	size_t *pick = wb_xmalloc(k * sizeof *pick);
	for (size_t i = 0; i < n; i++) {
		rank[order[i]] = i;
		weak[i] = weakness(db, qs[i]->id);
	}
	for (size_t j = 0; j < k; j++) {
		size_t lo = j * n / k, hi = (j + 1) * n / k, best = lo;
		for (size_t i = lo + 1; i < hi; i++)
			if (weak[i] < weak[best] || (weak[i] == weak[best] && rank[i] < rank[best]))
				best = i;
		pick[j] = best;
	}
	for (size_t a = 1; a < k; a++) /* insertion sort: k is small */
		for (size_t b = a; b > 0; b--) {
			size_t x = pick[b - 1], y = pick[b];
			if (weak[x] < weak[y] || (weak[x] == weak[y] && rank[x] < rank[y]))
				break;
			pick[b - 1] = y;
			pick[b] = x;
		}
	memcpy(order, pick, k * sizeof *order);
	free(rank);
	free(weak);
	free(pick);
}

/* One question of a part: its bank index and its rank in the shuffle. */
struct ranked {
	size_t rank;
	size_t idx;
};

static int by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* The covering draw (draw_covering) over only the questions whose core
 * mark is `core`: up to k of them into out, as bank indices.  Returns how
 * many it drew. */
static size_t draw_part(sqlite3 *db, const struct quiz_question *const *qs, size_t n,
			const size_t *order, int core, size_t k, size_t *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += !!qs[i]->core == core;
	if (k > m)
		k = m;
	if (k == 0)
		return 0;
	size_t *rank_of = wb_xmalloc(n * sizeof *rank_of);
	for (size_t r = 0; r < n; r++)
		rank_of[order[r]] = r;
	const struct quiz_question **part = wb_xmalloc(m * sizeof *part);
	struct ranked *by = wb_xmalloc(m * sizeof *by);
	size_t *idx = wb_xmalloc(m * sizeof *idx), *sorder = wb_xmalloc(m * sizeof *sorder);
	for (size_t i = 0, j = 0; i < n; i++)
		if (!!qs[i]->core == core) {
			part[j] = qs[i];
			idx[j] = i;
			by[j] = (struct ranked){rank_of[i], j};
			j++;
		}
	qsort(by, m, sizeof *by, by_rank); /* the part's own shuffle */
	for (size_t j = 0; j < m; j++)
		sorder[j] = by[j].idx;
	draw_covering(db, part, m, k, sorder);
	for (size_t t = 0; t < k; t++)
		out[t] = idx[sorder[t]];
	free(rank_of);
	free(part);
	free(by);
	free(idx);
	free(sorder);
	return k;
}

/* A shorter chapter test: the chapter's closed-book core first (the
 * questions its bank marks `core: true`, chosen by the author to cover
 * every section), by the covering draw among them, then the covering draw
 * among the others for the rest.  A bank that marks no core falls back to
 * the covering draw over all.  order holds the shuffle; its first k
 * become the test. */
static void draw_chapter(sqlite3 *db, const struct quiz_question *const *qs, size_t n, size_t k,
			 size_t *order)
{
	size_t cores = 0;
	for (size_t i = 0; i < n; i++)
		cores += qs[i]->core != 0;
	if (cores == 0) {
		draw_covering(db, qs, n, k, order);
		return;
	}
	size_t *pick = wb_xmalloc(k * sizeof *pick);
	size_t got = draw_part(db, qs, n, order, 1, k, pick);
	if (got < k)
		got += draw_part(db, qs, n, order, 0, k - got, pick + got);
	memcpy(order, pick, got * sizeof *order);
	free(pick);
}

/* The test row as quiz_session_start will store it: the first n of qs
 * in the given order. */
static struct quiz_test *new_test(const char *kind, const char *chapter, const char *lang,
				  int closed_book, const struct quiz_question *const *qs,
				  const size_t *order, size_t n, int64_t now_ms)
{
	struct quiz_test *t = wb_xcalloc(1, sizeof *t);
	t->uid = clock_new_uid();
	t->kind = wb_xstrdup(kind);
	t->chapter = chapter ? wb_xstrdup(chapter) : NULL;
	t->lang = wb_xstrdup(lang);
	t->closed_book = closed_book ? 1 : 0;
	t->state = wb_xstrdup("running");
	t->started_at = now_ms;
	t->n = n;
	t->questions = wb_xcalloc(n, sizeof *t->questions);
	t->chapters = wb_xcalloc(n, sizeof *t->chapters);
	for (size_t i = 0; i < n; i++) {
		t->questions[i] = wb_xstrdup(qs[order[i]]->id);
		t->chapters[i] = wb_xstrdup(qs[order[i]]->file->chapter);
	}
	return t;
}

/* WB_ECONFLICT when a test is running, else 0 or a WB_E* code.  Checked
 * inside the start's transaction: another process may have started a
 * test since the caller looked. */
static int check_none_running(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int err = sqlitex_prepare(
		db, "SELECT EXISTS (SELECT 1 FROM quiz_test WHERE state = 'running')", &st);
	if (err)
		return err;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_int(st, 0))
		err = WB_ECONFLICT;
	else if (rc != SQLITE_ROW)
		err = sqlitex_err(rc);
	sqlite3_finalize(st);
	return err;
}

/* Inserts the quiz_test row and its items; in the caller's transaction. */
static int insert_test(sqlite3 *db, const struct quiz_test *t)
{
	sqlite3_stmt *st = NULL;
	int err = sqlitex_prepare(db,
				  "INSERT INTO quiz_test (uid, kind, chapter, lang, closed_book, "
				  "state, started_at) VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6)",
				  &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, t->uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->kind, -1, SQLITE_STATIC);
	sqlitex_bind_text_or_null(st, 3, t->chapter);
	sqlite3_bind_text(st, 4, t->lang, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, t->closed_book);
	sqlite3_bind_int64(st, 6, t->started_at);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) /* the partial unique index: another test is running */
		return (rc & 0xFF) == SQLITE_CONSTRAINT ? WB_ECONFLICT : sqlitex_err(rc);
	err = sqlitex_prepare(db,
			      "INSERT INTO quiz_test_item (test_uid, pos, question, chapter) "
			      "VALUES (?1, ?2, ?3, ?4)",
			      &st);
	if (err)
		return err;
	for (size_t i = 0; i < t->n && !err; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, t->uid, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
		sqlite3_bind_text(st, 3, t->questions[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, t->chapters[i], -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc != SQLITE_DONE)
			err = sqlitex_err(rc);
	}
	sqlite3_finalize(st);
	return err;
}

int quiz_session_start(struct store *s, const char *kind, const char *chapter, const char *lang,
		       int closed_book, const struct quiz_question *const *qs, size_t n,
		       size_t limit, uint64_t seed, int64_t now_ms, struct quiz_session **out)
{
	*out = NULL;
	if (n == 0 || !kind || (strcmp(kind, "chapter") && strcmp(kind, "review")))
		return WB_EINVAL;
	sqlite3 *db = store_db(s);
	size_t *order = shuffled(n, seed);
	if (limit && limit < n) {
		if (!strcmp(kind, "chapter"))
			draw_chapter(db, qs, n, limit, order);
		n = limit;
	}
	struct quiz_test *t = new_test(kind, chapter, lang, closed_book, qs, order, n, now_ms);

	testhook_hold("start-begin");
	int err = sqlitex_begin_immediate(db);
	if (!err)
		err = check_none_running(db);
	if (!err)
		err = insert_test(db, t);
	if (!err)
		testhook_hold("start");
	if (!err)
		err = sqlitex_end(db, 0);
	if (err) {
		sqlitex_rollback(db);
		quiz_test_free(t);
		free(order);
		return err;
	}
	struct quiz_session *ss = wb_xcalloc(1, sizeof *ss);
	ss->store = s;
	ss->test = t;
	ss->q = wb_xcalloc(n, sizeof *ss->q);
	ss->grade = wb_xcalloc(n, sizeof *ss->grade);
	for (size_t i = 0; i < n; i++)
		ss->q[i] = qs[order[i]];
	free(order);
	*out = ss;
	return 0;
}

/* Reads the test's state, its graded positions and its newest answer
 * from the database into ss, and moves to the first open position. */
static int load_progress(struct quiz_session *ss)
{
	sqlite3 *db = store_db(ss->store);
	struct quiz_test *t = ss->test;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(db, "SELECT state FROM quiz_test WHERE uid = ?1", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, t->uid, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		set_str(&t->state, (const char *)sqlite3_column_text(st, 0));
	else if (rc == SQLITE_DONE)
		set_str(&t->state, "gone");
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sqlitex_err(rc);
	err = sqlitex_prepare(
		db,
		"SELECT question, grade, uid FROM quiz_answer WHERE test_uid = ?1 ORDER BY "
		"graded_at, rowid",
		&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, t->uid, -1, SQLITE_STATIC);
	memset(ss->grade, 0, (t->n ? t->n : 1) * sizeof *ss->grade);
	set_str(&ss->last_uid, NULL);
	t->answered = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *qid = (const char *)sqlite3_column_text(st, 0);
		for (size_t i = 0; qid && i < t->n; i++)
			if (!strcmp(t->questions[i], qid))
				ss->grade[i] = sqlite3_column_int(st, 1);
		set_str(&ss->last_uid, (const char *)sqlite3_column_text(st, 2));
		t->answered++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sqlitex_err(rc);
	advance(ss);
	return 0;
}

int quiz_session_resume(struct store *s, const struct quiz_bank *bank, struct quiz_session **out)
{
	*out = NULL;
	struct quiz_test *t;
	int err = answers_running_test(s, &t);
	if (err)
		return err;
	struct quiz_session *ss = wb_xcalloc(1, sizeof *ss);
	ss->store = s;
	ss->test = t;
	ss->q = wb_xcalloc(t->n ? t->n : 1, sizeof *ss->q);
	ss->grade = wb_xcalloc(t->n ? t->n : 1, sizeof *ss->grade);
	for (size_t i = 0; i < t->n; i++)
		ss->q[i] = quiz_bank_find(bank, t->questions[i]);
	err = load_progress(ss);
	if (err) {
		quiz_session_free(ss);
		return err;
	}
	*out = ss;
	return 0;
}

int quiz_session_refresh(struct quiz_session *ss)
{
	return load_progress(ss);
}

int quiz_session_grade_of(const struct quiz_session *ss, const char *question)
{
	for (size_t i = 0; i < ss->test->n; i++)
		if (!strcmp(ss->test->questions[i], question))
			return ss->grade[i];
	return 0;
}

const struct quiz_question *quiz_session_current(const struct quiz_session *ss)
{
	return ss->cur < ss->test->n ? ss->q[ss->cur] : NULL;
}

size_t quiz_session_answered(const struct quiz_session *ss)
{
	size_t n = 0;
	for (size_t i = 0; i < ss->test->n; i++)
		n += ss->grade[i] != 0;
	return n;
}

int quiz_session_grade(struct quiz_session *ss, struct answer *a)
{
	const struct quiz_question *q = quiz_session_current(ss);
	if (!q)
		return WB_EINVAL;
	struct quiz_test *t = ss->test;
	set_str(&a->test_uid, t->uid);
	set_str(&a->question, q->id);
	set_str(&a->chapter, t->chapters[ss->cur]);
	set_str(&a->lang, t->lang);
	set_str(&a->kind, quiz_kind_name(q->kind));
	a->max_points = q->max_points;
	a->closed_book = t->closed_book;
	int err = answers_save(ss->store, a);
	if (err == WB_ECONFLICT) {
		/* Another process graded this question or ended the test:
		 * catch up with what it stored. */
		int e = load_progress(ss);
		return e ? e : WB_ECONFLICT;
	}
	if (err)
		return err;
	/* The answer is saved; its draft, if any, has served (a stale one
	 * left by a failure here is never shown: the question is graded). */
	quiz_session_save_draft(ss, NULL, 0);
	ss->grade[ss->cur] = a->grade;
	set_str(&ss->last_uid, a->uid);
	t->answered++;
	advance(ss);
	return 0;
}

int quiz_session_undo(struct quiz_session *ss, struct answer *undone)
{
	sqlite3 *db = store_db(ss->store);
	struct answer a = {0};
	sqlite3_stmt *st = NULL;
	int conflict = 0;
	int err = sqlitex_begin_immediate(db);
	if (err)
		return err;
	err = sqlitex_prepare(db,
			      "SELECT " ANSWERS_COLUMNS
			      " FROM quiz_answer WHERE test_uid = ?1 ORDER BY "
			      "graded_at DESC, rowid DESC LIMIT 1",
			      &st);
	if (err)
		goto out;
	sqlite3_bind_text(st, 1, ss->test->uid, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		answers_read_row(st, &a);
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_ROW) {
		err = rc == SQLITE_DONE ? WB_ENOENT : sqlitex_err(rc);
		goto out;
	}
	if (!ss->last_uid || strcmp(a.uid, ss->last_uid) != 0) {
		/* The newest grade was given by another process: not ours to
		 * take back. */
		conflict = 1;
		err = WB_ECONFLICT;
		goto out;
	}
	err = sqlitex_prepare(db, "DELETE FROM quiz_answer WHERE uid = ?1", &st);
	if (err)
		goto out;
	sqlite3_bind_text(st, 1, a.uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		err = sqlitex_err(rc);
		goto out;
	}
	if (!a.learner || !a.learner[0])
		err = answers_replay(db, a.question);
	if (!err)
		testhook_hold("undo");
	if (!err)
		err = sqlitex_end(db, 0);
out:
	if (err) {
		sqlitex_rollback(db);
		answer_clear(&a);
		if (conflict) {
			int e = load_progress(ss);
			return e ? e : WB_ECONFLICT;
		}
		return err;
	}
	/* Our own newest answer is gone: the test's next newest is known. */
	err = load_progress(ss);
	if (err) {
		answer_clear(&a);
		return err;
	}
	if (undone)
		*undone = a;
	else
		answer_clear(&a);
	return 0;
}

static int end_test(sqlite3 *db, const char *uid, const char *state, int64_t now_ms)
{
	int err = sqlitex_begin_immediate(db);
	if (err)
		return err;
	sqlite3_stmt *st;
	err = sqlitex_prepare(
		db,
		"UPDATE quiz_test SET state = ?1, finished_at = ?2 WHERE state = 'running' AND "
		"(?3 IS NULL OR uid = ?3)",
		&st);
	if (err) {
		sqlitex_rollback(db);
		return err;
	}
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now_ms);
	sqlitex_bind_text_or_null(st, 3, uid);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		sqlitex_rollback(db);
		return sqlitex_err(rc);
	}
	return sqlitex_end(db, 0);
}

int quiz_session_finish(struct quiz_session *ss, int64_t now_ms)
{
	int err = end_test(store_db(ss->store), ss->test->uid, "finished", now_ms);
	if (!err)
		set_str(&ss->test->state, "finished");
	return err;
}

int quiz_session_abandon(struct quiz_session *ss, int64_t now_ms)
{
	int err = end_test(store_db(ss->store), ss->test->uid, "abandoned", now_ms);
	if (!err)
		set_str(&ss->test->state, "abandoned");
	return err;
}

int answers_abandon_running(struct store *s, int64_t now_ms)
{
	return end_test(store_db(s), NULL, "abandoned", now_ms);
}

static int blank(const char *s)
{
	for (; s && *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return 0;
	return 1;
}

int quiz_session_save_draft(struct quiz_session *ss, const char *text, int64_t now_ms)
{
	const struct quiz_question *q = quiz_session_current(ss);
	if (!q)
		return WB_EINVAL;
	sqlite3 *db = store_db(ss->store);
	sqlite3_stmt *st = NULL;
	int keep = !blank(text);
	int err = sqlitex_prepare(
		db,
		keep ? "INSERT INTO quiz_draft (test_uid, question, text, saved_at) "
		       "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (test_uid, question) "
		       "DO UPDATE SET text = ?3, saved_at = ?4"
		     : "DELETE FROM quiz_draft WHERE test_uid = ?1 AND question = ?2",
		&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, ss->test->uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ss->test->questions[ss->cur], -1, SQLITE_STATIC);
	if (keep) {
		sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, now_ms);
	}
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

int quiz_session_draft(struct quiz_session *ss, char **text)
{
	*text = NULL;
	if (!quiz_session_current(ss))
		return 0;
	sqlite3_stmt *st = NULL;
	int err = sqlitex_prepare(
		store_db(ss->store),
		"SELECT text FROM quiz_draft WHERE test_uid = ?1 AND question = ?2", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, ss->test->uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ss->test->questions[ss->cur], -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*text = sqlitex_column_dup(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

void quiz_session_free(struct quiz_session *ss)
{
	if (!ss)
		return;
	quiz_test_free(ss->test);
	free(ss->q);
	free(ss->grade);
	free(ss->last_uid);
	free(ss);
}

/* ---- resume or start ---- */

int quiz_session_is_same(const struct quiz_test *run, const char *chapter)
{
	if (!run)
		return 0;
	return chapter ? run->chapter && !strcmp(run->chapter, chapter)
		       : run->kind && !strcmp(run->kind, "review");
}

static const char *bank_lang(const char *lang)
{
	return lang && !strcmp(lang, "zh") ? "zh" : "en";
}

/* 1 when bank has every question of test t, else 0 (also for no bank). */
static int bank_has_all(const struct quiz_bank *bank, const struct quiz_test *t)
{
	if (!bank)
		return 0;
	for (size_t i = 0; i < t->n; i++)
		if (!quiz_bank_find(bank, t->questions[i]))
			return 0;
	return 1;
}

/* One resume of the running test `run` into out: with a bank in
 * req->lang when that bank has every question of run, else in run's own
 * language. */
static int open_resume(struct store *s, const struct quiz_session_req *req,
		       const struct quiz_test *run, struct quiz_session_opened *out)
{
	out->step = QUIZ_OPEN_RESUME;
	const char *want = bank_lang(req->lang), *own = bank_lang(run->lang);
	quiz_bank_open(req->content_root, req->instructor_dir, want, &out->bank);
	if (strcmp(want, own) != 0 && !bank_has_all(out->bank, run)) {
		quiz_bank_free(out->bank);
		out->bank = NULL;
		quiz_bank_open(req->content_root, req->instructor_dir, own, &out->bank);
	}
	int err = quiz_session_resume(s, out->bank, &out->ss);
	out->resumed = err == 0;
	return err;
}

/* The questions a new test of req asks from, borrowed from bank. */
static int find_questions(struct store *s, const struct quiz_session_req *req,
			  const struct quiz_bank *bank, const struct quiz_question ***qs, size_t *n)
{
	*qs = NULL;
	*n = 0;
	if (req->chapter) {
		*n = quiz_bank_chapter(bank, req->chapter, qs);
		return 0;
	}
	int64_t now_s = answers_now_ms() / 1000;
	return answers_due(s, bank, answers_day_start(now_s, 1), qs, n);
}

int quiz_session_pool(struct store *s, const struct quiz_session_req *req, size_t *n)
{
	struct quiz_bank *bank = NULL;
	const struct quiz_question **qs = NULL;
	*n = 0;
	quiz_bank_open(req->content_root, req->instructor_dir, bank_lang(req->lang), &bank);
	int err = bank ? find_questions(s, req, bank, &qs, n) : 0;
	if (err)
		*n = 0;
	free(qs);
	quiz_bank_free(bank);
	return err;
}

/* One start of what req asks for into out. */
static int open_start(struct store *s, const struct quiz_session_req *req,
		      struct quiz_session_opened *out)
{
	out->step = QUIZ_OPEN_START;
	if (req->no_start)
		return WB_ENOENT;
	const char *lang = bank_lang(req->lang);
	quiz_bank_open(req->content_root, req->instructor_dir, lang, &out->bank);
	if (!out->bank)
		return WB_ENOENT;
	const struct quiz_question **qs = NULL;
	size_t n = 0;
	int err = find_questions(s, req, out->bank, &qs, &n);
	if (!err && n == 0)
		err = WB_ENOENT;
	if (!err)
		err = quiz_session_start(s, req->chapter ? "chapter" : "review", req->chapter, lang,
					 req->closed_book, qs, n, req->limit, answers_random_seed(),
					 answers_now_ms(), &out->ss);
	free(qs);
	return err;
}

int quiz_session_open(struct store *s, const struct quiz_session_req *req,
		      struct quiz_session_opened *out)
{
	memset(out, 0, sizeof *out);
	int err = 0;
	/* Another process may start a test between the look and the start
	 * (the start sees it in its transaction: WB_ECONFLICT) or end the
	 * running one before the resume (WB_ENOENT): look again. */
	for (int attempt = 0; attempt < 4; attempt++) {
		struct quiz_test *run = NULL;
		out->step = QUIZ_OPEN_LOOK;
		err = answers_running_test(s, &run);
		if (err && err != WB_ENOENT)
			return err;
		if (run && (!req->resume || !quiz_session_is_same(run, req->chapter))) {
			out->conflict = run;
			return WB_ECONFLICT;
		}
		if (run) {
			err = open_resume(s, req, run, out);
			quiz_test_free(run);
		} else {
			err = open_start(s, req, out);
		}
		int lost = run ? err == WB_ENOENT : err == WB_ECONFLICT;
		if (!err && out->resumed && req->limit)
			err = quiz_session_trim(out->ss, req->limit, &out->trimmed);
		if (!err || !lost)
			break;
		quiz_bank_free(out->bank);
		out->bank = NULL;
	}
	if (err) {
		quiz_bank_free(out->bank);
		out->bank = NULL;
	}
	return err;
}

int quiz_session_trim(struct quiz_session *ss, size_t limit, int *cut)
{
	*cut = 0;
	size_t open = 0;
	for (size_t i = 0; i < ss->test->n; i++)
		open += !ss->grade[i];
	if (!limit || open <= limit)
		return 0;
	sqlite3 *db = store_db(ss->store);
	sqlite3_stmt *st = NULL;
	int err = sqlitex_begin_immediate(db);
	if (err)
		return err;
	/* Ungraded items past the first `limit` ungraded ones go; in the
	 * transaction, so a grade another process just gave is seen. */
	err = sqlitex_prepare(
		db,
		"DELETE FROM quiz_test_item WHERE test_uid = ?1 AND pos IN ("
		" SELECT pos FROM quiz_test_item WHERE test_uid = ?1 AND question NOT IN"
		" (SELECT question FROM quiz_answer WHERE test_uid = ?1)"
		" ORDER BY pos LIMIT -1 OFFSET ?2)",
		&st);
	if (!err) {
		sqlite3_bind_text(st, 1, ss->test->uid, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)limit);
		int rc = sqlite3_step(st);
		err = rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
		*cut = !err && sqlite3_changes(db) > 0;
		sqlite3_finalize(st);
	}
	err = err ? err : sqlitex_end(db, 0);
	if (err) {
		sqlitex_rollback(db);
		*cut = 0;
		return err;
	}
	/* Reload the shorter order; questions stay borrowed from the same
	 * bank (looked up again by id). */
	struct quiz_test *t;
	err = answers_running_test(ss->store, &t);
	if (err)
		return err == WB_ENOENT ? 0 : err;
	const struct quiz_question **q = wb_xcalloc(t->n ? t->n : 1, sizeof *q);
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = 0; j < ss->test->n; j++)
			if (ss->q[j] && !strcmp(ss->test->questions[j], t->questions[i]))
				q[i] = ss->q[j];
	quiz_test_free(ss->test);
	free(ss->q);
	free(ss->grade);
	ss->test = t;
	ss->q = q;
	ss->grade = wb_xcalloc(t->n ? t->n : 1, sizeof *ss->grade);
	return load_progress(ss);
}

void quiz_session_opened_clear(struct quiz_session_opened *out)
{
	if (!out)
		return;
	quiz_session_free(out->ss);
	quiz_bank_free(out->bank);
	quiz_test_free(out->conflict);
	memset(out, 0, sizeof *out);
}

int quiz_session_blocks_lesson(struct store *s, const char *chapter, struct quiz_test **test)
{
	*test = NULL;
	struct quiz_test *run = NULL;
	int err = answers_running_test(s, &run);
	if (err == WB_ENOENT)
		return 0;
	if (err)
		return err;
	if (quiz_test_covers(run, chapter) && run->answered > 0)
		*test = run;
	else
		quiz_test_free(run);
	return 0;
}
