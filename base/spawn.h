/*
 * spawn.h - the one way this project forks a helper process: optionally in
 * its own process group, with a death signal so it cannot outlive the
 * forking thread, and with stdin/stdout/stderr redirected before the
 * caller's child code runs.
 *
 * It forks only: exec, signal dispositions and what the child does are the
 * caller's.  It does not record or reap children (labs/harness/proc.h
 * records the processes a lab starts).
 */
#ifndef WB_SPAWN_H
#define WB_SPAWN_H

#include <sys/types.h>

/* Exit status of a child whose parent died before the death signal was
 * armed (the child notices and leaves at once). */
#define SPAWN_ORPHAN_EXIT 127

/* What the child gets before spawn_fork returns in it; zero is "nothing". */
struct spawn_opts {
	int new_group;	  /* 1: setpgid in the child and in the parent (no window) */
	int death_signal; /* PR_SET_PDEATHSIG signal, 0 for none.  Linux sends it
			     when the forking *thread* ends, not the process. */
	int stdin_null;	  /* 1: stdin becomes /dev/null */
	int out_fd;	  /* >= 0: dup2 onto stdout and stderr; otherwise set -1 */
};

/* Flushes every stdio stream (so buffered output is not written twice),
 * then forks.  In the parent returns 0 with *pid the child's pid; in the
 * child returns 0 with *pid 0, after applying o (o may be NULL: a plain
 * fork with nothing applied).  A child whose parent is already gone when
 * the death signal is armed exits with SPAWN_ORPHAN_EXIT.  Returns WB_EIO
 * when fork fails (errno kept), *pid untouched. */
int spawn_fork(const struct spawn_opts *o, pid_t *pid);

#endif
