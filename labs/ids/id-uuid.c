/*
 * id-uuid.c - the lab "id-uuid": RFC 9562 v4 and v7 layouts decoded, v7
 * monotonic within one millisecond (counter in rand_a, rollover waits for
 * the next ms), v7 sorting by time where v4 does not, what that does to a
 * real SQLite B-tree, and the collision budget, computed.  The control: a
 * generator whose random state is cloned (fork, like a cloned VM) repeats
 * every "random" v4; getrandom in the same clones does not.
 *
 * Counts and page numbers are evidence; nothing here is timed.
 */
#include "harness/proc.h"
#include "harness/report.h"
#include "base/wb.h"
#include "lab.h"
#include "recipes/uuid.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp_uuid(const void *a, const void *b)
{
	return uuid_cmp(a, b);
}

/* Sorts u[0..n) into byte order (uuid_cmp's), as qsort with cmp_uuid
 * would: an LSD radix sort, one counting pass per byte, through tmp
 * (n entries).  Kept here because a million UUIDs took qsort about
 * 0.37 s, the largest part of the lab's own time, and these 16 linear
 * passes take a small part of that. */
static void radix_sort_uuids(struct uuid *u, struct uuid *tmp, size_t n)
{
	struct uuid *from = u, *to = tmp;
	for (int byte = 15; byte >= 0; byte--) {
		size_t count[257] = {0};
		for (size_t i = 0; i < n; i++)
			count[from[i].b[byte] + 1]++;
		for (int v = 0; v < 256; v++)
			count[v + 1] += count[v];
		for (size_t i = 0; i < n; i++)
			to[count[from[i].b[byte]]++] = from[i];
		struct uuid *t = from;
		from = to;
		to = t;
	}
	/* 16 passes, an even number: the result is back in u.  The
	 * duplicate check compares neighbours, so it is only as good as this
	 * order: one linear look, and qsort if it is wrong, so a fault here
	 * can never hide a duplicate. */
	for (size_t i = 1; i < n; i++)
		if (uuid_cmp(&u[i - 1], &u[i]) > 0) {
			qsort(u, n, sizeof *u, cmp_uuid);
			break;
		}
}

/* n version-4 UUIDs from one getrandom(2) stream: the recipe's
 * uuid_v4_from_bytes on 16 random bytes each, as uuid_v4 does, but the
 * bytes drawn in one go (u itself as the buffer) instead of one system
 * call per UUID.  0 or WB_EIO. */
static int v4_many(struct uuid *u, size_t n)
{
	if (uuid_random_bytes(u, n * sizeof *u) != 0)
		return WB_EIO;
	for (size_t i = 0; i < n; i++) {
		uint8_t rnd[16];
		memcpy(rnd, u[i].b, sizeof rnd);
		uuid_v4_from_bytes(rnd, &u[i]);
	}
	return 0;
}

static void show(struct report *r, const char *key, const struct uuid *u)
{
	char s[UUID_STR_LEN], b[UUID_BITS_LEN];
	uuid_format(u, s);
	uuid_bits(u, b);
	report_evidence(r, key, "%s = %s", s, b);
}

/* A frozen clock for the rollover demonstration. */
struct frozen {
	uint64_t now;	/* Unix ms */
	uint64_t slept; /* ms waited */
};

static uint64_t frozen_now(void *arg)
{
	return ((struct frozen *)arg)->now;
}

static void frozen_sleep(void *arg, uint64_t ms)
{
	struct frozen *f = arg;
	f->now += ms;
	f->slept += ms;
}

