/*
 * test_zkproxy.c - the fault proxy between the real C client and a real
 * server: handshake session ids, drop-create (ZCONNECTIONLOSS, the node
 * exists, same session), a failed create passing through, cut, hold and
 * ordered release, and an absurd frame length closing the connection.
 * Every wait is on an event (proxy or watcher), never a sleep.
 */
#include "base/wb.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkframe.h"
#include "harness/zk/zkproxy.h"
#include "harness/zk/zkserver.h"
#include "testlib.h"
#include "testlib_zk.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define WAIT_MS 10000

static struct testlib_zk *zk; /* the server, and a client that bypasses the proxy */
static struct zkserver *server;
static struct zkc *direct;
static const char *run_dir;

static int setup(void **state)
{
	(void)state;
	if (testlib_zk_start(NULL, 4000, WAIT_MS, &zk) != 0)
		return -1;
	server = zk->server;
	direct = zk->client;
	run_dir = zk->run_dir;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	testlib_zk_free(zk);
	zk = NULL;
	return 0;
}

/* Completion of an async call: a result and a flag under a mutex. */
struct done {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	int finished;
	int rc;
};

static void stat_done(int rc, const struct Stat *st, const void *data)
{
	(void)st;
	struct done *d = (struct done *)data;
	pthread_mutex_lock(&d->mu);
	d->finished = 1;
	d->rc = rc;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->mu);
}

static void done_init(struct done *d)
{
	memset(d, 0, sizeof *d);
	testlib_cond_init(&d->mu, &d->cond);
}

static int is_finished(void *arg)
{
	return ((struct done *)arg)->finished;
}

/* 1 once the completion ran, 0 after timeout_ms. */
static int done_wait(struct done *d, int timeout_ms)
{
	pthread_mutex_lock(&d->mu);
	int rc = testlib_cond_wait_until(&d->mu, &d->cond, is_finished, d, timeout_ms);
	pthread_mutex_unlock(&d->mu);
	return rc == 0;
}

static int done_finished(struct done *d)
{
	pthread_mutex_lock(&d->mu);
	int f = d->finished;
	pthread_mutex_unlock(&d->mu);
	return f;
}

static void open_via_proxy(struct zkproxy **p, struct zkc **c)
{
	assert_int_equal(zkproxy_new(zkserver_connect(server), p), 0);
	assert_int_equal(zkc_connect(zkproxy_connect(*p), 4000, WAIT_MS, run_dir, c), 0);
	struct zkproxy_event ev;
	assert_int_equal(zkproxy_wait(*p, ZKPROXY_EV_SESSION, WAIT_MS, &ev), 0);
	assert_true(ev.session == zkc_session_id(*c));
}

static void handshake_is_logged(void **state)
{
	(void)state;
	struct zkproxy *p;
	struct zkc *c;
	open_via_proxy(&p, &c);
	struct zkproxy_event ev;
	assert_int_equal(zkproxy_event_get(p, 1, &ev), 0);
	assert_int_equal(ev.kind, ZKPROXY_EV_CONNECT_REQ);
	assert_true(ev.session == 0); /* a new session was asked for */
	assert_non_null(strstr(ev.text, "(new)"));
	zkc_close(c);
	zkproxy_free(p);
}

static void drop_create_reply(void **state)
{
	(void)state;
	assert_int_equal(
		zoo_create(zkc_handle(direct), "/p", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0),
		ZOK);
	struct zkproxy *p;
	struct zkc *c;
	open_via_proxy(&p, &c);
	int64_t session = zkc_session_id(c);
	assert_int_equal(zkproxy_arm_drop_create(p, "/p/n-"), 0);

	/* A create outside the prefix is untouched. */
	assert_int_equal(
		zoo_create(zkc_handle(c), "/p/other", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0),
		ZOK);
	char made[128];
	int rc = zoo_create(zkc_handle(c), "/p/n-", "v", 1, &ZOO_OPEN_ACL_UNSAFE,
			    ZOO_EPHEMERAL | ZOO_SEQUENCE, made, sizeof made);
	assert_string_equal(zkc_err_name(rc), "ZCONNECTIONLOSS");

	struct zkproxy_event match, drop;
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_CREATE_MATCH, WAIT_MS, &match), 0);
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_DROPPED, WAIT_MS, &drop), 0);
	assert_int_equal(match.xid, drop.xid);
	assert_true(drop.zxid > 0);
	assert_int_equal(drop.err, 0);
	assert_true(drop.session == session);
	/* The C client's xids start near time(0), not at 1. */
	assert_true(drop.xid > 1000000000);

	/* Disconnected, then reconnected through the proxy: same session. */
	assert_int_equal(zkc_wait_state(c, ZOO_CONNECTING_STATE, WAIT_MS, NULL), 0);
	assert_int_equal(zkc_wait_state(c, ZOO_CONNECTED_STATE, WAIT_MS, NULL), 0);
	assert_true(zkc_session_id(c) == session);

	/* The create happened: one n- node, owned by this session, created at
	 * the dropped reply's zxid. */
	struct String_vector kids = {0};
	assert_int_equal(zoo_get_children(zkc_handle(direct), "/p", 0, &kids), ZOK);
	int found = 0;
	for (int i = 0; i < kids.count; i++) {
		if (strncmp(kids.data[i], "n-", 2))
			continue;
		found++;
		char *path = wb_xasprintf("/p/%s", kids.data[i]);
		struct Stat st;
		assert_int_equal(zoo_exists(zkc_handle(direct), path, 0, &st), ZOK);
		assert_true(st.ephemeralOwner == session);
		assert_true(st.czxid == drop.zxid);
		free(path);
	}
	deallocate_String_vector(&kids);
	assert_int_equal(found, 1);

	/* Disarmed after one drop: the next create gets its reply. */
	rc = zoo_create(zkc_handle(c), "/p/n-", "v", 1, &ZOO_OPEN_ACL_UNSAFE,
			ZOO_EPHEMERAL | ZOO_SEQUENCE, made, sizeof made);
	assert_int_equal(rc, ZOK);
	zkc_close(c);
	zkproxy_free(p);
}

