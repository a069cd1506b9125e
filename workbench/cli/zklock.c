/*
 * cli/zklock.c - `workbench zk-lock`: flock(1) for ZooKeeper.
 *
 *   workbench zk-lock --zk HOST:PORT[,...] --path /locks/NAME [--wait SECONDS]
 *                     [--session-timeout SECONDS] [--kill-after SECONDS]
 *                     -- COMMAND [ARGS...]
 *
 * Takes the lock of labs/recipes/zklock.c, runs COMMAND while holding it
 * with WORKBENCH_FENCE_TOKEN (the sequence number), WORKBENCH_LOCK_PATH
 * (the lock path) and WORKBENCH_LOCK_NODE (our node) in its environment,
 * releases when COMMAND exits and exits with COMMAND's status (128+N when
 * a signal N ended it, 127 when it could not be run).
 *
 * Exit codes of its own: 2 usage; 1 could not take the lock (timed out,
 * ZooKeeper unreachable, session expired, create outcome unknown); 75 the
 * lock was lost while COMMAND ran (session expired, node deleted, or
 * disconnected past the session timeout).
 *
 * COMMAND runs in a process group of its own under a guardian process
 * (the design notes are at guardian_main).  When the lock is lost, or we
 * get SIGTERM, SIGHUP or SIGINT, the whole group gets the signal (SIGTERM
 * for a loss) and SIGKILL --kill-after seconds later (default 5); when we
 * die, even by SIGKILL, the guardian does the same with the SIGKILL no
 * later than a third of the session timeout, before the session can
 * expire.  The lock is released only once the group is empty and no
 * descendant of COMMAND is left, so COMMAND's children and grandchildren
 * are covered too, also those that left its group (setsid: they get the
 * same SIGTERM, then SIGKILL, once COMMAND has ended); only a fencing
 * token protects a resource from a holder that was paused past its
 * session.  When we own
 * the terminal, COMMAND's group gets it (and so Ctrl-C) while it runs.
 * While waiting for the lock, SIGINT, SIGTERM and SIGHUP cancel the wait
 * (our candidate is deleted) and we exit 128+N.
 *
 * It does not retry, daemonise, or keep the lock across COMMAND restarts.
 * Test hook: $WORKBENCH_TEST_ZK_LOCK_WAITING (see test_hook_watched).
 */
#define _GNU_SOURCE /* pipe2 */
#include "app.h"
#include "cli/commands.h"
#include "base/testhook.h"
#include "base/spawn.h"
#include "base/wb.h"
#include "harness/zk/zkclient.h"
#include "recipes/zklock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ZKL_EXIT_LOST	  75   /* EX_TEMPFAIL */
#define ZKL_KILL_GRACE_MS 5000 /* --kill-after default */

/* Options after the synopsis in usage messages (cmd_zk_lock.more). */
static const char more_text[] =
	"  --zk HOST:PORT[,...]       the ZooKeeper servers\n"
	"  --path /locks/NAME         the lock's node\n"
	"  --wait SECONDS             give up after this long (0: only if free now;\n"
	"                             default: wait as long as it takes)\n"
	"  --session-timeout SECONDS  ZooKeeper session timeout to ask for (default 10)\n"
	"  --kill-after SECONDS       SIGKILL COMMAND's process group this long after\n"
	"                             SIGTERM when the lock is lost (default 5)\n"
	"COMMAND sees WORKBENCH_FENCE_TOKEN, WORKBENCH_LOCK_PATH and WORKBENCH_LOCK_NODE.\n"
	"Exit: COMMAND's status; 1 lock not taken; 2 usage; 75 lock lost while COMMAND ran.\n";

/* Seconds as a non-negative decimal, into ms.  -1 when malformed. */
static long parse_seconds(const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < 0 || v > 31536000.0)
		return -1;
	return (long)(v * 1000.0 + 0.5);
}

/* Signals are blocked in every thread and read from a signalfd by the
 * main loop; the lock's monitor thread and the acquiring thread write one
 * byte to this pipe: 'L' lock lost, 'A' acquire returned. */
static int wake_fd[2] = {-1, -1};

static void wake(unsigned char b)
{
	ssize_t r = write(wake_fd[1], &b, 1);
	(void)r;
}

