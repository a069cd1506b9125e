/*
 * id_bench.c - benchmark of the distributed-id recipes (issue 9): the
 * Snowflake generator single-threaded with its SQLite time reservation on,
 * as a share of the 4,096,000 ids/s its 12-bit sequence allows; the SQLite
 * segment allocator with segments of 100, 1,000 and 10,000; UUIDv7 and
 * UUIDv4.  Published anchors are printed beside the figures.
 *
 * It prints figures and ratios; it asserts nothing (timings are never test
 * conditions).  Uniqueness under faults is the id-* labs' job; here each
 * loop only counts values that fail to increase, as a sanity figure.
 *
 * Snowflake accounting: a run starts at the first millisecond boundary the
 * generator crosses and ends at the first boundary after --seconds, so
 * only whole milliseconds are counted.  For every millisecond in between
 * it records how many of the 4096 slots were used, whether the generator
 * committed a reservation while crossing into it, and how far into the
 * millisecond (CLOCK_REALTIME) its first id came out: the wake-up lateness
 * after an exhausted millisecond.  ids/s is ids over the span of their own
 * t values; with catch-up that span can differ from the wall time by up
 * to K ms, so ids per monotonic second is printed beside it.  Two modes
 * (catch_up_ms 0 and K) interleaved, several runs each, each on a fresh
 * database file; the median run is the figure (the machine is shared: the load
 * average and the involuntary context switches are printed with it).
 *
 * --fifo runs the Snowflake part under SCHED_FIFO priority 1 (root or
 * CAP_SYS_NICE): then a busy machine's other processes no longer decide
 * when the generator wakes up, and what is left is the generator (and the
 * host: this can be a VM).  The segment and UUID parts always run under
 * the default policy.
 *
 * Files go to --dir (default: a fresh directory under /var/tmp, removed at
 * the end), on a real disk so synchronous=FULL means an fsync per commit.
 *
 *   id_bench [--dir DIR] [--seconds S] [--runs N] [--catch-up K] [--fifo] [--quick]
 */
#include "base/wb.h"
#include "recipes/segment.h"
#include "recipes/snowflake.h"
#include "recipes/uuid.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define BUDGET_PER_S	4096000.0 /* 4096 sequence slots x 1000 ms */
#define SONYFLAKE_PER_S 25600.0	  /* 256 per 10 ms unit, by design */
#define UIDGEN_PER_S	6000000.0 /* Baidu uid-generator, CachedUidGenerator, claimed */

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Nanoseconds since the start of the current CLOCK_REALTIME millisecond
 * (the clock the generator's t comes from). */
static long ms_offset_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_nsec % 1000000;
}

static double load1(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of n values, sorting them in place. */
static double quantile(double *v, size_t n, double q)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);
	return v[i];
}

static void unlink_db(const char *path)
{
	char *wal = wb_xasprintf("%s-wal", path), *shm = wb_xasprintf("%s-shm", path);
	unlink(path);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
}

/* A growable array of doubles. */
struct dvec {
	double *v;
	size_t n, cap;
};

static void dvec_push(struct dvec *d, double x)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 4096;
		d->v = wb_xrealloc(d->v, d->cap * sizeof *d->v);
	}
	d->v[d->n++] = x;
}

/* ---- Snowflake ---------------------------------------------------------- */

struct sf_result {
	uint64_t ids;		 /* ids issued in the counted milliseconds */
	uint64_t span_ms;	 /* whole milliseconds counted */
	uint64_t full_ms;	 /* of those, all 4096 slots used */
	uint64_t partial_ms;	 /* 1..4095 used */
	uint64_t empty_ms;	 /* none used (skipped) */
	uint64_t commit_lost;	 /* slots lost around crossings that committed */
	uint64_t commits;	 /* reservation commits in the counted span */
	uint64_t exhausted;	 /* exhausted-ms waits in the counted span */
	uint64_t not_increasing; /* ids not above the previous one (must be 0) */
	double first_med_us;	 /* offset of a ms's first id into that ms */
	double first_p99_us;
	double fill_med_us;  /* first to 4096th id of a full ms */
	double rate;	     /* ids per second over the counted span */
	double wall_rate;    /* ids / monotonic seconds, as a cross-check */
	uint64_t behind_ms;  /* ms entered behind the clock (catch-up) */
	uint64_t max_lag_ms; /* largest clock - t at issue */
	long nivcsw;	     /* involuntary context switches during the run */
	double load_before, load_after;
};

