/*
 * sqlex.h - what the SQL exercises' checks share (labs/exercises/task-*.c,
 * fenced-write.c, segment-alloc.c): loading the learner's file of named
 * statements (harness/sqlfile.h) with its problems reported as failed
 * checks, and running one named statement with bound parameters while
 * keeping the first row it returns.
 *
 * It deliberately knows no scenario and opens no database of its own
 * except the scratch one sqlex_load prepares on; transactions are the
 * adapter's (each exercise decides what one call of the learner's
 * statement is).
 */
#ifndef WB_SQLEX_H
#define WB_SQLEX_H

#include "exercise.h"
#include "harness/sqlfile.h"

#include <sqlite3.h>

#define SQLEX_COLS 12

/* What one statement did: changed rows, returned rows, the first row. */
struct sqlex_out {
	int changes; /* rows the statement changed (0 for a read-only one) */
	int rows;    /* rows it returned */
	int ncol;
	char col[SQLEX_COLS][32];  /* first row: column names ... */
	long long v[SQLEX_COLS];   /* ... as integers ... */
	char text[SQLEX_COLS][80]; /* ... and as text */
	int null[SQLEX_COLS];
};

/* Loads the learner's file, then prepares and binds every statement in
 * names (NULL-terminated) on a scratch database in ctx->run_dir made from
 * schema (SQL text): a parse error is the failed check "parses", a
 * missing statement "defines <name>", a statement SQLite or the binding
 * refuses "prepares <name>".  params (n rows) is what every statement may
 * use.  Returns 0 with *out (sqlfile_free), or WB_EINVAL after reporting
 * the failed check (the caller returns LAB_RAN), or WB_EIO after
 * report_cannot. */
int sqlex_load(struct lab_ctx *ctx, const struct ex_code *code, const char *schema,
	       const char *const *names, const struct sqlfile_param *params, size_t n,
	       struct sqlfile **out);

/* sqlex_load with the schema read from the lab's data file data
 * (lab_data_file, e.g. "tasks.sql"): a file that cannot be read is
 * report_cannot "cannot read <path>" and WB_EIO; otherwise what
 * sqlex_load returns. */
int sqlex_load_data(struct lab_ctx *ctx, const struct ex_code *code, const char *data,
		    const char *const *names, const struct sqlfile_param *params, size_t n,
		    struct sqlfile **out);

/* The second half of sqlex_load, for statements a check asks for only
 * when the file has them: prepares and binds names on a fresh scratch
 * database made from schema, with the same failed checks.  0, WB_EINVAL
 * (reported) or WB_EIO (report_cannot). */
int sqlex_check_stmts(struct lab_ctx *ctx, const struct sqlfile *f, const char *schema,
		      const char *const *names, const struct sqlfile_param *params, size_t n);

/* Prepares statement name of f on db, binds params and steps it to the
 * end (at most 1000 rows).  Returns 0 with *out, or WB_EINVAL / WB_EBUSY /
 * WB_EIO with "name: message" in err. */
int sqlex_exec(sqlite3 *db, const struct sqlfile *f, const char *name,
	       const struct sqlfile_param *params, size_t n, struct sqlex_out *out, char *err,
	       size_t errlen);

/* Column col of out's first row as an integer: 0, or WB_ENOENT when the
 * statement returned no row or no such column. */
int sqlex_int(const struct sqlex_out *out, const char *col, long long *v);

#endif
