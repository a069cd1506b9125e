/*
 * store.h - the learner's progress database (SQLite).
 *
 * One file per learner, WAL mode, busy_timeout, BEGIN IMMEDIATE for every
 * write, schema versions in PRAGMA user_version with forward migrations.
 * A database written by a newer workbench is refused before anything is
 * written to it.  This module holds no UI and no lesson logic.
 */
#ifndef WB_STORE_H
#define WB_STORE_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* The schema version this build writes. */
#define STORE_SCHEMA_VERSION 6

/* How long an open waits for a lock another process holds (ms). */
#define STORE_BUSY_MS 5000

/* A buffer for store_open's messages: enough for every message with its
 * reason (paths over 300 bytes are shown shortened). */
#define STORE_ERRLEN 1024

/* Default path: $WORKBENCH_DB, else $XDG_DATA_HOME/workbench/progress.db
 * (an absolute XDG_DATA_HOME only: a relative one is ignored, as the XDG
 * spec says), else ~/.local/share/workbench/progress.db with ~ from HOME
 * or, when HOME is unset or empty, from the password database.
 * explicit (--db) wins.  Caller frees.  NULL when there is no home at
 * all: store_open(NULL, ...) then says so (never the current
 * directory). */
char *store_default_path(const char *explicit_path);

/* Opens (creating the file, 0600, if needed) and migrates.  Missing
 * parent folders are made (0700) only for the default location
 * ($XDG_DATA_HOME/workbench or ~/.local/share/workbench, not --db or
 * $WORKBENCH_DB): for any other path a missing folder is WB_ENOENT ("no
 * folder DIR for the progress database PATH ...") and nothing is
 * created, so a mistyped --db is an error, not a new empty database.
 * Before anything is written the schema version is read and PRAGMA
 * quick_check run.  Returns 0;
 *   WB_ENEWER for a newer schema (file untouched);
 *   WB_ECORRUPT for a file that is not a database, fails quick_check
 *     ("PATH is damaged (quick_check: ...)") or is an empty file this
 *     call did not create; nothing is written to it;
 *   WB_ENOENT when path is NULL (no home), the folder is missing or the
 *     file cannot be opened (SQLITE_CANTOPEN);
 *   WB_ERANGE for a path longer than SQLite opens ("path too long (N
 *     characters; SQLite's limit is M)");
 *   WB_EBUSY when another program holds the file past the busy timeout
 *     ("PATH is locked by another program ...");
 *   WB_ENOSPC when the disk is full; WB_EIO when a folder or the file
 *     cannot be made or written (a read-only file or folder: the message
 *     says so and nothing was changed).
 * On failure *out is NULL and a message (at most STORE_ERRLEN bytes
 * with the reason) is in errbuf.  Close with store_close (accepts
 * NULL). */
int store_open(const char *path, struct store **out, char *errbuf, size_t errlen);

/* store_open with a busy timeout of busy_ms (at least 1 ms) instead of
 * STORE_BUSY_MS: the TUI's start-up retries a locked file with it while
 * it counts down on screen.  Returns as store_open. */
int store_open_busy(const char *path, int busy_ms, struct store **out, char *errbuf, size_t errlen);
void store_close(struct store *s);

/* store_open for read-only commands (`quiz stats`, `progress export`):
 * never creates a file or folder.  A missing file is WB_ENOENT with "no
 * progress database at PATH" in errbuf; otherwise as store_open (an old
 * schema is still migrated). */
int store_open_existing(const char *path, struct store **out, char *errbuf, size_t errlen);

/* The schema version found in the file when it was opened. */
int store_found_version(const struct store *s);

struct store_position {
	int block;	       /* layout anchor: source block */
	int offset;	       /* layout anchor: offset in the block */
	int furthest_permille; /* share read: the lines had on screen, 0..1000 */
};

/* Reads the saved place for (chapter, lang).  Returns 0, or WB_ENOENT when
 * there is none (pos zeroed), or WB_EIO. */
int store_get_position(struct store *s, const char *chapter, const char *lang,
		       struct store_position *pos);

/* Saves the place; the share read only ever grows; the ranges seen are
 * kept.  0, WB_EBUSY or WB_EIO. */
