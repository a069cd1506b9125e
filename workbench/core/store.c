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
 * - exercise_event (schema 6) only grows: an exercise's state (started,
 *   attempts, passed, hints, solution seen) is derived from its rows, so
 *   an import merges by adding the rows that bring the counts up to the
 *   imported ones and importing twice adds nothing (exchange.c).  An
 *   attempt's n is the check's exit code (0 pass, 1 fail, 2 could not
 *   run; only 0 and 1 count as attempts); a hint's n is its number 1..3.
 * - Folders are made only for the default location (0700), and
 *   store_open_existing makes nothing: a mistyped --db is an error.
 * - Before the first write: the schema version, then PRAGMA quick_check
 *   (a damaged file is refused and never written into; it costs about
 *   6 ms for 10,000 answers, 3.3 MB: bench/store_open.c).  A file this open
 *   created is new and skips the check.
 * - A new file is made by this module, 0600 whatever the umask (SQLite
 *   gives the -wal and -shm files the same mode); an empty file it did
 *   not make is refused, not silently a new database, and an empty file
 *   it made is removed again when the open fails.
 * - The default location never falls back to the current directory: no
 *   HOME and no home in the password database is an error.
 *
 * Opening, the WAL set-up, BEGIN IMMEDIATE and the result-code map are
 * base/sqlitex's; this file keeps only the store's own order (version
 * first) and its messages.
 */
#include "core/store.h"
#include "base/sqlitex.h"
#include "base/testhook.h"
#include "base/wb.h"

#include <errno.h>
#include <fcntl.h>
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
	/* two statements in one script: parenthesised, so clang does not take
	   the concatenation for a missing comma (-Wstring-concatenation) */
	("ALTER TABLE reading ADD COLUMN seen TEXT NOT NULL DEFAULT '';"
	 "UPDATE reading SET furthest_permille = 0;"),
	/* 5 -> 6: what a learner did with each exercise (store_ex_*): one
	   row per event, the state is derived (store_ex_get).  IF NOT
	   EXISTS: a file taken back to an older user_version by hand (as
	   tests/tui/read_share.sh does) still upgrades */
	("CREATE TABLE IF NOT EXISTS exercise_event ("
	 "  seq INTEGER PRIMARY KEY,"
	 "  exercise TEXT NOT NULL,"
	 "  kind TEXT NOT NULL"
	 "    CHECK (kind IN ('start', 'attempt', 'pass', 'hint', 'solution', 'reset')),"
	 "  n INTEGER NOT NULL DEFAULT 0,"
	 "  at INTEGER NOT NULL"
	 ");"
	 "CREATE INDEX IF NOT EXISTS exercise_event_id ON exercise_event (exercise, kind);"),
};

/* The default location without $WORKBENCH_DB: the only path whose
 * folders store_open creates.  A relative XDG_DATA_HOME is ignored, as
 * the XDG base directory spec says.  NULL when there is no home. */
static char *xdg_path(void)
{
	return wb_data_path("progress.db");
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

/* path as messages show it: whole up to 300 bytes, else its first 100
 * and last 150 bytes around "...", so the reason after it is never cut
 * off by the caller's buffer.  Returns buf or path. */
static const char *shown(const char *path, char *buf, size_t n)
{
	size_t len = strlen(path);
	if (len <= 300 || n < 256)
		return path;
	snprintf(buf, n, "%.100s...%s", path, path + len - 150);
	return buf;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Makes dir and its missing parents 0700.  Returns 0, or WB_EIO with
 * "cannot create the folder D for the progress database: REASON" in
 * errbuf, D the first folder that could not be made. */
static int make_folders(char *dir, char *errbuf, size_t errlen)
{
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		int bad = mkdir(dir, 0700) != 0 && errno != EEXIST;
		int e = errno;
		if (!bad && !is_dir(dir))
			bad = 1, e = ENOTDIR;
		if (bad) {
			char b[320];
			snprintf(errbuf, errlen,
				 "cannot create the folder %s for the progress database: %s "
				 "(check HOME and XDG_DATA_HOME, or use --db)",
				 shown(dir, b, sizeof b),
				 e == ENOTDIR ? "a file is in the way, not a folder" : strerror(e));
			*p = c;
			return WB_EIO;
		}
		*p = c;
		if (c == '\0')
			return 0;
	}
}

/* Checks the file's folder: made (with its parents) for the default
 * location, else it must exist.  Returns 0, WB_ENOENT or WB_EIO (message
 * in errbuf). */
static int check_folder(const char *path, char *errbuf, size_t errlen)
{
	char *dir = wb_xstrdup(path);
	char *slash = strrchr(dir, '/');
	int err = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		char *xdg = xdg_path();
		char b1[320], b2[320];
		if (xdg && !strcmp(path, xdg))
			err = make_folders(dir, errbuf, errlen);
		else if (!is_dir(dir)) {
			snprintf(errbuf, errlen,
				 "no folder %s for the progress database %s: folders are made only "
				 "for the default location; check --db (or $WORKBENCH_DB)",
				 shown(dir, b1, sizeof b1), shown(path, b2, sizeof b2));
			err = WB_ENOENT;
		}
		free(xdg);
	}
	free(dir);
	return err;
}

