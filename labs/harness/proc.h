/*
 * proc.h - run directories and the processes a lab starts.
 *
 * Every run gets a fresh 0700 directory (mkdtemp) under the run base:
 * $WORKBENCH_RUN_BASE, else $XDG_RUNTIME_DIR/workbench, else
 * $XDG_STATE_HOME/workbench/run (default ~/.local/state/workbench/run).
 * The base, every run folder and every pid file must be owned by this user
 * and writable by nobody else, or nothing in it is trusted; the same rule
 * (private_dir_check, private_open) holds for every other folder whose
 * contents the workbench runs, deletes or trusts (the cache of
 * harness/zk/zkserver.c).  The reaper only empties run folders that hold
 * the owner record the workbench wrote, so a base may be any folder of
 * the user's without its other contents being touched.  Every process a lab
 * starts is spawned here: in its own process group, killed by the kernel
 * when its parent dies (PR_SET_PDEATHSIG), and recorded with its start time
 * in <run_dir>/pids so that a later start can reap it even after the
 * workbench was SIGKILLed.  Nothing here knows about ZooKeeper.
 */
#ifndef WB_PROC_H
#define WB_PROC_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Whether st (an lstat, or the fstat of a file opened with O_NOFOLLOW)
 * describes a private folder (want_dir) or regular file of ours: not a
 * symlink, of the wanted kind, owned by this user, writable by nobody else
 * (no group or other write bit).  Returns 0, or WB_EINVAL with the reason
 * and what to do in why: remedy (e.g. "remove it or set X") ends the
 * message, except for a folder others can write, which is told to be made
 * 0700.  path only names the file in the message. */
int private_stat_check(const char *path, const struct stat *st, int want_dir, const char *remedy,
		       char *why, size_t len);

/* private_stat_check on lstat(dir) as a folder, and its parent folder
 * must be ours or root's and writable by nobody else unless sticky
 * (/tmp), so nobody can replace dir after the check.  Returns 0, WB_EIO
 * (dir missing) or WB_EINVAL, with the reason in why. */
int private_dir_check(const char *dir, const char *remedy, char *why, size_t len);

/* Opens path read-only without following a symlink (O_NOFOLLOW; a FIFO
 * does not block) and checks the opened file with fstat as a private
 * regular file (private_stat_check).  Returns the descriptor (caller
 * closes), WB_ENOENT (no such file), or WB_EINVAL / WB_EIO with why. */
int private_open(const char *path, const char *remedy, char *why, size_t len);

/* The run base directory (created 0700 with its parents when missing; an
 * existing folder is used as it is, never chmodded).  Never NULL; caller
 * frees. */
char *rundir_base(void);

/* private_dir_check for the run base: a real directory owned by this user
 * and writable by nobody else, in a parent nobody else can change.
 * Returns 0, WB_EIO (missing) or WB_EINVAL, with the reason in why. */
int rundir_base_check(const char *base, char *why, size_t len);

/* Creates <base>/run-XXXXXX, mode 0700, owned by this process (its pid,
 * start time and command name in <dir>/owner).  Returns 0, WB_EINVAL (the
 * base fails rundir_base_check: nothing was created) or WB_EIO; *out freed
 * by caller. */
int rundir_create(char **out);

/* Removes a run directory and everything in it. */
void rundir_remove(const char *dir);

/* How many kept run directories (rundir_keep) outlive later runs: the
 * reaper removes the oldest beyond this many. */
#define RUNDIR_KEEP_MAX 10

/* Marks dir, a run directory of this process, as kept for inspection
 * (<dir>/kept, whose time orders the kept ones): the reaper then stops
 * any process it recorded that is still alive but leaves the folder,
 * until RUNDIR_KEEP_MAX newer kept folders exist.  Returns 0 or WB_EIO
 * (then the folder is an ordinary leftover and a later run removes it). */
int rundir_keep(const char *dir);

/* Kills the recorded processes of every run directory whose owner is no
 * longer alive, and removes those directories, except kept ones
 * (rundir_keep): of those only the RUNDIR_KEEP_MAX newest stay.  A base
 * that fails rundir_base_check, run folders or pid files that are not
 * ours or that others can write, and run-* folders without an owner
 * record of ours (only an empty one older than a minute is removed) are
 * left alone.  Returns how many live processes it killed. */
int rundir_reap_leftovers(void);

/* Starts argv[0] (searched in PATH) with exactly envp, stdin from
 * /dev/null, stdout and stderr appended to log_path (or /dev/null), in a
 * new process group, with SIGKILL on parent death; records it in
 * <run_dir>/pids.  Returns 0 or WB_EIO / WB_EUNAVAIL (not found). */
int proc_spawn(const char *run_dir, char *const argv[], char *const envp[], const char *log_path,
	       pid_t *pid);

/* Sends SIGTERM to pid's group, waits up to grace_ms, then SIGKILL, and
 * reaps it.  Returns 0, or WB_ENOENT when it was already gone. */
int proc_stop(pid_t pid, int grace_ms);

/* Sends SIGKILL to our child pid and its group at once and reaps it. */
void proc_kill(pid_t pid);

/* Kills (SIGKILL) every live process recorded in <run_dir>/pids and
 * reaps our own children among them. */
void proc_kill_all(const char *run_dir);

/* Records an already running child of ours (e.g. a forked helper). */
int proc_record(const char *run_dir, pid_t pid);

/* Start time of pid in clock ticks since boot (from /proc), 0 if gone. */
unsigned long long proc_start_time(pid_t pid);

#endif
