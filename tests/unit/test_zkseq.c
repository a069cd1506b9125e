/*
 * test_zkseq.c - sequential suffixes: the server's %010d of a signed int
 * on the boundary values, the strict parser refusing every wrapped form,
 * Curator protected-mode names, and ordering by suffix, not by name.
 */
#include "base/wb.h"
#include "recipes/zkseq.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U1 "f0000000-0000-4000-8000-000000000001"
#define U2 "10000000-0000-4000-8000-000000000002"
#define U3 "a0000000-0000-4000-8000-000000000003"

static void format_like_the_server(void **state)
{
	(void)state;
	char b[12];
	assert_string_equal(zkseq_format(0, b), "0000000000");
	assert_string_equal(zkseq_format(7, b), "0000000007");
	assert_string_equal(zkseq_format(INT32_MAX, b), "2147483647");
	/* One past INT32_MAX wraps (the server's int cversion + 1). */
	int32_t wrapped = (int32_t)((uint32_t)INT32_MAX + 1u);
	assert_int_equal(wrapped, INT32_MIN);
	assert_string_equal(zkseq_format(wrapped, b), "-2147483648");
	assert_string_equal(zkseq_format(-1, b), "-000000001");
	assert_string_equal(zkseq_format(-2147483647, b), "-2147483647");
}

static void parse_accepts_ten_digits(void **state)
{
	(void)state;
	int32_t seq = -5;
	assert_int_equal(zkseq_parse("lock-0000000000", "lock-", &seq), 0);
	assert_int_equal(seq, 0);
	assert_int_equal(zkseq_parse("lock-0000000042", "lock-", &seq), 0);
	assert_int_equal(seq, 42);
	assert_int_equal(zkseq_parse("lock-2147483647", "lock-", &seq), 0);
	assert_int_equal(seq, INT32_MAX);
	assert_int_equal(zkseq_parse("0000000003", "", &seq), 0);
	assert_int_equal(seq, 3);
}

static void parse_rejects_wrapped_and_malformed(void **state)
{
	(void)state;
	int32_t seq = 99;
	char name[64], b[12];
	/* Every wrapped value, as the server would write it. */
	int32_t wrapped[] = {INT32_MIN, INT32_MIN + 1, -1000000000, -1, -999999999};
	for (size_t i = 0; i < sizeof wrapped / sizeof wrapped[0]; i++) {
		snprintf(name, sizeof name, "lock-%s", zkseq_format(wrapped[i], b));
		int rc = zkseq_parse(name, "lock-", &seq);
		assert_true(rc == WB_EINVAL || rc == WB_ERANGE);
	}
	/* The trap: "-2147483647" has ten digits after the sign.  A parser
	 * that takes the last ten characters reads INT32_MAX from it. */
	assert_int_equal(zkseq_parse("lock--2147483647", "lock-", &seq), WB_EINVAL);
	assert_int_equal(seq, 99);
	assert_int_equal(zkseq_parse("lock-2147483648", "lock-", &seq), WB_ERANGE);
	assert_int_equal(zkseq_parse("lock-9999999999", "lock-", &seq), WB_ERANGE);
	assert_int_equal(zkseq_parse("lock-000000001", "lock-", &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse("lock-00000000001", "lock-", &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse("lock-+000000001", "lock-", &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse("lock- 000000001", "lock-", &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse("lock-00000000x1", "lock-", &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse("lack-0000000001", "lock-", &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse("lock-", "lock-", &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse(NULL, "lock-", &seq), WB_EINVAL);
	assert_int_equal(seq, 99);
}

static void protected_names(void **state)
{
	(void)state;
	char name[ZKSEQ_PROTECTED_LEN + 1];
	assert_int_equal(zkseq_protected_name(U1, name), 0);
	assert_string_equal(name, "_c_" U1 "-lock-");
	assert_int_equal(strlen(name), ZKSEQ_PROTECTED_LEN);
	assert_int_equal(zkseq_protected_name("not-a-uuid", name), WB_EINVAL);
	assert_int_equal(zkseq_protected_name(U1 "x", name), WB_EINVAL);
	assert_true(zkseq_is_uuid("0F8B2A52-7C4E-4B1A-9D3E-2A1B3C4D5E6F"));
	assert_false(zkseq_is_uuid("0f8b2a52x7c4e-4b1a-9d3e-2a1b3c4d5e6f"));
	assert_false(zkseq_is_uuid("0f8b2a52-7c4e-4b1a-9d3e-2a1b3c4d5e6"));

	char guid[ZKSEQ_UUID_LEN + 1];
	int32_t seq;
	assert_int_equal(zkseq_parse_protected("_c_" U2 "-lock-0000000017", guid, &seq), 0);
	assert_string_equal(guid, U2);
	assert_int_equal(seq, 17);
	assert_int_equal(strlen("_c_" U2 "-lock-0000000017"), ZKSEQ_NODE_LEN);
	/* Wrapped suffixes, and names of other recipes, are refused. */
	assert_int_equal(zkseq_parse_protected("_c_" U2 "-lock--000000001", guid, &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse_protected("_c_" U2 "-lock--2147483648", guid, &seq),
			 WB_EINVAL);
	assert_int_equal(zkseq_parse_protected("_c_" U2 "-lock-2147483648", guid, &seq), WB_ERANGE);
	assert_int_equal(zkseq_parse_protected("lock-0000000001", guid, &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse_protected("_c_" U2 "-read-0000000001", guid, &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse_protected("_c_short-lock-0000000001", guid, &seq), WB_EINVAL);
	assert_int_equal(zkseq_parse_protected("_c_", guid, &seq), WB_EINVAL);
}

static void order_by_suffix_not_name(void **state)
{
	(void)state;
	/* Created in this order: suffixes 5, 6, 7.  By name the GUIDs decide
	 * (1... < a... < f...), which is not the creation order. */
	const char *names[] = {
		"_c_" U1 "-lock-0000000005",
		"_c_" U2 "-lock-0000000007",
		"_c_" U3 "-lock-0000000006",
	};
	const char *by_name[3], *by_seq[3];
	memcpy(by_name, names, sizeof names);
	memcpy(by_seq, names, sizeof names);
	/* Sort by whole name (what a naive recipe does). */
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (strcmp(by_name[i], by_name[j]) > 0) {
				const char *t = by_name[i];
				by_name[i] = by_name[j];
				by_name[j] = t;
			}
	qsort(by_seq, 3, sizeof by_seq[0], zkseq_cmp_protected);
	assert_ptr_equal(by_seq[0], names[0]);
	assert_ptr_equal(by_seq[1], names[2]);
	assert_ptr_equal(by_seq[2], names[1]);
	assert_ptr_equal(by_name[0], names[1]); /* 1... sorts first: suffix 7 */
	assert_true(by_name[0] != by_seq[0]);

	/* Unparsable names sort after every valid one. */
	const char *mixed[] = {"_c_" U1 "-lock--000000001", "_c_" U2 "-lock-0000000009"};
	qsort(mixed, 2, sizeof mixed[0], zkseq_cmp_protected);
	assert_string_equal(mixed[0], "_c_" U2 "-lock-0000000009");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(format_like_the_server),
		cmocka_unit_test(parse_accepts_ten_digits),
		cmocka_unit_test(parse_rejects_wrapped_and_malformed),
		cmocka_unit_test(protected_names),
		cmocka_unit_test(order_by_suffix_not_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
