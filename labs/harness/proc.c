/*
 * proc.c - run directories, spawning and reaping (see proc.h).
 *
 * Invariant: a pid is only ever killed when /proc says it still has the
 * start time we recorded, so a recycled pid is never hit.
 */
#define _GNU_SOURCE /* pipe2, execvpe */
#include "harness/proc.h"
#include "base/spawn.h"
#include "base/wb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *rundir_base(void)
{
	const char *env = getenv("WORKBENCH_RUN_BASE");
	char *base = env && *env ? wb_xstrdup(env)
				 : wb_xasprintf("/tmp/workbench-%u", (unsigned)getuid());
	if (mkdir(base, 0700) != 0 && errno != EEXIST) {
		/* Fall through: rundir_create reports the error. */
	}
	chmod(base, 0700);
	return base;
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

static int write_pid_line(const char *file, pid_t pid)
{
	unsigned long long st = proc_start_time(pid);
	FILE *f = fopen(file, "a");
	if (!f)
		return WB_EIO;
	fprintf(f, "%d %llu\n", (int)pid, st);
	int bad = fclose(f) != 0;
	return bad ? WB_EIO : 0;
}

int rundir_create(char **out)
{
	char *base = rundir_base();
	char *tmpl = wb_xasprintf("%s/run-XXXXXX", base);
	free(base);
	if (!mkdtemp(tmpl)) {
		free(tmpl);
		return WB_EIO;
	}
	chmod(tmpl, 0700);
	char *owner = wb_xasprintf("%s/owner", tmpl);
	int rc = write_pid_line(owner, getpid());
	free(owner);
	if (rc) {
		rundir_remove(tmpl);
		free(tmpl);
		return rc;
	}
	*out = tmpl;
	return 0;
}

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *child = wb_xasprintf("%s/%s", path, e->d_name);
			struct stat st;
			if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(child);
			else
				unlink(child);
			free(child);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

void rundir_remove(const char *dir)
{
	if (dir && *dir)
		remove_tree(dir);
}

/* Calls fn for every recorded pid whose start time still matches. */
static int for_each_live(const char *file, void (*fn)(pid_t pid))
{
	FILE *f = fopen(file, "r");
	if (!f)
		return 0;
	int pid, n = 0;
	unsigned long long st;
	while (fscanf(f, "%d %llu", &pid, &st) == 2) {
		if (pid <= 1 || proc_start_time(pid) != st || st == 0)
			continue;
		fn(pid);
		n++;
	}
	fclose(f);
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
	char *file = wb_xasprintf("%s/pids", run_dir);
	for_each_live(file, kill_group_and_pid);
	/* Reap our own children so none is left a zombie. */
	FILE *f = fopen(file, "r");
	if (f) {
		int pid;
		unsigned long long st;
		while (fscanf(f, "%d %llu", &pid, &st) == 2)
			if (pid > 1)
				(void)waitpid(pid, NULL, 0); /* ECHILD for others' */
		fclose(f);
	}
	free(file);
}

static void noop(pid_t pid)
{
	(void)pid;
}

int rundir_reap_leftovers(void)
{
	char *base = rundir_base();
	DIR *d = opendir(base);
	int killed = 0;
	if (!d) {
		free(base);
		return 0;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "run-", 4) != 0)
			continue;
		char *dir = wb_xasprintf("%s/%s", base, e->d_name);
		char *owner = wb_xasprintf("%s/owner", dir);
		struct stat st;
		int has_owner = stat(owner, &st) == 0;
		int alive = has_owner && for_each_live(owner, noop) > 0;
		/* A directory without an owner file is being created right now
		 * or is not ours to judge: leave it unless it is old. */
		if (!alive &&
		    (has_owner || (stat(dir, &st) == 0 && time(NULL) - st.st_mtime > 60))) {
			char *pids = wb_xasprintf("%s/pids", dir);
			killed += for_each_live(pids, kill_group_and_pid);
			free(pids);
			rundir_remove(dir);
		}
		free(owner);
		free(dir);
	}
	closedir(d);
	free(base);
	return killed;
}

/* Test hook: with WORKBENCH_TEST_HOLD_AFTER=N in the environment, the
 * process that records the N-th process of a run stops there for good,
 * so a test can signal the workbench at a known point of a lab (with
 * servers and workers alive) instead of sleeping and hoping.  The
 * supervisor records only the first entry, so N >= 2 holds the lab. */
static void test_hold_point(const char *file)
{
	const char *env = getenv("WORKBENCH_TEST_HOLD_AFTER");
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
	char *file = wb_xasprintf("%s/pids", run_dir);
	int rc = write_pid_line(file, pid);
	if (rc == 0)
		test_hold_point(file);
	free(file);
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
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}
