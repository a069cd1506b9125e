/* test_exercise_ws.c - the learner's side of the exercises (core only):
 * start copies the starter into a private workspace and never overwrites
 * the learner's file; reset keeps a backup; the hints parser takes exactly
 * three "## " sections; progress.db's exercise events give the state and
 * an import merge is idempotent; the export carries the state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/exchange.h"
#include "core/exercise_ws.h"
#include "core/store.h"
#include "base/wb.h"
#include "testlib.h"

static char dir[256];
static struct testlib_env *env;

static const struct excat_entry cat[] = {
	{"demo-c", "01", "some-lab", "c", "demo.c", "A demo", "演示"},
	{"demo-sql", "02", "other-lab", "sql", "demo.sql", "SQL demo", "SQL 演示"},
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	char *t = NULL;
	size_t n;
	assert_int_equal(wb_read_file(path, &t, &n), 0);
	return t;
}

static int setup(void **state)
{
	(void)state;
	if (testlib_tmpdir("exws", dir, sizeof dir) != 0)
		return -1;
	char p[400];
	snprintf(p, sizeof p, "%s/root/exercises/demo-c", dir);
	wb_mkdir_p(p, 0755);
	snprintf(p, sizeof p, "%s/root/exercises/demo-c/starter.c", dir);
	put(p, "int f(void) { return 0; }\n");
	snprintf(p, sizeof p, "%s/root/exercises/demo-c/api.h", dir);
	put(p, "int f(void);\n");
	snprintf(p, sizeof p, "%s/root/exercises/demo-c/hints.en.md", dir);
	put(p, "intro ignored\n## First\nlook at A\n\n## Second\nB\n## Third\nC\n");
	snprintf(p, sizeof p, "%s/data", dir);
	env = testlib_env_new();
	testlib_env_set(env, "XDG_DATA_HOME", p);
	excat_init(cat, WB_ARRAY_LEN(cat));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	excat_init(NULL, 0);
	testlib_env_free(env);
	return testlib_rmtree(dir) == 0 ? 0 : -1;
}

static void test_catalogue(void **state)
{
	(void)state;
	assert_non_null(excat_find("demo-sql"));
	assert_null(excat_find("demo"));
	assert_string_equal(excat_title(excat_find("demo-c"), "zh"), "演示");
}

static void test_start_and_reset(void **state)
{
	(void)state;
	char root[300], err[512], *path, *backup;
	int created;
	snprintf(root, sizeof root, "%s/root", dir);
	const struct excat_entry *e = excat_find("demo-c");
	assert_false(exws_started(e));
	assert_int_equal(exws_start(root, e, &path, &created, err, sizeof err), 0);
	assert_true(created);
	assert_true(exws_started(e));
	char want[400];
	snprintf(want, sizeof want, "%s/data/workbench/exercises/demo-c/demo.c", dir);
	assert_string_equal(path, want);
	struct stat st;
	char *ws = exws_dir("demo-c");
	assert_int_equal(stat(ws, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	char api[400];
	snprintf(api, sizeof api, "%s/api.h", ws);
	assert_int_equal(access(api, R_OK), 0);
	/* the learner's edit survives a second start */
	put(path, "mine\n");
	free(path);
	assert_int_equal(exws_start(root, e, &path, &created, err, sizeof err), 0);
	assert_false(created);
	char *t = slurp(path);
	assert_string_equal(t, "mine\n");
	free(t);
	/* reset: backup holds the learner's text, the file is the starter */
	char *fresh;
	assert_int_equal(exws_reset(root, e, &fresh, &backup, err, sizeof err), 0);
	assert_non_null(backup);
	assert_non_null(strstr(backup, "demo.c.bak-"));
	t = slurp(backup);
	assert_string_equal(t, "mine\n");
	free(t);
	t = slurp(fresh);
	assert_string_equal(t, "int f(void) { return 0; }\n");
	free(t);
	/* a second reset in the same second gets a new backup name */
	char *backup2, *fresh2;
	assert_int_equal(exws_reset(root, e, &fresh2, &backup2, err, sizeof err), 0);
	assert_string_not_equal(backup, backup2);
	free(backup);
	free(backup2);
	free(fresh);
	free(fresh2);
	free(path);
	free(ws);
	/* a missing starter is an error naming the file */
	assert_int_equal(exws_start(root, excat_find("demo-sql"), &path, &created, err, sizeof err),
			 WB_ENOENT);
	assert_null(path);
	assert_non_null(strstr(err, "starter.sql"));
}

