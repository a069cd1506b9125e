/*
 * store.c - progress database (see store.h).
 *
 * Invariants
 * - user_version is read before any write: a newer file is closed and
 *   reported without being touched, not even switched to WAL.
 * - Each migration runs in its own BEGIN IMMEDIATE transaction together
 *   with the user_version bump, so a crash leaves the file at a version it
 *   really has.
 * - reading.furthest_permille never decreases (MAX() in the upsert).  Since
 *   schema 5 it is the share of the chapter's lines the learner has had on
 *   screen (the reader computes it from reading.seen, the ranges of layout
 *   anchors viewed), no longer the furthest scroll point: migration 4 -> 5
 *   resets the old value, which one G could make 100%.
 * - Folders are made only for the default location, and
 *   store_open_existing makes nothing: a mistyped --db is an error.
 *
 * Opening, the WAL set-up, BEGIN IMMEDIATE and the result-code map are
 * base/sqlitex's; this file keeps only the store's own order (version
 * first) and its messages.
 */
#include "core/store.h"
#include "base/sqlitex.h"
#include "base/wb.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct store {
	sqlite3 *db;	   /* open connection */
	int found_version; /* user_version when opened */
};

static const char *migrations[] = {
	/* 0 -> 1: reading positions */
	"CREATE TABLE reading ("
	"  chapter TEXT NOT NULL,"
	"  lang TEXT NOT NULL,"
	"  block INTEGER NOT NULL,"
	"  offset INTEGER NOT NULL,"
	"  furthest_permille INTEGER NOT NULL DEFAULT 0,"
	"  updated_at INTEGER NOT NULL,"
	"  PRIMARY KEY (chapter, lang)"
	");",
	/* 1 -> 2: lab runs, one row per finished run */
	"CREATE TABLE lab_runs ("
	"  id INTEGER PRIMARY KEY,"
	"  lab TEXT NOT NULL,"
	"  passed INTEGER NOT NULL,"
	"  verdict INTEGER NOT NULL,"
	"  ms INTEGER NOT NULL,"
	"  evidence TEXT NOT NULL DEFAULT '[]',"
	"  finished_at INTEGER NOT NULL"
	");"
	"CREATE INDEX lab_runs_lab ON lab_runs (lab, passed);",
	/* 2 -> 3: self-tests, graded answers and review schedules (answers.c) */
	"CREATE TABLE quiz_test ("
	"  uid TEXT PRIMARY KEY,"
	"  kind TEXT NOT NULL CHECK (kind IN ('chapter', 'review')),"
	"  chapter TEXT,"
	"  lang TEXT NOT NULL,"
	"  closed_book INTEGER NOT NULL DEFAULT 1,"
	"  state TEXT NOT NULL DEFAULT 'running'"
	"    CHECK (state IN ('running', 'finished', 'abandoned')),"
	"  started_at INTEGER NOT NULL,"
	"  finished_at INTEGER"
	");"
	"CREATE UNIQUE INDEX quiz_test_one_running ON quiz_test (state) WHERE state = 'running';"
	"CREATE TABLE quiz_test_item ("
	"  test_uid TEXT NOT NULL REFERENCES quiz_test (uid) ON DELETE CASCADE,"
	"  pos INTEGER NOT NULL,"
	"  question TEXT NOT NULL,"
	"  chapter TEXT NOT NULL,"
	"  PRIMARY KEY (test_uid, pos)"
	");"
	"CREATE TABLE quiz_answer ("
	"  uid TEXT PRIMARY KEY,"
	"  learner TEXT NOT NULL DEFAULT '',"
	"  test_uid TEXT,"
	"  question TEXT NOT NULL,"
	"  chapter TEXT NOT NULL,"
	"  lang TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  shown_at INTEGER NOT NULL,"
	"  revealed_at INTEGER,"
	"  graded_at INTEGER NOT NULL,"
	"  answer TEXT,"
	"  ticked TEXT,"
	"  points INTEGER NOT NULL CHECK (points >= 0),"
	"  max_points INTEGER NOT NULL CHECK (max_points >= points),"
	"  grade INTEGER NOT NULL CHECK (grade BETWEEN 1 AND 3),"
	"  closed_book INTEGER NOT NULL"
	");"
	"CREATE INDEX quiz_answer_question ON quiz_answer (question, graded_at);"
	"CREATE INDEX quiz_answer_test ON quiz_answer (test_uid, graded_at);"
	"CREATE TABLE quiz_schedule ("
	"  question TEXT PRIMARY KEY,"
	"  stability REAL NOT NULL,"
	"  difficulty REAL NOT NULL,"
	"  reps INTEGER NOT NULL,"
	"  lapses INTEGER NOT NULL,"
	"  last_review INTEGER NOT NULL,"
	"  due INTEGER NOT NULL,"
	"  last_grade INTEGER NOT NULL"
	");"
	"CREATE INDEX quiz_schedule_due ON quiz_schedule (due);",
	/* 3 -> 4: the unfinished answer of a paused test (session.c drafts);
	   never graded, never exported */
	"CREATE TABLE quiz_draft ("
	"  test_uid TEXT NOT NULL REFERENCES quiz_test (uid) ON DELETE CASCADE,"
	"  question TEXT NOT NULL,"
	"  text TEXT NOT NULL,"
	"  saved_at INTEGER NOT NULL,"
	"  PRIMARY KEY (test_uid, question)"
	");",
	/* 4 -> 5: the share read is the lines viewed (reading.seen, written by
	   the reader), not the furthest point: the old number is dropped */
	"ALTER TABLE reading ADD COLUMN seen TEXT NOT NULL DEFAULT '';"
	"UPDATE reading SET furthest_permille = 0;",
};

