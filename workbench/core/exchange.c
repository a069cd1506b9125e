/*
 * exchange.c - export and import of graded answers (see exchange.h):
 * CSV (RFC 4180, CRLF) and JSON ("workbench-progress", version 1), with
 * times as ISO 8601 UTC milliseconds.
 *
 * An import is all or nothing: rows are parsed and checked first
 * (answers_invalid), then inserted in one BEGIN IMMEDIATE transaction
 * with the schedules of this learner's questions replayed in it.  Known
 * uids are skipped, so importing the same file twice adds nothing.
 * The JSON export also carries the exercises' state ("exercises"); an
 * import merges it (store_ex_merge: counts only ever grow to the
 * imported ones), in the same transaction.  It also lists the labs run
 * ("labs": id, passed, runs) for `class report`; an import ignores it.
 * Not here: what the answers mean (progress.c) or how they are graded.
 */
#include "core/exchange.h"
#include "core/answers.h"
#include "core/answers_db.h"
#include "core/quizbank.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/sqlitex.h"
#include "base/testhook.h"
#include "base/wb.h"

#include <csv.h>
#include <ctype.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* The exercises' state as the export's "exercises" array:
 * [{"id", "started" (ISO time or null), "attempts", "passed", "hints",
 * "solution_seen"}], by id.  NULL when the database cannot be read. */
static json_t *exercises_json(struct store *s)
{
	struct store_ex_state *x;
	size_t n;
	if (store_ex_all(s, &x, &n) != 0)
		return NULL;
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		char started[80];
		iso_ms(x[i].started * 1000, started, sizeof started);
		json_array_append_new(
			arr, json_pack("{s:s, s:o, s:i, s:b, s:i, s:b}", "id", x[i].id, "started",
				       x[i].started ? jstr(started) : json_null(), "attempts",
				       x[i].attempts, "passed", x[i].passed, "hints", x[i].hints,
				       "solution_seen", x[i].solution_seen));
	}
	free(x);
	return arr;
}

/* The lab runs as the export's "labs" array, one entry per lab, by id:
 * [{"id", "passed" (any run passed), "runs"}], for `class report`.
 * Import ignores it: lab runs stay in the database that made them.
 * Returns 0 with *out, or a WB_E* code. */
static int labs_json(struct store *s, json_t **out)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(store_db(s),
				  "SELECT lab, MAX(passed), COUNT(*) FROM lab_runs GROUP BY lab "
				  "ORDER BY lab",
				  &st);
	if (err)
		return err;
	json_t *arr = json_array();
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(arr, json_pack("{s:s, s:b, s:i}", "id",
						     (const char *)sqlite3_column_text(st, 0),
						     "passed", sqlite3_column_int(st, 1) != 0,
						     "runs", sqlite3_column_int(st, 2)));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_decref(arr);
		return sqlitex_err(rc);
	}
	*out = arr;
	return 0;
}

int answers_export(struct store *s, FILE *out, enum answers_format fmt, const char *learner)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		store_db(s),
		"SELECT " ANSWERS_COLUMNS " FROM quiz_answer ORDER BY graded_at, rowid", &st);
	if (err)
		return err;
	json_t *arr = fmt == ANSWERS_JSON ? json_array() : NULL;
	if (fmt == ANSWERS_CSV)
		for (size_t i = 0; i < WB_ARRAY_LEN(export_columns); i++)
			csv_field(out, export_columns[i], i + 1 == WB_ARRAY_LEN(export_columns));
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct answer a;
		answers_read_row(st, &a);
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
	json_t *labs = NULL;
	if (arr && (err = labs_json(s, &labs)) != 0) {
		json_decref(arr);
		return err;
	}
	if (arr) {
		json_t *ex = exercises_json(s);
		if (!ex) {
			json_decref(arr);
			json_decref(labs);
			return WB_EIO;
		}
		json_t *doc =
			json_pack("{s:s, s:i, s:o, s:o, s:o}", "format", "workbench-progress",
				  "version", 1, "answers", arr, "labs", labs, "exercises", ex);
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

/* Fills a from named fields; get(ctx, name) returns the value or NULL,
 * valid until the next get on ctx (each value is used or copied at
 * once).  Returns NULL or a reason. */
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
	return answers_invalid(a);
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

/* The records of a CSV text as libcsv hands them over: each record an
 * array of malloc'd fields. */
struct csv_records {
	char ***rec; /* rec[i][0..nf[i]) */
	size_t *nf;  /* fields of each record */
	size_t n, cap;
	char **cur; /* the record being read */
	size_t ncur;
};

static void csv_on_field(void *s, size_t len, void *arg)
{
	struct csv_records *c = arg;
	c->cur = wb_xrealloc(c->cur, (c->ncur + 1) * sizeof *c->cur);
	c->cur[c->ncur++] = wb_xstrndup(s ? s : "", s ? len : 0);
}

static void csv_on_record(int term, void *arg)
{
	struct csv_records *c = arg;
	(void)term;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->rec = wb_xrealloc(c->rec, c->cap * sizeof *c->rec);
		c->nf = wb_xrealloc(c->nf, c->cap * sizeof *c->nf);
	}
	c->rec[c->n] = c->cur;
	c->nf[c->n++] = c->ncur;
	c->cur = NULL;
	c->ncur = 0;
}

