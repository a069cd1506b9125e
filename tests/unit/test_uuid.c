/* test_uuid.c - RFC 9562 v4 and v7: version and variant bits, text form,
 * the v7 timestamp, monotonic counter (method 1) with rollover waiting for
 * the next ms, clock behind, time order, and the birthday arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "recipes/uuid.h"

struct fake {
	uint64_t now;	 /* Unix ms */
	uint64_t slept;	 /* ms slept */
	int sleep_moves; /* sleeping advances now */
};

static uint64_t fake_now(void *arg)
{
	return ((struct fake *)arg)->now;
}

static void fake_sleep(void *arg, uint64_t ms)
{
	struct fake *f = arg;
	f->slept += ms;
	if (f->sleep_moves)
		f->now += ms;
}

static int cmp_uuid(const void *a, const void *b)
{
	return uuid_cmp(a, b);
}

static void test_v4_bits_and_uniqueness(void **state)
{
	(void)state;
	enum { N = 20000 };
	struct uuid *u = malloc(N * sizeof *u);
	assert_non_null(u);
	for (int i = 0; i < N; i++) {
		assert_int_equal(uuid_v4(&u[i]), 0);
		assert_int_equal(uuid_version(&u[i]), 4);
		assert_int_equal(uuid_variant(&u[i]), 2);
	}
	qsort(u, N, sizeof *u, cmp_uuid);
	for (int i = 1; i < N; i++)
		assert_int_not_equal(uuid_cmp(&u[i - 1], &u[i]), 0);
	free(u);

	/* Exactly 6 bits are fixed: all-ones and all-zeros inputs. */
	uint8_t ones[16], zeros[16] = {0};
	memset(ones, 0xff, sizeof ones);
	struct uuid x;
	char s[UUID_STR_LEN];
	uuid_v4_from_bytes(ones, &x);
	uuid_format(&x, s);
	assert_string_equal(s, "ffffffff-ffff-4fff-bfff-ffffffffffff");
	uuid_v4_from_bytes(zeros, &x);
	uuid_format(&x, s);
	assert_string_equal(s, "00000000-0000-4000-8000-000000000000");
}