/* The default location without $WORKBENCH_DB: the only path whose
 * folders store_open creates. */
static char *xdg_path(void)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg)
		return wb_xasprintf("%s/workbench/progress.db", xdg);
	const char *home = getenv("HOME");
	return wb_xasprintf("%s/.local/share/workbench/progress.db", home && *home ? home : ".");
}

char *store_default_path(const char *explicit_path)
{
	if (explicit_path && *explicit_path)
		return wb_xstrdup(explicit_path);
	const char *env = getenv("WORKBENCH_DB");
	if (env && *env)
		return wb_xstrdup(env);
	return xdg_path();
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Checks the file's folder: made (with its parents) for the default
 * location, else it must exist.  Returns 0 or WB_ENOENT (message in
 * errbuf). */
static int check_folder(const char *path, char *errbuf, size_t errlen)
{
	char *dir = wb_xstrdup(path);
	char *slash = strrchr(dir, '/');
	int err = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		char *xdg = xdg_path();
		if (!strcmp(path, xdg))
			wb_mkdir_p(dir, 0700);
		else if (!is_dir(dir)) {
			snprintf(errbuf, errlen,
				 "no folder %s for the progress database %s: folders are made only "
				 "for the default location; check --db (or $WORKBENCH_DB)",
				 dir, path);
			err = WB_ENOENT;
		}
		free(xdg);
	}
	free(dir);
	return err;
}

static int read_version(sqlite3 *db, int *version)
{
	long long v = 0;
	int err = sqlitex_int(db, "PRAGMA user_version", &v);
	if (!err)
		*version = (int)v;
	return err;
}

/* Runs migration v -> v + 1 with its user_version bump in one
 * transaction; on failure the message is in errbuf and nothing of it
 * stays. */
static int migrate(sqlite3 *db, const char *path, int v, char *errbuf, size_t errlen)
{
	char bump[64];
	snprintf(bump, sizeof bump, "PRAGMA user_version=%d", v + 1);
	int err = sqlitex_begin_immediate(db);
	if (!err)
		err = sqlitex_exec(db, migrations[v]);
	if (!err)
		err = sqlitex_exec(db, bump);
	if (!err)
		err = sqlitex_exec(db, "COMMIT");
	if (err) {
		/* The message first: the ROLLBACK resets SQLite's. */
		snprintf(errbuf, errlen, "cannot upgrade %s to schema %d: %s", path, v + 1,
			 sqlite3_errmsg(db));
		sqlitex_end(db, err);
	}
	return err;
}