/* The longest path SQLite's default VFS opens: its mxPathname less
 * "-journal", the longest name it makes beside the file. */
static size_t sqlite_path_max(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
	int mx = vfs ? vfs->mxPathname : 512;
	return mx > 8 ? (size_t)mx - 8 : 0;
}

/* WB_ERANGE with "path too long" in errbuf when SQLite could not open
 * path (it makes a relative path absolute first), else 0. */
static int check_length(const char *path, char *errbuf, size_t errlen)
{
	size_t n = strlen(path);
	if (path[0] != '/') {
		char cwd[4096];
		n += getcwd(cwd, sizeof cwd) ? strlen(cwd) + 1 : sizeof cwd;
	}
	size_t max = sqlite_path_max();
	if (n <= max)
		return 0;
	char b[320];
	snprintf(errbuf, errlen,
		 "cannot use progress database %s: path too long (%zu characters; SQLite's "
		 "limit is %zu); choose a shorter --db path",
		 shown(path, b, sizeof b), n, max);
	return WB_ERANGE;
}

/* Where the symbolic link path points, made relative to the link's
 * folder when it is relative; NULL when path is no symbolic link whose
 * target is missing.  Caller frees. */
static char *dangling_target(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) || stat(path, &st) == 0 ||
	    errno != ENOENT)
		return NULL;
	char buf[4096];
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	const char *slash = strrchr(path, '/');
	if (buf[0] == '/' || !slash)
		return wb_xstrdup(buf);
	return wb_xasprintf("%.*s/%s", (int)(slash - path), path, buf);
}

/* Creates path, when it does not exist, as an empty file of mode 0600
 * whatever the umask (answers are private); *created says whether this
 * call made it.  A symbolic link to a missing file has that file made
 * the same way (O_EXCL alone refuses a link, and SQLite would create its
 * target with the umask's mode), link after link.  Returns 0 (also when
 * the name exists: SQLite opens what is there), or WB_EIO with "cannot
 * create ...: REASON" in errbuf. */
static int create_private(const char *path, int *created, char *errbuf, size_t errlen)
{
	*created = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int e = fd < 0 ? errno : 0;
	char *target = NULL;
	for (int hops = 0; fd < 0 && e == EEXIST && hops < 40; hops++) {
		char *next = dangling_target(target ? target : path);
		if (!next)
			break;
		free(target);
		target = next;
		fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		e = fd < 0 ? errno : 0;
	}
	free(target);
	if (fd < 0 && e != EEXIST) {
		char b[320];
		snprintf(errbuf, errlen, "cannot create the progress database %s: %s",
			 shown(path, b, sizeof b), strerror(e));
		return WB_EIO;
	}
	if (fd < 0)
		return 0;
	if (fchmod(fd, 0600) == 0)
		*created = 1;
	close(fd);
	return 0;
}

/* Size of path, or -1 when it cannot be read. */
static long long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* WB_ECORRUPT when path is an empty file this open did not create (and
 * holds no WAL that would give it content): not silently a new
 * database.  Else 0. */
static int check_not_empty(const char *path, int created, char *errbuf, size_t errlen)
{
	if (created || file_size(path) != 0)
		return 0;
	char *wal = wb_xasprintf("%s-wal", path);
	long long w = file_size(wal);
	free(wal);
	if (w > 0)
		return 0;
	char b[320];
	snprintf(errbuf, errlen,
		 "%s is an empty file, not a progress database; nothing was written: remove it "
		 "to start afresh, or choose another file with --db",
		 shown(path, b, sizeof b));
	return WB_ECORRUPT;
}

/* The message for a failure of the open's step `what` on db (err its
 * code): locked, read-only, full disk or SQLite's reason. */
