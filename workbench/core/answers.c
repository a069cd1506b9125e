/*
 * answers.c - graded answers, test sessions, schedules, statistics and
 * export/import on the progress database (see answers.h).
 *
 * Tables (store.c migration 2)
 *   quiz_test       one row per test; state running|finished|abandoned;
 *                   a unique partial index allows one running test.
 *   quiz_test_item  the shuffled order of a test: (test_uid, pos).
 *   quiz_answer     one row per graded answer, keyed by a random uid so
 *                   that exports from several databases merge cleanly.
 *   quiz_schedule   FSRS state per question id (language-independent: the
 *                   same id in two languages is the same question).
 *
 * Invariants
 * - quiz_schedule is a pure function of this learner's answers: every
 *   write that adds or removes an answer replays that question's history
 *   (sched_review over its answers in graded order) in the same
 *   transaction.  Undo and import therefore can never leave a schedule
 *   that disagrees with the answers.
 * - Each graded answer is its own BEGIN IMMEDIATE transaction.
 * - Nothing here trusts the clock to be monotonic; times are only stored
 *   and compared.
 */
#include "core/answers.h"
#include "core/content.h"
#include "core/quiz.h"
#include "core/sched.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/sqlitex.h"
#include "base/wb.h"

#include <ctype.h>
#include <jansson.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- clock, randomness ---- */

int64_t answers_now_ms(void)
{
	static int init;
	static int64_t base_ms, mono0_ms;
	struct timespec ts;
	if (!init) {
		init = 1;
		const char *env = getenv("WORKBENCH_NOW");
		if (env && *env) {
			char *end;
			long long v = strtoll(env, &end, 10);
			if (*end == '\0' && v > 0) {
				base_ms = (int64_t)v * 1000;
				clock_gettime(CLOCK_MONOTONIC, &ts);
				mono0_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
			}
		}
	}
	if (base_ms) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		return base_ms + ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - mono0_ms);
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void random_bytes(unsigned char *b, size_t n)
{
	FILE *f = fopen("/dev/urandom", "rb");
	if (f) {
		size_t got = fread(b, 1, n, f);
		fclose(f);
		if (got == n)
			return;
	}
	static uint64_t state;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	state ^= (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v = splitmix(&state);
		for (size_t k = 0; k < 8 && i + k < n; k++)
			b[i + k] = (unsigned char)(v >> (8 * k));
	}
}

uint64_t answers_random_seed(void)
{
	const char *env = getenv("WORKBENCH_SEED");
	if (env && *env)
		return strtoull(env, NULL, 10);
	unsigned char b[8];
	random_bytes(b, sizeof b);
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static char *new_uid(void)
{
	unsigned char b[16];
	random_bytes(b, sizeof b);
	char *s = wb_xmalloc(33);
	for (int i = 0; i < 16; i++)
		snprintf(s + 2 * i, 3, "%02x", b[i]);
	return s;
}

/* ---- SQLite helpers (opening, BEGIN IMMEDIATE, the code map: base/sqlitex) ---- */

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? wb_xstrdup((const char *)t) : NULL;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* ---- answers ---- */

void answer_clear(struct answer *a)
{
	if (!a)
		return;
	free(a->uid);
	free(a->learner);
	free(a->test_uid);
	free(a->question);
	free(a->chapter);
	free(a->lang);
	free(a->kind);
	free(a->text);
	free(a->ticked);
	memset(a, 0, sizeof *a);
}

static int kind_ok(const char *k)
{
	return k && (!strcmp(k, "recall") || !strcmp(k, "choice") || !strcmp(k, "numeric"));
}

static int uid_ok(const char *u)
{
	size_t n = u ? strlen(u) : 0;
	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)u[i]) && u[i] != '-')
			return 0;
	return 1;
}

