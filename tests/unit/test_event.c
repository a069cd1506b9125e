/* test_event.c - the JSON event line: every kind written and parsed back
 * with its fields, strings with quotes, newlines and UTF-8 survive (and
 * are written as ASCII), verdict counters and "cannot", lines that are not
 * events, an unknown kind, and the exact text a reader greps for; the
 * history kinds (op, mark, checker) with their null values and witness
 * bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/wb.h"
#include "event.h"

/* Writes e and returns the line (static, without the newline). */
static const char *written(const struct event_line *e)
{
	static char line[1024];
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(event_write(f, e), 0);
	rewind(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	size_t n = strlen(line);
	assert_true(n > 0 && line[n - 1] == '\n');
	line[n - 1] = '\0';
	return line;
}

static void test_round_trip(void **state)
{
	(void)state;
	const char *odd = "a \"quoted\"\nline — 中文 \\ end";
	struct event_line in[] = {
		{.kind = EVENT_STEP, .text = odd},
		{.kind = EVENT_CHECK, .text = "name", .ok = 1, .expected = "e", .observed = odd},
		{.kind = EVENT_CHECK, .text = "bad", .ok = 0, .expected = NULL, .observed = NULL},
		{.kind = EVENT_EVIDENCE, .text = "zxid", .observed = "0x1a"},
		{.kind = EVENT_ERROR, .text = "no java"},
		{.kind = EVENT_VERDICT, .ok = 1, .ms = 1234, .checks = 7, .failed = 0},
		{.kind = EVENT_VERDICT, .cannot = 1, .ms = 5, .checks = 1, .failed = 0},
	};
	for (size_t i = 0; i < WB_ARRAY_LEN(in); i++) {
		const char *line = written(&in[i]);
		for (const char *p = line; *p; p++)
			assert_true((unsigned char)*p < 0x80 && *p != '\n');
		struct event_line out;
		assert_int_equal(event_parse(line, &out), 0);
		assert_int_equal(out.kind, in[i].kind);
		assert_string_equal(out.text, in[i].text ? in[i].text : "");
		assert_string_equal(out.expected, in[i].expected ? in[i].expected : "");
		assert_string_equal(out.observed, in[i].observed ? in[i].observed : "");
		assert_int_equal(out.ok, in[i].ok);
		assert_int_equal(out.cannot, in[i].cannot);
		assert_int_equal(out.ms, in[i].ms);
		assert_int_equal(out.checks, in[i].checks);
		assert_int_equal(out.failed, in[i].failed);
		event_clear(&out);
		assert_null(out.priv);
	}
}

/* The format other readers (tests' greps, stored evidence) depend on. */
static void test_exact_text(void **state)
{
	(void)state;
	assert_string_equal(written(&(struct event_line){.kind = EVENT_STEP, .text = "go"}),
			    "{\"t\":\"step\",\"text\":\"go\"}");
	assert_string_equal(written(&(struct event_line){.kind = EVENT_CHECK,
							 .text = "n",
							 .ok = 1,
							 .expected = "a",
							 .observed = "b"}),
			    "{\"t\":\"check\",\"name\":\"n\",\"ok\":true,\"expected\":\"a\","
			    "\"observed\":\"b\"}");
	assert_string_equal(
		written(&(struct event_line){
			.kind = EVENT_VERDICT, .ms = 3, .checks = 2, .failed = 1}),
		"{\"t\":\"verdict\",\"pass\":false,\"ms\":3,\"checks\":2,\"failed\":1}");
	assert_string_equal(written(&(struct event_line){.kind = EVENT_VERDICT, .cannot = 1}),
			    "{\"t\":\"verdict\",\"pass\":false,\"ms\":0,\"checks\":0,\"failed\":0,"
			    "\"cannot\":true}");
}

static void test_not_events(void **state)
{
	(void)state;
	const char *bad[] = {"", "plain text", "{\"t\":3}", "[1,2]", "{\"text\":\"no t\"}", "{"};
	for (size_t i = 0; i < WB_ARRAY_LEN(bad); i++) {
		struct event_line e;
		assert_int_equal(event_parse(bad[i], &e), WB_EINVAL);
		assert_null(e.priv);
		event_clear(&e); /* harmless */
	}
	struct event_line e;
	assert_int_equal(event_parse("{\"t\":\"future\",\"text\":\"x\"}", &e), 0);
	assert_int_equal(e.kind, EVENT_UNKNOWN);
	assert_string_equal(e.text, "x");
	event_clear(&e);
	FILE *f = tmpfile();
	assert_int_equal(event_write(f, &(struct event_line){.kind = EVENT_UNKNOWN}), WB_EINVAL);
	fclose(f);
	assert_string_equal(event_kind_name(EVENT_CHECK), "check");
	assert_string_equal(event_kind_name(EVENT_UNKNOWN), "?");
}

static void test_history_kinds(void **state)
{
	(void)state;
	assert_string_equal(written(&(struct event_line){.kind = EVENT_OP,
							 .index = 3,
							 .process = "c1",
							 .type = "ok",
							 .f = "read",
							 .value = NULL,
							 .result = "1",
							 .ns = 1234567890123LL}),
			    "{\"t\":\"op\",\"i\":3,\"p\":\"c1\",\"type\":\"ok\",\"f\":\"read\","
			    "\"v\":null,\"r\":\"1\",\"ns\":1234567890123}");
	assert_string_equal(
		written(&(struct event_line){.kind = EVENT_MARK,
					     .process = "proxy",
					     .text = "create reply dropped",
					     .ns = 456}),
		"{\"t\":\"mark\",\"lane\":\"proxy\",\"text\":\"create reply dropped\",\"ns\":456}");
	assert_string_equal(written(&(struct event_line){.kind = EVENT_CHECKER,
							 .name = "linearizable",
							 .result = "invalid",
							 .text = "why",
							 .witness = {3, 5},
							 .n_witness = 2}),
			    "{\"t\":\"checker\",\"name\":\"linearizable\",\"result\":\"invalid\","
			    "\"text\":\"why\",\"witness\":[3,5]}");

	struct event_line e;
	assert_int_equal(event_parse("{\"t\":\"op\",\"i\":7,\"p\":\"c2\",\"type\":\"invoke\","
				     "\"f\":\"write\",\"v\":\"x \\\"y\\\"\",\"r\":null,\"ns\":9}",
				     &e),
			 0);
	assert_int_equal(e.kind, EVENT_OP);
	assert_int_equal(e.index, 7);
	assert_string_equal(e.process, "c2");
	assert_string_equal(e.type, "invoke");
	assert_string_equal(e.f, "write");
	assert_string_equal(e.value, "x \"y\"");
	assert_null(e.result);
	assert_int_equal(e.ns, 9);
	event_clear(&e);

	/* an op missing everything still parses, with empty fields */
	assert_int_equal(event_parse("{\"t\":\"op\"}", &e), 0);
	assert_string_equal(e.process, "");
	assert_string_equal(e.type, "");
	assert_null(e.value);
	event_clear(&e);

	assert_int_equal(event_parse("{\"t\":\"mark\",\"lane\":\"zk1\",\"text\":\"stopped\","
				     "\"ns\":77}",
				     &e),
			 0);
	assert_int_equal(e.kind, EVENT_MARK);
	assert_string_equal(e.process, "zk1");
	assert_string_equal(e.text, "stopped");
	assert_int_equal(e.ns, 77);
	event_clear(&e);

	/* witness: non-integers skipped, at most EVENT_WITNESS_MAX kept */
	assert_int_equal(event_parse("{\"t\":\"checker\",\"name\":\"mutex\",\"result\":\"valid\","
				     "\"text\":\"\",\"witness\":[1,\"x\",2,3,4,5,6,7,8,9,10,11,"
				     "12,13,14,15,16,17,18]}",
				     &e),
			 0);
	assert_int_equal(e.kind, EVENT_CHECKER);
	assert_string_equal(e.name, "mutex");
	assert_string_equal(e.result, "valid");
	assert_int_equal(e.n_witness, EVENT_WITNESS_MAX);
	assert_int_equal(e.witness[0], 1);
	assert_int_equal(e.witness[1], 2);
	assert_int_equal(e.witness[EVENT_WITNESS_MAX - 1], 16);
	event_clear(&e);
	assert_int_equal(event_parse("{\"t\":\"checker\",\"witness\":\"no\"}", &e), 0);
	assert_int_equal(e.n_witness, 0);
	event_clear(&e);

	/* round trip of an op with odd bytes */
	const char *odd = "a \"quoted\"\nline — 中文";
	const char *line = written(&(struct event_line){.kind = EVENT_OP,
							.index = 1,
							.process = odd,
							.type = "info",
							.f = odd,
							.value = odd});
	for (const char *p = line; *p; p++)
		assert_true((unsigned char)*p < 0x80);
	assert_int_equal(event_parse(line, &e), 0);
	assert_string_equal(e.process, odd);
	assert_string_equal(e.f, odd);
	assert_string_equal(e.value, odd);
	assert_null(e.result);
	event_clear(&e);
	assert_string_equal(event_kind_name(EVENT_CHECKER), "checker");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_exact_text),
		cmocka_unit_test(test_not_events),
		cmocka_unit_test(test_history_kinds),
	};
	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
