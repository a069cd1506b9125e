/* test_report_history.c - the operation history the report keeps for the
 * checkers: indexes in invocation order, shared by invocation and
 * completion; threads recording at once lose nothing and mix no lines;
 * a second completion or a bad index changes nothing; the op, mark and
 * checker events carry what was recorded; subsets and callback times; report_checker's check holds
 * only when the verdict is the one expected (unknown never). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include "base/wb.h"
#include "checkers/history.h"
#include "event.h"
#include "harness/report.h"

#define THREADS 4
#define PER	200

struct worker {
	struct report *r;
	char name[8];
};

static void *record(void *arg)
{
	struct worker *w = arg;
	for (int i = 0; i < PER; i++) {
		char v[16];
		snprintf(v, sizeof v, "%d", i);
		int k = report_invoke(w->r, w->name, "write", v);
		report_complete(w->r, k, i % 3 == 0 ? HIST_INFO : HIST_OK, v);
	}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	struct report *r = report_new(f, 1);
	struct worker w[THREADS];
	pthread_t th[THREADS];
	for (int i = 0; i < THREADS; i++) {
		w[i].r = r;
		snprintf(w[i].name, sizeof w[i].name, "c%d", i + 1);
		assert_int_equal(pthread_create(&th[i], NULL, record, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	const struct history *h = report_history(r);
	assert_int_equal(h->n, THREADS * PER);
	int64_t last = 0;
	for (size_t k = 0; k < h->n; k++) {
		assert_int_equal(h->ops[k].index, (int)k);
		assert_true(h->ops[k].end == HIST_OK || h->ops[k].end == HIST_INFO);
		assert_true(h->ops[k].t_invoke >= last);
		last = h->ops[k].t_invoke;
		if (h->ops[k].end == HIST_OK) {
			assert_true(h->ops[k].t_complete >= h->ops[k].t_invoke);
			assert_string_equal(h->ops[k].result, h->ops[k].value);
		} else {
			/* info: "any time later", but the moment it was seen is kept */
			assert_true(h->ops[k].t_complete == INT64_MAX);
			assert_true(report_history_ends(r)[k] >= h->ops[k].t_invoke);
			assert_null(h->ops[k].result);
		}
	}
	/* every line is a whole event; each index is invoked once and
	 * completed once */
	rewind(f);
	char line[512];
	static int inv[THREADS * PER], done[THREADS * PER];
	int lines = 0;
	while (fgets(line, sizeof line, f)) {
		struct event_line e;
		assert_int_equal(event_parse(line, &e), 0);
		assert_int_equal(e.kind, EVENT_OP);
		assert_true(e.index >= 0 && e.index < THREADS * PER);
		if (!strcmp(e.type, "invoke"))
			inv[e.index]++;
		else
			done[e.index]++;
		event_clear(&e);
		lines++;
	}
	assert_int_equal(lines, 2 * THREADS * PER);
	for (int k = 0; k < THREADS * PER; k++)
		assert_true(inv[k] == 1 && done[k] == 1);
	report_free(r);
	fclose(f);
}

/* Reads the next event of kind from f into *e (event_clear it). */
static void next_of(FILE *f, enum event_kind kind, struct event_line *e)
{
	static char line[1024];
	while (fgets(line, sizeof line, f)) {
		assert_int_equal(event_parse(line, e), 0);
		if (e->kind == kind)
			return;
		event_clear(e);
	}
	fail_msg("no %s event", event_kind_name(kind));
}