static int snowflake_run(const char *dir, int run, uint64_t catch_up, double seconds,
			 struct sf_result *res)
{
	char *path = wb_xasprintf("%s/snowflake-%d-%" PRIu64 ".db", dir, run, catch_up);
	struct snowflake_config cfg = {
		.worker = 7,
		.generation = 1,
		.db_path = path,
		.reserve_ms = 1000, /* as the id-snowflake lab: one commit per second */
		.max_wait_ms = 50,
		.catch_up_ms = catch_up,
		.clock = snowflake_system_clock(),
	};
	struct snowflake_gen *g = NULL;
	struct snowflake_stats st;
	struct dvec first = {0}, fill = {0};
	struct rusage ru0, ru1;
	char err[256];
	int64_t id, prev = -1;
	int rc;

	memset(res, 0, sizeof *res);
	unlink_db(path);
	rc = snowflake_gen_open(&cfg, &g, err, sizeof err);
	if (rc) {
		fprintf(stderr, "id_bench: snowflake open: %s\n", err);
		goto out;
	}
	res->load_before = load1();
	getrusage(RUSAGE_SELF, &ru0);
	/* Warm up until the first boundary: the counted span starts there. */
	if ((rc = snowflake_gen_next(g, &id)) != 0)
		goto fail;
	uint64_t cur = (uint64_t)id >> 22, t;
	do {
		if ((rc = snowflake_gen_next(g, &id)) != 0)
			goto fail;
		t = (uint64_t)id >> 22;
	} while (t == cur);
	snowflake_gen_stats(g, &st);
	uint64_t commits0 = st.commits, commits_seen = st.commits, exh0 = st.exhausted_waits;
	uint64_t behind0 = st.behind_ms;
	uint64_t start_ms = t;
	long first_ns = ms_offset_ns();
	double t0 = mono_s(), end = t0 + seconds;
	uint32_t count = 1;
	cur = t;
	prev = id;
	dvec_push(&first, first_ns / 1e3);
	for (;;) {
		if ((rc = snowflake_gen_next(g, &id)) != 0)
			goto fail;
		if (id <= prev)
			res->not_increasing++;
		prev = id;
		t = (uint64_t)id >> 22;
		if (t == cur) {
			if (++count == SNOWFLAKE_SEQS)
				dvec_push(&fill, (ms_offset_ns() - first_ns) / 1e3);
			continue;
		}
		/* Crossed into a new ms: close the one before, and any skipped. */
		uint64_t lost = (SNOWFLAKE_SEQS - count) + (t - cur - 1) * SNOWFLAKE_SEQS;
		res->ids += count;
		if (count == SNOWFLAKE_SEQS)
			res->full_ms++;
		else
			res->partial_ms++;
		res->empty_ms += t - cur - 1;
		snowflake_gen_stats(g, &st);
		if (st.commits != commits_seen) {
			res->commit_lost += lost;
			commits_seen = st.commits;
		}
		if (mono_s() >= end)
			break; /* t's first id is not counted: the span ends at t */
		cur = t;
		count = 1;
		first_ns = ms_offset_ns();
		dvec_push(&first, first_ns / 1e3);
	}
	double wall = mono_s() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	res->load_after = load1();
	res->span_ms = t - start_ms;
	res->commits = st.commits - commits0;
	res->exhausted = st.exhausted_waits - exh0;
	res->behind_ms = st.behind_ms - behind0;
	res->max_lag_ms = st.max_lag_ms;
	res->rate = (double)res->ids * 1000.0 / (double)res->span_ms;
	res->wall_rate = (double)res->ids / wall;
	res->nivcsw = ru1.ru_nivcsw - ru0.ru_nivcsw;
	res->first_med_us = quantile(first.v, first.n, 0.5);
	res->first_p99_us = quantile(first.v, first.n, 0.99);
	res->fill_med_us = quantile(fill.v, fill.n, 0.5);
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "id_bench: snowflake: %s\n", snowflake_gen_errmsg(g));
out:
	snowflake_gen_free(g);
	unlink_db(path);
	free(path);
	free(first.v);
	free(fill.v);
	return rc;
}

