/*
 * tcphold.c - the raw TCP relay with hold/release, cut and refuse (see
 * tcphold.h).
 *
 * Threading: the poll loop, the command channel and the listener are
 * harness/relay.h's (see its contract); h->r.mu guards everything here.
 * Hold and refuse are flags the caller sets under h->r.mu: since the
 * thread reads sockets only with h->r.mu held, every byte read after
 * tcphold_hold returns sees the flag.  Anything that does socket I/O or
 * closes a socket (release, cut, sever, stop) is a relay command, run on
 * the relay thread and acknowledged before the call returns.
 *
 * Invariants:
 *  - Per direction, bytes leave in the order they arrived: a byte read
 *    while held goes to the held buffer, and while the held buffer is not
 *    empty nothing is appended to the output buffer (release moves the
 *    held buffer onto the output first).
 *  - A side's end of stream (EOF) is passed on (shutdown SHUT_WR of the
 *    other side) only after every byte before it was written, and not
 *    while that direction is held.
 *  - A severed connection has afd == -1; its ufd is only read, and what
 *    arrives is counted as discarded, so the upstream's writes never block
 *    and it learns of nothing until its own timeouts fire.
 *  - The counters in h->st are updated under h->r.mu and h->r.cond is
 *    broadcast at the end of every iteration, so tcphold_wait sees every
 *    change.
 */
#include "harness/tcphold.h"
#include "base/mono.h"
#include "base/wb.h"
#include "harness/relay.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Stop reading a side while this much waits for (or is held for) the
 * other: a silent receiver must not make the relay grow without bound.
 * TCP then pushes back on the sender, which is what a stalled link does. */
#define BACKLOG_LIMIT (16u * 1024u * 1024u)

struct side {
	struct relay_bytes out;	 /* to write to the destination */
	struct relay_bytes held; /* read while held, in order */
	int eof;		 /* the source sent its end of stream */
	int shut;		 /* that end was passed on (shutdown of the destination) */
};

struct conn {
	struct relay_conn rc;	    /* afd: accepted side, ufd: upstream side; dead */
	struct side up;		    /* afd -> ufd */
	struct side down;	    /* ufd -> afd */
	long long connect_deadline; /* > 0: upstream not connected yet, retried until then */
	long long next_try;	    /* next upstream connect attempt (ms) */
	int severed;		    /* afd closed by tcphold_sever; ufd kept open, silent */
};

enum cmd { CMD_CUT = RELAY_CMD_OWN, CMD_SEVER, CMD_RELEASE };

struct tcphold {
	struct relay r;		 /* listener, relay thread, lock, connections */
	int up_port;		 /* upstream port on 127.0.0.1 */
	char *name;		 /* label for messages */
	int hold_dirs;		 /* TCPHOLD_UP | TCPHOLD_DOWN held now */
	int refuse;		 /* close new connections at once */
	int retry_ms;		 /* keep retrying a refused upstream this long */
	struct tcphold_stats st; /* counters (held[] and open recomputed per loop) */
};

/* Connection i of h (struct conn starts with its struct relay_conn). */
static struct conn *conn_at(const struct tcphold *h, size_t i)
{
	return (struct conn *)h->r.conns[i];
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
	return dir == TCPHOLD_UP ? c->rc.afd : c->rc.ufd;
}

static int dst_fd(const struct conn *c, int dir)
{
	return dir == TCPHOLD_UP ? c->rc.ufd : c->rc.afd;
}

/* Closes both sides of c, counting what was still buffered as discarded;
 * h->r.mu is held. */
static void close_conn(struct tcphold *h, struct conn *c)
{
	if (c->rc.dead)
		return;
	for (int dir = TCPHOLD_UP; dir <= TCPHOLD_DOWN; dir++) {
		struct side *s = side_of(c, dir);
		h->st.discarded[ix(dir)] +=
			relay_bytes_pending(&s->out) + relay_bytes_pending(&s->held);
	}
	relay_conn_close(&c->rc);
	h->st.closed++;
}

static void conn_free(struct relay_conn *rc)
{
	struct conn *c = (struct conn *)rc;
	relay_bytes_free(&c->up.out);
	relay_bytes_free(&c->up.held);
	relay_bytes_free(&c->down.out);
	relay_bytes_free(&c->down.held);
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
	if (relay_bytes_flush(fd, &s->out, &h->st.forwarded[ix(dir)]))
		return -1;
	if (relay_bytes_pending(&s->out))
		return 0; /* the socket buffer is full */
	if (s->eof && !s->shut && !relay_bytes_pending(&s->held) && !(h->hold_dirs & dir)) {
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
	unsigned char buf[RELAY_READ_CHUNK];
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
	} else if ((h->hold_dirs & dir) || relay_bytes_pending(&s->held)) {
		relay_bytes_append(&s->held, buf, (size_t)n);
		h->st.held_total[ix(dir)] += (uint64_t)n;
	} else {
		relay_bytes_append(&s->out, buf, (size_t)n);
	}
	return 0;
}

