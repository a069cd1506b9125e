/* test_zklock_names.c - the lock recipe's pure parts: GUIDs, Curator's
 * protected node names, and ordering by sequence suffix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "recipes/zklock.h"

static void test_guid_v4(void **state)
{
	(void)state;
	char a[ZKLOCK_GUID_LEN + 1], b[ZKLOCK_GUID_LEN + 1];
	assert_int_equal(zklock_guid_new(a), 0);
	assert_int_equal(zklock_guid_new(b), 0);
	assert_int_equal(strlen(a), 36);
	assert_true(zklock_guid_valid(a));
	assert_string_not_equal(a, b);
	assert_int_equal(a[14], '4');		/* version */
	assert_non_null(strchr("89ab", a[19])); /* RFC variant */
	for (int i = 0; i < 36; i++)
		assert_false(a[i] >= 'A' && a[i] <= 'F'); /* java.util.UUID prints lowercase */
}

static void test_guid_valid(void **state)
{
	(void)state;
	assert_true(zklock_guid_valid("53345f98-9423-4e0c-a7b5-9f819e3ec2e1"));
	assert_true(zklock_guid_valid("53345F98-9423-4E0C-A7B5-9F819E3EC2E1"));
	assert_false(zklock_guid_valid("53345f98-9423-4e0c-a7b5-9f819e3ec2e"));	  /* short */
	assert_false(zklock_guid_valid("53345f98-9423-4e0c-a7b5-9f819e3ec2e11")); /* long */
	assert_false(zklock_guid_valid("53345f98x9423-4e0c-a7b5-9f819e3ec2e1"));  /* dash */
	assert_false(zklock_guid_valid("53345g98-9423-4e0c-a7b5-9f819e3ec2e1"));  /* hex */
	assert_false(zklock_guid_valid(NULL));
}

static void test_prefix_is_curators(void **state)
{
	(void)state;
	/* Curator: ZKPaths.makePath("/locks/x", "lock-") with protection =
	 * "/locks/x/_c_" + uuid + "-" + "lock-"; the server appends %010d. */
	char *p = zklock_name_prefix("/locks/x", "53345f98-9423-4e0c-a7b5-9f819e3ec2e1");
	assert_string_equal(p, "/locks/x/_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-lock-");
	free(p);
}

static void test_parse(void **state)
{
	(void)state;
	struct zklock_name nm;
	assert_int_equal(
		zklock_name_parse("_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-lock-0000000042", &nm),
		0);
	assert_int_equal(nm.seq, 42);
	assert_string_equal(nm.guid, "53345f98-9423-4e0c-a7b5-9f819e3ec2e1");

	assert_int_equal(zklock_name_parse("lock-0000000007", &nm), 0); /* unprotected */
	assert_int_equal(nm.seq, 7);
	assert_string_equal(nm.guid, "");

	/* Not a UUID after _c_: still a lock node, but no GUID to recover by. */
	assert_int_equal(zklock_name_parse("_c_not-a-uuid-lock-0000000001", &nm), 0);
	assert_string_equal(nm.guid, "");

	assert_int_equal(
		zklock_name_parse("_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-lock-2147483647", &nm),
		0);
	assert_int_equal(nm.seq, INT32_MAX);

	/* Not contenders at all. */
	assert_int_equal(zklock_name_parse("config", &nm), WB_EINVAL);
	assert_int_equal(zklock_name_parse("leases-0000000001", &nm), WB_EINVAL);

	/* Contenders whose order is unknowable. */
	assert_int_equal(zklock_name_parse("lock--2147483648", &nm), WB_ERANGE); /* wrapped */
	assert_int_equal(zklock_name_parse("lock--000000001", &nm), WB_ERANGE);
	assert_int_equal(zklock_name_parse("lock-2147483648", &nm), WB_ERANGE); /* > int32 */
	assert_int_equal(zklock_name_parse("lock-123", &nm), WB_ERANGE);
	assert_int_equal(zklock_name_parse("lock-00000000012", &nm), WB_ERANGE);
	assert_int_equal(zklock_name_parse("lock-00000000x1", &nm), WB_ERANGE);
	assert_int_equal(zklock_name_parse("lock-", &nm), WB_ERANGE);
}

/* A queue whose order by suffix is not its order by whole name, with a
 * foreign child ("config") and a plain "lock-" name among the GUID ones. */