static void failed_create_passes_and_stays_armed(void **state)
{
	(void)state;
	assert_int_equal(
		zoo_create(zkc_handle(direct), "/q", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0),
		ZOK);
	struct zkproxy *p;
	struct zkc *c;
	open_via_proxy(&p, &c);
	assert_int_equal(zkproxy_arm_drop_create(p, "/q"), 0);
	int rc = zoo_create(zkc_handle(c), "/q", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	assert_string_equal(zkc_err_name(rc), "ZNODEEXISTS");
	struct zkproxy_event ev;
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_CREATE_FAILED, WAIT_MS, &ev), 0);
	assert_int_equal(ev.err, ZNODEEXISTS);
	/* Still armed: the next matching create loses its reply. */
	rc = zoo_create(zkc_handle(c), "/q2", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	assert_string_equal(zkc_err_name(rc), "ZCONNECTIONLOSS");
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_DROPPED, WAIT_MS, &ev), 0);
	zkc_close(c);
	zkproxy_free(p);
}

static void cut_reconnects_same_session(void **state)
{
	(void)state;
	struct zkproxy *p;
	struct zkc *c;
	open_via_proxy(&p, &c);
	int64_t session = zkc_session_id(c);
	assert_int_equal(zkproxy_cut(p), 1);
	struct zkproxy_event ev;
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_CUT, 0, &ev), 0);
	assert_int_equal(zkc_wait_state(c, ZOO_CONNECTING_STATE, WAIT_MS, NULL), 0);
	assert_int_equal(zkc_wait_state(c, ZOO_CONNECTED_STATE, WAIT_MS, NULL), 0);
	assert_true(zkc_session_id(c) == session);
	/* The reconnect's handshake carried the old session id. */
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_CONNECT_REQ, WAIT_MS, &ev), 0);
	assert_true(ev.session == session);
	zkc_close(c);
	zkproxy_free(p);
}

static void hold_then_release_in_order(void **state)
{
	(void)state;
	struct zkproxy *p;
	struct zkc *c;
	open_via_proxy(&p, &c);
	assert_int_equal(zkproxy_hold(p, ZKPROXY_C2S), 0);
	struct done d1, d2;
	done_init(&d1);
	done_init(&d2);
	assert_int_equal(zoo_aexists(zkc_handle(c), "/", 0, stat_done, &d1), ZOK);
	assert_int_equal(zoo_aexists(zkc_handle(c), "/nope", 0, stat_done, &d2), ZOK);
	/* Pings may be held too; collect the two exists requests. */
	int32_t xids[2];
	uint64_t bytes = 0;
	for (int got = 0; got < 2;) {
		struct zkproxy_event h;
		assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_HELD, WAIT_MS, &h), 0);
		if (h.op == ZKOP_EXISTS) {
			xids[got++] = h.xid;
			bytes += h.bytes;
		}
	}
	assert_true(xids[1] > xids[0]);
	/* The server never saw them, so no answer can have come. */
	assert_false(done_finished(&d1));
	assert_false(done_finished(&d2));
	long long released = zkproxy_release(p);
	assert_true(released >= (long long)bytes);
	assert_true(done_wait(&d1, WAIT_MS));
	assert_true(done_wait(&d2, WAIT_MS));
	assert_int_equal(d1.rc, ZOK);
	assert_int_equal(d2.rc, ZNONODE);
	struct zkproxy_event rel;
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_RELEASED, 0, &rel), 0);
	zkc_close(c);
	zkproxy_free(p);
}

static void absurd_length_closes(void **state)
{
	(void)state;
	struct zkproxy *p;
	assert_int_equal(zkproxy_new(zkserver_connect(server), &p), 0);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)zkproxy_port(p));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
	unsigned char bad[4] = {0x7f, 0xff, 0xff, 0xff};
	assert_int_equal(send(fd, bad, 4, MSG_NOSIGNAL), 4);
	struct zkproxy_event ev;
	assert_int_equal(zkproxy_wait(p, ZKPROXY_EV_BAD_FRAME, WAIT_MS, &ev), 0);
	assert_true(ev.bytes == 0x7fffffffu);
	char buf[16];
	assert_int_equal(recv(fd, buf, sizeof buf, 0), 0); /* closed by the proxy */
	close(fd);
	zkproxy_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handshake_is_logged),
		cmocka_unit_test(drop_create_reply),
		cmocka_unit_test(failed_create_passes_and_stays_armed),
		cmocka_unit_test(cut_reconnects_same_session),
		cmocka_unit_test(hold_then_release_in_order),
		cmocka_unit_test(absurd_length_closes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