#define RETRY_STEP_MS 50

/* Connects to the upstream.  Returns a non-blocking fd or -1. */
static int connect_upstream(const struct tcphold *h)
{
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((unsigned short)h->up_port);
	return relay_connect(&a);
}

/* Retries the upstream of every waiting connection that is due; h->r.mu
 * is held.  Returns the ms until the next attempt, or -1 when none waits. */
static int retry_upstreams(struct tcphold *h)
{
	long long now = mono_now_ms(), next = -1;
	for (size_t i = 0; i < h->r.nconns; i++) {
		struct conn *c = conn_at(h, i);
		if (c->rc.dead || !c->connect_deadline)
			continue;
		if (now >= c->next_try) {
			c->rc.ufd = connect_upstream(h);
			if (c->rc.ufd >= 0) {
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

static void accept_one(void *self)
{
	struct tcphold *h = self;
	int afd = relay_accept(h->r.lfd);
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
	relay_nodelay(afd);
	struct conn *c = wb_xcalloc(1, sizeof *c);
	c->rc.afd = afd;
	c->rc.ufd = ufd;
	if (ufd < 0) { /* the upstream is not listening yet: keep trying */
		long long now = mono_now_ms();
		c->connect_deadline = now + h->retry_ms;
		c->next_try = now + RETRY_STEP_MS;
	}
	relay_add_conn(&h->r, &c->rc);
}

/* Commands; h->r.mu is held. */
static long long do_cut(struct tcphold *h)
{
	long long n = 0;
	for (size_t i = 0; i < h->r.nconns; i++) {
		if (conn_at(h, i)->rc.dead)
			continue;
		close_conn(h, conn_at(h, i));
		h->st.cut++;
		n++;
	}
	return n;
}

static long long do_sever(struct tcphold *h)
{
	long long n = 0;
	for (size_t i = 0; i < h->r.nconns; i++) {
		struct conn *c = conn_at(h, i);
		if (c->rc.dead || c->severed)
			continue;
		for (int dir = TCPHOLD_UP; dir <= TCPHOLD_DOWN; dir++) {
			struct side *s = side_of(c, dir);
			h->st.discarded[ix(dir)] +=
				relay_bytes_pending(&s->out) + relay_bytes_pending(&s->held);
			s->out.off = s->out.len = 0;
			s->held.off = s->held.len = 0;
		}
		close(c->rc.afd);
		c->rc.afd = -1;
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
	for (size_t i = 0; i < h->r.nconns; i++) {
		struct conn *c = conn_at(h, i);
		if (c->rc.dead)
			continue;
		for (int dir = TCPHOLD_UP; dir <= TCPHOLD_DOWN; dir++) {
			struct side *s = side_of(c, dir);
			size_t n = relay_bytes_move(&s->out, &s->held);
			h->st.released[ix(dir)] += n;
			total += (long long)n;
		}
		if (flush_side(h, c, TCPHOLD_UP) || flush_side(h, c, TCPHOLD_DOWN))
			close_conn(h, c);
	}
	return total;
}

static long long run_command(void *self, int cmd)
{
	struct tcphold *h = self;
	if (cmd == CMD_CUT)
		return do_cut(h);
	if (cmd == CMD_SEVER)
		return do_sever(h);
	if (cmd == CMD_RELEASE)
		return do_release(h);
	return 0;
}

/* Recomputes the counters that are states, not events; h->r.mu is held. */
static void update_stats(void *self)
{
	struct tcphold *h = self;
	int open = 0, half = 0, waiting = 0;
	uint64_t held[2] = {0, 0};
	for (size_t i = 0; i < h->r.nconns; i++) {
		struct conn *c = conn_at(h, i);
		if (c->rc.dead)
			continue;
		open++;
		half += c->severed;
		waiting += c->connect_deadline > 0;
		held[0] += relay_bytes_pending(&c->up.held);
		held[1] += relay_bytes_pending(&c->down.held);
	}
	h->st.open = open;
	h->st.half_open = half;
	h->st.waiting_upstream = waiting;
	h->st.held[0] = held[0];
	h->st.held[1] = held[1];
	h->st.hold_dirs = h->hold_dirs;
	pthread_cond_broadcast(&h->r.cond);
}

/* Before each poll: first the upstream retries, so that a connection that
 * just got its upstream is polled for it in this round. */
static int prepare(void *self)
{
	int wait = retry_upstreams(self);
	update_stats(self);
	return wait;
}

static short want_events(const struct conn *c, int src_dir)
{
	const struct side *in = src_dir == TCPHOLD_UP ? &c->up : &c->down;
	const struct side *back = src_dir == TCPHOLD_UP ? &c->down : &c->up;
	short ev = 0;
	if (!in->eof &&
	    relay_bytes_pending(&in->out) + relay_bytes_pending(&in->held) < BACKLOG_LIMIT)
		ev |= POLLIN;
	if (relay_bytes_pending(&back->out))
		ev |= POLLOUT;
	return ev;
}

static void poll_events(void *self, struct relay_conn *rc, struct pollfd pfd[2])
{
	(void)self;
	struct conn *c = (struct conn *)rc;
	short ae = want_events(c, TCPHOLD_UP), ue = want_events(c, TCPHOLD_DOWN);
	/* A side that has ended and is owed nothing is left out: once both
	 * ends are shut, poll() would report POLLHUP on it at once, forever,
	 * while the other way is held. */
	pfd[0] = (struct pollfd){ae || !c->up.eof ? c->rc.afd : -1, ae, 0};
	pfd[1] = (struct pollfd){ue || !c->down.eof ? c->rc.ufd : -1, ue, 0};
	if (c->severed) /* only the kept side, to drain it */
		pfd[1] = (struct pollfd){c->rc.ufd, POLLIN, 0};
}

static void serve(void *self, struct relay_conn *rc, short ar, short ur)
{
	struct tcphold *h = self;
	struct conn *c = (struct conn *)rc;
	if ((ar & (POLLIN | POLLHUP | POLLERR)) && !c->up.eof && read_side(h, c, TCPHOLD_UP)) {
		close_conn(h, c);
		return;
	}
	if ((ur & (POLLIN | POLLHUP | POLLERR)) && !c->down.eof && read_side(h, c, TCPHOLD_DOWN)) {
		close_conn(h, c);
		return;
	}
	if (flush_side(h, c, TCPHOLD_UP) || flush_side(h, c, TCPHOLD_DOWN)) {
		close_conn(h, c);
		return;
	}
	/* Both ends passed on, or one side hung up with nothing we could
	 * still deliver to it: the connection is over. */
	if (c->up.shut && c->down.shut)
		close_conn(h, c);
	else if ((ar & POLLERR) || (ur & POLLERR))
		close_conn(h, c);
}

static const struct relay_ops tcphold_ops = {
	.prepare = prepare,
	.events = poll_events,
	.command = run_command,
	.serve = serve,
	.accept = accept_one,
	.conn_free = conn_free,
	.changed = update_stats,
};

int tcphold_new(int upstream_port, const char *name, struct tcphold **out)
{
	*out = NULL;
	if (upstream_port <= 0 || upstream_port > 65535)
		return WB_EINVAL;
	struct tcphold *h = wb_xcalloc(1, sizeof *h);
	h->up_port = upstream_port;
	h->name = wb_xstrdup(name ? name : "");
	relay_init(&h->r, &tcphold_ops, h);
	int rc = relay_open(&h->r);
	if (rc == 0)
		rc = relay_start(&h->r);
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
	relay_fini(&h->r);
	free(h->name);
	free(h);
}

int tcphold_port(const struct tcphold *h)
{
	return h->r.port;
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
	pthread_mutex_lock(&h->r.mu);
	h->hold_dirs |= dirs;
	h->st.hold_dirs = h->hold_dirs;
	pthread_mutex_unlock(&h->r.mu);
	return 0;
}

long long tcphold_release(struct tcphold *h)
{
	return relay_run(&h->r, CMD_RELEASE);
}

int tcphold_cut(struct tcphold *h)
{
	return (int)relay_run(&h->r, CMD_CUT);
}

int tcphold_set_connect_retry(struct tcphold *h, int ms)
{
	if (ms < 0)
		return WB_EINVAL;
	pthread_mutex_lock(&h->r.mu);
	h->retry_ms = ms;
	pthread_mutex_unlock(&h->r.mu);
	return 0;
}

int tcphold_sever(struct tcphold *h)
{
	return (int)relay_run(&h->r, CMD_SEVER);
}

int tcphold_refuse(struct tcphold *h, int refuse)
{
	pthread_mutex_lock(&h->r.mu);
	h->refuse = refuse != 0;
	pthread_mutex_unlock(&h->r.mu);
	return 0;
}

void tcphold_stats(struct tcphold *h, struct tcphold_stats *st)
{
	pthread_mutex_lock(&h->r.mu);
	*st = h->st;
	pthread_mutex_unlock(&h->r.mu);
}

int tcphold_wait(struct tcphold *h, int (*pred)(const struct tcphold_stats *st, void *arg),
		 void *arg, int timeout_ms, struct tcphold_stats *st)
{
	struct timespec dl;
	mono_deadline(&dl, timeout_ms);
	int rc = WB_EBUSY;
	pthread_mutex_lock(&h->r.mu);
	for (;;) {
		if (pred(&h->st, arg)) {
			rc = 0;
			break;
		}
		if (pthread_cond_timedwait(&h->r.cond, &h->r.mu, &dl) == ETIMEDOUT) {
			if (pred(&h->st, arg))
				rc = 0;
			break;
		}
	}
	if (st)
		*st = h->st;
	pthread_mutex_unlock(&h->r.mu);
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
