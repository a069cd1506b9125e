/* test_timeline.c - core/timeline (layout and cells) and
 * core/timeline_events (event lines to a timeline): widths are never
 * exceeded, every operation is drawn, idle time is compressed, the witness
 * is flagged, labels are cut with "…", bad event lines are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/timeline.h"
#include "core/timeline_events.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <stdio.h>
#include <unistd.h>

#define MS 1000000LL

static void add(struct timeline *t, int i, const char *p, const char *f, const char *v,
		const char *r, enum tl_outcome o, int64_t a, int64_t b)
{
	struct tl_op op = {i, p, f, v, r, o, a, b};
	assert_int_equal(timeline_add_op(t, &op), 0);
}

/* The stale-read story: A writes 1 and is acknowledged, B reads 0. */
static struct timeline *story(void)
{
	struct timeline *t = timeline_new();
	add(t, 0, "A", "write", "1", NULL, TL_OK, 10 * MS, 18 * MS);
	add(t, 1, "B", "read", NULL, "0", TL_OK, 20 * MS, 21 * MS);
	add(t, 2, "B", "sync-read", NULL, "1", TL_OK, 22 * MS, 400 * MS);
	add(t, 3, "B", "write", "2", NULL, TL_INFO, 401 * MS, 0);
	assert_int_equal(timeline_add_mark(t, "relay", 9 * MS, "holds zk2->zk1"), 0);
	int w[] = {0, 1};
	timeline_add_checker(t, "linearizable", "invalid", "B read 0 after write 1", w, 2);
	return t;
}

/* Every row is exactly width cells, and the cells' text is as wide. */
static void assert_fits(const struct tl_picture *p, int width)
{
	assert_int_equal(p->width, width);
	for (size_t r = 0; r < p->n; r++) {
		char *s = timeline_row_text(p, r);
		assert_true(utf8_width(s, strlen(s)) <= width);
		assert_true(utf8_valid(s, strlen(s)));
		free(s);
		int cols = 0;
		for (int x = 0; x < width; x++) {
			const char *c = p->rows[r].cells[x].text;
			cols += *c ? utf8_width(c, strlen(c)) : 0;
		}
		assert_true(cols <= width);
	}
}

/* Every bar's first cell is drawn with TL_A_BAR in its row. */
static void assert_all_visible(const struct timeline *t, int width)
{
	struct tl_layout *l;
	assert_int_equal(timeline_layout(t, width, "en", &l), 0);
	assert_int_equal(l->nbars, timeline_nops(t));
	struct tl_picture *p = timeline_draw(l);
	for (size_t i = 0; i < l->nbars; i++) {
		const struct tl_bar *b = &l->bars[i];
		assert_true(b->x0 >= 0 && b->x1 >= b->x0 && b->x1 < l->area);
		const struct tl_cell *c = &p->rows[2 + b->row].cells[l->name_cols + b->x0];
		assert_true(c->attr & TL_A_BAR);
	}
	/* no two bars of one row overlap */
	for (size_t i = 0; i < l->nbars; i++)
		for (size_t j = i + 1; j < l->nbars; j++)
			if (l->bars[i].row == l->bars[j].row)
				assert_true(l->bars[i].x1 < l->bars[j].x0 ||
					    l->bars[j].x1 < l->bars[i].x0);
	timeline_picture_free(p);
	timeline_layout_free(l);
}

static void test_widths_never_exceeded(void **state)
{
	(void)state;
	struct timeline *t = story();
	for (int w = TL_MIN_WIDTH; w <= 200; w++) {
		struct tl_picture *p;
		assert_int_equal(timeline_render(t, w, w % 2 ? "zh" : "en", &p), 0);
		assert_fits(p, w);
		timeline_picture_free(p);
	}
	struct tl_picture *p = NULL;
	assert_int_equal(timeline_render(t, TL_MIN_WIDTH - 1, "en", &p), WB_ERANGE);
	assert_null(p);
	timeline_free(t);
}

/* Random histories of many short operations on a few processes, drawn at
 * narrow widths: still every op drawn, nothing overlapping, widths kept. */