static void open_failed(sqlite3 *db, int err, const char *path, const char *what, char *errbuf,
			size_t errlen)
{
	char b[320];
	const char *p = shown(path, b, sizeof b);
	if (err == WB_EBUSY)
		snprintf(errbuf, errlen,
			 "%s is locked by another program (an open sqlite3 shell, a backup or "
			 "another workbench holds it exclusively); nothing was changed: close "
			 "that program and try again",
			 p);
	else if (sqlitex_is_readonly(db))
		snprintf(errbuf, errlen,
			 "cannot use progress database %s: it is read-only (%s). Nothing "
			 "was changed: make the file and its folder writable, or choose "
			 "another file with --db.",
			 p, sqlitex_errmsg(db));
	else if (err == WB_ENOSPC)
		snprintf(errbuf, errlen,
			 "cannot use progress database %s: no space left on device (%s). Nothing "
			 "was changed: free some space and start again.",
			 p, sqlitex_errmsg(db));
	else
		snprintf(errbuf, errlen, what, p, sqlitex_errmsg(db));
}

static int read_version(sqlite3 *db, int *version)
{
	long long v = 0;
	int err = sqlitex_int(db, "PRAGMA user_version", &v);
	if (!err)
		*version = (int)v;
	return err ? sqlitex_db_err(db, sqlite3_errcode(db)) : 0;
}

/* PRAGMA quick_check: WB_ECORRUPT with its first finding in errbuf when
 * the file is damaged, else 0 or the error of the check itself.  Only
 * reads. */
static int quick_check(sqlite3 *db, const char *path, char *errbuf, size_t errlen)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(db, "PRAGMA quick_check(1)", &st);
	if (err)
		return sqlitex_db_err(db, sqlite3_errcode(db));
	int rc = sqlite3_step(st);
	const char *got = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	char b[320];
	if (rc == SQLITE_ROW && got && strcmp(got, "ok") != 0) {
		snprintf(errbuf, errlen,
			 "%s is damaged (quick_check: %s); nothing was written: restore a backup "
			 "or move it away",
			 shown(path, b, sizeof b), got);
		err = WB_ECORRUPT;
	} else if (rc != SQLITE_ROW) {
		err = sqlitex_db_err(db, rc);
		if ((rc & 0xFF) == SQLITE_CORRUPT || (rc & 0xFF) == SQLITE_NOTADB)
			snprintf(errbuf, errlen,
				 "%s is damaged (quick_check: %s); nothing was written: restore a "
				 "backup or move it away",
				 shown(path, b, sizeof b), sqlite3_errmsg(db));
		else
			open_failed(db, err, path, "%s is not a usable progress database: %s",
				    errbuf, errlen);
	}
	sqlite3_finalize(st);
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
		char what[64];
		snprintf(what, sizeof what, "cannot upgrade %%s to schema %d: %%s", v + 1);
		sqlitex_end(db, err);
		open_failed(db, err, path, what, errbuf, errlen);
	}
	return err;
}

/* The checks before SQLite sees path: a home to put it in, its length,
 * its folder, a private new file and no foreign empty file.  Returns 0 or
 * a WB_E* code with the message in errbuf; *created as create_private. */
static int before_connect(const char *path, int existing, int *created, char *errbuf, size_t errlen)
{
	*created = 0;
	if (!path) {
		snprintf(errbuf, errlen,
			 "no place for the progress database: HOME is not set and the password "
			 "database names no home folder for this user; set HOME (or "
			 "XDG_DATA_HOME), or use --db");
		return WB_ENOENT;
	}
	int err = check_length(path, errbuf, errlen);
	if (!err && existing && access(path, F_OK) != 0) {
		snprintf(errbuf, errlen, "no progress database at %s", path);
		err = WB_ENOENT;
	}
	if (!err && !existing)
		err = check_folder(path, errbuf, errlen);
	if (!err && !existing)
		err = create_private(path, created, errbuf, errlen);
	if (!err)
		err = check_not_empty(path, *created, errbuf, errlen);
	return err;
}

/* The checks before the first write: the schema version (a newer file is
 * refused untouched) and quick_check.  Returns 0 with *version, or a
 * WB_E* code with the message in errbuf. */
static int before_write(sqlite3 *db, const char *path, int created, int *version, char *errbuf,
			size_t errlen)
{
	int err = read_version(db, version);
	if (err) {
		open_failed(db, err, path, "%s is not a usable progress database: %s", errbuf,
			    errlen);
		return err;
	}
	if (*version > STORE_SCHEMA_VERSION) {
		char b[320];
		snprintf(errbuf, errlen,
			 "%s was written by a newer workbench (schema %d; this build knows %d). "
			 "It was left untouched: upgrade workbench or use --db with another file.",
			 shown(path, b, sizeof b), *version, STORE_SCHEMA_VERSION);
		return WB_ENEWER;
	}
	return created ? 0 : quick_check(db, path, errbuf, errlen);
}

