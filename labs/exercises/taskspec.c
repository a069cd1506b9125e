/*
 * taskspec.c - staging and reading the task table for the rule checks of
 * the task-table exercises (see taskspec.h).  No rule lives here.
 *
 * Invariants: every staging starts from an empty table and a fixed clock,
 * so a situation never sees a leftover of the one before; the learner's
 * statement runs exactly once per taskspec_run; nothing here reads the
 * learner's SQL for keywords.
 */
#include "taskspec.h"
#include "base/sqlitex.h"
#include "base/wb.h"
#include "harness/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const cols[TS_COLS] = {
	"task_id",    "state",	      "due",
	"owner",      "claim_id",     "claim_version",
	"attempt",    "max_attempts", "lease_until",
	"claimed_at", "finished_at",  "cancel_requested",
	"last_error", "backoff_ms",   "backoff_max_ms",
};

/* Columns shown relative to now. */
static int is_time(int c)
{
	return c == 2 || c == 8 || c == 9 || c == 10;
}

static void env_set(struct taskspec *ts, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void env_set(struct taskspec *ts, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ts->env, sizeof ts->env, fmt, ap);
	va_end(ap);
}

int taskspec_open(struct taskspec *ts, struct lab_ctx *ctx, const struct ex_code *code,
		  const struct sqlfile *f, const struct spec_rule *rules, size_t n,
		  const char *dbname)
{
	memset(ts, 0, sizeof *ts);
	ts->ctx = ctx;
	ts->f = f;
	spec_init(&ts->sp, ctx, code, rules, n);
	char schema[LAB_PATH_MAX], err[256] = "";
	lab_data_file(ctx, "tasks.sql", schema, sizeof schema);
	ts->schema = wb_xstrdup(schema);
	ts->path = wb_xasprintf("%s/%s", ctx->run_dir, dbname);
	int rc = tasktable_open(ts->path, ts->schema, NULL, &ts->tt, err, sizeof err);
	if (rc) {
		report_cannot(ctx->report, "the rules' task table: %s", err);
		return rc;
	}
	ts->db = tasktable_db(ts->tt);
	return 0;
}

void taskspec_close(struct taskspec *ts)
{
	tasktable_close(ts->tt);
	ts->tt = NULL;
	ts->db = NULL;
	free(ts->path);
	free(ts->schema);
	ts->path = ts->schema = NULL;
}

/* A fresh file in place of the table's.  0 or WB_E* (ts->env). */
static int reopen(struct taskspec *ts)
{
	char err[256] = "";
	tasktable_close(ts->tt);
	ts->tt = NULL;
	ts->db = NULL;
	static const char *const ext[] = {"", "-wal", "-shm"};
	for (size_t i = 0; i < WB_ARRAY_LEN(ext); i++) {
		char *f = wb_xasprintf("%s%s", ts->path, ext[i]);
		unlink(f);
		free(f);
	}
	int rc = tasktable_open(ts->path, ts->schema, NULL, &ts->tt, err, sizeof err);
	if (rc) {
		env_set(ts, "a fresh task table: %s", err);
		return rc;
	}
	ts->db = tasktable_db(ts->tt);
	return 0;
}

