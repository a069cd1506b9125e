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
 * imported ones), in the same transaction, when the export is the
 * importer's own; a named learner's ("learner" at the top, written by
 * `progress export --learner NAME`) are left out, since exercise_event
 * has no learner.  Unnamed answers never join a database that has a
 * state of its own unless asked (answers_import_with: review ux-r3 B2,
 * B3).  It also lists the labs run
 * ("labs": id, passed, runs) for `class report`; an import ignores it.
 * A JSON export is read by one function for both commands
 * (answers_parse_json), so `progress import` and `class report` take and
 * refuse the same files: duplicate keys, field types, times, ids.
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
	char *common = NULL; /* the one learner of every answer, unless mixed */
	int mixed = 0;
	if (fmt == ANSWERS_CSV)
		for (size_t i = 0; i < WB_ARRAY_LEN(export_columns); i++)
			csv_field(out, export_columns[i], i + 1 == WB_ARRAY_LEN(export_columns));
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct answer a;
		answers_read_row(st, &a);
		const char *who = a.learner && a.learner[0] ? a.learner : (learner ? learner : "");
		if (!common && !mixed)
			common = wb_xstrdup(who);
		else if (!mixed && strcmp(common, who))
			mixed = 1;
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
		free(common);
		json_decref(arr);
		return sqlitex_err(rc);
	}
	json_t *labs = NULL;
	if (arr && (err = labs_json(s, &labs)) != 0) {
		free(common);
		json_decref(arr);
		return err;
	}
	if (arr) {
		json_t *ex = exercises_json(s);
		if (!ex) {
			free(common);
			json_decref(arr);
			json_decref(labs);
			return WB_EIO;
		}
		json_t *doc =
			json_pack("{s:s, s:i, s:o, s:o, s:o}", "format", "workbench-progress",
				  "version", 1, "answers", arr, "labs", labs, "exercises", ex);
		/* Whose file this is, for an import: the exercises have no
		 * learner of their own (review ux-r3 B2).  Without --learner,
		 * a database holding one other learner's answers and no
		 * exercises exports as that learner's (a round trip keeps the
		 * file). */
		if (learner && *learner)
			json_object_set_new(doc, "learner", jstr(learner));
		else if (!mixed && common && *common && !json_array_size(ex))
			json_object_set_new(doc, "learner", jstr(common));
		int bad = json_dumpf(doc, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0;
		json_decref(doc);
		fputc('\n', out);
		if (bad) {
			free(common);
			return WB_EIO;
		}
	}
	free(common);
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
	static const char *const required[][2] = {
		{"uid", "has no \"uid\""},
		{"question", "has no \"question\""},
		{"chapter", "has no \"chapter\""},
		{"lang", "has no \"lang\""},
		{"kind", "has no \"kind\""},
		{"shown_at", "has no \"shown_at\""},
		{"graded_at", "has no \"graded_at\""},
		{"points", "has no \"points\""},
		{"max_points", "has no \"max_points\""},
		{"grade", "has no \"grade\""},
	};
	for (size_t i = 0; i < WB_ARRAY_LEN(required); i++)
		if (!get(ctx, required[i][0]))
			return required[i][1];
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
 * NULL for anything else.  json_types has checked the types first. */
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

/* The JSON types of an answer's fields, as answers_export writes them:
 * text and times are strings (test, revealed_at, answer and ticked may
 * be null), points and max_points integers, closed_book true/false (or
 * 0/1).  A field of another type is an error, not a value converted: "1"
 * for points was imported and refused by `class report` (review r3 N15).
 * Returns NULL or what is wrong. */
static const char *json_types(json_t *o)
{
	static const struct {
		const char *name;
		int type; /* 0 string, 1 string or null, 2 integer, 3 boolean or 0/1 */
		const char *why;
	} fields[] = {
		{"uid", 0, "\"uid\" is not a string"},
		{"learner", 0, "\"learner\" is not a string"},
		{"question", 0, "\"question\" is not a string"},
		{"chapter", 0, "\"chapter\" is not a string"},
		{"lang", 0, "\"lang\" is not a string"},
		{"kind", 0, "\"kind\" is not a string"},
		{"grade", 0, "\"grade\" is not a string"},
		{"shown_at", 0, "\"shown_at\" is not a string (an ISO 8601 time)"},
		{"graded_at", 0, "\"graded_at\" is not a string (an ISO 8601 time)"},
		{"revealed_at", 1, "\"revealed_at\" is not a string (an ISO 8601 time) or null"},
		{"test", 1, "\"test\" is not a string or null"},
		{"answer", 1, "\"answer\" is not a string or null"},
		{"ticked", 1, "\"ticked\" is not a string or null"},
		{"points", 2, "\"points\" is not an integer"},
		{"max_points", 2, "\"max_points\" is not an integer"},
		{"closed_book", 3, "\"closed_book\" is not true or false"},
	};
	for (size_t i = 0; i < WB_ARRAY_LEN(fields); i++) {
		json_t *v = json_object_get(o, fields[i].name);
		if (!v)
			continue; /* fill_answer says which ones are required */
		int ok = fields[i].type == 0   ? json_is_string(v)
			 : fields[i].type == 1 ? json_is_string(v) || json_is_null(v)
			 : fields[i].type == 2
				 ? json_is_integer(v)
				 : json_is_boolean(v) ||
					   (json_is_integer(v) && (json_integer_value(v) == 0 ||
								   json_integer_value(v) == 1));
		if (!ok)
			return fields[i].why;
	}
	return NULL;
}

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

/* The optional "exercises" array of doc into d.  0 or WB_EINVAL. */
static int parse_exercises(json_t *doc, struct answers_doc *d, char *err, size_t errlen)
{
	json_t *arr = json_is_object(doc) ? json_object_get(doc, "exercises") : NULL;
	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, errlen, "\"exercises\" is not an array");
		return WB_EINVAL;
	}
	d->has_ex = 1;
	d->ex = wb_xcalloc(json_array_size(arr) + 1, sizeof *d->ex);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		const char *why =
			json_is_object(o) ? fill_exercise(o, &d->ex[d->nex++]) : "not an object";
		if (why) {
			snprintf(err, errlen, "exercise %zu: %s", i + 1, why);
			return WB_EINVAL;
		}
	}
	return 0;
}