/* Why an answer is not storable, or NULL. */
static const char *answer_invalid(const struct answer *a)
{
	if (!uid_ok(a->uid))
		return "bad uid";
	if (!quiz_valid_id(a->question))
		return "bad question id";
	if (!content_valid_chapter_id(a->chapter))
		return "bad chapter id";
	if (!content_lang_ok(a->lang))
		return "bad language";
	if (!kind_ok(a->kind))
		return "bad kind";
	if (a->grade < GRADE_AGAIN || a->grade > GRADE_GOT)
		return "bad grade";
	if (a->max_points < 0 || a->points < 0 || a->points > a->max_points)
		return "points out of range";
	if (a->test_uid && !uid_ok(a->test_uid))
		return "bad test uid";
	if (a->closed_book != 0 && a->closed_book != 1)
		return "closed_book must be 0 or 1";
	if (a->shown_at <= 0 || a->graded_at <= 0)
		return "missing time";
	/* Free text is stored as it came, but only as UTF-8: JSON (export)
	 * cannot carry other bytes, so they would be lost on a round trip. */
	if (a->text && !utf8_valid(a->text, strlen(a->text)))
		return "the answer is not valid UTF-8";
	if (a->ticked && !utf8_valid(a->ticked, strlen(a->ticked)))
		return "ticked is not valid UTF-8";
	if (a->learner && !utf8_valid(a->learner, strlen(a->learner)))
		return "the learner name is not valid UTF-8";
	return NULL;
}

/* Recomputes a question's schedule from this learner's answers. */
static int replay(sqlite3 *db, const char *question)
{
	sqlite3_stmt *st = NULL;
	int err =
		sqlitex_prepare(db,
				"SELECT grade, graded_at FROM quiz_answer WHERE question = ?1 AND "
				"learner = '' ORDER BY graded_at, rowid",
				&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
	struct sched_state s = {0};
	int last = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		last = sqlite3_column_int(st, 0);
		sched_review(&s, sched_rating_of_grade(last), sqlite3_column_int64(st, 1) / 1000);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sqlitex_err(rc);
	if (s.reps == 0) {
		err = sqlitex_prepare(db, "DELETE FROM quiz_schedule WHERE question = ?1", &st);
		if (err)
			return err;
		sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
	} else {
		err = sqlitex_prepare(
			db,
			"INSERT OR REPLACE INTO quiz_schedule (question, stability, difficulty, "
			"reps, lapses, last_review, due, last_grade) VALUES (?1, ?2, ?3, ?4, ?5, "
			"?6, ?7, ?8)",
			&st);
		if (err)
			return err;
		sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 2, s.stability);
		sqlite3_bind_double(st, 3, s.difficulty);
		sqlite3_bind_int(st, 4, s.reps);
		sqlite3_bind_int(st, 5, s.lapses);
		sqlite3_bind_int64(st, 6, s.last_review);
		sqlite3_bind_int64(st, 7, s.due);
		sqlite3_bind_int(st, 8, last);
	}
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

static const char insert_sql[] =
	"INSERT OR IGNORE INTO quiz_answer (uid, learner, test_uid, question, chapter, lang, kind, "
	"shown_at, revealed_at, graded_at, answer, ticked, points, max_points, grade, "
	"closed_book) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
	"?16)";

/* Inserts (ignoring a known uid); *added is 1 when a row was written. */
static int insert_answer(sqlite3 *db, const struct answer *a, int *added)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(db, insert_sql, &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, a->uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, a->learner ? a->learner : "", -1, SQLITE_STATIC);
	bind_text_or_null(st, 3, a->test_uid);
	sqlite3_bind_text(st, 4, a->question, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, a->chapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, a->lang, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, a->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, a->shown_at);
	if (a->revealed_at)
		sqlite3_bind_int64(st, 9, a->revealed_at);
	else
		sqlite3_bind_null(st, 9);
	sqlite3_bind_int64(st, 10, a->graded_at);
	bind_text_or_null(st, 11, a->text);
	bind_text_or_null(st, 12, a->ticked);
	sqlite3_bind_int(st, 13, a->points);
	sqlite3_bind_int(st, 14, a->max_points);
	sqlite3_bind_int(st, 15, a->grade);
	sqlite3_bind_int(st, 16, a->closed_book);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (added)
		*added = sqlite3_changes(db) > 0;
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

static void kill_hook(void)
{
	static int saves;
	const char *k = getenv("WORKBENCH_TEST_KILL_IN_SAVE");
	saves++;
	if (k && atoi(k) == saves)
		raise(SIGKILL);
}

/* Test hook (answers.h): WORKBENCH_TEST_HOLD=WHAT:N holds the N-th WHAT
 * of this process on the fifos WORKBENCH_TEST_HOLD_FIFO.held (written)
 * and .go (read), so a test can make two processes overlap exactly. */
static void hold_hook(const char *what)
{
	static const char *const points[] = {"save", "start", "start-begin", "undo", "import"};
	static int count[WB_ARRAY_LEN(points)];
	const char *h = getenv("WORKBENCH_TEST_HOLD");
	const char *fifo = getenv("WORKBENCH_TEST_HOLD_FIFO");
	size_t k = 0, len = strlen(what);
	while (k < WB_ARRAY_LEN(points) && strcmp(points[k], what) != 0)
		k++;
	if (k == WB_ARRAY_LEN(points))
		return;
	count[k]++;
	if (!h || !fifo || strncmp(h, what, len) != 0 || h[len] != ':' ||
	    atoi(h + len + 1) != count[k])
		return;
	char *held = wb_xasprintf("%s.held", fifo), *go = wb_xasprintf("%s.go", fifo);
	FILE *f = fopen(held, "w");
	if (f) {
		fprintf(f, "%s %d\n", what, count[k]);
		fclose(f);
	}
	f = fopen(go, "r");
	if (f) {
		char line[64];
		(void)!fgets(line, sizeof line, f);
		fclose(f);
	}
	free(held);
	free(go);
}

/* For an answer in a test: WB_ECONFLICT when the test is no longer
 * running or already has an answer to this question (another process
 * graded it first).  Runs inside the save's transaction, so the answer
 * is checked against what is committed now, not what this process saw. */
static int test_answer_conflict(sqlite3 *db, const struct answer *a)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		db,
		"SELECT (SELECT state FROM quiz_test WHERE uid = ?1) = 'running', "
		"EXISTS (SELECT 1 FROM quiz_answer WHERE test_uid = ?1 AND question = ?2)",
		&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, a->test_uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, a->question, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		err = sqlite3_column_int(st, 0) != 1 || sqlite3_column_int(st, 1) ? WB_ECONFLICT
										  : 0;
	else
		err = sqlitex_err(rc);
	sqlite3_finalize(st);
	return err;
}

