/* test_snowflake.c - the 41/10/12 layout (encode, decode, every range
 * check, the bit string) and the generator's rules against a fake clock and
 * a real SQLite file: sequence exhaustion, bounded rollback wait and
 * refusal, restart in the same ms, a crash right after the reservation
 * commit, generation fencing.  The ZooKeeper lease is exercised by the
 * id-snowflake lab against a real server. */
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
#include "recipes/snowflake.h"
#include "testlib.h"

static char dir[256];
static char db[320];

static int setup(void **state)
{
	(void)state;
	if (testlib_tmpdir("snowflake", dir, sizeof dir) != 0)
		return -1;
	snprintf(db, sizeof db, "%s/ids.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return testlib_rmtree(dir) == 0 ? 0 : -1;
}

static void test_encode_known_values(void **state)
{
	(void)state;
	int64_t id;
	assert_int_equal(snowflake_encode(1000, 7, 0, &id), 0);
	assert_int_equal(id, INT64_C(4194332672));
	assert_int_equal(snowflake_encode(999, 7, 0, &id), 0);
	assert_int_equal(id, INT64_C(4190138368));
	assert_int_equal(snowflake_encode(0, 0, 0, &id), 0);
	assert_int_equal(id, 0);
	/* The largest triple fills every bit but the sign. */
	assert_int_equal(snowflake_encode(SNOWFLAKE_TIME_LIMIT - 1, 1023, 4095, &id), 0);
	assert_int_equal(id, INT64_MAX);
	assert_int_equal(snowflake_encode(0, 0, 4095, &id), 0);
	assert_int_equal(id, 4095);
	assert_int_equal(snowflake_encode(0, 1, 0, &id), 0);
	assert_int_equal(id, 4096);
	assert_int_equal(snowflake_encode(1, 0, 0, &id), 0);
	assert_int_equal(id, 1 << 22);
}

static void test_encode_range_checks(void **state)
{
	(void)state;
	int64_t id = 42;
	assert_int_equal(snowflake_encode(SNOWFLAKE_TIME_LIMIT, 0, 0, &id), WB_ERANGE);
	assert_int_equal(snowflake_encode(UINT64_MAX, 0, 0, &id), WB_ERANGE);
	assert_int_equal(snowflake_encode(0, 1024, 0, &id), WB_ERANGE);
	assert_int_equal(snowflake_encode(0, UINT32_MAX, 0, &id), WB_ERANGE);
	assert_int_equal(snowflake_encode(0, 0, 4096, &id), WB_ERANGE);
	assert_int_equal(snowflake_encode(0, 0, UINT32_MAX, &id), WB_ERANGE);
	assert_int_equal(id, 42); /* untouched on error */
}

static void test_decode(void **state)
{
	(void)state;
	struct snowflake_triple t;
	assert_int_equal(snowflake_decode(INT64_C(4194332672), &t), 0);
	assert_int_equal(t.t, 1000);
	assert_int_equal(t.worker, 7);
	assert_int_equal(t.seq, 0);
	assert_int_equal(snowflake_decode(INT64_MAX, &t), 0);
	assert_true(t.t == SNOWFLAKE_TIME_LIMIT - 1 && t.worker == 1023 && t.seq == 4095);
	assert_int_equal(snowflake_decode(-1, &t), WB_ERANGE);
	assert_int_equal(snowflake_decode(INT64_MIN, &t), WB_ERANGE);
	/* Round trip over a spread of triples. */
	for (uint64_t tm = 1; tm < SNOWFLAKE_TIME_LIMIT; tm = tm * 3 + 1)
		for (uint32_t w = 0; w < 1024; w += 341)
			for (uint32_t s = 0; s < 4096; s += 1365) {
				int64_t id;
				assert_int_equal(snowflake_encode(tm, w, s, &id), 0);
				assert_int_equal(snowflake_decode(id, &t), 0);
				assert_true(t.t == tm && t.worker == w && t.seq == s);
			}
}

static void test_bits_and_years(void **state)
{
	(void)state;
	char b[SNOWFLAKE_BITS_LEN];
	snowflake_bits(INT64_C(4194332672), b);
	assert_string_equal(b, "0 00000000000000000000000000000001111101000 0000000111 "
			       "000000000000");
	assert_int_equal(strlen(b), SNOWFLAKE_BITS_LEN - 1);
	snowflake_bits(-1, b);
	assert_int_equal(b[0], '1');
	char y[16];
	snprintf(y, sizeof y, "%.1f", snowflake_years());
	assert_string_equal(y, "69.7");
}

static struct snowflake_config cfg_for(struct snowflake_fake_clock *fc, uint64_t gen)
{
	return (struct snowflake_config){
		.worker = 7,
		.generation = gen,
		.db_path = db,
		.reserve_ms = 1000,
		.max_wait_ms = 50,
		.clock = snowflake_fake_clock(fc),
	};
}

static struct snowflake_gen *open_gen(struct snowflake_config *cfg)
{
	struct snowflake_gen *g = NULL;
	char err[256];
	int rc = snowflake_gen_open(cfg, &g, err, sizeof err);
	if (rc)
		fail_msg("open: %s", err);
	return g;
}

static struct snowflake_triple next_triple(struct snowflake_gen *g, int64_t *idp)
{
	int64_t id;
	struct snowflake_triple t;
	int rc = snowflake_gen_next(g, &id);
	if (rc)
		fail_msg("next: %s", snowflake_gen_errmsg(g));
	assert_int_equal(snowflake_decode(id, &t), 0);
	if (idp)
		*idp = id;
	return t;
}

static void test_config_checks(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	struct snowflake_gen *g = NULL;
	char err[256];
	cfg.worker = 1024;
	assert_int_equal(snowflake_gen_open(&cfg, &g, err, sizeof err), WB_EINVAL);
	assert_non_null(strstr(err, "worker 1024"));
	assert_null(g);
	cfg = cfg_for(&fc, 0);
	assert_int_equal(snowflake_gen_open(&cfg, &g, err, sizeof err), WB_EINVAL);
	cfg = cfg_for(&fc, 1);
	cfg.reserve_ms = 0;
	assert_int_equal(snowflake_gen_open(&cfg, &g, err, sizeof err), WB_EINVAL);
	cfg = cfg_for(&fc, 1);
	cfg.db_path = "/nonexistent-dir/x/ids.db";
	assert_int_equal(snowflake_gen_open(&cfg, &g, err, sizeof err), WB_ENOENT);
	snowflake_gen_free(NULL);
}

static void test_sequence_exhaustion_waits(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	struct snowflake_gen *g = open_gen(&cfg);
	int64_t prev = -1, id;
	for (uint32_t i = 0; i < SNOWFLAKE_SEQS; i++) {
		struct snowflake_triple t = next_triple(g, &id);
		assert_int_equal(t.t, 1000);
		assert_int_equal(t.seq, i);
		assert_true(id > prev);
		prev = id;
	}
	/* Slot 4097 in ms 1000: never wraps, waits one ms instead. */
	struct snowflake_triple t = next_triple(g, &id);
	assert_int_equal(t.t, 1001);
	assert_int_equal(t.seq, 0);
	assert_true(id > prev);
	struct snowflake_stats st;
	snowflake_gen_stats(g, &st);
	assert_int_equal(st.exhausted_waits, 1);
	assert_int_equal(fc.slept, 1);
	assert_int_equal(st.issued, SNOWFLAKE_SEQS + 1);
	assert_int_equal(st.commits, 1);
	snowflake_gen_free(g);
}

static void test_rollback_wait_then_refuse(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	struct snowflake_gen *g = open_gen(&cfg);
	int64_t a, b, c;
	next_triple(g, &a);
	/* 30 ms back, bound 50 ms: waits until 1000 and continues above. */
	fc.now = 970;
	struct snowflake_triple t = next_triple(g, &b);
	assert_true(b > a);
	assert_int_equal(t.t, 1000);
	assert_int_equal(t.seq, 1);
	assert_int_equal(fc.slept, 30);
	/* 999 -> 1000 -> 999 from the lesson: no reuse of ms 999. */
	fc.now = 999;
	t = next_triple(g, &c);
	assert_true(c > b);
	assert_int_equal(t.t, 1000);
	/* 100 ms back, bound 50 ms: refuses after waiting the bound. */
	fc.now = 900;
	fc.slept = 0;
	int64_t id = 0;
	assert_int_equal(snowflake_gen_next(g, &id), WB_EBUSY);
	assert_int_equal(id, 0);
	assert_non_null(strstr(snowflake_gen_errmsg(g), "refusing"));
	assert_int_equal(fc.slept, 50);
	struct snowflake_stats st;
	snowflake_gen_stats(g, &st);
	assert_int_equal(st.rollback_waits, 3);
	assert_int_equal(st.rollback_refused, 1);
	assert_int_equal(st.issued, 3);
	/* Refusal is not final: once the clock is back, issuing resumes. */
	fc.now = 1005;
	t = next_triple(g, &id);
	assert_int_equal(t.t, 1005);
	assert_true(id > c);
	snowflake_gen_free(g);
}

static uint64_t db_reserved(void)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h,
					    "SELECT reserved_until FROM snowflake_worker"
					    " WHERE worker = 7",
					    -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	uint64_t r = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return r;
}

