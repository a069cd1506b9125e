/*
 * zkframe.c - incremental ZooKeeper frame parser (see zkframe.h).
 *
 * The frame splitter is our own (the C client has none that works on a
 * byte stream it does not own).  The records inside a frame are decoded
 * by the ZooKeeper C client's own Jute code from libzookeeper-mt-dev
 * (recordio.h, zookeeper.jute.h): deserialize_RequestHeader and
 * deserialize_ReplyHeader whole, the handshakes' fixed fields and a
 * create's path with the buffer archive's field decoders, so the proxy
 * reads the wire exactly as the client writes it.  The Debian package exports those functions only
 * from libzookeeper_mt.a (the shared object hides them), so CMake links the archive's Jute members
 * as well.
 *
 * Two whole-record decoders are not used, both measured.  The records
 * come from the network, and the library trusts their counts:
 * - deserialize_CreateRequest calls calloc(count, sizeof(struct ACL))
 *   for the ACL vector before checking that the bytes are there: a
 *   25-byte body with the count 0x7fffffff asks for about 80 GiB (glibc
 *   refuses and it returns -7; under ASan or libFuzzer's malloc limit it
 *   is a crash).  tests/unit/test_zkframe.c has that frame.
 * - deserialize_ConnectRequest/Response read the passwd buffer with
 *   ia_deserialize_buffer, which checks only that a length is not larger
 *   than what is left, so a negative one reaches malloc (found by
 *   fuzz_zkframe within a minute: malloc(0xffffffffdbdadada)).
 * The proxy needs only the fields in front of those (the path, the
 * timeout and session), so it reads those fields with the archive's own
 * field decoders and stops.
 *
 * Invariant: p->have < 4 while the prefix is incomplete; once it is
 * complete, p->buf holds 4 + announced bytes of capacity and the frame is
 * returned exactly when p->have reaches 4 + announced.  A returned frame
 * resets p->have on the next call, so the caller may read it until then.
 */
#include "harness/zk/zkframe.h"
#include "base/wb.h"

#include <stdlib.h>
#include <string.h>
#include <zookeeper/recordio.h>
#include <zookeeper/zookeeper.jute.h>

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

void zkframe_parser_init(struct zkframe_parser *p)
{
	memset(p, 0, sizeof *p);
}

void zkframe_parser_clear(struct zkframe_parser *p)
{
	free(p->buf);
	zkframe_parser_init(p);
}

static void reserve(struct zkframe_parser *p, size_t n)
{
	if (p->cap >= n)
		return;
	size_t cap = p->cap ? p->cap : 256;
	while (cap < n)
		cap *= 2;
	p->buf = wb_xrealloc(p->buf, cap);
	p->cap = cap;
}

int zkframe_feed(struct zkframe_parser *p, const void *data, size_t len, size_t *used,
		 struct zkframe *f)
{
	const unsigned char *in = data;
	size_t off = 0;
	*used = 0;
	if (p->bad)
		return WB_ERANGE;
	reserve(p, 4);
	/* The previous call returned a complete frame: start a new one. */
	if (p->have >= 4 && p->have == 4 + (size_t)be32(p->buf))
		p->have = 0;
	while (p->have < 4 && off < len)
		p->buf[p->have++] = in[off++];
	if (p->have < 4) {
		*used = off;
		return 0;
	}
	uint32_t n = be32(p->buf);
	if (n > ZKFRAME_MAX_LEN) { /* also every negative int32 */
		p->bad = 1;
		*used = off;
		return WB_ERANGE;
	}
	reserve(p, 4 + (size_t)n);
	size_t want = 4 + (size_t)n - p->have;
	size_t take = len - off < want ? len - off : want;
	if (take)
		memcpy(p->buf + p->have, in + off, take);
	p->have += take;
	off += take;
	*used = off;
	if (p->have < 4 + (size_t)n)
		return 0;
	f->raw = p->buf;
	f->raw_len = 4 + (size_t)n;
	f->body = p->buf + 4;
	f->body_len = n;
	p->frames++;
	return 1;
}

/* A Jute input archive over the frame body (the library only reads it).
 * NULL when out of memory. */
static struct iarchive *body_archive(const struct zkframe *f)
{
	if (f->body_len > ZKFRAME_MAX_LEN)
		return NULL;
	return create_buffer_iarchive((char *)(uintptr_t)f->body, (int)f->body_len);
}

/* The handshake's fixed fields through the archive's own field decoders:
 * each of fields[0..n) is an int (4) or a long (8), read in order into
 * out[] (ints widened).  Returns 0 or WB_EINVAL. */
static int fixed_fields(const struct zkframe *f, const int *widths, size_t n, int64_t *out)
{
	struct iarchive *ia = body_archive(f);
	int rc = ia ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		int32_t v32 = 0;
		if (widths[i] == 4 && (rc = ia->deserialize_Int(ia, "int", &v32)) == 0)
			out[i] = v32;
		else if (widths[i] == 8)
			rc = ia->deserialize_Long(ia, "long", &out[i]);
	}
	if (ia)
		close_buffer_iarchive(&ia);
	return rc == 0 ? 0 : WB_EINVAL;
}

