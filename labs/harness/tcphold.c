/*
 * tcphold.c - the raw TCP relay with hold/release, cut and refuse (see
 * tcphold.h).
 *
 * Threading: one relay thread runs a poll() loop and holds h->mu whenever
 * it touches state (between polls), never while blocked in poll().  Hold
 * and refuse are flags the caller sets under h->mu: since the thread reads
 * sockets only with h->mu held, every byte read after tcphold_hold
 * returns sees the flag.  Anything that does socket I/O or closes a
 * socket (release, cut, stop) is posted as a command; the caller wakes the
 * thread through a pipe and waits on h->cond until it is acknowledged, so
 * no fd is closed under a poll() in another thread.
 *
 * Invariants:
 *  - Per direction, bytes leave in the order they arrived: a byte read
 *    while held goes to the held buffer, and while the held buffer is not
 *    empty nothing is appended to the output buffer (release moves the
 *    held buffer onto the output first).
 *  - A side's end of stream (EOF) is passed on (shutdown SHUT_WR of the
 *    other side) only after every byte before it was written, and not
 *    while that direction is held.
 *  - conns[] is only shrunk at the end of a loop iteration, so poll
 *    indexes stay valid while an iteration runs.
 *  - A severed connection has afd == -1; its ufd is only read, and what
 *    arrives is counted as discarded, so the upstream's writes never block
 *    and it learns of nothing until its own timeouts fire.
 *  - The counters in h->st are updated under h->mu and h->cond is
 *    broadcast at the end of every iteration, so tcphold_wait sees every
 *    change.
 */
#define _GNU_SOURCE /* accept4, pipe2 */
#include "harness/tcphold.h"
#include "core/wb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Stop reading a side while this much waits for (or is held for) the
 * other: a silent receiver must not make the relay grow without bound.
 * TCP then pushes back on the sender, which is what a stalled link does. */
#define BACKLOG_LIMIT (16u * 1024u * 1024u)
#define READ_CHUNK    65536

struct bytes {
	unsigned char *d; /* d[off..len) is pending */
	size_t off, len, cap;
};

struct side {
	struct bytes out;  /* to write to the destination */
	struct bytes held; /* read while held, in order */
	int eof;	   /* the source sent its end of stream */
	int shut;	   /* that end was passed on (shutdown of the destination) */
};

struct conn {
	int afd, ufd;		    /* accepted side, upstream side; -1 once closed */
	struct side up;		    /* afd -> ufd */
	struct side down;	    /* ufd -> afd */
	long long connect_deadline; /* > 0: upstream not connected yet, retried until then */
	long long next_try;	    /* next upstream connect attempt (ms) */
	int severed;		    /* afd closed by tcphold_sever; ufd kept open, silent */
	int dead;		    /* closed; removed at the end of the iteration */
};

enum cmd { CMD_NONE, CMD_CUT, CMD_SEVER, CMD_RELEASE, CMD_STOP };

struct tcphold {
	int lfd;		    /* listening socket */
	int port;		    /* its port */
	int up_port;		    /* upstream port on 127.0.0.1 */
	char *name;		    /* label for messages */
	int wake[2];		    /* pipe: caller -> relay thread */
	pthread_t thread;	    /* the poll loop */
	int thread_started;	    /* thread must be joined */
	pthread_mutex_t cmd_mu;	    /* one command at a time */
	pthread_mutex_t mu;	    /* guards everything below */
	pthread_cond_t cond;	    /* CLOCK_MONOTONIC: command acks, counter changes */
	enum cmd cmd;		    /* posted command */
	uint64_t cmd_seq, done_seq; /* posted / acknowledged commands */
	long long cmd_result;	    /* result of the last command */
	int stopping;		    /* the thread must exit */
	int hold_dirs;		    /* TCPHOLD_UP | TCPHOLD_DOWN held now */
	int refuse;		    /* close new connections at once */
	int retry_ms;		    /* keep retrying a refused upstream this long */
	struct conn **conns;	    /* live connections */
	size_t nconns, conncap;	    /* used / allocated */
	struct tcphold_stats st;    /* counters (held[] and open recomputed per loop) */
};

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

/* Index into the counters: 0 for UP, 1 for DOWN. */
static int ix(int dir)
{
	return dir == TCPHOLD_UP ? 0 : 1;
}

static struct side *side_of(struct conn *c, int dir)
{
	return dir == TCPHOLD_UP ? &c->up : &c->down;
}

static int src_fd(const struct conn *c, int dir)
{
	return dir == TCPHOLD_UP ? c->afd : c->ufd;
}