static void bind_ll(sqlite3_stmt *st, int i, long long v)
{
	if (v == TS_NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

static int insert(struct taskspec *ts, const struct ts_row *r)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(
		ts->db,
		"INSERT INTO task (task_id, state, due, owner, claim_id, claim_version, attempt,"
		" max_attempts, lease_until, claimed_at, finished_at, cancel_requested,"
		" last_error, backoff_ms, backoff_max_ms)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
		&st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, r->task_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, r->state ? r->state : "READY", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, r->due);
	sqlitex_bind_text_or_null(st, 4, r->owner);
	sqlitex_bind_text_or_null(st, 5, r->claim_id);
	sqlite3_bind_int64(st, 6, r->version);
	sqlite3_bind_int64(st, 7, r->attempt);
	sqlite3_bind_int64(st, 8, r->max_attempts ? r->max_attempts : 3);
	bind_ll(st, 9, r->lease_until);
	bind_ll(st, 10, r->claimed_at);
	bind_ll(st, 11, r->finished_at);
	sqlite3_bind_int(st, 12, r->cancel);
	sqlitex_bind_text_or_null(st, 13, r->last_error);
	sqlite3_bind_int64(st, 14, r->backoff_ms ? r->backoff_ms : 1000);
	sqlite3_bind_int64(st, 15, r->backoff_max_ms ? r->backoff_max_ms : 60000);
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	return s == SQLITE_DONE ? 0 : sqlitex_err(s) ? sqlitex_err(s) : WB_EIO;
}

static int stage_once(struct taskspec *ts, long long now, const struct ts_row *rows, int n)
{
	int rc = sqlitex_begin_immediate(ts->db);
	if (rc == 0)
		rc = sqlitex_exec(ts->db, "DELETE FROM task; DELETE FROM task_claim_stat");
	for (int i = 0; rc == 0 && i < n; i++)
		rc = insert(ts, &rows[i]);
	if (rc)
		env_set(ts, "staging the table: %s", sqlite3_errmsg(ts->db));
	rc = sqlitex_end(ts->db, rc);
	if (rc == 0)
		rc = taskspec_clock(ts, now);
	return rc;
}

int taskspec_stage(struct taskspec *ts, long long now, const struct ts_row *rows, int n)
{
	int rc = stage_once(ts, now, rows, n);
	if (rc && ts->path && (rc = reopen(ts)) == 0)
		rc = stage_once(ts, now, rows, n);
	return rc;
}

int taskspec_clock(struct taskspec *ts, long long now)
{
	int rc = tasktable_clock_set(ts->tt, now);
	if (rc)
		env_set(ts, "setting the clock: %s", tasktable_errmsg(ts->tt));
	else
		ts->now = now;
	return rc;
}

int taskspec_snap(struct taskspec *ts, struct ts_snap *s)
{
	memset(s, 0, sizeof *s);
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(
		ts->db,
		"SELECT task_id, state, due, owner, claim_id, claim_version, attempt,"
		" max_attempts, lease_until, claimed_at, finished_at, cancel_requested,"
		" last_error, backoff_ms, backoff_max_ms FROM task ORDER BY task_id",
		&st);
	int step = SQLITE_DONE;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW && s->n < TS_ROWS) {
		for (int c = 0; c < TS_COLS; c++) {
			const unsigned char *t = sqlite3_column_text(st, c);
			snprintf(s->v[s->n][c], sizeof s->v[s->n][c], "%s",
				 t ? (const char *)t : "NULL");
		}
		s->n++;
	}
	if (rc == 0 && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = sqlitex_err(step) ? sqlitex_err(step) : WB_EIO;
	if (rc)
		env_set(ts, "reading the table: %s", sqlite3_errmsg(ts->db));
	sqlite3_finalize(st);
	return rc;
}

int taskspec_col(const char *col)
{
	for (int c = 0; c < TS_COLS; c++)
		if (!strcmp(cols[c], col))
			return c;
	return -1;
}

static int row_of(const struct ts_snap *s, const char *task_id)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i][0], task_id))
			return i;
	return -1;
}

const char *taskspec_get(const struct ts_snap *s, const char *task_id, const char *col)
{
	int i = row_of(s, task_id), c = taskspec_col(col);
	return i < 0 || c < 0 ? NULL : s->v[i][c];
}

long long taskspec_geti(const struct ts_snap *s, const char *task_id, const char *col)
{
	const char *v = taskspec_get(s, task_id, col);
	return v && strcmp(v, "NULL") ? strtoll(v, NULL, 10) : 0;
}

void taskspec_set(struct ts_snap *s, const char *task_id, const char *col, const char *val)
{
	int i = row_of(s, task_id), c = taskspec_col(col);
	if (i >= 0 && c >= 0)
		snprintf(s->v[i][c], sizeof s->v[i][c], "%s", val);
}