static int cmp_sf(const void *a, const void *b)
{
	double x = ((const struct sf_result *)a)->rate, y = ((const struct sf_result *)b)->rate;
	return x < y ? -1 : x > y;
}

static void sf_row(const char *label, const struct sf_result *r)
{
	printf("  %-9s %9.0f %7.2f%% %5" PRIu64 " %5" PRIu64 " %4" PRIu64 " %5" PRIu64 " %6" PRIu64
	       " %5" PRIu64 " %3" PRIu64 " %7.1f %7.1f %6.1f %5.1f %5ld %4.1f/%4.1f\n",
	       label, r->rate, 100.0 * r->rate / BUDGET_PER_S, r->span_ms, r->full_ms,
	       r->partial_ms, r->empty_ms, r->commit_lost, r->behind_ms, r->max_lag_ms,
	       r->first_med_us, r->first_p99_us, r->fill_med_us,
	       r->fill_med_us * 1000.0 / (SNOWFLAKE_SEQS - 1), r->nivcsw, r->load_before,
	       r->load_after);
}

static const char *policy_name(void)
{
	switch (sched_getscheduler(0)) {
	case SCHED_OTHER: return "SCHED_OTHER (fair share)";
	case SCHED_FIFO: return "SCHED_FIFO (real-time)";
	case SCHED_RR: return "SCHED_RR (real-time)";
	default: return "other";
	}
}

