/*
 * zkclient.h - small helpers over the ZooKeeper 3.8 C client (zookeeper_mt)
 * for labs and tests: a handle whose default watcher records every event
 * (session state changes and node watches set with watch=1) into a queue
 * that the lab waits on with a deadline (a condition variable, no sleeps),
 * plus names for error codes, states and event types.
 *
 * Two facts this module exists to respect:
 *  - Right after ZCONNECTIONLOSS, zoo_state() may still say CONNECTED.  The
 *    truth is the watcher's event sequence: wait for CONNECTING and then
 *    CONNECTED (zkc_wait_state), never poll zoo_state().
 *  - The C client's xids start near time(0), not at 1: never assume a
 *    small xid when matching requests and replies (the proxy logs them).
 *
 * It deliberately holds no recipe logic (locks live in labs/recipes) and
 * never retries an operation.  The C client's own log is sent to a file
 * (zkc_log_init), never to the terminal.
 */
#ifndef WB_ZKCLIENT_H
#define WB_ZKCLIENT_H

#include <stddef.h>
#include <stdint.h>
/* zookeeper_mt: the synchronous zoo_* calls exist only with THREADED. */
#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

/* One event as the default watcher saw it. */
struct zkc_event {
	int type;	 /* ZOO_SESSION_EVENT, ZOO_CREATED_EVENT, ... */
	int state;	 /* ZOO_CONNECTED_STATE, ZOO_CONNECTING_STATE, ... */
	char path[256];	 /* node path ("" for session events), truncated */
	long long at_ms; /* CLOCK_MONOTONIC milliseconds when recorded */
};

struct zkc;

/* Sends the C client's log (level INFO) to <dir>/zkclient.log.  The log
 * stream is process-wide: the first call wins, later calls do nothing.
 * Called by zkc_open when log_dir is non-NULL. */
void zkc_log_init(const char *dir);

/* Starts a handle (zookeeper_init) for hosts ("127.0.0.1:2181,...", may
 * carry a chroot) asking for session_ms; does not wait.  log_dir: see
 * zkc_log_init (NULL leaves logging as it is).  Returns 0, WB_EINVAL (bad
 * host string) or WB_EIO; *out freed with zkc_close. */
int zkc_open(const char *hosts, int session_ms, const char *log_dir, struct zkc **out);

/* zkc_open, then waits up to timeout_ms for CONNECTED.  Returns 0, or
 * WB_EUNAVAIL when no server answered in time (the handle is closed). */
int zkc_connect(const char *hosts, int session_ms, int timeout_ms, const char *log_dir,
		struct zkc **out);

/* Closes the session (zookeeper_close: the server deletes its ephemeral
 * nodes at once) and frees c.  Accepts NULL. */
void zkc_close(struct zkc *c);

/* Checks a connect string before any connection is tried: one or more
 * HOST:PORT separated by commas, optionally followed by a chroot ("/app");
 * HOST an IPv4 address (each part 0-255) or a host name, PORT 1 to 65535.
 * IPv6 ("[::1]:2181") is refused with its own reason.  Returns 0, or
 * WB_EINVAL with the reason written into why (n bytes; the caller adds
 * which option it was). */
int zkc_check_hosts(const char *hosts, char *why, size_t n);

/* How often a wait on a handle with a liveness check asks it (ms). */
#define ZKC_GONE_POLL_MS 100

/* Gives c a liveness check: from now on every zkc_wait_state and
 * zkc_wait_event on c also ends, with WB_EUNAVAIL, as soon as gone(arg)
 * returns non-zero (asked at least every ZKC_GONE_POLL_MS while a wait
 * blocks, from the waiting thread).  Used by zklab so that a lab whose
 * own server died stops waiting at once.  gone NULL removes it. */
void zkc_set_gone(struct zkc *c, int (*gone)(void *arg), void *arg);

/* The C client handle, borrowed, for zoo_* calls. */
zhandle_t *zkc_handle(struct zkc *c);

/* Waits for the next session event with this state after the queue's read
 * cursor, consuming the events before it.  Returns 0 (and copies the event
 * to *ev when ev is non-NULL) or WB_EBUSY when timeout_ms passed first.
 * ZOO_EXPIRED_SESSION_STATE and ZOO_AUTH_FAILED_STATE also end a wait for
 * another state: then WB_ENOENT (the awaited state can never come). */
int zkc_wait_state(struct zkc *c, int state, int timeout_ms, struct zkc_event *ev);

/* Waits for the next event of this type (any state) on this path after the
 * read cursor (path NULL: any path), consuming the events before it.
 * Returns 0 or WB_EBUSY on timeout. */
int zkc_wait_event(struct zkc *c, int type, const char *path, int timeout_ms, struct zkc_event *ev);

/* Events recorded so far (all of them, consumed or not), and a copy of
 * event i.  Returns 0 or WB_ERANGE. */
size_t zkc_event_count(struct zkc *c);
int zkc_event_get(struct zkc *c, size_t i, struct zkc_event *ev);

/* The session id (0 before the first connection) and the negotiated
 * session timeout in ms. */
int64_t zkc_session_id(struct zkc *c);
int zkc_session_timeout(struct zkc *c);

/* Formats a session id as ZooKeeper prints it ("0x1000b2c3d4e0000").
 * buf must hold ZKC_HEX_LEN bytes; returns buf. */
#define ZKC_HEX_LEN 20
char *zkc_hex(int64_t id, char buf[ZKC_HEX_LEN]);

/* Names for codes: "ZBADVERSION", "ZOO_CONNECTED_STATE",
 * "ZOO_DELETED_EVENT", ...  Never NULL (unknown codes give "?"). */
const char *zkc_err_name(int zrc);
const char *zkc_state_name(int state);
const char *zkc_type_name(int type);

/* Translates a zoo_* return code to WB_E*: ZOK -> 0, ZNONODE -> WB_ENOENT,
 * ZBADARGUMENTS -> WB_EINVAL, connection and session errors -> WB_EUNAVAIL,
 * everything else -> WB_EIO.  Labs that teach an error code compare the
 * raw ZooKeeper code instead. */
int zkc_to_wb(int zrc);

/* Milliseconds on CLOCK_MONOTONIC (the clock zkc_event.at_ms uses). */
long long zkc_now_ms(void);

#endif
