/* test_lessonlint.c - lesson lint: title, unknown lab ids with their line,
 * labs missing from the build as warnings or (strict) errors; across
 * files: cross-chapter links (file and anchor), [[term]] links against
 * the glossary, glossary entries without a section link, en/zh parity of
 * sections and lab cards; GitHub heading slugs; the shipped lessons. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/content.h"
#include "core/lessonlint.h"
#include "core/lesson.h"
#include "core/labcat.h"
#include "base/wb.h"

#include <dirent.h>
#include <stdlib.h>

/* The catalogue core sees (the application installs labs/catalog.def's;
 * a unit test of core installs its own). */
static const struct labcat_entry fixture_catalogue[] = {
	{"zk-cas", "01", "zk-cas (en)", "zk-cas (zh)", 1},
	{"zk-herd", "01", "zk-herd (en)", "zk-herd (zh)", 1},
};

struct seen {
	int errors, warnings, last_line;
	char last[256];
};

static void collect(void *arg, enum lint_level level, const char *file, int line, int col,
		    const char *msg)
{
	(void)file;
	(void)col;
	struct seen *s = arg;
	if (level == LINT_ERROR)
		s->errors++;
	else
		s->warnings++;
	s->last_line = line;
	snprintf(s->last, sizeof s->last, "%s", msg);
}

static int only_zk_cas(const char *id)
{
	return !strcmp(id, "zk-cas");
}

static void test_clean(void **state)
{
	(void)state;
	const char *md = "# Title\n\n## S\n\n```lab\nzk-cas\n```\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 1, collect, &s), 0);
	assert_int_equal(s.errors + s.warnings, 0);
}

static void test_unknown_id_line(void **state)
{
	(void)state;
	const char *md = "# Title\n\ntext\n\n- item\n\n  ```lab\n  zk-cas\n  bogus-lab\n  ```\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 9);
	assert_non_null(strstr(s.last, "bogus-lab"));
}

static void test_not_built(void **state)
{
	(void)state;
	const char *md = "# Title\n\n```lab\nzk-herd\n```\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 0, collect, &s), 0);
	assert_int_equal(s.warnings, 1);
	memset(&s, 0, sizeof s);
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), only_zk_cas, 1, collect, &s), 1);
	assert_int_equal(s.last_line, 4);
}

static void test_title(void **state)
{
	(void)state;
	const char *md = "## Not a title\n\ntext\n";
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, strlen(md), NULL, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 1);
	const char *ok = "<!-- note -->\n# Title\n";
	memset(&s, 0, sizeof s);
	assert_int_equal(lessonlint_text("a.md", ok, strlen(ok), NULL, 0, collect, &s), 0);
}

/* ---- lessonlint_set ---- */

struct msgs {
	int errors, warnings;
	char all[4096]; /* "level line: msg" lines */
};

static void collect_all(void *arg, enum lint_level level, const char *file, int line, int col,
			const char *msg)
{
	(void)col;
	struct msgs *m = arg;
	if (level == LINT_ERROR)
		m->errors++;
	else
		m->warnings++;
	size_t used = strlen(m->all);
	snprintf(m->all + used, sizeof m->all - used, "%s %s:%d: %s\n",
		 level == LINT_ERROR ? "E" : "W", file, line, msg);
}

#define GLOSS_EN                                                                                   \
	"# Glossary\n\n## lease\n\nA right that lapses.\n\nSee: "                                  \
	"[S](01-a.md#second-section)\n\n## fencing token\n\nA number.\n\nSee: [T](01-a.md)\n"
#define GLOSS_ZH                                                                                              \
	"# 术语表\n\n## 租约（lease）\n\n会失效的权利。\n\n参见：[S](01-a.md#第二节)\n\n" \
	"## fencing 令牌（fencing token）\n\n一个数。\n\n参见：[T](01-a.md)\n"
#define CH_EN                                                                                      \
	"# A\n\n## First section\n\n```lab\nzk-cas\n```\n\n## Second section\n\nSee "              \
	"[[lease]] and [the other](#first-section).\n"
#define CH_ZH                                                                                      \
	"# 甲\n\n## 第一节\n\n```lab\nzk-cas\n```\n\n## 第二节\n\n见 [[租约]] 与 [[lease]]。\n"

