/* test_layout.c - the width invariant, CJK wrapping, tables, anchors and
 * search, on the fixture chapters and on small hand-made inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "core/layout.h"
#include "core/lesson.h"
#include "core/utf8.h"
#include "core/labcat.h"

/* The catalogue core sees (the application installs labs/catalog.def's;
 * a unit test of core installs its own). */
static const struct labcat_entry fixture_catalogue[] = {
	{"zk-create-lost", "01", "zk-create-lost (en)", "zk-create-lost (zh)", 1},
};

static struct lesson *parse(const char *md, const char *lang)
{
	struct lesson *l = NULL;
	assert_int_equal(lesson_parse("00-test", lang, md, strlen(md), &l), 0);
	return l;
}

static struct lesson *fixture(const char *lang)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/lessons/%s/00-fixture.md", WB_TEST_FIXTURES, lang);
	struct lesson *l = NULL;
	assert_int_equal(lesson_load(path, "00-fixture", lang, &l), 0);
	return l;
}

static uint32_t first_cp(const struct lay_line *l, size_t skip_cols)
{
	size_t i = 0;
	size_t cols = 0;
	uint32_t cp = 0;
	while (i < l->len) {
		i += utf8_decode(l->text + i, l->len - i, &cp);
		if (cols >= skip_cols)
			return cp;
		cols += (size_t)utf8_cp_width(cp);
	}
	return 0;
}

/* Every width from 20 to 200: no line wider than the width, and the
 * recorded width equals the measured one. */
static void test_width_invariant(void **state)
{
	(void)state;
	const char *langs[] = {"en", "zh"};
	for (int li = 0; li < 2; li++) {
		struct lesson *l = fixture(langs[li]);
		for (int w = 20; w <= 200; w++) {
			struct layout *lay = layout_build(l, w);
			assert_true(lay->nlines > 20);
			for (size_t i = 0; i < lay->nlines; i++) {
				int mw = utf8_width(lay->lines[i].text, lay->lines[i].len);
				assert_int_equal(mw, lay->lines[i].width);
				if (mw > w)
					fail_msg("%s width %d line %zu is %d wide: %s", langs[li],
						 w, i, mw, lay->lines[i].text);
			}
			layout_free(lay);
		}
		lesson_free(l);
	}
}

static void test_cjk_wrapping(void **state)
{
	(void)state;
	/* 30 ideographs with a comma at position 10: at width 20 (10 per line)
	 * the comma must not start line 2; it travels with the char before. */
	struct lesson *l =
		parse("一二三四五六七八九十，一二三四五六七八九十一二三四五六七八九十\n", "zh");
	struct layout *lay = layout_build(l, 20);
	assert_true(lay->nlines >= 3);
	for (size_t i = 0; i < lay->nlines; i++) {
		assert_true(lay->lines[i].width <= 20);
		assert_false(utf8_no_break_before(first_cp(&lay->lines[i], 0)));
	}
	/* Chinese breaks between characters: the first line is full. */
	assert_int_equal(lay->lines[0].width, 18);
	layout_free(lay);
	lesson_free(l);

	/* English breaks between words, never inside one that fits. */
	l = parse("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda\n", "en");
	lay = layout_build(l, 20);
	for (size_t i = 0; i < lay->nlines; i++) {
		const char *t = lay->lines[i].text;
		assert_true(t[0] != ' ');
		assert_true(t[strlen(t) - 1] != ' ');
	}
	assert_string_equal(lay->lines[0].text, "alpha beta gamma");
	layout_free(lay);
	lesson_free(l);

	/* Mixed: English word then Chinese: may break at the boundary. */
	l = parse("ZooKeeper 的 session 过期以后，临时节点会被删除。\n", "zh");
	lay = layout_build(l, 20);
	for (size_t i = 0; i < lay->nlines; i++) {
		assert_true(lay->lines[i].width <= 20);
		assert_false(utf8_no_break_before(first_cp(&lay->lines[i], 0)));
		assert_null(strstr(lay->lines[i].text, "Zoo\n"));
	}
	assert_non_null(strstr(lay->lines[0].text, "ZooKeeper"));
	layout_free(lay);
	lesson_free(l);
}

