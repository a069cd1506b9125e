/*
 * id-segment.c - the lab "id-segment": the SQLite segment allocator moves
 * h to h+n in one transaction; several allocator processes never receive
 * overlapping ranges; a lost allocation reply either wastes its segment or
 * is recovered by request id; and a restored old backup would reissue used
 * ranges (the control shows it) unless the generation check refuses it
 * and h is raised first.
 *
 * Every range handed out is kept in one list, playing "the consuming
 * tables": the checks are made against it.  Races between the allocator
 * processes are real (one SQLite file, BEGIN IMMEDIATE); their start is a
 * barrier, not a sleep.  One interleaving is forced with the recipe's
 * before-transaction hook: B allocates after A began and before A writes.
 * The allocation statement is a parameter (id-segment.h): the lab uses
 * the recipe's, the exercise "segment-alloc" the learner's.
 */
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/report.h"
#include "lab.h"
#include "recipes/segment.h"
#include "ids/id-segment.h"
#include "recipes/uuid.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SEQ "orders"

/* The ranges callers received so far. */
struct issued {
	struct segment_range *r; /* grows */
	size_t n, cap;
};

static void issued_add(struct issued *is, const struct segment_range *r)
{
	if (is->n == is->cap) {
		is->cap = is->cap ? 2 * is->cap : 64;
		is->r = wb_xrealloc(is->r, is->cap * sizeof *is->r);
	}
	is->r[is->n++] = *r;
}