static void on_lock_event(void *arg, enum zklock_event ev, const char *why)
{
	(void)arg;
	if (ev == ZKLOCK_EV_SUSPENDED) {
		fprintf(stderr, "workbench zk-lock: %s; the lock may be lost\n", why);
	} else if (ev == ZKLOCK_EV_RESUMED) {
		fprintf(stderr, "workbench zk-lock: %s; still holding the lock\n", why);
	} else {
		fprintf(stderr, "workbench zk-lock: lock lost: %s\n", why);
		wake('L'); /* the main loop tells the guardian */
	}
}

/* Marks every descriptor opened since `before` close-on-exec, so COMMAND
 * does not inherit the ZooKeeper socket and the client's pipes. */
static void cloexec_new_fds(const unsigned char *before, int nbefore)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return;
	int self = dirfd(d);
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		int fd = atoi(de->d_name);
		if (de->d_name[0] == '.' || fd == self || fd < 3)
			continue;
		if (fd < nbefore && before[fd])
			continue;
		int fl = fcntl(fd, F_GETFD);
		if (fl >= 0)
			fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
	}
	closedir(d);
}

static int open_fds(unsigned char *set, int n)
{
	memset(set, 0, (size_t)n);
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		int fd = atoi(de->d_name);
		if (de->d_name[0] != '.' && fd >= 0 && fd < n)
			set[fd] = 1;
	}
	closedir(d);
	return 1;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for a byte on the wake pipe or a signal.  Returns the byte, or
 * 0x100 + signal number, or -1 on timeout. */
static int next_wake(int sfd, int timeout_ms)
{
	struct pollfd p[2] = {{.fd = wake_fd[0], .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
	int pr = poll(p, 2, timeout_ms);
	if (pr <= 0)
		return -1;
	if (p[1].revents & POLLIN) {
		struct signalfd_siginfo si;
		if (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
			return 0x100 + (int)si.ssi_signo;
	}
	if (p[0].revents & POLLIN) {
		unsigned char b;
		if (read(wake_fd[0], &b, 1) == 1)
			return b;
	}
	return -1;
}

/* Test hook: when $WORKBENCH_TEST_ZK_LOCK_WAITING names a file (a FIFO in
 * tests), the first time this waiter has a watch on a predecessor it
 * writes "waiting <predecessor node>" there, so a test knows the two
 * invocations really overlap without sleeping. */
static void test_hook_watched(void *arg, struct zklock *l, const char *pred, int zrc)
{
	(void)l;
	int *said = arg;
	const char *path = testhook_zk_lock_waiting();
	if (zrc != ZOK || *said || !path || !*path)
		return;
	*said = 1;
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "waiting %s\n", pred);
		fclose(f);
	}
}

struct acquire_job {
	struct zklock *l;
	int wait_ms;
	int rc;
};

static void *acquire_main(void *arg)
{
	struct acquire_job *j = arg;
	j->rc = zklock_acquire(j->l, j->wait_ms);
	wake('A');
	return NULL;
}

/* What the command line asked for. */
struct zkl_opts {
	const char *zk, *path;
	long wait_ms, session_ms; /* -1: wait as long as it takes */
	long kill_after_ms;	  /* --kill-after */
	char **cmd;		  /* COMMAND and its args */
};

/* ---- the guardian ------------------------------------------------------
 *
 * COMMAND runs in a process group of its own, and between us and it sits
 * a small guardian process, forked from us before COMMAND:
 *
 *   zk-lock (session, lock)  --ctl pipe-->  guardian (own group, subreaper)
 *                                            └─ COMMAND (own group) └─ ...
 *
 * The guardian holds the read end of the ctl pipe.  A byte on it is a
 * signal to send to COMMAND's group ('T' SIGTERM, 'I' SIGINT, 'H' SIGHUP),
 * and arms SIGKILL of the group kill_after_ms later.  End of file (we
 * exited or were SIGKILLed) is SIGTERM at once and SIGKILL after
 * min(kill_after, session timeout / 3): a session cannot expire sooner
 * than 2/3 of its timeout after our last heartbeat, so the group is dead
 * before the next holder can be told the lock is free.  When COMMAND
 * itself exits, what is left in its group gets the same SIGTERM, SIGKILL
 * treatment, and so does every descendant that left the group (setsid,
 * setpgid): the guardian is a child subreaper, so once COMMAND has ended
 * such a process, or the nearest of its ancestors still alive, is a child
 * of the guardian (read from /proc, signal_children), and a signalled
 * child's own children become the guardian's in turn.  The guardian
 * exits, with COMMAND's status as a code (the value zk-lock exits with),
 * only once the group is empty (kill(-group, 0) fails with ESRCH) and it
 * has no child left (waitpid says ECHILD): then no descendant is left
 * either, since an orphan always comes to the guardian.  We release the
 * lock only after the guardian exited.
 *
 * The guardian is a fork of a threaded process that never execs: it only
 * makes system calls (no stdio, no malloc).  COMMAND gets PR_SET_PDEATHSIG
 * SIGKILL on the guardian; if the guardian dies alone, we SIGKILL the group
 * ourselves; a descendant that left the group is then out of our reach
 * (no child of ours), so only the guardian's own exits cover it. */

struct guard_cfg {
	char **argv;		  /* COMMAND */
	const sigset_t *old_mask; /* the mask COMMAND gets */
	int kill_after_ms;	  /* --kill-after */
	int death_kill_ms;	  /* SIGKILL delay after our death */
	int foreground;		  /* 1: give COMMAND's group the terminal */
};

static void write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		c += w;
		n -= (size_t)w;
	}
}

