/*
 * test_zklab.c - `workbench lab run zk-cas --zk HOST:PORT` against a server
 * the test started: the lab passes, works under its own unique base path,
 * removes it afterwards and leaves the ensemble's other nodes alone.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zk_cas_against_a_given_server),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
