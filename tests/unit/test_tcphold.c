/*
 * test_tcphold.c - the raw TCP relay on real loopback sockets: bytes pass
 * both ways; a hold buffers one direction (nothing reaches the receiver)
 * while the other keeps flowing; release delivers the held bytes in order
 * and then a held end of stream; cut closes both sides; sever closes the
 * accepted side only and keeps the upstream side open and silent; refuse
 * closes new connections at once; with connect retry a connection waits
 * (buffering) for an upstream that starts listening later, and gives up
 * after its deadline; the counters say what happened.  No ZooKeeper.
 */
#include "base/wb.h"
#include "harness/tcphold.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A listening socket on 127.0.0.1; *port receives its port. */
static int listen_any(int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof a;
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static int connect_to(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((unsigned short)port);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
	return fd;
}

/* Reads exactly n bytes (5 s deadline per chunk). */
static void read_exact(int fd, char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		struct pollfd p = {fd, POLLIN, 0};
		assert_int_equal(poll(&p, 1, 5000), 1);
		ssize_t r = read(fd, buf + got, n - got);
		assert_true(r > 0);
		got += (size_t)r;
	}
}

/* 1 when fd has something to read (data, EOF or error) right now. */
static int readable_now(int fd)
{
	struct pollfd p = {fd, POLLIN, 0};
	return poll(&p, 1, 0) == 1;
}

/* Waits (5 s) for EOF or a reset on fd. */
static void expect_end(int fd)
{
	struct pollfd p = {fd, POLLIN, 0};
	assert_int_equal(poll(&p, 1, 5000), 1);
	char c;
	ssize_t r = read(fd, &c, 1);
	assert_true(r == 0 || (r < 0 && errno == ECONNRESET));
}

static void write_all(int fd, const char *s)
{
	size_t n = strlen(s);
	assert_int_equal(write(fd, s, n), (ssize_t)n);
}

struct pair {
	int lfd, up_port;
	struct tcphold *h;
	int c, s; /* client end (through the relay), server end (upstream) */
};

static void pair_open(struct pair *p)
{
	p->lfd = listen_any(&p->up_port);
	assert_int_equal(tcphold_new(p->up_port, "test", &p->h), 0);
	assert_int_equal(tcphold_upstream_port(p->h), p->up_port);
	assert_string_equal(tcphold_name(p->h), "test");
	p->c = connect_to(tcphold_port(p->h));
	p->s = accept(p->lfd, NULL, NULL);
	assert_true(p->s >= 0);
}

static void pair_close(struct pair *p)
{
	if (p->c >= 0)
		close(p->c);
	if (p->s >= 0)
		close(p->s);
	tcphold_free(p->h);
	close(p->lfd);
}

static void relays_both_ways(void **state)
{
	(void)state;
	struct pair p;
	pair_open(&p);
	char buf[16] = {0};
	write_all(p.c, "hello");
	read_exact(p.s, buf, 5);
	assert_memory_equal(buf, "hello", 5);
	write_all(p.s, "world!");
	read_exact(p.c, buf, 6);
	assert_memory_equal(buf, "world!", 6);
	struct tcphold_stats st;
	tcphold_stats(p.h, &st);
	assert_int_equal(st.accepted, 1);
	assert_int_equal(st.open, 1);
	assert_int_equal(st.forwarded[0], 5);
	assert_int_equal(st.forwarded[1], 6);
	assert_int_equal(st.held_total[0] + st.held_total[1], 0);
	pair_close(&p);
}