int answers_save(struct store *s, struct answer *a)
{
	sqlite3 *db = store_db(s);
	if (!a->uid)
		a->uid = new_uid();
	if (!a->learner)
		a->learner = wb_xstrdup("");
	if (answer_invalid(a))
		return WB_EINVAL;
	int err = sqlitex_begin_immediate(db);
	if (err)
		return err;
	if (a->test_uid)
		err = test_answer_conflict(db, a);
	int added = 0;
	if (!err)
		err = insert_answer(db, a, &added);
	if (!err && !added)
		err = WB_EINVAL; /* the uid exists: never overwrite a graded answer */
	if (!err)
		kill_hook();
	if (!err && !a->learner[0])
		err = replay(db, a->question);
	if (!err)
		hold_hook("save");
	if (err) {
		sqlitex_rollback(db);
		return err;
	}
	return sqlitex_end(db, 0);
}

int answers_count(struct store *s, const char *test_uid, size_t *n)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(store_db(s),
				  test_uid ? "SELECT COUNT(*) FROM quiz_answer WHERE test_uid = ?1"
					   : "SELECT COUNT(*) FROM quiz_answer",
				  &st);
	if (err)
		return err;
	if (test_uid)
		sqlite3_bind_text(st, 1, test_uid, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*n = rc == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sqlitex_err(rc);
}

/* ---- tests ---- */

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
		t->questions[t->n] = col_dup(st, 0);
		t->chapters[t->n] = col_dup(st, 1);
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
	t->uid = col_dup(st, 0);
	t->kind = col_dup(st, 1);
	t->chapter = col_dup(st, 2);
	t->lang = col_dup(st, 3);
	t->closed_book = sqlite3_column_int(st, 4);
	t->state = col_dup(st, 5);
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

