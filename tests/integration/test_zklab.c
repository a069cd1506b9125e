/*
 * test_zklab.c - `workbench lab run zk-cas --zk HOST:PORT` against a server
 * the test started: the lab passes, works under its own unique base path,
 * removes it afterwards and leaves the ensemble's other nodes alone; and
 * (#20 F10) `lab run zk-herd --zk` against a server that allows 10
 * connections per client address says so and could not run (exit 2), both
 * when the server answers `conf` and when that word is not allowed (the
 * refused session is recognised).
 */
#include "base/wb.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkserver.h"
#include "testlib_zk.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void zk_cas_against_a_given_server(void **state)
{
	(void)state;
	struct testlib_zk *zk = NULL;
	assert_int_equal(testlib_zk_start(NULL, 4000, 10000, &zk), 0);
	const char *run_dir = zk->run_dir;
	struct zkserver *s = zk->server;
	struct zkc *c = zk->client;
	assert_int_equal(
		zoo_create(zkc_handle(c), "/keep", "mine", 4, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0),
		ZOK);

	char *cmd = wb_xasprintf("WORKBENCH_RUN_BASE=%s WORKBENCH_DB=%s/progress.db '%s' lab run "
				 "zk-cas --json --zk %s 2>&1",
				 run_dir, run_dir, WB_BIN, zkserver_connect(s));
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[4096];
	int target = 0, verdict = 0, server = 0;
	while (fgets(line, sizeof line, p)) {
		if (strstr(line, "\"key\":\"zk_target\"") && strstr(line, zkserver_connect(s)))
			target = 1;
		if (strstr(line, "\"key\":\"zk_server\""))
			server = 1; /* it must not start its own */
		if (!strncmp(line, "{\"t\":\"verdict\",\"pass\":true", 26))
			verdict = 1;
	}
	int status = pclose(p);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(target);
	assert_true(verdict);
	assert_false(server);

	/* Its base path is gone; our node is untouched. */
	struct Stat st;
	assert_int_equal(zoo_exists(zkc_handle(c), "/workbench", 0, &st), ZNONODE);
	char buf[16];
	int len = sizeof buf;
	assert_int_equal(zoo_get(zkc_handle(c), "/keep", 0, buf, &len, &st), ZOK);
	assert_int_equal(len, 4);
	assert_memory_equal(buf, "mine", 4);

	free(cmd);
	testlib_zk_free(zk);
}

/* Runs `lab run zk-herd --json --zk` against a server started with
 * maxClientCnxns=10 and the extra zoo.cfg text; returns the output and
 * the exit status. */
static char *herd_against_limited_server(const char *extra, int *code)
{
	char *run_dir = NULL;
	assert_int_equal(testlib_rundir_new(&run_dir), 0);
	struct zkserver *s = NULL;
	char *why = NULL;
	if (zkserver_check_runtime(&why) != 0) {
		fprintf(stderr, "skipped: %s\n", why);
		free(why);
		testlib_rundir_free(run_dir);
		skip();
	}
	assert_int_equal(zkserver_new(run_dir, NULL, &s, &why), 0);
	char *cfg = wb_xasprintf("maxClientCnxns=10\n%s", extra);
	zkserver_set_extra_cfg(s, cfg);
	free(cfg);
	assert_int_equal(zkserver_start(s), 0);
	char *cmd = wb_xasprintf("WORKBENCH_RUN_BASE=%s WORKBENCH_DB=%s/progress.db '%s' lab run "
				 "zk-herd --json --zk %s 2>&1",
				 run_dir, run_dir, WB_BIN, zkserver_connect(s));
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct wb_buf out = {0};
	char line[4096];
	while (fgets(line, sizeof line, p))
		wb_buf_puts(&out, line);
	int status = pclose(p);
	assert_true(WIFEXITED(status));
	*code = WEXITSTATUS(status);
	free(cmd);
	zkserver_free(s);
	testlib_rundir_free(run_dir);
	return out.data ? out.data : wb_xstrdup("");
}

static void herd_told_the_server_limit(void **state)
{
	(void)state;
	int code = -1;
	char *out = herd_against_limited_server("", &code);
	if (code != 2 || !strstr(out, "zk-herd opens 65 sessions; the server at 127.0.0.1:") ||
	    !strstr(out, "allows 10 per client address (maxClientCnxns): raise it or run "
			 "without --zk"))
		fail_msg("exit %d, output:\n%s", code, out);
	free(out);
}

static void herd_refused_without_conf(void **state)
{
	(void)state;
	int code = -1;
	char *out = herd_against_limited_server("4lw.commands.whitelist=ruok,srvr\n", &code);
	if (code != 2 || !strstr(out, "zk-herd opens 65 sessions") ||
	    !strstr(out, "and then refused the next") || !strstr(out, "(maxClientCnxns)"))
		fail_msg("exit %d, output:\n%s", code, out);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zk_cas_against_a_given_server),
		cmocka_unit_test(herd_told_the_server_limit),
		cmocka_unit_test(herd_refused_without_conf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