static void test_punctuation_every_width(void **state)
{
	(void)state;
	struct lesson *l = fixture("zh");
	for (int w = 20; w <= 120; w++) {
		struct layout *lay = layout_build(l, w);
		for (size_t i = 0; i < lay->nlines; i++) {
			const struct lay_line *ln = &lay->lines[i];
			if (ln->kind != LK_TEXT || !ln->len)
				continue;
			/* Skip list/quote prefixes: look at the first text glyph. */
			size_t skip = 0;
			const char *t = ln->text;
			while (!strncmp(t, "│ ", 4) || !strncmp(t, "• ", 4) ||
			       !strncmp(t, "◦ ", 4) || !strncmp(t, "  ", 2)) {
				size_t adv = t[0] == ' ' ? 2 : 4;
				t += adv;
				skip += 2;
			}
			uint32_t cp = first_cp(ln, skip);
			if (utf8_no_break_before(cp))
				fail_msg("width %d line %zu starts with punctuation: %s", w, i,
					 ln->text);
		}
		layout_free(lay);
	}
	lesson_free(l);
}

static void test_combining_and_invalid(void **state)
{
	(void)state;
	struct lesson *l = parse("bad \xFF\xFE bytes and e\xCC\x81 and a\xE2\x80\x8B"
				 "b\n",
				 "en");
	struct layout *lay = layout_build(l, 40);
	assert_int_equal(lay->nlines, 1);
	assert_non_null(strstr(lay->lines[0].text, "\xEF\xBF\xBD\xEF\xBF\xBD"));
	assert_non_null(strstr(lay->lines[0].text, "e\xCC\x81"));
	assert_int_equal(lay->lines[0].width, utf8_width(lay->lines[0].text, lay->lines[0].len));
	layout_free(lay);
	lesson_free(l);

	/* Control characters never reach the screen. */
	l = parse("a\x01"
		  "b\x1b[31mc\n",
		  "en");
	lay = layout_build(l, 40);
	assert_null(strchr(lay->lines[0].text, '\x1b'));
	assert_null(strchr(lay->lines[0].text, '\x01'));
	layout_free(lay);
	lesson_free(l);
}

static void test_tables(void **state)
{
	(void)state;
	struct lesson *l = fixture("en");
	/* Wide enough: a grid whose lines all have the same width. */
	struct layout *lay = layout_build(l, 120);
	int grid = -1;
	for (size_t i = 0; i < lay->nlines; i++)
		if (lay->lines[i].kind == LK_TABLE && !strncmp(lay->lines[i].text, "┌", 3)) {
			grid = (int)i;
			break;
		}
	assert_true(grid >= 0);
	int w = lay->lines[grid].width;
	for (size_t i = (size_t)grid; i < lay->nlines && lay->lines[i].kind == LK_TABLE; i++)
		assert_int_equal(lay->lines[i].width, w);
	assert_true(w <= 120);
	layout_free(lay);

	/* Too narrow for a grid: header: value records, still within width. */
	lay = layout_build(l, 24);
	int records = 0;
	for (size_t i = 0; i < lay->nlines; i++) {
		assert_true(lay->lines[i].width <= 24);
		if (lay->lines[i].kind == LK_TABLE && !strncmp(lay->lines[i].text, "Field: ", 7))
			records++;
	}
	assert_int_equal(records, 3);
	layout_free(lay);
	lesson_free(l);

	/* A long cell wraps inside its column. */
	l = parse(
		"| a | b |\n|---|---|\n| x | one two three four five six seven eight nine ten |\n",
		"en");
	lay = layout_build(l, 30);
	int rows = 0;
	for (size_t i = 0; i < lay->nlines; i++)
		if (!strncmp(lay->lines[i].text, "│ x", 4) ||
		    !strncmp(lay->lines[i].text, "│  ", 4))
			rows++;
	assert_true(rows >= 2);
	layout_free(lay);
	lesson_free(l);
}