int quiz_session_start(struct store *s, const char *kind, const char *chapter, const char *lang,
		       int closed_book, const struct quiz_question *const *qs, size_t n,
		       size_t limit, uint64_t seed, int64_t now_ms, struct quiz_session **out)
{
	*out = NULL;
	if (n == 0 || !kind || (strcmp(kind, "chapter") && strcmp(kind, "review")))
		return WB_EINVAL;
	sqlite3 *db = store_db(s);
	size_t *order = wb_xmalloc(n * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(splitmix(&seed) % (i + 1));
		size_t tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	if (limit && limit < n)
		n = limit;
	struct quiz_test *t = wb_xcalloc(1, sizeof *t);
	t->uid = new_uid();
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

	sqlite3_stmt *st = NULL;
	hold_hook("start-begin");
	int err = sqlitex_begin_immediate(db);
	if (err)
		goto out;
	/* Checked again here: another process may have started a test since
	 * the caller looked. */
	err = sqlitex_prepare(db, "SELECT EXISTS (SELECT 1 FROM quiz_test WHERE state = 'running')",
			      &st);
	if (err)
		goto out;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_int(st, 0))
		err = WB_ECONFLICT;
	else if (rc != SQLITE_ROW)
		err = sqlitex_err(rc);
	sqlite3_finalize(st);
	st = NULL;
	if (err)
		goto out;
	err = sqlitex_prepare(
		db,
		"INSERT INTO quiz_test (uid, kind, chapter, lang, closed_book, state, "
		"started_at) VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6)",
		&st);
	if (err)
		goto out;
	sqlite3_bind_text(st, 1, t->uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->kind, -1, SQLITE_STATIC);
	bind_text_or_null(st, 3, t->chapter);
	sqlite3_bind_text(st, 4, t->lang, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, t->closed_book);
	sqlite3_bind_int64(st, 6, now_ms);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		/* The partial unique index: another test is running. */
		err = (rc & 0xFF) == SQLITE_CONSTRAINT ? WB_ECONFLICT : sqlitex_err(rc);
		goto out;
	}
	err = sqlitex_prepare(
		db,
		"INSERT INTO quiz_test_item (test_uid, pos, question, chapter) VALUES (?1, ?2, "
		"?3, ?4)",
		&st);
	if (err)
		goto out;
	for (size_t i = 0; i < n && !err; i++) {
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
	st = NULL;
	if (err)
		goto out;
	hold_hook("start");
	err = sqlitex_end(db, 0);
out:
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
	ss->grade[ss->cur] = a->grade;
	set_str(&ss->last_uid, a->uid);
	t->answered++;
	advance(ss);
	return 0;
}

static void read_answer_row(sqlite3_stmt *st, struct answer *a)
{
	memset(a, 0, sizeof *a);
	a->uid = col_dup(st, 0);
	a->learner = col_dup(st, 1);
	a->test_uid = col_dup(st, 2);
	a->question = col_dup(st, 3);
	a->chapter = col_dup(st, 4);
	a->lang = col_dup(st, 5);
	a->kind = col_dup(st, 6);
	a->shown_at = sqlite3_column_int64(st, 7);
	a->revealed_at = sqlite3_column_int64(st, 8);
	a->graded_at = sqlite3_column_int64(st, 9);
	a->text = col_dup(st, 10);
	a->ticked = col_dup(st, 11);
	a->points = sqlite3_column_int(st, 12);
	a->max_points = sqlite3_column_int(st, 13);
	a->grade = sqlite3_column_int(st, 14);
	a->closed_book = sqlite3_column_int(st, 15);
}