static int by_first(const void *a, const void *b)
{
	const struct segment_range *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* Sorts and counts overlapping neighbours; *holes receives how many
 * numbers between the first and the last range nobody received. */
static size_t overlaps(struct issued *is, int64_t *holes)
{
	size_t bad = 0;
	*holes = 0;
	qsort(is->r, is->n, sizeof *is->r, by_first);
	for (size_t i = 1; i < is->n; i++) {
		if (is->r[i].first <= is->r[i - 1].last)
			bad++;
		else
			*holes += is->r[i].first - is->r[i - 1].last - 1;
	}
	return bad;
}

/* Does r overlap any issued range? */
static int hits(const struct issued *is, const struct segment_range *r)
{
	for (size_t i = 0; i < is->n; i++)
		if (r->first <= is->r[i].last && is->r[i].first <= r->last)
			return 1;
	return 0;
}

struct paths {
	char *db;			 /* the allocator */
	char *witness;			 /* outside the allocator's backup set */
	char *backup;			 /* an old copy of the allocator */
	const struct segment_impl *impl; /* the allocation under test */
};

static void setup_impl(const struct paths *p, struct segment_alloc *a)
{
	if (p->impl && p->impl->setup)
		p->impl->setup(p->impl->arg, a);
}

static int open_alloc(struct lab_ctx *ctx, const struct paths *p, int with_witness,
		      struct segment_alloc **a)
{
	char err[320];
	if (segment_open(p->db, with_witness ? p->witness : NULL, a, err, sizeof err) != 0) {
		report_cannot(ctx->report, "%s", err);
		return WB_EUNAVAIL;
	}
	if (with_witness)
		setup_impl(p, *a);
	return 0;
}

static int copy_db(struct lab_ctx *ctx, const char *from, const char *to)
{
	sqlite3 *src = NULL, *dst = NULL;
	int rc = WB_EIO;
	if (sqlite3_open(from, &src) == SQLITE_OK && sqlite3_open(to, &dst) == SQLITE_OK) {
		sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
		if (b && sqlite3_backup_step(b, -1) == SQLITE_DONE)
			rc = 0;
		if (b && sqlite3_backup_finish(b) != SQLITE_OK)
			rc = WB_EIO;
	}
	if (rc)
		report_cannot(ctx->report, "copying %s to %s: %s", from, to,
			      dst ? sqlite3_errmsg(dst) : "cannot open");
	sqlite3_close(src);
	sqlite3_close(dst);
	return rc;
}

static int basics(struct lab_ctx *ctx, const struct paths *p, struct issued *is)
{
	struct report *r = ctx->report;
	struct segment_alloc *a;
	struct segment_range ra, rb;
	int64_t h, gen;
	int rc = open_alloc(ctx, p, 1, &a);
	if (rc)
		return rc;
	report_step(r,
		    "One allocator row, h = 5000; worker A and then worker B ask for n = 1000 "
		    "(UPDATE ... SET high_water = high_water + n ... RETURNING, one transaction)");
	if (segment_create(a, SEQ, 5000) || segment_alloc(a, SEQ, 1000, NULL, &ra) ||
	    segment_alloc(a, SEQ, 1000, NULL, &rb) || segment_high_water(a, SEQ, &h, &gen)) {
		report_cannot(r, "%s", segment_errmsg(a));
		segment_free(a);
		return WB_EUNAVAIL;
	}
	issued_add(is, &ra);
	issued_add(is, &rb);
	report_evidence(r, "A", "%" PRId64 "..%" PRId64 " (generation %" PRId64 ")", ra.first,
			ra.last, ra.generation);
	report_evidence(r, "B", "%" PRId64 "..%" PRId64 " (generation %" PRId64 ")", rb.first,
			rb.last, rb.generation);
	report_checkf(r, "h-to-h-plus-n",
		      ra.first == 5001 && ra.last == 6000 && rb.first == 6001 && rb.last == 7000 &&
			      h == 7000,
		      "A owns 5001..6000, B owns 6001..7000, h = 7000",
		      "A %" PRId64 "..%" PRId64 ", B %" PRId64 "..%" PRId64 ", h = %" PRId64,
		      ra.first, ra.last, rb.first, rb.last, h);
	segment_free(a);
	return 0;
}

/* B, allocating from A's before-transaction hook. */
struct interleave {
	struct segment_alloc *b;
	struct segment_range got;
	int rc, done;
};

static void b_allocates(void *arg)
{
	struct interleave *x = arg;
	if (x->done++)
		return;
	x->rc = segment_alloc(x->b, SEQ, 1000, NULL, &x->got);
}

static int interleaved(struct lab_ctx *ctx, const struct paths *p, struct issued *is)
{
	struct report *r = ctx->report;
	struct segment_alloc *a = NULL;
	struct interleave x = {0};
	struct segment_range ra = {0};
	int64_t h0 = 0, h1 = 0, gen;
	int rc = open_alloc(ctx, p, 1, &a);
	if (rc == 0 && (rc = open_alloc(ctx, p, 1, &x.b)) != 0) {
		segment_free(a);
		return rc;
	}
	if (rc)
		return rc;
	report_step(r, "Forced interleaving: A starts an allocation of 1000; after anything A "
		       "read and before A writes, B allocates 1000 (the recipe's hook)");
	segment_high_water(a, SEQ, &h0, &gen);
	segment_set_before_hook(a, b_allocates, &x);
	int arc = segment_alloc(a, SEQ, 1000, NULL, &ra);
	segment_high_water(a, SEQ, &h1, &gen);
	if (arc == 0)
		issued_add(is, &ra);
	if (x.rc == 0 && x.done)
		issued_add(is, &x.got);
	int disjoint =
		arc == 0 && x.rc == 0 && x.done && (ra.last < x.got.first || x.got.last < ra.first);
	report_checkf(r, "interleaved-no-overlap", disjoint && h1 - h0 == 2000,
		      "A and B get disjoint ranges and h moves by 2000",
		      "A %s %" PRId64 "..%" PRId64 ", B %s %" PRId64 "..%" PRId64
		      ", h moved by %" PRId64,
		      arc ? segment_errmsg(a) : "got", ra.first, ra.last,
		      x.rc ? segment_errmsg(x.b) : "got", x.got.first, x.got.last, h1 - h0);
	segment_free(a);
	segment_free(x.b);
	return 0;
}

enum { PROCS = 4, PER_PROC = 150 };

/* Child: waits at the barrier, then allocates PER_PROC segments of mixed
 * sizes, each with a fresh request id, and writes each range to out. */
static void allocator_child(const struct paths *p, int idx, int gate, int out)
{
	struct segment_alloc *a = NULL;
	char b;
	if (read(gate, &b, 1) < 0 || segment_open(p->db, p->witness, &a, NULL, 0) != 0)
		_exit(3);
	setup_impl(p, a);
	for (int i = 0; i < PER_PROC; i++) {
		struct segment_range r;
		struct uuid u;
		char rid[UUID_STR_LEN];
		if (uuid_v4(&u) != 0)
			_exit(4);
		uuid_format(&u, rid);
		if (segment_alloc(a, SEQ, 1 + (i * 37 + idx * 11) % 1000, rid, &r) != 0)
			_exit(5);
		if (write(out, &r, sizeof r) != (ssize_t)sizeof r)
			_exit(6);
	}
	segment_free(a);
	_exit(0);
}

static int processes(struct lab_ctx *ctx, const struct paths *p, struct issued *is)
{
	struct report *r = ctx->report;
	int gate[2], out[PROCS][2];
	pid_t pid[PROCS] = {0};
	int64_t h0, h1, gen, sum = 0;
	struct segment_alloc *a;
	int rc = 0, started = 0;

	report_step(r,
		    "%d allocator processes, released together by a barrier, each take %d "
		    "segments of 1..1000 numbers from the same SQLite file",
		    PROCS, PER_PROC);
	if ((rc = open_alloc(ctx, p, 1, &a)) != 0)
		return rc;
	segment_high_water(a, SEQ, &h0, &gen);
	segment_free(a);
	if (pipe(gate) != 0) {
		report_cannot(r, "pipe failed");
		return WB_EUNAVAIL;
	}
	for (int i = 0; i < PROCS; i++) {
		if (pipe(out[i]) != 0)
			break;
		fflush(NULL);
		pid[i] = fork();
		if (pid[i] < 0) {
			close(out[i][0]);
			close(out[i][1]);
			pid[i] = 0;
			break;
		}
		if (pid[i] == 0) {
			close(gate[1]);
			close(out[i][0]);
			allocator_child(p, i, gate[0], out[i][1]);
		}
		close(out[i][1]);
		proc_record(ctx->run_dir, pid[i]);
		started++;
	}
	close(gate[0]);
	close(gate[1]); /* the barrier opens */
	size_t before = is->n;
	int failed = started < PROCS;
	for (int i = 0; i < started; i++) {
		struct segment_range got;
		while (read(out[i][0], &got, sizeof got) == (ssize_t)sizeof got) {
			issued_add(is, &got);
			sum += got.last - got.first + 1;
		}
		close(out[i][0]);
		int status;
		if (waitpid(pid[i], &status, 0) != pid[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			failed = 1;
	}
	if (failed) {
		report_cannot(r, "an allocator process failed (see %s)", p->db);
		return WB_EUNAVAIL;
	}
	if ((rc = open_alloc(ctx, p, 1, &a)) != 0)
		return rc;
	segment_high_water(a, SEQ, &h1, &gen);
	segment_free(a);

	int64_t holes;
	size_t got = is->n - before, bad = overlaps(is, &holes);
	report_evidence(r, "allocations",
			"%zu ranges, %" PRId64 " numbers, h %" PRId64 " -> %" PRId64
			", generation %" PRId64,
			got, sum, h0, h1, gen);
	report_checkf(r, "no-overlap", bad == 0 && got == PROCS * PER_PROC,
		      "600 ranges, no number in two of them", "%zu ranges, %zu overlaps", got, bad);
	report_checkf(r, "no-holes-without-failures", holes == 0 && h1 - h0 == sum,
		      "nothing failed, so the ranges tile 5001..h with no gap",
		      "%" PRId64 " numbers unaccounted, h moved by %" PRId64 " for %" PRId64, holes,
		      h1 - h0, sum);
	return 0;
}

struct drop {
	int armed;		   /* drop the next reply */
	struct segment_range lost; /* what the caller never saw */
};

static int drop_reply(void *arg, const struct segment_range *r)
{
	struct drop *d = arg;
	if (!d->armed)
		return 0;
	d->armed = 0;
	d->lost = *r;
	return WB_EIO;
}

static int lost_reply(struct lab_ctx *ctx, const struct paths *p, struct issued *is)
{
	struct report *r = ctx->report;
	struct segment_alloc *a;
	struct segment_range got;
	struct drop d = {0};
	int64_t h0, h1, h2, gen;
	int rc = open_alloc(ctx, p, 1, &a);
	if (rc)
		return rc;
	segment_set_reply_hook(a, drop_reply, &d);

	report_step(r, "Lost reply, answer 1: the allocation commits, its reply is dropped; the "
		       "caller asks again with a fresh request id");
	segment_high_water(a, SEQ, &h0, &gen);
	d.armed = 1;
	int lost_rc = segment_alloc(a, SEQ, 1000, "req-lost-1", &got);
	report_evidence(r, "first_attempt", "%s (committed %" PRId64 "..%" PRId64 ")",
			lost_rc ? segment_errmsg(a) : "answered", d.lost.first, d.lost.last);
	if (!lost_rc || segment_alloc(a, SEQ, 1000, "req-fresh-2", &got) != 0) {
		report_cannot(r, "%s", lost_rc ? segment_errmsg(a) : "the reply was not dropped");
		segment_free(a);
		return WB_EUNAVAIL;
	}
	issued_add(is, &got);
	segment_high_water(a, SEQ, &h1, &gen);
	report_evidence(r, "retry", "%" PRId64 "..%" PRId64, got.first, got.last);
	report_checkf(r, "fresh-retry-wastes",
		      !hits(is, &d.lost) && got.first > d.lost.last && h1 - h0 == 2000,
		      "a new range; the lost one is a hole nobody uses; h moved by 2000",
		      "lost %" PRId64 "..%" PRId64 " unused, got %" PRId64 "..%" PRId64
		      ", h moved by %" PRId64,
		      d.lost.first, d.lost.last, got.first, got.last, h1 - h0);

	report_step(r, "Lost reply, answer 2: the caller asks again with the same request id");
	d.armed = 1;
	lost_rc = segment_alloc(a, SEQ, 1000, "req-lost-3", &got);
	if (!lost_rc || segment_alloc(a, SEQ, 1000, "req-lost-3", &got) != 0) {
		report_cannot(r, "%s", lost_rc ? segment_errmsg(a) : "the reply was not dropped");
		segment_free(a);
		return WB_EUNAVAIL;
	}
	issued_add(is, &got);
	segment_high_water(a, SEQ, &h2, &gen);
	report_evidence(r, "recovered", "%" PRId64 "..%" PRId64 " (recorded with req-lost-3)",
			got.first, got.last);
	report_checkf(r, "request-id-recovers",
		      got.recovered && got.first == d.lost.first && got.last == d.lost.last &&
			      h2 - h1 == 1000,
		      "the committed range itself; h moved by 1000 only",
		      "%s %" PRId64 "..%" PRId64 ", h moved by %" PRId64,
		      got.recovered ? "recovered" : "NEW", got.first, got.last, h2 - h1);
	segment_free(a);
	return 0;
}

static int restored_backup(struct lab_ctx *ctx, const struct paths *p, struct issued *is)
{
	struct report *r = ctx->report;
	struct segment_alloc *a;
	struct segment_range got;
	int64_t hb, h, gen, gb;
	int rc;

	report_step(r, "Backup: copy the allocator database, then keep allocating");
	if ((rc = copy_db(ctx, p->db, p->backup)) != 0 || (rc = open_alloc(ctx, p, 1, &a)) != 0)
		return rc;
	segment_high_water(a, SEQ, &hb, &gb);
	for (int i = 0; i < 4; i++) {
		if (segment_alloc(a, SEQ, 1000, NULL, &got) != 0) {
			report_cannot(r, "%s", segment_errmsg(a));
			segment_free(a);
			return WB_EUNAVAIL;
		}
		issued_add(is, &got);
	}
	segment_high_water(a, SEQ, &h, &gen);
	segment_free(a);
	report_evidence(r, "backup", "taken at h = %" PRId64 ", generation %" PRId64, hb, gb);
	report_evidence(r, "live", "h = %" PRId64 ", generation %" PRId64, h, gen);

	report_step(r, "Control: restore the backup and serve without a generation check");
	if ((rc = copy_db(ctx, p->backup, p->db)) != 0 || (rc = open_alloc(ctx, p, 0, &a)) != 0)
		return rc;
	rc = segment_alloc(a, SEQ, 1000, NULL, &got);
	segment_free(a);
	if (rc) {
		report_cannot(r, "the control allocation failed");
		return WB_EUNAVAIL;
	}
	report_checkf(r, "control-reissues-used-range", hits(is, &got),
		      "the restored allocator hands out numbers already issued",
		      "%" PRId64 "..%" PRId64 " %s", got.first, got.last,
		      hits(is, &got) ? "was issued before: duplicate ids" : "is fresh");

	report_step(r, "Restore again, now with the generation check against the witness");
	if ((rc = copy_db(ctx, p->backup, p->db)) != 0 || (rc = open_alloc(ctx, p, 1, &a)) != 0)
		return rc;
	rc = segment_alloc(a, SEQ, 1000, NULL, &got);
	report_checkf(r, "restored-backup-refused", rc == WB_ECORRUPT, "refused: generation behind",
		      "%s", rc == WB_ECORRUPT ? segment_errmsg(a) : "served a range");

	int64_t max = 0;
	for (size_t i = 0; i < is->n; i++)
		if (is->r[i].last > max)
			max = is->r[i].last;
	report_step(r,
		    "Repair: raise h above the largest id in the consuming tables (%" PRId64
		    ") plus a margin of 1000, then serve",
		    max);
	if (segment_raise(a, SEQ, max + 1000) != 0 ||
	    segment_alloc(a, SEQ, 1000, NULL, &got) != 0) {
		report_cannot(r, "%s", segment_errmsg(a));
		segment_free(a);
		return WB_EUNAVAIL;
	}
	segment_high_water(a, SEQ, &h, &gen);
	segment_free(a);
	report_checkf(r, "raised-serves-fresh", !hits(is, &got) && got.first > max,
		      "a range above everything issued",
		      "%" PRId64 "..%" PRId64 ", generation %" PRId64, got.first, got.last,
		      got.generation);
	issued_add(is, &got);
	return 0;
}

int id_segment_scenario(struct lab_ctx *ctx, const struct segment_impl *impl)
{
	struct paths p = {
		.impl = impl,
		.db = wb_xasprintf("%s/allocator.db", ctx->run_dir),
		.witness = wb_xasprintf("%s/witness.db", ctx->run_dir),
		.backup = wb_xasprintf("%s/allocator-backup.db", ctx->run_dir),
	};
	struct issued is = {0};
	report_evidence(ctx->report, "databases", "%s, witness %s", p.db, p.witness);
	int rc = basics(ctx, &p, &is);
	if (!rc)
		rc = interleaved(ctx, &p, &is);
	if (!rc)
		rc = processes(ctx, &p, &is);
	if (!rc)
		rc = lost_reply(ctx, &p, &is);
	if (!rc)
		rc = restored_backup(ctx, &p, &is);
	if (!rc) {
		int64_t holes;
		size_t bad = overlaps(&is, &holes);
		report_checkf(ctx->report, "never-reissued", bad == 0,
			      "no overlap among all ranges the checked allocator handed out",
			      "%zu ranges, %zu overlaps, %" PRId64 " numbers wasted", is.n, bad,
			      holes);
	}
	free(is.r);
	free(p.db);
	free(p.witness);
	free(p.backup);
	return rc;
}

/* The entry point registered as lab_id_segment in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"Moving h to h+n in one transaction gave concurrent allocator processes "
		"disjoint ranges, and a lost reply either wasted its segment or was recovered "
		"by its request id. A restored old backup reissued used ranges (the control) "
		"until the generation check refused it and h was raised past every issued ID.");
	return lab_outcome_of(ctx, id_segment_scenario(ctx, NULL));
}

const lab_run_fn lab_id_segment = lab_main;