static char *by_suffix_queue[] = {
	"_c_ffffffff-0000-4000-8000-000000000000-lock-0000000001",
	"config",
	"_c_00000000-0000-4000-8000-000000000000-lock-0000000003",
	"_c_88888888-0000-4000-8000-000000000000-lock-0000000002",
	"lock-0000000000",
};

static void test_sort_by_suffix_not_name(void **state)
{
	(void)state;
	char **names = by_suffix_queue;
	/* By whole name the oldest contender would sort last. */
	assert_true(strcmp(names[0], names[2]) > 0);

	struct zklock_entry *e;
	size_t n;
	const char *bad = NULL;
	assert_int_equal(zklock_sort(names, 5, &e, &n, &bad), 0);
	assert_int_equal(n, 4);
	assert_int_equal(e[0].seq, 0);
	assert_string_equal(e[0].name, "lock-0000000000");
	assert_int_equal(e[1].seq, 1);
	assert_ptr_equal(e[1].name, names[0]);
	assert_int_equal(e[2].seq, 2);
	assert_ptr_equal(e[2].name, names[3]);
	assert_int_equal(e[3].seq, 3);
	assert_ptr_equal(e[3].name, names[2]);
	assert_int_equal(zklock_index(e, n, names[3]), 2);
	assert_int_equal(zklock_index(e, n, "config"), -1);
	assert_int_equal(zklock_index(e, n, "nothing"), -1);
	free(e);
}

static void test_sort_refuses_wrapped_counter(void **state)
{
	(void)state;
	char *names[] = {
		"_c_ffffffff-0000-4000-8000-000000000000-lock-2147483647",
		"_c_00000000-0000-4000-8000-000000000000-lock--2147483648",
	};
	struct zklock_entry *e = (void *)1;
	size_t n = 9;
	const char *bad = NULL;
	assert_int_equal(zklock_sort(names, 2, &e, &n, &bad), WB_ERANGE);
	assert_ptr_equal(bad, names[1]);
	assert_null(e);
	assert_int_equal(n, 0);
}

static void test_sort_empty(void **state)
{
	(void)state;
	char *names[] = {"config", "x"};
	struct zklock_entry *e;
	size_t n;
	assert_int_equal(zklock_sort(names, 2, &e, &n, NULL), 0);
	assert_int_equal(n, 0);
	assert_null(e);
	assert_int_equal(zklock_sort(NULL, 0, &e, &n, NULL), 0);
	assert_int_equal(n, 0);
}

/* zklock_position on the names of test_sort_by_suffix_not_name: the
 * predecessor by suffix, not the neighbour by whole name. */
static void test_position_by_suffix_not_name(void **state)
{
	(void)state;
	char **names = by_suffix_queue;
	struct zklock_position pos;
	const char *bad = NULL;
	assert_int_equal(zklock_position(names, 5, names[2], &pos, &bad), 0);
	assert_int_equal(pos.n, 4);
	assert_int_equal(pos.own_index, 3);
	assert_ptr_equal(pos.pred, names[3]); /* by whole name it would be names[0] */
	assert_int_equal(zklock_position(names, 5, names[0], &pos, &bad), 0);
	assert_int_equal(pos.own_index, 1);
	assert_ptr_equal(pos.pred, names[4]);
	assert_int_equal(zklock_position(names, 5, names[4], &pos, &bad), 0);
	assert_int_equal(pos.own_index, 0);
	assert_null(pos.pred);
	/* Absent, or not a lock node at all: counted, no place. */
	assert_int_equal(zklock_position(names, 5, "lock-0000000009", &pos, &bad), 0);
	assert_int_equal(pos.n, 4);
	assert_int_equal(pos.own_index, -1);
	assert_null(pos.pred);
	assert_int_equal(zklock_position(names, 5, "config", &pos, &bad), 0);
	assert_int_equal(pos.own_index, -1);
	assert_null(pos.pred);
	assert_null(bad);
}

/* Equal suffixes (past the 3.8 counter's boundary) are ordered by name,
 * as zklock_sort orders them. */
static void test_position_tie_by_name(void **state)
{
	(void)state;
	char *names[] = {
		"_c_cccccccc-0000-4000-8000-000000000000-lock-2147483647",
		"_c_aaaaaaaa-0000-4000-8000-000000000000-lock-2147483647",
		"_c_bbbbbbbb-0000-4000-8000-000000000000-lock-2147483647",
		"_c_dddddddd-0000-4000-8000-000000000000-lock-2147483646",
	};
	struct zklock_position pos;
	assert_int_equal(zklock_position(names, 4, names[0], &pos, NULL), 0);
	assert_int_equal(pos.own_index, 3);
	assert_ptr_equal(pos.pred, names[2]);
	assert_int_equal(zklock_position(names, 4, names[1], &pos, NULL), 0);
	assert_int_equal(pos.own_index, 1);
	assert_ptr_equal(pos.pred, names[3]);
}