static int v4_layout(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	enum { N = 1000000 };
	report_step(r, "UUIDv4: 122 bits from getrandom(2), version 0100, variant 10");
	struct uuid *u = malloc(N * sizeof *u), *tmp = malloc(N * sizeof *tmp);
	if (!u || !tmp) {
		free(u);
		free(tmp);
		report_cannot(r, "out of memory");
		return WB_ENOMEM;
	}
	/* The first from uuid_v4 itself, the rest from the same recipe in
	 * bulk (v4_many). */
	if (uuid_v4(&u[0]) != 0 || v4_many(u + 1, N - 1) != 0) {
		free(u);
		free(tmp);
		report_cannot(r, "getrandom failed");
		return WB_EUNAVAIL;
	}
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += uuid_version(&u[i]) != 4 || uuid_variant(&u[i]) != 2;
	show(r, "v4", &u[0]);
	report_evidence(r, "v4_fields",
			"48 bits | version | 12 bits | variant | 62 bits: only "
			"the version and the variant are fixed");
	report_checkf(r, "v4-version-variant", bad == 0, "version 4 and variant 10 in all 1000000",
		      "%d of %d wrong", bad, N);
	/* In creation order they are not sorted. */
	int inversions = 0;
	for (int i = 1; i < N; i++)
		inversions += uuid_cmp(&u[i - 1], &u[i]) > 0;
	radix_sort_uuids(u, tmp, N);
	int dups = 0;
	for (int i = 1; i < N; i++)
		dups += uuid_cmp(&u[i - 1], &u[i]) == 0;
	free(tmp);
	free(u);
	report_checkf(r, "v4-no-duplicate", dups == 0,
		      "none among 1000000 (chance about 1e12 / 2^123 = 9.4e-26)", "%d duplicates",
		      dups);
	report_checkf(r, "v4-creation-order-unsorted", inversions > N / 3,
		      "about half of consecutive pairs out of byte order",
		      "%d of %d pairs out of order", inversions, N - 1);
	return 0;
}

static int v7_layout_and_monotonic(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	struct uuid_v7_gen g;
	struct uuid u, prev;
	char s[UUID_STR_LEN];

	report_step(r, "UUIDv7: 48-bit Unix ms, version 0111, 12-bit rand_a, variant 10, 62-bit "
		       "rand_b");
	uuid_v7_init(&g, NULL, NULL, NULL);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t before = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	if (uuid_v7_next(&g, &u) != 0) {
		report_cannot(r, "getrandom failed");
		return WB_EUNAVAIL;
	}
	show(r, "v7", &u);
	uuid_format(&u, s);
	uint64_t ms = uuid_v7_ms(&u);
	report_checkf(r, "v7-fields",
		      uuid_version(&u) == 7 && uuid_variant(&u) == 2 && ms >= before &&
			      ms < before + 60000,
		      "version 7, variant 10, unix_ts_ms = the clock",
		      "version %d, variant %d, unix_ts_ms %" PRIu64 " (clock read %" PRIu64 ")",
		      uuid_version(&u), uuid_variant(&u), ms, before);

	report_step(r, "Method 1: within one ms rand_a counts up from an 11-bit random seed; past "
		       "4095 the generator waits for the next ms (clock frozen at 1700000000000)");
	struct frozen f = {.now = 1700000000000};
	uuid_v7_init(&g, frozen_now, frozen_sleep, &f);
	uuid_v7_next(&g, &prev);
	uint32_t seed = uuid_v7_rand_a(&prev);
	show(r, "first_in_ms", &prev);
	int n = 1, steps_ok = 1, increasing = 1;
	while (uuid_v7_ms(&prev) == 1700000000000 && n < 10000) {
		if (uuid_v7_next(&g, &u) != 0)
			break;
		increasing &= uuid_cmp(&prev, &u) < 0;
		if (uuid_v7_ms(&u) == 1700000000000)
			steps_ok &= uuid_v7_rand_a(&u) == uuid_v7_rand_a(&prev) + 1;
		else
			show(r, "after_rollover", &u);
		prev = u;
		n++;
	}
	report_evidence(r, "counter",
			"seed 0x%03" PRIx32 ", %d values in ms 1700000000000, "
			"then ms %" PRIu64 " with a fresh seed 0x%03" PRIx32,
			seed, n - 1, uuid_v7_ms(&prev), uuid_v7_rand_a(&prev));
	report_checkf(r, "v7-counter-monotonic",
		      steps_ok && increasing && n - 1 == 4096 - (int)seed,
		      "rand_a +1 per value up to 0xfff, every value greater than the last",
		      "%d values, steps %s, order %s", n - 1, steps_ok ? "+1" : "broken",
		      increasing ? "strictly increasing" : "BROKEN");
	report_checkf(r, "v7-rollover-waits",
		      g.rollovers == 1 && f.slept == 1 && uuid_v7_ms(&prev) == 1700000000001,
		      "one rollover, waited 1 ms, continued in the next ms",
		      "%" PRIu64 " rollover, waited %" PRIu64 " ms, now in ms %" PRIu64,
		      g.rollovers, f.slept, uuid_v7_ms(&prev));

	f.now -= 5000;
	uuid_v7_next(&g, &u);
	report_checkf(r, "v7-clock-behind", uuid_cmp(&prev, &u) < 0 && g.behind == 1,
		      "the clock stepped back 5 s: last ms reused, order kept",
		      "ms %" PRIu64 ", %s", uuid_v7_ms(&u),
		      uuid_cmp(&prev, &u) < 0 ? "greater than the previous value" : "SMALLER");

	report_step(r, "The real clock: 200000 v7 values from one generator in a row");
	uuid_v7_init(&g, NULL, NULL, NULL);
	uuid_v7_next(&g, &prev);
	int inc = 1, per_ms = 1, max_per_ms = 1;
	for (int i = 1; i < 200000; i++) {
		uuid_v7_next(&g, &u);
		inc &= uuid_cmp(&prev, &u) < 0;
		per_ms = uuid_v7_ms(&u) == uuid_v7_ms(&prev) ? per_ms + 1 : 1;
		if (per_ms > max_per_ms)
			max_per_ms = per_ms;
		prev = u;
	}
	report_evidence(r, "busiest_ms", "%d values shared one millisecond", max_per_ms);
	report_check(r, "v7-strictly-increasing", inc, "200000 values, each greater than the last",
		     inc ? "strictly increasing" : "out of order");
	return 0;
}