/* The optional "labs" array of doc into d: {"id": 1 to 63 bytes,
 * "passed": true/false, "runs": a whole number, both optional}.  0 or
 * WB_EINVAL. */
static int parse_labs(json_t *doc, struct answers_doc *d, char *err, size_t errlen)
{
	json_t *arr = json_is_object(doc) ? json_object_get(doc, "labs") : NULL;
	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, errlen, "\"labs\" is not an array");
		return WB_EINVAL;
	}
	d->has_labs = 1;
	d->labs = wb_xcalloc(json_array_size(arr) + 1, sizeof *d->labs);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		json_t *id = json_object_get(o, "id"), *ok = json_object_get(o, "passed");
		json_t *runs = json_object_get(o, "runs");
		const char *why =
			!json_is_object(o) ? "not an object"
			: !json_is_string(id) || !json_string_length(id) ||
					json_string_length(id) >= sizeof d->labs[i].id
				? "\"id\" must be a string of 1 to 63 bytes"
			: ok && !json_is_boolean(ok) ? "\"passed\" must be true or false"
			: runs && !(json_is_integer(runs) && json_integer_value(runs) >= 0 &&
				    json_integer_value(runs) <= 1000000000)
				? "\"runs\" must be a whole number"
				: NULL;
		if (why) {
			snprintf(err, errlen, "lab %zu: %s", i + 1, why);
			return WB_EINVAL;
		}
		struct answers_lab *l = &d->labs[d->nlabs++];
		snprintf(l->id, sizeof l->id, "%s", json_string_value(id));
		l->passed = json_is_true(ok);
		l->runs = runs ? (int)json_integer_value(runs) : 0;
	}
	return 0;
}

void answers_doc_free(struct answers_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		answer_clear(&d->a[i]);
	free(d->a);
	free(d->ex);
	free(d->labs);
	memset(d, 0, sizeof *d);
}