/* In COMMAND's process, before exec: its own group, the terminal when we
 * had it, killed with the guardian, our signal mask.  Does not return. */
static void command_child(const struct guard_cfg *g, pid_t guardian)
{
	setpgid(0, 0);
	if (g->foreground) {
		signal(SIGTTOU, SIG_IGN);
		tcsetpgrp(0, getpid());
		signal(SIGTTOU, SIG_DFL);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != guardian)
		_exit(SPAWN_ORPHAN_EXIT);
	sigprocmask(SIG_SETMASK, g->old_mask, NULL);
	execvp(g->argv[0], g->argv);
	int e = errno;
	static const char pre[] = "workbench zk-lock: cannot run ";
	write_all(2, pre, sizeof pre - 1);
	write_all(2, g->argv[0], strlen(g->argv[0]));
	write_all(2, ": ", 2);
	write_all(2, strerror(e), strlen(strerror(e)));
	write_all(2, "\n", 1);
	_exit(e == ENOENT ? 127 : 126);
}

/* Closes every descriptor but 0-2 and the two kept, which end up as 3
 * and 4 (close-on-exec, so COMMAND gets neither). */
static void guardian_fds(int *ctl, int *st)
{
	if (*ctl != 3) {
		int t = fcntl(*ctl, F_DUPFD, 5);
		*ctl = t;
	}
	if (*st != 4) {
		int t = fcntl(*st, F_DUPFD, 5);
		*st = t;
	}
	dup2(*ctl, 3);
	dup2(*st, 4);
	*ctl = 3;
	*st = 4;
	fcntl(3, F_SETFD, FD_CLOEXEC);
	fcntl(4, F_SETFD, FD_CLOEXEC);
	if (syscall(SYS_close_range, 5U, ~0U, 0U) != 0) {
		struct rlimit rl;
		long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? (long)rl.rlim_cur : 1024;
		if (max > 65536)
			max = 65536;
		for (long fd = 5; fd < max; fd++)
			close((int)fd);
	}
}

/* The code zk-lock exits with for COMMAND's wait status. */
static int status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_FAIL;
}

/* n as decimal digits at out (room for 12); returns the end.  No stdio:
 * the guardian is a fork of a threaded process. */
static char *put_uint(char *out, unsigned n)
{
	char tmp[12];
	int k = 0;
	do
		tmp[k++] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	while (k > 0)
		*out++ = tmp[--k];
	return out;
}

/* Reads all of path (at most cap - 1 bytes) into buf, NUL-terminated.
 * Returns the length, or -1 when it cannot be opened. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t len = 0;
	ssize_t r;
	while (len < cap - 1 && (r = read(fd, buf + len, cap - 1 - len)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* Whether /proc/<pid>/stat names parent as its parent. */