/* Lints en/01-a.md (text en) against zh/01-a.md and both glossaries;
 * every file is a target. */
static void lint_set(const char *en, const char *zh, const char *gen, const char *gzh,
		     int strict_parity, struct msgs *m)
{
	struct lessonlint_doc d[] = {
		{"en/01-a.md", "en", "01-a.md", en, strlen(en), 1},
		{"zh/01-a.md", "zh", "01-a.md", zh, strlen(zh), 1},
		{"en/glossary.md", "en", "glossary.md", gen, strlen(gen), 1},
		{"zh/glossary.md", "zh", "glossary.md", gzh, strlen(gzh), 1},
	};
	struct lessonlint_opts o = {NULL, 0, strict_parity};
	memset(m, 0, sizeof *m);
	int errors = lessonlint_set(d, 4, &o, collect_all, m);
	assert_int_equal(errors, m->errors);
}

static void expect_one(const struct msgs *m, int is_error, const char *where, const char *text)
{
	if (m->errors + m->warnings != 1 || (is_error ? m->errors : m->warnings) != 1 ||
	    !strstr(m->all, where) || !strstr(m->all, text))
		fail_msg("want one %s at %s with '%s'; got:\n%s", is_error ? "error" : "warning",
			 where, text, m->all);
}

static void test_set_clean(void **state)
{
	(void)state;
	struct msgs m;
	lint_set(CH_EN, CH_ZH, GLOSS_EN, GLOSS_ZH, 1, &m);
	if (m.errors + m.warnings)
		fail_msg("%s", m.all);
}

static void test_link_missing_file(void **state)
{
	(void)state;
	struct msgs m;
	const char *en = CH_EN "\nAnd [gone](03-gone.md#x).\n";
	lint_set(en, CH_ZH, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "en/01-a.md:13:", "there is no 03-gone.md in lessons/en/");
}

static void test_link_missing_anchor(void **state)
{
	(void)state;
	struct msgs m;
	const char *en = CH_EN "\nAnd [x](01-a.md#no-such-heading) too.\n";
	lint_set(en, CH_ZH, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "en/01-a.md:13:", "has no heading with the anchor 'no-such-heading'");
	/* In-file anchors too, and the glossary's links. */
	const char *en2 = CH_EN "\n[y](#first)\n";
	lint_set(en2, CH_ZH, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "en/01-a.md:13:", "anchor 'first'");
	const char *g = "# G\n\n## lease\n\nX.\n\nSee: [S](01-a.md#second)\n\n## fencing "
			"token\n\nY.\n\nSee: [T](01-a.md)\n";
	lint_set(CH_EN, CH_ZH, g, GLOSS_ZH, 1, &m);
	assert_non_null(strstr(m.all, "E en/glossary.md:7: link to '01-a.md#second'"));
	/* Percent-encoded anchors and external links are fine. */
	const char *zh =
		CH_ZH "\n[z](01-a.md#%E7%AC%AC%E4%B8%80%E8%8A%82) [w](https://x.org/a.md#q)\n";
	lint_set(CH_EN, zh, GLOSS_EN, GLOSS_ZH, 1, &m);
	if (m.errors + m.warnings)
		fail_msg("%s", m.all);
}

static void test_term_not_in_glossary(void **state)
{
	(void)state;
	struct msgs m;
	const char *en = CH_EN "\nA [[lock domain]], and `[[in code]]` is no link.\n";
	lint_set(en, CH_ZH, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "en/01-a.md:13:", "[[lock domain]] is not a term of the glossary");
	/* The zh glossary answers to both names; the en one is not consulted. */
	const char *zh = CH_ZH "\n[[Fencing Token]] [[fencing 令牌]] [[会话]]\n";
	lint_set(CH_EN, zh, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "zh/01-a.md:13:", "[[会话]]");
}

