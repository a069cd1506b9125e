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

static void test_sort_by_suffix_not_name(void **state)
{
	(void)state;
	char *names[] = {
		"_c_ffffffff-0000-4000-8000-000000000000-lock-0000000001",
		"config",
		"_c_00000000-0000-4000-8000-000000000000-lock-0000000003",
		"_c_88888888-0000-4000-8000-000000000000-lock-0000000002",
		"lock-0000000000",
	};
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
		cmocka_unit_test(test_new_rejects_bad_paths),
	};
	return cmocka_run_group_tests_name("zklock_names", tests, NULL, NULL);
}
