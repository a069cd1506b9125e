/* test_content.c - chapter listing, ids and language choice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/content.h"
#include "base/wb.h"
#include "testlib.h"

static void test_list_fixture(void **state)
{
	(void)state;
	struct chapter_list l;
	assert_int_equal(content_list_chapters(WB_TEST_FIXTURES, "zh", &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0].id, "00-fixture");
	assert_string_equal(l.items[0].title, "测试章节：阅读器绘制的每一种元素");
	chapter_list_free(&l);
	/* The shipped glossary sits beside the chapters but is none. */
	for (int k = 0; k < 2; k++) {
		assert_int_equal(content_list_chapters(WB_SOURCE_DIR, k ? "zh" : "en", &l), 0);
		assert_true(l.n >= 2);
		for (size_t i = 0; i < l.n; i++)
			assert_null(strstr(l.items[i].id, "glossary"));
		chapter_list_free(&l);
		struct glossary g;
		assert_int_equal(content_glossary_load(WB_SOURCE_DIR, k ? "zh" : "en", &g), 0);
		assert_true(g.n >= 28);
		assert_true(content_glossary_find(&g, "fencing token") >= 0);
		assert_true(content_glossary_find(&g, "ReadIndex") >= 0);
		glossary_free(&g);
	}
	assert_int_equal(content_list_chapters("/nonexistent", "en", &l), WB_ENOENT);
	assert_int_equal(l.n, 0);
}

static void test_ids(void **state)
{
	(void)state;
	assert_true(content_valid_chapter_id("01-locks-ids-leases"));
	assert_false(content_valid_chapter_id("1-x"));
	assert_false(content_valid_chapter_id("01-../../etc"));
	assert_false(content_valid_chapter_id("01-UPPER"));
	assert_false(content_valid_chapter_id(NULL));
}

static void test_find_chapter(void **state)
{
	(void)state;
	struct chapter_info items[] = {{.id = "01-locks-ids-leases"},
				       {.id = "02-zookeeper-fencing"},
				       {.id = "02-zz"},
				       {.id = "03-x"},
				       {.id = "03-x-more"}};
	struct chapter_list l = {items, 5};
	size_t i = 99;
	assert_int_equal(content_find_chapter(&l, "01", &i), 0);
	assert_int_equal(i, 0);
	assert_int_equal(content_find_chapter(&l, "02-zoo", &i), 0);
	assert_int_equal(i, 1);
	assert_int_equal(content_find_chapter(&l, "02", &i), WB_EINVAL);
	assert_int_equal(i, 1);
	/* An exact id wins over the longer ids it is a prefix of. */
	assert_int_equal(content_find_chapter(&l, "03-x", &i), 0);
	assert_int_equal(i, 3);
	assert_int_equal(content_find_chapter(&l, "04", &i), WB_ENOENT);
	assert_int_equal(content_find_chapter(&l, "", &i), WB_ENOENT);
	assert_int_equal(content_find_chapter(&l, "01-locks-ids-leasesX", &i), WB_ENOENT);
}

static void test_lang(void **state)
{
	(void)state;
	struct testlib_env *env = testlib_env_new();
	testlib_env_set(env, "LC_ALL", NULL);
	testlib_env_set(env, "LC_MESSAGES", NULL);
	testlib_env_set(env, "LANG", "zh_CN.UTF-8");
	assert_string_equal(content_pick_lang(NULL), "zh");
	testlib_env_set(env, "LANG", "C");
	assert_string_equal(content_pick_lang(NULL), "en");
	testlib_env_set(env, "LC_ALL", "zh_TW.UTF-8");
	assert_string_equal(content_pick_lang(NULL), "zh");
	assert_string_equal(content_pick_lang("en"), "en");
	testlib_env_set(env, "LC_ALL", NULL);
	testlib_env_set(env, "LANG", NULL);
	assert_string_equal(content_pick_lang(NULL), "en");
	testlib_env_free(env);
}

static void test_explicit_root(void **state)
{
	(void)state;
	char *r = content_root("/some/dir");
	assert_string_equal(r, "/some/dir");
	free(r);
	struct testlib_env *env = testlib_env_new();
	testlib_env_set(env, "WORKBENCH_CONTENT", "/env/dir");
	r = content_root(NULL);
	assert_string_equal(r, "/env/dir");
	free(r);
	testlib_env_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_fixture),  cmocka_unit_test(test_ids),
		cmocka_unit_test(test_find_chapter),  cmocka_unit_test(test_lang),
		cmocka_unit_test(test_explicit_root),
	};
	return cmocka_run_group_tests_name("content", tests, NULL, NULL);
}
