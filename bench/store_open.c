/*
 * store_open.c - benchmark of opening the progress database: what the
 * PRAGMA quick_check that store_open runs before its first write costs on
 * databases of 1,000, 10,000 and 100,000 graded answers (free-text
 * answers of about 200 bytes, 500 questions with schedules), next to the
 * whole store_open + store_close and a full PRAGMA integrity_check, so
 * the check's share of the start-up is a ratio.
 *
 * It prints figures; it asserts nothing (timings are never test
 * conditions).  Whether a damaged file is refused is tests/cli/
 * db_faults.sh's job.  Each figure is the median of RUNS runs on a warm
 * page cache.  Files go to --dir (default: a fresh directory under
 * /var/tmp, removed at the end).
 *
 *   bench_store_open [--dir DIR] [--quick]
 */
#include "core/answers.h"
#include "core/answers_db.h"
#include "core/store.h"
#include "base/mono.h"
#include "base/sqlitex.h"
#include "base/wb.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RUNS 15

/* Microseconds of the monotonic clock. */
static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

/* A progress database at path with n answers over 500 questions and their
 * schedules, written in one transaction.  Returns 0 or a WB_E* code. */
static int fill(const char *path, int n)
{
	char err[STORE_ERRLEN];
	struct store *s;
	int rc = store_open(path, &s, err, sizeof err);
	if (rc) {
		fprintf(stderr, "bench_store_open: %s\n", err);
		return rc;
	}
	sqlite3 *db = store_db(s);
	rc = sqlitex_begin_immediate(db);
	char text[201];
	memset(text, 'x', 200);
	text[200] = '\0';
	for (int i = 0; i < n && !rc; i++) {
		char uid[40], q[32];
		snprintf(uid, sizeof uid, "bench-%08d", i);
		snprintf(q, sizeof q, "q-%d", i % 500);
		struct answer a = {.uid = uid,
				   .learner = "",
				   .question = q,
				   .chapter = "01-bench",
				   .lang = "en",
				   .kind = "recall",
				   .shown_at = 1000 + i,
				   .graded_at = 2000 + i,
				   .text = text,
				   .ticked = "1",
				   .points = 1,
				   .max_points = 2,
				   .grade = 2,
				   .closed_book = 1};
		rc = answers_insert(db, &a, NULL);
	}
	for (int i = 0; i < 500 && !rc && n; i++) {
		char q[32];
		snprintf(q, sizeof q, "q-%d", i);
		rc = answers_replay(db, q);
	}
	rc = sqlitex_end(db, rc);
	store_close(s);
	return rc;
}

/* Median microseconds of one PRAGMA on a fresh connection to path (the
 * open itself not counted). */
static double time_pragma(const char *path, const char *sql)
{
	double v[RUNS];
	for (int r = 0; r < RUNS; r++) {
		sqlite3 *db;
		sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
		double t0 = now_us();
		sqlite3_exec(db, sql, NULL, NULL, NULL);
		v[r] = now_us() - t0;
		sqlite3_close(db);
	}
	return median(v, RUNS);
}

/* Median microseconds of store_open + store_close on path. */
static double time_open(const char *path)
{
	double v[RUNS];
	for (int r = 0; r < RUNS; r++) {
		char err[STORE_ERRLEN];
		struct store *s;
		double t0 = now_us();
		if (store_open(path, &s, err, sizeof err) != 0) {
			fprintf(stderr, "bench_store_open: %s\n", err);
			return -1;
		}
		store_close(s);
		v[r] = now_us() - t0;
	}
	return median(v, RUNS);
}

int main(int argc, char **argv)
{
	const char *dir_arg = NULL;
	int quick = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir_arg = argv[++i];
		else if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else {
			fprintf(stderr, "usage: bench_store_open [--dir DIR] [--quick]\n");
			return 2;
		}
	}
	char tmpl[] = "/var/tmp/bench-store-XXXXXX";
	const char *dir = dir_arg ? dir_arg : mkdtemp(tmpl);
	if (!dir) {
		perror("bench_store_open: mkdtemp");
		return 1;
	}
	const int sizes[] = {1000, 10000, 100000};
	int nsizes = quick ? 2 : 3;
	printf("answers  file KiB  quick_check ms  integrity_check ms  store_open ms  "
	       "quick_check/open\n");
	for (int k = 0; k < nsizes; k++) {
		char *path = wb_xasprintf("%s/p%d.db", dir, sizes[k]);
		if (fill(path, sizes[k]) != 0)
			return 1;
		FILE *f = fopen(path, "rb");
		long kib = 0;
		if (f) {
			fseek(f, 0, SEEK_END);
			kib = ftell(f) / 1024;
			fclose(f);
		}
		double qc = time_pragma(path, "PRAGMA quick_check(1)");
		double ic = time_pragma(path, "PRAGMA integrity_check(1)");
		double op = time_open(path);
		printf("%7d  %8ld  %14.2f  %18.2f  %13.2f  %15.0f%%\n", sizes[k], kib, qc / 1000,
		       ic / 1000, op / 1000, op > 0 ? 100 * qc / op : 0);
		char *side = wb_xasprintf("%s-wal", path);
		unlink(side);
		free(side);
		side = wb_xasprintf("%s-shm", path);
		unlink(side);
		free(side);
		unlink(path);
		free(path);
	}
	if (!dir_arg)
		rmdir(dir);
	return 0;
}
