/*
 * test_zkserver.c - the ZooKeeper server launcher and the client helpers
 * against a real server: it answers 'ruok', grants a ~1 s session, the
 * C client's events arrive through the queue, and after stop or kill no
 * JVM of this run is left.  Also the "could not run" messages, and the
 * cache's pruning of unused archives and launcher jars.
 */
#include "base/wb.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkserver.h"
#include "testlib.h"
#include "testlib_zk.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Failure bounds only: passing runs never wait for them. */
#define WAIT_MS		30000
#define LONG_SESSION_MS 30000

static char *run_dir;

static int setup(void **state)
{
	(void)state;
	return testlib_rundir_new(&run_dir);
}

static int teardown(void **state)
{
	(void)state;
	testlib_rundir_free(run_dir);
	run_dir = NULL;
	return 0;
}

/* Live java processes whose command line mentions needle. */
static int java_processes_with(const char *needle)
{
	return testlib_processes_with("java", needle);
}

static void server_answers_and_stops(void **state)
{
	(void)state;
	struct zkserver *s = NULL;
	char *why = NULL;
	assert_int_equal(zkserver_new(run_dir, NULL, &s, &why), 0);
	int rc = zkserver_start(s);
	if (rc)
		fprintf(stderr, "start: %s\n", zkserver_error(s));
	assert_int_equal(rc, 0);
	fprintf(stderr, "# server started in %d ms on %s\n", zkserver_start_ms(s),
		zkserver_connect(s));
	pid_t pid = zkserver_pid(s);
	assert_true(pid > 0);

	char *answer = NULL;
	assert_int_equal(zkserver_four_letter(s, "ruok", &answer), 0);
	assert_string_equal(answer, "imok");
	free(answer);
	assert_int_equal(zkserver_four_letter(s, "srvr", &answer), 0);
	if (!strstr(answer, "Mode: standalone"))
		fprintf(stderr, "srvr: %s\n", answer);
	assert_non_null(strstr(answer, "Mode: standalone"));
	free(answer);

	/* The log is not silent (slf4j found its log4j binding). */
	char *log = NULL;
	size_t len = 0;
	assert_int_equal(wb_read_file(zkserver_log_path(s), &log, &len), 0);
	assert_non_null(strstr(log, "clientPortAddress is 127.0.0.1"));
	free(log);

	/* A client gets the short session we ask for and sees CONNECTED. */
	struct zkc *c = NULL;
	assert_int_equal(zkc_connect(zkserver_connect(s), 1000, WAIT_MS, run_dir, &c), 0);
	assert_int_equal(zkc_session_timeout(c), 1000);
	assert_true(zkc_session_id(c) != 0);
	char hex[ZKC_HEX_LEN];
	assert_true(strncmp(zkc_hex(zkc_session_id(c), hex), "0x", 2) == 0);
	zkc_close(c);

	/* The rest on a long session: a 1 s session's client drops a
	 * connection that is silent for 667 ms, and a loaded machine or a
	 * sanitized build stalls that long (a create then failed with
	 * ZOPERATIONTIMEOUT); after a restart the client must also be back
	 * before the session's timeout runs out. */
	assert_int_equal(zkc_connect(zkserver_connect(s), LONG_SESSION_MS, WAIT_MS, run_dir, &c),
			 0);
	assert_int_equal(zkc_session_timeout(c), LONG_SESSION_MS);
	char path[64];
	int zrc =
		zoo_create(zkc_handle(c), "/t", "x", 1, &ZOO_OPEN_ACL_UNSAFE, 0, path, sizeof path);
	assert_int_equal(zrc, ZOK);
	assert_string_equal(path, "/t");
	zrc = zoo_create(zkc_handle(c), "/t", "x", 1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	assert_string_equal(zkc_err_name(zrc), "ZNODEEXISTS");
	/* A watch set with watch=1 arrives through the queue. */
	struct Stat st;
	assert_int_equal(zoo_exists(zkc_handle(c), "/t", 1, &st), ZOK);
	assert_int_equal(zoo_delete(zkc_handle(c), "/t", -1), ZOK);
	struct zkc_event ev;
	assert_int_equal(zkc_wait_event(c, ZOO_DELETED_EVENT, "/t", WAIT_MS, &ev), 0);
	assert_string_equal(ev.path, "/t");

	/* The server dies: the client goes CONNECTING (no sleeping, the
	 * watcher's event is the signal). */
	assert_int_equal(zkserver_kill(s), 0);
	assert_int_equal(zkserver_pid(s), 0);
	assert_int_equal(zkc_wait_state(c, ZOO_CONNECTING_STATE, WAIT_MS, &ev), 0);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);

	/* Restart on the same directory and port: the session survives
	 * (it is persisted) and the client reconnects. */
	assert_int_equal(zkserver_start(s), 0);
	assert_int_equal(zkc_wait_state(c, ZOO_CONNECTED_STATE, WAIT_MS, &ev), 0);
	zkc_close(c);

	pid = zkserver_pid(s);
	assert_int_equal(zkserver_stop(s), 0);
	assert_int_equal(zkserver_stop(s), WB_ENOENT);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(java_processes_with(zkserver_dir(s)), 0);
	zkserver_free(s);
	free(why);
}

