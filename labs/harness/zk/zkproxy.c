/*
 * zkproxy.c - the ZooKeeper fault proxy (see zkproxy.h).
 *
 * Threading: the poll loop, the command channel and the listener are
 * harness/relay.h's (see its contract); p->r.mu guards everything here.
 * The lab's thread sets simple state (arming, holding) under p->r.mu
 * directly; anything that does socket I/O (cut, release, stop) is a relay
 * command, run on the proxy thread and acknowledged before the call
 * returns, so no fd is closed under a poll() in another thread.
 *
 * Invariants:
 *  - Frames are forwarded whole and in order per direction; a held frame
 *    goes to the held buffer, and nothing bypasses it while held, so a
 *    release appends it to the output in the original order.
 *  - The drop state refers to one connection and one xid: it is cleared
 *    when that reply is dropped and re-armed if that connection dies first.
 */
#include "harness/zk/zkproxy.h"
#include "base/mono.h"
#include "base/wb.h"
#include "harness/relay.h"
#include "harness/report.h"
#include "harness/zk/zkframe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* Stop reading from a side while this much waits to be written to (or is
 * held for) the other: a slow peer must not make the proxy grow without
 * bound. */
#define BACKLOG_LIMIT (8u * 1024u * 1024u)

struct dir_state {
	struct zkframe_parser parser; /* frames arriving on this direction */
	int handshake_seen;	      /* the connect frame went by */
	struct relay_bytes out;	      /* to write to the destination */
	struct relay_bytes held;      /* frames held, in order */
};

struct conn {
	struct relay_conn rc; /* afd: client side, ufd: server side; dead */
	int id;		      /* 1, 2, ... in accept order */
	int64_t session;      /* from the ConnectResponse, 0 until then */
	struct dir_state c2s; /* client -> server */
	struct dir_state s2c; /* server -> client */
};

enum cmd { CMD_CUT = RELAY_CMD_OWN, CMD_RELEASE };
enum drop_state { DROP_OFF, DROP_ARMED, DROP_WAIT_REPLY };

struct zkproxy {
	struct relay r;		  /* listener, proxy thread, lock (r.cond: also new events) */
	char connect[32];	  /* "127.0.0.1:<port>" */
	struct sockaddr_in up;	  /* upstream server */
	enum drop_state drop;	  /* drop-create state */
	char *drop_prefix;	  /* path prefix that arms it */
	int drop_set;		  /* it drops a setData reply, not a create's */
	int drop_conn;		  /* connection of the matched create */
	int32_t drop_xid;	  /* its xid */
	int hold_dirs;		  /* ZKPROXY_C2S | ZKPROXY_S2C being held */
	int next_id;		  /* next connection number */
	struct zkproxy_event *ev; /* every event, in order */
	size_t nev, evcap;	  /* used / allocated */
	size_t cursor;		  /* next event zkproxy_wait looks at */
	size_t reported;	  /* next event zkproxy_report emits */
};

/* Connection i of p (struct conn starts with its struct relay_conn). */
static struct conn *conn_at(const struct zkproxy *p, size_t i)
{
	return (struct conn *)p->r.conns[i];
}

/* Appends an event; p->r.mu is held. */
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
	e->at_ms = mono_now_ms();
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	pthread_cond_broadcast(&p->r.cond);
}

static const char *dir_name(int dir)
{
	return dir == ZKPROXY_C2S ? "client->server" : "server->client";
}

/* Closes both sides of c, discarding held bytes; p->r.mu is held. */
static void close_conn(struct zkproxy *p, struct conn *c, enum zkproxy_ev_kind kind,
		       const char *why)
{
	if (c->rc.dead)
		return;
	uint64_t held = relay_bytes_pending(&c->c2s.held) + relay_bytes_pending(&c->s2c.held);
	relay_conn_close(&c->rc);
	if (p->drop == DROP_WAIT_REPLY && p->drop_conn == c->id)
		p->drop = DROP_ARMED; /* its reply can no longer come */
	add_event(p, kind, c, 0, 0, 0, 0, 0, held, "conn %d session 0x%" PRIx64 ": %s%s", c->id,
		  (uint64_t)c->session, why, held ? " (held bytes discarded)" : "");
}

static void conn_free(struct relay_conn *rc)
{
	struct conn *c = (struct conn *)rc;
	zkframe_parser_clear(&c->c2s.parser);
	zkframe_parser_clear(&c->s2c.parser);
	relay_bytes_free(&c->c2s.out);
	relay_bytes_free(&c->s2c.out);
	relay_bytes_free(&c->c2s.held);
	relay_bytes_free(&c->s2c.held);
	free(c);
}

/* Writes what it can both ways; closes c when a peer is gone.  p->r.mu is
 * held. */
