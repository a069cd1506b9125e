/*
 * proc.c - run directories, spawning and reaping (see proc.h).
 *
 * Invariant: a pid is only ever killed when /proc says it still has the
 * start time and command name we recorded and belongs to us, so a recycled
 * pid is never hit; and only from pid files of ours in folders of ours that
 * nobody else can write (the run base notes below).
 */
#define _GNU_SOURCE /* pipe2, execvpe */
#include "harness/proc.h"
#include "base/testhook.h"
#include "base/spawn.h"
#include "base/wb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the run base ------------------------------------------------------
 *
 * The base must be a folder nobody else can plant entries in: the reaper
 * kills what the pid files in it name, so a base another user owns (the old
 * fixed /tmp/workbench-<uid> could be pre-created by anyone) would let that
 * user make our next lab SIGKILL any process of ours.  Hence: a per-user
 * location by default, and before anything is created, read or killed the
 * base, every run folder and every pid file must be a real directory or
 * file (no symlink followed: O_NOFOLLOW, fstatat AT_SYMLINK_NOFOLLOW) owned
 * by this user and writable by nobody else.  A pid is killed only when its
 * start time, its command name and its owner all still match the record.
 */

/* 0 when st is ours and writable by nobody else, else WB_EINVAL. */
static int owned_private(const struct stat *st)
{
	return st->st_uid == getuid() && (st->st_mode & 022) == 0 ? 0 : WB_EINVAL;
}

/* A directory usable as $XDG_RUNTIME_DIR: absolute, ours, mode 0700. */
static int runtime_dir_ok(const char *dir)
{
	struct stat st;
	return dir && dir[0] == '/' && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == getuid() && (st.st_mode & 077) == 0;
}

char *rundir_base(void)
{
	const char *env = getenv("WORKBENCH_RUN_BASE");
	const char *rt = getenv("XDG_RUNTIME_DIR");
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char *base;
	if (env && *env) {
		base = wb_xstrdup(env);
	} else if (runtime_dir_ok(rt)) {
		base = wb_xasprintf("%s/workbench", rt);
	} else if (state && state[0] == '/') {
		base = wb_xasprintf("%s/workbench/run", state);
	} else {
		if (!home || home[0] != '/') {
			struct passwd *pw = getpwuid(getuid());
			home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
		}
		base = home ? wb_xasprintf("%s/.local/state/workbench/run", home)
			    : wb_xasprintf("/nonexistent-home-%u/workbench-run",
					   (unsigned)getuid());
	}
	/* Made 0700 when missing; an existing folder is never chmodded (it
	 * may be the user's own: review r3 N9).  rundir_base_check reports
	 * what is wrong with it. */
	(void)wb_mkdir_p(base, 0700);
	return base;
}

/* The folder path is in: a copy of path up to its last '/' ("/" for a
 * top-level name, "." for a bare name).  Caller frees. */
static char *parent_of(const char *path)
{
	char *p = wb_xstrdup(path);
	size_t n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	char *slash = strrchr(p, '/');
	if (!slash) {
		free(p);
		return wb_xstrdup(".");
	}
	slash[slash == p ? 1 : 0] = '\0';
	return p;
}

int private_stat_check(const char *path, const struct stat *st, int want_dir, const char *remedy,
		       char *why, size_t len)
{
	if (S_ISLNK(st->st_mode)) {
		snprintf(why, len,
			 "%s is a symbolic link, which the workbench never follows here; %s", path,
			 remedy);
		return WB_EINVAL;
	}
	if (want_dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode)) {
		snprintf(why, len, "%s is not a %s; %s", path,
			 want_dir ? "directory" : "regular file", remedy);
		return WB_EINVAL;
	}
	if (st->st_uid != getuid()) {
		snprintf(
			why, len,
			"%s belongs to user %u, not to you (%u): another user may have made it; %s",
			path, (unsigned)st->st_uid, (unsigned)getuid(), remedy);
		return WB_EINVAL;
	}
	if (st->st_mode & 022) {
		if (want_dir)
			snprintf(
				why, len,
				"%s is writable by others (mode %04o); make it 0700 (chmod 700 %s)",
				path, (unsigned)(st->st_mode & 07777), path);
		else
			snprintf(why, len, "%s is writable by others (mode %04o); %s", path,
				 (unsigned)(st->st_mode & 07777), remedy);
		return WB_EINVAL;
	}
	return 0;
}