static void test_restart_same_ms_resumes_above_reservation(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	cfg.max_wait_ms = 2000;
	struct snowflake_gen *g = open_gen(&cfg);
	int64_t first, last = 0;
	next_triple(g, &first);
	for (int i = 0; i < 9; i++)
		next_triple(g, &last);
	assert_int_equal(db_reserved(), 2000);
	snowflake_gen_free(g); /* a crash leaves the same state */

	/* Second life, clock still at 1000. */
	g = open_gen(&cfg);
	struct snowflake_stats st;
	snowflake_gen_stats(g, &st);
	assert_int_equal(st.resumed_from, 2000);
	int64_t id;
	struct snowflake_triple t = next_triple(g, &id);
	assert_int_equal(t.t, 2000);
	assert_int_equal(t.seq, 0);
	assert_true(id > last);
	assert_int_equal(fc.slept, 1000); /* waited for the clock to reach R */
	assert_int_equal(db_reserved(), 3000);
	snowflake_gen_free(g);

	/* Third life: the resume wait is bounded by reserve_ms + max_wait_ms
	 * (1100 ms here); 1500 ms behind R it refuses rather than reuse
	 * anything below 3000, nearer it waits. */
	fc.now = 1500;
	fc.slept = 0;
	cfg.max_wait_ms = 100;
	g = open_gen(&cfg);
	assert_int_equal(snowflake_gen_next(g, &id), WB_EBUSY);
	assert_int_equal(fc.slept, 1100);
	snowflake_gen_free(g);
	fc.now = 2000;
	fc.slept = 0;
	g = open_gen(&cfg);
	t = next_triple(g, &id);
	assert_int_equal(t.t, 3000);
	assert_int_equal(fc.slept, 1000);
	/* Once resumed, rollbacks get the plain bound again. */
	fc.now = 2800;
	assert_int_equal(snowflake_gen_next(g, &id), WB_EBUSY);
	snowflake_gen_free(g);
}

