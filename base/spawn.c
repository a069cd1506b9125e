/*
 * spawn.c - fork with a process group, a death signal and redirections
 * (see spawn.h).  It does not exec, wait or record anything.
 */
#include "base/spawn.h"
#include "base/wb.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Runs in the child: applies o; returns only when the child may go on. */
static void child_setup(const struct spawn_opts *o, pid_t parent)
{
	if (o->new_group)
		setpgid(0, 0);
	if (o->death_signal) {
		prctl(PR_SET_PDEATHSIG, o->death_signal);
		/* The parent may have died before prctl: then no signal
		 * will ever come. */
		if (getppid() != parent)
			_exit(SPAWN_ORPHAN_EXIT);
	}
	if (o->stdin_null) {
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0 && in != 0) {
			dup2(in, 0);
			close(in);
		}
	}
	if (o->out_fd >= 0) {
		dup2(o->out_fd, 1);
		dup2(o->out_fd, 2);
	}
}

int spawn_fork(const struct spawn_opts *o, pid_t *pid)
{
	fflush(NULL);
	pid_t parent = getpid();
	pid_t p = fork();
	if (p < 0)
		return WB_EIO;
	if (p == 0) {
		if (o)
			child_setup(o, parent);
		*pid = 0;
		return 0;
	}
	if (o && o->new_group)
		setpgid(p, p); /* also from the parent: no window before exec */
	*pid = p;
	return 0;
}