void taskspec_seti(struct ts_snap *s, const char *task_id, const char *col, long long v)
{
	char b[32];
	if (v == TS_NULL)
		snprintf(b, sizeof b, "NULL");
	else
		snprintf(b, sizeof b, "%lld", v);
	taskspec_set(s, task_id, col, b);
}

/* A value as shown: times relative to now, a claim_id cut to 8 digits. */
static const char *shown(const struct taskspec *ts, int c, const char *v, char *b, size_t len)
{
	if (!strcmp(v, "NULL"))
		return "NULL";
	if (is_time(c)) {
		long long d = strtoll(v, NULL, 10) - ts->now;
		if (d == 0)
			snprintf(b, len, "now");
		else
			snprintf(b, len, "now%+lld", d);
		return b;
	}
	if (c == 4 && strlen(v) > 8) {
		snprintf(b, len, "%.8s...", v);
		return b;
	}
	return v;
}

static int col_wanted(int c, const char *const *which)
{
	if (!which)
		return 1;
	for (int k = 0; which[k]; k++)
		if (!strcmp(which[k], cols[c]))
			return 1;
	return 0;
}

static int row_wanted(const char *id, const char *task_id)
{
	if (!task_id)
		return 1;
	if (task_id[0] == '!')
		return strcmp(id, task_id + 1) != 0;
	return strcmp(id, task_id) == 0;
}

static void add(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	if (*off + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (w > 0)
		*off += (size_t)w < len - *off ? (size_t)w : len - *off - 1;
}

int taskspec_diff(const struct taskspec *ts, const struct ts_snap *want, const struct ts_snap *got,
		  const char *task_id, const char *const *which, char *buf, size_t len)
{
	size_t off = 0;
	int n = 0;
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < want->n; i++) {
		const char *id = want->v[i][0];
		if (!row_wanted(id, task_id))
			continue;
		int j = row_of(got, id);
		if (j < 0) {
			add(buf, len, &off, "%s%s is gone", n ? "; " : "", id);
			n++;
			continue;
		}
		for (int c = 1; c < TS_COLS; c++) {
			if (!col_wanted(c, which) || !strcmp(want->v[i][c], got->v[j][c]))
				continue;
			char a[48], b[48];
			add(buf, len, &off, "%s%s.%s %s (want %s)", n ? "; " : "", id, cols[c],
			    shown(ts, c, got->v[j][c], a, sizeof a),
			    shown(ts, c, want->v[i][c], b, sizeof b));
			n++;
		}
	}
	for (int j = 0; j < got->n; j++)
		if (row_wanted(got->v[j][0], task_id) && row_of(want, got->v[j][0]) < 0) {
			add(buf, len, &off, "%s%s appeared", n ? "; " : "", got->v[j][0]);
			n++;
		}
	return n;
}

int taskspec_run(struct taskspec *ts, const char *name, const struct sqlfile_param *params,
		 size_t n, int txn, struct ts_out *out)
{
	memset(out, 0, sizeof *out);
	if (txn) {
		int rc = sqlitex_begin_immediate(ts->db);
		if (rc) {
			env_set(ts, "BEGIN IMMEDIATE: %s", sqlite3_errmsg(ts->db));
			return rc;
		}
	}
	int rc = sqlex_exec(ts->db, ts->f, name, params, n, &out->o, out->err, sizeof out->err);
	if (rc) {
		out->failed = 1;
		if (!out->err[0])
			snprintf(out->err, sizeof out->err, "%s: %s", name, wb_strerror(rc));
	}
	out->changes = out->o.changes;
	if (txn) {
		int e = sqlitex_end(ts->db, rc);
		if (e && !rc) {
			/* COMMIT failed after a statement that ran: the learner's
			 * statement is all that changed, so it is its outcome. */
			out->failed = 1;
			snprintf(out->err, sizeof out->err, "%s: COMMIT: %s", name,
				 sqlitex_errmsg(ts->db));
		}
	} else if (!sqlite3_get_autocommit(ts->db)) {
		sqlitex_rollback(ts->db); /* a BEGIN of the learner's own */
	}
	if (taskspec_snap(ts, &out->after) != 0) {
		/* Only the learner's statement ran since the last good read:
		 * a table it made unreadable is its outcome (the next staging
		 * starts from a fresh file). */
		out->after.n = 0;
		if (!out->failed)
			snprintf(out->err, sizeof out->err, "after %s, %.300s", name, ts->env);
		out->failed = 1;
	}
	return 0;
}