static void test_glossary_entry_without_link(void **state)
{
	(void)state;
	struct msgs m;
	const char *g = GLOSS_EN "\n## quorum\n\nA majority, linked nowhere.\n";
	const char *gz =
		GLOSS_ZH "\n## 法定多数（quorum）\n\n多数。\n\n参见：[S](01-a.md#第一节)\n";
	lint_set(CH_EN, CH_ZH, g, gz, 1, &m);
	expect_one(&m, 1, "en/glossary.md:15:", "'quorum' links to no chapter section");
	/* A term only in one glossary: parity. */
	lint_set(CH_EN, CH_ZH, GLOSS_EN, gz, 1, &m);
	expect_one(&m, 1, "zh/glossary.md:15:", "'quorum' has no entry in the en glossary");
}

static void test_parity_sections(void **state)
{
	(void)state;
	struct msgs m;
	const char *zh = CH_ZH "\n## 第三节\n\n多一节。\n";
	lint_set(CH_EN, zh, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "en/01-a.md:1:", "2 ## sections here but 3 in the zh version");
	lint_set(CH_EN, zh, GLOSS_EN, GLOSS_ZH, 0, &m);
	expect_one(&m, 0, "en/01-a.md:1:", "2 ## sections here but 3");
}

static void test_parity_lab_cards(void **state)
{
	(void)state;
	struct msgs m;
	const char *en = CH_EN "\n```lab\nzk-herd\n```\n";
	lint_set(en, CH_ZH, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "en/01-a.md:14:", "2 lab cards here but 1 in the zh version");
	/* Same cards, other order. */
	const char *en2 = "# A\n\n## First section\n\n```lab\nzk-herd\nzk-cas\n```\n\n## Second "
			  "section\n";
	const char *zh2 = "# 甲\n\n## 第一节\n\n```lab\nzk-cas\nzk-herd\n```\n\n## 第二节\n";
	lint_set(en2, zh2, GLOSS_EN, GLOSS_ZH, 1, &m);
	expect_one(&m, 1, "en/01-a.md:6:", "lab card 1 is 'zk-herd' here but 'zk-cas'");
}

static void test_slugs(void **state)
{
	(void)state;
	static const char *cases[][2] = {
		{"Three places where \"the lock\" lives", "three-places-where-the-lock-lives"},
		{"Updates have one order; plain reads can still be stale",
		 "updates-have-one-order-plain-reads-can-still-be-stale"},
		{"A lost create reply: recover, never blindly re-create",
		 "a-lost-create-reply-recover-never-blindly-re-create"},
		{"任务表：due、state、claim、lease、attempt 各管什么",
		 "任务表duestateclaimleaseattempt-各管什么"},
		{"三份状态，三个时钟", "三份状态三个时钟"},
		{"snake_case and `code`", "snake_case-and-code"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = content_heading_slug(cases[i][0]);
		assert_string_equal(s, cases[i][1]);
		free(s);
	}
	struct glossary g;
	const char *md =
		"# G\n\n## 会话（session）\n\nx\n\n## ReadIndex 读 (ReadIndex)\n\n## zxid\n";
	content_glossary_parse(md, strlen(md), &g);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.e[0].term, "会话");
	assert_string_equal(g.e[0].alt, "session");
	assert_string_equal(g.e[1].alt, "ReadIndex");
	assert_null(g.e[2].alt);
	assert_int_equal(g.e[2].line, 9);
	assert_int_equal(content_glossary_find(&g, " SESSION "), 0);
	assert_int_equal(content_glossary_find(&g, "会话"), 0);
	assert_int_equal(content_glossary_find(&g, "Zxid"), 2);
	assert_int_equal(content_glossary_find(&g, "zx"), -1);
	glossary_free(&g);
}

/* Everything but lab and exercise ids, which need the real catalogues
 * (test_catalog). */
static void collect_no_labs(void *arg, enum lint_level level, const char *file, int line, int col,
			    const char *msg)
{
	if (!strstr(msg, "unknown lab id") && !strstr(msg, "unknown exercise id"))
		collect_all(arg, level, file, line, col, msg);
}

/* The shipped lessons and glossaries: no errors (parity as warnings
 * while the chapters are rewritten; see cli/lesson_lint.c). */