static void test_sections_links_labs(void **state)
{
	(void)state;
	struct lesson *l = fixture("en");
	assert_string_equal(l->title, "Fixture chapter: every element the reader draws");
	struct layout *lay = layout_build(l, 80);
	assert_int_equal(lay->nsections, 4);
	assert_string_equal(lay->sections[2].title, "Tables");
	assert_non_null(strstr(lay->lines[lay->sections[2].line].text, "Tables"));
	int link = 0, lab = 0, unknown = 0;
	for (size_t i = 0; i < lay->nlines; i++) {
		if (strstr(lay->lines[i].text, "<https://zookeeper.apache.org/>"))
			link = 1;
		if (lay->lines[i].kind == LK_LAB && strstr(lay->lines[i].text, "zk-create-lost"))
			lab = 1;
		if (strstr(lay->lines[i].text, "Unknown lab id"))
			unknown = 1;
	}
	assert_true(link);
	assert_true(lab);
	assert_true(unknown);
	assert_int_equal(lay->nlabs, 2);
	layout_free(lay);
	lesson_free(l);
}

static void test_anchor_across_widths(void **state)
{
	(void)state;
	struct lesson *l = fixture("en");
	struct layout *a = layout_build(l, 80);
	/* The Tables heading at 80 is the Tables heading at 33. */
	size_t at = (size_t)a->sections[2].line;
	struct layout *b = layout_build(l, 33);
	size_t back = layout_find_anchor(b, a->lines[at].block, a->lines[at].offset);
	assert_string_equal(b->lines[back].text, "Tables");
	/* Same width: exact line, blank lines included. */
	for (size_t i = 0; i < a->nlines; i++) {
		size_t j = layout_find_anchor(a, a->lines[i].block, a->lines[i].offset);
		if (a->lines[i].kind == LK_BLANK || a->lines[i].kind == LK_TABLE ||
		    a->lines[i].kind == LK_LAB)
			continue; /* several lines share one anchor there */
		assert_int_equal(j, i);
	}
	layout_free(a);
	layout_free(b);
	lesson_free(l);
}

static void test_search(void **state)
{
	(void)state;
	struct lesson *l = fixture("en");
	struct layout *lay = layout_build(l, 80);
	struct lay_hit *hits;
	size_t n = layout_search(lay, "zookeeper", &hits);
	assert_true(n >= 3);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(
			strncasecmp(lay->lines[hits[i].line].text + hits[i].start, "ZooKeeper", 9),
			0);
	free(hits);
	assert_int_equal(layout_search(lay, "no such text anywhere", &hits), 0);
	assert_null(hits);
	layout_free(lay);
	lesson_free(l);
}

/* Regression: containers nested deeper than the prefix array (32) read
 * past it (exit 139 in cli/bad_input). */
static void test_deep_nesting(void **state)
{
	(void)state;
	char md[32768];
	size_t n = 0;
	n += (size_t)snprintf(md + n, sizeof md - n, "# Deep\n\n");
	for (int i = 0; i < 80; i++)
		n += (size_t)snprintf(md + n, sizeof md - n, "%*s- level %d\n", i * 2, "", i);
	n += (size_t)snprintf(md + n, sizeof md - n, "\n");
	for (int i = 0; i < 80; i++) {
		for (int k = 0; k < i; k++)
			n += (size_t)snprintf(md + n, sizeof md - n, "> ");
		n += (size_t)snprintf(md + n, sizeof md - n, "q%d\n", i);
	}
	struct lesson *l = parse(md, "en");
	for (int w = 20; w <= 80; w += 7) {
		struct layout *lay = layout_build(l, w);
		int found = 0;
		for (size_t i = 0; i < lay->nlines; i++) {
			assert_true(lay->lines[i].width <= w);
			found |= strstr(lay->lines[i].text, "level 79") != NULL;
		}
		assert_true(found);
		layout_free(lay);
	}
	lesson_free(l);
}

/* md of "# Deep\n\n" then unit repeated n times then tail; caller frees. */
static char *repeated(const char *unit, int n, const char *tail)
{
	size_t ul = strlen(unit), tl = strlen(tail);
	char *md = malloc(8 + ul * (size_t)n + tl + 1);
	assert_non_null(md);
	memcpy(md, "# Deep\n\n", 8);
	for (int i = 0; i < n; i++)
		memcpy(md + 8 + ul * (size_t)i, unit, ul);
	memcpy(md + 8 + ul * (size_t)n, tail, tl + 1);
	return md;
}

