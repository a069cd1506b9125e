/*
 * fenced.c - the fenced resource (see fenced.h).
 *
 * Invariants this file owns:
 *  - A domain's mark and value are one row: they are written by the same
 *    statement, so no crash or interleaving can separate them.
 *  - The comparison is the WHERE clause of that statement, and the
 *    statement runs inside BEGIN IMMEDIATE: the write lock is taken before
 *    the mark is read, so between reading the mark (for the report) and
 *    writing, no other connection can commit anything.  "Read the mark,
 *    then write unconditionally" in two transactions is exactly the race
 *    chapter 02 draws as design (2); it is not done here.
 *  - In FENCED_ON mode the mark never goes down.
 *
 * A replacement write (fenced_set_write, for the exercise "fenced-write")
 * takes the place of the one statement; the transaction around it and the
 * marks it reports are the same code.  It may also refuse before the
 * transaction (a check-then-write: the exercise's known-wrong variant).
 *
 * It does not keep a history of writes and never deletes a domain.
 */
#include "recipes/fenced.h"
#include "base/sqlitex.h"
#include "base/wb.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fenced {
	sqlite3 *db;	       /* the one connection */
	enum fenced_mode mode; /* FENCED_ON or FENCED_OFF */
	sqlite3_stmt *read;    /* SELECT mark, value of a domain */
	sqlite3_stmt *write;   /* the conditional (or, OFF, unconditional) upsert */
	fenced_hook_fn hook;   /* test hook inside the transaction, or NULL */
	void *hook_arg;	       /* its argument */
	fenced_hook_fn before; /* hook before the transaction, or NULL */
	void *before_arg;
	fenced_write_fn write_fn; /* replacement write, or NULL */
	void *write_arg;
	char errmsg[512]; /* last error */
};

/*
 * The schema.  mark >= 0 once a domain exists; "no write yet" is the
 * absence of the row.  In FENCED_OFF mode mark records the last writer's
 * token and is never compared (so it can go backwards: that is the point
 * of the control).
 */
static const char schema[] = "CREATE TABLE IF NOT EXISTS fenced_resource (\n"
			     "  domain TEXT PRIMARY KEY NOT NULL,\n"
			     "  mark   INTEGER NOT NULL CHECK (mark >= 0),\n"
			     "  value  TEXT NOT NULL\n"
			     ")";

static const char sql_read[] = "SELECT mark, value FROM fenced_resource WHERE domain = ?1";

/*
 * Compare and write in one statement: a new domain is inserted; an
 * existing one is updated only when its mark is not above the token.
 * sqlite3_changes() is then 1 (accepted) or 0 (rejected).
 */
static const char sql_write_fenced[] =
	"INSERT INTO fenced_resource(domain, mark, value) VALUES (?1, ?2, ?3)\n"
	"ON CONFLICT(domain) DO UPDATE SET mark = excluded.mark, value = excluded.value\n"
	"WHERE fenced_resource.mark <= excluded.mark";

/* The control: the same write without the WHERE. */
static const char sql_write_unfenced[] =
	"INSERT INTO fenced_resource(domain, mark, value) VALUES (?1, ?2, ?3)\n"
	"ON CONFLICT(domain) DO UPDATE SET mark = excluded.mark, value = excluded.value";

static int set_err(struct fenced *f, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(struct fenced *f, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->errmsg, sizeof f->errmsg, fmt, ap);
	va_end(ap);
	return rc;
}

/* SQLite result codes are translated by base/sqlitex's one map. */
static int db_err(struct fenced *f, int src, const char *what)
{
	return set_err(f, sqlitex_err(src) ? sqlitex_err(src) : WB_EIO, "%s: %s: %s",
		       sqlite3_db_filename(f->db, "main"), what, sqlite3_errmsg(f->db));
}

int fenced_open(const char *path, const struct fenced_opts *opts, struct fenced **out, char *err,
		size_t errlen)
{
	struct fenced *f = wb_xcalloc(1, sizeof *f);
	int rc = 0, src;
	int busy = opts && opts->busy_timeout_ms ? opts->busy_timeout_ms : 5000;
	f->mode = opts ? opts->mode : FENCED_ON;
	*out = NULL;
	if (f->mode != FENCED_ON && f->mode != FENCED_OFF) {
		rc = set_err(f, WB_EINVAL, "fenced_open: bad mode %d", (int)f->mode);
		goto out;
	}
	/* synchronous=FULL: an accepted write is on disk before it returns. */
	struct sqlitex_opts so = {.busy_timeout_ms = busy, .synchronous = 2};
	rc = sqlitex_open(path, &so, &f->db, f->errmsg, sizeof f->errmsg);
	if (rc)
		goto out;
	if (busy < 0)
		sqlite3_busy_timeout(f->db, 0); /* do not wait at all */
	src = sqlite3_exec(f->db, schema, NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = db_err(f, src, "schema");
		goto out;
	}
	src = sqlite3_prepare_v2(f->db, sql_read, -1, &f->read, NULL);
	if (src == SQLITE_OK)
		src = sqlite3_prepare_v2(
			f->db, f->mode == FENCED_ON ? sql_write_fenced : sql_write_unfenced, -1,
			&f->write, NULL);
	if (src != SQLITE_OK) {
		rc = db_err(f, src, "prepare");
		goto out;
	}
out:
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "%s", f->errmsg);
		fenced_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

void fenced_free(struct fenced *f)
{
	if (!f)
		return;
	sqlite3_finalize(f->read);
	sqlite3_finalize(f->write);
	sqlite3_close(f->db);
	free(f);
}