/* An unorderable suffix anywhere - after the own node too - stops it. */
static void test_position_refuses_wrapped_counter(void **state)
{
	(void)state;
	char *names[] = {
		"_c_00000000-0000-4000-8000-000000000000-lock-0000000001",
		"_c_ffffffff-0000-4000-8000-000000000000-lock-0000000002",
		"_c_11111111-0000-4000-8000-000000000000-lock--2147483648",
	};
	struct zklock_position pos;
	const char *bad = NULL;
	assert_int_equal(zklock_position(names, 3, names[1], &pos, &bad), WB_ERANGE);
	assert_ptr_equal(bad, names[2]);
	assert_int_equal(pos.n, 0);
	assert_int_equal(zklock_position(names, 3, names[0], &pos, NULL), WB_ERANGE);
	assert_int_equal(zklock_position(NULL, 0, names[0], &pos, &bad), 0);
	assert_int_equal(pos.n, 0);
	assert_int_equal(pos.own_index, -1);
}

/* Against zklock_sort + zklock_index on shuffled queues with ties and
 * foreign names: the same place and predecessor for every member. */
static void test_position_agrees_with_sort(void **state)
{
	(void)state;
	enum { N = 12 };
	char buf[N][80];
	char *names[N];
	unsigned r = 12345;
	for (int round = 0; round < 300; round++) {
		size_t n = 1 + (size_t)(round % N);
		for (size_t i = 0; i < n; i++) {
			r = r * 1103515245u + 12345u;
			unsigned seq = (r >> 8) % 6; /* small: ties happen */
			if ((r >> 20) % 7 == 0)
				snprintf(buf[i], sizeof buf[i], "other-%u-%zu", seq, i);
			else
				snprintf(buf[i], sizeof buf[i],
					 "_c_%08x-0000-4000-8000-000000000000-lock-%010u",
					 (r >> 4) & 0xffffffu, seq);
			names[i] = buf[i];
		}
		struct zklock_entry *e;
		size_t ne;
		assert_int_equal(zklock_sort(names, n, &e, &ne, NULL), 0);
		for (size_t i = 0; i < n; i++) {
			struct zklock_position pos;
			assert_int_equal(zklock_position(names, n, names[i], &pos, NULL), 0);
			long idx = zklock_index(e, ne, names[i]);
			assert_int_equal(pos.n, ne);
			assert_int_equal(pos.own_index, idx);
			if (idx > 0)
				assert_string_equal(pos.pred, e[idx - 1].name);
			else
				assert_null(pos.pred);
		}
		free(e);
	}
}

static void test_new_rejects_bad_paths(void **state)
{
	(void)state;
	struct zklock *l = (void *)1;
	zhandle_t *fake = (zhandle_t *)&l; /* never dereferenced: paths fail first */
	assert_int_equal(zklock_new(fake, "locks/x", NULL, &l), WB_EINVAL);
	assert_null(l);
	assert_int_equal(zklock_new(fake, "/", NULL, &l), WB_EINVAL);
	assert_int_equal(zklock_new(fake, "/locks/x/", NULL, &l), WB_EINVAL);
	assert_int_equal(zklock_new(fake, "/locks//x", NULL, &l), WB_EINVAL);
	assert_int_equal(zklock_new(NULL, "/locks/x", NULL, &l), WB_EINVAL);
	zklock_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guid_v4),
		cmocka_unit_test(test_guid_valid),
		cmocka_unit_test(test_prefix_is_curators),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_sort_by_suffix_not_name),
		cmocka_unit_test(test_sort_refuses_wrapped_counter),
		cmocka_unit_test(test_sort_empty),
		cmocka_unit_test(test_position_by_suffix_not_name),
		cmocka_unit_test(test_position_tie_by_name),
		cmocka_unit_test(test_position_refuses_wrapped_counter),
		cmocka_unit_test(test_position_agrees_with_sort),
		cmocka_unit_test(test_new_rejects_bad_paths),
	};
	return cmocka_run_group_tests_name("zklock_names", tests, NULL, NULL);
}