static int sort_by_time(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	static const uint64_t times[] = {1700000000500, 1700000000001, 1700000009999,
					 1700000000002, 1600000000000, 1800000000000};
	enum { N = sizeof times / sizeof times[0] };
	struct uuid u[N];
	report_step(r, "Sorting: v7 values made at shuffled times by six generators, sorted as "
		       "bytes");
	for (int i = 0; i < N; i++) {
		struct frozen f = {.now = times[i]};
		struct uuid_v7_gen g;
		uuid_v7_init(&g, frozen_now, frozen_sleep, &f);
		uuid_v7_next(&g, &u[i]);
	}
	qsort(u, N, sizeof u[0], cmp_uuid);
	int ok = 1;
	char order[256] = "";
	for (int i = 0; i < N; i++) {
		char one[32];
		snprintf(one, sizeof one, "%s%" PRIu64, i ? " < " : "", uuid_v7_ms(&u[i]));
		strncat(order, one, sizeof order - strlen(order) - 1);
		if (i)
			ok &= uuid_v7_ms(&u[i - 1]) < uuid_v7_ms(&u[i]);
	}
	report_check(r, "v7-sorts-by-time", ok, "byte order = timestamp order", order);
	return 0;
}

/* What inserting keys of one kind cost a SQLite B-tree. */
struct btree_cost {
	long long pages;  /* final size */
	long long writes; /* pages written by the commits (SQLITE_DBSTATUS_CACHE_WRITE) */
	long long misses; /* pages not found in the cache (SQLITE_DBSTATUS_CACHE_MISS) */
};

/* Inserts n keys into a fresh WITHOUT ROWID table in transactions of
 * batch rows, with a 100-page cache.  Returns 0 or -1. */