static void test_reservation_covers_every_id(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 5, .tick_every = 3};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	cfg.reserve_ms = 10;
	struct snowflake_gen *g = open_gen(&cfg);
	uint64_t commits = 0;
	for (int i = 0; i < 300; i++) {
		struct snowflake_triple t = next_triple(g, NULL);
		struct snowflake_stats st;
		snowflake_gen_stats(g, &st);
		assert_true(t.t < st.reserved_until);
		assert_true(t.t < db_reserved()); /* durable, not just in memory */
		commits = st.commits;
	}
	/* About 100 ms of fake time with 10 ms windows. */
	assert_in_range(commits, 9, 12);
	snowflake_gen_free(g);
}

static void crash_now(void *arg)
{
	(void)arg;
	_exit(0);
}

static void test_crash_after_commit(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	cfg.max_wait_ms = 5000;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct snowflake_gen *g = NULL;
		int64_t id;
		if (snowflake_gen_open(&cfg, &g, NULL, 0))
			_exit(3);
		snowflake_gen_set_commit_hook(g, crash_now, NULL);
		snowflake_gen_next(g, &id); /* commits, then dies before issuing */
		_exit(4);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(db_reserved(), 2000);
	struct snowflake_gen *g = open_gen(&cfg);
	struct snowflake_triple t = next_triple(g, NULL);
	assert_int_equal(t.t, 2000); /* starts beyond the crashed window */
	snowflake_gen_free(g);
}

