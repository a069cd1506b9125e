/*
 * testlib.c - the shared C test library (testlib.h): temporary
 * directories, tree removal with nftw, restorable environment changes,
 * processes by command line, and deadline waits.
 *
 * It deliberately has no cmocka calls and no knowledge of the harness
 * (testlib_zk.c has the ZooKeeper fixtures); it is not thread-safe where
 * libc is not (setenv, nftw's callback state).
 */
#define _XOPEN_SOURCE 700 /* nftw, FTW_PHYS */

#include "testlib.h"

#include "base/mono.h"
#include "base/wb.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int testlib_tmpdir(const char *name, char *buf, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = "/tmp";
	int n = snprintf(buf, size, "%s/wb-%s-XXXXXX", tmp, name);
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return WB_ERANGE;
	}
	if (!mkdtemp(buf))
		return WB_EIO;
	return 0;
}

/* nftw's callback takes no argument: the failure count of the walk in
 * progress. */
static int rmtree_failures;

static int rmtree_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0 && errno != ENOENT)
		rmtree_failures++;
	return 0; /* go on: remove as much as can be removed */
}

int testlib_rmtree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : WB_EIO;
	rmtree_failures = 0;
	if (nftw(path, rmtree_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return WB_EIO;
	return rmtree_failures ? WB_EIO : 0;
}

/* One remembered variable: its value before the first change. */
struct env_saved {
	char *name;
	char *old; /* NULL: it was unset */
};

struct testlib_env {
	struct env_saved *v;
	size_t n;
};

struct testlib_env *testlib_env_new(void)
{
	return wb_xcalloc(1, sizeof(struct testlib_env));
}

int testlib_env_set(struct testlib_env *env, const char *name, const char *value)
{
	if (!name || !*name || strchr(name, '='))
		return WB_EINVAL;
	size_t i = 0;
	while (i < env->n && strcmp(env->v[i].name, name) != 0)
		i++;
	if (i == env->n) {
		env->v = wb_xrealloc(env->v, (env->n + 1) * sizeof *env->v);
		const char *old = getenv(name);
		env->v[i].name = wb_xstrdup(name);
		env->v[i].old = old ? wb_xstrdup(old) : NULL;
		env->n++;
	}
	int rc = value ? setenv(name, value, 1) : unsetenv(name);
	return rc == 0 ? 0 : WB_EINVAL;
}

void testlib_env_free(struct testlib_env *env)
{
	if (!env)
		return;
	for (size_t i = env->n; i-- > 0;) {
		if (env->v[i].old)
			setenv(env->v[i].name, env->v[i].old, 1);
		else
			unsetenv(env->v[i].name);
		free(env->v[i].name);
		free(env->v[i].old);
	}
	free(env->v);
	free(env);
}

/* 1 when pid's command line contains a and b (b NULL: a only). */
static int cmdline_has(const char *pid, const char *a, const char *b)
{
	char *path = wb_xasprintf("/proc/%s/cmdline", pid);
	char *text = NULL;
	size_t len = 0;
	int has = 0;
	if (wb_read_file(path, &text, &len) == 0 && len > 0) {
		for (size_t i = 0; i + 1 < len; i++)
			if (text[i] == '\0')
				text[i] = ' ';
		has = strstr(text, a) && (!b || strstr(text, b));
	}
	free(text);
	free(path);
	return has;
}

int testlib_processes_with(const char *a, const char *b)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			n += cmdline_has(e->d_name, a, b); /* a zombie's cmdline is empty */
	closedir(d);
	return n;
}

int testlib_wait_until(int (*done)(void *arg), void *arg, int timeout_ms)
{
	long long deadline = mono_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	long step_ms = 1;
	for (;;) {
		if (done(arg))
			return 0;
		long long left = deadline - mono_now_ms();
		if (left <= 0)
			return WB_EBUSY;
		long ms = step_ms < left ? step_ms : (long)left;
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
		if (step_ms < 50)
			step_ms *= 2;
	}
}

int testlib_cond_wait_until(pthread_mutex_t *mu, pthread_cond_t *cv, int (*done)(void *arg),
			    void *arg, int timeout_ms)
{
	struct timespec ts;
	mono_deadline(&ts, timeout_ms);
	while (!done(arg))
		if (pthread_cond_timedwait(cv, mu, &ts) == ETIMEDOUT)
			return done(arg) ? 0 : WB_EBUSY;
	return 0;
}

void testlib_cond_init(pthread_mutex_t *mu, pthread_cond_t *cv)
{
	pthread_mutex_init(mu, NULL);
	mono_cond_init(cv);
}
