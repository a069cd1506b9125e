/*
 * zkframe.c - incremental ZooKeeper frame parser (see zkframe.h).
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

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

static int32_t sbe32(const unsigned char *b)
{
	uint32_t u = be32(b);
	return u > INT32_MAX ? (int32_t)(u - 0x80000000u) - INT32_MAX - 1 : (int32_t)u;
}

static int64_t sbe64(const unsigned char *b)
{
	uint64_t u = (uint64_t)be32(b) << 32 | be32(b + 4);
	return u > INT64_MAX ? (int64_t)(u - 0x8000000000000000u) - INT64_MAX - 1 : (int64_t)u;
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

int zkframe_connect_request(const struct zkframe *f, int64_t *last_zxid, int32_t *timeout_ms,
			    int64_t *session)
{
	if (f->body_len < 24)
		return WB_EINVAL;
	if (last_zxid)
		*last_zxid = sbe64(f->body + 4);
	if (timeout_ms)
		*timeout_ms = sbe32(f->body + 12);
	if (session)
		*session = sbe64(f->body + 16);
	return 0;
}

int zkframe_connect_response(const struct zkframe *f, int32_t *timeout_ms, int64_t *session)
{
	if (f->body_len < 16)
		return WB_EINVAL;
	if (timeout_ms)
		*timeout_ms = sbe32(f->body + 4);
	if (session)
		*session = sbe64(f->body + 8);
	return 0;
}

int zkframe_request(const struct zkframe *f, int32_t *xid, int32_t *type)
{
	if (f->body_len < 8)
		return WB_EINVAL;
	if (xid)
		*xid = sbe32(f->body);
	if (type)
		*type = sbe32(f->body + 4);
	return 0;
}

int zkframe_reply(const struct zkframe *f, int32_t *xid, int64_t *zxid, int32_t *err)
{
	if (f->body_len < 16)
		return WB_EINVAL;
	if (xid)
		*xid = sbe32(f->body);
	if (zxid)
		*zxid = sbe64(f->body + 4);
	if (err)
		*err = sbe32(f->body + 12);
	return 0;
}

int zkframe_is_create(int32_t type)
{
	return type == ZKOP_CREATE || type == ZKOP_CREATE2 || type == ZKOP_CREATE_CONTAINER ||
	       type == ZKOP_CREATE_TTL;
}

int zkframe_create_path(const struct zkframe *f, const char **path, size_t *len)
{
	int32_t type;
	if (zkframe_request(f, NULL, &type) != 0 || !zkframe_is_create(type) || f->body_len < 12)
		return WB_EINVAL;
	int32_t n = sbe32(f->body + 8);
	if (n < 0 || (size_t)n > f->body_len - 12)
		return WB_EINVAL;
	if (path)
		*path = (const char *)f->body + 12;
	if (len)
		*len = (size_t)n;
	return 0;
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