int private_dir_check(const char *dir, const char *remedy, char *why, size_t len)
{
	struct stat st;
	if (lstat(dir, &st) != 0) {
		snprintf(why, len, "%s does not exist and cannot be created (%s)", dir,
			 strerror(errno));
		return WB_EIO;
	}
	int rc = private_stat_check(dir, &st, 1, remedy, why, len);
	if (rc)
		return rc;
	/* Whoever can rename entries in the parent can swap the folder for
	 * another after this check: the parent must be ours or root's, and
	 * writable by nobody else unless sticky (/tmp). */
	char *parent = parent_of(dir);
	if (stat(parent, &st) == 0 && ((st.st_uid != getuid() && st.st_uid != 0) ||
				       ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)))) {
		snprintf(why, len,
			 "%s is in %s, which user %u owns and others can change (mode %04o): "
			 "they could replace it; %s",
			 dir, parent, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777), remedy);
		rc = WB_EINVAL;
	}
	free(parent);
	return rc;
}

int private_open(const char *path, const char *remedy, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		struct stat st;
		if (e == ENOENT)
			return WB_ENOENT;
		if (e == ELOOP && lstat(path, &st) == 0)
			return private_stat_check(path, &st, 0, remedy, why, len);
		snprintf(why, len, "cannot open %s: %s", path, strerror(e));
		return WB_EIO;
	}
	struct stat st;
	int rc = fstat(fd, &st) != 0 ? WB_EIO : private_stat_check(path, &st, 0, remedy, why, len);
	if (rc == WB_EIO)
		snprintf(why, len, "cannot look at %s: %s", path, strerror(errno));
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int rundir_base_check(const char *base, char *why, size_t len)
{
	return private_dir_check(base, "remove it or set WORKBENCH_RUN_BASE to a folder of yours",
				 why, len);
}

unsigned long long proc_start_time(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* Field 22; the command name (field 2) may contain spaces and ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	unsigned long long st = 0;
	int field = 2;
	for (p++; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field == 22)
		st = strtoull(p, NULL, 10);
	/* A zombie has exited: treat as gone. */
	char *state = strrchr(buf, ')');
	if (state && state[1] == ' ' && state[2] == 'Z')
		return 0;
	return st;
}

/* The command name of pid (/proc/PID/comm, at most 15 bytes) into buf;
 * "" when it is gone. */
static void proc_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* True when pid's real uid is ours (/proc/PID/status "Uid:"). */
static int proc_is_ours(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ours = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned uid;
		if (sscanf(line, "Uid: %u", &uid) == 1) {
			ours = uid == (unsigned)getuid();
			break;
		}
	}
	fclose(f);
	return ours;
}

/* Appends "PID START COMM" to dir/name, never through a symlink. */
static int write_pid_line(const char *dir, const char *name, pid_t pid)
{
	unsigned long long st = proc_start_time(pid);
	char comm[64];
	proc_comm(pid, comm, sizeof comm);
	char *file = wb_xasprintf("%s/%s", dir, name);
	int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	free(file);
	if (fd < 0)
		return WB_EIO;
	char line[128];
	int n = snprintf(line, sizeof line, "%d %llu %s\n", (int)pid, st, comm);
	int bad = n < 0 || write(fd, line, (size_t)n) != n;
	bad |= close(fd) != 0;
	return bad ? WB_EIO : 0;
}

int rundir_create(char **out)
{
	char *base = rundir_base();
	char why[512];
	int rc = rundir_base_check(base, why, sizeof why);
	if (rc) {
		free(base);
		return rc;
	}
	char *tmpl = wb_xasprintf("%s/run-XXXXXX", base);
	free(base);
	if (!mkdtemp(tmpl)) { /* mkdtemp makes it 0700 */
		free(tmpl);
		return WB_EIO;
	}
	rc = write_pid_line(tmpl, "owner", getpid());
	if (rc) {
		rundir_remove(tmpl);
		free(tmpl);
		return rc;
	}
	*out = tmpl;
	return 0;
}

/* Removes name inside the directory dirfd and everything below it,
 * without following a symlink anywhere. */
static void remove_at(int at, const char *name, int depth)
{
	struct stat st;
	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	if (!S_ISDIR(st.st_mode) || depth > 32) {
		unlinkat(at, name, 0);
		return;
	}
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				remove_at(dirfd(d), e->d_name, depth + 1);
		closedir(d);
	} else if (fd >= 0) {
		close(fd);
	}
	unlinkat(at, name, AT_REMOVEDIR);
}