static void test_text_round_trip_and_errors(void **state)
{
	(void)state;
	struct uuid u, v;
	char s[UUID_STR_LEN];
	assert_int_equal(uuid_parse("017F22E2-79B0-7CC3-98C4-DC0C0C07398F", &u), 0);
	uuid_format(&u, s);
	assert_string_equal(s, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
	/* The RFC 9562 appendix A.6 example value. */
	assert_int_equal(uuid_version(&u), 7);
	assert_int_equal(uuid_variant(&u), 2);
	assert_true(uuid_v7_ms(&u) == UINT64_C(0x017F22E279B0));
	assert_int_equal(uuid_v7_rand_a(&u), 0xCC3);
	assert_int_equal(uuid_parse(s, &v), 0);
	assert_int_equal(uuid_cmp(&u, &v), 0);
	assert_int_equal(uuid_parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398", &v), WB_EINVAL);
	assert_int_equal(uuid_parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f0", &v), WB_EINVAL);
	assert_int_equal(uuid_parse("017f22e2x79b0-7cc3-98c4-dc0c0c07398f", &v), WB_EINVAL);
	assert_int_equal(uuid_parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398g", &v), WB_EINVAL);
	assert_int_equal(uuid_parse(NULL, &v), WB_EINVAL);
	char b[UUID_BITS_LEN];
	uuid_bits(&u, b);
	assert_int_equal(strlen(b), UUID_BITS_LEN - 1);
	/* Fields: 48 time bits, then "0111", 12 counter bits, "10", 62. */
	assert_memory_equal(b + 49, "0111 ", 5);
	assert_memory_equal(b + 49 + 5 + 12, " 10 ", 4);
}

static void test_v7_fields(void **state)
{
	(void)state;
	struct fake f = {.now = UINT64_C(0x0123456789ab), .sleep_moves = 1};
	struct uuid_v7_gen g;
	uuid_v7_init(&g, fake_now, fake_sleep, &f);
	struct uuid u;
	assert_int_equal(uuid_v7_next(&g, &u), 0);
	assert_int_equal(uuid_version(&u), 7);
	assert_int_equal(uuid_variant(&u), 2);
	assert_true(uuid_v7_ms(&u) == UINT64_C(0x0123456789ab));
	assert_true(uuid_v7_rand_a(&u) <= 0x7ff); /* seeded with the guard bit 0 */
	f.now = UINT64_C(1) << 48;
	assert_int_equal(uuid_v7_next(&g, &u), WB_ERANGE);
}

static void test_v7_monotonic_and_rollover(void **state)
{
	(void)state;
	struct fake f = {.now = 1700000000000, .sleep_moves = 1};
	struct uuid_v7_gen g;
	uuid_v7_init(&g, fake_now, fake_sleep, &f);
	struct uuid prev, u;
	assert_int_equal(uuid_v7_next(&g, &prev), 0);
	uint32_t seed = uuid_v7_rand_a(&prev);
	int n = 1;
	/* Frozen clock: the counter climbs by one until 4095. */
	while (uuid_v7_ms(&prev) == 1700000000000 && n < 5000) {
		assert_int_equal(uuid_v7_next(&g, &u), 0);
		assert_true(uuid_cmp(&prev, &u) < 0);
		if (uuid_v7_ms(&u) == 1700000000000)
			assert_int_equal(uuid_v7_rand_a(&u), uuid_v7_rand_a(&prev) + 1);
		prev = u;
		n++;
	}
	/* Rollover waited one ms, then reseeded. */
	assert_int_equal(n, 4096 - (int)seed + 1);
	assert_true(uuid_v7_ms(&prev) == 1700000000001);
	assert_true(uuid_v7_rand_a(&prev) <= 0x7ff);
	assert_int_equal(g.rollovers, 1);
	assert_int_equal(f.slept, 1);

	/* Clock stepped back: the last ms is reused, order kept. */
	f.now = 1699999990000;
	assert_int_equal(uuid_v7_next(&g, &u), 0);
	assert_true(uuid_cmp(&prev, &u) < 0);
	assert_true(uuid_v7_ms(&u) == 1700000000001);
	assert_int_equal(g.behind, 1);
}

static void test_v7_refuses_when_clock_stuck(void **state)
{
	(void)state;
	struct fake f = {.now = 1700000000000, .sleep_moves = 0};
	struct uuid_v7_gen g;
	uuid_v7_init(&g, fake_now, fake_sleep, &f);
	g.max_wait_ms = 5;
	struct uuid u;
	int rc = 0, n = 0;
	while (n < 5000 && (rc = uuid_v7_next(&g, &u)) == 0)
		n++;
	assert_int_equal(rc, WB_EBUSY);
	assert_in_range(n, 2049, 4096);
	assert_int_equal(f.slept, 5);
}

static void test_v7_sorts_by_time(void **state)
{
	(void)state;
	/* Values made at shuffled times by separate generators sort by time. */
	static const uint64_t times[] = {1700000000500, 1700000000001, 1700000009999,
					 1700000000002, 1600000000000, 1800000000000};
	enum { N = sizeof times / sizeof times[0] };
	struct uuid u[N];
	for (int i = 0; i < N; i++) {
		struct fake f = {.now = times[i]};
		struct uuid_v7_gen g;
		uuid_v7_init(&g, fake_now, fake_sleep, &f);
		assert_int_equal(uuid_v7_next(&g, &u[i]), 0);
	}
	qsort(u, N, sizeof u[0], cmp_uuid);
	for (int i = 1; i < N; i++)
		assert_true(uuid_v7_ms(&u[i - 1]) < uuid_v7_ms(&u[i]));
	/* And the system clock gives increasing values too. */
	struct uuid_v7_gen g;
	uuid_v7_init(&g, NULL, NULL, NULL);
	struct uuid a, b;
	assert_int_equal(uuid_v7_next(&g, &a), 0);
	for (int i = 0; i < 10000; i++) {
		assert_int_equal(uuid_v7_next(&g, &b), 0);
		assert_true(uuid_cmp(&a, &b) < 0);
		a = b;
	}
}

static void test_collision_arithmetic(void **state)
{
	(void)state;
	assert_true(uuid_v4_collision_p(0) == 0);
	assert_true(uuid_v4_collision_p(1) == 0);
	double p = uuid_v4_collision_p(1e9);
	assert_true(p > 9.40e-20 && p < 9.41e-20); /* n^2 / 2^123 */
	double n = uuid_v4_n_for_p(0.5);
	assert_true(n > 2.71e18 && n < 2.72e18);
	double back = uuid_v4_collision_p(uuid_v4_n_for_p(0.3));
	assert_true(back > 0.2999 && back < 0.3001);
	assert_true(uuid_v4_collision_p(1e20) > 0.999);
	assert_true(uuid_v4_n_for_p(0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v4_bits_and_uniqueness),
		cmocka_unit_test(test_text_round_trip_and_errors),
		cmocka_unit_test(test_v7_fields),
		cmocka_unit_test(test_v7_monotonic_and_rollover),
		cmocka_unit_test(test_v7_refuses_when_clock_stuck),
		cmocka_unit_test(test_v7_sorts_by_time),
		cmocka_unit_test(test_collision_arithmetic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