static void flush_conn(struct zkproxy *p, struct conn *c)
{
	if (relay_bytes_flush(c->rc.ufd, &c->c2s.out, NULL) ||
	    relay_bytes_flush(c->rc.afd, &c->s2c.out, NULL))
		close_conn(p, c, ZKPROXY_EV_CLOSED, "closed: write failed");
}

static void forward(struct zkproxy *p, struct conn *c, int dir, const struct zkframe *f,
		    int32_t xid, int32_t op)
{
	struct dir_state *d = dir == ZKPROXY_C2S ? &c->c2s : &c->s2c;
	if (p->hold_dirs & dir) {
		relay_bytes_append(&d->held, f->raw, f->raw_len);
		add_event(p, ZKPROXY_EV_HELD, c, dir, xid, op, 0, 0, f->raw_len,
			  "conn %d: held %s frame xid=%" PRId32 "%s%s (%zu bytes)", c->id,
			  dir_name(dir), xid, op ? " op=" : "", op ? zkframe_op_name(op) : "",
			  f->raw_len);
	} else {
		relay_bytes_append(&d->out, f->raw, f->raw_len);
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
	if (zkframe_request(f, &xid, &op) == 0 && p->drop == DROP_ARMED &&
	    (p->drop_set ? zkframe_setdata_path(f, &path, &plen)
			 : zkframe_create_path(f, &path, &plen)) == 0 &&
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
				  "conn %d session 0x%" PRIx64 ": dropped the %s reply xid=%" PRId32
				  " zxid=0x%" PRIx64 " err=0; closing the connection",
				  c->id, (uint64_t)c->session, p->drop_set ? "setData" : "create",
				  xid, (uint64_t)zxid);
			/* Replies before the dropped one were answered: deliver
			 * them (best effort) so only this reply is lost. */
			relay_bytes_flush(c->rc.afd, &c->s2c.out, NULL);
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
	int fd = dir == ZKPROXY_C2S ? c->rc.afd : c->rc.ufd;
	struct dir_state *d = dir == ZKPROXY_C2S ? &c->c2s : &c->s2c;
	unsigned char buf[RELAY_READ_CHUNK];
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

static void accept_one(void *self)
{
	struct zkproxy *p = self;
	int cfd = relay_accept(p->r.lfd);
	if (cfd < 0)
		return;
	struct conn *c = wb_xcalloc(1, sizeof *c);
	c->id = ++p->next_id;
	c->rc.afd = cfd;
	c->rc.ufd = -1;
	zkframe_parser_init(&c->c2s.parser);
	zkframe_parser_init(&c->s2c.parser);
	relay_nodelay(cfd);
	relay_add_conn(&p->r, &c->rc);
	add_event(p, ZKPROXY_EV_ACCEPT, c, 0, 0, 0, 0, 0, 0, "conn %d: client connected", c->id);
	int sfd = relay_connect(&p->up);
	if (sfd < 0) {
		close_conn(p, c, ZKPROXY_EV_CLOSED, "closed: the server refused the connection");
		return;
	}
	c->rc.ufd = sfd;
}

/* Commands; p->r.mu is held. */
static long long do_cut(struct zkproxy *p)
{
	long long n = 0;
	for (size_t i = 0; i < p->r.nconns; i++) {
		if (conn_at(p, i)->rc.dead)
			continue;
		close_conn(p, conn_at(p, i), ZKPROXY_EV_CUT, "cut by the lab");
		n++;
	}
	return n;
}

static long long do_release(struct zkproxy *p)
{
	long long total = 0;
	p->hold_dirs = 0;
	for (size_t i = 0; i < p->r.nconns; i++) {
		struct conn *c = conn_at(p, i);
		if (c->rc.dead)
			continue;
		for (int dir = ZKPROXY_C2S; dir <= ZKPROXY_S2C; dir++) {
			struct dir_state *d = dir == ZKPROXY_C2S ? &c->c2s : &c->s2c;
			size_t n = relay_bytes_move(&d->out, &d->held);
			if (!n)
				continue;
			total += (long long)n;
			add_event(p, ZKPROXY_EV_RELEASED, c, dir, 0, 0, 0, 0, n,
				  "conn %d: released %zu held bytes %s, in order", c->id, n,
				  dir_name(dir));
		}
		flush_conn(p, c);
	}
	return total;
}

static long long run_command(void *self, int cmd)
{
	struct zkproxy *p = self;
	if (cmd == CMD_CUT)
		return do_cut(p);
	if (cmd == CMD_RELEASE)
		return do_release(p);
	return 0;
}

static void poll_events(void *self, struct relay_conn *rc, struct pollfd pfd[2])
{
	(void)self;
	struct conn *c = (struct conn *)rc;
	short ce = 0, se = 0;
	if (relay_bytes_pending(&c->c2s.out) + relay_bytes_pending(&c->c2s.held) < BACKLOG_LIMIT)
		ce |= POLLIN;
	if (relay_bytes_pending(&c->s2c.out))
		ce |= POLLOUT;
	if (relay_bytes_pending(&c->s2c.out) + relay_bytes_pending(&c->s2c.held) < BACKLOG_LIMIT)
		se |= POLLIN;
	if (relay_bytes_pending(&c->c2s.out))
		se |= POLLOUT;
	pfd[0] = (struct pollfd){c->rc.afd, ce, 0};
	pfd[1] = (struct pollfd){c->rc.ufd, se, 0};
}

static void serve(void *self, struct relay_conn *rc, short cr, short sr)
{
	struct zkproxy *p = self;
	struct conn *c = (struct conn *)rc;
	if ((cr & (POLLIN | POLLHUP | POLLERR)) && read_side(p, c, ZKPROXY_C2S))
		return;
	if ((sr & (POLLIN | POLLHUP | POLLERR)) && read_side(p, c, ZKPROXY_S2C))
		return;
	flush_conn(p, c);
}

static const struct relay_ops zkproxy_ops = {
	.events = poll_events,
	.command = run_command,
	.serve = serve,
	.accept = accept_one,
	.conn_free = conn_free,
};

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
	p->drop_prefix = wb_xstrdup("");
	relay_init(&p->r, &zkproxy_ops, p);
	int rc = relay_open(&p->r);
	if (rc == 0) {
		snprintf(p->connect, sizeof p->connect, "127.0.0.1:%d", p->r.port);
		rc = relay_start(&p->r);
	}
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
	relay_fini(&p->r);
	free(p->drop_prefix);
	free(p->ev);
	free(p);
}

int zkproxy_port(const struct zkproxy *p)
{
	return p->r.port;
}

const char *zkproxy_connect(const struct zkproxy *p)
{
	return p->connect;
}

static int arm_drop(struct zkproxy *p, const char *prefix, int set)
{
	if (!prefix)
		return WB_EINVAL;
	pthread_mutex_lock(&p->r.mu);
	free(p->drop_prefix);
	p->drop_prefix = wb_xstrdup(prefix);
	p->drop_set = set;
	p->drop = DROP_ARMED;
	p->drop_conn = 0;
	p->drop_xid = 0;
	pthread_mutex_unlock(&p->r.mu);
	return 0;
}

int zkproxy_arm_drop_create(struct zkproxy *p, const char *prefix)
{
	return arm_drop(p, prefix, 0);
}

int zkproxy_arm_drop_set(struct zkproxy *p, const char *prefix)
{
	return arm_drop(p, prefix, 1);
}

int zkproxy_disarm(struct zkproxy *p)
{
	pthread_mutex_lock(&p->r.mu);
	p->drop = DROP_OFF;
	pthread_mutex_unlock(&p->r.mu);
	return 0;
}

int zkproxy_cut(struct zkproxy *p)
{
	return (int)relay_run(&p->r, CMD_CUT);
}

int zkproxy_hold(struct zkproxy *p, int dirs)
{
	if (dirs <= 0 || dirs > ZKPROXY_BOTH)
		return WB_EINVAL;
	pthread_mutex_lock(&p->r.mu);
	p->hold_dirs |= dirs;
	pthread_mutex_unlock(&p->r.mu);
	return 0;
}

long long zkproxy_release(struct zkproxy *p)
{
	return relay_run(&p->r, CMD_RELEASE);
}

int zkproxy_wait(struct zkproxy *p, enum zkproxy_ev_kind kind, int timeout_ms,
		 struct zkproxy_event *ev)
{
	struct timespec dl;
	mono_deadline(&dl, timeout_ms);
	int rc = WB_EBUSY;
	pthread_mutex_lock(&p->r.mu);
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
		if (pthread_cond_timedwait(&p->r.cond, &p->r.mu, &dl) == ETIMEDOUT &&
		    p->cursor >= p->nev)
			break;
	}
out:
	pthread_mutex_unlock(&p->r.mu);
	return rc;
}

size_t zkproxy_event_count(struct zkproxy *p)
{
	pthread_mutex_lock(&p->r.mu);
	size_t n = p->nev;
	pthread_mutex_unlock(&p->r.mu);
	return n;
}

int zkproxy_event_get(struct zkproxy *p, size_t i, struct zkproxy_event *ev)
{
	int rc = WB_ERANGE;
	pthread_mutex_lock(&p->r.mu);
	if (i < p->nev) {
		*ev = p->ev[i];
		rc = 0;
	}
	pthread_mutex_unlock(&p->r.mu);
	return rc;
}

void zkproxy_report(struct zkproxy *p, struct report *r, int verbose)
{
	for (;;) {
		struct zkproxy_event e;
		pthread_mutex_lock(&p->r.mu);
		int have = p->reported < p->nev;
		if (have)
			e = p->ev[p->reported++];
		pthread_mutex_unlock(&p->r.mu);
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