static void test_every_op_visible(void **state)
{
	(void)state;
	srand(17);
	for (int round = 0; round < 60; round++) {
		struct timeline *t = timeline_new();
		int n = 1 + rand() % 80;
		int64_t now = 0;
		for (int i = 0; i < n; i++) {
			char p[8];
			snprintf(p, sizeof p, "c%d", rand() % 4);
			now += rand() % (round % 3 ? 50 * MS : 2 * MS);
			int64_t d = 1 + rand() % (5 * MS);
			enum tl_outcome o = rand() % 10 == 0 ? TL_INFO
					    : rand() % 8     ? TL_OK
							     : TL_FAIL;
			add(t, i, p, rand() % 2 ? "read" : "write", "1", "0", o, now, now + d);
			if (rand() % 5 == 0)
				assert_int_equal(timeline_add_mark(t, "zk1", now, "mark"), 0);
		}
		int widths[] = {TL_MIN_WIDTH, 40, 80, 133};
		for (size_t k = 0; k < sizeof widths / sizeof *widths; k++) {
			assert_all_visible(t, widths[k]);
			struct tl_picture *pic;
			assert_int_equal(timeline_render(t, widths[k], "en", &pic), 0);
			assert_fits(pic, widths[k]);
			timeline_picture_free(pic);
		}
		timeline_free(t);
	}
}

static int row_has(const struct tl_picture *p, const char *needle)
{
	for (size_t r = 0; r < p->n; r++) {
		char *s = timeline_row_text(p, r);
		int hit = strstr(s, needle) != NULL;
		free(s);
		if (hit)
			return 1;
	}
	return 0;
}

static void test_idle_compression(void **state)
{
	(void)state;
	/* two bursts an hour apart: one break, both bursts readable */
	struct timeline *t = timeline_new();
	add(t, 0, "c1", "write", "1", NULL, TL_OK, 0, 5 * MS);
	add(t, 1, "c2", "read", NULL, "1", TL_OK, 6 * MS, 7 * MS);
	add(t, 2, "c1", "write", "2", NULL, TL_OK, 3600000 * MS, 3600004 * MS);
	add(t, 3, "c2", "read", NULL, "2", TL_OK, 3600005 * MS, 3600009 * MS);
	struct tl_layout *l;
	assert_int_equal(timeline_layout(t, 80, "en", &l), 0);
	assert_int_equal(l->nbreaks, 1);
	assert_true(l->breaks[0].from == 7 * MS && l->breaks[0].to == 3600000 * MS);
	/* the second burst starts right after the break, not 99% to the right */
	assert_true(l->bars[2].x0 == l->breaks[0].x + TL_BREAK_COLS);
	assert_true(l->bars[0].x1 - l->bars[0].x0 >= 4);
	struct tl_picture *p = timeline_draw(l);
	assert_true(row_has(p, "≈"));
	assert_true(row_has(p, "┊"));
	assert_true(row_has(p, "3600000")); /* the tick after the break */
	assert_true(row_has(p, "each ≈ leaves out idle time (3599993 ms"));
	timeline_picture_free(p);
	timeline_layout_free(l);
	timeline_free(t);

	/* operations that overlap all the time: nothing is idle, no break */
	t = timeline_new();
	add(t, 0, "c1", "write", "1", NULL, TL_OK, 0, 1000 * MS);
	add(t, 1, "c2", "read", NULL, "1", TL_OK, 900 * MS, 3000 * MS);
	add(t, 2, "c3", "read", NULL, "1", TL_OK, 2900 * MS, 9000 * MS);
	assert_int_equal(timeline_layout(t, 80, "en", &l), 0);
	assert_int_equal(l->nbreaks, 0);
	p = timeline_draw(l);
	assert_false(row_has(p, "≈"));
	assert_true(row_has(p, "spacing between ticks is compressed"));
	timeline_picture_free(p);
	timeline_layout_free(l);
	timeline_free(t);
}

/* Regression (fuzz_timeline): a gap near INT64_MAX ns overflowed the
 * "longer than a tenth of the run" test, so the idle hour-long gap of a
 * huge time was not cut. */
