/*
 * exercise_ws.h - the learner's side of the exercises (docs/exercises.md):
 * the catalogue as the model sees it, the workspace folder
 * ($XDG_DATA_HOME/workbench/exercises/ID/, 0700) with the learner's file
 * and a copy of the task (TASK.md),
 * and the shipped texts (task, hints, solution) read from the content
 * root's exercises/ID/ folder.
 *
 * core does not own the catalogue: the application hands it the table at
 * start-up with excat_init (built from labs/exercises.def), as labcat
 * does, so core never includes labs/.  Nothing here runs a check (that is
 * `workbench exercise check`, cli/exercise_check.c), records progress
 * (core/store.h) or prints: callers word every message.
 */
#ifndef WB_EXERCISE_WS_H
#define WB_EXERCISE_WS_H

#include <stddef.h>

struct excat_entry {
	const char *id;	     /* e.g. "zk-lock-step"; fixed */
	const char *chapter; /* two-digit chapter number, "01" */
	const char *lab;     /* the lab whose scenario judges it */
	const char *lang;    /* "c", "sql" or "lua": also the starter's extension */
	const char *file;    /* the workspace file name, e.g. "lockstep.c" */
	const char *title_en;
	const char *title_zh;
};

/* Installs the catalogue: table (n entries) is borrowed and must outlive
 * every other excat_ call.  Until it is called the catalogue is empty.
 * Calling it again replaces the table. */
void excat_init(const struct excat_entry *table, size_t n);

/* The entry for id, or NULL for an unknown id. */
const struct excat_entry *excat_find(const char *id);

/* The whole catalogue; *n receives its length. */
const struct excat_entry *excat_all(size_t *n);

/* The title in lang ("zh", anything else English). */
const char *excat_title(const struct excat_entry *e, const char *lang);

/* The workspace folder of exercise id: $XDG_DATA_HOME/workbench/
 * exercises/ID (an absolute XDG_DATA_HOME only), else
 * ~/.local/share/workbench/exercises/ID.  Caller frees; NULL when there
 * is no home. */
char *exws_dir(const char *id);

/* The learner's file in the workspace (exws_dir + "/" + e->file).
 * Caller frees; NULL when there is no home. */
char *exws_file(const struct excat_entry *e);

/* The shipped folder <root>/exercises/<id>, and a file in it.  Caller
 * frees.  Never NULL. */
char *exws_shipped(const char *root, const char *id);
char *exws_shipped_file(const char *root, const char *id, const char *name);

/* 1 when the learner's file exists in the workspace, else 0. */
int exws_started(const struct excat_entry *e);

/* Starts exercise e: makes the workspace folder (0700, with any missing
 * parents 0700), copies <root>/exercises/ID/starter.<lang> to the
 * learner's file and, for C, api.h beside it.  A learner's file that
 * exists is never touched (*created 0); api.h is refreshed from the
 * shipped one.  *path receives the learner's file (caller frees).
 * Returns 0; WB_ENOENT when the shipped starter is missing or there is no
 * home; WB_EIO when the workspace cannot be made or written.  On failure
 * err says why (with the path) and *path is NULL.
 * It also writes TASK.md beside the file, a copy of the task text
 * (review ux-r3 B1) that every start and reset writes again, in the
 * language of the copy already there (English for a first one). */
int exws_start(const char *root, const struct excat_entry *e, char **path, int *created, char *err,
	       size_t errlen);

/* exws_start with TASK.md in lang ("zh", anything else English; NULL as
 * exws_start). */
int exws_start_lang(const char *root, const struct excat_entry *e, const char *lang, char **path,
		    int *created, char *err, size_t errlen);

/* Resets exercise e: renames the learner's file (when there is one) to
 * <file>.bak-<YYYYmmdd-HHMMSS> (with "-2", "-3"... when that exists),
 * then starts it afresh.  *backup receives the backup's path, or NULL
 * when there was no file (caller frees); *path the fresh file.  Returns
 * as exws_start; on failure nothing was renamed or the backup is kept. */
int exws_reset(const char *root, const struct excat_entry *e, char **path, char **backup, char *err,
	       size_t errlen);

/* exws_reset with TASK.md in lang (as exws_start_lang). */
int exws_reset_lang(const char *root, const struct excat_entry *e, const char *lang, char **path,
		    char **backup, char *err, size_t errlen);

#define EXWS_HINTS 3

/* The hints of exercise id in lang (hints.<lang>.md, English when that
 * language has none): exactly EXWS_HINTS "## " sections, each hint being
 * its heading line and its body, trimmed.  hint[i] are malloc'd (free
 * with exws_hints_free).  Returns 0; WB_ENOENT (no file); WB_EINVAL when
 * the file does not have exactly three sections (err names the file and
 * the count). */
int exws_hints_load(const char *root, const char *id, const char *lang, char *hint[EXWS_HINTS],
		    char *err, size_t errlen);
void exws_hints_free(char *hint[EXWS_HINTS]);

/* The hints of a text (the parser behind exws_hints_load, for the fuzz
 * target): 0 with hint[] filled, or WB_EINVAL with *count the number of
 * sections found (hint[] all NULL). */
int exws_hints_parse(const char *text, size_t len, char *hint[EXWS_HINTS], int *count);

/* The task text of id in lang (task.<lang>.md, else task.en.md), into
 * *text (caller frees).  Returns 0 or WB_ENOENT. */
int exws_task(const char *root, const char *id, const char *lang, char **text);

/* The reference solution of e (solution.<lang>), into *text (caller
 * frees).  Returns 0 or WB_ENOENT. */
int exws_solution(const char *root, const struct excat_entry *e, char **text);

/* The editor command: $VISUAL, else $EDITOR, else with fallback "vi"
 * when a vi is on PATH, else NULL.  Borrowed (the environment's or a
 * literal). */
const char *exws_editor(int fallback);

/* Runs the editor command ed (which may carry arguments, "code -w")
 * through /bin/sh on path and waits for it.  Returns its exit status
 * (0..255), or WB_EIO when it could not start or was killed. */
int exws_run_editor(const char *ed, const char *path);

#endif
