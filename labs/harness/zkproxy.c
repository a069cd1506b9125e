/*
 * zkproxy.c - the ZooKeeper fault proxy (see zkproxy.h).
 *
 * Threading: one proxy thread runs a poll() loop; it holds p->mu whenever
 * it touches state (between polls), never while blocked in poll().  The
 * lab's thread sets simple state (arming, holding) under p->mu directly;
 * anything that does socket I/O (cut, release, stop) is posted as a
 * command, the proxy thread is woken through a pipe, and the caller waits
 * on p->cond until the thread acknowledges it, so control calls are
 * synchronous and no fd is closed under a poll() in another thread.
 *
 * Invariants:
 *  - Frames are forwarded whole and in order per direction; a held frame
 *    goes to the held buffer, and nothing bypasses it while held, so a
 *    release appends it to the output in the original order.
 *  - conns[] is only shrunk at the end of a loop iteration, so poll
 *    indexes stay valid while an iteration runs.
 *  - The drop state refers to one connection and one xid: it is cleared
 *    when that reply is dropped and re-armed if that connection dies first.
 */
#define _GNU_SOURCE /* accept4, pipe2 */
#include "harness/zkproxy.h"
#include "core/wb.h"
#include "harness/report.h"
#include "harness/zkframe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Stop reading from a side while this much waits to be written to (or is
 * held for) the other: a slow peer must not make the proxy grow without
 * bound. */
#define BACKLOG_LIMIT (8u * 1024u * 1024u)
#define READ_CHUNK    65536

struct bytes {
	unsigned char *d; /* data[off..len) is pending */
	size_t off, len, cap;
};

struct dir_state {
	struct zkframe_parser parser; /* frames arriving on this direction */
	int handshake_seen;	      /* the connect frame went by */
	struct bytes out;	      /* to write to the destination */
	struct bytes held;	      /* frames held, in order */
};

struct conn {
	int id;		      /* 1, 2, ... in accept order */
	int cfd, sfd;	      /* client side, server side; -1 once closed */
	int64_t session;      /* from the ConnectResponse, 0 until then */
	struct dir_state c2s; /* client -> server */
	struct dir_state s2c; /* server -> client */
	int dead;	      /* closed; removed at the end of the iteration */
};

enum cmd { CMD_NONE, CMD_CUT, CMD_RELEASE, CMD_STOP };
enum drop_state { DROP_OFF, DROP_ARMED, DROP_WAIT_REPLY };