static void test_generation_fence(void **state)
{
	(void)state;
	struct snowflake_fake_clock fa = {.now = 1000}, fb = {.now = 1000};
	struct snowflake_config ca = cfg_for(&fa, 5), cb = cfg_for(&fb, 6);
	ca.max_wait_ms = cb.max_wait_ms = 5000;
	struct snowflake_gen *a = open_gen(&ca);
	int64_t ida, idb;
	next_triple(a, &ida);
	/* B, a newer generation, takes the worker and starts above A's window. */
	struct snowflake_gen *b = open_gen(&cb);
	struct snowflake_triple t = next_triple(b, &idb);
	assert_int_equal(t.t, 2000);
	/* A (paused, unaware) may still use its committed window... */
	fa.now = 1500;
	t = next_triple(a, &ida);
	assert_int_equal(t.t, 1500);
	assert_true(ida < idb);
	/* ...but cannot extend it: fenced, and stopped for good. */
	fa.now = 2000;
	assert_int_equal(snowflake_gen_next(a, &ida), WB_EUNAVAIL);
	assert_non_null(strstr(snowflake_gen_errmsg(a), "newer generation"));
	fa.now = 1600;
	assert_int_equal(snowflake_gen_next(a, &ida), WB_EUNAVAIL);
	/* An older generation cannot even open. */
	struct snowflake_gen *old = NULL;
	char err[256];
	assert_int_equal(snowflake_gen_open(&ca, &old, err, sizeof err), WB_EUNAVAIL);
	assert_non_null(strstr(err, "generation 6"));
	snowflake_gen_free(a);
	snowflake_gen_free(b);
}

/* Issues n ids, each above prev, checking t and that t never passes the
 * fake clock; returns the last triple. */
static struct snowflake_triple issue_n(struct snowflake_gen *g, struct snowflake_fake_clock *fc,
				       uint32_t n, uint64_t want_t, int64_t *prev)
{
	struct snowflake_triple t = {0};
	for (uint32_t i = 0; i < n; i++) {
		int64_t id;
		t = next_triple(g, &id);
		assert_true(id > *prev);
		*prev = id;
		assert_int_equal(t.t, want_t);
		assert_true(t.t <= fc->now);
	}
	return t;
}

static void test_catch_up(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	cfg.catch_up_ms = 3;
	struct snowflake_gen *g = open_gen(&cfg);
	int64_t prev = -1;
	issue_n(g, &fc, SNOWFLAKE_SEQS, 1000, &prev);
	/* Not running for 4 ms: 1001..1003 are caught up, each filled, with
	 * no wait; then the clock's own ms. */
	fc.now = 1004;
	for (uint64_t ms = 1001; ms <= 1004; ms++) {
		struct snowflake_triple t = issue_n(g, &fc, SNOWFLAKE_SEQS, ms, &prev);
		assert_int_equal(t.seq, SNOWFLAKE_SEQS - 1);
	}
	assert_int_equal(fc.slept, 0);
	/* Caught up: exhaustion waits for the next ms again. */
	issue_n(g, &fc, 1, 1005, &prev);
	assert_int_equal(fc.slept, 1);
	struct snowflake_stats st;
	snowflake_gen_stats(g, &st);
	assert_int_equal(st.behind_ms, 3);
	assert_int_equal(st.max_lag_ms, 3);
	assert_int_equal(st.exhausted_waits, 1);
	/* Never more than K behind: a 15 ms gap after a full ms resumes at
	 * clock - K... */
	issue_n(g, &fc, SNOWFLAKE_SEQS - 1, 1005, &prev);
	fc.now = 1020;
	issue_n(g, &fc, 10, 1017, &prev);
	/* ...and a partial ms behind is left once it is more than K behind. */
	fc.now = 1021;
	issue_n(g, &fc, 5, 1021, &prev);
	/* A ms entered on the clock is not caught up when the clock moves on
	 * (a slow caller, not a late generator): t follows the clock. */
	fc.now = 1022;
	issue_n(g, &fc, 1, 1022, &prev);
	snowflake_gen_stats(g, &st);
	assert_int_equal(st.behind_ms, 4);
	assert_int_equal(st.max_lag_ms, 3);
	assert_int_equal(st.issued, 6 * SNOWFLAKE_SEQS + 16);
	snowflake_gen_free(g);
}