static void test_huge_times(void **state)
{
	(void)state;
	struct timeline *t = timeline_new();
	add(t, 0, "c1", "write", "1", NULL, TL_OK, 0, 1);
	add(t, 1, "c1", "read", NULL, "1", TL_OK, 1200000000000000000LL, 1200000000000000001LL);
	struct tl_layout *l;
	assert_int_equal(timeline_layout(t, 80, "en", &l), 0);
	assert_int_equal(l->nbreaks, 1);
	timeline_layout_free(l);
	assert_all_visible(t, 80);
	timeline_free(t);
}

static void test_witness_flags(void **state)
{
	(void)state;
	struct timeline *t = story();
	assert_true(timeline_is_witness(t, 0));
	assert_true(timeline_is_witness(t, 1));
	assert_false(timeline_is_witness(t, 2));
	struct tl_layout *l;
	assert_int_equal(timeline_layout(t, 80, "en", &l), 0);
	struct tl_picture *p = timeline_draw(l);
	for (size_t i = 0; i < l->nbars; i++) {
		const struct tl_bar *b = &l->bars[i];
		int want = timeline_is_witness(t, (size_t)b->op);
		for (int x = b->x0; x <= b->x1; x++) {
			unsigned a = p->rows[2 + b->row].cells[l->name_cols + x].attr;
			assert_int_equal(!!(a & TL_A_WITNESS), want);
		}
	}
	/* the heavy glyphs mark it in plain text too, and the legend says so */
	assert_true(row_has(p, "┣"));
	assert_true(row_has(p, "operations #0 A write 1, #1 B read->0."));
	assert_true(row_has(p, "linearizable: invalid - B read 0 after write 1"));
	/* the info op is open to the right edge */
	const struct tl_bar *info = &l->bars[3];
	assert_true(info->open && info->x1 == l->area - 1);
	timeline_picture_free(p);
	timeline_layout_free(l);
	timeline_free(t);
}

static void test_label_truncation(void **state)
{
	(void)state;
	struct timeline *t = timeline_new();
	char longv[200];
	memset(longv, 'x', sizeof longv - 1);
	longv[sizeof longv - 1] = '\0';
	add(t, 0, "c1", "write", longv, NULL, TL_OK, 0, 10 * MS);
	add(t, 1, "c1", "read", NULL, "7", TL_OK, 11 * MS, 12 * MS);
	char *label = timeline_op_label(t, 1);
	assert_string_equal(label, "read->7");
	free(label);
	struct tl_layout *l;
	assert_int_equal(timeline_layout(t, 60, "en", &l), 0);
	struct tl_picture *p = timeline_draw(l);
	assert_true(row_has(p, "├write xxx"));
	assert_true(row_has(p, "x…"));
	assert_false(row_has(p, longv));
	assert_true(row_has(p, "read->7")); /* the short one is whole */
	timeline_picture_free(p);
	timeline_layout_free(l);
	char *cut = timeline_fit("日本語ab", 5);
	assert_string_equal(cut, "日本…");
	free(cut);
	timeline_free(t);
}

/* Lane names and labels are sanitised: an ESC in a lane name is drawn as
 * its placeholder; a double-width name keeps its columns. */
static void test_sanitised_and_wide(void **state)
{
	(void)state;
	struct timeline *t = timeline_new();
	add(t, 0, "c\x1b]0;x", "写", "值", NULL, TL_OK, 0, 10 * MS);
	assert_int_equal(timeline_add_mark(t, "服务器", 5 * MS, "丢失的回复"), 0);
	struct tl_picture *p;
	assert_int_equal(timeline_render(t, 30, "zh", &p), 0);
	assert_fits(p, 30);
	assert_true(row_has(p, "c␛]0;x"));
	assert_true(row_has(p, "服务器"));
	assert_true(row_has(p, "毫秒"));
	timeline_picture_free(p);
	timeline_free(t);
}

