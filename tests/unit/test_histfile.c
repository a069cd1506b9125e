/* test_histfile.c - the history files: lines in time order (invocations
 * first at equal times), a completion's value is its result, an info op's
 * line at the time it was seen, no line for an op never completed; EDN:
 * integers bare, nil, escaped strings, keywords only for plain words, and
 * Jepsen process numbers (a second one for a pipelined call, a new one
 * after an info, the old one reused after ok); every line's op id; a
 * completion keeps its inputs, with the result apart; times as recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "histfile.h"

static char *written(const struct history *h, const int64_t *ends, enum histfile_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(histfile_write(f, h, ends, fmt), 0);
	fclose(f);
	return buf;
}

/* A writes 1; B pipelines two reads (one sees 0, one 1); B's write ends
 * info; B reads again (a new Jepsen process); A's last read never ends. */
static struct hist_op ops[] = {
	{0, "A", "write", "1", NULL, HIST_OK, 10, 20},
	{1, "B", "read", NULL, "0", HIST_OK, 15, 30},
	{2, "B", "read", NULL, "1", HIST_OK, 16, 40},
	{3, "B", "write", "x \"q\"\n", NULL, HIST_INFO, 50, INT64_MAX},
	{4, "B", "read", NULL, "1", HIST_OK, 70, 80},
	{5, "A", "odd f", "-7", NULL, HIST_FAIL, 80, 90},
	{6, "A", "read", NULL, NULL, HIST_INVOKE, 100, INT64_MAX},
};
static const int64_t ends[] = {20, 30, 40, 60, 80, 90, -1};

static void test_json(void **state)
{
	(void)state;
	struct history h = {ops, WB_ARRAY_LEN(ops)};
	char *s = written(&h, ends, HISTFILE_JSON);
	const char *want =
		"{\"index\":0,\"op\":0,\"process\":\"A\",\"type\":\"invoke\",\"f\":\"write\","
		"\"value\":"
		"\"1\","
		"\"time\":10}\n"
		"{\"index\":1,\"op\":1,\"process\":\"B\",\"type\":\"invoke\",\"f\":\"read\","
		"\"value\":null,"
		"\"time\":15}\n"
		"{\"index\":2,\"op\":2,\"process\":\"B\",\"type\":\"invoke\",\"f\":\"read\","
		"\"value\":null,"
		"\"time\":16}\n"
		"{\"index\":3,\"op\":0,\"process\":\"A\",\"type\":\"ok\",\"f\":\"write\",\"value\":"
		"\"1\","
		"\"time\":20}\n"
		"{\"index\":4,\"op\":1,\"process\":\"B\",\"type\":\"ok\",\"f\":\"read\",\"value\":"
		"\"0\","
		"\"time\":30}\n"
		"{\"index\":5,\"op\":2,\"process\":\"B\",\"type\":\"ok\",\"f\":\"read\",\"value\":"
		"\"1\","
		"\"time\":40}\n"
		"{\"index\":6,\"op\":3,\"process\":\"B\",\"type\":\"invoke\",\"f\":\"write\","
		"\"value\":\"x \\\"q\\\"\\n\",\"time\":50}\n"
		"{\"index\":7,\"op\":3,\"process\":\"B\",\"type\":\"info\",\"f\":\"write\","
		"\"value\":\"x \\\"q\\\"\\n\",\"time\":60}\n"
		"{\"index\":8,\"op\":4,\"process\":\"B\",\"type\":\"invoke\",\"f\":\"read\","
		"\"value\":null,"
		"\"time\":70}\n"
		"{\"index\":9,\"op\":5,\"process\":\"A\",\"type\":\"invoke\",\"f\":\"odd "
		"f\",\"value\":\"-7\","
		"\"time\":80}\n"
		"{\"index\":10,\"op\":4,\"process\":\"B\",\"type\":\"ok\",\"f\":\"read\",\"value\":"
		"\"1\","
		"\"time\":80}\n"
		"{\"index\":11,\"op\":5,\"process\":\"A\",\"type\":\"fail\",\"f\":\"odd "
		"f\",\"value\":\"-7\","
		"\"time\":90}\n"
		"{\"index\":12,\"op\":6,\"process\":\"A\",\"type\":\"invoke\",\"f\":\"read\","
		"\"value\":null,"
		"\"time\":100}\n";
	assert_string_equal(s, want);
	free(s);
}

