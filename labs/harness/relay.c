/*
 * relay.c - the poll loop, command channel, sockets and buffers shared by
 * tcphold.c and zkproxy.c (see relay.h for the threading contract).
 */
#define _GNU_SOURCE /* accept4, pipe2 */
#include "harness/relay.h"
#include "base/mono.h"
#include "base/wb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void relay_bytes_append(struct relay_bytes *b, const void *src, size_t n)
{
	if (b->off && b->off == b->len)
		b->off = b->len = 0;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		b->d = wb_xrealloc(b->d, cap);
		b->cap = cap;
	}
	memcpy(b->d + b->len, src, n);
	b->len += n;
}

size_t relay_bytes_pending(const struct relay_bytes *b)
{
	return b->len - b->off;
}

void relay_bytes_free(struct relay_bytes *b)
{
	free(b->d);
	memset(b, 0, sizeof *b);
}

size_t relay_bytes_move(struct relay_bytes *dst, struct relay_bytes *src)
{
	size_t n = relay_bytes_pending(src);
	if (n) {
		relay_bytes_append(dst, src->d + src->off, n);
		src->off = src->len = 0;
	}
	return n;
}

int relay_bytes_flush(int fd, struct relay_bytes *b, uint64_t *written)
{
	while (fd >= 0 && relay_bytes_pending(b)) {
		ssize_t n = send(fd, b->d + b->off, relay_bytes_pending(b), MSG_NOSIGNAL);
		if (n > 0) {
			b->off += (size_t)n;
			if (written)
				*written += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return -1;
	}
	return 0;
}

void relay_nodelay(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int relay_accept(int lfd)
{
	return accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int relay_connect(const struct sockaddr_in *a)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)a, sizeof *a) != 0) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	relay_nodelay(fd);
	return fd;
}

void relay_conn_close(struct relay_conn *c)
{
	if (c->afd >= 0)
		close(c->afd);
	if (c->ufd >= 0)
		close(c->ufd);
	c->afd = c->ufd = -1;
	c->dead = 1;
}

void relay_init(struct relay *r, const struct relay_ops *ops, void *self)
{
	r->ops = ops;
	r->self = self;
	r->lfd = -1;
	r->wake[0] = r->wake[1] = -1;
	pthread_mutex_init(&r->mu, NULL);
	pthread_mutex_init(&r->cmd_mu, NULL);
	mono_cond_init(&r->cond);
}

int relay_open(struct relay *r)
{
	if (pipe2(r->wake, O_CLOEXEC | O_NONBLOCK) != 0)
		return WB_EIO;
	r->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (r->lfd < 0)
		return WB_EIO;
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof a;
	if (bind(r->lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(r->lfd, 64) != 0 ||
	    getsockname(r->lfd, (struct sockaddr *)&a, &len) != 0)
		return WB_EIO;
	r->port = ntohs(a.sin_port);
	return 0;
}

void relay_add_conn(struct relay *r, struct relay_conn *c)
{
	if (r->nconns == r->conncap) {
		r->conncap = r->conncap ? 2 * r->conncap : 8;
		r->conns = wb_xrealloc(r->conns, r->conncap * sizeof *r->conns);
	}
	r->conns[r->nconns++] = c;
}

static void *relay_main(void *arg)
{
	struct relay *r = arg;
	const struct relay_ops *ops = r->ops;
	struct pollfd *pfd = NULL;
	size_t pcap = 0;
	pthread_mutex_lock(&r->mu);
	while (!r->stopping) {
		int wait = ops->prepare ? ops->prepare(r->self) : -1;
		size_t n = 2 + 2 * r->nconns;
		if (n > pcap) {
			pcap = n * 2;
			pfd = wb_xrealloc(pfd, pcap * sizeof *pfd);
		}
		pfd[0] = (struct pollfd){r->wake[0], POLLIN, 0};
		pfd[1] = (struct pollfd){r->lfd, POLLIN, 0};
		for (size_t i = 0; i < r->nconns; i++)
			ops->events(r->self, r->conns[i], &pfd[2 + 2 * i]);
		pthread_mutex_unlock(&r->mu);
		int pr = poll(pfd, n, wait);
		pthread_mutex_lock(&r->mu);
		if (pr < 0)
			continue; /* EINTR */
		if (pfd[0].revents) {
			char drain[64];
			while (read(r->wake[0], drain, sizeof drain) > 0)
				;
		}
		if (r->cmd != RELAY_CMD_NONE) {
			int cmd = r->cmd;
			r->cmd = RELAY_CMD_NONE;
			if (cmd == RELAY_CMD_STOP)
				r->stopping = 1;
			else
				r->cmd_result = ops->command(r->self, cmd);
			if (ops->changed)
				ops->changed(r->self);
			r->done_seq = r->cmd_seq;
			pthread_cond_broadcast(&r->cond);
			if (r->stopping)
				break;
		}
		size_t polled = (n - 2) / 2;
		for (size_t i = 0; i < polled; i++) {
			struct relay_conn *c = r->conns[i];
			if (!c->dead)
				ops->serve(r->self, c, pfd[2 + 2 * i].revents,
					   pfd[3 + 2 * i].revents);
		}
		if (pfd[1].revents & POLLIN)
			ops->accept(r->self);
		size_t keep = 0;
		for (size_t i = 0; i < r->nconns; i++) {
			if (r->conns[i]->dead)
				ops->conn_free(r->conns[i]);
			else
				r->conns[keep++] = r->conns[i];
		}
		r->nconns = keep;
		if (ops->changed)
			ops->changed(r->self);
	}
	pthread_mutex_unlock(&r->mu);
	free(pfd);
	return NULL;
}

int relay_start(struct relay *r)
{
	if (pthread_create(&r->thread, NULL, relay_main, r) != 0)
		return WB_EIO;
	r->thread_started = 1;
	return 0;
}

long long relay_run(struct relay *r, int cmd)
{
	pthread_mutex_lock(&r->cmd_mu);
	pthread_mutex_lock(&r->mu);
	r->cmd = cmd;
	uint64_t seq = ++r->cmd_seq;
	ssize_t w = write(r->wake[1], "x", 1);
	(void)w;
	while (r->done_seq < seq)
		pthread_cond_wait(&r->cond, &r->mu);
	long long res = r->cmd_result;
	pthread_mutex_unlock(&r->mu);
	pthread_mutex_unlock(&r->cmd_mu);
	return res;
}

void relay_fini(struct relay *r)
{
	if (r->thread_started) {
		relay_run(r, RELAY_CMD_STOP);
		pthread_join(r->thread, NULL);
	}
	for (size_t i = 0; i < r->nconns; i++) {
		relay_conn_close(r->conns[i]);
		r->ops->conn_free(r->conns[i]);
	}
	free(r->conns);
	if (r->lfd >= 0)
		close(r->lfd);
	if (r->wake[0] >= 0)
		close(r->wake[0]);
	if (r->wake[1] >= 0)
		close(r->wake[1]);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->mu);
	pthread_mutex_destroy(&r->cmd_mu);
}
