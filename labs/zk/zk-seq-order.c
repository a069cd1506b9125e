/*
 * zk-seq-order.c - the lab "zk-seq-order": order lock candidates by the
 * server's sequence suffix, never by the whole name, and refuse suffixes
 * from a wrapped signed 32-bit counter (chapter 02, "Order by the suffix,
 * not by the full name" and "The signed 32-bit counter").
 *
 * Part 1 (real nodes): four candidates named the way Curator's protected
 * mode names them ("_c_" + UUID + "-lock-" + suffix) are created in turn.
 * Their GUIDs are random but created in descending order, so that the name
 * order is exactly the reverse of the creation order every run (with
 * unsorted random GUIDs it would be a random permutation).  Sorting the
 * listing by name and by suffix gives two different "first" candidates.
 *
 * Part 2 (a real wrap): reaching the counter's end by creating 2^31
 * children would take days.  Before the server starts, the lab writes a
 * transaction log into its empty data directory holding two creates; the
 * second carries parentCVersion 2147483645, exactly what the server logs
 * after that many children.  The server replays it itself (zoo.cfg
 * snapshot.trust.empty=true: a log with no snapshot).  From there every
 * name is the real server's: one create gets ...2147483645; one multi of
 * four creates crosses INT32_MAX and gets -2147483648 and -2147483647.  The
 * strict parser (labs/recipes/zkseq.c) refuses those; the two naive
 * parsers (last ten characters; strtol after the marker) are shown
 * failing.  What 3.8.0 then does is shown too: it keeps the largest
 * cversion it has seen, so a later single create gets 2147483647 again
 * and a plain sequential name collides (ZNODEEXISTS), while two more
 * GUID-named candidates are both created and both numbered 2147483647:
 * equal order keys, equal fencing tokens (chapter 02, "Sequence numbers
 * compare only inside a declared lock domain").  Only the %010d column
 * the lab compares against is computed in C.
 *
 * It needs its own server (the seeded log): no --zk.
 */
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "harness/zk/zkserver.h"
#include "lab.h"
#include "recipes/uuid.h"
#include "recipes/zkseq.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NCAND	    4
#define WRAP_PARENT "/seq-wrap"
#define WRAP_START  2147483645 /* the parent's cversion the seeded log leaves */
#define NMULTI	    4	       /* creates in the multi that crosses INT32_MAX */

/* ---- Part 2 set-up: a ZooKeeper transaction log, written by hand. ---- */

/* A jute (big-endian) output buffer for one log. */
struct jute {
	unsigned char d[2048];
	size_t n;
};

static void j32(struct jute *j, uint32_t v)
{
	for (int s = 24; s >= 0; s -= 8)
		j->d[j->n++] = (unsigned char)(v >> s);
}

static void j64(struct jute *j, uint64_t v)
{
	j32(j, (uint32_t)(v >> 32));
	j32(j, (uint32_t)v);
}

static void jstr(struct jute *j, const char *s)
{
	size_t n = strlen(s);
	j32(j, (uint32_t)n);
	memcpy(j->d + j->n, s, n);
	j->n += n;
}