static int parent_is(const char *pid, pid_t parent)
{
	char path[64] = "/proc/", buf[512];
	size_t n = strlen(pid);
	if (n > 20)
		return 0;
	memcpy(path + 6, pid, n);
	memcpy(path + 6 + n, "/stat", 6);
	if (read_small(path, buf, sizeof buf) <= 0)
		return 0;
	char *p = strrchr(buf, ')'); /* the command name may hold anything */
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return 0;
	return atoi(p + 4) == (int)parent; /* after ") S " comes the ppid */
}

/* Sends sig to every child of the guardian self: the ones
 * /proc/self/task/<self>/children lists (the guardian has one thread),
 * or, where the kernel has no such file, every /proc entry whose parent
 * is self.  No stdio and no malloc. */
static void signal_children(pid_t self, int sig)
{
	static char buf[8192];
	char path[64] = "/proc/self/task/";
	char *end = put_uint(path + 16, (unsigned)self);
	memcpy(end, "/children", 10);
	if (read_small(path, buf, sizeof buf) >= 0) {
		for (char *p = buf; *p;) {
			while (*p == ' ' || *p == '\n')
				p++;
			int pid = atoi(p);
			if (pid > 1)
				kill(pid, sig);
			while (*p >= '0' && *p <= '9')
				p++;
			if (*p && *p != ' ' && *p != '\n')
				break;
		}
		return;
	}
	int dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	long nread;
	while ((nread = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < nread;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof reclen);
			const char *name = buf + off + 19;
			if (name[0] >= '1' && name[0] <= '9' && parent_is(name, self))
				kill(atoi(name), sig);
			off += reclen;
		}
	}
	close(dfd);
}

/* The guardian's loop; see above.  Does not return. */
static void guardian_main(const struct guard_cfg *g, int ctl, int st)
{
	signal(SIGPIPE, SIG_IGN);
	guardian_fds(&ctl, &st);
	setpgid(0, 0); /* a kill of zk-lock's group does not reach us */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK); /* SIGCHLD is blocked */
	pid_t self = getpid(), cmd = fork();
	if (cmd < 0)
		_exit(126);
	if (cmd == 0)
		command_child(g, self);
	setpgid(cmd, cmd); /* both sides, so there is no window */
	int32_t pg = (int32_t)cmd;
	write_all(st, &pg, sizeof pg);
	int code = -1, ctl_open = 1, others_termed = 0;
	long long kill_at = -1;
	for (;;) {
		int status;
		pid_t w;
		while ((w = waitpid(-1, &status, WNOHANG)) > 0)
			if (w == cmd)
				code = status_code(status);
		int children = w == 0; /* 0 with WNOHANG: some child still runs */
		if (code >= 0 && !children && kill(-cmd, 0) != 0 && errno == ESRCH)
			_exit(code); /* COMMAND ended, its group is empty, no descendant */
		if (code >= 0 && kill_at < 0) { /* leftovers of COMMAND */
			kill(-cmd, SIGTERM);
			kill_at = now_ms() + g->kill_after_ms;
		}
		if (code >= 0 && !others_termed) { /* and those that left its group */
			signal_children(self, SIGTERM);
			others_termed = 1;
		}
		if (kill_at >= 0 && now_ms() >= kill_at) {
			kill(-cmd, SIGKILL);
			if (code >= 0)
				signal_children(self, SIGKILL);
		}
		int timeout = -1;
		if (code >= 0 || (kill_at >= 0 && now_ms() >= kill_at))
			timeout = 20; /* draining: zombies of non-children */
		else if (kill_at >= 0)
			timeout = (int)(kill_at - now_ms());
		struct pollfd p[2] = {{.fd = sfd, .events = POLLIN},
				      {.fd = ctl_open ? ctl : -1, .events = POLLIN}};
		if (poll(p, 2, timeout) < 0 && errno != EINTR)
			timeout = 20;
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof si) > 0)
				;
		}
		if (!(p[1].revents & (POLLIN | POLLHUP)))
			continue;
		unsigned char b;
		ssize_t r = read(ctl, &b, 1);
		if (r == 1) {
			int sig = b == 'I' ? SIGINT : b == 'H' ? SIGHUP : SIGTERM;
			kill(-cmd, sig);
			if (kill_at < 0)
				kill_at = now_ms() + g->kill_after_ms;
		} else if (r == 0) { /* zk-lock is gone: so is the lock, soon */
			ctl_open = 0;
			kill(-cmd, SIGTERM);
			long long at = now_ms() + g->death_kill_ms;
			if (kill_at < 0 || at < kill_at)
				kill_at = at;
		}
	}
}