/* RFC 4180: blanks around a field are part of it (libcsv trims them by
 * default). */
static int csv_no_space(unsigned char ch)
{
	(void)ch;
	return 0;
}

static void free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

static void csv_records_free(struct csv_records *c)
{
	for (size_t i = 0; i < c->n; i++)
		free_fields(c->rec[i], c->nf[i]);
	free_fields(c->cur, c->ncur);
	free(c->rec);
	free(c->nf);
}

/* Splits text into records with libcsv in strict mode.  Returns 0, or
 * WB_EINVAL with err naming the record (the header is row 1) where the
 * quoting is malformed, or WB_ENOMEM. */
static int csv_split(const char *text, size_t len, struct csv_records *c, char *err, size_t errlen)
{
	struct csv_parser cp;
	if (csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return WB_ENOMEM;
	csv_set_space_func(&cp, csv_no_space);
	int bad = csv_parse(&cp, text, len, csv_on_field, csv_on_record, c) != len;
	if (!bad)
		bad = csv_fini(&cp, csv_on_field, csv_on_record, c) != 0;
	int nomem = bad && csv_error(&cp) == CSV_ENOMEM;
	csv_free(&cp);
	if (nomem)
		return WB_ENOMEM;
	if (bad) {
		snprintf(err, errlen,
			 "row %zu: malformed CSV quoting (a field with a quote must be quoted "
			 "whole, its quotes doubled, and closed)",
			 c->n + 1);
		return WB_EINVAL;
	}
	return 0;
}

static int parse_csv(const char *text, size_t len, struct rows *rows, char *err, size_t errlen)
{
	struct csv_records c = {0};
	int rc = csv_split(text, len, &c, err, errlen);
	if (rc == WB_EINVAL && c.n == 0)
		snprintf(err, errlen, "line 1: no CSV header");
	if (rc)
		goto out;
	if (c.n == 0) {
		snprintf(err, errlen, "line 1: no CSV header");
		rc = WB_EINVAL;
		goto out;
	}
	struct csv_row r = {c.rec[0], c.nf[0], c.rec[0], c.nf[0]};
	static const char *required[] = {"uid",	     "question",  "chapter", "lang",	   "kind",
					 "shown_at", "graded_at", "points",  "max_points", "grade"};
	for (size_t i = 0; i < WB_ARRAY_LEN(required); i++) {
		if (!csv_get(&r, required[i])) {
			snprintf(err, errlen, "line 1: the CSV header has no '%s' column",
				 required[i]);
			rc = WB_EINVAL;
			goto out;
		}
	}
	for (size_t i = 1; i < c.n && !rc; i++) {
		r.f = c.rec[i];
		r.nf = c.nf[i];
		if (r.nf == 1 && !r.f[0][0])
			continue; /* a line holding only "" */
		const char *why = fill_answer(rows_add(rows), csv_get, &r);
		if (why) {
			snprintf(err, errlen, "row %zu: %s", i + 1, why);
			rc = WB_EINVAL;
		}
	}
out:
	csv_records_free(&c);
	return rc;
}

/* One JSON answer being read, with the room json_get formats an
 * integer field in: per row, not per process, so two imports can run at
 * once (it was a function-static buffer). */
struct json_row {
	json_t *o;
	char num[32];
};

/* The field as text: a string as it is, an integer formatted into the
 * row's buffer (valid until the next json_get on this row: fill_answer
 * uses each value before asking for the next), a boolean as "1"/"0";
 * NULL for anything else. */
static const char *json_get(void *ctx, const char *name)
{
	struct json_row *r = ctx;
	json_t *v = json_object_get(r->o, name);
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(r->num, sizeof r->num, "%lld", (long long)json_integer_value(v));
		return r->num;
	}
	if (json_is_boolean(v))
		return json_is_true(v) ? "1" : "0";
	return NULL;
}