int answers_parse_json(const char *text, size_t len, struct answers_doc *d, int *line, char *err,
		       size_t errlen)
{
	memset(d, 0, sizeof *d);
	*line = 0;
	if (errlen)
		err[0] = '\0';
	json_error_t je;
	/* Duplicate keys are refused: with jansson's default the last one
	 * won, so two "answers" or "uid" keys meant whatever came last. */
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		*line = je.line > 0 ? je.line : 1;
		snprintf(err, errlen, "not JSON: %s", je.text);
		return WB_EINVAL;
	}
	json_t *fmt = json_is_object(doc) ? json_object_get(doc, "format") : NULL;
	json_t *arr = json_is_array(doc) ? doc : json_object_get(doc, "answers");
	int rc = WB_EINVAL;
	if ((fmt &&
	     !(json_is_string(fmt) && !strcmp(json_string_value(fmt), "workbench-progress"))) ||
	    !json_is_array(arr)) {
		snprintf(err, errlen,
			 "not a workbench progress export: no \"answers\" array, or a \"format\" "
			 "that is not \"workbench-progress\" (`workbench progress export "
			 "--format json` writes one)");
		goto out;
	}
	if (parse_exercises(doc, d, err, errlen) != 0 || parse_labs(doc, d, err, errlen) != 0)
		goto out;
	json_t *who = json_is_object(doc) ? json_object_get(doc, "learner") : NULL;
	if (who && !(json_is_string(who) && json_string_length(who) < sizeof d->learner &&
		     utf8_valid(json_string_value(who), json_string_length(who)) &&
		     strlen(json_string_value(who)) == json_string_length(who))) {
		snprintf(err, errlen, "\"learner\" must be a UTF-8 string of at most 63 bytes");
		goto out;
	}
	if (who)
		snprintf(d->learner, sizeof d->learner, "%s", json_string_value(who));
	d->a = wb_xcalloc(json_array_size(arr) + 1, sizeof *d->a);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		struct json_row row = {.o = json_array_get(arr, i)};
		const char *why = !json_is_object(row.o) ? "not an object" : json_types(row.o);
		if (!why) {
			why = fill_answer(&d->a[d->n], json_get, &row);
			d->n++; /* filled in part at least: cleared by answers_doc_free */
		}
		if (why) {
			snprintf(err, errlen, "answer %zu: %s", i + 1, why);
			goto out;
		}
	}
	rc = 0;
out:
	json_decref(doc);
	if (rc)
		answers_doc_free(d);
	return rc;
}

/* The exercises of an import, checked before anything is written. */
struct ex_rows {
	struct store_ex_state *x;
	size_t n;
};

/* Names the rows of an import (review ux-r3 B2, B3): with o->learner
 * every row takes it (a row or file naming somebody else is refused);
 * else the file's "learner" names its unnamed rows.  *who receives the
 * exporter: that name, or the one name all rows share, or "" (the
 * exporter's own).  0 or WB_EINVAL with err set. */
static int name_rows(struct rows *rows, const char *file_learner,
		     const struct answers_import_opts *o, char *who, size_t wholen, char *err,
		     size_t errlen)
{
	const char *name = o && o->learner && *o->learner ? o->learner : file_learner;
	if (o && o->learner && *o->learner && *file_learner && strcmp(file_learner, o->learner)) {
		snprintf(err, errlen, "the file is the export of learner '%s', not of '%s'",
			 file_learner, o->learner);
		return WB_EINVAL;
	}
	for (size_t k = 0; k < rows->n; k++) {
		struct answer *a = &rows->a[k];
		if (!a->learner || !a->learner[0]) {
			free(a->learner);
			a->learner = wb_xstrdup(name);
		} else if (o && o->learner && *o->learner && strcmp(a->learner, o->learner)) {
			snprintf(err, errlen, "answer %zu is of learner '%s', not of '%s'", k + 1,
				 a->learner, o->learner);
			return WB_EINVAL;
		}
	}
	snprintf(who, wholen, "%s", name);
	for (size_t k = 0; !*name && k < rows->n; k++) {
		if (!rows->a[k].learner[0] || (k && strcmp(rows->a[k].learner, who))) {
			who[0] = '\0';
			break;
		}
		snprintf(who, wholen, "%s", rows->a[k].learner);
	}
	return 0;
}

/* 1 when the database holds answers or exercise events of this learner
 * (learner ''), 0 when not, or a WB_E* code. */
static int has_own_state(struct store *s)
{
	sqlite3_stmt *st;
	int rc = sqlitex_prepare(
		store_db(s), "SELECT EXISTS(SELECT 1 FROM quiz_answer WHERE learner = '')", &st);
	if (rc)
		return rc;
	int own = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	struct store_ex_state *x = NULL;
	size_t n = 0;
	rc = store_ex_all(s, &x, &n);
	free(x);
	return rc ? rc : own || n > 0;
}