/* #20 F2: 30,000 nested quotes, 25,000 nested list items (50 KB of
 * "- "), ordered lists, quotes of lists, nested images and emphasis: the
 * layout used to recurse once per level and overflowed the stack (rc 139;
 * 10,000 under ASan).  Now deeper than LESSON_MAX_NESTING is laid out
 * flat: the text is there, no line is too wide, lesson_too_deep finds it. */
static void test_nesting_bound(void **state)
{
	(void)state;
	struct {
		const char *unit, *tail;
		int n;
	} cases[] = {
		{">", " bottom\n", 30000},   {"- ", "bottom\n", 25000},
		{"1. ", "bottom\n", 20000},  {"> - ", "bottom\n", 15000},
		{"* > ", "bottom\n", 15000}, {"![", "bottom", 30000},
		{"*", "bottom", 40000},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		char *md = repeated(cases[k].unit, cases[k].n, cases[k].tail);
		if (cases[k].unit[0] == '!') {
			/* close every bracket: images nested n deep */
			size_t len = strlen(md);
			md = realloc(md, len + 5 * (size_t)cases[k].n + 2);
			for (int i = 0; i < cases[k].n; i++)
				memcpy(md + len + 5 * (size_t)i, "](u) ", 5);
			strcpy(md + len + 5 * (size_t)cases[k].n, "\n");
		} else if (cases[k].unit[0] == '*' && cases[k].unit[1] == '\0') {
			size_t len = strlen(md);
			md = realloc(md, len + (size_t)cases[k].n + 2);
			memset(md + len, '*', (size_t)cases[k].n);
			strcpy(md + len + cases[k].n, "\n");
		}
		struct lesson *l = parse(md, "en");
		assert_non_null(lesson_too_deep(l->doc));
		for (int w = 20; w <= 80; w += 60) {
			struct layout *lay = layout_build(l, w);
			int found = 0;
			for (size_t i = 0; i < lay->nlines; i++) {
				assert_true(lay->lines[i].width <= w);
				found |= strstr(lay->lines[i].text, "bottom") != NULL;
			}
			assert_true(found);
			layout_free(lay);
		}
		lesson_free(l);
		free(md);
	}
	/* At the bound nothing is flattened and nothing is reported. */
	char *md = repeated(">", LESSON_MAX_NESTING, " ok\n");
	struct lesson *l = parse(md, "en");
	assert_null(lesson_too_deep(l->doc));
	lesson_free(l);
	free(md);
	md = repeated(">", LESSON_MAX_NESTING + 1, " ok\n");
	l = parse(md, "en");
	assert_non_null(lesson_too_deep(l->doc));
	assert_int_equal(lesson_node_line(lesson_too_deep(l->doc)), 3);
	lesson_free(l);
	free(md);
}

/* #20 F5: a 100 x 19,000 table (3.8 MB) took 3.85 GB and 14.8 s.  Tables
 * past LESSON_MAX_TABLE_CELLS are cut before cmark sees them: the rows
 * that fit stay, a notice names the table's line and the limit, later
 * tables go too, and fenced pipes are not tables. */
