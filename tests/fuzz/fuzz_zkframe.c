/*
 * fuzz_zkframe.c - libFuzzer target for the proxy's ZooKeeper frame parser.
 *
 * The input is cut into chunks (sizes taken from the input itself) and fed
 * to the incremental parser; every completed frame goes through each
 * header decoder, which are the ZooKeeper C client's own Jute decoders
 * (zkframe.c), so this also fuzzes the library's code on hostile bytes.
 * Aborts when a frame's announced length disagrees with
 * what was returned, or when the parser accepts data after refusing.
 */
#include "harness/zk/zkframe.h"
#include "base/wb.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct zkframe_parser p;
	zkframe_parser_init(&p);
	size_t chunk = 1 + data[0] % 64, pos = 1;
	int refused = 0;
	while (pos < size) {
		size_t len = size - pos < chunk ? size - pos : chunk;
		const uint8_t *in = data + pos;
		while (len > 0) {
			size_t used = 0;
			struct zkframe f;
			int rc = zkframe_feed(&p, in, len, &used, &f);
			if (rc == WB_ERANGE) {
				refused = 1;
				break;
			}
			if (refused || used > len)
				abort();
			in += used;
			len -= used;
			if (rc == 1) {
				if (f.raw_len != f.body_len + 4 || f.body != f.raw + 4)
					abort();
				int32_t xid, type, err, tmo;
				int64_t zxid, session, last;
				const char *path;
				size_t plen;
				zkframe_connect_request(&f, &last, &tmo, &session);
				zkframe_connect_response(&f, &tmo, &session);
				if (zkframe_request(&f, &xid, &type) == 0 &&
				    zkframe_is_create(type) &&
				    zkframe_create_path(&f, &path, &plen) == 0 &&
				    (path < (const char *)f.body ||
				     path + plen > (const char *)f.body + f.body_len))
					abort();
				zkframe_reply(&f, &xid, &zxid, &err);
				(void)zkframe_op_name(type);
			} else if (used == 0) {
				break;
			}
		}
		if (refused)
			break;
		pos += chunk;
		chunk = 1 + (chunk * 7 + 3) % 97;
	}
	zkframe_parser_clear(&p);
	return 0;
}