/* The exercises of an import, checked before anything is written. */
struct ex_rows {
	struct store_ex_state *x;
	size_t n;
};

/* Exercise i of the "exercises" array into *x; NULL, or what is wrong. */
static const char *fill_exercise(json_t *o, struct store_ex_state *x)
{
	memset(x, 0, sizeof *x);
	json_t *id = json_object_get(o, "id"), *started = json_object_get(o, "started");
	json_t *att = json_object_get(o, "attempts"), *hints = json_object_get(o, "hints");
	json_t *passed = json_object_get(o, "passed"), *sol = json_object_get(o, "solution_seen");
	if (!json_is_string(id) || !json_string_length(id) ||
	    json_string_length(id) >= sizeof x->id)
		return "\"id\" must be a string of 1 to 63 bytes";
	snprintf(x->id, sizeof x->id, "%s", json_string_value(id));
	int64_t ms = 0;
	if (started && !json_is_null(started) &&
	    !(json_is_string(started) && parse_time(json_string_value(started), &ms)))
		return "\"started\" must be an ISO 8601 time or null";
	x->started = ms / 1000;
	if (att && !(json_is_integer(att) && json_integer_value(att) >= 0 &&
		     json_integer_value(att) <= 100000))
		return "\"attempts\" must be a whole number from 0 to 100000";
	x->attempts = att ? (int)json_integer_value(att) : 0;
	if (hints && !(json_is_integer(hints) && json_integer_value(hints) >= 0 &&
		       json_integer_value(hints) <= 3))
		return "\"hints\" must be 0, 1, 2 or 3";
	x->hints = hints ? (int)json_integer_value(hints) : 0;
	if ((passed && !json_is_boolean(passed)) || (sol && !json_is_boolean(sol)))
		return "\"passed\" and \"solution_seen\" must be true or false";
	x->passed = json_is_true(passed);
	x->solution_seen = json_is_true(sol);
	if (x->passed && x->attempts < 1)
		return "\"passed\" is true with no attempt";
	return NULL;
}

/* The optional "exercises" array of doc into ex.  0 or WB_EINVAL. */
static int parse_exercises(json_t *doc, struct ex_rows *ex, char *err, size_t errlen)
{
	json_t *arr = json_is_object(doc) ? json_object_get(doc, "exercises") : NULL;
	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, errlen, "\"exercises\" is not an array");
		return WB_EINVAL;
	}
	ex->x = wb_xcalloc(json_array_size(arr) + 1, sizeof *ex->x);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		const char *why =
			json_is_object(o) ? fill_exercise(o, &ex->x[ex->n++]) : "not an object";
		if (why) {
			snprintf(err, errlen, "exercise %zu: %s", i + 1, why);
			return WB_EINVAL;
		}
	}
	return 0;
}

static int parse_json(const char *text, size_t len, struct rows *rows, struct ex_rows *ex,
		      char *err, size_t errlen)
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
	int rc = parse_exercises(doc, ex, err, errlen);
	for (size_t i = 0; i < json_array_size(arr) && !rc; i++) {
		struct json_row row = {.o = json_array_get(arr, i)};
		const char *why = json_is_object(row.o)
					  ? fill_answer(rows_add(rows), json_get, &row)
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
	struct ex_rows ex = {0};
	size_t i = 0;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i + 3 <= len && !memcmp(text + i, "\xEF\xBB\xBF", 3))
		i += 3;
	int rc = i < len && (text[i] == '{' || text[i] == '[')
			 ? parse_json(text + i, len - i, &rows, &ex, err, errlen)
			 : parse_csv(text + i, len - i, &rows, err, errlen);
	if (rc) {
		rows_free(&rows);
		free(ex.x);
		return rc;
	}
	sqlite3 *db = store_db(s);
	rc = sqlitex_begin_immediate(db);
	if (rc) {
		rows_free(&rows);
		free(ex.x);
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
		rc = answers_insert(db, &rows.a[k], &was_added);
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
		rc = answers_replay(db, replays[k]);
	for (size_t k = 0; k < ex.n && !rc; k++) {
		int n;
		rc = store_ex_merge(s, &ex.x[k], &n);
	}
	if (!rc)
		testhook_hold("import");
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
	free(ex.x);
	return rc;
}