const char *taskspec_outcome(const struct ts_out *out, int returned, char *buf, size_t len)
{
	if (out->failed)
		snprintf(buf, len, "failed: %s", out->err);
	else if (returned)
		snprintf(buf, len, "%d row%s changed and %d returned", out->changes,
			 out->changes == 1 ? "" : "s", out->o.rows);
	else
		snprintf(buf, len, "%d row%s changed", out->changes, out->changes == 1 ? "" : "s");
	return buf;
}

int taskspec_ref_claim(struct taskspec *ts, const char *task_id, const char *owner,
		       const char *claim_id, long long lease_ms, struct task_claim *out)
{
	memset(out, 0, sizeof *out);
	snprintf(out->task_id, sizeof out->task_id, "%s", task_id);
	snprintf(out->owner, sizeof out->owner, "%s", owner);
	snprintf(out->claim_id, sizeof out->claim_id, "%s", claim_id);
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_begin_immediate(ts->db);
	if (rc == 0)
		rc = sqlitex_prepare(ts->db, tasktable_sql("claim"), &st);
	int won = 0;
	if (rc == 0) {
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":now"), ts->now);
		sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":owner"), owner, -1,
				  SQLITE_TRANSIENT);
		sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":claim_id"), claim_id, -1,
				  SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":lease_ms"), lease_ms);
		sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":task_id"), task_id, -1,
				  SQLITE_TRANSIENT);
		int s = sqlite3_step(st);
		if (s == SQLITE_ROW) {
			won = 1;
			out->version = sqlite3_column_int64(st, 1);
			out->attempt = sqlite3_column_int64(st, 2);
			out->lease_until = sqlite3_column_int64(st, 3);
			out->claimed_at = sqlite3_column_int64(st, 4);
			out->outcome = TASK_OUTCOME_WON;
			s = sqlite3_step(st);
		}
		if (s != SQLITE_DONE)
			rc = sqlitex_err(s) ? sqlitex_err(s) : WB_EIO;
	}
	if (rc)
		env_set(ts, "the recipe's claim: %s", sqlite3_errmsg(ts->db));
	sqlite3_finalize(st);
	rc = sqlitex_end(ts->db, rc);
	if (rc)
		return rc;
	return won ? 0 : TASK_ELOST;
}

void taskspec_claim_of(const struct ts_snap *s, const char *task_id, struct task_claim *c)
{
	memset(c, 0, sizeof *c);
	const char *owner = taskspec_get(s, task_id, "owner");
	const char *cid = taskspec_get(s, task_id, "claim_id");
	snprintf(c->task_id, sizeof c->task_id, "%s", task_id);
	snprintf(c->owner, sizeof c->owner, "%s", owner ? owner : "");
	snprintf(c->claim_id, sizeof c->claim_id, "%s", cid ? cid : "");
	c->version = taskspec_geti(s, task_id, "claim_version");
	c->outcome = TASK_OUTCOME_WON;
}

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void taskspec_story_id(uint64_t seed, const char *owner, const char *task_id, char buf[33])
{
	static uint64_t count;
	uint64_t h = 0xcbf29ce484222325ull;
	for (const char *p = owner; p && *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	h = (h ^ 0xff) * 0x100000001b3ull;
	for (const char *p = task_id; p && *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	uint64_t a = mix(seed ^ h), b = mix(a ^ ++count);
	snprintf(buf, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}