/* The test seam WORKBENCH_TEST_DB_SPARE_PAGES=N: once opened (and
 * migrated), the database may grow by N pages on this connection (PRAGMA
 * max_page_count), after which a write fails with SQLITE_FULL as on a
 * full disk. */
static void spare_pages_hook(sqlite3 *db)
{
	const char *n = testhook_db_spare_pages();
	long long pages = 0;
	if (!n || sqlitex_int(db, "PRAGMA page_count", &pages) != 0)
		return;
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA max_page_count=%lld", pages + atoll(n));
	sqlitex_exec(db, sql);
}

/* store_open, store_open_existing and store_open_busy: existing says
 * never create, busy_ms is the busy timeout. */
static int open_store(const char *path, int existing, int busy_ms, struct store **out, char *errbuf,
		      size_t errlen)
{
	*out = NULL;
	sqlite3 *db = NULL;
	int created = 0, version = 0;
	int err = before_connect(path, existing, &created, errbuf, errlen);
	if (err)
		goto out;

	/* The default synchronous level of SQLite (FULL), as before the
	 * store used sqlitex: a graded answer survives a power cut. */
	const struct sqlitex_opts opts = {
		.busy_timeout_ms = busy_ms, .synchronous = 2, .no_create = existing};
	char why[1024];
	err = sqlitex_connect(path, &opts, &db, why, sizeof why);
	if (err) {
		snprintf(errbuf, errlen, "cannot open progress database %s", why);
		goto out;
	}
	err = before_write(db, path, created, &version, errbuf, errlen);
	if (err)
		goto out;
	err = sqlitex_setup(db, &opts);
	if (err) {
		open_failed(db, err, path, "cannot prepare %s: %s", errbuf, errlen);
		goto out;
	}
	for (int v = version; v < STORE_SCHEMA_VERSION && !err; v++)
		err = migrate(db, path, v, errbuf, errlen);
	if (err)
		goto out;
	spare_pages_hook(db);
	struct store *s = wb_xcalloc(1, sizeof *s);
	s->db = db;
	s->found_version = version;
	*out = s;
	db = NULL;
out:
	if (db)
		sqlite3_close(db);
	if (err && created && file_size(path) == 0)
		unlink(path); /* ours and still empty: as if never made */
	return err;
}

int store_open(const char *path, struct store **out, char *errbuf, size_t errlen)
{
	return open_store(path, 0, STORE_BUSY_MS, out, errbuf, errlen);
}

int store_open_busy(const char *path, int busy_ms, struct store **out, char *errbuf, size_t errlen)
{
	return open_store(path, 0, busy_ms > 0 ? busy_ms : 1, out, errbuf, errlen);
}