static void test_events_and_since(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	struct report *r = report_new(f, 1);
	int a = report_invoke(r, "c1", "write", "1");
	int b = report_invoke(r, "c2", "read", NULL);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	report_complete(r, a, HIST_OK, NULL);
	report_complete(r, a, HIST_FAIL, NULL); /* second completion: ignored */
	report_complete(r, 7, HIST_OK, "x");	/* unknown index: ignored */
	report_complete(r, -1, HIST_OK, "x");
	report_complete(r, b, HIST_INVOKE, "x"); /* not a completion: ignored */
	report_mark(r, "proxy", "reply %d dropped", 42);
	report_complete(r, b, HIST_OK, "0");
	int c = report_invoke(r, "c2", "read", NULL);
	assert_int_equal(report_history_len(r), 3);

	const struct history *h = report_history(r);
	assert_int_equal(h->n, 3);
	assert_int_equal(h->ops[0].end, HIST_OK);
	assert_null(h->ops[0].result);
	assert_int_equal(h->ops[1].end, HIST_OK);
	assert_string_equal(h->ops[1].result, "0");
	assert_int_equal(h->ops[2].end, HIST_INVOKE);
	assert_true(h->ops[2].t_complete == INT64_MAX);
	const int64_t *ends = report_history_ends(r);
	assert_true(ends[0] == h->ops[0].t_complete && ends[2] == -1);
	struct history part;
	report_history_since(r, c, &part);
	assert_int_equal(part.n, 1);
	assert_int_equal(part.ops[0].index, c);
	report_history_since(r, 99, &part);
	assert_int_equal(part.n, 0);
	assert_int_equal(report_history_subset(r, (const int[]){2, 0, 99, -1}, 4, &part), 0);
	assert_int_equal(part.n, 2);
	assert_int_equal(part.ops[0].index, 2);
	assert_int_equal(part.ops[1].index, 0);
	free(part.ops);
	/* a callback time before the invocation is the invocation's */
	report_complete_at(r, c, HIST_OK, "1", 0);
	h = report_history(r);
	assert_true(h->ops[c].t_complete == h->ops[c].t_invoke);

	struct hist_result res = {.verdict = HIST_INVALID, .witness = {0, 1}, .n_witness = 2};
	snprintf(res.why, sizeof res.why, "read 0 after write 1 completed");
	assert_true(report_checker(r, "plain-read-linearizable", &res, HIST_INVALID));
	assert_false(report_checker(r, "must-hold", &res, HIST_VALID));
	res.verdict = HIST_UNKNOWN;
	assert_false(report_checker(r, "unknown", &res, HIST_UNKNOWN));
	assert_int_equal(report_checks(r), 3);
	assert_int_equal(report_failed(r), 2);

	rewind(f);
	struct event_line e;
	next_of(f, EVENT_OP, &e);
	assert_string_equal(e.type, "invoke");
	assert_string_equal(e.process, "c1");
	assert_string_equal(e.value, "1");
	assert_null(e.result);
	event_clear(&e);
	next_of(f, EVENT_OP, &e);
	assert_int_equal(e.index, 1);
	assert_null(e.value);
	event_clear(&e);
	next_of(f, EVENT_OP, &e);
	assert_int_equal(e.index, 0);
	assert_string_equal(e.type, "ok");
	event_clear(&e);
	next_of(f, EVENT_MARK, &e);
	assert_string_equal(e.process, "proxy");
	assert_string_equal(e.text, "reply 42 dropped");
	assert_true(e.ns > 0);
	event_clear(&e);
	next_of(f, EVENT_OP, &e);
	assert_int_equal(e.index, 1);
	assert_string_equal(e.type, "ok");
	assert_string_equal(e.result, "0");
	event_clear(&e);
	next_of(f, EVENT_CHECKER, &e);
	assert_string_equal(e.name, "plain-read-linearizable");
	assert_string_equal(e.result, "invalid");
	assert_string_equal(e.text, "read 0 after write 1 completed");
	assert_int_equal(e.n_witness, 2);
	assert_int_equal(e.witness[1], 1);
	event_clear(&e);
	next_of(f, EVENT_CHECK, &e);
	assert_string_equal(e.text, "plain-read-linearizable");
	assert_true(e.ok);
	assert_non_null(strstr(e.observed, "invalid: read 0 after write 1 completed (ops 0,1)"));
	event_clear(&e);
	report_free(r);
	fclose(f);
}

/* The plain output: one terse line per completion and mark, none per
 * invocation. */
static void test_plain(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report *r = report_new(f, 0);
	int a = report_invoke(r, "c1", "read", NULL);
	report_complete(r, a, HIST_INFO, NULL);
	report_mark(r, "zk1", "stopped");
	a = report_invoke(r, "c2", "write", "2");
	report_complete(r, a, HIST_OK, "x");
	a = report_invoke(r, "A", "claim", "T7");
	report_complete_value(r, a, HIST_OK, "T7:1", "1");
	assert_string_equal(report_history(r)->ops[a].value, "T7:1");
	report_free(r);
	fclose(f);
	assert_string_equal(buf, "    op c1 read -> info\n    ~ zk1: stopped\n"
				 "    op c2 write(2) -> ok x\n"
				 "    op A claim(T7:1) -> ok 1\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_events_and_since),
		cmocka_unit_test(test_plain),
	};
	return cmocka_run_group_tests_name("report_history", tests, NULL, NULL);
}