/* The guardian as we see it. */
struct guard {
	pid_t pid;  /* the guardian */
	pid_t pgid; /* COMMAND's process group */
	int ctl;    /* write end of the ctl pipe */
};

/* Forks the guardian (which forks COMMAND) and reads COMMAND's group.
 * 0, or WB_EIO (message printed). */
static int guard_start(const struct guard_cfg *cfg, struct guard *g)
{
	int ctl[2], st[2];
	if (pipe2(ctl, O_CLOEXEC) != 0)
		return WB_EIO;
	if (pipe2(st, O_CLOEXEC) != 0) {
		close(ctl[0]);
		close(ctl[1]);
		return WB_EIO;
	}
	pid_t pid;
	if (spawn_fork(NULL, &pid) != 0) {
		fprintf(stderr, "workbench zk-lock: fork: %s\n", strerror(errno));
		close(ctl[0]), close(ctl[1]), close(st[0]), close(st[1]);
		return WB_EIO;
	}
	if (pid == 0) {
		close(ctl[1]);
		close(st[0]);
		guardian_main(cfg, ctl[0], st[1]);
	}
	close(ctl[0]);
	close(st[1]);
	int32_t pg = 0;
	ssize_t r;
	while ((r = read(st[0], &pg, sizeof pg)) < 0 && errno == EINTR)
		;
	close(st[0]);
	g->pid = pid;
	g->ctl = ctl[1];
	g->pgid = r == (ssize_t)sizeof pg ? (pid_t)pg : 0;
	return 0;
}

static void guard_tell(const struct guard *g, char what)
{
	write_all(g->ctl, &what, 1);
}

/* The guardian died by a signal: its group may still run.  SIGKILL it and
 * wait (bounded) until it is empty. */
static void guard_fallback(const struct guard *g)
{
	if (g->pgid <= 0)
		return;
	kill(-g->pgid, SIGKILL);
	long long end = now_ms() + 5000;
	while (kill(-g->pgid, 0) == 0 && now_ms() < end)
		poll(NULL, 0, 20);
}

/* Gives the terminal back to our group after COMMAND had it. */
static void take_terminal_back(int foreground)
{
	if (!foreground)
		return;
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGTTOU, &ign, &old);
	tcsetpgrp(0, getpgrp());
	sigaction(SIGTTOU, &old, NULL);
}

