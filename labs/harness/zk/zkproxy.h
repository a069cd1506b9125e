/*
 * zkproxy.h - a fault-injecting TCP proxy between ZooKeeper clients and one
 * server that understands ZooKeeper framing (harness/zkframe.h).  It runs
 * in a thread of the lab process (a poll() loop), listens on 127.0.0.1 on
 * a free port, and opens one upstream connection per client connection.
 *
 * Faults, each armed by the lab at a moment it chooses:
 *  - drop-create: the next create (create, create2, createContainer,
 *    createTTL) whose path starts with a prefix is forwarded and its xid
 *    recorded; the reply with that xid and err 0 is dropped, the replies
 *    before it are flushed, and the connection is closed on both sides.
 *    The create happened; the client sees ZCONNECTIONLOSS and cannot know.
 *    A reply with an error is passed through and the drop stays armed.
 *    drop-set does the same to a setData.
 *  - cut: every current connection is closed now (held bytes discarded).
 *  - hold: frames in one or both directions are kept (a black hole: the
 *    other side sees silence, not a close) until release flushes them in
 *    their original order.
 * The first frame each way (the connect handshake) is never altered; the
 * proxy logs its session ids.  An absurd frame length (zkframe.h) closes
 * the connection.
 *
 * Everything the proxy does is an event (kind, connection, session, xid,
 * zxid, bytes, and a one-line text) that the lab can wait for with a
 * deadline and report as evidence.  Control calls are synchronous: when
 * they return, the proxy thread has applied them.
 *
 * Not here: TLS, IPv6, several upstream servers, changing frame contents.
 */
#ifndef WB_ZKPROXY_H
#define WB_ZKPROXY_H

#include <stddef.h>
#include <stdint.h>

struct report;
struct zkproxy;

/* Directions, for zkproxy_hold. */
enum { ZKPROXY_C2S = 1, ZKPROXY_S2C = 2, ZKPROXY_BOTH = 3 };

enum zkproxy_ev_kind {
	ZKPROXY_EV_ACCEPT = 1,	  /* a client connected (conn numbers start at 1) */
	ZKPROXY_EV_CONNECT_REQ,	  /* handshake request: session (0 = new), zxid = lastZxidSeen */
	ZKPROXY_EV_SESSION,	  /* handshake reply: session id (0 = refused/expired) */
	ZKPROXY_EV_CREATE_MATCH,  /* the armed create was seen: xid, op */
	ZKPROXY_EV_DROPPED,	  /* its reply was dropped: xid, zxid; conn then closed */
	ZKPROXY_EV_CREATE_FAILED, /* its reply carried err != 0: passed on, still armed */
	ZKPROXY_EV_HELD,	  /* a frame was held: dir, xid (requests/replies), bytes */
	ZKPROXY_EV_RELEASED,	  /* a connection's held frames were flushed: dir, bytes */
	ZKPROXY_EV_CUT,		  /* a connection was cut by zkproxy_cut: bytes discarded */
	ZKPROXY_EV_BAD_FRAME,	  /* absurd length prefix: dir, bytes = announced length */
	ZKPROXY_EV_CLOSED,	  /* a connection ended (peer closed, error, after a drop) */
};

struct zkproxy_event {
	enum zkproxy_ev_kind kind;
	int conn;	 /* connection number */
	int dir;	 /* ZKPROXY_C2S or ZKPROXY_S2C where it applies, else 0 */
	int64_t session; /* the connection's session id when known, else 0 */
	int32_t xid;	 /* request/reply xid where it applies */
	int32_t op;	 /* request op code where it applies */
	int64_t zxid;	 /* reply zxid where it applies */
	int32_t err;	 /* reply err where it applies */
	uint64_t bytes;	 /* bytes held / released / discarded / announced */
	long long at_ms; /* CLOCK_MONOTONIC milliseconds */
	char text[200];	 /* one line for humans, e.g. "dropped reply xid=... zxid=0x..." */
};

/* Listens on 127.0.0.1 (free port) and starts the proxy thread, forwarding
 * to upstream "127.0.0.1:PORT" (numeric IPv4 only).  Returns 0, WB_EINVAL
 * (bad upstream) or WB_EIO; *out freed with zkproxy_free. */
int zkproxy_new(const char *upstream, struct zkproxy **out);

/* Stops the thread, closes every connection, frees p.  Accepts NULL. */
void zkproxy_free(struct zkproxy *p);

/* The listening port, and "127.0.0.1:<port>" for clients (borrowed). */
int zkproxy_port(const struct zkproxy *p);
const char *zkproxy_connect(const struct zkproxy *p);

/* Arms drop-create for paths starting with prefix (copied; "" matches
 * every create).  Replaces an earlier arming.  Returns 0 or WB_EINVAL. */
int zkproxy_arm_drop_create(struct zkproxy *p, const char *prefix);

/* The same fault for the next setData (zoo_set) whose path starts with
 * prefix: the write is applied, its reply dropped, the connection closed
 * (the events are named as for a create).  Replaces an earlier arming of
 * either.  Returns 0 or WB_EINVAL. */
int zkproxy_arm_drop_set(struct zkproxy *p, const char *prefix);

/* Disarms drop-create (a pending xid is forgotten).  Returns 0. */
int zkproxy_disarm(struct zkproxy *p);

/* Closes every current connection now; returns how many were cut. */
int zkproxy_cut(struct zkproxy *p);

/* Holds frames in dirs (ZKPROXY_C2S, _S2C or _BOTH) on current and new
 * connections until zkproxy_release.  Returns 0 or WB_EINVAL. */
int zkproxy_hold(struct zkproxy *p, int dirs);

/* Stops holding and flushes every held frame in order; returns the number
 * of bytes released (also reported per connection as events). */
long long zkproxy_release(struct zkproxy *p);

/* Waits for the next event of this kind after the read cursor, consuming
 * the events before it.  Returns 0 (copy in *ev when non-NULL) or WB_EBUSY
 * when timeout_ms passed first. */
int zkproxy_wait(struct zkproxy *p, enum zkproxy_ev_kind kind, int timeout_ms,
		 struct zkproxy_event *ev);

/* All events so far (consumed or not): count, and a copy of event i
 * (0 or WB_ERANGE). */
size_t zkproxy_event_count(struct zkproxy *p);
int zkproxy_event_get(struct zkproxy *p, size_t i, struct zkproxy_event *ev);

/* Reports every event not reported before as evidence "proxy" = text,
 * skipping ACCEPT/CLOSED/HELD chatter unless verbose. */
void zkproxy_report(struct zkproxy *p, struct report *r, int verbose);

/* A short name for an event kind ("dropped", "session", ...). */
const char *zkproxy_kind_name(enum zkproxy_ev_kind kind);

#endif