static int bench_snowflake(const char *dir, double seconds, int runs, uint64_t catch_up)
{
	/* [0]: catch_up_ms = 0, t is always the clock's ms; [1]: catch-up. */
	struct sf_result *res[2] = {wb_xcalloc((size_t)runs, sizeof *res[0]),
				    wb_xcalloc((size_t)runs, sizeof *res[1])};
	const uint64_t k[2] = {0, catch_up};
	int rc = 0;
	printf("Snowflake generator (labs/recipes/snowflake.c), one thread, worker 7, "
	       "system clock,\nreservation in SQLite (WAL, synchronous=FULL, reserve_ms = 1000: "
	       "one fsynced commit a second),\nno ZooKeeper lease; %d runs of %.1f s per mode, "
	       "modes interleaved, each run on a fresh\ndatabase file; scheduling policy: %s\n",
	       runs, seconds, policy_name());
	printf("  wait at an exhausted ms: %s\n", snowflake_system_clock_wait());
	printf("  modes: K=0   t is the ms the clock read (the labs' setting)\n"
	       "         K=%-3" PRIu64 " catch_up_ms: after a full ms, ms the clock passed while "
	       "the process\n"
	       "               was not running are used too, up to K ms behind the clock\n",
	       catch_up);
	printf("  %-9s %9s %8s %5s %5s %4s %5s %6s %5s %3s %7s %7s %6s %5s %5s %9s\n", "run",
	       "ids/s", "budget", "ms", "full", "part", "empty", "lostC", "behnd", "lag", "1st med",
	       "1st p99", "fill", "ns/id", "invcs", "load");
	for (int i = 0; i < runs; i++) {
		for (int j = 0; j < 2; j++) {
			int m = (i + j) % 2; /* alternate which mode goes first */
			rc = snowflake_run(dir, i, k[m], seconds, &res[m][i]);
			if (rc)
				goto out;
			char label[24];
			snprintf(label, sizeof label, "%d K=%" PRIu64, i + 1, k[m]);
			sf_row(label, &res[m][i]);
			if (res[m][i].not_increasing)
				printf("  !! %" PRIu64 " ids not above the one before\n",
				       res[m][i].not_increasing);
		}
	}
	printf("  ms = whole ms counted; full = all 4096 slots used; part = 1..4095; empty = "
	       "none;\n  lostC = slots lost around the crossings that committed a reservation; "
	       "behnd = ms\n  entered behind the clock; lag = largest clock - t (ms); 1st = how "
	       "far into its ms\n  (us) the first id came out (wake-up lateness when K=0); fill = "
	       "us from a full ms's\n  first id to its 4096th; invcs = involuntary context "
	       "switches; load = 1-min load\n  average before/after\n");
	for (int m = 0; m < 2; m++) {
		qsort(res[m], (size_t)runs, sizeof *res[m], cmp_sf);
		const struct sf_result *r = &res[m][runs / 2];
		char label[24];
		snprintf(label, sizeof label, "median K=%" PRIu64, k[m]);
		sf_row(label, r);
	}
	for (int m = 0; m < 2; m++) {
		const struct sf_result *r = &res[m][runs / 2];
		printf("  median K=%-3" PRIu64
		       ": %8.0f ids/s = %6.2f%% of the 4,096,000/s bit budget "
		       "(%" PRIu64 " of %" PRIu64 " ms full, %" PRIu64 " commits, %" PRIu64
		       " exhausted waits);\n               by the monotonic clock %.0f ids/s = "
		       "%.2f%%\n",
		       k[m], r->rate, 100.0 * r->rate / BUDGET_PER_S, r->full_ms, r->span_ms,
		       r->commits, r->exhausted, r->wall_rate, 100.0 * r->wall_rate / BUDGET_PER_S);
	}
	const struct sf_result *r0 = &res[0][runs / 2], *r1 = &res[1][runs / 2];
	double cpu_share = r0->fill_med_us / 1000.0 * (SNOWFLAKE_SEQS - 1) / SNOWFLAKE_SEQS;
	printf("  generator cost: %.1f ns per id (median fill), so the full budget needs %.0f%% of "
	       "one CPU;\n  one CPU could issue %.1fM ids/s if the clock allowed it\n",
	       r0->fill_med_us * 1000.0 / (SNOWFLAKE_SEQS - 1), 100.0 * cpu_share,
	       r0->fill_med_us > 0 ? (SNOWFLAKE_SEQS - 1) / r0->fill_med_us : 0.0);
	printf("  anchors: sonyflake %.0f/s by design (256 ids per 10 ms unit; %.2f%% of this "
	       "budget);\n           Baidu uid-generator ~%.0fM/s claimed for its cached mode "
	       "(ring buffer filled ahead)\n",
	       SONYFLAKE_PER_S, 100.0 * SONYFLAKE_PER_S / BUDGET_PER_S, UIDGEN_PER_S / 1e6);
	printf("  K=0 / sonyflake = %.0fx, K=0 / uid-generator claim = %.2f; K=%" PRIu64
	       " / sonyflake = %.0fx, K=%" PRIu64 " / uid-generator claim = %.2f\n\n",
	       r0->rate / SONYFLAKE_PER_S, r0->rate / UIDGEN_PER_S, catch_up,
	       r1->rate / SONYFLAKE_PER_S, catch_up, r1->rate / UIDGEN_PER_S);
out:
	free(res[0]);
	free(res[1]);
	return rc;
}

/* ---- Segments ------------------------------------------------------------ */

