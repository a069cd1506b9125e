/*
 * relay.h - the machinery shared by the harness's TCP relays (tcphold.c,
 * the raw hold/release relay, and zkproxy.c, the ZooKeeper fault proxy);
 * internal to the harness, not a lab API.
 *
 * A relay listens on 127.0.0.1 on a free port; for each accepted
 * connection the owner opens one upstream connection.  One relay thread
 * runs a poll() loop (relay_start) over a wake pipe, the listening socket
 * and both sockets of every connection; the owner supplies what differs
 * (which events to poll for, what to do with ready sockets, its commands)
 * through struct relay_ops.
 *
 * Threading contract:
 *  - The relay thread holds r->mu whenever it touches state, and never
 *    while blocked in poll(): it unlocks around the poll() call only.
 *    Every ops callback runs on the relay thread with r->mu held.
 *  - A caller may change plain state (flags, counters) directly under
 *    r->mu; since the relay thread reads sockets only with r->mu held,
 *    everything it reads after the caller unlocks sees the change.
 *  - Anything that does socket I/O or closes an fd is a command
 *    (relay_run): it is posted under r->mu, the thread is woken through
 *    the pipe, runs it on the relay thread (ops->command), and acknowledges
 *    it by advancing done_seq and broadcasting r->cond, on which the caller
 *    waits.  So control calls are synchronous and no fd is ever closed
 *    under a poll() running in another thread.  r->cmd_mu lets one command
 *    be in flight at a time.
 *  - r->cond uses CLOCK_MONOTONIC (mono_cond_init; deadlines: mono_deadline); owners also
 *    broadcast it on their own changes (counters, events).
 *  - r->conns is only shrunk at the end of a loop iteration (dead
 *    connections are freed there), so poll indexes stay valid while an
 *    iteration runs.
 */
#ifndef WB_RELAY_H
#define WB_RELAY_H

#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define RELAY_READ_CHUNK 65536 /* bytes read from a socket at a time */

/* A growable byte buffer: d[off..len) is pending. */
struct relay_bytes {
	unsigned char *d;
	size_t off, len, cap;
};

void relay_bytes_append(struct relay_bytes *b, const void *src, size_t n);
size_t relay_bytes_pending(const struct relay_bytes *b);
void relay_bytes_free(struct relay_bytes *b);

/* Appends what is pending in src to dst and empties src; returns how many
 * bytes moved. */
size_t relay_bytes_move(struct relay_bytes *dst, struct relay_bytes *src);

/* Writes what it can of b to the non-blocking fd (nothing when fd < 0),
 * adding the bytes written to *written when non-NULL.  Returns 0 (all
 * written, or the socket buffer is full), or -1 when the peer is gone. */
int relay_bytes_flush(int fd, struct relay_bytes *b, uint64_t *written);

/* Sets TCP_NODELAY on a socket. */
void relay_nodelay(int fd);

/* Accepts a connection on lfd: a non-blocking, close-on-exec fd, or -1. */
int relay_accept(int lfd);

/* Connects to a (127.0.0.1 in practice: a blocking connect answers at
 * once).  Returns a non-blocking fd with TCP_NODELAY, or -1. */
int relay_connect(const struct sockaddr_in *a);

/* The part of a connection the relay knows; the owner's connection struct
 * has it as its first member. */
struct relay_conn {
	int afd;  /* accepted side; -1 once closed */
	int ufd;  /* upstream side; -1 once closed */
	int dead; /* closed; freed at the end of the loop iteration */
};

/* Closes both sockets of c (those still open) and marks it dead. */
void relay_conn_close(struct relay_conn *c);

/* Commands: RELAY_CMD_STOP ends the thread; an owner numbers its own from
 * RELAY_CMD_OWN on. */
enum { RELAY_CMD_NONE = 0, RELAY_CMD_STOP, RELAY_CMD_OWN };

/* What the owner does in the loop; called with r->mu held, self as given
 * to relay_init.  Order per iteration: prepare, events (each connection),
 * poll, command (when one was posted) then changed, serve (each
 * connection polled that is not dead), accept (when the listener is
 * readable), conn_free (each dead connection), changed. */
struct relay_ops {
	/* Before polling; returns the poll timeout in ms (-1: none).  NULL:
	 * no timeout. */
	int (*prepare)(void *self);
	/* Fills pfd[0] (accepted side) and pfd[1] (upstream side) for c. */
	void (*events)(void *self, struct relay_conn *c, struct pollfd pfd[2]);
	/* Runs one of the owner's commands; the result goes to relay_run. */
	long long (*command)(void *self, int cmd);
	/* Handles c's revents: ar on the accepted side, ur on the upstream. */
	void (*serve)(void *self, struct relay_conn *c, short ar, short ur);
	/* The listener is readable. */
	void (*accept)(void *self);
	/* Frees a connection (its sockets are closed already). */
	void (*conn_free)(struct relay_conn *c);
	/* After a command and at the end of each iteration (may be NULL). */
	void (*changed)(void *self);
};

struct relay {
	const struct relay_ops *ops;
	void *self;		    /* passed to ops */
	int lfd;		    /* listening socket */
	int port;		    /* its port */
	int wake[2];		    /* pipe: caller -> relay thread */
	pthread_t thread;	    /* the poll loop */
	int thread_started;	    /* thread must be joined */
	pthread_mutex_t cmd_mu;	    /* one command at a time */
	pthread_mutex_t mu;	    /* guards everything below, and the owner's state */
	pthread_cond_t cond;	    /* CLOCK_MONOTONIC: command acks, owner's changes */
	int cmd;		    /* posted command, RELAY_CMD_NONE when none */
	uint64_t cmd_seq, done_seq; /* posted / acknowledged commands */
	long long cmd_result;	    /* result of the last command */
	int stopping;		    /* the thread must exit */
	struct relay_conn **conns;  /* live connections */
	size_t nconns, conncap;	    /* used / allocated */
};

/* Initialises a zeroed r (the owner's calloc): no fds yet, relay_fini is
 * safe after it. */
void relay_init(struct relay *r, const struct relay_ops *ops, void *self);

/* Creates the wake pipe and listens on 127.0.0.1 on a free port (r->port).
 * Returns 0 or WB_EIO. */
int relay_open(struct relay *r);

/* Starts the relay thread.  Returns 0 or WB_EIO. */
int relay_start(struct relay *r);

/* Stops and joins the thread (when started), closes and frees every
 * connection, closes the listener and the pipe, destroys the locks. */
void relay_fini(struct relay *r);

/* Adds an accepted connection to r->conns; r->mu is held. */
void relay_add_conn(struct relay *r, struct relay_conn *c);

/* Posts cmd and waits until the relay thread has applied it; returns its
 * result.  r->mu must not be held. */
long long relay_run(struct relay *r, int cmd);

#endif