#define ANSWER_COLUMNS                                                                             \
	"uid, learner, test_uid, question, chapter, lang, kind, shown_at, "                        \
	"COALESCE(revealed_at, 0), graded_at, answer, ticked, points, max_points, grade, "         \
	"closed_book"

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
			      "SELECT " ANSWER_COLUMNS
			      " FROM quiz_answer WHERE test_uid = ?1 ORDER BY "
			      "graded_at DESC, rowid DESC LIMIT 1",
			      &st);
	if (err)
		goto out;
	sqlite3_bind_text(st, 1, ss->test->uid, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		read_answer_row(st, &a);
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
		err = replay(db, a.question);
	if (!err)
		hold_hook("undo");
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
	bind_text_or_null(st, 3, uid);
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

/* ---- summaries and statistics ---- */

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
		it->question = col_dup(st, 0);
		it->chapter = col_dup(st, 1);
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

int answers_due(struct store *s, const struct quiz_bank *bank, int64_t until_s,
		const struct quiz_question ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		store_db(s),
		"SELECT question FROM quiz_schedule WHERE due < ?1 ORDER BY due, question", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, until_s);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct quiz_question *q =
			quiz_bank_find(bank, (const char *)sqlite3_column_text(st, 0));
		if (!q)
			continue;
		*out = wb_xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = q;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

int64_t answers_day_start(int64_t t_s, int days)
{
	time_t t = (time_t)t_s;
	struct tm tm;
	localtime_r(&t, &tm);
	tm.tm_mday += days;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
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
			.test_uid = col_dup(st, 0),
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
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		store_db(s),
		"SELECT question, MIN(chapter), COUNT(*), "
		"AVG(CASE WHEN max_points > 0 THEN CAST(points AS REAL) / max_points ELSE "
		"0 END), SUM(grade = 1), SUM(grade = 2), SUM(grade = 3) FROM quiz_answer "
		"GROUP BY question ORDER BY MIN(chapter), question",
		&st);
	if (err)
		return err;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = wb_xrealloc(*out, (*n + 1) * sizeof **out);
		struct answers_qstat *q = &(*out)[(*n)++];
		memset(q, 0, sizeof *q);
		q->question = col_dup(st, 0);
		q->chapter = col_dup(st, 1);
		q->attempts = sqlite3_column_int(st, 2);
		q->mean_share = sqlite3_column_double(st, 3);
		q->grades[1] = sqlite3_column_int(st, 4);
		q->grades[2] = sqlite3_column_int(st, 5);
		q->grades[3] = sqlite3_column_int(st, 6);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlitex_err(rc);
}

void answers_question_stats_free(struct answers_qstat *q, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(q[i].question);
		free(q[i].chapter);
	}
	free(q);
}

/* ---- export ---- */

static const char *const export_columns[] = {
	"uid",	  "learner",	"test",	       "question",    "chapter", "lang",
	"kind",	  "shown_at",	"revealed_at", "graded_at",   "answer",	 "ticked",
	"points", "max_points", "grade",       "closed_book",
};