int answers_import(struct store *s, const char *text, size_t len, size_t *added, size_t *skipped,
		   char *err, size_t errlen)
{
	struct answers_import_opts o = {.as_mine = 1};
	struct answers_import_result r;
	int rc = answers_import_with(s, text, len, &o, &r, err, errlen);
	*added = r.added;
	*skipped = r.skipped;
	return rc;
}

/* Inserts rows (those already present are skipped and counted in
 * *skipped), then replays the schedule of every question that got a new
 * answer of this learner's own.  Returns 0 or a WB_E code (the caller
 * rolls back). */
static int insert_rows(sqlite3 *db, const struct rows *rows, size_t *added, size_t *skipped)
{
	const char **replays = NULL;
	size_t nreplays = 0;
	int rc = 0;
	for (size_t k = 0; k < rows->n && !rc; k++) {
		int was_added = 0;
		rc = answers_insert(db, &rows->a[k], &was_added);
		if (rc)
			break;
		if (!was_added) {
			(*skipped)++;
			continue;
		}
		(*added)++;
		if (rows->a[k].learner[0])
			continue;
		size_t j = 0;
		while (j < nreplays && strcmp(replays[j], rows->a[k].question) != 0)
			j++;
		if (j == nreplays) {
			replays = wb_xrealloc(replays, (nreplays + 1) * sizeof *replays);
			replays[nreplays++] = rows->a[k].question;
		}
	}
	for (size_t k = 0; k < nreplays && !rc; k++)
		rc = answers_replay(db, replays[k]);
	free(replays);
	return rc;
}

int answers_import_with(struct store *s, const char *text, size_t len,
			const struct answers_import_opts *o, struct answers_import_result *r,
			char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	size_t *added = &r->added, *skipped = &r->skipped;
	if (errlen)
		err[0] = '\0';
	struct rows rows = {0};
	struct answers_doc doc = {0};
	size_t i = 0;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i + 3 <= len && !memcmp(text + i, "\xEF\xBB\xBF", 3))
		i += 3;
	int rc;
	if (i < len && (text[i] == '{' || text[i] == '[')) {
		/* The rules `class report` reads an export by (review r3 N15). */
		int line;
		char why[400];
		rc = answers_parse_json(text + i, len - i, &doc, &line, why, sizeof why);
		if (rc && line)
			snprintf(err, errlen, "line %d: %s", line, why);
		else if (rc)
			snprintf(err, errlen, "%s", why);
		rows.a = doc.a; /* the answers move to rows */
		rows.n = doc.n;
		doc.a = NULL;
		doc.n = 0;
	} else {
		rc = parse_csv(text + i, len - i, &rows, err, errlen);
	}
	struct ex_rows ex = {doc.ex, doc.nex};
	doc.ex = NULL;
	if (!rc)
		rc = name_rows(&rows, doc.learner, o, r->learner, sizeof r->learner, err, errlen);
	answers_doc_free(&doc);
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
	/* Unnamed answers or exercises join this learner's own state: only
	 * into a database without any, or when asked (--as-mine). */
	int unnamed = !r->learner[0] && ex.n > 0;
	for (size_t k = 0; k < rows.n && !unnamed; k++)
		unnamed = !rows.a[k].learner[0];
	if (unnamed && !(o && o->as_mine)) {
		int own = has_own_state(s);
		if (own == 1) {
			sqlitex_rollback(db);
			rows_free(&rows);
			free(ex.x);
			snprintf(err, errlen,
				 "its answers name no learner (an export written without "
				 "--learner) and this database already has answers or exercises "
				 "of its own; give the learner's name: `workbench progress import "
				 "FILE --learner NAME`, or merge them into yours with --as-mine");
			return WB_ECONFLICT;
		}
		rc = own;
	}
	if (!rc)
		rc = insert_rows(db, &rows, added, skipped);
	/* The exercises are the exporter's: a named learner's are left out,
	 * as exercise_event has no learner (review ux-r3 B2). */
	for (size_t k = 0; k < ex.n && !rc && !r->learner[0]; k++) {
		int n;
		rc = store_ex_merge(s, &ex.x[k], &n);
		r->ex_merged++;
	}
	if (r->learner[0])
		r->ex_left = ex.n;
	if (!rc)
		testhook_hold("import");
	if (rc) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		sqlitex_rollback(db);
		*added = *skipped = 0;
		r->ex_merged = r->ex_left = 0;
	} else {
		rc = sqlitex_end(db, 0);
		if (rc)
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	}
	rows_free(&rows);
	free(ex.x);
	return rc;
}