static void free_stops_a_running_server(void **state)
{
	(void)state;
	struct zkserver_opts o = {.name = "zk-free"};
	struct zkserver *s = NULL;
	assert_int_equal(zkserver_new(run_dir, &o, &s, NULL), 0);
	assert_int_equal(zkserver_start(s), 0);
	char *dir = wb_xstrdup(zkserver_dir(s));
	assert_int_equal(java_processes_with(dir), 1);
	zkserver_free(s);
	assert_int_equal(java_processes_with(dir), 0);
	free(dir);
}

static void missing_java_names_the_package(void **state)
{
	(void)state;
	struct testlib_env *env = testlib_env_new();
	char *why = NULL;

	testlib_env_set(env, "JAVA", "/nonexistent/java");
	assert_int_equal(zkserver_check_runtime(&why), WB_EUNAVAIL);
	assert_non_null(strstr(why, "default-jre-headless"));
	free(why);

	testlib_env_set(env, "JAVA", NULL);
	testlib_env_set(env, "PATH", "/nonexistent");
	struct zkserver_opts o = {.name = "zk-nojava"};
	struct zkserver *s = NULL;
	assert_int_equal(zkserver_new(run_dir, &o, &s, NULL), 0);
	assert_int_equal(zkserver_start(s), WB_EUNAVAIL);
	assert_non_null(strstr(zkserver_error(s), "default-jre-headless"));
	assert_int_equal(zkserver_pid(s), 0);
	zkserver_free(s);
	testlib_env_free(env);
}

static void four_letter_to_a_closed_port_fails(void **state)
{
	(void)state;
	struct zkserver *s = NULL;
	struct zkserver_opts o = {.name = "zk-closed"};
	assert_int_equal(zkserver_new(run_dir, &o, &s, NULL), 0);
	char *answer = NULL;
	/* Reserved but nothing listens there. */
	assert_int_equal(zk_four_letter("127.0.0.1", zkserver_port(s), "ruok", 500, &answer),
			 WB_EIO);
	assert_null(answer);
	assert_int_equal(zk_four_letter("127.0.0.1", zkserver_port(s), "toolong", 500, &answer),
			 WB_EINVAL);
	zkserver_free(s);
}

/* The API issue 7 builds on: three members, their server.N lines shared,
 * spawned together and waited for; one leader, two followers. */
static void three_members_form_an_ensemble(void **state)
{
	(void)state;
	struct zkserver *m[3] = {0};
	struct wb_buf lines = {0};
	for (int i = 0; i < 3; i++) {
		struct zkserver_opts o = {.myid = i + 1};
		assert_int_equal(zkserver_new(run_dir, &o, &m[i], NULL), 0);
		assert_non_null(strstr(zkserver_quorum_line(m[i]), "127.0.0.1:"));
		wb_buf_printf(&lines, "%s\n", zkserver_quorum_line(m[i]));
	}
	for (int i = 0; i < 3; i++) {
		zkserver_set_extra_cfg(m[i], lines.data);
		assert_int_equal(zkserver_spawn(m[i]), 0);
	}
	int leaders = 0, followers = 0;
	for (int i = 0; i < 3; i++) {
		int rc = zkserver_wait_ready(m[i]);
		if (rc)
			fprintf(stderr, "member %d: %s\n", i + 1, zkserver_error(m[i]));
		assert_int_equal(rc, 0);
		char *answer = NULL;
		assert_int_equal(zkserver_four_letter(m[i], "srvr", &answer), 0);
		leaders += strstr(answer, "Mode: leader") != NULL;
		followers += strstr(answer, "Mode: follower") != NULL;
		free(answer);
	}
	assert_int_equal(leaders, 1);
	assert_int_equal(followers, 2);
	for (int i = 0; i < 3; i++)
		zkserver_free(m[i]);
	wb_buf_free(&lines);
}

