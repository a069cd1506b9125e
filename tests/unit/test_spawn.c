/* test_spawn.c - spawn_fork: the child runs in its own process group when
 * asked (seen from both sides), carries the death signal, has stdout and
 * stderr on the given descriptor and stdin on /dev/null; without options
 * it stays in the parent's group with no death signal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "base/wb.h"
#include "base/spawn.h"

/* What the child saw, written to its stdout as one line. */
struct seen {
	long pgrp, pid, pdeathsig, stdin_read;
};

/* Child side: reports pid, group, death signal and one read of stdin on
 * stdout, then exits 0. */
static void child_report(void)
{
	int sig = 0;
	prctl(PR_GET_PDEATHSIG, &sig);
	char b;
	ssize_t n = read(0, &b, 1);
	printf("%ld %ld %d %zd\n", (long)getpgrp(), (long)getpid(), sig, n);
	fflush(stdout);
	_exit(0);
}

/* Forks with o (out_fd set to a pipe here), reads the child's line. */
static void run_child(struct spawn_opts *o, struct seen *s, pid_t *child)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	o->out_fd = fds[1];
	pid_t pid = -1;
	assert_int_equal(spawn_fork(o, &pid), 0);
	if (pid == 0)
		child_report();
	close(fds[1]);
	*child = pid;
	if (o->new_group)
		assert_int_equal(getpgid(pid), pid); /* set by the parent too */
	FILE *f = fdopen(fds[0], "r");
	assert_non_null(f);
	assert_int_equal(
		fscanf(f, "%ld %ld %ld %ld", &s->pgrp, &s->pid, &s->pdeathsig, &s->stdin_read), 4);
	fclose(f);
	int status = -1;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_own_group_and_death_signal(void **state)
{
	(void)state;
	struct spawn_opts o = {.new_group = 1, .death_signal = SIGKILL, .stdin_null = 1};
	struct seen s;
	pid_t child;
	run_child(&o, &s, &child);
	assert_int_equal(s.pid, child);
	assert_int_equal(s.pgrp, child); /* its own group */
	assert_int_not_equal(s.pgrp, getpgrp());
	assert_int_equal(s.pdeathsig, SIGKILL);
	assert_int_equal(s.stdin_read, 0); /* /dev/null: end of file at once */
}

static void test_plain_child_keeps_group(void **state)
{
	(void)state;
	struct spawn_opts o = {.death_signal = SIGTERM};
	struct seen s;
	pid_t child;
	run_child(&o, &s, &child);
	assert_int_equal(s.pgrp, getpgrp());
	assert_int_equal(s.pdeathsig, SIGTERM);
}

static void test_no_options(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = -1;
	assert_int_equal(spawn_fork(NULL, &pid), 0);
	if (pid == 0) {
		int sig = -1;
		prctl(PR_GET_PDEATHSIG, &sig);
		_exit(sig == 0 && getpgrp() == getpgid(getppid()) ? 0 : 1);
	}
	close(fds[0]);
	close(fds[1]);
	int status = -1;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_group_and_death_signal),
		cmocka_unit_test(test_plain_child_keeps_group),
		cmocka_unit_test(test_no_options),
	};
	return cmocka_run_group_tests_name("spawn", tests, NULL, NULL);
}