static int btree_cost(const char *path, int v7, int n, int batch, struct btree_cost *c)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1, cur, hi;
	struct uuid_v7_gen g;
	uuid_v7_init(&g, NULL, NULL, NULL);
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db,
			 "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA cache_size=100;"
			 "CREATE TABLE ids(id BLOB PRIMARY KEY) WITHOUT ROWID",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO ids(id) VALUES(?1)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (int i = 0; i < n; i++) {
		struct uuid u;
		if (i % batch == 0 && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
			goto out;
		if ((v7 ? uuid_v7_next(&g, &u) : uuid_v4(&u)) != 0)
			goto out;
		sqlite3_bind_blob(st, 1, u.b, 16, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto out;
		sqlite3_reset(st);
		if ((i % batch == batch - 1 || i == n - 1) &&
		    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			goto out;
	}
	sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_WRITE, &cur, &hi, 0);
	c->writes = cur;
	sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 0);
	c->misses = cur;
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto out;
	c->pages = sqlite3_column_int64(st, 0);
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

static int locality(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	enum { N = 50000, BATCH = 1000 };
	struct btree_cost c4 = {0}, c7 = {0};
	report_step(r, "B-tree locality: 50000 keys into a SQLite WITHOUT ROWID table in commits "
		       "of 1000, a 100-page cache; v4 vs v7 (pages counted, not timed)");
	char *p4 = wb_xasprintf("%s/v4.db", ctx->run_dir);
	char *p7 = wb_xasprintf("%s/v7.db", ctx->run_dir);
	int rc4 = btree_cost(p4, 0, N, BATCH, &c4), rc7 = btree_cost(p7, 1, N, BATCH, &c7);
	free(p4);
	free(p7);
	if (rc4 || rc7) {
		report_cannot(r, "SQLite failed in %s", ctx->run_dir);
		return WB_EIO;
	}
	report_evidence(r, "v4", "%lld pages, %lld page writes, %lld cache misses", c4.pages,
			c4.writes, c4.misses);
	report_evidence(r, "v7", "%lld pages, %lld page writes, %lld cache misses", c7.pages,
			c7.writes, c7.misses);
	report_evidence(r, "why",
			"about the same size; but each v4 commit touches leaves all over "
			"the tree, while v7 only appends at its right edge");
	report_checkf(r, "v7-insert-locality", c4.writes > 5 * c7.writes,
		      "v4 writes more than 5x the pages v7 writes for the same rows",
		      "%.1fx (%lld vs %lld)", c7.writes ? (double)c4.writes / c7.writes : 0.0,
		      c4.writes, c7.writes);
	return 0;
}

/* A tiny userspace PRNG (splitmix64): fine for the demonstration, and its
 * whole state is one word, so a fork clones it exactly. */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Two clones (fork) each make K v4 values; returns how many of the
 * second's values the first also made, or -1. */
static int cloned_pair(struct lab_ctx *ctx, int use_getrandom, uint64_t state)
{
	enum { K = 1000 };
	static struct uuid got[2][K];
	pid_t pid[2] = {0, 0};
	int fd[2][2], rc = 0;
	for (int c = 0; c < 2; c++) {
		if (pipe(fd[c]) != 0)
			return -1;
		fflush(NULL);
		pid[c] = fork();
		if (pid[c] < 0)
			return -1;
		if (pid[c] == 0) {
			close(fd[c][0]);
			for (int i = 0; i < K; i++) {
				struct uuid u;
				if (use_getrandom) {
					if (uuid_v4(&u) != 0)
						_exit(3);
				} else {
					uint8_t b[16];
					uint64_t x = splitmix(&state), y = splitmix(&state);
					memcpy(b, &x, 8);
					memcpy(b + 8, &y, 8);
					uuid_v4_from_bytes(b, &u);
				}
				if (write(fd[c][1], &u, sizeof u) != (ssize_t)sizeof u)
					_exit(4);
			}
			_exit(0);
		}
		close(fd[c][1]);
		proc_record(ctx->run_dir, pid[c]);
	}
	for (int c = 0; c < 2; c++) {
		int n = 0, status;
		while (n < K &&
		       read(fd[c][0], &got[c][n], sizeof got[c][n]) == (ssize_t)sizeof got[c][n])
			n++;
		close(fd[c][0]);
		if (waitpid(pid[c], &status, 0) != pid[c] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0 || n != K)
			rc = -1;
	}
	if (rc)
		return rc;
	qsort(got[0], K, sizeof got[0][0], cmp_uuid);
	int same = 0;
	for (int i = 0; i < K; i++)
		same += bsearch(&got[1][i], got[0], K, sizeof got[0][0], cmp_uuid) != NULL;
	return same;
}

static int clones(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	uint64_t seed;
	report_step(r, "Control: the random state is seeded once, then the process is cloned "
		       "(fork, as a VM snapshot is restored twice); each clone makes 1000 v4");
	if (uuid_random_bytes(&seed, sizeof seed) != 0) {
		report_cannot(r, "getrandom failed");
		return WB_EUNAVAIL;
	}
	int same = cloned_pair(ctx, 0, seed);
	if (same < 0) {
		report_cannot(r, "the clone processes failed");
		return WB_EUNAVAIL;
	}
	report_checkf(r, "cloned-seed-collides", same == 1000,
		      "all 1000 collide: the 122 bits were never random between clones",
		      "%d of 1000 identical", same);
	report_step(r, "The same clones drawing from getrandom(2) instead");
	same = cloned_pair(ctx, 1, 0);
	if (same < 0) {
		report_cannot(r, "the clone processes failed");
		return WB_EUNAVAIL;
	}
	report_checkf(r, "getrandom-clones-differ", same == 0,
		      "none collide: the kernel's generator is not cloned with the process",
		      "%d of 1000 identical", same);
	return 0;
}

static void budget(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	report_step(r, "The collision budget of random v4 (birthday bound, 122 random bits): "
		       "p(n) = 1 - exp(-n(n-1) / 2^123)");
	static const double ns[] = {1e6, 1e9, 1e12, 1e15, 1e18};
	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		char key[32];
		snprintf(key, sizeof key, "p(n=%.0e)", ns[i]);
		report_evidence(r, key, "%.2e", uuid_v4_collision_p(ns[i]));
	}
	double p9 = uuid_v4_collision_p(1e9), half = uuid_v4_n_for_p(0.5);
	char sp[32], sh[32];
	snprintf(sp, sizeof sp, "%.1e", p9);
	snprintf(sh, sizeof sh, "%.1e", half);
	report_checkf(r, "p-1e9", !strcmp(sp, "9.4e-20"), "n = 10^9: about 9.4e-20", "%s (%.4e)",
		      sp, p9);
	report_checkf(r, "n-for-half", !strcmp(sh, "2.7e+18"), "p = 0.5 at about 2.7e18",
		      "%s (%.4e)", sh, half);
	report_evidence(r, "v7_within_one_ms",
			"two v7 generators in the same ms collide only if counter and the 62 "
			"random rand_b bits agree: for k values each, at most about k^2 / 2^62 "
			"(the time bits do not help inside one ms)");
}

static int id_uuid_run(struct lab_ctx *ctx)
{
	int rc = v4_layout(ctx);
	if (!rc)
		rc = v7_layout_and_monotonic(ctx);
	if (!rc)
		rc = sort_by_time(ctx);
	if (!rc)
		rc = locality(ctx);
	if (!rc)
		rc = clones(ctx);
	if (!rc)
		budget(ctx);
	return rc;
}

/* The entry point registered as lab_id_uuid in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"UUIDv7 values sort by time and stayed strictly increasing within a "
		"millisecond, which kept SQLite B-tree inserts local where v4 scattered them. "
		"Random v4 values did not collide, but a random state cloned with the process "
		"repeated every one of them (the control), while getrandom(2) in the same "
		"clones did not.");
	return lab_outcome_of(ctx, id_uuid_run(ctx));
}

const lab_run_fn lab_id_uuid = lab_main;
