/*
 * test_zkframe.c - the incremental ZooKeeper frame parser: whole frames,
 * frames split at every byte, several frames in one read, absurd lengths,
 * the connect handshake, reply headers and create paths, and a seeded
 * property test (any split of a stream gives the same frames).
 */
#include "base/wb.h"
#include "harness/zk/zkframe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

struct out {
	unsigned char d[4096];
	size_t n;
};

static void put32(struct out *o, uint32_t v)
{
	o->d[o->n++] = (unsigned char)(v >> 24);
	o->d[o->n++] = (unsigned char)(v >> 16);
	o->d[o->n++] = (unsigned char)(v >> 8);
	o->d[o->n++] = (unsigned char)v;
}

static void put64(struct out *o, uint64_t v)
{
	put32(o, (uint32_t)(v >> 32));
	put32(o, (uint32_t)v);
}

static void put_bytes(struct out *o, const void *p, size_t n)
{
	memcpy(o->d + o->n, p, n);
	o->n += n;
}

/* Wraps body[0..n) with its length prefix at the end of o. */
static void frame(struct out *o, const struct out *body)
{
	put32(o, (uint32_t)body->n);
	put_bytes(o, body->d, body->n);
}

static void create_request(struct out *o, int32_t xid, int32_t type, const char *path)
{
	struct out b = {{0}, 0};
	put32(&b, (uint32_t)xid);
	put32(&b, (uint32_t)type);
	put32(&b, (uint32_t)strlen(path));
	put_bytes(&b, path, strlen(path));
	put32(&b, 1); /* data */
	put_bytes(&b, "x", 1);
	put32(&b, 0); /* acl count */
	put32(&b, 3); /* flags: ephemeral | sequential */
	frame(o, &b);
}

/* Feeds data in chunks of `chunk` bytes (0: all at once), collecting the
 * body lengths and first bytes of the frames.  Returns the frame count or
 * the error code. */
static int feed_all(const unsigned char *data, size_t n, size_t chunk, size_t lens[], int max)
{
	struct zkframe_parser p;
	zkframe_parser_init(&p);
	int count = 0;
	size_t pos = 0;
	while (pos < n) {
		size_t len = chunk ? (n - pos < chunk ? n - pos : chunk) : n - pos;
		size_t off = 0;
		while (off < len) {
			struct zkframe f;
			size_t used = 0;
			int rc = zkframe_feed(&p, data + pos + off, len - off, &used, &f);
			assert_true(used <= len - off);
			off += used;
			if (rc < 0) {
				zkframe_parser_clear(&p);
				return rc;
			}
			if (rc == 0) {
				assert_int_equal(off, len);
				break;
			}
			assert_int_equal(f.raw_len, f.body_len + 4);
			assert_ptr_equal(f.body, f.raw + 4);
			if (count < max)
				lens[count] = f.body_len;
			count++;
		}
		pos += len;
	}
	zkframe_parser_clear(&p);
	return count;
}

static void one_whole_frame(void **state)
{
	(void)state;
	struct out o = {{0}, 0};
	create_request(&o, 1700000000, ZKOP_CREATE, "/a");
	size_t lens[4];
	assert_int_equal(feed_all(o.d, o.n, 0, lens, 4), 1);
	assert_int_equal(lens[0], o.n - 4);
}

static void frames_split_at_every_byte(void **state)
{
	(void)state;
	struct out o = {{0}, 0};
	create_request(&o, 5, ZKOP_CREATE2, "/locks/x");
	create_request(&o, 6, ZKOP_CREATE, "/y");
	size_t lens[4];
	assert_int_equal(feed_all(o.d, o.n, 1, lens, 4), 2);
	assert_int_equal(feed_all(o.d, o.n, 3, lens, 4), 2);
	assert_int_equal(feed_all(o.d, o.n, 5, lens, 4), 2);
}

