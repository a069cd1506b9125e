/* test_report.c - the verdict rule every lab relies on: a failed check
 * beats could-not-run, a run that checked nothing fails, an error that
 * stops a run fails unless the lab said it could not run; and the
 * regression where a lab stopping with WB_EIO (-2, the old -LAB_EXIT_CANNOT)
 * was reported as "could not run". */
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
#include "harness/report.h"
#include "lab.h"

static void test_rule(void **state)
{
	(void)state;
	/* checks, failed, cannot, end -> verdict */
	assert_int_equal(report_verdict_rule(3, 0, 0, REPORT_RAN), REPORT_PASS);
	assert_int_equal(report_verdict_rule(3, 1, 0, REPORT_RAN), REPORT_FAIL);
	/* fail beats cannot, both ways it can be said */
	assert_int_equal(report_verdict_rule(3, 1, 1, REPORT_RAN), REPORT_FAIL);
	assert_int_equal(report_verdict_rule(3, 1, 0, REPORT_CANNOT_RUN), REPORT_FAIL);
	assert_int_equal(report_verdict_rule(3, 1, 1, REPORT_BROKE), REPORT_FAIL);
	/* cannot beats a broken run and a run without checks */
	assert_int_equal(report_verdict_rule(0, 0, 1, REPORT_RAN), REPORT_CANNOT);
	assert_int_equal(report_verdict_rule(2, 0, 1, REPORT_BROKE), REPORT_CANNOT);
	assert_int_equal(report_verdict_rule(0, 0, 0, REPORT_CANNOT_RUN), REPORT_CANNOT);
	/* a run error is a failure */
	assert_int_equal(report_verdict_rule(5, 0, 0, REPORT_BROKE), REPORT_FAIL);
	/* zero checks proved nothing */
	assert_int_equal(report_verdict_rule(0, 0, 0, REPORT_RAN), REPORT_FAIL);
}

/* Runs a fake lab on a report: ok checks that hold, bad that fail, one
 * report_cannot when cannot, then stops with rc; returns the verdict and
 * checks the JSON verdict line agrees. */
static enum report_verdict fake_run(int ok, int bad, int cannot, int rc)
{
	FILE *out = tmpfile();
	assert_non_null(out);
	struct report *r = report_new(out, 1);
	assert_non_null(r);
	struct lab_ctx ctx = {.report = r};
	for (int i = 0; i < ok; i++)
		report_check(r, "holds", 1, "x", "x");
	for (int i = 0; i < bad; i++)
		report_check(r, "breaks", 0, "x", "y");
	if (cannot)
		report_cannot(r, "no server");
	enum report_verdict v = report_finish(r, (enum report_end)lab_outcome_of(&ctx, rc));
	report_free(r);

	rewind(out);
	char line[512], last[512] = "";
	while (fgets(line, sizeof line, out))
		memcpy(last, line, sizeof line);
	fclose(out);
	struct event_line e;
	assert_int_equal(event_parse(last, &e), 0);
	assert_int_equal(e.kind, EVENT_VERDICT);
	assert_int_equal(e.ok, v == REPORT_PASS);
	assert_int_equal(e.cannot, v == REPORT_CANNOT);
	assert_int_equal(e.checks, ok + bad);
	assert_int_equal(e.failed, bad);
	event_clear(&e);
	return v;
}

static void test_finish(void **state)
{
	(void)state;
	assert_int_equal(fake_run(2, 0, 0, 0), REPORT_PASS);
	assert_int_equal(fake_run(2, 1, 0, 0), REPORT_FAIL);
	assert_int_equal(fake_run(0, 0, 0, 0), REPORT_FAIL);
	assert_int_equal(fake_run(1, 0, 1, WB_EUNAVAIL), REPORT_CANNOT);
	assert_int_equal(fake_run(1, 1, 1, WB_EUNAVAIL), REPORT_FAIL);
	assert_int_equal(fake_run(1, 0, 0, WB_EBUSY), REPORT_FAIL);
}

/* Regression: WB_EIO is -2, the number the old rule read as "could not
 * run"; a lab stopped by an I/O error without report_cannot failed. */
static void test_eio_is_a_failure(void **state)
{
	(void)state;
	assert_int_equal(WB_EIO, -LAB_EXIT_CANNOT); /* why the old rule confused them */
	assert_int_equal(fake_run(1, 0, 0, WB_EIO), REPORT_FAIL);
	FILE *devnull = fopen("/dev/null", "w");
	assert_non_null(devnull);
	struct report *r = report_new(devnull, 1);
	struct lab_ctx ctx = {.report = r};
	assert_int_equal(lab_outcome_of(&ctx, WB_EIO), LAB_BROKE);
	assert_int_equal(lab_outcome_of(&ctx, 0), LAB_RAN);
	report_cannot(r, "the environment");
	assert_int_equal(lab_outcome_of(&ctx, WB_EIO), LAB_CANNOT_RUN);
	report_free(r);
	fclose(devnull);
}

/* The time split: story waits add up per kind, servers apart, the rest
 * is what remains (never negative); the timing event comes just before
 * the verdict and parses back to the same figures. */
static void test_timing(void **state)
{
	(void)state;
	FILE *out = tmpfile();
	assert_non_null(out);
	struct report *r = report_new(out, 1);
	report_story_wait(r, 300, "lease");
	report_story_wait(r, 200, "lease");
	report_story_wait(r, 40, "sync-limit");
	report_story_wait(r, -5, "ignored");
	report_server_time(r, 70);
	report_server_time(r, 0);
	long story = -1, server = -1, other = -1;
	report_time_split(r, &story, &server, &other);
	assert_int_equal(story, 540);
	assert_int_equal(server, 70);
	assert_int_equal(other, 0); /* less elapsed than declared: clamped */
	report_check(r, "holds", 1, "x", "x");
	report_finish(r, REPORT_RAN);
	report_free(r);
	rewind(out);
	char line[512], prev[512] = "", last[512] = "";
	while (fgets(line, sizeof line, out)) {
		memcpy(prev, last, sizeof last);
		memcpy(last, line, sizeof line);
	}
	fclose(out);
	struct event_line e;
	assert_int_equal(event_parse(prev, &e), 0);
	assert_int_equal(e.kind, EVENT_TIMING);
	assert_int_equal(e.story_ms, 540);
	assert_int_equal(e.server_ms, 70);
	assert_int_equal(e.other_ms, 0);
	assert_string_equal(e.text, "lease 500 ms, sync-limit 40 ms");
	event_clear(&e);
	assert_string_equal(event_kind_name(EVENT_TIMING), "timing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_eio_is_a_failure),
		cmocka_unit_test(test_timing),
	};
	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