static int dst_fd(const struct conn *c, int dir)
{
	return dir == TCPHOLD_UP ? c->ufd : c->afd;
}

/* Closes both sides of c, counting what was still buffered as discarded;
 * h->mu is held. */
static void close_conn(struct tcphold *h, struct conn *c)
{
	if (c->dead)
		return;
	for (int dir = TCPHOLD_UP; dir <= TCPHOLD_DOWN; dir++) {
		struct side *s = side_of(c, dir);
		h->st.discarded[ix(dir)] += bytes_pending(&s->out) + bytes_pending(&s->held);
	}
	if (c->afd >= 0)
		close(c->afd);
	if (c->ufd >= 0)
		close(c->ufd);
	c->afd = c->ufd = -1;
	c->dead = 1;
	h->st.closed++;
}

static void conn_free(struct conn *c)
{
	bytes_free(&c->up.out);
	bytes_free(&c->up.held);
	bytes_free(&c->down.out);
	bytes_free(&c->down.held);
	free(c);
}

/* Writes what it can of dir's output, then passes on an end of stream
 * that has nothing left before it.  Returns 0, or -1 when the destination
 * is gone (the caller closes the connection). */
static int flush_side(struct tcphold *h, struct conn *c, int dir)
{
	struct side *s = side_of(c, dir);
	int fd = dst_fd(c, dir);
	if (fd < 0)
		return 0; /* severed: nobody to write to */
	while (bytes_pending(&s->out)) {
		ssize_t n = send(fd, s->out.d + s->out.off, bytes_pending(&s->out), MSG_NOSIGNAL);
		if (n > 0) {
			s->out.off += (size_t)n;
			h->st.forwarded[ix(dir)] += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return -1;
	}
	if (s->eof && !s->shut && !bytes_pending(&s->out) && !bytes_pending(&s->held) &&
	    !(h->hold_dirs & dir)) {
		shutdown(fd, SHUT_WR);
		s->shut = 1;
	}
	return 0;
}

/* Reads what is there on dir's source.  Returns 0, or -1 on an error
 * (the caller closes the connection). */
static int read_side(struct tcphold *h, struct conn *c, int dir)
{
	struct side *s = side_of(c, dir);
	unsigned char buf[READ_CHUNK];
	ssize_t n = recv(src_fd(c, dir), buf, sizeof buf, 0);
	if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n < 0)
		return -1;
	if (n == 0 && c->severed)
		return -1; /* the kept side ended too: the connection is over */
	if (n == 0) {
		s->eof = 1;
		return 0;
	}
	if (c->severed) {
		h->st.discarded[ix(dir)] += (uint64_t)n; /* the upstream talks to nobody */
	} else if ((h->hold_dirs & dir) || bytes_pending(&s->held)) {
		bytes_append(&s->held, buf, (size_t)n);
		h->st.held_total[ix(dir)] += (uint64_t)n;
	} else {
		bytes_append(&s->out, buf, (size_t)n);
	}
	return 0;
}

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define RETRY_STEP_MS 50

/* Connects to the upstream.  Upstream is 127.0.0.1: a blocking connect
 * answers at once.  Returns a non-blocking fd or -1. */
