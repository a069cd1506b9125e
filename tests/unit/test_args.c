/*
 * test_args.c - the CLI's option parser (workbench/cli/args.c): flags and
 * valued options in both spellings, aliases, "--" and "-", unknown
 * options and missing values as usage errors, operand bounds, and the
 * two modes main.c and zk-lock need (keep unknown options after the
 * first operand; stop at the first operand).
 */
#include "base/wb.h"
#include "cli/args.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#define ARGV(...) ((char *[]){__VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)))
/* Parses the words with spec into a; returns args_parse's code. */
#define PARSE(spec, a, ...) args_parse((spec), ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (a))

static const struct args_spec lab_run = {.opts = "--json --zk=", .lower = 1, .upper = 1};

static void flags_values_and_operands(void **state)
{
	(void)state;
	struct args a;
	assert_int_equal(PARSE(&lab_run, &a, "--json", "zk-cas", "--zk", "h:1"), 0);
	assert_int_equal(args_has(&a, "--json"), 1);
	assert_string_equal(args_value(&a, "--zk"), "h:1");
	assert_int_equal(a.argc, 1);
	assert_string_equal(a.argv[0], "zk-cas");
	assert_null(a.argv[1]);
	assert_null(args_value(&a, "--json"));
	assert_int_equal(args_has(&a, "--nope"), 0);
	assert_null(args_value(&a, "--nope"));
	args_free(&a);

	/* --opt=value, an empty value, a value with '=' in it, the last wins. */
	assert_int_equal(PARSE(&lab_run, &a, "--zk=a:1", "x", "--zk=b=2"), 0);
	assert_string_equal(args_value(&a, "--zk"), "b=2");
	assert_int_equal(args_has(&a, "--zk"), 2);
	assert_int_equal(args_has(&a, "--json"), 0);
	args_free(&a);
	assert_int_equal(PARSE(&lab_run, &a, "x", "--zk="), 0);
	assert_string_equal(args_value(&a, "--zk"), "");
	args_free(&a);

	/* The next word is the value, whatever it looks like. */
	assert_int_equal(PARSE(&lab_run, &a, "--zk", "-1", "x"), 0);
	assert_string_equal(args_value(&a, "--zk"), "-1");
	args_free(&a);
}

static void aliases(void **state)
{
	(void)state;
	static const struct args_spec export = {.opts = "--format= -o|--output= -h|--help",
						.upper = 0};
	struct args a;
	assert_int_equal(PARSE(&export, &a, "-o", "f1"), 0);
	assert_string_equal(args_value(&a, "--output"), "f1");
	assert_string_equal(args_value(&a, "-o"), "f1");
	args_free(&a);
	assert_int_equal(PARSE(&export, &a, "--output=f2", "-o=f3", "--help"), 0);
	assert_string_equal(args_value(&a, "-o"), "f3");
	assert_int_equal(args_has(&a, "--output"), 2);
	assert_int_equal(args_has(&a, "-h"), 1);
	args_free(&a);
	/* A prefix of a spelling is not that option. */
	assert_int_equal(PARSE(&export, &a, "--out", "x"), WB_EINVAL);
	assert_string_equal(a.err, "unknown option '--out'");
	args_free(&a);
}

static void end_of_options_and_dash(void **state)
{
	(void)state;
	static const struct args_spec lint = {.opts = "--json", .upper = -1};
	struct args a;
	assert_int_equal(PARSE(&lint, &a, "-", "--", "--json", "-x"), 0);
	assert_int_equal(args_has(&a, "--json"), 0);
	assert_int_equal(a.argc, 3);
	assert_string_equal(a.argv[0], "-");
	assert_string_equal(a.argv[1], "--json");
	assert_string_equal(a.argv[2], "-x");
	args_free(&a);
	/* With no words at all. */
	assert_int_equal(args_parse(&lint, 0, ARGV(NULL), &a), 0);
	assert_int_equal(a.argc, 0);
	assert_null(a.argv[0]);
	args_free(&a);
}

static void usage_errors(void **state)
{
	(void)state;
	struct args a;
	assert_int_equal(PARSE(&lab_run, &a, "x", "--bogus"), WB_EINVAL);
	assert_string_equal(a.err, "unknown option '--bogus'");
	args_free(&a);
	assert_int_equal(PARSE(&lab_run, &a, "x", "--bogus=1"), WB_EINVAL);
	assert_string_equal(a.err, "unknown option '--bogus=1'");
	args_free(&a);
	assert_int_equal(PARSE(&lab_run, &a, "x", "--zk"), WB_EINVAL);
	assert_string_equal(a.err, "--zk needs a value");
	args_free(&a);
	assert_int_equal(PARSE(&lab_run, &a, "x", "--json=yes"), WB_EINVAL);
	assert_string_equal(a.err, "option '--json' takes no value");
	args_free(&a);
	assert_int_equal(PARSE(&lab_run, &a, "--json"), WB_EINVAL);
	assert_string_equal(a.err, "missing argument");
	args_free(&a);
	assert_int_equal(PARSE(&lab_run, &a, "x", "y", "z"), WB_EINVAL);
	assert_string_equal(a.err, "unexpected argument 'y'");
	args_free(&a);
	/* A command with no options: every option is unknown. */
	static const struct args_spec none = {.upper = 0};
	assert_int_equal(PARSE(&none, &a, "-v"), WB_EINVAL);
	assert_string_equal(a.err, "unknown option '-v'");
	args_free(&a);
	args_free(NULL);
}

