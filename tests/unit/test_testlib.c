/*
 * test_testlib.c - the C test library itself (tests/lib/testlib.c): the
 * temporary directory honours $TMPDIR, tree removal removes everything and
 * never follows a symbolic link out of the tree, environment changes are
 * put back (set, changed twice, unset), and both waits return at once when
 * the condition holds and WB_EBUSY after the deadline when it never does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mono.h"
#include "base/wb.h"
#include "testlib.h"

static void write_file(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("x\n", f);
	fclose(f);
}

static void tmpdir_under_tmpdir_and_rmtree(void **state)
{
	(void)state;
	char outer[256], dir[256];
	assert_int_equal(testlib_tmpdir("outer", outer, sizeof outer), 0);
	struct testlib_env *env = testlib_env_new();
	assert_int_equal(testlib_env_set(env, "TMPDIR", outer), 0);
	assert_int_equal(testlib_tmpdir("inner", dir, sizeof dir), 0);
	testlib_env_free(env);
	char *prefix = wb_xasprintf("%s/wb-inner-", outer);
	assert_int_equal(strncmp(dir, prefix, strlen(prefix)), 0);
	free(prefix);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	/* A tree with a file, a subdirectory, and a link to a file outside. */
	char *keep = wb_xasprintf("%s/keep.txt", outer);
	char *sub = wb_xasprintf("%s/a/b", dir);
	char *file = wb_xasprintf("%s/a/b/f.txt", dir);
	char *link = wb_xasprintf("%s/a/to-keep", dir);
	char *dlink = wb_xasprintf("%s/to-outer", dir);
	write_file(keep);
	assert_int_equal(wb_mkdir_p(sub, 0700), 0);
	write_file(file);
	assert_int_equal(symlink(keep, link), 0);
	assert_int_equal(symlink(outer, dlink), 0);
	assert_int_equal(testlib_rmtree(dir), 0);
	assert_int_equal(lstat(dir, &st), -1);
	assert_int_equal(stat(keep, &st), 0);	  /* not followed */
	assert_int_equal(testlib_rmtree(dir), 0); /* gone already: fine */

	char small[8];
	assert_int_equal(testlib_tmpdir("long-name", small, sizeof small), WB_ERANGE);
	assert_int_equal(testlib_rmtree(outer), 0);
	assert_int_equal(lstat(outer, &st), -1);
	free(keep);
	free(sub);
	free(file);
	free(link);
	free(dlink);
}

static void env_is_put_back(void **state)
{
	(void)state;
	setenv("WB_TESTLIB_A", "before", 1);
	unsetenv("WB_TESTLIB_B");
	struct testlib_env *env = testlib_env_new();
	assert_int_equal(testlib_env_set(env, "WB_TESTLIB_A", "one"), 0);
	assert_int_equal(testlib_env_set(env, "WB_TESTLIB_A", "two"), 0);
	assert_int_equal(testlib_env_set(env, "WB_TESTLIB_B", "new"), 0);
	assert_int_equal(testlib_env_set(env, "WB_TESTLIB_A", NULL), 0);
	assert_int_equal(testlib_env_set(env, "", "x"), WB_EINVAL);
	assert_int_equal(testlib_env_set(env, "A=B", "x"), WB_EINVAL);
	assert_null(getenv("WB_TESTLIB_A"));
	assert_string_equal(getenv("WB_TESTLIB_B"), "new");
	testlib_env_free(env);
	assert_string_equal(getenv("WB_TESTLIB_A"), "before");
	assert_null(getenv("WB_TESTLIB_B"));
	testlib_env_free(NULL);
	unsetenv("WB_TESTLIB_A");
}

static int never(void *arg)
{
	(void)arg;
	return 0;
}

/* Counts its calls; true from the third on. */
static int third_call(void *arg)
{
	int *n = arg;
	return ++*n >= 3;
}

static void poll_wait(void **state)
{
	(void)state;
	int n = 0;
	assert_int_equal(testlib_wait_until(third_call, &n, 10000), 0);
	assert_int_equal(n, 3);
	long long t0 = mono_now_ms();
	assert_int_equal(testlib_wait_until(never, NULL, 30), WB_EBUSY);
	assert_true(mono_now_ms() - t0 >= 30);
}

struct flag {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int set;
};

static int flag_set(void *arg)
{
	return ((struct flag *)arg)->set;
}

static void *set_later(void *arg)
{
	struct flag *f = arg;
	pthread_mutex_lock(&f->mu);
	f->set = 1;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

static void cond_wait(void **state)
{
	(void)state;
	struct flag f = {.set = 0};
	testlib_cond_init(&f.mu, &f.cv);
	pthread_mutex_lock(&f.mu);
	long long t0 = mono_now_ms();
	assert_int_equal(testlib_cond_wait_until(&f.mu, &f.cv, flag_set, &f, 30), WB_EBUSY);
	assert_true(mono_now_ms() - t0 >= 30);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, set_later, &f), 0);
	assert_int_equal(testlib_cond_wait_until(&f.mu, &f.cv, flag_set, &f, 10000), 0);
	pthread_mutex_unlock(&f.mu);
	pthread_join(t, NULL);
	pthread_mutex_destroy(&f.mu);
	pthread_cond_destroy(&f.cv);
}

static void processes_by_command_line(void **state)
{
	(void)state;
	/* This very process: its command line names the test binary. */
	assert_true(testlib_processes_with("test_testlib", NULL) >= 1);
	assert_int_equal(testlib_processes_with("test_testlib", "no-such-word-anywhere-7f3"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tmpdir_under_tmpdir_and_rmtree),
		cmocka_unit_test(env_is_put_back),
		cmocka_unit_test(poll_wait),
		cmocka_unit_test(cond_wait),
		cmocka_unit_test(processes_by_command_line),
	};
	return cmocka_run_group_tests_name("testlib", tests, NULL, NULL);
}