void rundir_remove(const char *dir)
{
	if (!dir || !*dir)
		return;
	char *parent = wb_xstrdup(dir);
	char *slash = strrchr(parent, '/');
	const char *name = dir;
	int pfd;
	if (!slash) {
		pfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		name = dir + (slash - parent) + 1;
		if (slash == parent)
			slash++; /* the parent is "/" */
		*slash = '\0';
		pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (pfd >= 0) {
		if (*name)
			remove_at(pfd, name, 0);
		close(pfd);
	}
	free(parent);
}

/* Opens dirfd/name for reading when it is a regular file of ours that no
 * one else can write; NULL otherwise (missing, a symlink, foreign). */
static FILE *open_private(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || owned_private(&st) != 0) {
		close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* Calls fn for every recorded pid that is still the process we recorded:
 * same start time, same command name, our user. */
static int for_each_live_at(int dirfd, const char *name, void (*fn)(pid_t pid))
{
	FILE *f = open_private(dirfd, name);
	if (!f)
		return 0;
	int n = 0;
	char line[256];
	while (fgets(line, sizeof line, f)) {
		int pid, used = 0;
		unsigned long long st;
		if (sscanf(line, "%d %llu %n", &pid, &st, &used) != 2 || used == 0)
			continue;
		char want[64], have[64];
		snprintf(want, sizeof want, "%s", line + used);
		want[strcspn(want, "\n")] = '\0';
		if (pid <= 1 || st == 0 || proc_start_time(pid) != st)
			continue;
		proc_comm(pid, have, sizeof have);
		if (!want[0] || strcmp(want, have) != 0 || !proc_is_ours(pid))
			continue;
		fn(pid);
		n++;
	}
	fclose(f);
	return n;
}

static int for_each_live(const char *dir, const char *name, void (*fn)(pid_t pid))
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	int n = for_each_live_at(fd, name, fn);
	close(fd);
	return n;
}

static void kill_group_and_pid(pid_t pid)
{
	kill(-pid, SIGKILL); /* its own group, if it leads one */
	kill(pid, SIGKILL);
	waitpid(pid, NULL, WNOHANG);
}

void proc_kill_all(const char *run_dir)
{
	for_each_live(run_dir, "pids", kill_group_and_pid);
	/* Reap our own children so none is left a zombie. */
	char *file = wb_xasprintf("%s/pids", run_dir);
	FILE *f = fopen(file, "r");
	if (f) {
		int pid;
		char line[256];
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "%d", &pid) == 1 && pid > 1)
				(void)waitpid(pid, NULL, 0); /* ECHILD for others' */
		fclose(f);
	}
	free(file);
}

static void noop(pid_t pid)
{
	(void)pid;
}

