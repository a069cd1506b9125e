/*
 * cli/excmd.h - what the `exercise` commands share (cli/excmd.c): finding
 * an exercise by id with a "did you mean", asking y/N, and running
 * `workbench exercise check ID` as a child in its own process group.
 * It does not run a check itself (cli/exercise_check.c does) nor know
 * the workspace layout (core/exercise_ws.h).
 */
#ifndef WB_CLI_EXCMD_H
#define WB_CLI_EXCMD_H

#include "app.h"

#include <sys/types.h>

struct excat_entry;

/* The exercise id names, or NULL after printing "unknown exercise 'x'
 * (did you mean 'y'?)" on stderr.  Borrowed from the catalogue. */
const struct excat_entry *excmd_find(struct app *app, const char *id);

/* Asks prompt (printf-style, one %s: id) on the terminal and reads y/N.
 * With yes set returns 1 at once; without a terminal on stdin prints
 * that --yes is needed and returns -1.  Returns 1 yes, 0 no. */
int excmd_confirm(struct app *app, int yes, const char *prompt, const char *id);

/* Starts `/proc/self/exe --lang L --content ROOT --db DB exercise check
 * ID [--json]` in a new process group with a parent-death SIGTERM and
 * stdin from /dev/null.  out_fd >= 0 becomes its stdout and stderr, -1
 * keeps ours.  Returns 0 with *pid, or WB_EIO (message printed). */
int excmd_spawn_check(struct app *app, const char *id, int json, int out_fd, pid_t *pid);

/* Catches SIGINT and SIGTERM (without SA_RESTART, so a blocking wait or
 * read returns EINTR) and notes them for excmd_stopped.  Cannot fail. */
void excmd_catch_stop(void);

/* 1 once SIGINT or SIGTERM arrived after excmd_catch_stop, else 0. */
int excmd_stopped(void);

/* Waits for pid; returns its exit code, 2 when it was killed by a signal
 * (the check could not finish).  Once a stop was caught it sends SIGTERM
 * to the child's group and keeps waiting for it, so no orphan is left. */
int excmd_wait(pid_t pid);

#endif