struct zkproxy {
	int lfd;		    /* listening socket */
	int port;		    /* its port */
	char connect[32];	    /* "127.0.0.1:<port>" */
	struct sockaddr_in up;	    /* upstream server */
	int wake[2];		    /* pipe: lab thread -> proxy thread */
	pthread_t thread;	    /* the poll loop */
	int thread_started;	    /* thread must be joined */
	pthread_mutex_t cmd_mu;	    /* one control call at a time */
	pthread_mutex_t mu;	    /* guards everything below */
	pthread_cond_t cond;	    /* command acks and new events */
	enum cmd cmd;		    /* posted command */
	uint64_t cmd_seq, done_seq; /* posted / acknowledged commands */
	long long cmd_result;	    /* result of the last command */
	int stopping;		    /* the thread must exit */
	enum drop_state drop;	    /* drop-create state */
	char *drop_prefix;	    /* path prefix that arms it */
	int drop_conn;		    /* connection of the matched create */
	int32_t drop_xid;	    /* its xid */
	int hold_dirs;		    /* ZKPROXY_C2S | ZKPROXY_S2C being held */
	struct conn **conns;	    /* live connections */
	size_t nconns, conncap;	    /* used / allocated */
	int next_id;		    /* next connection number */
	struct zkproxy_event *ev;   /* every event, in order */
	size_t nev, evcap;	    /* used / allocated */
	size_t cursor;		    /* next event zkproxy_wait looks at */
	size_t reported;	    /* next event zkproxy_report emits */
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void bytes_append(struct bytes *b, const void *src, size_t n)
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

static size_t bytes_pending(const struct bytes *b)
{
	return b->len - b->off;
}

static void bytes_free(struct bytes *b)
{
	free(b->d);
	memset(b, 0, sizeof *b);
}

/* Appends an event; p->mu is held. */
static void add_event(struct zkproxy *p, enum zkproxy_ev_kind kind, const struct conn *c, int dir,
		      int32_t xid, int32_t op, int64_t zxid, int32_t err, uint64_t bytes,
		      const char *fmt, ...) __attribute__((format(printf, 10, 11)));
static void add_event(struct zkproxy *p, enum zkproxy_ev_kind kind, const struct conn *c, int dir,
		      int32_t xid, int32_t op, int64_t zxid, int32_t err, uint64_t bytes,
		      const char *fmt, ...)
{
	if (p->nev == p->evcap) {
		p->evcap = p->evcap ? 2 * p->evcap : 64;
		p->ev = wb_xrealloc(p->ev, p->evcap * sizeof *p->ev);
	}
	struct zkproxy_event *e = &p->ev[p->nev++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->conn = c ? c->id : 0;
	e->session = c ? c->session : 0;
	e->dir = dir;
	e->xid = xid;
	e->op = op;
	e->zxid = zxid;
	e->err = err;
	e->bytes = bytes;
	e->at_ms = now_ms();
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	pthread_cond_broadcast(&p->cond);
}

static const char *dir_name(int dir)
{
	return dir == ZKPROXY_C2S ? "client->server" : "server->client";
}

/* Closes both sides of c, discarding held bytes; p->mu is held. */
static void close_conn(struct zkproxy *p, struct conn *c, enum zkproxy_ev_kind kind,
		       const char *why)
{
	if (c->dead)
		return;
	uint64_t held = bytes_pending(&c->c2s.held) + bytes_pending(&c->s2c.held);
	if (c->cfd >= 0)
		close(c->cfd);
	if (c->sfd >= 0)
		close(c->sfd);
	c->cfd = c->sfd = -1;
	c->dead = 1;
	if (p->drop == DROP_WAIT_REPLY && p->drop_conn == c->id)
		p->drop = DROP_ARMED; /* its reply can no longer come */
	add_event(p, kind, c, 0, 0, 0, 0, 0, held, "conn %d session 0x%" PRIx64 ": %s%s", c->id,
		  (uint64_t)c->session, why, held ? " (held bytes discarded)" : "");
}

static void conn_free(struct conn *c)
{
	zkframe_parser_clear(&c->c2s.parser);
	zkframe_parser_clear(&c->s2c.parser);
	bytes_free(&c->c2s.out);
	bytes_free(&c->s2c.out);
	bytes_free(&c->c2s.held);
	bytes_free(&c->s2c.held);
	free(c);
}

/* Writes what it can of b to fd.  Returns 0, or -1 when the peer is gone. */
static int flush_bytes(int fd, struct bytes *b)
{
	while (fd >= 0 && bytes_pending(b)) {
		ssize_t n = send(fd, b->d + b->off, bytes_pending(b), MSG_NOSIGNAL);
		if (n > 0) {
			b->off += (size_t)n;
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

static void forward(struct zkproxy *p, struct conn *c, int dir, const struct zkframe *f,
		    int32_t xid, int32_t op)
{
	struct dir_state *d = dir == ZKPROXY_C2S ? &c->c2s : &c->s2c;
	if (p->hold_dirs & dir) {
		bytes_append(&d->held, f->raw, f->raw_len);
		add_event(p, ZKPROXY_EV_HELD, c, dir, xid, op, 0, 0, f->raw_len,
			  "conn %d: held %s frame xid=%" PRId32 "%s%s (%zu bytes)", c->id,
			  dir_name(dir), xid, op ? " op=" : "", op ? zkframe_op_name(op) : "",
			  f->raw_len);
	} else {
		bytes_append(&d->out, f->raw, f->raw_len);
	}
}

static int path_has_prefix(const char *path, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return n <= len && memcmp(path, prefix, n) == 0;
}

static void on_request(struct zkproxy *p, struct conn *c, const struct zkframe *f)
{
	if (!c->c2s.handshake_seen) {
		c->c2s.handshake_seen = 1;
		int64_t zxid = 0, session = 0;
		int32_t timeout = 0;
		if (zkframe_connect_request(f, &zxid, &timeout, &session) == 0) {
			add_event(p, ZKPROXY_EV_CONNECT_REQ, c, ZKPROXY_C2S, 0, 0, zxid, 0,
				  f->raw_len,
				  "conn %d: connect request session=0x%" PRIx64
				  "%s lastZxidSeen=0x%" PRIx64 " timeout=%" PRId32 " ms",
				  c->id, (uint64_t)session, session ? "" : " (new)", (uint64_t)zxid,
				  timeout);
			/* The event carries the session asked for, not yet granted. */
			p->ev[p->nev - 1].session = session;
		}
		forward(p, c, ZKPROXY_C2S, f, 0, 0);
		return;
	}
	int32_t xid = 0, op = 0;
	const char *path;
	size_t plen;
	if (zkframe_request(f, &xid, &op) == 0 && p->drop == DROP_ARMED && zkframe_is_create(op) &&
	    zkframe_create_path(f, &path, &plen) == 0 &&
	    path_has_prefix(path, plen, p->drop_prefix)) {
		p->drop = DROP_WAIT_REPLY;
		p->drop_conn = c->id;
		p->drop_xid = xid;
		add_event(p, ZKPROXY_EV_CREATE_MATCH, c, ZKPROXY_C2S, xid, op, 0, 0, f->raw_len,
			  "conn %d session 0x%" PRIx64 ": %s %.*s xid=%" PRId32
			  " forwarded; its reply will be dropped",
			  c->id, (uint64_t)c->session, zkframe_op_name(op),
			  (int)(plen > 120 ? 120 : plen), path, xid);
	}
	forward(p, c, ZKPROXY_C2S, f, xid, op);
}

/* Returns 1 when the connection was closed. */
static int on_reply(struct zkproxy *p, struct conn *c, const struct zkframe *f)
{
	if (!c->s2c.handshake_seen) {
		c->s2c.handshake_seen = 1;
		int64_t session = 0;
		int32_t timeout = 0;
		if (zkframe_connect_response(f, &timeout, &session) == 0) {
			c->session = session;
			add_event(p, ZKPROXY_EV_SESSION, c, ZKPROXY_S2C, 0, 0, 0, 0, f->raw_len,
				  "conn %d: session 0x%" PRIx64 " timeout=%" PRId32 " ms%s", c->id,
				  (uint64_t)session, timeout,
				  session ? "" : " (refused: the session expired)");
		}
		forward(p, c, ZKPROXY_S2C, f, 0, 0);
		return 0;
	}
	int32_t xid = 0, err = 0;
	int64_t zxid = 0;
	if (zkframe_reply(f, &xid, &zxid, &err) == 0 && p->drop == DROP_WAIT_REPLY &&
	    p->drop_conn == c->id && xid == p->drop_xid) {
		if (err == 0) {
			p->drop = DROP_OFF;
			add_event(p, ZKPROXY_EV_DROPPED, c, ZKPROXY_S2C, xid, 0, zxid, err,
				  f->raw_len,
				  "conn %d session 0x%" PRIx64
				  ": dropped the create reply xid=%" PRId32 " zxid=0x%" PRIx64
				  " err=0; closing the connection",
				  c->id, (uint64_t)c->session, xid, (uint64_t)zxid);
			/* Replies before the dropped one were answered: deliver
			 * them (best effort) so only this reply is lost. */
			flush_bytes(c->cfd, &c->s2c.out);
			close_conn(p, c, ZKPROXY_EV_CLOSED,
				   "closed after dropping the create reply");
			return 1;
		}
		p->drop = DROP_ARMED;
		add_event(p, ZKPROXY_EV_CREATE_FAILED, c, ZKPROXY_S2C, xid, 0, zxid, err,
			  f->raw_len,
			  "conn %d: create xid=%" PRId32 " failed with err=%" PRId32
			  "; reply passed on, drop still armed",
			  c->id, xid, err);
	}
	forward(p, c, ZKPROXY_S2C, f, xid, 0);
	return 0;
}

/* Reads from one side and processes every complete frame.  Returns 1 when
 * the connection was closed. */
static int read_side(struct zkproxy *p, struct conn *c, int dir)
{
	int fd = dir == ZKPROXY_C2S ? c->cfd : c->sfd;
	struct dir_state *d = dir == ZKPROXY_C2S ? &c->c2s : &c->s2c;
	unsigned char buf[READ_CHUNK];
	ssize_t n = recv(fd, buf, sizeof buf, 0);
	if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n <= 0) {
		close_conn(p, c, ZKPROXY_EV_CLOSED,
			   dir == ZKPROXY_C2S ? (n == 0 ? "client closed" : "client error")
					      : (n == 0 ? "server closed" : "server error"));
		return 1;
	}
	size_t off = 0;
	while (off < (size_t)n) {
		struct zkframe f;
		size_t used = 0;
		int rc = zkframe_feed(&d->parser, buf + off, (size_t)n - off, &used, &f);
		off += used;
		if (rc < 0) {
			const unsigned char *b = d->parser.buf;
			uint32_t announced = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
					     (uint32_t)b[2] << 8 | (uint32_t)b[3];
			add_event(p, ZKPROXY_EV_BAD_FRAME, c, dir, 0, 0, 0, 0, announced,
				  "conn %d: absurd frame length 0x%08" PRIx32
				  " on %s (limit %u bytes); closing",
				  c->id, announced, dir_name(dir), ZKFRAME_MAX_LEN);
			close_conn(p, c, ZKPROXY_EV_CLOSED, "closed after an absurd frame length");
			return 1;
		}
		if (rc == 0)
			break;
		if (dir == ZKPROXY_C2S)
			on_request(p, c, &f);
		else if (on_reply(p, c, &f))
			return 1;
	}
	return 0;
}

static void accept_one(struct zkproxy *p)
{
	int cfd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0)
		return;
	struct conn *c = wb_xcalloc(1, sizeof *c);
	c->id = ++p->next_id;
	c->cfd = cfd;
	c->sfd = -1;
	zkframe_parser_init(&c->c2s.parser);
	zkframe_parser_init(&c->s2c.parser);
	int one = 1;
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (p->nconns == p->conncap) {
		p->conncap = p->conncap ? 2 * p->conncap : 8;
		p->conns = wb_xrealloc(p->conns, p->conncap * sizeof *p->conns);
	}
	p->conns[p->nconns++] = c;
	add_event(p, ZKPROXY_EV_ACCEPT, c, 0, 0, 0, 0, 0, 0, "conn %d: client connected", c->id);
	/* Upstream is 127.0.0.1: a blocking connect answers at once. */
	int sfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sfd < 0 || connect(sfd, (struct sockaddr *)&p->up, sizeof p->up) != 0) {
		if (sfd >= 0)
			close(sfd);
		close_conn(p, c, ZKPROXY_EV_CLOSED, "closed: the server refused the connection");
		return;
	}
	fcntl(sfd, F_SETFL, fcntl(sfd, F_GETFL) | O_NONBLOCK);
	setsockopt(sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	c->sfd = sfd;
}

/* Commands; p->mu is held. */
static long long do_cut(struct zkproxy *p)
{
	long long n = 0;
	for (size_t i = 0; i < p->nconns; i++) {
		if (p->conns[i]->dead)
			continue;
		close_conn(p, p->conns[i], ZKPROXY_EV_CUT, "cut by the lab");
		n++;
	}
	return n;
}

static long long do_release(struct zkproxy *p)
{
	long long total = 0;
	p->hold_dirs = 0;
	for (size_t i = 0; i < p->nconns; i++) {
		struct conn *c = p->conns[i];
		if (c->dead)
			continue;
		for (int dir = ZKPROXY_C2S; dir <= ZKPROXY_S2C; dir++) {
			struct dir_state *d = dir == ZKPROXY_C2S ? &c->c2s : &c->s2c;
			size_t n = bytes_pending(&d->held);
			if (!n)
				continue;
			bytes_append(&d->out, d->held.d + d->held.off, n);
			d->held.off = d->held.len = 0;
			total += (long long)n;
			add_event(p, ZKPROXY_EV_RELEASED, c, dir, 0, 0, 0, 0, n,
				  "conn %d: released %zu held bytes %s, in order", c->id, n,
				  dir_name(dir));
		}
		if (flush_bytes(c->sfd, &c->c2s.out) || flush_bytes(c->cfd, &c->s2c.out))
			close_conn(p, c, ZKPROXY_EV_CLOSED, "closed: write failed");
	}
	return total;
}

static void *proxy_main(void *arg)
{
	struct zkproxy *p = arg;
	struct pollfd *pfd = NULL;
	size_t pcap = 0;
	pthread_mutex_lock(&p->mu);
	while (!p->stopping) {
		size_t n = 2 + 2 * p->nconns;
		if (n > pcap) {
			pcap = n * 2;
			pfd = wb_xrealloc(pfd, pcap * sizeof *pfd);
		}
		pfd[0] = (struct pollfd){p->wake[0], POLLIN, 0};
		pfd[1] = (struct pollfd){p->lfd, POLLIN, 0};
		for (size_t i = 0; i < p->nconns; i++) {
			struct conn *c = p->conns[i];
			short ce = 0, se = 0;
			if (bytes_pending(&c->c2s.out) + bytes_pending(&c->c2s.held) <
			    BACKLOG_LIMIT)
				ce |= POLLIN;
			if (bytes_pending(&c->s2c.out))
				ce |= POLLOUT;
			if (bytes_pending(&c->s2c.out) + bytes_pending(&c->s2c.held) <
			    BACKLOG_LIMIT)
				se |= POLLIN;
			if (bytes_pending(&c->c2s.out))
				se |= POLLOUT;
			pfd[2 + 2 * i] = (struct pollfd){c->cfd, ce, 0};
			pfd[3 + 2 * i] = (struct pollfd){c->sfd, se, 0};
		}
		pthread_mutex_unlock(&p->mu);
		int pr = poll(pfd, n, -1);
		pthread_mutex_lock(&p->mu);
		if (pr < 0)
			continue; /* EINTR */
		if (pfd[0].revents) {
			char drain[64];
			while (read(p->wake[0], drain, sizeof drain) > 0)
				;
		}
		if (p->cmd != CMD_NONE) {
			enum cmd cmd = p->cmd;
			p->cmd = CMD_NONE;
			if (cmd == CMD_CUT)
				p->cmd_result = do_cut(p);
			else if (cmd == CMD_RELEASE)
				p->cmd_result = do_release(p);
			else if (cmd == CMD_STOP)
				p->stopping = 1;
			p->done_seq = p->cmd_seq;
			pthread_cond_broadcast(&p->cond);
			if (p->stopping)
				break;
		}
		size_t polled = (n - 2) / 2;
		for (size_t i = 0; i < polled; i++) {
			struct conn *c = p->conns[i];
			short cr = pfd[2 + 2 * i].revents, sr = pfd[3 + 2 * i].revents;
			if (c->dead)
				continue;
			if ((cr & (POLLIN | POLLHUP | POLLERR)) && read_side(p, c, ZKPROXY_C2S))
				continue;
			if ((sr & (POLLIN | POLLHUP | POLLERR)) && read_side(p, c, ZKPROXY_S2C))
				continue;
			if (flush_bytes(c->sfd, &c->c2s.out) || flush_bytes(c->cfd, &c->s2c.out))
				close_conn(p, c, ZKPROXY_EV_CLOSED, "closed: write failed");
		}
		if (pfd[1].revents & POLLIN)
			accept_one(p);
		size_t keep = 0;
		for (size_t i = 0; i < p->nconns; i++) {
			if (p->conns[i]->dead)
				conn_free(p->conns[i]);
			else
				p->conns[keep++] = p->conns[i];
		}
		p->nconns = keep;
	}
	pthread_mutex_unlock(&p->mu);
	free(pfd);
	return NULL;
}

/* Posts a command and waits until the proxy thread has applied it. */
static long long run_cmd(struct zkproxy *p, enum cmd cmd)
{
	pthread_mutex_lock(&p->cmd_mu);
	pthread_mutex_lock(&p->mu);
	p->cmd = cmd;
	uint64_t seq = ++p->cmd_seq;
	ssize_t w = write(p->wake[1], "x", 1);
	(void)w;
	while (p->done_seq < seq)
		pthread_cond_wait(&p->cond, &p->mu);
	long long r = p->cmd_result;
	pthread_mutex_unlock(&p->mu);
	pthread_mutex_unlock(&p->cmd_mu);
	return r;
}

static int parse_upstream(const char *s, struct sockaddr_in *a)
{
	const char *colon = s ? strrchr(s, ':') : NULL;
	if (!colon || colon == s || (size_t)(colon - s) >= 64)
		return WB_EINVAL;
	char host[64];
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || port <= 0 || port > 65535)
		return WB_EINVAL;
	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	a->sin_port = htons((unsigned short)port);
	return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : WB_EINVAL;
}

int zkproxy_new(const char *upstream, struct zkproxy **out)
{
	*out = NULL;
	struct sockaddr_in up;
	if (parse_upstream(upstream, &up) != 0)
		return WB_EINVAL;
	struct zkproxy *p = wb_xcalloc(1, sizeof *p);
	p->up = up;
	p->lfd = -1;
	p->wake[0] = p->wake[1] = -1;
	p->drop_prefix = wb_xstrdup("");
	pthread_mutex_init(&p->mu, NULL);
	pthread_mutex_init(&p->cmd_mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	int rc = WB_EIO;
	if (pipe2(p->wake, O_CLOEXEC | O_NONBLOCK) != 0)
		goto out;
	p->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (p->lfd < 0)
		goto out;
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof a;
	if (bind(p->lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(p->lfd, 64) != 0 ||
	    getsockname(p->lfd, (struct sockaddr *)&a, &len) != 0)
		goto out;
	p->port = ntohs(a.sin_port);
	snprintf(p->connect, sizeof p->connect, "127.0.0.1:%d", p->port);
	if (pthread_create(&p->thread, NULL, proxy_main, p) != 0)
		goto out;
	p->thread_started = 1;
	rc = 0;
out:
	if (rc) {
		zkproxy_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void zkproxy_free(struct zkproxy *p)
{
	if (!p)
		return;
	if (p->thread_started) {
		run_cmd(p, CMD_STOP);
		pthread_join(p->thread, NULL);
	}
	for (size_t i = 0; i < p->nconns; i++) {
		struct conn *c = p->conns[i];
		if (c->cfd >= 0)
			close(c->cfd);
		if (c->sfd >= 0)
			close(c->sfd);
		conn_free(c);
	}
	free(p->conns);
	if (p->lfd >= 0)
		close(p->lfd);
	if (p->wake[0] >= 0)
		close(p->wake[0]);
	if (p->wake[1] >= 0)
		close(p->wake[1]);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->mu);
	pthread_mutex_destroy(&p->cmd_mu);
	free(p->drop_prefix);
	free(p->ev);
	free(p);
}

int zkproxy_port(const struct zkproxy *p)
{
	return p->port;
}

const char *zkproxy_connect(const struct zkproxy *p)
{
	return p->connect;
}

int zkproxy_arm_drop_create(struct zkproxy *p, const char *prefix)
{
	if (!prefix)
		return WB_EINVAL;
	pthread_mutex_lock(&p->mu);
	free(p->drop_prefix);
	p->drop_prefix = wb_xstrdup(prefix);
	p->drop = DROP_ARMED;
	p->drop_conn = 0;
	p->drop_xid = 0;
	pthread_mutex_unlock(&p->mu);
	return 0;
}

int zkproxy_disarm(struct zkproxy *p)
{
	pthread_mutex_lock(&p->mu);
	p->drop = DROP_OFF;
	pthread_mutex_unlock(&p->mu);
	return 0;
}

int zkproxy_cut(struct zkproxy *p)
{
	return (int)run_cmd(p, CMD_CUT);
}

int zkproxy_hold(struct zkproxy *p, int dirs)
{
	if (dirs <= 0 || dirs > ZKPROXY_BOTH)
		return WB_EINVAL;
	pthread_mutex_lock(&p->mu);
	p->hold_dirs |= dirs;
	pthread_mutex_unlock(&p->mu);
	return 0;
}

long long zkproxy_release(struct zkproxy *p)
{
	return run_cmd(p, CMD_RELEASE);
}

int zkproxy_wait(struct zkproxy *p, enum zkproxy_ev_kind kind, int timeout_ms,
		 struct zkproxy_event *ev)
{
	struct timespec dl;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	if (timeout_ms < 0)
		timeout_ms = 0;
	dl.tv_sec += timeout_ms / 1000;
	dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	int rc = WB_EBUSY;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->cursor < p->nev) {
			const struct zkproxy_event *e = &p->ev[p->cursor++];
			if (e->kind == kind) {
				if (ev)
					*ev = *e;
				rc = 0;
				goto out;
			}
		}
		if (pthread_cond_timedwait(&p->cond, &p->mu, &dl) == ETIMEDOUT &&
		    p->cursor >= p->nev)
			break;
	}
out:
	pthread_mutex_unlock(&p->mu);
	return rc;
}

size_t zkproxy_event_count(struct zkproxy *p)
{
	pthread_mutex_lock(&p->mu);
	size_t n = p->nev;
	pthread_mutex_unlock(&p->mu);
	return n;
}

int zkproxy_event_get(struct zkproxy *p, size_t i, struct zkproxy_event *ev)
{
	int rc = WB_ERANGE;
	pthread_mutex_lock(&p->mu);
	if (i < p->nev) {
		*ev = p->ev[i];
		rc = 0;
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

void zkproxy_report(struct zkproxy *p, struct report *r, int verbose)
{
	for (;;) {
		struct zkproxy_event e;
		pthread_mutex_lock(&p->mu);
		int have = p->reported < p->nev;
		if (have)
			e = p->ev[p->reported++];
		pthread_mutex_unlock(&p->mu);
		if (!have)
			break;
		if (!verbose && (e.kind == ZKPROXY_EV_ACCEPT || e.kind == ZKPROXY_EV_CLOSED ||
				 e.kind == ZKPROXY_EV_HELD))
			continue;
		report_evidence(r, "proxy", "%s", e.text);
	}
}

const char *zkproxy_kind_name(enum zkproxy_ev_kind kind)
{
	switch (kind) {
	case ZKPROXY_EV_ACCEPT: return "accept";
	case ZKPROXY_EV_CONNECT_REQ: return "connect-request";
	case ZKPROXY_EV_SESSION: return "session";
	case ZKPROXY_EV_CREATE_MATCH: return "create-match";
	case ZKPROXY_EV_DROPPED: return "dropped";
	case ZKPROXY_EV_CREATE_FAILED: return "create-failed";
	case ZKPROXY_EV_HELD: return "held";
	case ZKPROXY_EV_RELEASED: return "released";
	case ZKPROXY_EV_CUT: return "cut";
	case ZKPROXY_EV_BAD_FRAME: return "bad-frame";
	case ZKPROXY_EV_CLOSED: return "closed";
	}
	return "?";
}