int zkframe_connect_request(const struct zkframe *f, int64_t *last_zxid, int32_t *timeout_ms,
			    int64_t *session)
{
	/* protocolVersion, lastZxidSeen, timeOut, sessionId (then passwd) */
	static const int widths[] = {4, 8, 4, 8};
	int64_t v[4];
	if (fixed_fields(f, widths, 4, v) != 0)
		return WB_EINVAL;
	if (last_zxid)
		*last_zxid = v[1];
	if (timeout_ms)
		*timeout_ms = (int32_t)v[2];
	if (session)
		*session = v[3];
	return 0;
}

int zkframe_connect_response(const struct zkframe *f, int32_t *timeout_ms, int64_t *session)
{
	/* protocolVersion, timeOut, sessionId (then passwd) */
	static const int widths[] = {4, 4, 8};
	int64_t v[3];
	if (fixed_fields(f, widths, 3, v) != 0)
		return WB_EINVAL;
	if (timeout_ms)
		*timeout_ms = (int32_t)v[1];
	if (session)
		*session = v[2];
	return 0;
}

/* Decodes the RequestHeader at the start of the body into *h; *ia_out,
 * when not NULL, receives the archive positioned after it (the caller
 * closes it).  Returns 0 or WB_EINVAL. */
static int request_header(const struct zkframe *f, struct RequestHeader *h,
			  struct iarchive **ia_out)
{
	struct iarchive *ia = body_archive(f);
	int rc = ia ? deserialize_RequestHeader(ia, "header", h) : -1;
	if (ia && (rc != 0 || !ia_out))
		close_buffer_iarchive(&ia);
	if (rc != 0)
		return WB_EINVAL;
	if (ia_out)
		*ia_out = ia;
	return 0;
}

int zkframe_request(const struct zkframe *f, int32_t *xid, int32_t *type)
{
	struct RequestHeader h;
	if (request_header(f, &h, NULL) != 0)
		return WB_EINVAL;
	if (xid)
		*xid = h.xid;
	if (type)
		*type = h.type;
	return 0;
}

int zkframe_reply(const struct zkframe *f, int32_t *xid, int64_t *zxid, int32_t *err)
{
	struct iarchive *ia = body_archive(f);
	struct ReplyHeader h;
	int rc = ia ? deserialize_ReplyHeader(ia, "header", &h) : -1;
	if (ia)
		close_buffer_iarchive(&ia);
	if (rc != 0)
		return WB_EINVAL;
	if (xid)
		*xid = h.xid;
	if (zxid)
		*zxid = h.zxid;
	if (err)
		*err = h.err;
	return 0;
}

int zkframe_is_create(int32_t type)
{
	return type == ZKOP_CREATE || type == ZKOP_CREATE2 || type == ZKOP_CREATE_CONTAINER ||
	       type == ZKOP_CREATE_TTL;
}

/* The path at the start of a request whose type want() accepts. */
static int request_path(const struct zkframe *f, int (*want)(int32_t type), const char **path,
			size_t *len)
{
	struct RequestHeader h;
	struct iarchive *ia = NULL;
	if (request_header(f, &h, &ia) != 0)
		return WB_EINVAL;
	char *s = NULL;
	int rc = want(h.type) ? ia->deserialize_String(ia, "path", &s) : -1;
	close_buffer_iarchive(&ia);
	/* The library copied the string; the caller gets it in place, right
	 * after the header and its 4-byte length (the ustring layout). */
	int got = s != NULL;
	size_t n = got ? strlen(s) : 0;
	free(s);
	if (rc != 0 || !got || n > f->body_len - 12)
		return WB_EINVAL;
	if (path)
		*path = (const char *)f->body + 12;
	if (len)
		*len = n;
	return 0;
}

int zkframe_create_path(const struct zkframe *f, const char **path, size_t *len)
{
	return request_path(f, zkframe_is_create, path, len);
}

static int is_setdata(int32_t type)
{
	return type == ZKOP_SETDATA;
}

int zkframe_setdata_path(const struct zkframe *f, const char **path, size_t *len)
{
	return request_path(f, is_setdata, path, len);
}

const char *zkframe_op_name(int32_t type)
{
	switch (type) {
	case ZKOP_CREATE: return "create";
	case ZKOP_DELETE: return "delete";
	case ZKOP_EXISTS: return "exists";
	case ZKOP_GETDATA: return "getData";
	case ZKOP_SETDATA: return "setData";
	case ZKOP_GETCHILDREN: return "getChildren";
	case ZKOP_SYNC: return "sync";
	case ZKOP_PING: return "ping";
	case ZKOP_GETCHILDREN2: return "getChildren2";
	case ZKOP_CHECK: return "check";
	case ZKOP_MULTI: return "multi";
	case ZKOP_CREATE2: return "create2";
	case ZKOP_CREATE_CONTAINER: return "createContainer";
	case ZKOP_CREATE_TTL: return "createTTL";
	case ZKOP_CLOSE: return "closeSession";
	default: return "op?";
	}
}