static int connect_upstream(const struct tcphold *h)
{
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((unsigned short)h->up_port);
	int ufd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ufd < 0)
		return -1;
	if (connect(ufd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(ufd);
		return -1;
	}
	fcntl(ufd, F_SETFL, fcntl(ufd, F_GETFL) | O_NONBLOCK);
	int one = 1;
	setsockopt(ufd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return ufd;
}

/* Retries the upstream of every waiting connection that is due; h->mu is
 * held.  Returns the ms until the next attempt, or -1 when none waits. */
static int retry_upstreams(struct tcphold *h)
{
	long long now = mono_ms(), next = -1;
	for (size_t i = 0; i < h->nconns; i++) {
		struct conn *c = h->conns[i];
		if (c->dead || !c->connect_deadline)
			continue;
		if (now >= c->next_try) {
			c->ufd = connect_upstream(h);
			if (c->ufd >= 0) {
				c->connect_deadline = 0;
				continue;
			}
			if (now >= c->connect_deadline) {
				h->st.upstream_failed++;
				close_conn(h, c);
				continue;
			}
			c->next_try = now + RETRY_STEP_MS;
		}
		if (next < 0 || c->next_try - now < next)
			next = c->next_try - now;
	}
	return (int)next;
}

static void accept_one(struct tcphold *h)
{
	int afd = accept4(h->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (afd < 0)
		return;
	h->st.accepted++;
	if (h->refuse) {
		h->st.refused++;
		h->st.closed++;
		close(afd);
		return;
	}
	int ufd = connect_upstream(h);
	if (ufd < 0 && h->retry_ms <= 0) {
		close(afd);
		h->st.upstream_failed++;
		h->st.closed++;
		return;
	}
	int one = 1;
	setsockopt(afd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	struct conn *c = wb_xcalloc(1, sizeof *c);
	c->afd = afd;
	c->ufd = ufd;
	if (ufd < 0) { /* the upstream is not listening yet: keep trying */
		long long now = mono_ms();
		c->connect_deadline = now + h->retry_ms;
		c->next_try = now + RETRY_STEP_MS;
	}
	if (h->nconns == h->conncap) {
		h->conncap = h->conncap ? 2 * h->conncap : 8;
		h->conns = wb_xrealloc(h->conns, h->conncap * sizeof *h->conns);
	}
	h->conns[h->nconns++] = c;
}

/* Commands; h->mu is held. */
static long long do_cut(struct tcphold *h)
{
	long long n = 0;
	for (size_t i = 0; i < h->nconns; i++) {
		if (h->conns[i]->dead)
			continue;
		close_conn(h, h->conns[i]);
		h->st.cut++;
		n++;
	}
	return n;
}

static long long do_sever(struct tcphold *h)
{
	long long n = 0;
	for (size_t i = 0; i < h->nconns; i++) {
		struct conn *c = h->conns[i];
		if (c->dead || c->severed)
			continue;
		for (int dir = TCPHOLD_UP; dir <= TCPHOLD_DOWN; dir++) {
			struct side *s = side_of(c, dir);
			h->st.discarded[ix(dir)] +=
				bytes_pending(&s->out) + bytes_pending(&s->held);
			s->out.off = s->out.len = 0;
			s->held.off = s->held.len = 0;
		}
		close(c->afd);
		c->afd = -1;
		c->severed = 1;
		h->st.severed++;
		n++;
	}
	return n;
}

static long long do_release(struct tcphold *h)
{
	long long total = 0;
	h->hold_dirs = 0;
	for (size_t i = 0; i < h->nconns; i++) {
		struct conn *c = h->conns[i];
		if (c->dead)
			continue;
		for (int dir = TCPHOLD_UP; dir <= TCPHOLD_DOWN; dir++) {
			struct side *s = side_of(c, dir);
			size_t n = bytes_pending(&s->held);
			if (n) {
				bytes_append(&s->out, s->held.d + s->held.off, n);
				s->held.off = s->held.len = 0;
				h->st.released[ix(dir)] += n;
				total += (long long)n;
			}
		}
		if (flush_side(h, c, TCPHOLD_UP) || flush_side(h, c, TCPHOLD_DOWN))
			close_conn(h, c);
	}
	return total;
}

/* Recomputes the counters that are states, not events; h->mu is held. */
static void update_stats(struct tcphold *h)
{
	int open = 0, half = 0, waiting = 0;
	uint64_t held[2] = {0, 0};
	for (size_t i = 0; i < h->nconns; i++) {
		struct conn *c = h->conns[i];
		if (c->dead)
			continue;
		open++;
		half += c->severed;
		waiting += c->connect_deadline > 0;
		held[0] += bytes_pending(&c->up.held);
		held[1] += bytes_pending(&c->down.held);
	}
	h->st.open = open;
	h->st.half_open = half;
	h->st.waiting_upstream = waiting;
	h->st.held[0] = held[0];
	h->st.held[1] = held[1];
	h->st.hold_dirs = h->hold_dirs;
	pthread_cond_broadcast(&h->cond);
}

static short want_events(const struct conn *c, int src_dir)
{
	const struct side *in = src_dir == TCPHOLD_UP ? &c->up : &c->down;
	const struct side *back = src_dir == TCPHOLD_UP ? &c->down : &c->up;
	short ev = 0;
	if (!in->eof && bytes_pending(&in->out) + bytes_pending(&in->held) < BACKLOG_LIMIT)
		ev |= POLLIN;
	if (bytes_pending(&back->out))
		ev |= POLLOUT;
	return ev;
}

static void *relay_main(void *arg)
{
	struct tcphold *h = arg;
	struct pollfd *pfd = NULL;
	size_t pcap = 0;
	pthread_mutex_lock(&h->mu);
	while (!h->stopping) {
		/* First, so that a connection that just got its upstream is
		 * polled for it in this round. */
		int wait = retry_upstreams(h);
		update_stats(h);
		size_t n = 2 + 2 * h->nconns;
		if (n > pcap) {
			pcap = n * 2;
			pfd = wb_xrealloc(pfd, pcap * sizeof *pfd);
		}
		pfd[0] = (struct pollfd){h->wake[0], POLLIN, 0};
		pfd[1] = (struct pollfd){h->lfd, POLLIN, 0};
		for (size_t i = 0; i < h->nconns; i++) {
			struct conn *c = h->conns[i];
			short ae = want_events(c, TCPHOLD_UP), ue = want_events(c, TCPHOLD_DOWN);
			/* A side that has ended and is owed nothing is left out:
			 * once both ends are shut, poll() would report POLLHUP on
			 * it at once, forever, while the other way is held. */
			pfd[2 + 2 * i] = (struct pollfd){ae || !c->up.eof ? c->afd : -1, ae, 0};
			pfd[3 + 2 * i] = (struct pollfd){ue || !c->down.eof ? c->ufd : -1, ue, 0};
			if (c->severed) /* only the kept side, to drain it */
				pfd[3 + 2 * i] = (struct pollfd){c->ufd, POLLIN, 0};
		}
		pthread_mutex_unlock(&h->mu);
		int pr = poll(pfd, n, wait);
		pthread_mutex_lock(&h->mu);
		if (pr < 0)
			continue; /* EINTR */
		if (pfd[0].revents) {
			char drain[64];
			while (read(h->wake[0], drain, sizeof drain) > 0)
				;
		}
		if (h->cmd != CMD_NONE) {
			enum cmd cmd = h->cmd;
			h->cmd = CMD_NONE;
			if (cmd == CMD_CUT)
				h->cmd_result = do_cut(h);
			else if (cmd == CMD_SEVER)
				h->cmd_result = do_sever(h);
			else if (cmd == CMD_RELEASE)
				h->cmd_result = do_release(h);
			else if (cmd == CMD_STOP)
				h->stopping = 1;
			update_stats(h);
			h->done_seq = h->cmd_seq;
			pthread_cond_broadcast(&h->cond);
			if (h->stopping)
				break;
		}
		size_t polled = (n - 2) / 2;
		for (size_t i = 0; i < polled; i++) {
			struct conn *c = h->conns[i];
			short ar = pfd[2 + 2 * i].revents, ur = pfd[3 + 2 * i].revents;
			if (c->dead)
				continue;
			if ((ar & (POLLIN | POLLHUP | POLLERR)) && !c->up.eof &&
			    read_side(h, c, TCPHOLD_UP)) {
				close_conn(h, c);
				continue;
			}
			if ((ur & (POLLIN | POLLHUP | POLLERR)) && !c->down.eof &&
			    read_side(h, c, TCPHOLD_DOWN)) {
				close_conn(h, c);
				continue;
			}
			if (flush_side(h, c, TCPHOLD_UP) || flush_side(h, c, TCPHOLD_DOWN)) {
				close_conn(h, c);
				continue;
			}
			/* Both ends passed on, or one side hung up with nothing we
			 * could still deliver to it: the connection is over. */
			if (c->up.shut && c->down.shut)
				close_conn(h, c);
			else if ((ar & POLLERR) || (ur & POLLERR))
				close_conn(h, c);
		}
		if (pfd[1].revents & POLLIN)
			accept_one(h);
		size_t keep = 0;
		for (size_t i = 0; i < h->nconns; i++) {
			if (h->conns[i]->dead)
				conn_free(h->conns[i]);
			else
				h->conns[keep++] = h->conns[i];
		}
		h->nconns = keep;
		update_stats(h);
	}
	pthread_mutex_unlock(&h->mu);
	free(pfd);
	return NULL;
}

/* Posts a command and waits until the relay thread has applied it. */
static long long run_cmd(struct tcphold *h, enum cmd cmd)
{
	pthread_mutex_lock(&h->cmd_mu);
	pthread_mutex_lock(&h->mu);
	h->cmd = cmd;
	uint64_t seq = ++h->cmd_seq;
	ssize_t w = write(h->wake[1], "x", 1);
	(void)w;
	while (h->done_seq < seq)
		pthread_cond_wait(&h->cond, &h->mu);
	long long r = h->cmd_result;
	pthread_mutex_unlock(&h->mu);
	pthread_mutex_unlock(&h->cmd_mu);
	return r;
}

int tcphold_new(int upstream_port, const char *name, struct tcphold **out)
{
	*out = NULL;
	if (upstream_port <= 0 || upstream_port > 65535)
		return WB_EINVAL;
	struct tcphold *h = wb_xcalloc(1, sizeof *h);
	h->up_port = upstream_port;
	h->name = wb_xstrdup(name ? name : "");
	h->lfd = -1;
	h->wake[0] = h->wake[1] = -1;
	pthread_mutex_init(&h->mu, NULL);
	pthread_mutex_init(&h->cmd_mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cond, &ca);
	pthread_condattr_destroy(&ca);
	int rc = WB_EIO;
	if (pipe2(h->wake, O_CLOEXEC | O_NONBLOCK) != 0)
		goto out;
	h->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (h->lfd < 0)
		goto out;
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof a;
	if (bind(h->lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(h->lfd, 64) != 0 ||
	    getsockname(h->lfd, (struct sockaddr *)&a, &len) != 0)
		goto out;
	h->port = ntohs(a.sin_port);
	if (pthread_create(&h->thread, NULL, relay_main, h) != 0)
		goto out;
	h->thread_started = 1;
	rc = 0;
out:
	if (rc) {
		tcphold_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

void tcphold_free(struct tcphold *h)
{
	if (!h)
		return;
	if (h->thread_started) {
		run_cmd(h, CMD_STOP);
		pthread_join(h->thread, NULL);
	}
	for (size_t i = 0; i < h->nconns; i++) {
		struct conn *c = h->conns[i];
		if (c->afd >= 0)
			close(c->afd);
		if (c->ufd >= 0)
			close(c->ufd);
		conn_free(c);
	}
	free(h->conns);
	if (h->lfd >= 0)
		close(h->lfd);
	if (h->wake[0] >= 0)
		close(h->wake[0]);
	if (h->wake[1] >= 0)
		close(h->wake[1]);
	pthread_cond_destroy(&h->cond);
	pthread_mutex_destroy(&h->mu);
	pthread_mutex_destroy(&h->cmd_mu);
	free(h->name);
	free(h);
}

int tcphold_port(const struct tcphold *h)
{
	return h->port;
}

int tcphold_upstream_port(const struct tcphold *h)
{
	return h->up_port;
}

const char *tcphold_name(const struct tcphold *h)
{
	return h->name;
}

int tcphold_hold(struct tcphold *h, int dirs)
{
	if (dirs <= 0 || dirs > TCPHOLD_BOTH)
		return WB_EINVAL;
	pthread_mutex_lock(&h->mu);
	h->hold_dirs |= dirs;
	h->st.hold_dirs = h->hold_dirs;
	pthread_mutex_unlock(&h->mu);
	return 0;
}

long long tcphold_release(struct tcphold *h)
{
	return run_cmd(h, CMD_RELEASE);
}

int tcphold_cut(struct tcphold *h)
{
	return (int)run_cmd(h, CMD_CUT);
}

int tcphold_set_connect_retry(struct tcphold *h, int ms)
{
	if (ms < 0)
		return WB_EINVAL;
	pthread_mutex_lock(&h->mu);
	h->retry_ms = ms;
	pthread_mutex_unlock(&h->mu);
	return 0;
}

int tcphold_sever(struct tcphold *h)
{
	return (int)run_cmd(h, CMD_SEVER);
}

int tcphold_refuse(struct tcphold *h, int refuse)
{
	pthread_mutex_lock(&h->mu);
	h->refuse = refuse != 0;
	pthread_mutex_unlock(&h->mu);
	return 0;
}

void tcphold_stats(struct tcphold *h, struct tcphold_stats *st)
{
	pthread_mutex_lock(&h->mu);
	*st = h->st;
	pthread_mutex_unlock(&h->mu);
}

int tcphold_wait(struct tcphold *h, int (*pred)(const struct tcphold_stats *st, void *arg),
		 void *arg, int timeout_ms, struct tcphold_stats *st)
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
	pthread_mutex_lock(&h->mu);
	for (;;) {
		if (pred(&h->st, arg)) {
			rc = 0;
			break;
		}
		if (pthread_cond_timedwait(&h->cond, &h->mu, &dl) == ETIMEDOUT) {
			if (pred(&h->st, arg))
				rc = 0;
			break;
		}
	}
	if (st)
		*st = h->st;
	pthread_mutex_unlock(&h->mu);
	return rc;
}

int tcphold_pred_held_down_over(const struct tcphold_stats *st, void *arg)
{
	return st->held[1] > *(const uint64_t *)arg;
}

int tcphold_pred_held_up_over(const struct tcphold_stats *st, void *arg)
{
	return st->held[0] > *(const uint64_t *)arg;
}

int tcphold_pred_accepted_over(const struct tcphold_stats *st, void *arg)
{
	return st->accepted > *(const int *)arg;
}

int tcphold_pred_open_at_most(const struct tcphold_stats *st, void *arg)
{
	return st->open <= *(const int *)arg;
}