int store_set_position(struct store *s, const char *chapter, const char *lang,
		       const struct store_position *pos);

/* As store_set_position, and with seen not NULL also stores the ranges
 * of the chapter the reader has shown (its own text format, opaque
 * here).  0, WB_EBUSY or WB_EIO. */
int store_set_reading(struct store *s, const char *chapter, const char *lang,
		      const struct store_position *pos, const char *seen);

/* The ranges seen stored for (chapter, lang): *seen malloc'd (the caller
 * frees it).  Returns 0, WB_ENOENT (*seen NULL) when none, or WB_EIO. */
int store_get_seen(struct store *s, const char *chapter, const char *lang, char **seen);

/* Records a finished lab run: verdict is the `lab run` exit code (0 pass,
 * 1 fail, 2 could not run), evidence a JSON array (copied).  0 or WB_E*. */
int store_add_lab_run(struct store *s, const char *lab, int verdict, long ms,
		      const char *evidence_json);

/* 1 when lab has at least one passing run, else 0. */
int store_lab_passed(struct store *s, const char *lab);

/* What a learner did with an exercise (schema 6, table exercise_event). */
enum store_ex_kind {
	STORE_EX_START,	   /* the workspace file was made (n 0) */
	STORE_EX_ATTEMPT,  /* a check ran (n: its exit code, 0 pass, 1 fail, 2 could not run) */
	STORE_EX_PASS,	   /* a check passed (n 0) */
	STORE_EX_HINT,	   /* hint n (1..3) was revealed */
	STORE_EX_SOLUTION, /* the reference solution was shown (n 0) */
	STORE_EX_RESET,	   /* the file was reset to the starter (n 0) */
};

/* An exercise's state, derived from its events. */
struct store_ex_state {
	char id[64];	   /* the exercise id (longer ids are cut) */
	int64_t started;   /* first start, Unix seconds; 0 never started */
	int attempts;	   /* checks that ran to a verdict (exit code 0 or 1) */
	int passed;	   /* 1 when a check ever passed */
	int last_verdict;  /* exit code of the last attempt, -1 when none */
	int hints;	   /* hints revealed: the highest hint number, 0..3 */
	int solution_seen; /* 1 when the solution was shown */
};

/* Records one event at time at (Unix seconds; 0 for now) in its own
 * transaction.  Returns 0, WB_EINVAL (bad kind or an empty id), WB_EBUSY
 * or WB_EIO. */
int store_ex_add(struct store *s, const char *id, enum store_ex_kind kind, int n, int64_t at);

/* Records a finished check of exercise id: an attempt with the exit code
 * verdict and, when it is 0, a pass, in one transaction.  This is what
 * `exercise check` calls.  Returns as store_ex_add. */
int store_ex_record_check(struct store *s, const char *id, int verdict);

/* The state of exercise id into *st (zeroed, last_verdict -1, when it
 * has no events).  Returns 0 or WB_EIO. */
int store_ex_get(struct store *s, const char *id, struct store_ex_state *st);

/* The state of every exercise with events, by id, into *out (*n of them;
 * the caller frees *out).  Returns 0 or WB_EIO (*out NULL). */
int store_ex_all(struct store *s, struct store_ex_state **out, size_t *n);

/* Merges an imported state into exercise x->id's events inside the
 * caller's open transaction (exchange.c's import): adds the starts,
 * attempts, pass, hints and solution rows that bring the local state up
 * to x (a start at x->started; hints as the missing numbers), so merging
 * the same state twice adds nothing.  *added receives the rows added.
 * Returns 0 or WB_EIO. */
int store_ex_merge(struct store *s, const struct store_ex_state *x, int *added);

/* The kind's name as stored ("start", "attempt", ...). */
const char *store_ex_kind_name(enum store_ex_kind kind);

/* Why the last failed call on the store failed, for reports: SQLite's
 * message of the failing statement, also after its transaction was
 * rolled back (sqlitex_errmsg).  Never NULL. */
const char *store_errmsg(const struct store *s);

/* The underlying handle, for modules that add their own tables. */
struct sqlite3 *store_db(struct store *s);

#endif
