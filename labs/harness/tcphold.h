/*
 * tcphold.h - a raw TCP relay on 127.0.0.1 that can hold a byte stream.
 *
 * It sits on the links between ZooKeeper servers (the quorum port a
 * follower uses to reach its leader, or an election port), where the
 * protocol is not the client protocol that harness/zkproxy.h parses: it
 * never looks at the bytes.  One relay listens on a free port and opens
 * one upstream connection per accepted connection; a thread of the lab
 * process runs a poll() loop.
 *
 * Faults, applied to current and new connections:
 *  - hold: bytes arriving in one or both directions are buffered (the
 *    receiver sees silence, not a close) until release, which writes them
 *    out in their original order before anything newer;
 *  - cut: every current connection is closed now (buffered bytes are
 *    discarded);
 *  - sever: every current connection loses its accepted side (closed, so
 *    that side sees the link end at once) while the upstream side stays
 *    open and silent (what it sends is read and dropped): an asymmetric
 *    failure where the upstream notices only by its own timeouts;
 *  - refuse: new connections are closed as soon as they are accepted (with
 *    cut or sever, a partition of this link).
 * A close on one side is passed on as a shutdown of the other side once
 * everything before it was delivered (so a held stream keeps its end).
 * Counters (connections, bytes forwarded, buffered, discarded) are the
 * evidence a lab reports; a lab waits on them with a predicate and a
 * deadline, never by sleeping.  Control calls are synchronous: when they
 * return, the relay thread has applied them.
 *
 * Not here: framing, frame-level faults (zkproxy.h), IPv6, delays or
 * bandwidth shaping, several upstreams.
 */
#ifndef WB_TCPHOLD_H
#define WB_TCPHOLD_H

#include <stdint.h>

/* Directions.  UP is from the connecting side (accepted connection) to the
 * upstream address, DOWN the way back. */
enum { TCPHOLD_UP = 1, TCPHOLD_DOWN = 2, TCPHOLD_BOTH = 3 };

/* Counters; index [0] is UP, [1] is DOWN.  Bytes are counted when the
 * relay reads them. */
struct tcphold_stats {
	int accepted;		/* connections accepted so far */
	int refused;		/* of those, closed at once by refuse mode */
	int upstream_failed;	/* of those, closed because upstream refused */
	int open;		/* connections currently open */
	int half_open;		/* of those, severed ones (upstream side only) */
	int severed;		/* connections severed by tcphold_sever, ever */
	int waiting_upstream;	/* of those, still retrying their upstream connect */
	int closed;		/* connections that ended (peer, error, cut) */
	int cut;		/* connections closed by tcphold_cut */
	int hold_dirs;		/* directions held now */
	uint64_t forwarded[2];	/* bytes written on, ever */
	uint64_t held[2];	/* bytes buffered by a hold right now */
	uint64_t held_total[2]; /* bytes that went through a hold buffer, ever */
	uint64_t released[2];	/* bytes flushed by tcphold_release, ever */
	uint64_t discarded[2];	/* buffered bytes lost to a close or cut, ever */
};

struct tcphold;

/* Listens on 127.0.0.1 (free port) and starts the relay thread, relaying
 * to 127.0.0.1:upstream_port.  name (copied, may be NULL) labels the
 * relay in messages.  Returns 0, WB_EINVAL (bad port) or WB_EIO; *out is
 * freed with tcphold_free. */
int tcphold_new(int upstream_port, const char *name, struct tcphold **out);

/* Stops the thread, closes every connection and the listener, frees h.
 * Accepts NULL. */
void tcphold_free(struct tcphold *h);

/* The listening port, the upstream port, the name ("" when none). */
int tcphold_port(const struct tcphold *h);
int tcphold_upstream_port(const struct tcphold *h);
const char *tcphold_name(const struct tcphold *h);

/* Starts holding dirs (TCPHOLD_UP, _DOWN or _BOTH) on current and new
 * connections: from the moment this returns, bytes read in those
 * directions are buffered.  Bytes already handed to the kernel are not
 * recalled.  Returns 0 or WB_EINVAL. */
int tcphold_hold(struct tcphold *h, int dirs);

/* Stops every hold and flushes the buffered bytes in order.  Returns the
 * number of bytes released; when it returns they have been handed to the
 * kernel (or are queued behind a full socket buffer, still in order). */
long long tcphold_release(struct tcphold *h);

/* Closes every current connection now, discarding buffered bytes.
 * Returns how many were cut. */
int tcphold_cut(struct tcphold *h);

/* ms > 0: when the upstream refuses a new connection, keep the accepted
 * side open (buffering what it sends) and retry the upstream every 50 ms
 * for up to ms before giving up; 0 (the default): close it at once.  For
 * links to a server that may not listen yet.  Returns 0 or WB_EINVAL. */
int tcphold_set_connect_retry(struct tcphold *h, int ms);

/* Closes the accepted side of every current connection now and keeps the
 * upstream side open, reading and dropping what it sends (see above).
 * Returns how many were severed. */
int tcphold_sever(struct tcphold *h);

/* refuse != 0: accepted connections are closed at once; 0: normal.
 * Returns 0. */
int tcphold_refuse(struct tcphold *h, int refuse);

/* A copy of the counters. */
void tcphold_stats(struct tcphold *h, struct tcphold_stats *st);

/* Waits until pred(stats, arg) returns non-zero; the predicate is called
 * with the relay's lock held, on every change, and must not call tcphold
 * functions.  Returns 0 (a copy of the stats that satisfied it in *st when
 * non-NULL) or WB_EBUSY after timeout_ms. */
int tcphold_wait(struct tcphold *h, int (*pred)(const struct tcphold_stats *st, void *arg),
		 void *arg, int timeout_ms, struct tcphold_stats *st);

/* Common predicates for tcphold_wait.  arg points to a uint64_t (bytes) or
 * an int (connections):
 *  - held_down_over / held_up_over: held[dir] > *arg;
 *  - accepted_over: accepted > *arg;
 *  - open_at_most: open <= *arg. */
int tcphold_pred_held_down_over(const struct tcphold_stats *st, void *arg);
int tcphold_pred_held_up_over(const struct tcphold_stats *st, void *arg);
int tcphold_pred_accepted_over(const struct tcphold_stats *st, void *arg);
int tcphold_pred_open_at_most(const struct tcphold_stats *st, void *arg);

#endif