static void test_table_budget(void **state)
{
	(void)state;
	struct wb_buf_like {
		char *p;
		size_t n, cap;
	} b = {0};
	b.cap = 8u << 20;
	b.p = malloc(b.cap);
	assert_non_null(b.p);
#define PUT(s) (memcpy(b.p + b.n, (s), strlen(s)), b.n += strlen(s))
	PUT("# Cells\n\n```\n| a | b |\n|---|---|\n```\n\nsmall:\n\n| x | y |\n|---|---|\n| 1 | 2 "
	    "|\n\n");
	PUT("> | h");
	for (int c = 1; c < 100; c++)
		PUT(" | h");
	PUT(" |\n> |");
	for (int c = 0; c < 100; c++)
		PUT("---|");
	PUT("\n");
	for (int r = 0; r < 19000; r++) {
		PUT("> |");
		for (int c = 0; c < 100; c++)
			PUT("v|");
		PUT("\n");
	}
	PUT("\nafter the table\n\n| late | table |\n|---|---|\n| 1 | 2 |\n\nthe end\n");
#undef PUT
	struct lesson *l = NULL;
	assert_int_equal(lesson_parse("00-test", "en", b.p, b.n, &l), 0);
	assert_int_equal(l->cut_line, 14);
	assert_int_equal(l->cut_cells, 1900100); /* 19,001 rows with the header */
	struct layout *lay = layout_build(l, 80);
	int notices = 0, late = 0, end = 0, after = 0;
	size_t rows = 0;
	for (size_t i = 0; i < lay->nlines; i++) {
		const char *t = lay->lines[i].text;
		notices += strstr(t, "Table cut here") != NULL;
		late |= strstr(t, "late") != NULL;
		end |= strstr(t, "the end") != NULL;
		after |= strstr(t, "after the table") != NULL;
		rows += lay->lines[i].kind == LK_TABLE;
	}
	assert_int_equal(notices, 2);
	assert_false(late);
	assert_true(end && after);
	assert_true(rows > 7000 && rows < 20000); /* 100 rows of 100 records */
	layout_free(lay);
	lesson_free(l);

	/* A table in a list item counts too. */
	b.n = 0;
	memcpy(b.p, "# T\n\n- | a | b |\n  |---|---|\n", 30);
	b.n = 30;
	for (int r = 0; r < 20000; r++) {
		memcpy(b.p + b.n, "  | 1 | 2 |\n", 12);
		b.n += 12;
	}
	assert_int_equal(lesson_parse("00-test", "en", b.p, b.n, &l), 0);
	assert_int_equal(l->cut_line, 3);
	lesson_free(l);

	/* Under the budget nothing is cut; pipes in a fence are no table. */
	const char *md = "# T\n\n```\n| a |\n|---|\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
	l = parse(md, "en");
	assert_int_equal(l->cut_line, 0);
	lesson_free(l);
	free(b.p);
}

static void test_real_lessons(void **state)
{
	(void)state;
	const char *ids[] = {"01-locks-ids-leases", "02-zookeeper-fencing"};
	const char *langs[] = {"en", "zh"};
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++) {
			char path[1024];
			snprintf(path, sizeof path, "%s/lessons/%s/%s.md", WB_SOURCE_DIR, langs[j],
				 ids[i]);
			struct lesson *l = NULL;
			if (lesson_load(path, ids[i], langs[j], &l) != 0)
				continue; /* chapters ship with issue 4 */
			int widths[] = {20, 60, 80, 120};
			for (int k = 0; k < 4; k++) {
				struct layout *lay = layout_build(l, widths[k]);
				for (size_t n = 0; n < lay->nlines; n++)
					assert_true(lay->lines[n].width <= widths[k]);
				layout_free(lay);
			}
			lesson_free(l);
		}
}

/* ---- line breaking on the shipped Chinese chapters ---------------------- */

/* Punctuation no line may start with (clreq: pause and stop marks,
 * closing brackets and quotes), written out here rather than taken from
 * the code under test. */
static int starts_badly(uint32_t cp)
{
	static const char closers[] = "，。、；：？！）」』】》〉〕］｝”’,;:!?)]}";
	for (size_t i = 0; closers[i];) {
		uint32_t c;
		i += utf8_decode(closers + i, strlen(closers + i), &c);
		if (c == cp)
			return 1;
	}
	return 0;
}

static int latin(uint32_t cp)
{
	return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
}

/* The faults of a layout: a line wider than width; a text line whose own
 * text starts with starts_badly punctuation; a line wrapped inside a run
 * of Latin letters and digits that is narrower than the line's room (so
 * it could have moved whole).  Returns how many; the first is described
 * in why. */
