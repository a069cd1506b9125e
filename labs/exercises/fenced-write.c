/*
 * fenced-write.c - the check of the exercise "fenced-write": the
 * learner's statement "write" in place of the fenced resource's
 * compare-and-write (recipes/fenced.h, fenced_set_write), judged by the
 * lab zk-fencing's own scenario (labs/zk/zk-fencing.h): a real ZooKeeper,
 * the proxy that silences A until its session expires, A's paused
 * business thread, B's larger token, the reopen, and the forced
 * interleaving.
 *
 * "write" runs inside the recipe's BEGIN IMMEDIATE transaction with
 * :domain, :token and :value; it was accepted when it changed exactly one
 * row.  A file may also define "check", run first and outside the
 * transaction with :domain and :token: a row whose column ok is 0 (or no
 * row) rejects the write there.  That is the naive check-then-write; the
 * scenario's interleaving hook sits between the two.
 */
#include "exercise.h"
#include "sqlex.h"
#include "base/wb.h"
#include "harness/report.h"
#include "recipes/fenced.h"
#include "zk/zk-fencing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_params(struct sqlfile_param p[3], const char *domain, int64_t token,
			 const char *value)
{
	p[0] = (struct sqlfile_param){":domain", SQLFILE_TEXT, 0, domain, 1};
	p[1] = (struct sqlfile_param){":token", SQLFILE_INT, token, NULL, 1};
	p[2] = (struct sqlfile_param){":value", SQLFILE_TEXT, 0, value, 1};
}

static int learner_write(void *arg, sqlite3 *db, enum fenced_write_phase phase, const char *domain,
			 int64_t token, const char *value, int *out, char *err, size_t errlen)
{
	const struct sqlfile *f = arg;
	struct sqlfile_param p[3];
	struct sqlex_out o;
	write_params(p, domain, token, value);
	if (phase == FENCED_WRITE_BEFORE) {
		*out = 1;
		if (!sqlfile_find(f, "check"))
			return 0;
		p[2].required = 0;
		int rc = sqlex_exec(db, f, "check", p, 2, &o, err, errlen);
		long long ok = 0;
		if (rc == 0)
			*out = sqlex_int(&o, "ok", &ok) == 0 && ok != 0;
		return rc;
	}
	int rc = sqlex_exec(db, f, "write", p, 3, &o, err, errlen);
	if (rc == 0)
		*out = o.changes;
	return rc;
}

static void setup(void *arg, struct fenced *f)
{
	fenced_set_write(f, learner_write, arg);
}

/* The resource's table, as the task text gives it. */
static const char schema[] = "CREATE TABLE fenced_resource (\n"
			     "  domain TEXT PRIMARY KEY NOT NULL,\n"
			     "  mark   INTEGER NOT NULL CHECK (mark >= 0),\n"
			     "  value  TEXT NOT NULL\n"
			     ");";

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"write", NULL};
	struct sqlfile_param p[3];
	write_params(p, "/lock", 7, "v");
	struct sqlfile *f = NULL;
	int rc = sqlex_load(ctx, code, schema, names, p, 3, &f);
	if (rc == 0 && sqlfile_find(f, "check")) {
		static const char *const more[] = {"check", NULL};
		p[2].required = 0;
		rc = sqlex_check_stmts(ctx, f, schema, more, p, 2);
	}
	if (rc) {
		sqlfile_free(f);
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	}
	report_conclusion(ctx->report,
			  "Your write compared the token with the stored mark and wrote in one "
			  "statement: A's late write was rejected once B's token was accepted, the "
			  "mark survived a reopen, and a write overtaken in flight was rejected "
			  "too.");
	struct fenced_impl impl = {setup, f};
	rc = zk_fencing_scenario(ctx, &impl);
	sqlfile_free(f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_fenced_write = check;
