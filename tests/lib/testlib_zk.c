/*
 * testlib_zk.c - the ZooKeeper fixtures of testlib_zk.h: run directories
 * and a started server with a direct client, built from the harness
 * (proc, zkserver, zkclient).
 *
 * It deliberately adds no behaviour of its own to the harness (no retry,
 * no other port handling): a test that fails here fails as a lab would.
 */
#include "testlib_zk.h"

#include "base/wb.h"
#include "harness/proc.h"

#include <stdio.h>
#include <stdlib.h>

int testlib_rundir_new(char **out)
{
	*out = NULL;
	int rc = rundir_create(out);
	if (rc)
		fprintf(stderr, "testlib: cannot create a run directory: %s\n", wb_strerror(rc));
	return rc;
}

void testlib_rundir_free(char *dir)
{
	if (!dir)
		return;
	proc_kill_all(dir);
	rundir_remove(dir);
	free(dir);
}

/* Starts z->server in z->run_dir; says why on stderr when it cannot. */
static int start_server(struct testlib_zk *z, const struct zkserver_opts *opts)
{
	char *why = NULL;
	int rc = zkserver_new(z->run_dir, opts, &z->server, &why);
	if (rc) {
		fprintf(stderr, "testlib: zkserver_new: %s\n", why ? why : wb_strerror(rc));
		free(why);
		return rc;
	}
	rc = zkserver_start(z->server);
	if (rc)
		fprintf(stderr, "testlib: cannot start zookeeper: %s\n", zkserver_error(z->server));
	return rc;
}

int testlib_zk_start(const struct zkserver_opts *opts, int session_ms, int timeout_ms,
		     struct testlib_zk **out)
{
	struct testlib_zk *z = wb_xcalloc(1, sizeof *z);
	*out = NULL;
	int rc = testlib_rundir_new(&z->run_dir);
	if (rc)
		goto out;
	rc = start_server(z, opts);
	if (rc)
		goto out;
	if (session_ms > 0) {
		rc = zkc_connect(zkserver_connect(z->server), session_ms, timeout_ms, z->run_dir,
				 &z->client);
		if (rc) {
			fprintf(stderr, "testlib: no session from %s within %d ms: %s\n",
				zkserver_connect(z->server), timeout_ms, wb_strerror(rc));
			goto out;
		}
	}
	*out = z;
	return 0;
out:
	testlib_zk_free(z);
	return rc;
}

void testlib_zk_free(struct testlib_zk *z)
{
	if (!z)
		return;
	zkc_close(z->client);
	zkserver_free(z->server);
	testlib_rundir_free(z->run_dir);
	free(z);
}
