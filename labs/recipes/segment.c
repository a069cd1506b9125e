/*
 * segment.c - the SQLite segment allocator (see segment.h).
 *
 * Invariants:
 *   - segment_seq.high_water only grows within one database history, and
 *     every range handed out lies at or below it;
 *   - generation grows by one per allocation (and per raise), in the same
 *     UPDATE that moves high_water, so (generation, high_water) is one
 *     snapshot of the row;
 *   - a range is returned only after its generation is durable in the
 *     witness, so the witness is never behind anything a caller holds.  A
 *     crash between the allocator commit and the witness write loses a
 *     range nobody received: waste, not reissue.
 *
 * A replacement bump (segment_set_bump, for the exercise "segment-alloc")
 * takes the place of the UPDATE and of the generation check; everything
 * around them (the request record, the witness write, the hooks) is the
 * same code for both.
 *
 * Not here: retries (a busy database is reported; the caller decides) and
 * any cache of the next segment.
 */
#include "recipes/segment.h"
#include "base/sqlitex.h"
#include "base/wb.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct segment_alloc {
	sqlite3 *db;		 /* the allocator database */
	sqlite3 *wit;		 /* the witness database, or NULL (no check) */
	sqlite3_stmt *bump;	 /* UPDATE ... RETURNING high_water, generation */
	sqlite3_stmt *find_req;	 /* SELECT a recorded request */
	sqlite3_stmt *save_req;	 /* INSERT a request record */
	sqlite3_stmt *read_seq;	 /* SELECT high_water, generation */
	sqlite3_stmt *read_wit;	 /* witness: SELECT generation, high_water */
	sqlite3_stmt *write_wit; /* witness: upsert with max() */
	int (*hook)(void *, const struct segment_range *); /* reply hook */
	void *hook_arg;
	void (*before)(void *); /* before-transaction hook */
	void *before_arg;
	segment_bump_fn bump_fn; /* replacement bump, or NULL */
	void *bump_arg;
	char err[320]; /* last error */
};

static const char alloc_schema[] = "CREATE TABLE IF NOT EXISTS segment_seq("
				   " name TEXT PRIMARY KEY,"
				   " high_water INTEGER NOT NULL CHECK (high_water >= 0),"
				   " generation INTEGER NOT NULL);"
				   "CREATE TABLE IF NOT EXISTS segment_request("
				   " request_id TEXT PRIMARY KEY,"
				   " name TEXT NOT NULL,"
				   " first INTEGER NOT NULL,"
				   " last INTEGER NOT NULL,"
				   " generation INTEGER NOT NULL);";

static const char witness_schema[] = "CREATE TABLE IF NOT EXISTS segment_witness("
				     " name TEXT PRIMARY KEY,"
				     " generation INTEGER NOT NULL,"
				     " high_water INTEGER NOT NULL);";

static int fail(struct segment_alloc *a, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct segment_alloc *a, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->err, sizeof a->err, fmt, ap);
	va_end(ap);
	return rc;
}

static int sql_fail(struct segment_alloc *a, sqlite3 *db, int src, const char *what)
{
	int rc = sqlitex_err(src) ? sqlitex_err(src) : WB_EIO;
	return fail(a, rc, "%s: %s: %s", sqlite3_db_filename(db, "main"), what, sqlite3_errmsg(db));
}