static void hold_buffers_one_direction_and_release_keeps_order(void **state)
{
	(void)state;
	struct pair p;
	pair_open(&p);
	assert_int_equal(tcphold_hold(p.h, 0), WB_EINVAL);
	assert_int_equal(tcphold_hold(p.h, TCPHOLD_DOWN), 0);
	write_all(p.s, "abc");
	uint64_t seen = 0;
	struct tcphold_stats st;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_held_down_over, &seen, 5000, &st), 0);
	/* Held bytes are in the relay's buffer: nothing can have arrived. */
	assert_false(readable_now(p.c));
	/* The other direction still flows. */
	char buf[16] = {0};
	write_all(p.c, "up");
	read_exact(p.s, buf, 2);
	assert_memory_equal(buf, "up", 2);
	write_all(p.s, "def");
	seen = 3;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_held_down_over, &seen, 5000, &st), 0);
	assert_int_equal(st.held[1], 6);
	assert_int_equal(st.hold_dirs, TCPHOLD_DOWN);
	assert_false(readable_now(p.c));
	assert_int_equal(tcphold_release(p.h), 6);
	read_exact(p.c, buf, 6);
	assert_memory_equal(buf, "abcdef", 6);
	tcphold_stats(p.h, &st);
	assert_int_equal(st.held[1], 0);
	assert_int_equal(st.released[1], 6);
	assert_int_equal(st.held_total[1], 6);
	assert_int_equal(st.hold_dirs, 0);
	/* After release, bytes flow directly again. */
	write_all(p.s, "g");
	read_exact(p.c, buf, 1);
	assert_int_equal(buf[0], 'g');
	pair_close(&p);
}

static void held_end_of_stream_waits_for_release(void **state)
{
	(void)state;
	struct pair p;
	pair_open(&p);
	assert_int_equal(tcphold_hold(p.h, TCPHOLD_BOTH), 0);
	write_all(p.s, "xyz");
	shutdown(p.s, SHUT_WR);
	uint64_t seen = 2;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_held_down_over, &seen, 5000, NULL), 0);
	write_all(p.c, "q");
	seen = 0;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_held_up_over, &seen, 5000, NULL), 0);
	assert_false(readable_now(p.c)); /* neither the bytes nor the end */
	assert_false(readable_now(p.s));
	assert_int_equal(tcphold_release(p.h), 4);
	char buf[8] = {0};
	read_exact(p.c, buf, 3);
	assert_memory_equal(buf, "xyz", 3);
	expect_end(p.c);
	read_exact(p.s, buf, 1);
	assert_int_equal(buf[0], 'q');
	/* The client ends too: the relay closes the connection. */
	shutdown(p.c, SHUT_WR);
	expect_end(p.s);
	int zero = 0;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_open_at_most, &zero, 5000, NULL), 0);
	pair_close(&p);
}

static void cut_and_refuse(void **state)
{
	(void)state;
	struct pair p;
	pair_open(&p);
	assert_int_equal(tcphold_hold(p.h, TCPHOLD_DOWN), 0);
	write_all(p.s, "lost");
	uint64_t seen = 0;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_held_down_over, &seen, 5000, NULL), 0);
	assert_int_equal(tcphold_cut(p.h), 1);
	expect_end(p.c);
	expect_end(p.s);
	struct tcphold_stats st;
	tcphold_stats(p.h, &st);
	assert_int_equal(st.cut, 1);
	assert_int_equal(st.open, 0);
	assert_int_equal(st.discarded[1], 4);
	tcphold_release(p.h);

	/* Refuse: accepted, then closed at once; the upstream sees nothing. */
	assert_int_equal(tcphold_refuse(p.h, 1), 0);
	int c2 = connect_to(tcphold_port(p.h));
	int one = 1;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_accepted_over, &one, 5000, &st), 0);
	assert_int_equal(st.refused, 1);
	expect_end(c2);
	close(c2);
	assert_false(readable_now(p.lfd));
	/* And back to normal. */
	assert_int_equal(tcphold_refuse(p.h, 0), 0);
	int c3 = connect_to(tcphold_port(p.h));
	int s3 = accept(p.lfd, NULL, NULL);
	assert_true(s3 >= 0);
	write_all(c3, "ok");
	char buf[4];
	read_exact(s3, buf, 2);
	assert_memory_equal(buf, "ok", 2);
	close(c3);
	close(s3);
	pair_close(&p);
}

static int discarded_down_over(const struct tcphold_stats *st, void *arg)
{
	return st->discarded[1] > *(const uint64_t *)arg;
}