/* "2026-11-30T17:31:15.123Z"; "" for 0. */
static void iso_ms(int64_t ms, char *buf, size_t len)
{
	if (ms <= 0) {
		buf[0] = '\0';
		return;
	}
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

/* Parses iso_ms's format (milliseconds optional) or plain milliseconds.
 * Returns 1 on success. */
static int parse_time(const char *s, int64_t *ms)
{
	if (!s || !*s)
		return 0;
	const char *p = s;
	while (isdigit((unsigned char)*p))
		p++;
	if (!*p) {
		*ms = strtoll(s, NULL, 10);
		return *ms > 0;
	}
	struct tm tm = {0};
	int y, mo, d, h, mi, sec, frac = 0, n = 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6)
		return 0;
	p = s + n;
	if (*p == '.') {
		p++;
		int digits = 0;
		while (isdigit((unsigned char)*p)) {
			if (digits < 3)
				frac = frac * 10 + (*p - '0');
			digits++;
			p++;
		}
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if (strcmp(p, "Z") != 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 60)
		return 0;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	*ms = (int64_t)timegm(&tm) * 1000 + frac;
	return *ms > 0;
}

/* A JSON string of s; bytes that are not UTF-8 (a database written by
 * other tools) become U+FFFD rather than the field going missing. */
static json_t *jstr(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (!j) {
		char *fixed = utf8_repair(s, strlen(s));
		j = json_string(fixed);
		free(fixed);
	}
	return j;
}

static void csv_field(FILE *out, const char *s, int last)
{
	if (!s)
		s = "";
	int quote =
		strpbrk(s, ",\"\r\n") != NULL ||
		(*s && (isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1])));
	if (quote) {
		fputc('"', out);
		for (const char *c = s; *c; c++) {
			if (*c == '"')
				fputc('"', out);
			fputc(*c, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputs(last ? "\r\n" : ",", out);
}

int answers_export(struct store *s, FILE *out, enum answers_format fmt, const char *learner)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		store_db(s), "SELECT " ANSWER_COLUMNS " FROM quiz_answer ORDER BY graded_at, rowid",
		&st);
	if (err)
		return err;
	json_t *arr = fmt == ANSWERS_JSON ? json_array() : NULL;
	if (fmt == ANSWERS_CSV)
		for (size_t i = 0; i < WB_ARRAY_LEN(export_columns); i++)
			csv_field(out, export_columns[i], i + 1 == WB_ARRAY_LEN(export_columns));
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct answer a;
		read_answer_row(st, &a);
		const char *who = a.learner && a.learner[0] ? a.learner : (learner ? learner : "");
		char shown[80], revealed[80], graded[80], num[3][16];
		iso_ms(a.shown_at, shown, sizeof shown);
		iso_ms(a.revealed_at, revealed, sizeof revealed);
		iso_ms(a.graded_at, graded, sizeof graded);
		if (fmt == ANSWERS_CSV) {
			snprintf(num[0], sizeof num[0], "%d", a.points);
			snprintf(num[1], sizeof num[1], "%d", a.max_points);
			snprintf(num[2], sizeof num[2], "%d", a.closed_book);
			const char *f[] = {
				a.uid,	who,	  a.test_uid, a.question, a.chapter,
				a.lang, a.kind,	  shown,      revealed,	  graded,
				a.text, a.ticked, num[0],     num[1],	  quiz_grade_key(a.grade),
				num[2]};
			for (size_t i = 0; i < WB_ARRAY_LEN(f); i++)
				csv_field(out, f[i], i + 1 == WB_ARRAY_LEN(f));
		} else {
			json_t *o = json_object();
			json_object_set_new(o, "uid", jstr(a.uid));
			json_object_set_new(o, "learner", jstr(who));
			json_object_set_new(o, "test", a.test_uid ? jstr(a.test_uid) : json_null());
			json_object_set_new(o, "question", jstr(a.question));
			json_object_set_new(o, "chapter", jstr(a.chapter));
			json_object_set_new(o, "lang", jstr(a.lang));
			json_object_set_new(o, "kind", jstr(a.kind));
			json_object_set_new(o, "shown_at", jstr(shown));
			json_object_set_new(o, "revealed_at",
					    a.revealed_at ? jstr(revealed) : json_null());
			json_object_set_new(o, "graded_at", jstr(graded));
			json_object_set_new(o, "answer", a.text ? jstr(a.text) : json_null());
			json_object_set_new(o, "ticked", a.ticked ? jstr(a.ticked) : json_null());
			json_object_set_new(o, "points", json_integer(a.points));
			json_object_set_new(o, "max_points", json_integer(a.max_points));
			json_object_set_new(o, "grade", jstr(quiz_grade_key(a.grade)));
			json_object_set_new(o, "closed_book", json_boolean(a.closed_book));
			json_array_append_new(arr, o);
		}
		answer_clear(&a);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_decref(arr);
		return sqlitex_err(rc);
	}
	if (arr) {
		json_t *doc = json_pack("{s:s, s:i, s:o}", "format", "workbench-progress",
					"version", 1, "answers", arr);
		int bad = json_dumpf(doc, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0;
		json_decref(doc);
		fputc('\n', out);
		if (bad)
			return WB_EIO;
	}
	return ferror(out) ? WB_EIO : 0;
}

/* ---- import ---- */

struct rows {
	struct answer *a;
	size_t n;
};

static void rows_free(struct rows *r)
{
	for (size_t i = 0; i < r->n; i++)
		answer_clear(&r->a[i]);
	free(r->a);
}

static struct answer *rows_add(struct rows *r)
{
	r->a = wb_xrealloc(r->a, (r->n + 1) * sizeof *r->a);
	memset(&r->a[r->n], 0, sizeof r->a[r->n]);
	return &r->a[r->n++];
}

static int parse_int(const char *s, int *v)
{
	if (!s || !*s)
		return 0;
	char *end;
	long x = strtol(s, &end, 10);
	if (*end || x < 0 || x > 1000000)
		return 0;
	*v = (int)x;
	return 1;
}

/* Fills a from named fields; get(name) returns the value or NULL.
 * Returns NULL or a reason. */
