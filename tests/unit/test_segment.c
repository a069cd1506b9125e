/* test_segment.c - the SQLite segment allocator on real files: h to h+n,
 * argument and range checks, request-id recovery of a lost reply, waste on
 * a fresh retry, concurrent processes without overlap, and a restored old
 * backup: reissued without a witness, refused with one until raised; a
 * replacement bump (the exercise's) keeps the request record and the
 * before-transaction hook. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "base/wb.h"
#include "recipes/segment.h"
#include "testlib.h"

static char dir[256];
static char dbp[320], witp[320], bakp[320];

static int setup(void **state)
{
	(void)state;
	if (testlib_tmpdir("segment", dir, sizeof dir) != 0)
		return -1;
	snprintf(dbp, sizeof dbp, "%s/alloc.db", dir);
	snprintf(witp, sizeof witp, "%s/witness.db", dir);
	snprintf(bakp, sizeof bakp, "%s/backup.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return testlib_rmtree(dir) == 0 ? 0 : -1;
}

static struct segment_alloc *open_alloc(const char *wit)
{
	struct segment_alloc *a = NULL;
	char err[320];
	if (segment_open(dbp, wit, &a, err, sizeof err))
		fail_msg("open: %s", err);
	return a;
}

static void test_h_to_h_plus_n(void **state)
{
	(void)state;
	struct segment_alloc *a = open_alloc(witp);
	struct segment_range r;
	int64_t h, gen;
	assert_int_equal(segment_create(a, "orders", 5000), 0);
	assert_int_equal(segment_create(a, "orders", 1), 0); /* exists: unchanged */
	assert_int_equal(segment_alloc(a, "orders", 1000, NULL, &r), 0);
	assert_true(r.first == 5001 && r.last == 6000 && r.generation == 1 && !r.recovered);
	assert_int_equal(segment_alloc(a, "orders", 1000, NULL, &r), 0);
	assert_true(r.first == 6001 && r.last == 7000 && r.generation == 2);
	assert_int_equal(segment_high_water(a, "orders", &h, &gen), 0);
	assert_true(h == 7000 && gen == 2);

	assert_int_equal(segment_alloc(a, "nope", 10, NULL, &r), WB_ENOENT);
	assert_int_equal(segment_high_water(a, "nope", &h, &gen), WB_ENOENT);
	assert_int_equal(segment_alloc(a, "orders", 0, NULL, &r), WB_EINVAL);
	assert_int_equal(segment_alloc(a, "orders", -5, NULL, &r), WB_EINVAL);
	assert_int_equal(segment_alloc(a, "orders", (INT64_C(1) << 31) + 1, NULL, &r), WB_EINVAL);
	assert_int_equal(segment_create(a, "neg", -1), WB_EINVAL);
	assert_int_equal(segment_create(a, "big", INT64_MAX - 10), 0);
	assert_int_equal(segment_alloc(a, "big", 10, NULL, &r), 0);
	assert_true(r.last == INT64_MAX);
	assert_int_equal(segment_alloc(a, "big", 1, NULL, &r), WB_ERANGE);
	assert_int_equal(segment_high_water(a, "big", &h, &gen), 0);
	assert_true(h == INT64_MAX); /* the refused allocation moved nothing */
	segment_free(a);
	segment_free(NULL);

	char err[320];
	assert_int_equal(segment_open("/nonexistent-dir/x.db", NULL, &a, err, sizeof err),
			 WB_ENOENT); /* base/sqlitex's map: SQLITE_CANTOPEN */
	assert_null(a);
}

static int drop_reply(void *arg, const struct segment_range *r)
{
	struct segment_range *seen = arg;
	*seen = *r;
	return WB_EIO;
}