static void several_frames_in_one_read(void **state)
{
	(void)state;
	struct out o = {{0}, 0};
	for (int i = 0; i < 5; i++)
		create_request(&o, 100 + i, ZKOP_CREATE, i % 2 ? "/odd" : "/even-longer");
	size_t lens[8];
	assert_int_equal(feed_all(o.d, o.n, 0, lens, 8), 5);
	assert_int_equal(lens[0], lens[2]);
	assert_true(lens[0] != lens[1]);

	/* The frame pointer refers to the frame just completed, with its
	 * own bytes, even when more frames follow in the same buffer. */
	struct zkframe_parser p;
	zkframe_parser_init(&p);
	size_t off = 0, used;
	struct zkframe f;
	int32_t xid;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(zkframe_feed(&p, o.d + off, o.n - off, &used, &f), 1);
		off += used;
		assert_int_equal(zkframe_request(&f, &xid, NULL), 0);
		assert_int_equal(xid, 100 + i);
	}
	assert_int_equal(off, o.n);
	assert_int_equal(p.frames, 5);
	zkframe_parser_clear(&p);
}

static void zero_length_frame(void **state)
{
	(void)state;
	unsigned char z[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	size_t lens[4];
	assert_int_equal(feed_all(z, sizeof z, 0, lens, 4), 2);
	assert_int_equal(lens[0], 0);
	struct zkframe f = {z, 4, z + 4, 0};
	assert_int_equal(zkframe_request(&f, NULL, NULL), WB_EINVAL);
}

static void absurd_lengths_close(void **state)
{
	(void)state;
	size_t lens[2];
	unsigned char neg[6] = {0x80, 0, 0, 0, 1, 2};
	assert_int_equal(feed_all(neg, sizeof neg, 0, lens, 2), WB_ERANGE);
	unsigned char minus1[4] = {0xff, 0xff, 0xff, 0xff};
	assert_int_equal(feed_all(minus1, sizeof minus1, 1, lens, 2), WB_ERANGE);
	unsigned char big[4] = {0x01, 0x00, 0x00, 0x01}; /* 16 MiB + 1 */
	assert_int_equal(feed_all(big, sizeof big, 0, lens, 2), WB_ERANGE);
	unsigned char text[8] = {'G', 'E', 'T', ' ', '/', ' ', 'H', 'T'};
	assert_int_equal(feed_all(text, sizeof text, 0, lens, 2), WB_ERANGE);

	/* Exactly the limit is accepted (it waits for the body). */
	struct zkframe_parser p;
	zkframe_parser_init(&p);
	unsigned char limit[4] = {0x01, 0x00, 0x00, 0x00};
	struct zkframe f;
	size_t used;
	assert_int_equal(zkframe_feed(&p, limit, 4, &used, &f), 0);
	assert_int_equal(used, 4);
	zkframe_parser_clear(&p);

	/* Once refused, always refused: the connection must close. */
	zkframe_parser_init(&p);
	assert_int_equal(zkframe_feed(&p, big, 4, &used, &f), WB_ERANGE);
	unsigned char ok[5] = {0, 0, 0, 1, 'x'};
	assert_int_equal(zkframe_feed(&p, ok, 5, &used, &f), WB_ERANGE);
	assert_int_equal(used, 0);
	zkframe_parser_clear(&p);
}

static void handshake_session_ids(void **state)
{
	(void)state;
	struct out req = {{0}, 0}, body = {{0}, 0};
	put32(&body, 0);		    /* protocolVersion */
	put64(&body, 0x1f);		    /* lastZxidSeen */
	put32(&body, 1000);		    /* timeOut */
	put64(&body, 0x100000a2b3c0001ULL); /* sessionId */
	put32(&body, 16);		    /* passwd */
	put_bytes(&body, "0123456789abcdef", 16);
	frame(&req, &body);
	struct zkframe_parser p;
	zkframe_parser_init(&p);
	struct zkframe f;
	size_t used;
	assert_int_equal(zkframe_feed(&p, req.d, req.n, &used, &f), 1);
	int64_t zxid, session;
	int32_t timeout;
	assert_int_equal(zkframe_connect_request(&f, &zxid, &timeout, &session), 0);
	assert_int_equal(zxid, 0x1f);
	assert_int_equal(timeout, 1000);
	assert_true(session == 0x100000a2b3c0001LL);
	zkframe_parser_clear(&p);

	struct out resp = {{0}, 0};
	body.n = 0;
	put32(&body, 0);
	put32(&body, 4000);
	put64(&body, 0xfedcba9876543210ULL); /* a negative long on the wire */
	put32(&body, 0);
	frame(&resp, &body);
	zkframe_parser_init(&p);
	assert_int_equal(zkframe_feed(&p, resp.d, resp.n, &used, &f), 1);
	assert_int_equal(zkframe_connect_response(&f, &timeout, &session), 0);
	assert_int_equal(timeout, 4000);
	assert_true((uint64_t)session == 0xfedcba9876543210ULL);
	/* Too short to be a handshake. */
	struct zkframe shortf = {resp.d, 12, resp.d + 4, 8};
	assert_int_equal(zkframe_connect_response(&shortf, NULL, NULL), WB_EINVAL);
	assert_int_equal(zkframe_connect_request(&shortf, NULL, NULL, NULL), WB_EINVAL);
	zkframe_parser_clear(&p);
}

static void reply_header(void **state)
{
	(void)state;
	struct out o = {{0}, 0}, body = {{0}, 0};
	put32(&body, (uint32_t)1733000123);
	put64(&body, 0x100000007ULL);
	put32(&body, (uint32_t)-110); /* ZNODEEXISTS */
	frame(&o, &body);
	struct zkframe_parser p;
	zkframe_parser_init(&p);
	struct zkframe f;
	size_t used;
	assert_int_equal(zkframe_feed(&p, o.d, o.n, &used, &f), 1);
	int32_t xid, err;
	int64_t zxid;
	assert_int_equal(zkframe_reply(&f, &xid, &zxid, &err), 0);
	assert_int_equal(xid, 1733000123);
	assert_true(zxid == 0x100000007LL);
	assert_int_equal(err, -110);
	zkframe_parser_clear(&p);

	/* A watch notification: xid -1. */
	o.n = body.n = 0;
	put32(&body, 0xffffffffu);
	put64(&body, 0xffffffffffffffffULL);
	put32(&body, 0);
	frame(&o, &body);
	zkframe_parser_init(&p);
	assert_int_equal(zkframe_feed(&p, o.d, o.n, &used, &f), 1);
	assert_int_equal(zkframe_reply(&f, &xid, &zxid, &err), 0);
	assert_int_equal(xid, -1);
	assert_true(zxid == -1);
	zkframe_parser_clear(&p);
}

static void create_path_extraction(void **state)
{
	(void)state;
	const char *name = "/locks/a/_c_0f8b2a52-7c4e-4b1a-9d3e-2a1b3c4d5e6f-lock-";
	int32_t types[] = {ZKOP_CREATE, ZKOP_CREATE2, ZKOP_CREATE_CONTAINER, ZKOP_CREATE_TTL};
	for (size_t i = 0; i < 4; i++) {
		struct out o = {{0}, 0};
		create_request(&o, 42, types[i], name);
		struct zkframe_parser p;
		zkframe_parser_init(&p);
		struct zkframe f;
		size_t used;
		assert_int_equal(zkframe_feed(&p, o.d, o.n, &used, &f), 1);
		const char *path;
		size_t len;
		assert_int_equal(zkframe_create_path(&f, &path, &len), 0);
		assert_int_equal(len, strlen(name));
		assert_memory_equal(path, name, len);
		zkframe_parser_clear(&p);
	}
	/* Not a create. */
	struct out o = {{0}, 0};
	create_request(&o, 42, ZKOP_SETDATA, "/x");
	struct zkframe f = {o.d, o.n, o.d + 4, o.n - 4};
	assert_int_equal(zkframe_create_path(&f, NULL, NULL), WB_EINVAL);
	assert_false(zkframe_is_create(ZKOP_SETDATA));
	assert_string_equal(zkframe_op_name(ZKOP_CREATE2), "create2");
	assert_string_equal(zkframe_op_name(12345), "op?");
	/* Truncated path and negative length. */
	o.n = 0;
	create_request(&o, 42, ZKOP_CREATE, "/abcdef");
	struct zkframe cut = {o.d, 4 + 12 + 3, o.d + 4, 12 + 3};
	assert_int_equal(zkframe_create_path(&cut, NULL, NULL), WB_EINVAL);
	o.d[12] = 0xff; /* the path length's high byte */
	struct zkframe neg = {o.d, o.n, o.d + 4, o.n - 4};
	assert_int_equal(zkframe_create_path(&neg, NULL, NULL), WB_EINVAL);
	struct zkframe hdr = {o.d, 4 + 8, o.d + 4, 8};
	assert_int_equal(zkframe_create_path(&hdr, NULL, NULL), WB_EINVAL);
}

/* A create whose ACL vector claims 0x7fffffff entries in a 25-byte body:
 * the path still comes out, and nothing tries to allocate for the vector
 * (deserialize_CreateRequest would calloc about 80 GiB; zkframe.c reads
 * only the path with the library's string decoder). */
static void create_path_absurd_acl_count(void **state)
{
	(void)state;
	struct out b = {{0}, 0}, o = {{0}, 0};
	put32(&b, 7);
	put32(&b, ZKOP_CREATE);
	put32(&b, 2);
	put_bytes(&b, "/a", 2);
	put32(&b, 0);	       /* data */
	put32(&b, 0x7fffffff); /* acl count, and no ACLs follow */
	frame(&o, &b);
	struct zkframe f = {o.d, o.n, o.d + 4, o.n - 4};
	const char *path;
	size_t len;
	assert_int_equal(zkframe_create_path(&f, &path, &len), 0);
	assert_int_equal(len, 2);
	assert_memory_equal(path, "/a", 2);
}

/* Property: a stream of random frames gives the same frames however it is
 * cut into reads (seeded, so a failure is reproducible). */
static void any_split_gives_the_same_frames(void **state)
{
	(void)state;
	srand(20240611);
	for (int round = 0; round < 200; round++) {
		struct out o = {{0}, 0};
		size_t expect[16];
		int n = 1 + rand() % 12;
		for (int i = 0; i < n; i++) {
			struct out b = {{0}, 0};
			size_t len = (size_t)(rand() % 200);
			for (size_t k = 0; k < len; k++)
				b.d[b.n++] = (unsigned char)rand();
			frame(&o, &b);
			expect[i] = len;
		}
		size_t got[16];
		size_t chunk = (size_t)(rand() % 9); /* 0 = all at once */
		assert_int_equal(feed_all(o.d, o.n, chunk, got, 16), n);
		assert_memory_equal(got, expect, (size_t)n * sizeof got[0]);
	}
	/* And random garbage never crashes: it either frames or refuses. */
	for (int round = 0; round < 500; round++) {
		unsigned char junk[64];
		for (size_t k = 0; k < sizeof junk; k++)
			junk[k] = (unsigned char)(rand() % 4 ? rand() % 3 : rand());
		size_t got[64];
		int rc = feed_all(junk, sizeof junk, (size_t)(rand() % 7), got, 64);
		assert_true(rc >= 0 || rc == WB_ERANGE);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_whole_frame),
		cmocka_unit_test(frames_split_at_every_byte),
		cmocka_unit_test(several_frames_in_one_read),
		cmocka_unit_test(zero_length_frame),
		cmocka_unit_test(absurd_lengths_close),
		cmocka_unit_test(handshake_session_ids),
		cmocka_unit_test(reply_header),
		cmocka_unit_test(create_path_extraction),
		cmocka_unit_test(create_path_absurd_acl_count),
		cmocka_unit_test(any_split_gives_the_same_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