int store_open_existing(const char *path, struct store **out, char *errbuf, size_t errlen)
{
	return open_store(path, 1, STORE_BUSY_MS, out, errbuf, errlen);
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
	return sqlitex_errmsg(s->db);
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

/* ---- exercises (schema 6) ---- */

static const char *const ex_kinds[] = {
	[STORE_EX_START] = "start", [STORE_EX_ATTEMPT] = "attempt",   [STORE_EX_PASS] = "pass",
	[STORE_EX_HINT] = "hint",   [STORE_EX_SOLUTION] = "solution", [STORE_EX_RESET] = "reset",
};

const char *store_ex_kind_name(enum store_ex_kind kind)
{
	return (unsigned)kind < WB_ARRAY_LEN(ex_kinds) ? ex_kinds[kind] : "?";
}

/* One INSERT inside the caller's transaction. */
static int ex_insert(sqlite3 *db, const char *id, enum store_ex_kind kind, int n, int64_t at)
{
	sqlite3_stmt *st;
	int err = sqlitex_prepare(
		db, "INSERT INTO exercise_event (exercise, kind, n, at) VALUES (?1, ?2, ?3, ?4)",
		&st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ex_kinds[kind], -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, n);
	sqlite3_bind_int64(st, 4, at > 0 ? at : (sqlite3_int64)time(NULL));
	err = sqlitex_err(sqlite3_step(st));
	sqlite3_finalize(st);
	return err;
}

int store_ex_add(struct store *s, const char *id, enum store_ex_kind kind, int n, int64_t at)
{
	if (!id || !*id || (unsigned)kind >= WB_ARRAY_LEN(ex_kinds))
		return WB_EINVAL;
	int err = sqlitex_begin_immediate(s->db);
	if (err)
		return err;
	return sqlitex_end(s->db, ex_insert(s->db, id, kind, n, at));
}

int store_ex_record_check(struct store *s, const char *id, int verdict)
{
	if (!id || !*id)
		return WB_EINVAL;
	int err = sqlitex_begin_immediate(s->db);
	if (err)
		return err;
	err = ex_insert(s->db, id, STORE_EX_ATTEMPT, verdict, 0);
	if (!err && verdict == 0)
		err = ex_insert(s->db, id, STORE_EX_PASS, 0, 0);
	return sqlitex_end(s->db, err);
}

/* The state of every exercise (id NULL) or of one, grouped by id. */
#define EX_STATE_SQL                                                                               \
	"SELECT exercise,"                                                                         \
	" COALESCE(MIN(CASE WHEN kind = 'start' THEN at END), 0),"                                 \
	" SUM(kind = 'attempt' AND n IN (0, 1)),"                                                  \
	" MAX(kind = 'pass'),"                                                                     \
	" COALESCE((SELECT e2.n FROM exercise_event e2 WHERE e2.exercise = e.exercise"             \
	"   AND e2.kind = 'attempt' AND e2.n IN (0, 1) ORDER BY e2.seq DESC LIMIT 1), -1),"        \
	" COALESCE(MAX(CASE WHEN kind = 'hint' THEN MIN(MAX(n, 0), 3) END), 0),"                   \
	" MAX(kind = 'solution')"                                                                  \
	" FROM exercise_event e WHERE ?1 IS NULL OR exercise = ?1 GROUP BY exercise ORDER BY "     \
	"exercise"

static void ex_row(sqlite3_stmt *st, struct store_ex_state *x)
{
	memset(x, 0, sizeof *x);
	const unsigned char *id = sqlite3_column_text(st, 0);
	snprintf(x->id, sizeof x->id, "%s", id ? (const char *)id : "");
	x->started = sqlite3_column_int64(st, 1);
	x->attempts = sqlite3_column_int(st, 2);
	x->passed = sqlite3_column_int(st, 3);
	x->last_verdict = sqlite3_column_int(st, 4);
	x->hints = sqlite3_column_int(st, 5);
	x->solution_seen = sqlite3_column_int(st, 6);
}

int store_ex_get(struct store *s, const char *id, struct store_ex_state *x)
{
	memset(x, 0, sizeof *x);
	x->last_verdict = -1;
	snprintf(x->id, sizeof x->id, "%s", id);
	sqlite3_stmt *st;
	int err = sqlitex_prepare(s->db, EX_STATE_SQL, &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		ex_row(st, x);
	else if (rc != SQLITE_DONE)
		err = sqlitex_err(rc);
	sqlite3_finalize(st);
	return err;
}

int store_ex_all(struct store *s, struct store_ex_state **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int err = sqlitex_prepare(s->db, EX_STATE_SQL, &st);
	if (err)
		return err;
	int rc;
	size_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*out = wb_xrealloc(*out, cap * sizeof **out);
		}
		ex_row(st, &(*out)[(*n)++]);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*out);
		*out = NULL;
		*n = 0;
		return sqlitex_err(rc);
	}
	return 0;
}

int store_ex_merge(struct store *s, const struct store_ex_state *x, int *added)
{
	struct store_ex_state have;
	*added = 0;
	int err = store_ex_get(s, x->id, &have);
	int64_t at = x->started > 0 ? x->started : 0;
	if (!err && x->started && !have.started &&
	    !(err = ex_insert(s->db, x->id, STORE_EX_START, 0, at)))
		(*added)++;
	for (int i = have.attempts; !err && i < x->attempts; i++)
		if (!(err = ex_insert(s->db, x->id, STORE_EX_ATTEMPT,
				      x->passed && i + 1 == x->attempts ? 0 : 1, at)))
			(*added)++;
	if (!err && x->passed && !have.passed &&
	    !(err = ex_insert(s->db, x->id, STORE_EX_PASS, 0, at)))
		(*added)++;
	for (int h = have.hints + 1; !err && h <= x->hints && h <= 3; h++)
		if (!(err = ex_insert(s->db, x->id, STORE_EX_HINT, h, at)))
			(*added)++;
	if (!err && x->solution_seen && !have.solution_seen &&
	    !(err = ex_insert(s->db, x->id, STORE_EX_SOLUTION, 0, at)))
		(*added)++;
	return err;
}