/* store_open and store_open_existing: existing says never create. */
static int open_store(const char *path, int existing, struct store **out, char *errbuf,
		      size_t errlen)
{
	*out = NULL;
	sqlite3 *db = NULL;
	int err = existing ? 0 : check_folder(path, errbuf, errlen);
	if (err)
		goto out;

	/* The default synchronous level of SQLite (FULL), as before the
	 * store used sqlitex: a graded answer survives a power cut. */
	const struct sqlitex_opts opts = {
		.busy_timeout_ms = 5000, .synchronous = 2, .no_create = existing};
	char why[512];
	err = sqlitex_connect(path, &opts, &db, why, sizeof why);
	if (err && existing && access(path, F_OK) != 0) {
		snprintf(errbuf, errlen, "no progress database at %s", path);
		goto out;
	}
	if (err) {
		snprintf(errbuf, errlen, "cannot open progress database %s", why);
		goto out;
	}

	int version = 0;
	err = read_version(db, &version);
	if (err) {
		snprintf(errbuf, errlen, "%s is not a usable progress database: %s", path,
			 sqlite3_errmsg(db));
		goto out;
	}
	if (version > STORE_SCHEMA_VERSION) {
		snprintf(errbuf, errlen,
			 "%s was written by a newer workbench (schema %d; this build knows %d). "
			 "It was left untouched: upgrade workbench or use --db with another file.",
			 path, version, STORE_SCHEMA_VERSION);
		err = WB_ENEWER;
		goto out;
	}
	err = sqlitex_setup(db, &opts);
	if (err) {
		if (sqlitex_is_readonly(db))
			snprintf(errbuf, errlen,
				 "cannot use progress database %s: it is read-only (%s). Nothing "
				 "was changed: make the file and its folder writable, or choose "
				 "another file with --db.",
				 path, sqlite3_errmsg(db));
		else
			snprintf(errbuf, errlen, "cannot prepare %s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	for (int v = version; v < STORE_SCHEMA_VERSION && !err; v++)
		err = migrate(db, path, v, errbuf, errlen);
	if (err)
		goto out;
	struct store *s = wb_xcalloc(1, sizeof *s);
	s->db = db;
	s->found_version = version;
	*out = s;
	db = NULL;
out:
	if (db)
		sqlite3_close(db);
	return err;
}

int store_open(const char *path, struct store **out, char *errbuf, size_t errlen)
{
	return open_store(path, 0, out, errbuf, errlen);
}

int store_open_existing(const char *path, struct store **out, char *errbuf, size_t errlen)
{
	return open_store(path, 1, out, errbuf, errlen);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

int store_found_version(const struct store *s)
{
	return s->found_version;
}

const char *store_errmsg(const struct store *s)
{
	return sqlite3_errmsg(s->db);
}

sqlite3 *store_db(struct store *s)
{
	return s->db;
}

int store_get_position(struct store *s, const char *chapter, const char *lang,
		       struct store_position *pos)
{
	memset(pos, 0, sizeof *pos);
	sqlite3_stmt *st;
	int err = sqlitex_prepare(s->db,
				  "SELECT block, offset, furthest_permille FROM reading "
				  "WHERE chapter = ?1 AND lang = ?2",
				  &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, chapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, lang, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		pos->block = sqlite3_column_int(st, 0);
		pos->offset = sqlite3_column_int(st, 1);
		pos->furthest_permille = sqlite3_column_int(st, 2);
	} else {
		err = rc == SQLITE_DONE ? WB_ENOENT : sqlitex_err(rc);
	}
	sqlite3_finalize(st);
	return err;
}

int store_get_seen(struct store *s, const char *chapter, const char *lang, char **seen)
{
	*seen = NULL;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(s->db,
				  "SELECT seen FROM reading WHERE chapter = ?1 AND lang = ?2", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, chapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, lang, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*seen = sqlitex_column_dup(st, 0);
	else
		err = rc == SQLITE_DONE ? WB_ENOENT : sqlitex_err(rc);
	sqlite3_finalize(st);
	return err;
}

int store_set_position(struct store *s, const char *chapter, const char *lang,
		       const struct store_position *pos)
{
	return store_set_reading(s, chapter, lang, pos, NULL);
}

int store_set_reading(struct store *s, const char *chapter, const char *lang,
		      const struct store_position *pos, const char *seen)
{
	int err = sqlitex_begin_immediate(s->db);
	if (err)
		return err;
	sqlite3_stmt *st;
	err = sqlitex_prepare(
		s->db,
		"INSERT INTO reading (chapter, lang, block, offset, furthest_permille, updated_at, "
		"seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, COALESCE(?7, '')) "
		"ON CONFLICT (chapter, lang) DO UPDATE SET block = excluded.block, "
		"offset = excluded.offset, "
		"furthest_permille = MAX(furthest_permille, excluded.furthest_permille), "
		"updated_at = excluded.updated_at, seen = COALESCE(?7, seen)",
		&st);
	if (err)
		return sqlitex_end(s->db, err);
	int permille = pos->furthest_permille < 0      ? 0
		       : pos->furthest_permille > 1000 ? 1000
						       : pos->furthest_permille;
	sqlite3_bind_text(st, 1, chapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, lang, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, pos->block);
	sqlite3_bind_int(st, 4, pos->offset);
	sqlite3_bind_int(st, 5, permille);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)time(NULL));
	if (seen)
		sqlite3_bind_text(st, 7, seen, -1, SQLITE_STATIC);
	err = sqlitex_err(sqlite3_step(st));
	sqlite3_finalize(st);
	return sqlitex_end(s->db, err);
}

int store_add_lab_run(struct store *s, const char *lab, int verdict, long ms,
		      const char *evidence_json)
{
	int err = sqlitex_begin_immediate(s->db);
	if (err)
		return err;
	sqlite3_stmt *st;
	err = sqlitex_prepare(s->db,
			      "INSERT INTO lab_runs (lab, passed, verdict, ms, evidence, "
			      "finished_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
			      &st);
	if (err)
		return sqlitex_end(s->db, err);
	sqlite3_bind_text(st, 1, lab, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, verdict == 0);
	sqlite3_bind_int(st, 3, verdict);
	sqlite3_bind_int64(st, 4, ms);
	sqlite3_bind_text(st, 5, evidence_json ? evidence_json : "[]", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)time(NULL));
	err = sqlitex_err(sqlite3_step(st));
	sqlite3_finalize(st);
	return sqlitex_end(s->db, err);
}

int store_lab_passed(struct store *s, const char *lab)
{
	sqlite3_stmt *st;
	if (sqlitex_prepare(s->db, "SELECT 1 FROM lab_runs WHERE lab = ?1 AND passed = 1 LIMIT 1",
			    &st) != 0)
		return 0;
	sqlite3_bind_text(st, 1, lab, -1, SQLITE_STATIC);
	int yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}