static int break_faults(const struct layout *lay, int width, char *why, size_t whylen)
{
	int n = 0;
	for (size_t i = 0; i < lay->nlines; i++) {
		const struct lay_line *l = &lay->lines[i];
		const char *what = NULL;
		if (l->width > width)
			what = "wider than the width";
		uint32_t first = 0;
		if (l->text_start < l->len)
			utf8_decode(l->text + l->text_start, l->len - l->text_start, &first);
		if (!what && (l->kind == LK_TEXT || l->kind == LK_HEADING) && starts_badly(first))
			what = "starts with closing punctuation";
		if (!what && l->joined && i > 0 && lay->lines[i - 1].block == l->block &&
		    latin(first)) {
			const struct lay_line *p = &lay->lines[i - 1];
			int run = 0;
			for (unsigned k = p->text_start; k < p->len;) {
				uint32_t cp;
				k += (unsigned)utf8_decode(p->text + k, p->len - k, &cp);
				run = latin(cp) ? run + 1 : 0;
			}
			for (unsigned k = l->text_start; k < l->len && latin((uint8_t)l->text[k]);
			     k++)
				run++;
			int room = width - utf8_width(l->text, l->text_start);
			const char *e = p->text + p->len;
			int prev_latin = p->len > 0 && latin((uint8_t)e[-1]);
			int split_number = p->len > 1 && strchr(".,:", e[-1]) &&
					   latin((uint8_t)e[-2]) && first >= '0' && first <= '9';
			if ((prev_latin && run < room) || split_number)
				what = "breaks a Latin word or number";
		}
		if (what && n++ == 0)
			snprintf(why, whylen, "line %zu %s: \"%s\" after \"%s\"", i, what, l->text,
				 i ? lay->lines[i - 1].text : "");
	}
	return n;
}

/* Both chapters in both languages at every width from 33 to 120 (the
 * reader's 40, 60, 80 and 100 among them): no fault at all.  Narrower,
 * an identifier with its punctuation ("findProtectedNodeInForeground）；")
 * is wider than the room, and one of the rules has to give. */
static void test_chapters_break_well(void **state)
{
	(void)state;
	const char *ids[] = {"01-locks-ids-leases", "02-zookeeper-fencing"};
	const char *langs[] = {"zh", "en"};
	for (int i = 0; i < 4; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/lessons/%s/%s.md", WB_SOURCE_DIR, langs[i / 2],
			 ids[i % 2]);
		struct lesson *l = NULL;
		assert_int_equal(lesson_load(path, ids[i % 2], langs[i / 2], &l), 0);
		for (int w = 33; w <= 120; w++) {
			struct layout *lay = layout_build(l, w);
			char why[1024] = "";
			if (break_faults(lay, w, why, sizeof why))
				fail_msg("%s/%s width %d: %s", langs[i / 2], ids[i % 2], w, why);
			layout_free(lay);
		}
		lesson_free(l);
	}
}

/* The check itself: each fault it names is found in a layout that has
 * it, and a clean one passes. */
static void test_break_faults_found(void **state)
{
	(void)state;
	struct {
		const char *a, *b;
		int joined, width;
	} cases[] = {
		{"一二三四五", "，六七", 1, 12},    /* closing punctuation */
		{"会话 ZooKee", "per 过期", 1, 12}, /* a word that fits, split */
		{"版本 10,", "000 号", 1, 12},	    /* a number split */
		{"一二三四五六七", "八", 1, 12},    /* 14 columns in 12 */
		{"会话 ZooKeeper", "过期", 1, 20},  /* clean: CJK after a word */
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct lay_line lines[2] = {{0}};
		const char *t[2] = {cases[k].a, cases[k].b};
		for (int i = 0; i < 2; i++) {
			lines[i].text = (char *)t[i];
			lines[i].len = (unsigned)strlen(t[i]);
			lines[i].width = utf8_width(t[i], lines[i].len);
			lines[i].kind = LK_TEXT;
		}
		lines[1].joined = cases[k].joined;
		struct layout lay = {.width = cases[k].width, .lines = lines, .nlines = 2};
		char why[1024];
		int faults = break_faults(&lay, cases[k].width, why, sizeof why);
		assert_int_equal(faults, k + 1 < sizeof cases / sizeof *cases ? 1 : 0);
	}
}

int main(void)
{
	labcat_init(fixture_catalogue, sizeof fixture_catalogue / sizeof fixture_catalogue[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width_invariant),
		cmocka_unit_test(test_cjk_wrapping),
		cmocka_unit_test(test_punctuation_every_width),
		cmocka_unit_test(test_combining_and_invalid),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_sections_links_labs),
		cmocka_unit_test(test_anchor_across_widths),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_nesting_bound),
		cmocka_unit_test(test_table_budget),
		cmocka_unit_test(test_real_lessons),
		cmocka_unit_test(test_chapters_break_well),
		cmocka_unit_test(test_break_faults_found),
	};
	return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