static void test_lost_reply(void **state)
{
	(void)state;
	struct segment_alloc *a = open_alloc(witp);
	struct segment_range r, lost, again;
	int64_t h, gen;
	assert_int_equal(segment_create(a, "s", 0), 0);
	segment_set_reply_hook(a, drop_reply, &lost);
	assert_int_equal(segment_alloc(a, "s", 100, "req-1", &r), WB_EIO);
	assert_non_null(strstr(segment_errmsg(a), "was lost"));
	segment_set_reply_hook(a, NULL, NULL);
	/* Committed all the same. */
	assert_int_equal(segment_high_water(a, "s", &h, &gen), 0);
	assert_true(h == 100 && lost.first == 1 && lost.last == 100);

	/* Recovery by request id: the same range, h does not move. */
	assert_int_equal(segment_alloc(a, "s", 100, "req-1", &again), 0);
	assert_true(again.recovered && again.first == 1 && again.last == 100);
	assert_int_equal(segment_high_water(a, "s", &h, &gen), 0);
	assert_true(h == 100);
	/* The same id for another size or sequence is a caller bug. */
	assert_int_equal(segment_alloc(a, "s", 50, "req-1", &r), WB_EINVAL);
	assert_int_equal(segment_create(a, "t", 0), 0);
	assert_int_equal(segment_alloc(a, "t", 100, "req-1", &r), WB_EINVAL);

	/* A fresh id instead wastes the lost range: a hole, never a reissue. */
	segment_set_reply_hook(a, drop_reply, &lost);
	assert_int_equal(segment_alloc(a, "s", 100, "req-2", &r), WB_EIO);
	segment_set_reply_hook(a, NULL, NULL);
	assert_int_equal(segment_alloc(a, "s", 100, "req-3", &r), 0);
	assert_true(lost.first == 101 && r.first == 201 && r.last == 300 && !r.recovered);
	segment_free(a);
}

static void test_processes_never_overlap(void **state)
{
	(void)state;
	enum { P = 3, K = 60 };
	int fds[P][2];
	struct segment_alloc *a = open_alloc(witp);
	assert_int_equal(segment_create(a, "s", 0), 0);
	segment_free(a);
	for (int p = 0; p < P; p++) {
		assert_int_equal(pipe(fds[p]), 0);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct segment_alloc *c = NULL;
			if (segment_open(dbp, witp, &c, NULL, 0))
				_exit(3);
			for (int i = 0; i < K; i++) {
				struct segment_range r;
				if (segment_alloc(c, "s", 1 + (i * 7 + p) % 13, NULL, &r))
					_exit(4);
				if (write(fds[p][1], &r, sizeof r) != sizeof r)
					_exit(5);
			}
			segment_free(c);
			_exit(0);
		}
		close(fds[p][1]);
	}
	struct segment_range all[P * K];
	int n = 0;
	for (int p = 0; p < P; p++) {
		while (n < P * K && read(fds[p][0], &all[n], sizeof all[n]) == sizeof all[n])
			n++;
		close(fds[p][0]);
	}
	for (int p = 0; p < P; p++) {
		int status;
		assert_true(wait(&status) > 0);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(n, P * K);
	/* Sort by first; then each range starts right after the previous. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && all[j - 1].first > all[j].first; j--) {
			struct segment_range t = all[j];
			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	assert_true(all[0].first == 1);
	for (int i = 1; i < n; i++)
		assert_true(all[i].first == all[i - 1].last + 1);
}

static void copy_db(const char *from, const char *to)
{
	sqlite3 *src, *dst;
	assert_int_equal(sqlite3_open(from, &src), SQLITE_OK);
	assert_int_equal(sqlite3_open(to, &dst), SQLITE_OK);
	sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
	assert_non_null(b);
	assert_int_equal(sqlite3_backup_step(b, -1), SQLITE_DONE);
	assert_int_equal(sqlite3_backup_finish(b), SQLITE_OK);
	sqlite3_close(src);
	sqlite3_close(dst);
}

static void test_restored_backup(void **state)
{
	(void)state;
	struct segment_range r;
	int64_t h, gen;

	/* Without a witness: the control reissues a used range. */
	struct segment_alloc *a = open_alloc(NULL);
	assert_int_equal(segment_create(a, "s", 5000), 0);
	copy_db(dbp, bakp); /* backup at h = 5000 */
	for (int i = 0; i < 4; i++)
		assert_int_equal(segment_alloc(a, "s", 1000, NULL, &r), 0);
	assert_true(r.last == 9000);
	segment_free(a);
	copy_db(bakp, dbp); /* restore */
	a = open_alloc(NULL);
	assert_int_equal(segment_alloc(a, "s", 1000, NULL, &r), 0);
	assert_true(r.first == 5001 && r.last == 6000); /* issued before: reissue */
	segment_free(a);

	/* With a witness: the restored allocator refuses until raised. */
	copy_db(bakp, dbp);
	a = open_alloc(witp);
	for (int i = 0; i < 4; i++)
		assert_int_equal(segment_alloc(a, "s", 1000, NULL, &r), 0);
	assert_true(r.last == 9000 && r.generation == 4);
	segment_free(a);
	copy_db(bakp, dbp);
	a = open_alloc(witp);
	assert_int_equal(segment_alloc(a, "s", 1000, NULL, &r), WB_ECORRUPT);
	assert_non_null(strstr(segment_errmsg(a), "behind its witness"));
	assert_int_equal(segment_high_water(a, "s", &h, &gen), 0);
	assert_true(h == 5000 && gen == 0); /* the refusal rolled back */
	assert_int_equal(segment_raise(a, "s", 9000 + 1000), 0);
	assert_int_equal(segment_alloc(a, "s", 1000, NULL, &r), 0);
	assert_true(r.first == 10001 && r.generation == 6);
	/* A raise never lowers h, and the witness floor applies too. */
	assert_int_equal(segment_raise(a, "s", 1), 0);
	assert_int_equal(segment_high_water(a, "s", &h, &gen), 0);
	assert_true(h == 11000);
	assert_int_equal(segment_raise(a, "s", -1), WB_EINVAL);
	segment_free(a);
}