static void test_hints(void **state)
{
	(void)state;
	char *h[EXWS_HINTS], root[300], err[512];
	int n;
	snprintf(root, sizeof root, "%s/root", dir);
	assert_int_equal(exws_hints_load(root, "demo-c", "zh", h, err, sizeof err), 0);
	assert_string_equal(h[0], "First\nlook at A");
	assert_string_equal(h[2], "Third\nC");
	exws_hints_free(h);
	const char *two = "## a\n## b\n";
	assert_int_equal(exws_hints_parse(two, strlen(two), h, &n), WB_EINVAL);
	assert_int_equal(n, 2);
	assert_null(h[0]);
	const char *four = "## a\n## b\n## c\n## d";
	assert_int_equal(exws_hints_parse(four, strlen(four), h, &n), WB_EINVAL);
	assert_int_equal(n, 4);
	const char *nohash = "##a\n #b\n";
	assert_int_equal(exws_hints_parse(nohash, strlen(nohash), h, &n), WB_EINVAL);
	assert_int_equal(n, 0);
	assert_int_equal(exws_hints_load(root, "demo-sql", "en", h, err, sizeof err), WB_ENOENT);
}

static void test_store_state_and_merge(void **state)
{
	(void)state;
	char p[400], err[STORE_ERRLEN];
	snprintf(p, sizeof p, "%s/p.db", dir);
	struct store *s;
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	struct store_ex_state x;
	assert_int_equal(store_ex_get(s, "demo-c", &x), 0);
	assert_int_equal(x.started, 0);
	assert_int_equal(x.last_verdict, -1);
	assert_int_equal(store_ex_add(s, "demo-c", STORE_EX_START, 0, 1000), 0);
	assert_int_equal(store_ex_record_check(s, "demo-c", 1), 0);
	assert_int_equal(store_ex_record_check(s, "demo-c", 2), 0); /* could not run */
	assert_int_equal(store_ex_add(s, "demo-c", STORE_EX_HINT, 1, 0), 0);
	assert_int_equal(store_ex_add(s, "demo-c", STORE_EX_HINT, 2, 0), 0);
	assert_int_equal(store_ex_get(s, "demo-c", &x), 0);
	assert_int_equal(x.started, 1000);
	assert_int_equal(x.attempts, 1);
	assert_false(x.passed);
	assert_int_equal(x.last_verdict, 1);
	assert_int_equal(x.hints, 2);
	assert_int_equal(store_ex_record_check(s, "demo-c", 0), 0);
	assert_int_equal(store_ex_get(s, "demo-c", &x), 0);
	assert_true(x.passed);
	assert_int_equal(x.attempts, 2);
	assert_int_equal(x.last_verdict, 0);
	assert_int_equal(store_ex_add(s, "", STORE_EX_START, 0, 0), WB_EINVAL);

	/* export carries it; importing into a fresh database twice gives the
	   same state once */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(answers_export(s, f, ANSWERS_JSON, NULL), 0);
	fclose(f);
	assert_non_null(strstr(text, "\"exercises\""));
	assert_non_null(strstr(text, "\"id\": \"demo-c\""));
	assert_non_null(strstr(text, "\"attempts\": 2"));
	store_close(s);
	snprintf(p, sizeof p, "%s/q.db", dir);
	assert_int_equal(store_open(p, &s, err, sizeof err), 0);
	size_t added, skipped;
	for (int i = 0; i < 2; i++)
		assert_int_equal(answers_import(s, text, len, &added, &skipped, err, sizeof err),
				 0);
	assert_int_equal(store_ex_get(s, "demo-c", &x), 0);
	assert_int_equal(x.started, 1000);
	assert_int_equal(x.attempts, 2);
	assert_true(x.passed);
	assert_int_equal(x.hints, 2);
	assert_false(x.solution_seen);
	struct store_ex_state *all;
	size_t n;
	assert_int_equal(store_ex_all(s, &all, &n), 0);
	assert_int_equal(n, 1);
	free(all);
	/* bad rows are refused whole, naming the exercise */
	const char *bad = "{\"answers\":[],\"exercises\":[{\"id\":\"x\",\"hints\":7}]}";
	assert_int_equal(answers_import(s, bad, strlen(bad), &added, &skipped, err, sizeof err),
			 WB_EINVAL);
	assert_non_null(strstr(err, "exercise 1"));
	store_close(s);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_start_and_reset),
		cmocka_unit_test(test_hints),
		cmocka_unit_test(test_store_state_and_merge),
	};
	return cmocka_run_group_tests_name("exercise_ws", tests, setup, teardown);
}