static void test_edn(void **state)
{
	(void)state;
	struct history h = {ops, WB_ARRAY_LEN(ops)};
	char *s = written(&h, ends, HISTFILE_EDN);
	/* A = 0; B = 1, its pipelined read 2; after B's info on 1, B's next
	 * read takes 2 again (free since its ok), A keeps 0. */
	const char *want =
		"{:index 0, :process 0, :type :invoke, :f :write, :value 1, :time 10, :name "
		"\"A\", :op 0}\n"
		"{:index 1, :process 1, :type :invoke, :f :read, :value nil, :time 15, :name "
		"\"B\", :op 1}\n"
		"{:index 2, :process 2, :type :invoke, :f :read, :value nil, :time 16, :name "
		"\"B\", :op 2}\n"
		"{:index 3, :process 0, :type :ok, :f :write, :value 1, :time 20, :name \"A\", :op "
		"0}\n"
		"{:index 4, :process 1, :type :ok, :f :read, :value 0, :time 30, :name \"B\", :op "
		"1}\n"
		"{:index 5, :process 2, :type :ok, :f :read, :value 1, :time 40, :name \"B\", :op "
		"2}\n"
		"{:index 6, :process 1, :type :invoke, :f :write, :value \"x \\\"q\\\"\\n\", :time "
		"50, "
		":name \"B\", :op 3}\n"
		"{:index 7, :process 1, :type :info, :f :write, :value \"x \\\"q\\\"\\n\", :time "
		"60, "
		":name \"B\", :op 3}\n"
		"{:index 8, :process 2, :type :invoke, :f :read, :value nil, :time 70, :name "
		"\"B\", :op 4}\n"
		"{:index 9, :process 0, :type :invoke, :f \"odd f\", :value -7, :time 80, :name "
		"\"A\", :op 5}\n"
		"{:index 10, :process 2, :type :ok, :f :read, :value 1, :time 80, :name \"B\", :op "
		"4}\n"
		"{:index 11, :process 0, :type :fail, :f \"odd f\", :value -7, :time 90, :name "
		"\"A\", :op 5}\n"
		"{:index 12, :process 0, :type :invoke, :f :read, :value nil, :time 100, :name "
		"\"A\", :op 6}\n";
	assert_string_equal(s, want);
	free(s);
	/* without ends: the info op has no completion line */
	s = written(&h, NULL, HISTFILE_EDN);
	assert_null(strstr(s, ":info"));
	free(s);
}

static void test_edn_values(void **state)
{
	(void)state;
	struct hist_op o[] = {
		{0, "p", "w", "007", NULL, HIST_OK, 1, 2},		    /* not a bare integer */
		{1, "p", "w", "99999999999999999999", NULL, HIST_OK, 3, 4}, /* too big */
		{2, "p", "w", "t\x01\x7f中", NULL, HIST_OK, 5, 6},
		{3, "p", "1bad", "-", NULL, HIST_OK, 7, 8},
	};
	struct history h = {o, WB_ARRAY_LEN(o)};
	char *s = written(&h, NULL, HISTFILE_EDN);
	assert_non_null(strstr(s, ":value \"007\""));
	assert_non_null(strstr(s, ":value \"99999999999999999999\""));
	assert_non_null(strstr(s, ":value \"t\\u0001\\u007f中\""));
	assert_non_null(strstr(s, ":f \"1bad\", :value \"-\""));
	free(s);
	enum histfile_format fmt;
	assert_int_equal(histfile_format_parse("edn", &fmt), 0);
	assert_int_equal(fmt, HISTFILE_EDN);
	assert_int_equal(histfile_format_parse("json", &fmt), 0);
	assert_int_equal(fmt, HISTFILE_JSON);
	assert_int_equal(histfile_format_parse("clj", &fmt), WB_EINVAL);
	assert_int_equal(histfile_format_parse(NULL, &fmt), WB_EINVAL);
}

/* A completion keeps its inputs: a write's token stays the value, its
 * result gets its own key; a rejected write keeps its token and has no
 * result; times are written as recorded: a completion before its
 * invocation (malformed) keeps its time, right after its invocation. */
static void test_inputs_kept(void **state)
{
	(void)state;
	struct hist_op o[] = {
		{3, "A", "write-fenced", "7", "fenced a-first", HIST_OK, 10, 20},
		{4, "A", "write-fenced", "5", NULL, HIST_FAIL, 30, 40},
		{5, "B", "claim", "T7:2", "1", HIST_OK, 50, 45},
	};
	struct history h = {o, WB_ARRAY_LEN(o)};
	char *s = written(&h, NULL, HISTFILE_EDN);
	const char *want =
		"{:index 0, :process 0, :type :invoke, :f :write-fenced, :value 7, :time 10, :name "
		"\"A\", :op 3}\n"
		"{:index 1, :process 0, :type :ok, :f :write-fenced, :value 7, :time 20, :name "
		"\"A\", "
		":op 3, :result \"fenced a-first\"}\n"
		"{:index 2, :process 0, :type :invoke, :f :write-fenced, :value 5, :time 30, :name "
		"\"A\", :op 4}\n"
		"{:index 3, :process 0, :type :fail, :f :write-fenced, :value 5, :time 40, :name "
		"\"A\", :op 4}\n"
		"{:index 4, :process 1, :type :invoke, :f :claim, :value \"T7:2\", :time 50, :name "
		"\"B\", :op 5}\n"
		"{:index 5, :process 1, :type :ok, :f :claim, :value \"T7:2\", :time 45, :name "
		"\"B\", "
		":op 5, :result 1}\n";
	assert_string_equal(s, want);
	free(s);
	s = written(&h, NULL, HISTFILE_JSON);
	assert_non_null(strstr(s, "{\"index\":1,\"op\":3,\"process\":\"A\",\"type\":\"ok\","
				  "\"f\":\"write-fenced\",\"value\":\"7\",\"time\":20,"
				  "\"result\":\"fenced a-first\"}\n"));
	assert_non_null(strstr(s, "{\"index\":3,\"op\":4,\"process\":\"A\",\"type\":\"fail\","
				  "\"f\":\"write-fenced\",\"value\":\"5\",\"time\":40}\n"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_edn),
		cmocka_unit_test(test_edn_values),
		cmocka_unit_test(test_inputs_kept),
	};
	return cmocka_run_group_tests_name("histfile", tests, NULL, NULL);
}