static void test_bad_ops(void **state)
{
	(void)state;
	struct timeline *t = timeline_new();
	struct tl_op bad = {0, "", "read", NULL, NULL, TL_OK, 0, 1};
	assert_int_equal(timeline_add_op(t, &bad), WB_EINVAL);
	struct tl_op back = {0, "c1", "read", NULL, NULL, TL_OK, 10, 5};
	assert_int_equal(timeline_add_op(t, &back), WB_EINVAL);
	assert_int_equal(timeline_add_mark(t, "", 1, "x"), WB_EINVAL);
	/* an empty timeline is one note */
	struct tl_picture *p;
	assert_int_equal(timeline_render(t, 40, "en", &p), 0);
	assert_true(row_has(p, "No operations or marks were recorded."));
	timeline_picture_free(p);
	timeline_free(t);
}

static void test_events(void **state)
{
	(void)state;
	struct tl_events *e = tl_events_new();
	char err[256];
	const char *good[] = {
		"{\"t\":\"op\",\"i\":1,\"p\":\"c1\",\"type\":\"invoke\",\"f\":\"write\",\"v\":"
		"\"1\","
		"\"ns\":100}",
		"{\"t\":\"op\",\"i\":2,\"p\":\"c2\",\"type\":\"invoke\",\"f\":\"read\",\"ns\":150}",
		"{\"t\":\"op\",\"i\":1,\"p\":\"c1\",\"type\":\"ok\",\"f\":\"write\",\"ns\":200}",
		"{\"t\":\"mark\",\"lane\":\"proxy\",\"text\":\"reply dropped\",\"ns\":160}",
		"{\"t\":\"checker\",\"name\":\"lin\",\"result\":\"invalid\",\"witness\":[1]}",
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		assert_int_equal(tl_events_feed(e, good[i], err, sizeof err), 1);
	assert_int_equal(tl_events_feed(e, "{\"t\":\"step\",\"text\":\"x\"}", err, sizeof err), 0);
	assert_int_equal(tl_events_feed(e, "not json", err, sizeof err), 0);
	assert_int_equal(tl_events_count(e), 5);
	struct {
		const char *line, *why;
	} bad[] = {
		{"{\"t\":\"op\",\"i\":9,\"p\":\"c1\",\"type\":\"ok\",\"f\":\"read\",\"ns\":5}",
		 "never invoked"},
		{"{\"t\":\"op\",\"i\":1,\"p\":\"c1\",\"type\":\"invoke\",\"f\":\"read\",\"ns\":5}",
		 "invoked twice"},
		{"{\"t\":\"op\",\"i\":1,\"p\":\"c1\",\"type\":\"ok\",\"f\":\"read\",\"ns\":500}",
		 "completes twice"},
		{"{\"t\":\"op\",\"i\":2,\"p\":\"c2\",\"type\":\"ok\",\"f\":\"read\",\"ns\":10}",
		 "before its invocation"},
		{"{\"t\":\"op\",\"i\":3,\"p\":\"c2\",\"type\":\"invoke\",\"f\":\"read\",\"ns\":-1}",
		 "non-negative"},
		{"{\"t\":\"op\",\"i\":3,\"type\":\"invoke\",\"f\":\"read\",\"ns\":1}", "\"p\""},
		{"{\"t\":\"op\",\"i\":3,\"p\":\"c\",\"type\":\"maybe\",\"f\":\"read\",\"ns\":1}",
		 "unknown type"},
		{"{\"t\":\"op\",\"p\":\"c\",\"type\":\"invoke\",\"f\":\"read\",\"ns\":1}", "\"i\""},
		{"{\"t\":\"mark\",\"text\":\"x\",\"ns\":1}", "\"lane\""},
		{"{\"t\":\"checker\",\"name\":\"x\",\"witness\":[\"a\"]}", "witness"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err[0] = '\0';
		assert_int_equal(tl_events_feed(e, bad[i].line, err, sizeof err), WB_EINVAL);
		if (!strstr(err, bad[i].why))
			fail_msg("line %zu: '%s' does not say '%s'", i, err, bad[i].why);
	}
	assert_int_equal(tl_events_count(e), 5);
	struct timeline *t = tl_events_timeline(e);
	assert_int_equal(timeline_nops(t), 2);
	assert_int_equal(timeline_nmarks(t), 1);
	assert_int_equal(timeline_op(t, 1)->outcome, TL_PENDING);
	assert_true(timeline_is_witness(t, 0));
	assert_false(timeline_is_witness(t, 1));
	struct tl_layout *l;
	assert_int_equal(timeline_layout(t, 80, "en", &l), 0);
	/* lanes in order of first appearance: c1, c2, proxy */
	assert_int_equal(l->nlanes, 3);
	assert_string_equal(l->lanes[0].name, "c1");
	assert_string_equal(l->lanes[1].name, "c2");
	assert_string_equal(l->lanes[2].name, "proxy");
	assert_true(l->bars[1].open);
	timeline_layout_free(l);
	timeline_free(t);
	tl_events_free(e);
}

/* Many ids, negative and huge among them, completed in another order
 * than invoked: every completion finds its invocation (the id table grows
 * several times on the way). */
static void test_events_many(void **state)
{
	(void)state;
	struct tl_events *e = tl_events_new();
	char line[256], err[256];
	enum { N = 5000 };
	for (int i = 0; i < N; i++) {
		long long id = (i % 3 == 0 ? -1LL : 1LL) * (long long)i * 1000003LL;
		snprintf(line, sizeof line,
			 "{\"t\":\"op\",\"i\":%lld,\"p\":\"c%d\",\"type\":\"invoke\","
			 "\"f\":\"read\",\"ns\":%d}",
			 id, i % 7, i);
		assert_int_equal(tl_events_feed(e, line, err, sizeof err), 1);
	}
	for (int k = 0; k < N; k++) {
		int i = (k * 7919) % N; /* 7919 is prime to N: every i once */
		long long id = (i % 3 == 0 ? -1LL : 1LL) * (long long)i * 1000003LL;
		snprintf(line, sizeof line,
			 "{\"t\":\"op\",\"i\":%lld,\"p\":\"c\",\"type\":\"ok\",\"f\":\"read\","
			 "\"r\":\"1\",\"ns\":%d}",
			 id, N + k);
		if (tl_events_feed(e, line, err, sizeof err) != 1)
			fail_msg("completion of %lld: %s", id, err);
	}
	struct timeline *t = tl_events_timeline(e);
	assert_int_equal(timeline_nops(t), N);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(timeline_op(t, i)->outcome, TL_OK);
	timeline_free(t);
	tl_events_free(e);
}

static void test_events_file(void **state)
{
	(void)state;
	struct timeline *t = NULL;
	char err[512];
	assert_int_equal(
		tl_events_load(WB_TEST_FIXTURES "/timeline/stale-read.jsonl", &t, err, sizeof err),
		0);
	assert_int_equal(timeline_nops(t), 7);
	assert_true(timeline_is_witness(t, 0) && timeline_is_witness(t, 1));
	struct tl_picture *p;
	assert_int_equal(timeline_render(t, 80, "en", &p), 0);
	assert_fits(p, 80);
	assert_true(row_has(p, "read->0"));
	assert_true(row_has(p, "write 2->?"));
	timeline_picture_free(p);
	timeline_free(t);

	char path[] = "/tmp/test_timeline_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("{\"t\":\"step\",\"text\":\"x\"}\n\n{\"t\":\"op\",\"i\":1}\n", f);
	fclose(f);
	assert_int_equal(tl_events_load(path, &t, err, sizeof err), WB_EINVAL);
	assert_non_null(strstr(err, ":3: "));
	f = fopen(path, "w");
	fputs("{\"t\":\"step\",\"text\":\"x\"}\nthis is no event\n", f);
	fclose(f);
	assert_int_equal(tl_events_load(path, &t, err, sizeof err), WB_EINVAL);
	assert_non_null(strstr(err, ":2: not a JSON event object"));
	unlink(path);
	assert_int_equal(tl_events_load("/nonexistent/x.jsonl", &t, err, sizeof err), WB_ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths_never_exceeded),
		cmocka_unit_test(test_every_op_visible),
		cmocka_unit_test(test_idle_compression),
		cmocka_unit_test(test_huge_times),
		cmocka_unit_test(test_witness_flags),
		cmocka_unit_test(test_label_truncation),
		cmocka_unit_test(test_sanitised_and_wide),
		cmocka_unit_test(test_bad_ops),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_events_many),
		cmocka_unit_test(test_events_file),
	};
	return cmocka_run_group_tests_name("timeline", tests, NULL, NULL);
}