static int open_db(struct segment_alloc *a, const char *path, const char *schema, sqlite3 **out)
{
	sqlite3 *db = NULL;
	/* synchronous=FULL: an allocation must survive a power cut before
	 * its range leaves this function. */
	struct sqlitex_opts so = {.busy_timeout_ms = 10000, .synchronous = 2};
	int rc = sqlitex_open(path, &so, &db, a->err, sizeof a->err);
	if (rc)
		return rc;
	int src = sqlite3_exec(db, schema, NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		int rc = sql_fail(a, db, src, "schema");
		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

static int prep(struct segment_alloc *a, sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	int src = sqlite3_prepare_v2(db, sql, -1, st, NULL);
	return src == SQLITE_OK ? 0 : sql_fail(a, db, src, "prepare");
}

int segment_open(const char *db_path, const char *witness_path, struct segment_alloc **out,
		 char *err, size_t errlen)
{
	struct segment_alloc *a = wb_xcalloc(1, sizeof *a);
	int rc;
	*out = NULL;
	rc = open_db(a, db_path, alloc_schema, &a->db);
	if (!rc && witness_path)
		rc = open_db(a, witness_path, witness_schema, &a->wit);
	if (!rc)
		rc = prep(a, a->db,
			  "UPDATE segment_seq SET high_water = high_water + ?2,"
			  " generation = generation + 1"
			  " WHERE name = ?1 AND high_water <= ?3"
			  " RETURNING high_water, generation",
			  &a->bump);
	if (!rc)
		rc = prep(a, a->db,
			  "SELECT name, first, last, generation FROM segment_request"
			  " WHERE request_id = ?1",
			  &a->find_req);
	if (!rc)
		rc = prep(a, a->db,
			  "INSERT INTO segment_request(request_id, name, first, last, generation)"
			  " VALUES(?1, ?2, ?3, ?4, ?5)",
			  &a->save_req);
	if (!rc)
		rc = prep(a, a->db,
			  "SELECT high_water, generation FROM segment_seq WHERE name = ?1",
			  &a->read_seq);
	if (!rc && a->wit)
		rc = prep(a, a->wit,
			  "SELECT generation, high_water FROM segment_witness WHERE name = ?1",
			  &a->read_wit);
	if (!rc && a->wit)
		rc = prep(a, a->wit,
			  "INSERT INTO segment_witness(name, generation, high_water)"
			  " VALUES(?1, ?2, ?3) ON CONFLICT(name) DO UPDATE SET"
			  " generation = max(generation, excluded.generation),"
			  " high_water = max(high_water, excluded.high_water)",
			  &a->write_wit);
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "%s", a->err);
		segment_free(a);
		return rc;
	}
	*out = a;
	return 0;
}

void segment_free(struct segment_alloc *a)
{
	if (!a)
		return;
	sqlite3_finalize(a->bump);
	sqlite3_finalize(a->find_req);
	sqlite3_finalize(a->save_req);
	sqlite3_finalize(a->read_seq);
	sqlite3_finalize(a->read_wit);
	sqlite3_finalize(a->write_wit);
	sqlite3_close(a->db);
	sqlite3_close(a->wit);
	free(a);
}

const char *segment_errmsg(const struct segment_alloc *a)
{
	return a->err;
}

void segment_set_reply_hook(struct segment_alloc *a,
			    int (*fn)(void *arg, const struct segment_range *r), void *arg)
{
	a->hook = fn;
	a->hook_arg = arg;
}

void segment_set_before_hook(struct segment_alloc *a, void (*fn)(void *arg), void *arg)
{
	a->before = fn;
	a->before_arg = arg;
}

void segment_set_bump(struct segment_alloc *a, segment_bump_fn fn, void *arg)
{
	a->bump_fn = fn;
	a->bump_arg = arg;
}

/* Attaches the witness as "witness" on the allocator's connection, once,
 * for a replacement bump (outside any transaction). */
