/*
 * sqlex.c - loading and running a learner's named statements (see
 * sqlex.h).  No scenario logic lives here.
 */
#include "sqlex.h"
#include "base/sqlitex.h"
#include "base/wb.h"
#include "harness/report.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int prepare_all(struct lab_ctx *ctx, sqlite3 *db, const struct sqlfile *f,
		       const char *const *names, const struct sqlfile_param *params, size_t n)
{
	struct report *r = ctx->report;
	char err[SQLFILE_ERROR_MAX];
	for (size_t i = 0; names[i]; i++) {
		char *what = wb_xasprintf("defines %s", names[i]);
		int ok = sqlfile_find(f, names[i]) != NULL;
		report_checkf(r, what, ok,
			      "the file has a statement '-- name: <name>' for each one", "%s",
			      ok ? "defined" : "missing");
		free(what);
		if (!ok)
			return WB_EINVAL;
		sqlite3_stmt *st = NULL;
		int rc = sqlfile_prepare(db, f, names[i], &st, err, sizeof err);
		if (rc == 0)
			rc = sqlfile_bind(st, names[i], params, n, err, sizeof err);
		sqlite3_finalize(st);
		what = wb_xasprintf("prepares %s", names[i]);
		report_checkf(
			r, what, rc == 0,
			"SQLite prepares the statement against the given schema and binds its "
			"named parameters",
			"%s", rc == 0 ? "prepared" : err);
		free(what);
		if (rc)
			return WB_EINVAL;
	}
	return 0;
}

int sqlex_load(struct lab_ctx *ctx, const struct ex_code *code, const char *schema,
	       const char *const *names, const struct sqlfile_param *params, size_t n,
	       struct sqlfile **out)
{
	struct report *r = ctx->report;
	char err[SQLFILE_ERROR_MAX];
	*out = NULL;
	struct sqlfile *f = NULL;
	int rc = sqlfile_load(code->path, &f, err, sizeof err);
	if (rc == WB_ENOENT || rc == WB_EIO) {
		report_cannot(r, "%s", err);
		return WB_EIO;
	}
	report_check(r, "parses", rc == 0, "the file is a list of '-- name: <name>' statements",
		     rc == 0 ? "parsed" : err);
	if (rc)
		return WB_EINVAL;
	rc = sqlex_check_stmts(ctx, f, schema, names, params, n);
	if (rc) {
		sqlfile_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

int sqlex_load_data(struct lab_ctx *ctx, const struct ex_code *code, const char *data,
		    const char *const *names, const struct sqlfile_param *params, size_t n,
		    struct sqlfile **out)
{
	char path[LAB_PATH_MAX];
	char *schema = NULL;
	*out = NULL;
	if (wb_read_file(lab_data_file(ctx, data, path, sizeof path), &schema, NULL) != 0) {
		report_cannot(ctx->report, "cannot read %s", path);
		return WB_EIO;
	}
	int rc = sqlex_load(ctx, code, schema, names, params, n, out);
	free(schema);
	return rc;
}

int sqlex_check_stmts(struct lab_ctx *ctx, const struct sqlfile *f, const char *schema,
		      const char *const *names, const struct sqlfile_param *params, size_t n)
{
	char err[SQLFILE_ERROR_MAX];
	sqlite3 *db = NULL;
	char *path = wb_xasprintf("%s/scratch.db", ctx->run_dir);
	unlink(path);
	int rc = sqlitex_open(path, NULL, &db, err, sizeof err);
	free(path);
	if (rc == 0)
		rc = sqlitex_exec_script(db, schema, "schema", err, sizeof err);
	if (rc) {
		report_cannot(ctx->report, "scratch database: %s", err);
		rc = WB_EIO;
	} else {
		rc = prepare_all(ctx, db, f, names, params, n);
	}
	sqlite3_close_v2(db);
	return rc;
}

static void keep_row(sqlite3_stmt *st, struct sqlex_out *out)
{
	out->ncol = sqlite3_column_count(st);
	if (out->ncol > SQLEX_COLS)
		out->ncol = SQLEX_COLS;
	for (int i = 0; i < out->ncol; i++) {
		const char *name = sqlite3_column_name(st, i);
		snprintf(out->col[i], sizeof out->col[i], "%s", name ? name : "");
		out->null[i] = sqlite3_column_type(st, i) == SQLITE_NULL;
		out->v[i] = sqlite3_column_int64(st, i);
		const unsigned char *t = sqlite3_column_text(st, i);
		snprintf(out->text[i], sizeof out->text[i], "%s", t ? (const char *)t : "");
	}
}

int sqlex_exec(sqlite3 *db, const struct sqlfile *f, const char *name,
	       const struct sqlfile_param *params, size_t n, struct sqlex_out *out, char *err,
	       size_t errlen)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st = NULL;
	int rc = sqlfile_prepare(db, f, name, &st, err, errlen);
	if (rc == 0)
		rc = sqlfile_bind(st, name, params, n, err, errlen);
	int s = SQLITE_DONE;
	while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->rows++ == 0)
			keep_row(st, out);
		if (out->rows >= 1000)
			break;
	}
	if (rc == 0 && s != SQLITE_DONE && s != SQLITE_ROW) {
		rc = sqlitex_err(s) ? sqlitex_err(s) : WB_EIO;
		if (rc == WB_EIO || rc == WB_ECORRUPT)
			rc = WB_EINVAL; /* the learner's statement failed */
		snprintf(err, errlen, "%s: %s", name, sqlite3_errmsg(db));
	}
	if (rc == 0)
		out->changes = sqlite3_stmt_readonly(st) ? 0 : sqlite3_changes(db);
	sqlite3_finalize(st);
	return rc;
}

int sqlex_int(const struct sqlex_out *out, const char *col, long long *v)
{
	for (int i = 0; out->rows && i < out->ncol; i++)
		if (!strcmp(out->col[i], col)) {
			*v = out->v[i];
			return 0;
		}
	return WB_ENOENT;
}