int rundir_keep(const char *dir)
{
	char *path = wb_xasprintf("%s/kept", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	free(path);
	if (fd < 0)
		return WB_EIO;
	return close(fd) == 0 ? 0 : WB_EIO;
}

/* A kept folder the reaper saw: its name and when it was kept. */
struct kept {
	char *name;
	struct timespec at;
};

/* Newest first; equal times by name, so the order is total. */
static int kept_newest_first(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;
	if (x->at.tv_sec != y->at.tv_sec)
		return x->at.tv_sec < y->at.tv_sec ? 1 : -1;
	if (x->at.tv_nsec != y->at.tv_nsec)
		return x->at.tv_nsec < y->at.tv_nsec ? 1 : -1;
	return strcmp(y->name, x->name);
}

/* Whether dirfd/owner is the record rundir_create writes: a private
 * regular file of ours holding exactly one line "PID START[ COMM]".  It
 * marks a folder the workbench made; a folder without it is never
 * emptied (review r3 N9: a run base may be any folder of the user's). */
static int owner_is_ours(int dirfd)
{
	FILE *f = open_private(dirfd, "owner");
	if (!f)
		return 0;
	char line[256];
	int pid = 0, lines = 0, ok = 0;
	unsigned long long st = 0;
	while (fgets(line, sizeof line, f))
		if (++lines == 1)
			ok = sscanf(line, "%d %llu", &pid, &st) == 2 && pid > 1 && st > 0;
	fclose(f);
	return ok && lines == 1;
}

/* One entry of the base: reaps it when it is a run folder of ours whose
 * owner is gone; a kept one (a real file "kept" inside) only has its
 * processes stopped and is appended to *kept (caller frees).  Returns how
 * many live processes it killed. */
static int reap_entry(int basefd, const char *name, struct kept **kept, size_t *nkept)
{
	struct stat st;
	if (strncmp(name, "run-", 4) != 0 || fstatat(basefd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISDIR(st.st_mode) || owned_private(&st) != 0)
		return 0; /* not a run folder of ours: never judged */
	int fd = openat(basefd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat ost;
	if (fstatat(fd, "owner", &ost, AT_SYMLINK_NOFOLLOW) != 0) {
		/* No owner record: being created right now, or a run that died
		 * between mkdtemp and writing it, which left it empty; or a
		 * folder the workbench did not make.  Only an old empty one
		 * goes (rmdir fails on anything else). */
		if (time(NULL) - st.st_mtime > 60)
			(void)unlinkat(basefd, name, AT_REMOVEDIR);
		close(fd);
		return 0;
	}
	if (!owner_is_ours(fd)) {
		close(fd);
		return 0; /* not a record of ours: not our folder */
	}
	int alive = for_each_live_at(fd, "owner", noop) > 0;
	int killed = 0;
	struct stat kst;
	int is_kept = fstatat(fd, "kept", &kst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(kst.st_mode);
	if (!alive) {
		killed = for_each_live_at(fd, "pids", kill_group_and_pid);
		if (is_kept) {
			*kept = wb_xrealloc(*kept, (*nkept + 1) * sizeof **kept);
			(*kept)[(*nkept)++] = (struct kept){wb_xstrdup(name), kst.st_mtim};
		} else {
			remove_at(basefd, name, 0);
		}
	}
	close(fd);
	return killed;
}

int rundir_reap_leftovers(void)
{
	char *base = rundir_base();
	char why[512];
	int killed = 0;
	int fd = rundir_base_check(base, why, sizeof why) == 0
			 ? open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			 : -1;
	free(base);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	struct kept *kept = NULL;
	size_t nkept = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		killed += reap_entry(dirfd(d), e->d_name, &kept, &nkept);
	if (nkept > 1)
		qsort(kept, nkept, sizeof *kept, kept_newest_first);
	for (size_t i = 0; i < nkept; i++) {
		if (i >= RUNDIR_KEEP_MAX)
			remove_at(dirfd(d), kept[i].name, 0);
		free(kept[i].name);
	}
	free(kept);
	closedir(d);
	return killed;
}

/* Test hook: with WORKBENCH_TEST_HOLD_AFTER=N in the environment, the
 * process that records the N-th process of a run stops there for good,
 * so a test can signal the workbench at a known point of a lab (with
 * servers and workers alive) instead of sleeping and hoping.  The
 * supervisor records only the first entry, so N >= 2 holds the lab. */
static void test_hold_point(const char *file)
{
	const char *env = testhook_hold_after();
	if (!env || !*env)
		return;
	int want = atoi(env), have = 0;
	FILE *f = fopen(file, "r");
	if (!f)
		return;
	int c;
	while ((c = fgetc(f)) != EOF)
		have += c == '\n';
	fclose(f);
	if (want >= 2 && have == want)
		for (;;)
			pause();
}

int proc_record(const char *run_dir, pid_t pid)
{
	int rc = write_pid_line(run_dir, "pids", pid);
	if (rc == 0) {
		char *file = wb_xasprintf("%s/pids", run_dir);
		test_hold_point(file);
		free(file);
	}
	return rc;
}

int proc_spawn(const char *run_dir, char *const argv[], char *const envp[], const char *log_path,
	       pid_t *out)
{
	/* A pipe tells the parent whether exec worked. */
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return WB_EIO;
	int logfd = open(log_path ? log_path : "/dev/null",
			 O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	struct spawn_opts so = {
		.new_group = 1, .death_signal = SIGKILL, .stdin_null = 1, .out_fd = logfd};
	pid_t pid;
	int frc = spawn_fork(&so, &pid);
	if (frc != 0) {
		if (logfd >= 0)
			close(logfd);
		close(fds[0]);
		close(fds[1]);
		return WB_EIO;
	}
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvpe(argv[0], argv, envp);
		int e = errno;
		ssize_t w = write(fds[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	if (logfd >= 0)
		close(logfd);
	close(fds[1]);
	int child_errno = 0;
	ssize_t n = read(fds[0], &child_errno, sizeof child_errno);
	close(fds[0]);
	if (n == (ssize_t)sizeof child_errno) {
		waitpid(pid, NULL, 0);
		return child_errno == ENOENT ? WB_EUNAVAIL : WB_EIO;
	}
	*out = pid;
	return proc_record(run_dir, pid);
}

int proc_stop(pid_t pid, int grace_ms)
{
	if (kill(-pid, SIGTERM) != 0 && kill(pid, SIGTERM) != 0) {
		waitpid(pid, NULL, WNOHANG);
		return WB_ENOENT;
	}
	struct timespec tick = {0, 10 * 1000 * 1000};
	for (int waited = 0; waited < grace_ms; waited += 10) {
		pid_t r = waitpid(pid, NULL, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			return 0;
		nanosleep(&tick, NULL);
	}
	proc_kill(pid);
	return 0;
}

void proc_kill(pid_t pid)
{
	kill(-pid, SIGKILL); /* its own group, if it leads one */
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
