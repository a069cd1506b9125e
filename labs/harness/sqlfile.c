/*
 * sqlfile.c - named SQL statements from a learner's file (see sqlfile.h).
 *
 * Hand-written on purpose: the format is one line rule ("-- name: x"), and
 * no Debian library parses it; everything about SQL itself (strings,
 * comments, where a statement ends) is left to SQLite's own prepare, so
 * this file never has to understand SQL.  A name line is recognised only
 * at the start of a line (leading blanks allowed), so a "-- name:" inside
 * a string literal spanning lines would be taken as a name line: the
 * format does not allow that, and the error then names the line.
 *
 * It does not keep the file's text after parsing (each statement has its
 * own copy) and never prints.
 */
#include "harness/sqlfile.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line of the input: [s, s + n), without its newline. */
struct line {
	const char *s;
	size_t n;
	int no;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* 1 when the line holds only blanks. */
static int blank_line(const struct line *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (!is_blank(l->s[i]))
			return 0;
	return 1;
}

/* Skips leading blanks; returns the offset of the first other byte. */
static size_t skip_blanks(const struct line *l, size_t i)
{
	while (i < l->n && is_blank(l->s[i]))
		i++;
	return i;
}

/* 1 when the line is a comment line ("--" after blanks). */
static int comment_line(const struct line *l)
{
	size_t i = skip_blanks(l, 0);
	return i + 1 < l->n && l->s[i] == '-' && l->s[i + 1] == '-';
}

/* 1 when the line is a name line: "--", blanks, "name:".  *at receives
 * the offset of what follows "name:". */
static int name_line(const struct line *l, size_t *at)
{
	if (!comment_line(l))
		return 0;
	size_t i = skip_blanks(l, skip_blanks(l, 0) + 2);
	if (l->n - i < 5 || memcmp(l->s + i, "name:", 5) != 0)
		return 0;
	*at = i + 5;
	return 1;
}

static int ident_char(char c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* Reads the name after "name:" into name.  0, or WB_EINVAL. */
static int read_name(const struct line *l, size_t i, char *name)
{
	i = skip_blanks(l, i);
	size_t start = i;
	while (i < l->n && ident_char(l->s[i], i == start))
		i++;
	size_t len = i - start;
	if (len == 0 || len >= SQLFILE_NAME_MAX || skip_blanks(l, i) != l->n)
		return WB_EINVAL;
	memcpy(name, l->s + start, len);
	name[len] = '\0';
	return 0;
}

static int fail_at(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail_at(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
	if (err && errlen) {
		int k = line > 0 ? snprintf(err, errlen, "%s:%d: ", path, line)
				 : snprintf(err, errlen, "%s: ", path);
		if (k >= 0 && (size_t)k < errlen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
			va_end(ap);
		}
	}
	return WB_EINVAL;
}

/* 1 when the statement text holds something other than blanks, newlines
 * and whole comment lines. */
static int has_sql(const char *s, size_t n)
{
	struct line l = {s, 0, 0};
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '\n')
			continue;
		l.n = (size_t)(s + i - l.s);
		if (!blank_line(&l) && !comment_line(&l))
			return 1;
		l.s = s + i + 1;
	}
	return 0;
}

/* Closes the statement that started at body (the byte after its name
 * line) and ends before end. */
static int close_stmt(struct sqlfile *f, const char *body, const char *end, char *err,
		      size_t errlen)
{
	struct sqlfile_stmt *s = &f->st[f->n - 1];
	size_t n = (size_t)(end - body);
	if (!has_sql(body, n))
		return fail_at(err, errlen, f->path, s->line, "statement '%s' is empty", s->name);
	s->sql = wb_xstrndup(body, n);
	return 0;
}

int sqlfile_parse(const char *path, const char *text, size_t len, struct sqlfile **out, char *err,
		  size_t errlen)
{
	*out = NULL;
	if (!path)
		path = "(sql)";
	if (len > SQLFILE_TEXT_MAX)
		return fail_at(err, errlen, path, 0, "file too large (%zu bytes, at most %u)", len,
			       SQLFILE_TEXT_MAX);
	if (len && memchr(text, '\0', len))
		return fail_at(err, errlen, path, 0, "file contains a NUL byte");
	struct sqlfile *f = wb_xcalloc(1, sizeof *f);
	f->path = wb_xstrdup(path);
	size_t cap = 0;
	const char *body = NULL; /* start of the open statement's text */
	struct line l = {text, 0, 1};
	int rc = 0;
	for (size_t i = 0; i <= len && rc == 0; i++) {
		if (i < len && text[i] != '\n')
			continue;
		l.n = (size_t)(text + i - l.s);
		size_t at = 0;
		if (name_line(&l, &at)) {
			char name[SQLFILE_NAME_MAX];
			if (read_name(&l, at, name) != 0) {
				rc = fail_at(err, errlen, path, l.no,
					     "bad statement name: expected '-- name: <name>' with "
					     "1 to %d letters, digits or '_', not starting with a "
					     "digit",
					     SQLFILE_NAME_MAX - 1);
				break;
			}
			const struct sqlfile_stmt *dup = sqlfile_find(f, name);
			if (dup) {
				rc = fail_at(err, errlen, path, l.no,
					     "duplicate statement name '%s' (first at line %d)",
					     name, dup->line);
				break;
			}
			if (body && (rc = close_stmt(f, body, l.s, err, errlen)) != 0)
				break;
			if (f->n == cap) {
				cap = cap ? 2 * cap : 8;
				f->st = wb_xrealloc(f->st, cap * sizeof *f->st);
			}
			struct sqlfile_stmt *s = &f->st[f->n++];
			memset(s, 0, sizeof *s);
			memcpy(s->name, name, strlen(name) + 1);
			s->line = l.no;
			body = i < len ? text + i + 1 : text + len;
		} else if (!body && !blank_line(&l) && !comment_line(&l)) {
			rc = fail_at(err, errlen, path, l.no,
				     "SQL before the first '-- name: <name>' line");
		}
		l.s = text + i + 1;
		l.no++;
	}
	if (rc == 0 && body)
		rc = close_stmt(f, body, text + len, err, errlen);
	if (rc == 0 && f->n == 0)
		rc = fail_at(err, errlen, path, 0,
			     "no statement: expected a '-- name: <name>' line");
	if (rc) {
		sqlfile_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

int sqlfile_load(const char *path, struct sqlfile **out, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	*out = NULL;
	int rc = wb_read_file(path, &text, &len);
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot read: %s", path, wb_strerror(rc));
		return rc;
	}
	rc = sqlfile_parse(path, text, len, out, err, errlen);
	free(text);
	return rc;
}

void sqlfile_free(struct sqlfile *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->st[i].sql);
	free(f->st);
	free(f->path);
	free(f);
}

const struct sqlfile_stmt *sqlfile_find(const struct sqlfile *f, const char *name)
{
	for (size_t i = 0; f && name && i < f->n; i++)
		if (!strcmp(f->st[i].name, name))
			return &f->st[i];
	return NULL;
}

/* The line within s->sql of byte offset off, as a line of the file. */
static int line_of(const struct sqlfile_stmt *s, int off)
{
	int line = s->line + 1;
	for (int i = 0; i < off && s->sql[i]; i++)
		line += s->sql[i] == '\n';
	return line;
}

int sqlfile_prepare(sqlite3 *db, const struct sqlfile *f, const char *name, sqlite3_stmt **st,
		    char *err, size_t errlen)
{
	*st = NULL;
	const struct sqlfile_stmt *s = sqlfile_find(f, name);
	if (!s) {
		struct wb_buf has = {0};
		for (size_t i = 0; i < f->n; i++)
			wb_buf_printf(&has, "%s%s", i ? ", " : "", f->st[i].name);
		fail_at(err, errlen, f->path, 0, "no statement named '%s' (the file has: %s)", name,
			has.data ? has.data : "none");
		wb_buf_free(&has);
		return WB_ENOENT;
	}
	const char *tail = NULL;
	int src = sqlite3_prepare_v2(db, s->sql, -1, st, &tail);
	if (src != SQLITE_OK) {
		int off = sqlite3_error_offset(db);
		return fail_at(err, errlen, f->path, off >= 0 ? line_of(s, off) : s->line, "%s: %s",
			       name, sqlite3_errmsg(db));
	}
	if (!*st)
		return fail_at(err, errlen, f->path, s->line, "%s: no SQL statement", name);
	/* Anything after the first statement must be blanks and comments:
	 * preparing it then gives no statement. */
	sqlite3_stmt *more = NULL;
	int off = (int)(tail - s->sql);
	while (s->sql[off] == '\n' || is_blank(s->sql[off]))
		off++;
	src = sqlite3_prepare_v2(db, tail, -1, &more, NULL);
	if (src != SQLITE_OK || more) {
		sqlite3_finalize(more);
		sqlite3_finalize(*st);
		*st = NULL;
		return fail_at(err, errlen, f->path, line_of(s, off),
			       "%s: a second statement under one name (give it its own "
			       "'-- name:' line)",
			       name);
	}
	return 0;
}

/* The table's row for the parameter called name, or NULL. */
static const struct sqlfile_param *param_find(const struct sqlfile_param *p, size_t n,
					      const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return &p[i];
	return NULL;
}

static void offered(struct wb_buf *b, const struct sqlfile_param *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		wb_buf_printf(b, "%s%s", i ? ", " : "", p[i].name);
	if (!n)
		wb_buf_puts(b, "none");
}

int sqlfile_bind(sqlite3_stmt *st, const char *what, const struct sqlfile_param *params, size_t n,
		 char *err, size_t errlen)
{
	int count = sqlite3_bind_parameter_count(st), rc = 0;
	struct wb_buf b = {0};
	for (int i = 1; i <= count && rc == 0; i++) {
		const char *name = sqlite3_bind_parameter_name(st, i);
		const struct sqlfile_param *p = name ? param_find(params, n, name) : NULL;
		if (!p) {
			offered(&b, params, n);
			if (name)
				snprintf(err, errlen, "%s: unknown parameter %.*s (offered: %s)",
					 what, SQLFILE_NAME_MAX, name, b.data);
			else
				snprintf(err, errlen,
					 "%s: parameter %d has no name; use named parameters (%s)",
					 what, i, b.data);
			rc = WB_EINVAL;
			break;
		}
		int src = p->type == SQLFILE_INT ? sqlite3_bind_int64(st, i, p->i)
			  : p->type == SQLFILE_TEXT
				  ? sqlite3_bind_text(st, i, p->text ? p->text : "", -1,
						      SQLITE_TRANSIENT)
				  : sqlite3_bind_null(st, i);
		if (src != SQLITE_OK) {
			snprintf(err, errlen, "%s: cannot bind %s", what, name);
			rc = WB_EIO;
		}
	}
	for (size_t k = 0; k < n && rc == 0; k++) {
		if (params[k].required && sqlite3_bind_parameter_index(st, params[k].name) == 0) {
			snprintf(err, errlen, "%s: does not use %s, which it needs", what,
				 params[k].name);
			rc = WB_EINVAL;
		}
	}
	wb_buf_free(&b);
	if (rc == 0 && err && errlen)
		err[0] = '\0';
	return rc;
}