void fenced_set_hook(struct fenced *f, fenced_hook_fn fn, void *arg)
{
	f->hook = fn;
	f->hook_arg = arg;
}

void fenced_set_before_hook(struct fenced *f, fenced_hook_fn fn, void *arg)
{
	f->before = fn;
	f->before_arg = arg;
}

void fenced_set_write(struct fenced *f, fenced_write_fn fn, void *arg)
{
	f->write_fn = f->mode == FENCED_ON ? fn : NULL;
	f->write_arg = arg;
}

enum fenced_mode fenced_get_mode(const struct fenced *f)
{
	return f->mode;
}

const char *fenced_errmsg(const struct fenced *f)
{
	return f->errmsg;
}

/* Reads domain's row with the read statement.  Returns 0 (row), WB_ENOENT
 * (no row) or an error; *value (may be NULL) is a copy. */
static int read_row(struct fenced *f, const char *domain, int64_t *mark, char **value)
{
	sqlite3_reset(f->read);
	sqlite3_bind_text(f->read, 1, domain, -1, SQLITE_TRANSIENT);
	int src = sqlite3_step(f->read), rc = 0;
	if (src == SQLITE_ROW) {
		if (mark)
			*mark = sqlite3_column_int64(f->read, 0);
		if (value) {
			const unsigned char *v = sqlite3_column_text(f->read, 1);
			int n = sqlite3_column_bytes(f->read, 1);
			*value = wb_xstrndup(v ? (const char *)v : "", (size_t)n);
		}
	} else if (src == SQLITE_DONE) {
		rc = WB_ENOENT;
	} else {
		rc = db_err(f, src, "read");
	}
	sqlite3_reset(f->read);
	sqlite3_clear_bindings(f->read);
	return rc;
}

int fenced_read(struct fenced *f, const char *domain, int64_t *mark, char **value)
{
	if (value)
		*value = NULL;
	if (!domain || !*domain)
		return set_err(f, WB_EINVAL, "fenced_read: empty domain");
	int rc = read_row(f, domain, mark, value);
	if (rc == WB_ENOENT)
		set_err(f, rc, "domain '%s' has no write yet", domain);
	return rc;
}

int fenced_write(struct fenced *f, const char *domain, int64_t token, const char *value,
		 struct fenced_result *res)
{
	struct fenced_result r = {0, -1, -1};
	int rc = 0, src, in_tx = 0;
	if (!domain || !*domain || !value || token < 0) {
		rc = set_err(f, WB_EINVAL, "fenced_write: %s",
			     token < 0 ? "negative token" : "empty domain or value");
		goto out;
	}
	if (f->write_fn) {
		char err[256] = "";
		int go = 1;
		rc = f->write_fn(f->write_arg, f->db, FENCED_WRITE_BEFORE, domain, token, value,
				 &go, err, sizeof err);
		if (rc) {
			rc = set_err(f, rc, "write (before): %s", err);
			goto out;
		}
		if (!go) { /* refused before writing: report the mark as it is */
			rc = read_row(f, domain, &r.mark_before, NULL);
			if (rc == WB_ENOENT)
				rc = 0;
			r.mark_after = r.mark_before;
			goto out;
		}
	}
	if (f->before)
		f->before(f->before_arg, f, domain, token);
	/* IMMEDIATE: take the write lock before reading the mark. */
	src = sqlite3_exec(f->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = db_err(f, src, "BEGIN IMMEDIATE");
		goto out;
	}
	in_tx = 1;
	rc = read_row(f, domain, &r.mark_before, NULL);
	if (rc == WB_ENOENT)
		rc = 0; /* mark_before stays -1 */
	if (rc)
		goto out;
	if (f->hook)
		f->hook(f->hook_arg, f, domain, token);

	if (f->write_fn) {
		char err[256] = "";
		int changed = 0;
		rc = f->write_fn(f->write_arg, f->db, FENCED_WRITE_IN, domain, token, value,
				 &changed, err, sizeof err);
		if (rc == 0 && changed > 1)
			rc = set_err(f, WB_EINVAL, "write: %d rows changed for one domain",
				     changed);
		else if (rc)
			rc = set_err(f, rc, "write: %s", err);
		if (rc)
			goto out;
		r.accepted = changed == 1;
	} else {
		sqlite3_reset(f->write);
		sqlite3_bind_text(f->write, 1, domain, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(f->write, 2, token);
		sqlite3_bind_text(f->write, 3, value, -1, SQLITE_TRANSIENT);
		src = sqlite3_step(f->write);
		sqlite3_reset(f->write);
		sqlite3_clear_bindings(f->write);
		if (src != SQLITE_DONE) {
			rc = db_err(f, src, "write");
			goto out;
		}
		r.accepted = sqlite3_changes(f->db) == 1;
	}
	rc = read_row(f, domain, &r.mark_after, NULL);
	if (rc)
		goto out;
	src = sqlite3_exec(f->db, "COMMIT", NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = db_err(f, src, "COMMIT");
		goto out;
	}
	in_tx = 0;
	if (!r.accepted)
		set_err(f, 0, "token %lld is below the mark %lld: rejected", (long long)token,
			(long long)r.mark_before);
out:
	if (in_tx) {
		sqlite3_exec(f->db, "ROLLBACK", NULL, NULL, NULL);
		r.accepted = 0;
	}
	if (res)
		*res = r;
	return rc;
}