static int attach_witness(struct segment_alloc *a)
{
	if (!a->wit || sqlite3_db_filename(a->db, "witness"))
		return 0;
	const char *path = sqlite3_db_filename(a->wit, "main");
	sqlite3_stmt *st = NULL;
	int rc = prep(a, a->db, "ATTACH DATABASE ?1 AS witness", &st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	int src = sqlite3_step(st);
	sqlite3_finalize(st);
	return src == SQLITE_DONE ? 0 : sql_fail(a, a->db, src, "attach witness");
}

/* The replacement bump inside the transaction: 0 with r, or an error. */
static int custom_bump(struct segment_alloc *a, const char *name, int64_t n,
		       struct segment_range *r)
{
	char err[256] = "";
	int rc = a->bump_fn(a->bump_arg, a->db, name, n, SEGMENT_BUMP_IN, r, err, sizeof err);
	if (rc)
		return fail(a, rc, "%s: %s", name, err[0] ? err : wb_strerror(rc));
	if (r->last - r->first + 1 != n)
		return fail(a, WB_EINVAL,
			    "%s: the allocation returned %" PRId64 "..%" PRId64 " for n = %" PRId64,
			    name, r->first, r->last, n);
	return 0;
}

int segment_create(struct segment_alloc *a, const char *name, int64_t start)
{
	sqlite3_stmt *st = NULL;
	if (start < 0)
		return fail(a, WB_EINVAL, "start must be >= 0");
	int rc = prep(a, a->db,
		      "INSERT INTO segment_seq(name, high_water, generation) VALUES(?1, ?2, 0)"
		      " ON CONFLICT(name) DO NOTHING",
		      &st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, start);
	int src = sqlite3_step(st);
	if (src != SQLITE_DONE)
		rc = sql_fail(a, a->db, src, "create");
	sqlite3_finalize(st);
	return rc;
}

static int read_row(struct segment_alloc *a, const char *name, int64_t *h, int64_t *gen)
{
	sqlite3_reset(a->read_seq);
	sqlite3_bind_text(a->read_seq, 1, name, -1, SQLITE_TRANSIENT);
	int src = sqlite3_step(a->read_seq), rc = 0;
	if (src == SQLITE_ROW) {
		*h = sqlite3_column_int64(a->read_seq, 0);
		*gen = sqlite3_column_int64(a->read_seq, 1);
	} else if (src == SQLITE_DONE) {
		rc = fail(a, WB_ENOENT, "no sequence named '%s'", name);
	} else {
		rc = sql_fail(a, a->db, src, "read");
	}
	sqlite3_reset(a->read_seq);
	return rc;
}

int segment_high_water(struct segment_alloc *a, const char *name, int64_t *h, int64_t *generation)
{
	return read_row(a, name, h, generation);
}

/* The witness's generation and h for name (0, 0 when it has none). */
static int read_witness(struct segment_alloc *a, const char *name, int64_t *gen, int64_t *h)
{
	*gen = *h = 0;
	sqlite3_reset(a->read_wit);
	sqlite3_bind_text(a->read_wit, 1, name, -1, SQLITE_TRANSIENT);
	int src = sqlite3_step(a->read_wit), rc = 0;
	if (src == SQLITE_ROW) {
		*gen = sqlite3_column_int64(a->read_wit, 0);
		*h = sqlite3_column_int64(a->read_wit, 1);
	} else if (src != SQLITE_DONE) {
		rc = sql_fail(a, a->wit, src, "witness read");
	}
	sqlite3_reset(a->read_wit);
	return rc;
}

static int write_witness(struct segment_alloc *a, const char *name, int64_t gen, int64_t h)
{
	sqlite3_reset(a->write_wit);
	sqlite3_bind_text(a->write_wit, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(a->write_wit, 2, gen);
	sqlite3_bind_int64(a->write_wit, 3, h);
	int src = sqlite3_step(a->write_wit);
	sqlite3_reset(a->write_wit);
	return src == SQLITE_DONE ? 0 : sql_fail(a, a->wit, src, "witness write");
}

static int begin(struct segment_alloc *a)
{
	int src = sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	return src == SQLITE_OK ? 0 : sql_fail(a, a->db, src, "BEGIN IMMEDIATE");
}

static int end(struct segment_alloc *a, int rc)
{
	if (rc) {
		sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	int src = sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = sql_fail(a, a->db, src, "COMMIT");
		sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
	}
	return rc;
}

/* Looks up request_id.  Returns 1 (found, *r filled), 0 (not found) or a
 * negative code. */
static int find_request(struct segment_alloc *a, const char *request_id, const char *name,
			int64_t n, struct segment_range *r)
{
	sqlite3_reset(a->find_req);
	sqlite3_bind_text(a->find_req, 1, request_id, -1, SQLITE_TRANSIENT);
	int src = sqlite3_step(a->find_req), rc = 0;
	if (src == SQLITE_ROW) {
		const char *was = (const char *)sqlite3_column_text(a->find_req, 0);
		r->first = sqlite3_column_int64(a->find_req, 1);
		r->last = sqlite3_column_int64(a->find_req, 2);
		r->generation = sqlite3_column_int64(a->find_req, 3);
		r->recovered = 1;
		if (!was || strcmp(was, name) || r->last - r->first + 1 != n)
			rc = fail(a, WB_EINVAL,
				  "request id %s was used for %s (%" PRId64
				  " numbers), not %s (%" PRId64 ")",
				  request_id, was ? was : "?", r->last - r->first + 1, name, n);
		else
			rc = 1;
	} else if (src != SQLITE_DONE) {
		rc = sql_fail(a, a->db, src, "request lookup");
	}
	sqlite3_reset(a->find_req);
	return rc;
}

int segment_alloc(struct segment_alloc *a, const char *name, int64_t n, const char *request_id,
		  struct segment_range *out)
{
	struct segment_range r = {0};
	int64_t wgen = 0, wh = 0;
	int rc, src;
	if (n < 1 || n > INT64_C(1) << 31)
		return fail(a, WB_EINVAL, "segment size %" PRId64 " is out of range 1..2^31", n);
	if (a->bump_fn) {
		char err[256] = "";
		rc = attach_witness(a);
		if (!rc)
			rc = a->bump_fn(a->bump_arg, a->db, name, n, SEGMENT_BUMP_BEFORE, &r, err,
					sizeof err);
		if (rc)
			return err[0] ? fail(a, rc, "%s: %s", name, err) : rc;
	}
	if (a->before)
		a->before(a->before_arg);
	rc = begin(a);
	if (rc)
		return rc;
	if (request_id) {
		rc = find_request(a, request_id, name, n, &r);
		if (rc == 1) {
			/* Already committed: the reply was lost, this is the same range. */
			rc = end(a, 0);
			if (!rc)
				*out = r;
			return rc;
		}
		if (rc)
			return end(a, rc);
	}
	if (a->bump_fn) {
		rc = custom_bump(a, name, n, &r);
		if (rc)
			return end(a, rc);
		goto bumped;
	}
	sqlite3_reset(a->bump);
	sqlite3_bind_text(a->bump, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(a->bump, 2, n);
	sqlite3_bind_int64(a->bump, 3, INT64_MAX - n);
	src = sqlite3_step(a->bump);
	if (src == SQLITE_ROW) {
		r.last = sqlite3_column_int64(a->bump, 0);
		r.generation = sqlite3_column_int64(a->bump, 1);
		r.first = r.last - n + 1;
		src = sqlite3_step(a->bump);
	} else if (src == SQLITE_DONE) {
		int64_t h, g;
		rc = read_row(a, name, &h, &g);
		if (!rc)
			rc = fail(a, WB_ERANGE, "%s: h = %" PRId64 " cannot grow by %" PRId64, name,
				  h, n);
		sqlite3_reset(a->bump);
		return end(a, rc);
	}
	sqlite3_reset(a->bump);
	if (src != SQLITE_DONE)
		return end(a, sql_fail(a, a->db, src, "allocate"));

	/* A database behind its witness was restored from an old backup: the
	 * generations it is about to hand out again were handed out before. */
	if (a->wit) {
		rc = read_witness(a, name, &wgen, &wh);
		if (rc)
			return end(a, rc);
		if (r.generation - 1 < wgen)
			return end(a, fail(a, WB_ECORRUPT,
					   "%s: allocator at generation %" PRId64 " (h = %" PRId64
					   ") is behind its witness (generation %" PRId64
					   ", h = %" PRId64 "): restored from an old backup? "
					   "Raise h before serving",
					   name, r.generation - 1, r.first - 1, wgen, wh));
	}
bumped:
	if (request_id) {
		sqlite3_reset(a->save_req);
		sqlite3_bind_text(a->save_req, 1, request_id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(a->save_req, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(a->save_req, 3, r.first);
		sqlite3_bind_int64(a->save_req, 4, r.last);
		sqlite3_bind_int64(a->save_req, 5, r.generation);
		src = sqlite3_step(a->save_req);
		sqlite3_reset(a->save_req);
		if (src != SQLITE_DONE)
			return end(a, sql_fail(a, a->db, src, "record request"));
	}
	rc = end(a, 0);
	if (rc)
		return rc;
	if (a->wit) {
		rc = write_witness(a, name, r.generation, r.last);
		if (rc)
			return rc; /* the range is wasted, never handed out */
	}
	if (a->hook) {
		rc = a->hook(a->hook_arg, &r);
		if (rc)
			return fail(a, rc,
				    "the reply to the allocation of %" PRId64 "..%" PRId64
				    " was lost",
				    r.first, r.last);
	}
	*out = r;
	return 0;
}

int segment_raise(struct segment_alloc *a, const char *name, int64_t floor)
{
	sqlite3_stmt *st = NULL;
	int64_t h, gen, wgen = 0, wh = 0;
	int rc, src;
	if (floor < 0)
		return fail(a, WB_EINVAL, "floor must be >= 0");
	rc = begin(a);
	if (rc)
		return rc;
	rc = read_row(a, name, &h, &gen);
	if (!rc && a->wit)
		rc = read_witness(a, name, &wgen, &wh);
	if (!rc)
		rc = prep(a, a->db,
			  "UPDATE segment_seq SET high_water = ?2, generation = ?3 WHERE name = ?1",
			  &st);
	if (rc)
		return end(a, rc);
	if (floor > h)
		h = floor;
	if (wh > h)
		h = wh;
	gen = (wgen > gen ? wgen : gen) + 1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, h);
	sqlite3_bind_int64(st, 3, gen);
	src = sqlite3_step(st);
	sqlite3_finalize(st);
	if (src != SQLITE_DONE)
		return end(a, sql_fail(a, a->db, src, "raise"));
	rc = end(a, 0);
	if (!rc && a->wit)
		rc = write_witness(a, name, gen, h);
	return rc;
}