/* java.util.zip.Adler32, which FileTxnLog uses per entry. */
static uint32_t adler32(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;
	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

/* Appends one log entry: TxnHeader + CreateTxn (persistent, world:anyone
 * ALL, empty data), framed as {long adler32; int len; bytes; 'B'}. */
static void log_create(struct jute *log, int64_t zxid, const char *path, int32_t parent_cversion)
{
	struct jute t = {.n = 0};
	j64(&t, 0);			       /* TxnHeader.clientId */
	j32(&t, 0);			       /* cxid */
	j64(&t, (uint64_t)zxid);	       /* zxid */
	j64(&t, (uint64_t)time(NULL) * 1000u); /* time (ms) */
	j32(&t, 1);			       /* type: create */
	jstr(&t, path);			       /* CreateTxn.path */
	j32(&t, 0);			       /* data: empty buffer */
	j32(&t, 1);			       /* acl: one entry */
	j32(&t, 31);			       /* perms: ALL */
	jstr(&t, "world");		       /* id.scheme */
	jstr(&t, "anyone");		       /* id.id */
	t.d[t.n++] = 0;			       /* ephemeral: false */
	j32(&t, (uint32_t)parent_cversion);    /* parentCVersion */
	j64(log, adler32(t.d, t.n));
	j32(log, (uint32_t)t.n);
	memcpy(log->d + log->n, t.d, t.n);
	log->n += t.n;
	log->d[log->n++] = 'B'; /* end of record */
}

struct seed {
	struct report *r;
	char *log_path; /* written here, for evidence */
};

/* zklab prepare hook: seeds the empty data directory before the JVM
 * starts. */
static int seed_counter(struct zkserver *s, void *arg)
{
	struct seed *sd = arg;
	struct jute log = {.n = 0};
	j32(&log, 0x5a4b4c47); /* "ZKLG" */
	j32(&log, 2);	       /* version */
	j64(&log, 0);	       /* dbid */
	log_create(&log, 1, WRAP_PARENT, -1);
	log_create(&log, 2, WRAP_PARENT "/pad", WRAP_START);
	char *dir = wb_xasprintf("%s/data/version-2", zkserver_dir(s));
	sd->log_path = wb_xasprintf("%s/log.1", dir);
	int rc = WB_EIO;
	FILE *f = NULL;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		goto out;
	f = fopen(sd->log_path, "wb");
	if (!f || fwrite(log.d, 1, log.n, f) != log.n)
		goto out;
	rc = 0;
out:
	if (f && fclose(f) != 0)
		rc = WB_EIO;
	if (rc)
		report_cannot(sd->r, "cannot write %s: %s", sd->log_path, strerror(errno));
	free(dir);
	/* Java's Properties: unknown zoo.cfg keys become zookeeper.* system
	 * properties; this one lets the server start from a log alone. */
	zkserver_set_extra_cfg(s, "snapshot.trust.empty=true\n");
	return rc;
}

/* ---- helpers ---- */

static int fresh_protected(char name[ZKSEQ_PROTECTED_LEN + 1], char guid[UUID_STR_LEN])
{
	struct uuid u;
	if (uuid_v4(&u) != 0)
		return WB_EIO;
	uuid_format(&u, guid);
	return zkseq_protected_name(guid, name);
}

static const char *suffix_text(const char *path)
{
	const char *m = strstr(path, "-" ZKSEQ_LOCK_NAME);
	return m ? m + 6 : "";
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int cmp_guid(const void *a, const void *b)
{
	return strcmp(a, b); /* elements are char[UUID_STR_LEN] */
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The naive parsers the lab shows failing. */
static long long naive_last_ten(const char *name)
{
	size_t n = strlen(name);
	return strtoll(n >= 10 ? name + n - 10 : name, NULL, 10);
}

static long long naive_after_marker(const char *name)
{
	return strtoll(suffix_text(name), NULL, 10);
}

/* ---- Part 1 ---- */

static int part_order(struct lab_ctx *ctx, struct zklab *z, struct zkc *c)
{
	struct report *r = ctx->report;
	char guids[NCAND][UUID_STR_LEN], made[NCAND][256];
	char *parent = wb_xasprintf("%s/lock", z->base);
	struct String_vector kids = {0};
	int rc = 0;
	int zrc = zoo_create(zkc_handle(c), parent, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	if (zrc != ZOK) {
		report_cannot(r, "cannot create %s: %s", parent, zkc_err_name(zrc));
		rc = zkc_to_wb(zrc);
		goto out;
	}
	for (int i = 0; i < NCAND; i++) {
		char name[ZKSEQ_PROTECTED_LEN + 1];
		if ((rc = fresh_protected(name, guids[i])) != 0) {
			report_cannot(r, "no random bytes for a GUID");
			goto out;
		}
	}
	/* Descending GUIDs: the name order is the reverse creation order. */
	qsort(guids, NCAND, sizeof guids[0], cmp_guid);
	report_step(r,
		    "part 1: four candidates under %s, created one after another with "
		    "Curator protected-mode names _c_<GUID>-lock-",
		    parent);
	for (int i = 0; i < NCAND; i++) {
		const char *g = guids[NCAND - 1 - i];
		char name[ZKSEQ_PROTECTED_LEN + 1];
		zkseq_protected_name(g, name);
		char *path = wb_xasprintf("%s/%s", parent, name);
		zrc = zoo_create(zkc_handle(c), path, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
				 ZOO_EPHEMERAL | ZOO_SEQUENCE, made[i], sizeof made[i]);
		free(path);
		if (zrc != ZOK) {
			report_cannot(r, "create failed: %s", zkc_err_name(zrc));
			rc = zkc_to_wb(zrc);
			goto out;
		}
		report_evidence(r, "created", "#%d %s", i + 1, base_name(made[i]));
	}
	zrc = zoo_get_children(zkc_handle(c), parent, 0, &kids);
	if (zrc != ZOK || kids.count != NCAND) {
		report_cannot(r, "getChildren(%s): %s, %d children", parent, zkc_err_name(zrc),
			      kids.count);
		rc = WB_EIO;
		goto out;
	}
	const char *by_name[NCAND], *by_seq[NCAND];
	for (int i = 0; i < NCAND; i++)
		by_name[i] = by_seq[i] = kids.data[i];
	qsort(by_name, NCAND, sizeof by_name[0], cmp_name);
	qsort(by_seq, NCAND, sizeof by_seq[0], zkseq_cmp_protected);
	for (int i = 0; i < NCAND; i++) {
		int name_rank = 0;
		for (int k = 0; k < NCAND; k++)
			if (by_name[k] == by_seq[i])
				name_rank = k + 1;
		report_evidence(r, "listing", "%.8s... suffix %s: rank by suffix %d, by name %d",
				by_seq[i] + 3, suffix_text(by_seq[i]), i + 1, name_rank);
	}
	int seq_ok = 1;
	for (int i = 0; i < NCAND; i++)
		seq_ok &= !strcmp(by_seq[i], base_name(made[i]));
	report_checkf(r, "suffix-order-is-creation-order", seq_ok,
		      "sorted by suffix: #1 #2 #3 #4 (the creation order)",
		      "first by suffix: %s (suffix %s)", seq_ok ? "#1" : "not #1",
		      suffix_text(by_seq[0]));
	int last = NCAND - 1;
	report_checkf(r, "name-order-is-guid-order",
		      !strcmp(by_name[0], base_name(made[last])) &&
			      strcmp(by_name[0], by_seq[0]) != 0,
		      "sorted by name: #4 first (smallest GUID), not #1 - two clients would each "
		      "think they hold the lock",
		      "first by name: suffix %s; first by suffix: suffix %s",
		      suffix_text(by_name[0]), suffix_text(by_seq[0]));
out:
	deallocate_String_vector(&kids);
	free(parent);
	return rc;
}

/* ---- Part 2 ---- */

/* Creates one GUID-named ephemeral sequential child of WRAP_PARENT: the
 * zoo_* code goes to *zrc, the created path to out (len bytes).  Returns
 * 0, or WB_EIO when no GUID could be made (nothing created, nothing
 * reported). */
static int create_protected(struct zkc *c, char *out, int len, int *zrc)
{
	char name[ZKSEQ_PROTECTED_LEN + 1], guid[UUID_STR_LEN];
	if (fresh_protected(name, guid) != 0)
		return WB_EIO;
	char *path = wb_xasprintf("%s/%s", WRAP_PARENT, name);
	*zrc = zoo_create(zkc_handle(c), path, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			  ZOO_EPHEMERAL | ZOO_SEQUENCE, out, len);
	free(path);
	return 0;
}

/* The seeded counter: one create gets the suffix the log left.  first
 * (256 bytes) receives its path.  Returns 0 or WB_EIO after
 * report_cannot. */
static int wrap_preset(struct report *r, struct zkc *c, const struct seed *sd, char first[256])
{
	report_step(r,
		    "part 2: the server replayed a transaction log the lab wrote before it "
		    "started: it creates %s with its child counter (cversion) at %d, as if "
		    "2^31 children had been created (doing that for real would take days)",
		    WRAP_PARENT, WRAP_START);
	report_evidence(r, "prepared_log", "%s (2 create transactions, zxid 1-2)", sd->log_path);
	int zrc = 0;
	if (create_protected(c, first, 256, &zrc) != 0) {
		report_cannot(r, "no random bytes for a GUID");
		return WB_EIO;
	}
	report_checkf(r, "preset-counter-took",
		      zrc == ZOK && !strcmp(suffix_text(first), "2147483645"),
		      "a real create gets suffix 2147483645", "%s, suffix %s", zkc_err_name(zrc),
		      zrc == ZOK ? suffix_text(first) : "-");
	return 0;
}

/* One multi of NMULTI creates crossing INT32_MAX; paths receives the
 * names the server gave.  Returns 0 or WB_EIO after report_cannot. */
static int wrap_multi(struct report *r, struct zkc *c, char paths[NMULTI][256])
{
	char name[ZKSEQ_PROTECTED_LEN + 1], guid[UUID_STR_LEN];
	report_step(r,
		    "one multi of %d sequential creates: the server numbers them in one "
		    "transaction, crossing 2147483647",
		    NMULTI);
	zoo_op_t ops[NMULTI];
	zoo_op_result_t res[NMULTI];
	char names[NMULTI][128];
	for (int i = 0; i < NMULTI; i++) {
		if (fresh_protected(name, guid) != 0) {
			report_cannot(r, "no random bytes for a GUID");
			return WB_EIO;
		}
		snprintf(names[i], sizeof names[i], "%s/%s", WRAP_PARENT, name);
		paths[i][0] = '\0';
		zoo_create_op_init(&ops[i], names[i], NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
				   ZOO_EPHEMERAL | ZOO_SEQUENCE, paths[i], 256);
	}
	int zrc = zoo_multi(zkc_handle(c), NMULTI, ops, res);
	const char *want[NMULTI] = {"2147483646", "2147483647", "-2147483648", "-2147483647"};
	int all = zrc == ZOK;
	for (int i = 0; i < NMULTI; i++) {
		all &= !strcmp(suffix_text(paths[i]), want[i]);
		report_evidence(r, "multi", "%s", base_name(paths[i]));
	}
	report_checkf(r, "counter-wraps-negative", all,
		      "suffixes 2147483646 2147483647 -2147483648 -2147483647", "%s: %s %s %s %s",
		      zkc_err_name(zrc), suffix_text(paths[0]), suffix_text(paths[1]),
		      suffix_text(paths[2]), suffix_text(paths[3]));
	return 0;
}

/* What the multi's names mean: the server's text is C's %010d of a
 * signed int, the strict parser refuses the wrapped ones, and the two
 * naive parsers (controls) really misorder them.  first is part 2's
 * first candidate. */
static void judge_wrapped(struct report *r, char paths[NMULTI][256], const char *first)
{
	char fmt[12];
	/* The same boundary values formatted in C, as the server's Java does. */
	int32_t values[NMULTI] = {2147483646, INT32_MAX, INT32_MIN, INT32_MIN + 1};
	int fmt_ok = 1;
	for (int i = 0; i < NMULTI; i++)
		fmt_ok &= !strcmp(zkseq_format(values[i], fmt), suffix_text(paths[i]));
	report_checkf(r, "server-text-is-010d-of-a-signed-int", fmt_ok,
		      "the server's suffixes equal C's %010d of (int32_t) 2147483646, INT32_MAX, "
		      "INT32_MIN, INT32_MIN+1 (computed)",
		      "%s (-2147483648 is %zu characters)", fmt_ok ? "equal" : "different",
		      strlen(suffix_text(paths[2])));

	/* The strict parser: exactly ten digits, <= INT32_MAX. */
	int parsed[NMULTI];
	for (int i = 0; i < NMULTI; i++) {
		int32_t seq = 0;
		parsed[i] = zkseq_parse_protected(base_name(paths[i]), NULL, &seq);
	}
	report_checkf(r, "strict-parser-rejects-wrapped",
		      parsed[0] == 0 && parsed[1] == 0 && parsed[2] == WB_EINVAL &&
			      parsed[3] == WB_EINVAL,
		      "accepts 2147483646, 2147483647; rejects -2147483648, -2147483647",
		      "%s %s %s %s", parsed[0] ? "rejected" : "accepted",
		      parsed[1] ? "rejected" : "accepted", parsed[2] ? "rejected" : "accepted",
		      parsed[3] ? "rejected" : "accepted");

	/* Controls: the two naive parsers really fail. */
	long long t1 = naive_last_ten(base_name(paths[1]));
	long long t3 = naive_last_ten(base_name(paths[3]));
	report_checkf(r, "control-last-ten-digits-ties", t1 == INT32_MAX && t3 == INT32_MAX,
		      "taking the last ten characters reads 2147483647 for both ...2147483647 and "
		      "...-2147483647: two candidates with one number",
		      "%lld and %lld", t1, t3);
	long long m2 = naive_after_marker(base_name(paths[2]));
	long long m0 = naive_after_marker(first);
	report_checkf(r, "control-strtol-puts-newest-first", m2 < m0,
		      "strtol after \"-lock-\" gives the newest candidate (-2147483648) the "
		      "smallest number: it would jump the queue",
		      "newest %lld < oldest %lld", m2, m0);
}

/* What 3.8.0 does next: DataTree keeps the largest cversion, so a single
 * create repeats 2147483647.  Returns 0 or WB_EIO (no GUID). */
static int wrap_single_after(struct report *r, struct zkc *c)
{
	report_step(r, "after the multi, single creates: the server keeps the largest cversion "
		       "it has seen (2147483647), it does not store the wrapped ones");
	char after[256] = "";
	int zrc = 0;
	if (create_protected(c, after, sizeof after, &zrc) != 0)
		return WB_EIO;
	report_checkf(r, "single-create-repeats-2147483647",
		      zrc == ZOK && !strcmp(suffix_text(after), "2147483647"),
		      "suffix 2147483647 again (a second node with that number)", "%s, suffix %s",
		      zkc_err_name(zrc), zrc == ZOK ? suffix_text(after) : "-");
	if (zrc == ZOK)
		report_evidence(r, "after", "%s", base_name(after));
	return 0;
}

/* Two more lock candidates, each with its own GUID, the way every
 * acquisition of the recipe names its node: both are created, and both
 * get the same suffix.  Their queue order is a tie and, as fencing
 * tokens, they are equal: a fence that accepts a token equal to its mark
 * (recipes/fenced.c) lets both holders write.  Then a plain sequential
 * name collides.  Returns 0 or WB_EIO (no GUID). */
static int wrap_tie(struct report *r, struct zkc *c)
{
	report_step(r, "two more acquisitions, each with a fresh GUID: the names differ, so the "
		       "server creates both, and numbers both 2147483647");
	char two[2][256] = {"", ""};
	int ztwo[2];
	for (int i = 0; i < 2; i++) {
		if (create_protected(c, two[i], sizeof two[i], &ztwo[i]) != 0)
			return WB_EIO;
		if (ztwo[i] == ZOK)
			report_evidence(r, "candidate", "%s", base_name(two[i]));
	}
	int32_t s0 = 0, s1 = 0;
	int share = ztwo[0] == ZOK && ztwo[1] == ZOK && strcmp(two[0], two[1]) != 0 &&
		    !strcmp(suffix_text(two[0]), "2147483647") &&
		    !strcmp(suffix_text(two[1]), "2147483647") &&
		    zkseq_parse_protected(base_name(two[0]), NULL, &s0) == 0 &&
		    zkseq_parse_protected(base_name(two[1]), NULL, &s1) == 0 && s0 == s1;
	report_checkf(r, "two-candidates-share-2147483647", share,
		      "both created (ZOK), two different names, both suffix 2147483647: the strict "
		      "parser accepts both and they compare equal - a tied queue position and "
		      "two equal fencing tokens",
		      "%s suffix %s, %s suffix %s%s", zkc_err_name(ztwo[0]),
		      ztwo[0] == ZOK ? suffix_text(two[0]) : "-", zkc_err_name(ztwo[1]),
		      ztwo[1] == ZOK ? suffix_text(two[1]) : "-", share ? ", parsed equal" : "");
	char plain[256] = "";
	int z1 = zoo_create(zkc_handle(c), WRAP_PARENT "/job-", NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			    ZOO_SEQUENCE, plain, sizeof plain);
	int z2 = zoo_create(zkc_handle(c), WRAP_PARENT "/job-", NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			    ZOO_SEQUENCE, NULL, 0);
	report_checkf(r, "plain-sequential-name-collides", z1 == ZOK && z2 == ZNODEEXISTS,
		      "job- gets job-2147483647, the next job- fails with ZNODEEXISTS",
		      "%s %s, then %s", zkc_err_name(z1), z1 == ZOK ? base_name(plain) : "",
		      zkc_err_name(z2));
	return 0;
}

/* Part 2, in its narrated steps: the preset counter, the multi that
 * wraps it, what the names mean, and what the server does after. */
static int part_wrap(struct lab_ctx *ctx, struct zkc *c, const struct seed *sd)
{
	struct report *r = ctx->report;
	char first[256] = "", paths[NMULTI][256];
	int rc = wrap_preset(r, c, sd, first);
	if (rc == 0)
		rc = wrap_multi(r, c, paths);
	if (rc)
		return rc;
	judge_wrapped(r, paths, first);
	if ((rc = wrap_single_after(r, c)) != 0)
		return rc;
	return wrap_tie(r, c);
}

static int seq_order_run(struct lab_ctx *ctx)
{
	struct zklab *z = NULL;
	struct zkc *c = NULL;
	struct seed sd = {ctx->report, NULL};
	int rc = zklab_open_prepared(ctx, seed_counter, &sd, &z);
	if (rc)
		goto out;
	if (!z->server) { /* --zk is refused for this lab; be safe anyway */
		report_cannot(ctx->report, "zk-seq-order prepares its own server's data directory");
		rc = WB_EUNAVAIL;
		goto out;
	}
	if ((rc = zklab_client(z, &c)) != 0)
		goto out;
	if ((rc = part_order(ctx, z, c)) != 0)
		goto out;
	rc = part_wrap(ctx, c, &sd);
out:
	zkc_close(c);
	zklab_close(z);
	free(sd.log_path);
	return rc;
}

/* The entry point registered as lab_zk_seq_order in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"Candidates must be ordered by the sequence suffix: sorting by the whole name "
		"picked a different first candidate. When the signed 32-bit counter wrapped to "
		"negative numbers the strict parser refused them while both naive parsers "
		"ordered wrongly, and the server then reissued 2147483647, so a plain "
		"sequential name collided.");
	return lab_outcome_of(ctx, seq_order_run(ctx));
}

const lab_run_fn lab_zk_seq_order = lab_main;