static const char *fill_answer(struct answer *a, const char *(*get)(void *, const char *),
			       void *ctx)
{
	const char *v;
	a->uid = (v = get(ctx, "uid")) ? wb_xstrdup(v) : NULL;
	a->learner = wb_xstrdup((v = get(ctx, "learner")) ? v : "");
	a->test_uid = (v = get(ctx, "test")) && *v ? wb_xstrdup(v) : NULL;
	a->question = (v = get(ctx, "question")) ? wb_xstrdup(v) : NULL;
	a->chapter = (v = get(ctx, "chapter")) ? wb_xstrdup(v) : NULL;
	a->lang = (v = get(ctx, "lang")) ? wb_xstrdup(v) : NULL;
	a->kind = (v = get(ctx, "kind")) ? wb_xstrdup(v) : NULL;
	a->text = (v = get(ctx, "answer")) && *v ? wb_xstrdup(v) : NULL;
	a->ticked = (v = get(ctx, "ticked")) ? wb_xstrdup(v) : NULL;
	if (a->ticked && !a->ticked[0] && a->kind && strcmp(a->kind, "recall") != 0) {
		free(a->ticked);
		a->ticked = NULL;
	}
	if (!parse_time(get(ctx, "shown_at"), &a->shown_at))
		return "bad shown_at";
	v = get(ctx, "revealed_at");
	if (v && *v && !parse_time(v, &a->revealed_at))
		return "bad revealed_at";
	if (!parse_time(get(ctx, "graded_at"), &a->graded_at))
		return "bad graded_at";
	if (!parse_int(get(ctx, "points"), &a->points))
		return "bad points";
	if (!parse_int(get(ctx, "max_points"), &a->max_points))
		return "bad max_points";
	a->grade = quiz_grade_parse(get(ctx, "grade"));
	v = get(ctx, "closed_book");
	a->closed_book = 1;
	if (v && *v) {
		if (!strcmp(v, "0") || !strcmp(v, "false"))
			a->closed_book = 0;
		else if (strcmp(v, "1") != 0 && strcmp(v, "true") != 0)
			return "closed_book must be 0 or 1";
	}
	return answer_invalid(a);
}

struct csv_row {
	char **header;
	size_t nheader;
	char **f;
	size_t nf;
};

static const char *csv_get(void *ctx, const char *name)
{
	struct csv_row *r = ctx;
	for (size_t i = 0; i < r->nheader && i < r->nf; i++)
		if (!strcmp(r->header[i], name))
			return r->f[i];
	return NULL;
}

/* Reads one CSV record from *p; returns fields (malloc'd) or NULL at the
 * end.  *bad is set for an unterminated quote. */
static char **csv_record(const char **p, const char *end, size_t *nf, int *bad)
{
	*nf = 0;
	if (*p >= end)
		return NULL;
	char **f = NULL;
	struct wb_buf b = {0};
	const char *s = *p;
	for (;;) {
		int quoted = s < end && *s == '"';
		if (quoted) {
			s++;
			for (;;) {
				if (s >= end) {
					*bad = 1;
					break;
				}
				if (*s == '"') {
					if (s + 1 < end && s[1] == '"') {
						wb_buf_append(&b, "\"", 1);
						s += 2;
						continue;
					}
					s++;
					break;
				}
				wb_buf_append(&b, s, 1);
				s++;
			}
		}
		while (s < end && *s != ',' && *s != '\n' && *s != '\r') {
			wb_buf_append(&b, s, 1);
			s++;
		}
		f = wb_xrealloc(f, (*nf + 1) * sizeof *f);
		f[(*nf)++] = wb_buf_steal(&b);
		if (s < end && *s == ',') {
			s++;
			continue;
		}
		if (s < end && *s == '\r')
			s++;
		if (s < end && *s == '\n')
			s++;
		break;
	}
	*p = s;
	return f;
}

static void free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

