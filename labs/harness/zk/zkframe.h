/*
 * zkframe.h - the ZooKeeper client/server wire framing, parsed
 * incrementally with no I/O, so the fault proxy can be unit-tested and
 * fuzzed.
 *
 * On the wire every frame is a 4-byte big-endian length followed by that
 * many bytes.  The first frame each way is the connect handshake
 * (ConnectRequest / ConnectResponse); after it a request body starts with
 * {int xid; int type} and a reply body with {int xid; long zxid; int err}.
 * Replies with xid -1 are watch notifications, -2 pings, -4 auth, -8
 * set-watches.  The C client's xids start near time(0), not at 1.
 *
 * A length that is negative or larger than ZKFRAME_MAX_LEN is absurd: the
 * parser refuses it and the connection must be closed.  16 MiB is sixteen
 * times ZooKeeper's default jute.maxbuffer (0xfffff, just under 1 MiB), so
 * no frame a default server or client accepts is refused, while a garbage
 * prefix (ASCII text read as a length is at least 0x20000000) is.
 *
 * Not here: sockets, policies (what to drop or hold) - see zkproxy.h.
 */
#ifndef WB_ZKFRAME_H
#define WB_ZKFRAME_H

#include <stddef.h>
#include <stdint.h>

#define ZKFRAME_MAX_LEN (16u * 1024u * 1024u)

/* ZooKeeper op codes the proxy cares about (ZooDefs.OpCode). */
enum {
	ZKOP_CREATE = 1,
	ZKOP_DELETE = 2,
	ZKOP_EXISTS = 3,
	ZKOP_GETDATA = 4,
	ZKOP_SETDATA = 5,
	ZKOP_GETCHILDREN = 8,
	ZKOP_SYNC = 9,
	ZKOP_PING = 11,
	ZKOP_GETCHILDREN2 = 12,
	ZKOP_CHECK = 13,
	ZKOP_MULTI = 14,
	ZKOP_CREATE2 = 15,
	ZKOP_CREATE_CONTAINER = 19,
	ZKOP_CREATE_TTL = 21,
	ZKOP_CLOSE = -11,
};

/* One complete frame.  Pointers into the parser's buffer: valid until the
 * next zkframe_feed or zkframe_parser_clear on that parser. */
struct zkframe {
	const unsigned char *raw;  /* length prefix + body, as on the wire */
	size_t raw_len;		   /* 4 + body_len */
	const unsigned char *body; /* raw + 4 */
	size_t body_len;	   /* the length the prefix announced */
};

/* Incremental parser for one direction of one connection. */
struct zkframe_parser {
	unsigned char *buf; /* prefix + body of the frame being assembled */
	size_t have;	    /* bytes of it received */
	size_t cap;	    /* bytes allocated */
	uint64_t frames;    /* complete frames returned so far */
	int bad;	    /* an absurd length was seen: refuse everything */
};

/* Initialises p (no allocation yet). */
void zkframe_parser_init(struct zkframe_parser *p);

/* Frees p's buffer; p may be initialised again. */
void zkframe_parser_clear(struct zkframe_parser *p);

/* Consumes bytes from data[0..len) until one frame is complete or the input
 * is used up; *used receives the bytes consumed.  Returns 1 when a frame
 * completed (*f filled; call again with the rest of the input), 0 when all
 * input was consumed without completing one, WB_ERANGE when a length
 * prefix is negative or above ZKFRAME_MAX_LEN (then and on every later
 * call: close the connection).  Frames split across calls and several
 * frames in one call are both handled. */
int zkframe_feed(struct zkframe_parser *p, const void *data, size_t len, size_t *used,
		 struct zkframe *f);

/* Decoders over a frame body.  Each returns 0, or WB_EINVAL when the body
 * is too short or malformed.  Out pointers may be NULL. */

/* ConnectRequest: {int protocolVersion; long lastZxidSeen; int timeOut;
 * long sessionId; buffer passwd; ...}.  session 0 asks for a new one. */
int zkframe_connect_request(const struct zkframe *f, int64_t *last_zxid, int32_t *timeout_ms,
			    int64_t *session);

/* ConnectResponse: {int protocolVersion; int timeOut; long sessionId;
 * buffer passwd; ...}.  A session of 0 means the server refused the
 * session (expired). */
int zkframe_connect_response(const struct zkframe *f, int32_t *timeout_ms, int64_t *session);

/* RequestHeader {int xid; int type}. */
int zkframe_request(const struct zkframe *f, int32_t *xid, int32_t *type);

/* ReplyHeader {int xid; long zxid; int err}. */
int zkframe_reply(const struct zkframe *f, int32_t *xid, int64_t *zxid, int32_t *err);

/* Whether type creates a node whose request body starts with the path
 * (create, create2, createContainer, createTTL). */
int zkframe_is_create(int32_t type);

/* The path of a create request (after the request header: ustring = int
 * length + bytes, not NUL-terminated).  WB_EINVAL when the frame is not a
 * create or the string is truncated or has a negative length. */
int zkframe_create_path(const struct zkframe *f, const char **path, size_t *len);

/* The same for a setData request (its body also starts with the path). */
int zkframe_setdata_path(const struct zkframe *f, const char **path, size_t *len);

/* A short name for an op code ("create", "getChildren2", ...), "op?" when
 * unknown. */
const char *zkframe_op_name(int32_t type);

#endif
