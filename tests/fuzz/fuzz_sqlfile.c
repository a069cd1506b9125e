/*
 * fuzz_sqlfile.c - libFuzzer target for the named-statement file parser
 * of the SQL exercises (labs/harness/sqlfile.h).
 *
 * The input is a whole .sql file.  A parse that succeeds must give
 * statements with valid, distinct names in increasing line order, each
 * with non-empty text; every statement is then prepared on an in-memory
 * SQLite and bound from a fixed table, so the message paths (error
 * offsets, a second statement, unknown parameters) run too.  Aborts when
 * an invariant fails; refusals are normal.
 */
#include "harness/sqlfile.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3 *db;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!db && (sqlite3_open(":memory:", &db) != SQLITE_OK ||
		    sqlite3_exec(db, "CREATE TABLE task (task_id TEXT, owner TEXT, v INTEGER)",
				 NULL, NULL, NULL) != SQLITE_OK))
		abort();
	struct sqlfile *f = NULL;
	char err[SQLFILE_ERROR_MAX];
	int rc = sqlfile_parse("fuzz.sql", (const char *)data, size, &f, err, sizeof err);
	if (rc) {
		if (f || !err[0])
			abort();
		return 0;
	}
	static const struct sqlfile_param params[] = {
		{":task_id", SQLFILE_TEXT, 0, "T1", 0},
		{":v", SQLFILE_INT, 7, NULL, 0},
		{":n", SQLFILE_NULL, 0, NULL, 0},
	};
	for (size_t i = 0; i < f->n; i++) {
		const struct sqlfile_stmt *s = &f->st[i];
		size_t len = strlen(s->name);
		if (!len || len >= SQLFILE_NAME_MAX || !s->sql || !s->sql[0])
			abort();
		if (sqlfile_find(f, s->name) != s || (i && s->line <= f->st[i - 1].line))
			abort();
		sqlite3_stmt *st = NULL;
		if (sqlfile_prepare(db, f, s->name, &st, err, sizeof err) == 0) {
			if (!st)
				abort();
			/* Bind only: stepping fuzzed SQL could run for ever. */
			(void)sqlfile_bind(st, s->name, params, 3, err, sizeof err);
			sqlite3_finalize(st);
		} else if (st) {
			abort();
		}
	}
	sqlfile_free(f);
	return 0;
}
