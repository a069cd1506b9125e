/*
 * test_suggest.c - the CLI's "did you mean" (workbench/cli/suggest.c): the
 * edit distance with transpositions, the typo limits by length, ties,
 * exact matches and over-long words.
 */
#include "cli/suggest.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

static void distances(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("", ""), 0);
	assert_int_equal(suggest_distance("list", "list"), 0);
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("abc", ""), 3);
	assert_int_equal(suggest_distance("lsit", "list"), 1);	    /* swap */
	assert_int_equal(suggest_distance("shwo", "show"), 1);	    /* swap at the end */
	assert_int_equal(suggest_distance("zk-cass", "zk-cas"), 1); /* insert */
	assert_int_equal(suggest_distance("--jsn", "--json"), 1);   /* delete */
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("ca", "abc"), 3); /* OSA, not Damerau: 3 */
	char longw[SUGGEST_MAX_LEN + 2];
	memset(longw, 'a', sizeof longw - 1);
	longw[sizeof longw - 1] = '\0';
	assert_int_equal(suggest_distance(longw, "a"), SUGGEST_FAR);
}

static void closest(void **state)
{
	(void)state;
	const char *cmds[] = {"lessons", "lesson", "lab", "zk-lock", "quiz", "progress"};
	size_t n = sizeof cmds / sizeof *cmds;
	assert_string_equal(suggest_closest("lessson", cmds, n), "lesson");
	assert_string_equal(suggest_closest("quz", cmds, n), "quiz");
	assert_string_equal(suggest_closest("progres", cmds, n), "progress");
	assert_string_equal(suggest_closest("zklock", cmds, n), "zk-lock");
	assert_null(suggest_closest("frobnicate", cmds, n));
	/* Short words: one edit only, and never all of the candidate. */
	assert_null(suggest_closest("xy", cmds, n));
	const char *one[] = {"a", NULL, "ab"};
	assert_null(suggest_closest("b", one, 1));
	assert_string_equal(suggest_closest("b", one, 3), "ab");
	/* An exact match is not a suggestion; the first of a tie wins. */
	assert_null(suggest_closest("lab", (const char *[]){"lab"}, 1));
	assert_string_equal(suggest_closest("lac", (const char *[]){"lab", "lax"}, 2), "lab");
	const char *labs[] = {"zk-cas", "zk-lock-race", "task-claim"};
	assert_string_equal(suggest_closest("zk-cass", labs, 3), "zk-cas");
	assert_string_equal(suggest_closest("task-clam", labs, 3), "task-claim");
	assert_null(suggest_closest("", labs, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(distances),
		cmocka_unit_test(closest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