/* Runs argv with the lock held; returns our exit code. */
static int run_locked(struct zklock *l, const struct zkl_opts *o, int sfd, const sigset_t *old_mask,
		      int session_ms)
{
	char tok[32];
	snprintf(tok, sizeof tok, "%lld", (long long)zklock_token(l));
	setenv("WORKBENCH_FENCE_TOKEN", tok, 1);
	setenv("WORKBENCH_LOCK_PATH", zklock_path(l), 1);
	setenv("WORKBENCH_LOCK_NODE", zklock_own_path(l), 1);
	struct guard_cfg cfg = {
		.argv = o->cmd,
		.old_mask = old_mask,
		.kill_after_ms = (int)o->kill_after_ms,
		.death_kill_ms = (int)o->kill_after_ms < session_ms / 3 ? (int)o->kill_after_ms
									: session_ms / 3,
		.foreground = isatty(0) && tcgetpgrp(0) == getpgrp(),
	};
	struct guard g;
	if (guard_start(&cfg, &g) != 0) {
		zklock_release(l);
		return EXIT_FAIL;
	}
	int status = 0, lost = 0;
	for (;;) {
		if (!lost && zklock_status(l) == ZKLOCK_LOST) {
			lost = 1;
			guard_tell(&g, 'T');
		}
		pid_t w = waitpid(g.pid, &status, WNOHANG);
		if (w == g.pid)
			break;
		int b = next_wake(sfd, -1);
		if (b == 'L' && !lost) {
			lost = 1;
			guard_tell(&g, 'T');
		} else if (b == 0x100 + SIGTERM || b == 0x100 + SIGHUP || b == 0x100 + SIGINT)
			guard_tell(&g, b == 0x100 + SIGINT ? 'I' : b == 0x100 + SIGHUP ? 'H' : 'T');
	}
	close(g.ctl);
	take_terminal_back(cfg.foreground);
	if (!WIFEXITED(status)) {
		fprintf(stderr,
			"workbench zk-lock: the guardian of COMMAND died (%s); its group "
			"was killed\n",
			WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "?");
		guard_fallback(&g);
	}

	if (zklock_status(l) == ZKLOCK_LOST)
		lost = 1;
	int rc = zklock_release(l);
	if (rc != 0 && !lost)
		fprintf(stderr, "workbench zk-lock: release: %s\n", zklock_message(l));
	if (lost) {
		fprintf(stderr,
			"workbench zk-lock: COMMAND's process group was stopped (SIGTERM, "
			"SIGKILL after %g s) because the lock was lost\n",
			(double)o->kill_after_ms / 1000.0);
		return ZKL_EXIT_LOST;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
}

/* Reads and checks the options.  Returns -1 to go on, or EXIT_USAGE
 * (message printed). */
static int read_opts(const struct args *a, struct zkl_opts *o)
{
	const struct command *c = &cmd_zk_lock;
	const char *v;
	*o = (struct zkl_opts){.zk = args_value(a, "--zk"),
			       .path = args_value(a, "--path"),
			       .wait_ms = -1,
			       .session_ms = 10000,
			       .kill_after_ms = ZKL_KILL_GRACE_MS,
			       .cmd = a->argv};
	if ((v = args_value(a, "--wait")) && (o->wait_ms = parse_seconds(v)) < 0)
		return command_usage_error(c, "--wait wants seconds (a number >= 0), got '%s'", v);
	if ((v = args_value(a, "--session-timeout"))) {
		o->session_ms = parse_seconds(v);
		if (o->session_ms < 1 || o->session_ms > 3600000)
			return command_usage_error(
				c, "--session-timeout wants seconds (0.001 to 3600), got '%s'", v);
	}
	if ((v = args_value(a, "--kill-after"))) {
		o->kill_after_ms = parse_seconds(v);
		if (o->kill_after_ms < 0 || o->kill_after_ms > 3600000)
			return command_usage_error(
				c, "--kill-after wants seconds (0 to 3600), got '%s'", v);
	}
	if (!o->zk || !*o->zk)
		return command_usage_error(c, "%s", "--zk HOST:PORT is required");
	char why[256];
	if (zkc_check_hosts(o->zk, why, sizeof why) != 0)
		return command_usage_error(c, "bad --zk '%s': %s", o->zk, why);
	if (!o->path)
		return command_usage_error(c, "%s", "--path /locks/NAME is required");
	size_t pl = strlen(o->path);
	if (pl < 2 || o->path[0] != '/' || o->path[pl - 1] == '/' || strstr(o->path, "//"))
		return command_usage_error(c,
					   "--path must be an absolute ZooKeeper path like "
					   "/locks/NAME, got '%s'",
					   o->path);
	if (a->argc == 0)
		return command_usage_error(c, "%s", "no COMMAND given (put it after --)");
	return -1;
}

/* What one invocation holds; released by run_close. */
struct zkl_run {
	sigset_t mask, old_mask;
	int sfd;
	struct zkc *c;
	struct zklock *l;
	unsigned char before[1024]; /* descriptors open before the client's */
	int have_before;
	int said_waiting; /* test hook state */
};

/* Blocks the signals we handle before any thread exists, so every thread
 * (ours and the ZooKeeper client's) inherits the mask, and opens the
 * signalfd and the wake pipe.  0, or -1 (message printed). */
static int open_signals(struct zkl_run *r)
{
	sigemptyset(&r->mask);
	sigaddset(&r->mask, SIGINT);
	sigaddset(&r->mask, SIGTERM);
	sigaddset(&r->mask, SIGHUP);
	sigaddset(&r->mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &r->mask, &r->old_mask);
	r->have_before = open_fds(r->before, (int)sizeof r->before);
	r->sfd = signalfd(-1, &r->mask, SFD_CLOEXEC);
	if (r->sfd < 0 || pipe2(wake_fd, O_CLOEXEC | O_NONBLOCK) != 0) {
		fprintf(stderr, "workbench zk-lock: signalfd/pipe: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Connects and makes the lock object.  Returns -1 to go on, or the exit
 * code (message printed). */
static int connect_lock(struct zkl_run *r, const struct zkl_opts *o)
{
	zoo_set_debug_level(0); /* our own messages only */
	int connect_ms = o->wait_ms >= 0 && o->wait_ms < 15000
				 ? (o->wait_ms < 1000 ? 1000 : (int)o->wait_ms)
				 : 15000;
	if (zkc_connect(o->zk, (int)o->session_ms, connect_ms, NULL, &r->c) != 0) {
		fprintf(stderr,
			"workbench zk-lock: cannot connect to ZooKeeper at %s within %d ms\n",
			o->zk, connect_ms);
		return EXIT_FAIL;
	}
	if (r->have_before)
		cloexec_new_fds(r->before, (int)sizeof r->before);
	struct zklock_opts lo = {.on_event = on_lock_event,
				 .hooks = {.arg = &r->said_waiting, .watched = test_hook_watched}};
	if (zklock_new(zkc_handle(r->c), o->path, &lo, &r->l) != 0) {
		fprintf(stderr, "workbench zk-lock: bad lock path '%s'\n", o->path);
		return EXIT_USAGE;
	}
	return -1;
}

/* Takes the lock, in a thread so that a signal can cancel the wait.
 * Returns -1 when held, or the exit code (message printed). */
static int acquire(struct zkl_run *r, const struct zkl_opts *o)
{
	struct acquire_job job = {.l = r->l, .wait_ms = (int)o->wait_ms};
	pthread_t th;
	if (pthread_create(&th, NULL, acquire_main, &job) != 0) {
		fprintf(stderr, "workbench zk-lock: cannot start a thread\n");
		return EXIT_FAIL;
	}
	int sig = 0;
	for (;;) {
		int b = next_wake(r->sfd, -1);
		if (b == 'A')
			break;
		if (b == 0x100 + SIGINT || b == 0x100 + SIGTERM || b == 0x100 + SIGHUP) {
			sig = b - 0x100;
			zklock_cancel(r->l);
		}
	}
	pthread_join(th, NULL);
	if (sig) {
		if (job.rc == 0)
			zklock_release(r->l);
		fprintf(stderr, "workbench zk-lock: interrupted while waiting for %s\n", o->path);
		return 128 + sig;
	}
	if (job.rc == WB_EBUSY) {
		fprintf(stderr, "workbench zk-lock: %s is held by another; gave up after %s\n",
			o->path, o->wait_ms == 0 ? "one look (--wait 0)" : "--wait");
		return EXIT_FAIL;
	}
	if (job.rc != 0) {
		fprintf(stderr, "workbench zk-lock: could not take %s: %s (%s)\n", o->path,
			zklock_message(r->l), zklock_status_name(zklock_status(r->l)));
		return EXIT_FAIL;
	}
	return -1;
}

static void run_close(struct zkl_run *r)
{
	zklock_free(r->l);
	zkc_close(r->c);
	if (r->sfd >= 0)
		close(r->sfd);
	for (int k = 0; k < 2; k++)
		if (wake_fd[k] >= 0)
			close(wake_fd[k]);
	sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
}

static int zk_lock(struct app *app, const struct args *args)
{
	(void)app;
	struct zkl_opts o;
	int rc = read_opts(args, &o);
	if (rc >= 0)
		return rc;
	struct zkl_run r = {.sfd = -1};
	if (open_signals(&r) != 0)
		rc = EXIT_FAIL;
	else if ((rc = connect_lock(&r, &o)) < 0 && (rc = acquire(&r, &o)) < 0)
		rc = run_locked(r.l, &o, r.sfd, &r.old_mask, zkc_session_timeout(r.c));
	run_close(&r);
	return rc;
}

const struct command cmd_zk_lock = {
	.name = "zk-lock",
	.args = {.opts = "--zk= --path= --wait= --session-timeout= --kill-after=",
		 .upper = -1,
		 .flags = ARGS_IN_ORDER},
	.usage = "--zk H:P --path /locks/N [--wait S] [--session-timeout S] [--kill-after S] -- "
		 "CMD...",
	.help = "run CMD while holding a ZooKeeper lock (flock(1))",
	.more = more_text,
	.run = zk_lock,
};