static void test_catch_up_keeps_reservations(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	cfg.catch_up_ms = 3;
	cfg.reserve_ms = 10;
	struct snowflake_gen *g = open_gen(&cfg);
	int64_t prev = -1;
	/* Full ms, then the clock jumps past the reservation (1010): caught-up
	 * ids below it need no commit, the first at or above it does. */
	issue_n(g, &fc, SNOWFLAKE_SEQS, 1000, &prev);
	fc.now = 1011;
	issue_n(g, &fc, 1, 1008, &prev);
	struct snowflake_stats st;
	snowflake_gen_stats(g, &st);
	assert_int_equal(st.commits, 1);
	issue_n(g, &fc, SNOWFLAKE_SEQS - 1, 1008, &prev);
	issue_n(g, &fc, SNOWFLAKE_SEQS, 1009, &prev);
	issue_n(g, &fc, 1, 1010, &prev);
	snowflake_gen_stats(g, &st);
	assert_int_equal(st.commits, 2);
	assert_int_equal(st.reserved_until, 1021); /* reserve_ms past the clock */
	assert_int_equal(db_reserved(), 1021);
	snowflake_gen_free(g);

	/* A restart resumes at or above R even when catching up. */
	fc.now = 1030;
	g = open_gen(&cfg);
	struct snowflake_triple t = issue_n(g, &fc, 1, 1027, &prev);
	assert_true(t.t >= 1021);
	snowflake_gen_free(g);
	fc.now = 1022;
	uint64_t r = db_reserved();
	assert_int_equal(r, 1040);
	g = open_gen(&cfg);
	/* R = 1040 is ahead of the clock: wait for it, whatever K says. */
	t = issue_n(g, &fc, 1, 1040, &prev);
	assert_int_equal(fc.slept, 18);
	snowflake_gen_free(g);
}

static void test_time_budget_end(void **state)
{
	(void)state;
	struct snowflake_fake_clock fc = {.now = SNOWFLAKE_TIME_LIMIT - 1};
	struct snowflake_config cfg = cfg_for(&fc, 1);
	struct snowflake_gen *g = open_gen(&cfg);
	struct snowflake_triple t = next_triple(g, NULL);
	assert_true(t.t == SNOWFLAKE_TIME_LIMIT - 1);
	fc.now = SNOWFLAKE_TIME_LIMIT;
	int64_t id;
	assert_int_equal(snowflake_gen_next(g, &id), WB_ERANGE);
	snowflake_gen_free(g);
}

static void test_system_clock(void **state)
{
	(void)state;
	struct snowflake_clock c = snowflake_system_clock();
	uint64_t a = c.now_ms(c.arg);
	c.sleep_ms(c.arg, 2);
	uint64_t b = c.now_ms(c.arg);
	/* Since 2024-01-01: positive and far from the end of the budget. */
	assert_true(a > 0 && a < SNOWFLAKE_TIME_LIMIT / 2);
	assert_true(b >= a); /* unless someone steps the clock right now */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_known_values),
		cmocka_unit_test(test_encode_range_checks),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_bits_and_years),
		cmocka_unit_test_setup_teardown(test_config_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sequence_exhaustion_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rollback_wait_then_refuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restart_same_ms_resumes_above_reservation,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_reservation_covers_every_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crash_after_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_generation_fence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_catch_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_catch_up_keeps_reservations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_budget_end, setup, teardown),
		cmocka_unit_test(test_system_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