static void sever_leaves_the_upstream_open_and_silent(void **state)
{
	(void)state;
	struct pair p;
	pair_open(&p);
	assert_int_equal(tcphold_refuse(p.h, 1), 0);
	assert_int_equal(tcphold_sever(p.h), 1);
	expect_end(p.c); /* the accepted side sees the end at once */
	struct tcphold_stats st;
	tcphold_stats(p.h, &st);
	assert_int_equal(st.open, 1);
	assert_int_equal(st.half_open, 1);
	assert_int_equal(st.severed, 1);
	/* The upstream can still write; the bytes go nowhere, and it hears
	 * neither data nor an end. */
	write_all(p.s, "ping");
	uint64_t seen = 3;
	assert_int_equal(tcphold_wait(p.h, discarded_down_over, &seen, 5000, NULL), 0);
	assert_false(readable_now(p.s));
	assert_int_equal(tcphold_sever(p.h), 0); /* already severed */
	/* When the upstream ends too, the connection is gone. */
	close(p.s);
	p.s = -1;
	int zero = 0;
	assert_int_equal(tcphold_wait(p.h, tcphold_pred_open_at_most, &zero, 5000, &st), 0);
	assert_int_equal(st.half_open, 0);
	pair_close(&p);
}

static void upstream_refusal_closes_the_client(void **state)
{
	(void)state;
	int port;
	int lfd = listen_any(&port);
	close(lfd); /* nobody listens there now */
	struct tcphold *h = NULL;
	assert_int_equal(tcphold_new(0, NULL, &h), WB_EINVAL);
	assert_null(h);
	assert_int_equal(tcphold_new(port, NULL, &h), 0);
	int c = connect_to(tcphold_port(h));
	expect_end(c);
	close(c);
	struct tcphold_stats st;
	tcphold_stats(h, &st);
	assert_int_equal(st.upstream_failed, 1);
	tcphold_free(h);
	tcphold_free(NULL);
}

/* Listens on 127.0.0.1:port (a port that was free a moment ago). */
static int listen_on(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((unsigned short)port);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 8), 0);
	return fd;
}

static int waiting_none(const struct tcphold_stats *st, void *arg)
{
	(void)arg;
	return st->waiting_upstream == 0 && st->open == 1;
}

static void connect_retry_waits_for_the_upstream(void **state)
{
	(void)state;
	int port;
	close(listen_any(&port)); /* free, nobody listens yet */
	struct tcphold *h = NULL;
	assert_int_equal(tcphold_new(port, "late", &h), 0);
	assert_int_equal(tcphold_set_connect_retry(h, -1), WB_EINVAL);
	assert_int_equal(tcphold_set_connect_retry(h, 30000), 0);
	int c = connect_to(tcphold_port(h));
	write_all(c, "early");
	int zero = 0;
	struct tcphold_stats st;
	/* The connection is accepted and kept, waiting for its upstream. */
	assert_int_equal(tcphold_wait(h, tcphold_pred_accepted_over, &zero, 5000, &st), 0);
	tcphold_stats(h, &st);
	assert_int_equal(st.waiting_upstream, 1);
	assert_false(readable_now(c));
	/* The upstream comes up: the buffered bytes arrive, in order. */
	int lfd = listen_on(port);
	int s = accept(lfd, NULL, NULL);
	assert_true(s >= 0);
	char buf[8] = {0};
	read_exact(s, buf, 5);
	assert_memory_equal(buf, "early", 5);
	assert_int_equal(tcphold_wait(h, waiting_none, NULL, 5000, &st), 0);
	write_all(s, "late");
	read_exact(c, buf, 4);
	assert_memory_equal(buf, "late", 4);
	close(s);
	close(c);
	close(lfd);
	tcphold_free(h);

	/* Nobody ever listens: the connection is closed at the deadline. */
	close(listen_any(&port));
	assert_int_equal(tcphold_new(port, NULL, &h), 0);
	assert_int_equal(tcphold_set_connect_retry(h, 200), 0);
	c = connect_to(tcphold_port(h));
	expect_end(c);
	close(c);
	tcphold_stats(h, &st);
	assert_int_equal(st.upstream_failed, 1);
	assert_int_equal(st.open, 0);
	tcphold_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(relays_both_ways),
		cmocka_unit_test(hold_buffers_one_direction_and_release_keeps_order),
		cmocka_unit_test(held_end_of_stream_waits_for_release),
		cmocka_unit_test(cut_and_refuse),
		cmocka_unit_test(sever_leaves_the_upstream_open_and_silent),
		cmocka_unit_test(upstream_refusal_closes_the_client),
		cmocka_unit_test(connect_retry_waits_for_the_upstream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