static int parse_csv(const char *text, size_t len, struct rows *rows, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	int bad = 0;
	struct csv_row r = {0};
	r.header = csv_record(&p, end, &r.nheader, &bad);
	if (!r.header || bad) {
		snprintf(err, errlen, "line 1: no CSV header");
		free_fields(r.header, r.nheader);
		return WB_EINVAL;
	}
	static const char *required[] = {"uid",	     "question",  "chapter", "lang",	   "kind",
					 "shown_at", "graded_at", "points",  "max_points", "grade"};
	for (size_t i = 0; i < WB_ARRAY_LEN(required); i++) {
		r.nf = r.nheader;
		r.f = r.header;
		if (!csv_get(&r, required[i])) {
			snprintf(err, errlen, "line 1: the CSV header has no '%s' column",
				 required[i]);
			free_fields(r.header, r.nheader);
			return WB_EINVAL;
		}
	}
	int rc = 0;
	for (size_t rowno = 2;; rowno++) {
		r.f = csv_record(&p, end, &r.nf, &bad);
		if (!r.f)
			break;
		if (bad) {
			snprintf(err, errlen, "row %zu: a quoted field is not closed", rowno);
			rc = WB_EINVAL;
		} else if (!(r.nf == 1 && !r.f[0][0])) { /* skip blank lines */
			const char *why = fill_answer(rows_add(rows), csv_get, &r);
			if (why) {
				snprintf(err, errlen, "row %zu: %s", rowno, why);
				rc = WB_EINVAL;
			}
		}
		free_fields(r.f, r.nf);
		if (rc)
			break;
	}
	free_fields(r.header, r.nheader);
	return rc;
}

static const char *json_get(void *ctx, const char *name)
{
	json_t *o = ctx, *v = json_object_get(o, name);
	static char num[32];
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
		return num;
	}
	if (json_is_boolean(v))
		return json_is_true(v) ? "1" : "0";
	return NULL;
}

static int parse_json(const char *text, size_t len, struct rows *rows, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loadb(text, len, 0, &je);
	if (!doc) {
		snprintf(err, errlen, "line %d: %s", je.line, je.text);
		return WB_EINVAL;
	}
	json_t *arr = json_is_array(doc) ? doc : json_object_get(doc, "answers");
	if (!json_is_array(arr)) {
		snprintf(err, errlen, "no \"answers\" array");
		json_decref(doc);
		return WB_EINVAL;
	}
	int rc = 0;
	for (size_t i = 0; i < json_array_size(arr) && !rc; i++) {
		json_t *o = json_array_get(arr, i);
		const char *why = json_is_object(o) ? fill_answer(rows_add(rows), json_get, o)
						    : "not an object";
		if (why) {
			snprintf(err, errlen, "answer %zu: %s", i + 1, why);
			rc = WB_EINVAL;
		}
	}
	json_decref(doc);
	return rc;
}

int answers_import(struct store *s, const char *text, size_t len, size_t *added, size_t *skipped,
		   char *err, size_t errlen)
{
	*added = *skipped = 0;
	if (errlen)
		err[0] = '\0';
	struct rows rows = {0};
	size_t i = 0;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i + 3 <= len && !memcmp(text + i, "\xEF\xBB\xBF", 3))
		i += 3;
	int rc = i < len && (text[i] == '{' || text[i] == '[')
			 ? parse_json(text + i, len - i, &rows, err, errlen)
			 : parse_csv(text + i, len - i, &rows, err, errlen);
	if (rc) {
		rows_free(&rows);
		return rc;
	}
	sqlite3 *db = store_db(s);
	rc = sqlitex_begin_immediate(db);
	if (rc) {
		rows_free(&rows);
		snprintf(err, errlen, "%s",
			 rc == WB_EBUSY ? "the progress database is busy: another workbench is "
					  "writing to it; try again"
					: sqlite3_errmsg(db));
		return rc;
	}
	char **replays = NULL;
	size_t nreplays = 0;
	for (size_t k = 0; k < rows.n && !rc; k++) {
		int was_added = 0;
		rc = insert_answer(db, &rows.a[k], &was_added);
		if (rc)
			break;
		if (!was_added) {
			(*skipped)++;
			continue;
		}
		(*added)++;
		if (rows.a[k].learner[0])
			continue;
		size_t j = 0;
		while (j < nreplays && strcmp(replays[j], rows.a[k].question) != 0)
			j++;
		if (j == nreplays) {
			replays = wb_xrealloc(replays, (nreplays + 1) * sizeof *replays);
			replays[nreplays++] = rows.a[k].question;
		}
	}
	for (size_t k = 0; k < nreplays && !rc; k++)
		rc = replay(db, replays[k]);
	if (!rc)
		hold_hook("import");
	if (rc) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		sqlitex_rollback(db);
		*added = *skipped = 0;
	} else {
		rc = sqlitex_end(db, 0);
		if (rc)
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	}
	free(replays);
	rows_free(&rows);
	return rc;
}