static int segment_size_run(const char *dir, int64_t n, double seconds)
{
	char *path = wb_xasprintf("%s/segment.db", dir), *wit = wb_xasprintf("%s/witness.db", dir);
	struct segment_alloc *a = NULL;
	struct segment_range r;
	struct dvec lat = {0};
	char err[320];
	uint64_t allocs = 0, ids = 0, not_increasing = 0;
	int64_t prev = 0;
	volatile int64_t sink = 0;
	int rc;

	unlink_db(path);
	unlink_db(wit);
	rc = segment_open(path, wit, &a, err, sizeof err);
	if (!rc)
		rc = segment_create(a, "bench", 0);
	if (rc) {
		fprintf(stderr, "id_bench: segment: %s\n", a ? segment_errmsg(a) : err);
		goto out;
	}
	double t0 = mono_s(), end = t0 + seconds, t1 = t0, in_alloc = 0;
	while (t1 < end) {
		double a0 = mono_s();
		rc = segment_alloc(a, "bench", n, NULL, &r);
		if (rc) {
			fprintf(stderr, "id_bench: segment_alloc: %s\n", segment_errmsg(a));
			goto out;
		}
		double a1 = mono_s();
		dvec_push(&lat, (a1 - a0) * 1e6);
		in_alloc += a1 - a0;
		allocs++;
		/* Hand the range out from memory, as a caller would. */
		for (int64_t v = r.first; v <= r.last; v++) {
			if (v <= prev)
				not_increasing++;
			prev = v;
			sink = v;
		}
		ids += (uint64_t)n;
		t1 = mono_s();
	}
	(void)sink;
	double wall = t1 - t0;
	double med = quantile(lat.v, lat.n, 0.5), p99 = quantile(lat.v, lat.n, 0.99);
	printf("  %-7" PRId64 " %9.0f %13.0f %9.2f %10.1f %10.1f %8.1f%%", n, (double)allocs / wall,
	       (double)ids / wall, 100.0 * (double)ids / wall / BUDGET_PER_S, med, p99,
	       100.0 * in_alloc / wall);
	if (not_increasing)
		printf("  !! %" PRIu64 " not increasing", not_increasing);
	printf("\n");
out:
	segment_free(a);
	unlink_db(path);
	unlink_db(wit);
	free(path);
	free(wit);
	free(lat.v);
	return rc;
}

static int bench_segment(const char *dir, double seconds)
{
	static const int64_t sizes[] = {100, 1000, 10000};
	printf("Segment allocator (labs/recipes/segment.c), one process, SQLite WAL, "
	       "synchronous=FULL,\nwith the witness database (two fsynced commits per "
	       "allocation), no request id; %.1f s per size\n",
	       seconds);
	printf("  load before: %.1f\n", load1());
	printf("  %-7s %9s %13s %9s %10s %10s %9s\n", "segment", "allocs/s", "ids/s", "x budget%",
	       "alloc med", "alloc p99", "in alloc");
	for (size_t i = 0; i < WB_ARRAY_LEN(sizes); i++)
		if (segment_size_run(dir, sizes[i], seconds) != 0)
			return 1;
	printf("  ids/s counts ids handed out from each range in memory; x budget%% compares "
	       "it with\n  the Snowflake bit budget (4,096,000/s); alloc med/p99 in us\n\n");
	return 0;
}

/* ---- UUIDs ---------------------------------------------------------------- */