/* A replacement bump: the recipe's UPDATE, or a refusal. */
struct bump {
	int refuse, before, in, hook;
};

static int bump_fn(void *arg, sqlite3 *db, const char *name, int64_t n,
		   enum segment_bump_phase phase, struct segment_range *r, char *err, size_t errlen)
{
	struct bump *b = arg;
	if (phase == SEGMENT_BUMP_BEFORE) {
		b->before++;
		return 0;
	}
	b->in++;
	if (b->refuse) {
		snprintf(err, errlen, "refused");
		return WB_ECORRUPT;
	}
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db,
			       "UPDATE segment_seq SET high_water = high_water + ?2,"
			       " generation = generation + 1 WHERE name = ?1"
			       " RETURNING high_water, generation",
			       -1, &st, NULL) != SQLITE_OK)
		return WB_EIO;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, n);
	int rc = sqlite3_step(st) == SQLITE_ROW ? 0 : WB_EIO;
	if (rc == 0) {
		r->last = sqlite3_column_int64(st, 0);
		r->first = r->last - n + 1;
		r->generation = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc;
}

static void count_hook(void *arg)
{
	((struct bump *)arg)->hook++;
}

static void test_replacement_bump(void **state)
{
	(void)state;
	struct segment_alloc *a = open_alloc(witp);
	struct segment_range r, again;
	struct bump b = {0};
	int64_t h, gen;
	assert_int_equal(segment_create(a, "orders", 100), 0);
	segment_set_bump(a, bump_fn, &b);
	segment_set_before_hook(a, count_hook, &b);
	assert_int_equal(segment_alloc(a, "orders", 10, "req-1", &r), 0);
	assert_true(r.first == 101 && r.last == 110 && !r.recovered);
	/* The request record is still the recipe's: no second bump. */
	assert_int_equal(segment_alloc(a, "orders", 10, "req-1", &again), 0);
	assert_true(again.recovered && again.first == 101 && b.in == 1);
	assert_int_equal(b.before, 2);
	assert_int_equal(b.hook, 2);
	b.refuse = 1;
	assert_int_equal(segment_alloc(a, "orders", 10, NULL, &r), WB_ECORRUPT);
	assert_int_equal(segment_high_water(a, "orders", &h, &gen), 0);
	assert_int_equal(h, 110);
	segment_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_h_to_h_plus_n, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replacement_bump, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_reply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_processes_never_overlap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restored_backup, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
