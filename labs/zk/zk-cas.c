/*
 * zk-cas.c - the lab "zk-cas": compare-and-set on a znode's data version
 * (chapter 01, "Conditional writes with Stat.version").
 *
 *   A and B (two sessions) read /config at version 0.
 *   A: setData(version 0) -> ZOK, version 1.
 *   B: setData(version 0) -> ZBADVERSION; nothing changed (same version,
 *      same mzxid, A's data).  B re-reads and retries with version 1: ZOK.
 *   Control: A writes with version -1 although it last saw version 1; the
 *   server checks nothing and B's write is gone, with no error anywhere.
 *
 * Everything runs against the real server (our own, or --zk under a unique
 * base path that is removed at the end).  Each write is serial and waits
 * for its reply, so the order is the lab's order, not a race.  It does not
 * show the version wrapping at 2^31 (the lesson explains it).
 */
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "lab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads path's data (NUL-terminated into buf) and stat.  Returns the raw
 * ZooKeeper code. */
static int read_node(struct zkc *c, const char *path, char *buf, int cap, struct Stat *st)
{
	int len = cap - 1;
	int rc = zoo_get(zkc_handle(c), path, 0, buf, &len, st);
	buf[rc == ZOK && len > 0 ? len : 0] = '\0';
	return rc;
}

static int cas_run(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	struct zklab *z = NULL;
	struct zkc *a = NULL, *b = NULL;
	char *path = NULL;
	char hex_a[ZKC_HEX_LEN], hex_b[ZKC_HEX_LEN];
	char data[64];
	struct Stat st_a, st_b, st;
	int rc = zklab_open(ctx, &z);
	if (rc)
		goto out;
	if ((rc = zklab_client(z, &a)) != 0 || (rc = zklab_client(z, &b)) != 0)
		goto out;
	report_evidence(r, "session_a", "%s", zkc_hex(zkc_session_id(a), hex_a));
	report_evidence(r, "session_b", "%s", zkc_hex(zkc_session_id(b), hex_b));

	path = wb_xasprintf("%s/config", z->base);
	int zrc = zoo_create(zkc_handle(a), path, "v0", 2, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	if (zrc != ZOK) {
		report_cannot(r, "cannot create %s: %s", path, zkc_err_name(zrc));
		rc = zkc_to_wb(zrc);
		goto out;
	}
	report_step(r, "created %s with data \"v0\"", path);

	/* 1. Both read the same version. */
	report_step(r, "A and B read %s", path);
	int ra = read_node(a, path, data, sizeof data, &st_a);
	int rb = read_node(b, path, data, sizeof data, &st_b);
	report_checkf(r, "both-read-version-0",
		      ra == ZOK && rb == ZOK && st_a.version == 0 && st_b.version == 0,
		      "A and B see version 0", "A: %s version %d, B: %s version %d",
		      zkc_err_name(ra), st_a.version, zkc_err_name(rb), st_b.version);
	report_evidence(r, "read_mzxid", "0x%" PRIx64, (uint64_t)st_a.mzxid);

	/* 2. A's conditional write wins. */
	report_step(r, "A: setData(%s, \"from A\", expected version %d)", path, st_a.version);
	struct Stat after_a;
	zrc = zoo_set2(zkc_handle(a), path, "from A", 6, st_a.version, &after_a);
	report_checkf(r, "first-conditional-write-wins", zrc == ZOK && after_a.version == 1,
		      "ZOK, version 1", "%s, version %d", zkc_err_name(zrc),
		      zrc == ZOK ? after_a.version : -1);
	report_evidence(r, "a_write_mzxid", "0x%" PRIx64, (uint64_t)after_a.mzxid);

	/* 3. B's conditional write, on the same stale version, is refused. */
	report_step(r, "B: setData(%s, \"from B\", expected version %d) - B read before A wrote",
		    path, st_b.version);
	zrc = zoo_set(zkc_handle(b), path, "from B", 6, st_b.version);
	report_checkf(r, "second-gets-badversion", zrc == ZBADVERSION, "ZBADVERSION", "%s",
		      zkc_err_name(zrc));
	int rr = read_node(b, path, data, sizeof data, &st);
	report_checkf(r, "badversion-changed-nothing",
		      rr == ZOK && !strcmp(data, "from A") && st.version == 1 &&
			      st.mzxid == after_a.mzxid,
		      "data \"from A\", version 1, mzxid unchanged",
		      "data \"%s\", version %d, mzxid 0x%" PRIx64, data, st.version,
		      (uint64_t)st.mzxid);

	/* 4. The right reaction: re-read, decide again, retry conditionally. */
	report_step(r, "B re-reads (version %d, data \"%s\") and retries with that version",
		    st.version, data);
	struct Stat after_b;
	zrc = zoo_set2(zkc_handle(b), path, "from B", 6, st.version, &after_b);
	report_checkf(r, "retry-after-reread-wins", zrc == ZOK && after_b.version == 2,
		      "ZOK, version 2", "%s, version %d", zkc_err_name(zrc),
		      zrc == ZOK ? after_b.version : -1);
	report_evidence(r, "b_write_mzxid", "0x%" PRIx64, (uint64_t)after_b.mzxid);

	/* 5. Control: version -1 means "no check". */
	report_step(r,
		    "control: A writes with expected version -1 although it last saw version "
		    "%d",
		    after_a.version);
	struct Stat after_blind;
	zrc = zoo_set2(zkc_handle(a), path, "blind A", 7, -1, &after_blind);
	report_checkf(r, "version-minus-one-skips-the-check",
		      zrc == ZOK && after_blind.version == 3,
		      "ZOK, version 3: no ZBADVERSION although A's view (version 1) is stale",
		      "%s, version %d", zkc_err_name(zrc), zrc == ZOK ? after_blind.version : -1);
	rr = read_node(b, path, data, sizeof data, &st);
	report_checkf(r, "b-write-silently-lost", rr == ZOK && !strcmp(data, "blind A"),
		      "data \"blind A\": B's \"from B\" (version 2) overwritten unseen",
		      "data \"%s\", version %d", data, st.version);
	report_evidence(r, "blind_write_mzxid", "0x%" PRIx64, (uint64_t)after_blind.mzxid);
	report_evidence(r, "versions", "read 0 -> A 1 -> B refused -> B 2 -> blind A %d",
			st.version);
	rc = 0;
out:
	zkc_close(a);
	zkc_close(b);
	zklab_close(z);
	free(path);
	return rc;
}

/* The entry point registered as lab_zk_cas in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"A setData with the version it had read let only the first of two writers win; "
		"the second got ZBADVERSION, changed nothing, and succeeded after re-reading. "
		"Version -1 skipped the check and silently overwrote the other write.");
	return lab_outcome_of(ctx, cas_run(ctx));
}

const lab_run_fn lab_zk_cas = lab_main;