/* Writes "x" to path. */
static void write_x(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs("x", f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Makes path (a file, or a directory with a file in it when dir) with
 * its modification time age_s seconds ago. */
static void cache_file(const char *path, int dir, long long age_s)
{
	if (dir) {
		assert_int_equal(mkdir(path, 0700), 0);
		char *in = wb_xasprintf("%s/l.jar", path);
		write_x(in);
		free(in);
	} else {
		write_x(path);
	}
	struct timespec t[2] = {{.tv_sec = time(NULL) - age_s}, {.tv_sec = time(NULL) - age_s}};
	assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* The cache keeps what is in use and what is not ours, and drops our
 * entries unused for 30 days and our half-written parts older than a
 * day; an entry in use gets its time set. */
static void cache_prunes_what_is_unused(void **state)
{
	(void)state;
	enum { DAY = 86400 };
	char *xdg = wb_xasprintf("%s/xdg", run_dir), *dir = wb_xasprintf("%s/workbench", xdg);
	if (wb_mkdir_p(dir, 0700) != 0)
		fail_msg("cannot make %s: %s", dir, strerror(errno));
	static const struct {
		const char *name;
		int dir;
		long long age_s;
		int kept;
	} files[] = {
		{"zookeeper-cds-deadbeef.jsa", 0, 40 * DAY, 0},
		{"multipeer-00000000.jar", 0, 31 * DAY, 0},
		{"multipeer-11111111.jar", 0, 29 * DAY, 1},
		{"zookeeper-cds-cafe.jsa.99.1.tmp", 0, 2 * DAY, 0},
		{"zookeeper-cds-cafe.jsa.99.2.tmp", 0, 60, 1},
		{"multipeer-22222222.jar.build-AbCdEf", 1, 2 * DAY, 0},
		{"multipeer-33333333.jar.build-AbCdEf", 1, 60, 1},
		{"notes.txt", 0, 400 * DAY, 1},
		{"zookeeper-cds-x.jsa.other", 0, 400 * DAY, 1},
	};
	for (size_t i = 0; i < WB_ARRAY_LEN(files); i++) {
		char *p = wb_xasprintf("%s/%s", dir, files[i].name);
		cache_file(p, files[i].dir, files[i].age_s);
		free(p);
	}
	assert_int_equal(setenv("XDG_CACHE_HOME", xdg, 1), 0);
	/* The first server writes this java's archive at its exit. */
	struct zkserver_opts o1 = {.name = "zk-cache-1"}, o2 = {.name = "zk-cache-2"};
	struct zkserver *s = NULL;
	assert_int_equal(zkserver_new(run_dir, &o1, &s, NULL), 0);
	assert_int_equal(zkserver_start(s), 0);
	zkserver_free(s);
	for (size_t i = 0; i < WB_ARRAY_LEN(files); i++) {
		char *p = wb_xasprintf("%s/%s", dir, files[i].name);
		if ((access(p, F_OK) == 0) != files[i].kept)
			fail_msg("%s: %s", files[i].name, files[i].kept ? "removed" : "kept");
		free(p);
	}
	/* The archive, unused for 10 days, is used again: its access time is
	 * set, its modification time kept. */
	char *jsa = NULL;
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *de; (de = readdir(d)) != NULL;)
		if (!strncmp(de->d_name, "zookeeper-cds-", 14) && strstr(de->d_name, ".jsa") &&
		    !strcmp(strstr(de->d_name, ".jsa"), ".jsa") &&
		    strcmp(de->d_name, files[0].name))
			jsa = wb_xasprintf("%s/%s", dir, de->d_name);
	closedir(d);
	assert_non_null(jsa);
	struct timespec old[2] = {{.tv_sec = time(NULL) - 10 * DAY},
				  {.tv_sec = time(NULL) - 10 * DAY}};
	assert_int_equal(utimensat(AT_FDCWD, jsa, old, 0), 0);
	assert_int_equal(zkserver_new(run_dir, &o2, &s, NULL), 0);
	assert_int_equal(zkserver_start(s), 0);
	zkserver_free(s);
	struct stat st;
	assert_int_equal(stat(jsa, &st), 0);
	assert_true(st.st_atime > time(NULL) - DAY);
	assert_true(st.st_mtime < time(NULL) - 9 * DAY); /* the name's hash may use it */
	unsetenv("XDG_CACHE_HOME");
	free(jsa);
	free(dir);
	free(xdg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(server_answers_and_stops),
		cmocka_unit_test(free_stops_a_running_server),
		cmocka_unit_test(missing_java_names_the_package),
		cmocka_unit_test(four_letter_to_a_closed_port_fails),
		cmocka_unit_test(three_members_form_an_ensemble),
		cmocka_unit_test(cache_prunes_what_is_unused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
