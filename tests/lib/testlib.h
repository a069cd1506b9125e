/*
 * testlib.h - the shared C test library (after libssh's tests/torture.h):
 * a private temporary directory under $TMPDIR, removal of a tree without
 * a shell, environment changes that are put back, a count of live
 * processes by command line, and waits for a condition with a deadline
 * (a poll, or a condition variable on the monotonic clock).
 *
 * It needs only libc and the base layer, so a unit test of a core module
 * links it without the labs.  The ZooKeeper fixtures, which need the
 * harness, are in testlib_zk.h.  It deliberately makes no cmocka
 * assertions: every function returns a code, so it serves setup and
 * teardown functions (which must return, not jump) as well as tests.
 *
 * Skipping: a test that cannot run for a missing dependency exits
 * TESTLIB_EXIT_SKIP; ctest reports it as skipped (tests/CMakeLists.txt
 * sets SKIP_RETURN_CODE on every test).
 */
#ifndef WB_TESTLIB_H
#define WB_TESTLIB_H

#include <pthread.h>
#include <stddef.h>

/* The exit status that ctest counts as "skipped", not passed. */
#define TESTLIB_EXIT_SKIP 77

/* Creates a fresh directory $TMPDIR/wb-<name>-XXXXXX ($TMPDIR unset or
 * empty: /tmp), mode 0700, and writes its path to buf.  Returns 0,
 * WB_ERANGE (the path does not fit in size bytes; nothing was created) or
 * WB_EIO (mkdtemp failed, errno says why).  Remove it with
 * testlib_rmtree. */
int testlib_tmpdir(const char *name, char *buf, size_t size);

/* Removes path and everything below it, like `rm -rf` but in-process:
 * symbolic links are removed, never followed, and nothing outside path is
 * touched.  Returns 0 (also when path does not exist) or WB_EIO when some
 * entry could not be removed (the others are removed all the same). */
int testlib_rmtree(const char *path);

/* A set of environment changes that can be put back. */
struct testlib_env;

/* An empty set; never fails (allocation failure aborts, as wb_xmalloc).
 * Freed (and restored) with testlib_env_free. */
struct testlib_env *testlib_env_new(void);

/* Sets name to value (value NULL: unsets it) in this process's
 * environment.  The first change of a name through env remembers the
 * value it had before (or that it was unset).  Returns 0 or WB_EINVAL
 * (name empty or containing '='). */
int testlib_env_set(struct testlib_env *env, const char *name, const char *value);

/* Puts every variable changed through env back as it was before its first
 * change (set to the old value, or unset), then frees env.  Accepts NULL. */
void testlib_env_free(struct testlib_env *env);

/* How many live processes (zombies excluded) have a command line, its
 * arguments joined by spaces, containing both a and b (b NULL: only a).
 * Reads /proc; a process that ends while it is read is not counted.
 * Cannot fail: an unreadable /proc counts as none. */
int testlib_processes_with(const char *a, const char *b);

/* Calls done(arg) until it returns nonzero, sleeping a short, growing
 * step (1 ms up to 50 ms) between calls, for at most timeout_ms (at least
 * one call is made).  For conditions that send no event (a server's mode,
 * a file appearing).  Returns 0 or WB_EBUSY when the deadline passed. */
int testlib_wait_until(int (*done)(void *arg), void *arg, int timeout_ms);

/* With mu held: waits on cv until done(arg) returns nonzero, or timeout_ms
 * passed.  cv must time out on CLOCK_MONOTONIC (mono_cond_init in
 * base/mono.h, or testlib_cond_init).  done is called with mu held, first
 * before any wait.  Returns 0 or WB_EBUSY; mu is held again on return. */
int testlib_cond_wait_until(pthread_mutex_t *mu, pthread_cond_t *cv, int (*done)(void *arg),
			    void *arg, int timeout_ms);

/* pthread_mutex_init and a monotonic-clock pthread_cond_init, for a pair
 * that testlib_cond_wait_until waits on. */
void testlib_cond_init(pthread_mutex_t *mu, pthread_cond_t *cv);

#endif