/* zk-lock: options end at the first operand, COMMAND keeps its own. */
static void in_order(void **state)
{
	(void)state;
	static const struct args_spec zk = {
		.opts = "--zk= --path=", .upper = -1, .flags = ARGS_IN_ORDER};
	struct args a;
	assert_int_equal(PARSE(&zk, &a, "--zk", "h", "ls", "--zk", "-l"), 0);
	assert_string_equal(args_value(&a, "--zk"), "h");
	assert_int_equal(a.argc, 3);
	assert_string_equal(a.argv[0], "ls");
	assert_string_equal(a.argv[1], "--zk");
	assert_string_equal(a.argv[2], "-l");
	args_free(&a);
	assert_int_equal(PARSE(&zk, &a, "--path=/l", "--", "--", "x"), 0);
	assert_int_equal(a.argc, 2);
	assert_string_equal(a.argv[0], "--");
	args_free(&a);
}

/* main.c: global flags anywhere; unknown ones after the command word
 * (and "--" with the rest) are the command's. */
static void pass_unknown(void **state)
{
	(void)state;
	static const struct args_spec global = {
		.opts = "-h|--help --db=", .upper = -1, .flags = ARGS_PASS_UNKNOWN};
	struct args a;
	assert_int_equal(PARSE(&global, &a, "--bogus", "lab"), WB_EINVAL);
	assert_string_equal(a.err, "unknown option '--bogus'");
	args_free(&a);
	assert_int_equal(
		PARSE(&global, &a, "zk-lock", "--zk", "h", "--db=d", "--", "x", "--db", "y"), 0);
	assert_string_equal(args_value(&a, "--db"), "d");
	assert_int_equal(a.argc, 7);
	const char *want[] = {"zk-lock", "--zk", "h", "--", "x", "--db", "y"};
	for (int i = 0; i < 7; i++)
		assert_string_equal(a.argv[i], want[i]);
	args_free(&a);
	/* "--" before any command word is dropped. */
	assert_int_equal(PARSE(&global, &a, "--db", "d", "--", "--help"), 0);
	assert_int_equal(args_has(&a, "--help"), 0);
	assert_int_equal(a.argc, 1);
	assert_string_equal(a.argv[0], "--help");
	args_free(&a);
	/* Known flags still count after the command word, and still need
	 * their value. */
	assert_int_equal(PARSE(&global, &a, "lessons", "-h"), 0);
	assert_int_equal(args_has(&a, "--help"), 1);
	assert_int_equal(a.argc, 1);
	args_free(&a);
	assert_int_equal(PARSE(&global, &a, "lessons", "--db"), WB_EINVAL);
	assert_string_equal(a.err, "--db needs a value");
	args_free(&a);
}

static void unknown_option_suggestions(void **state)
{
	(void)state;
	struct args a;
	assert_int_equal(PARSE(&lab_run, &a, "zk-cas", "--jsn=1"), WB_EINVAL);
	assert_string_equal(a.unknown, "--jsn=1");
	assert_string_equal(args_suggest(&lab_run, a.unknown), "--json");
	args_free(&a);
	assert_int_equal(PARSE(&lab_run, &a, "zk-cas", "--zk"), WB_EINVAL);
	assert_null(a.unknown); /* a missing value, not an unknown option */
	args_free(&a);
	const struct args_spec spec = {.opts = "-o|--output= --format=", .upper = 0};
	assert_string_equal(args_suggest(&spec, "--outptu"), "--output");
	assert_string_equal(args_suggest(&spec, "--fromat"), "--format");
	assert_null(args_suggest(&spec, "--frobnicate"));
	assert_null(args_suggest(&(struct args_spec){0}, "--x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flags_values_and_operands),
		cmocka_unit_test(aliases),
		cmocka_unit_test(end_of_options_and_dash),
		cmocka_unit_test(usage_errors),
		cmocka_unit_test(in_order),
		cmocka_unit_test(pass_unknown),
		cmocka_unit_test(unknown_option_suggestions),
	};
	return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