static int bench_uuid(double seconds)
{
	struct uuid_v7_gen g;
	struct uuid u, prev;
	uint64_t n = 0, not_increasing = 0;
	int rc;
	printf("UUIDs (labs/recipes/uuid.c), one thread, %.1f s each; load before: %.1f\n", seconds,
	       load1());
	uuid_v7_init(&g, NULL, NULL, NULL);
	if ((rc = uuid_v7_next(&g, &prev)) != 0)
		goto fail;
	double t0 = mono_s(), end = t0 + seconds, t1 = t0;
	while (t1 < end) {
		for (int i = 0; i < 1024; i++) {
			if ((rc = uuid_v7_next(&g, &u)) != 0)
				goto fail;
			if (uuid_cmp(&u, &prev) <= 0)
				not_increasing++;
			prev = u;
		}
		n += 1024;
		t1 = mono_s();
	}
	double v7 = (double)n / (t1 - t0);
	printf("  v7: %10.0f /s  (%.2f%% of 4,096,000; %" PRIu64
	       " counter rollovers waited out, %" PRIu64 " not increasing)\n",
	       v7, 100.0 * v7 / BUDGET_PER_S, g.rollovers, not_increasing);
	n = 0;
	t0 = mono_s();
	end = t0 + seconds;
	t1 = t0;
	while (t1 < end) {
		for (int i = 0; i < 1024; i++)
			if ((rc = uuid_v4(&u)) != 0)
				goto fail;
		n += 1024;
		t1 = mono_s();
	}
	double v4 = (double)n / (t1 - t0);
	printf("  v4: %10.0f /s  (one getrandom(2) call per value; v7 takes 10 bytes a value "
	       "from a 256-byte pool)\n",
	       v4);
	printf("  v7 / v4 = %.2f\n\n", v7 / v4);
	return 0;
fail:
	fprintf(stderr, "id_bench: uuid: %s\n", wb_strerror(rc));
	return 1;
}

/* ---- main ------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr, "usage: id_bench [--dir DIR] [--seconds S] [--runs N] [--catch-up K] "
			"[--fifo] [--quick]\n");
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	double seconds = 5;
	int runs = 5;
	uint64_t catch_up = 10;
	int fifo = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			char *end;
			seconds = strtod(argv[++i], &end);
			if (*end || !(seconds >= 0.1 && seconds <= 600)) {
				fprintf(stderr, "id_bench: --seconds must be 0.1..600\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > 99) {
				fprintf(stderr, "id_bench: --runs must be 1..99\n");
				return 2;
			}
			runs = (int)v;
		} else if (!strcmp(argv[i], "--catch-up") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > 1000) {
				fprintf(stderr, "id_bench: --catch-up must be 1..1000 (ms)\n");
				return 2;
			}
			catch_up = (uint64_t)v;
		} else if (!strcmp(argv[i], "--fifo")) {
			fifo = 1;
		} else if (!strcmp(argv[i], "--quick")) {
			seconds = 1;
			runs = 1;
		} else {
			usage();
			return 2;
		}
	}
	char tmpl[] = "/var/tmp/wb-bench-id-XXXXXX";
	int own_dir = 0;
	if (!dir) {
		if (!mkdtemp(tmpl)) {
			fprintf(stderr, "id_bench: mkdtemp: %s\n", strerror(errno));
			return 1;
		}
		dir = tmpl;
		own_dir = 1;
	}
	printf("id_bench: files in %s, %ld CPUs online, load average %.2f\n\n", dir,
	       sysconf(_SC_NPROCESSORS_ONLN), load1());
	int rc = 0;
	if (fifo) {
		/* Only the Snowflake runs: they sleep most of each ms, so a
		 * real-time policy does not starve the machine's other work. */
		struct sched_param sp = {.sched_priority = 1};
		if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
			fprintf(stderr, "id_bench: --fifo: sched_setscheduler: %s\n",
				strerror(errno));
			rc = 1;
		}
	}
	if (!rc)
		rc = bench_snowflake(dir, seconds, runs, catch_up);
	if (fifo) {
		struct sched_param sp = {.sched_priority = 0};
		sched_setscheduler(0, SCHED_OTHER, &sp);
	}
	if (!rc)
		rc = bench_segment(dir, seconds < 3 ? seconds : 3);
	if (!rc)
		rc = bench_uuid(seconds < 2 ? seconds : 2);
	if (own_dir)
		rmdir(dir);
	return rc ? 1 : 0;
}