static void test_shipped_lessons(void **state)
{
	(void)state;
	struct lessonlint_doc d[64];
	char *bufs[64 * 3];
	size_t n = 0, nb = 0;
	const char *langs[] = {"en", "zh"};
	for (int k = 0; k < 2; k++) {
		char *dir = wb_xasprintf("%s/lessons/%s", WB_SOURCE_DIR, langs[k]);
		DIR *dh = opendir(dir);
		assert_non_null(dh);
		struct dirent *e;
		while ((e = readdir(dh)) && n < 64) {
			size_t l = strlen(e->d_name);
			if (l < 4 || strcmp(e->d_name + l - 3, ".md"))
				continue;
			char *path = wb_xasprintf("%s/%s", dir, e->d_name);
			char *text;
			size_t len;
			assert_int_equal(wb_read_file(path, &text, &len), 0);
			char *name = wb_xstrdup(e->d_name);
			d[n++] = (struct lessonlint_doc){path, langs[k], name, text, len, 1};
			bufs[nb++] = path;
			bufs[nb++] = text;
			bufs[nb++] = name;
		}
		closedir(dh);
		free(dir);
	}
	assert_true(n >= 6); /* two chapters and a glossary per language */
	struct msgs m = {0};
	struct lessonlint_opts o = {NULL, 0, 0};
	lessonlint_set(d, n, &o, collect_no_labs, &m);
	if (m.errors)
		fail_msg("%s", m.all);
	for (size_t i = 0; i < nb; i++)
		free(bufs[i]);
}

/* #20 F12: the file `lesson show` refuses (over LESSON_MAX_BYTES) is an
 * error; #20 F2: nesting the reader lays out flat is a warning at its
 * line, and the walk survives 30,000 levels. */
static void test_size_and_depth(void **state)
{
	(void)state;
	size_t big = LESSON_MAX_BYTES + 10;
	char *md = malloc(big);
	assert_non_null(md);
	memcpy(md, "# Title\n\n", 9);
	memset(md + 9, 'x', big - 10);
	md[big - 1] = '\n';
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, big, NULL, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 1);
	assert_non_null(strstr(s.last, "4 MiB"));

	size_t n = 30000;
	memcpy(md + 9, "text\n\n", 6);
	memset(md + 15, '>', n);
	memcpy(md + 15 + n, " deep\n", 6);
	memset(&s, 0, sizeof s);
	assert_int_equal(lessonlint_text("a.md", md, 15 + n + 6, NULL, 0, collect, &s), 0);
	assert_int_equal(s.warnings, 1);
	assert_int_equal(s.last_line, 5);
	assert_non_null(strstr(s.last, "nested deeper than"));
	free(md);
}

/* #20 F5: a table the reader cuts at the cell budget is an error at the
 * table's line. */
static void test_table_cut(void **state)
{
	(void)state;
	size_t rows = LESSON_MAX_TABLE_CELLS / 2 + 10, n = 0;
	char *md = malloc(64 + rows * 12);
	assert_non_null(md);
	n += (size_t)sprintf(md + n, "# Title\n\ntext\n\n| a | b |\n|---|---|\n");
	for (size_t i = 0; i < rows; i++)
		n += (size_t)sprintf(md + n, "| 1 | 2 |\n");
	struct seen s = {0};
	assert_int_equal(lessonlint_text("a.md", md, n, NULL, 0, collect, &s), 1);
	assert_int_equal(s.last_line, 5);
	assert_non_null(strstr(s.last, "at most 10000 table cells"));
	free(md);
}

int main(void)
{
	labcat_init(fixture_catalogue, sizeof fixture_catalogue / sizeof fixture_catalogue[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_unknown_id_line),
		cmocka_unit_test(test_not_built),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_set_clean),
		cmocka_unit_test(test_link_missing_file),
		cmocka_unit_test(test_link_missing_anchor),
		cmocka_unit_test(test_term_not_in_glossary),
		cmocka_unit_test(test_glossary_entry_without_link),
		cmocka_unit_test(test_parity_sections),
		cmocka_unit_test(test_parity_lab_cards),
		cmocka_unit_test(test_slugs),
		cmocka_unit_test(test_shipped_lessons),
		cmocka_unit_test(test_size_and_depth),
		cmocka_unit_test(test_table_cut),
	};
	return cmocka_run_group_tests_name("lessonlint", tests, NULL, NULL);
}
