/*
 * linebreak_compare.c - the reader's line breaking two ways: libunibreak's
 * UAX #14 opportunities (what layout.c uses) and the hand-written rules of
 * core/utf8.h (LAYOUT_BREAK_HANDWRITTEN), on the shipped chapters in both
 * languages and the test fixtures, at widths 40, 60, 80 and 100.
 *
 * Per chapter, width and way it counts, over text and heading lines (the
 * lines a paragraph wraps into; tables, code and lab cards are left out):
 *   lines     lines laid out (all kinds)
 *   close     lines whose own text (after quote bars and list marks)
 *             starts with closing punctuation: ，。、；：？！）」』】》〉〕］｝”’
 *             and ASCII , . ; : ! ? ) ] } (not …: clreq lets an ellipsis
 *             start a line)
 *   word      lines wrapped inside a Latin word or number that would fit on
 *             a line: no space between them and the line before, which
 *             ends in a letter or digit (or a digit then . , :) while this
 *             one starts with one, and the letters and digits on both
 *             sides together are narrower than the line's room
 *   hyph      lines wrapped right after a - or / between letters or digits
 *             (allowed by UAX #14; counted, not a fault)
 *   over      lines wider than the width (any kind)
 *   ms        milliseconds to lay the chapter out (best of --runs)
 * and the sums per way.  It prints figures and asserts nothing (timings
 * are never test conditions).  It does not judge which way is better:
 * layout.c's opening comment does, with these figures.
 *
 *   bench_linebreak_compare [--runs N] [--show] [FILE.md ...]
 * --show prints each counted line after the one before it.
 * Without files: lessons/{en,zh}/0*.md and the fixture chapters of the
 * source tree (WB_SOURCE_DIR).
 */
#include "core/labcat.h"
#include "core/layout.h"
#include "core/lesson.h"
#include "core/utf8.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct counts {
	long lines, close, word, hyph, over;
	double ms;
};

static int show; /* --show: print each counted line */

static void shown(const char *what, const struct layout *lay, size_t i)
{
	if (!show)
		return;
	if (i > 0)
		printf("  %-5s   %s\n", "", lay->lines[i - 1].text);
	printf("  %-5s > %s\n", what, lay->lines[i].text);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int is_closing(uint32_t cp)
{
	static const uint32_t set[] = {0xFF0C, 0x3002, 0x3001, 0xFF1B, 0xFF1A, 0xFF1F, 0xFF01,
				       0xFF09, 0x300D, 0x300F, 0x3011, 0x300B, 0x3009, 0x3015,
				       0xFF3D, 0xFF5D, 0x201D, 0x2019, ',',    '.',    ';',
				       ':',    '!',    '?',    ')',    ']',    '}'};
	for (size_t i = 0; i < sizeof set / sizeof *set; i++)
		if (set[i] == cp)
			return 1;
	return 0;
}

static int is_alnum(uint32_t cp)
{
	return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
	       (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7);
}

static int is_digit(uint32_t cp)
{
	return cp >= '0' && cp <= '9';
}

/* The last two code points of a line (0 when absent). */
static void last_two(const struct lay_line *l, uint32_t *a, uint32_t *b)
{
	*a = *b = 0;
	for (unsigned i = l->text_start; i < l->len;) {
		uint32_t cp;
		i += (unsigned)utf8_decode(l->text + i, l->len - i, &cp);
		*a = *b;
		*b = cp;
	}
}

static uint32_t first_cp(const struct lay_line *l)
{
	uint32_t cp = 0;
	if (l->text_start < l->len)
		utf8_decode(l->text + l->text_start, l->len - l->text_start, &cp);
	return cp;
}

/* Columns of the letters and digits that end line a plus those that start
 * line b (their own text). */
static int run_across(const struct lay_line *a, const struct lay_line *b)
{
	int n = 0;
	for (unsigned i = a->text_start; i < a->len;) {
		uint32_t cp;
		i += (unsigned)utf8_decode(a->text + i, a->len - i, &cp);
		n = is_alnum(cp) ? n + 1 : 0;
	}
	for (unsigned i = b->text_start; i < b->len;) {
		uint32_t cp;
		i += (unsigned)utf8_decode(b->text + i, b->len - i, &cp);
		if (!is_alnum(cp))
			break;
		n++;
	}
	return n;
}

static void count(const struct layout *lay, int width, struct counts *k)
{
	k->lines += (long)lay->nlines;
	for (size_t i = 0; i < lay->nlines; i++) {
		const struct lay_line *l = &lay->lines[i];
		if (l->width > width)
			k->over++;
		if (l->kind != LK_TEXT && l->kind != LK_HEADING)
			continue;
		uint32_t first = first_cp(l);
		if (is_closing(first)) {
			k->close++;
			shown("close", lay, i);
		}
		if (!l->joined || i == 0 || lay->lines[i - 1].block != l->block)
			continue;
		uint32_t p2, p1;
		last_two(&lay->lines[i - 1], &p2, &p1);
		int room = width - utf8_width(l->text, l->text_start);
		if (is_alnum(first) &&
		    ((is_alnum(p1) && run_across(&lay->lines[i - 1], l) < room) ||
		     (is_digit(first) && is_digit(p2) && (p1 == '.' || p1 == ',' || p1 == ':')))) {
			k->word++;
			shown("word", lay, i);
		} else if (is_alnum(first) && is_alnum(p2) && (p1 == '-' || p1 == '/')) {
			k->hyph++;
		}
	}
}

static void print_row(const char *name, int width, const char *way, const struct counts *k)
{
	printf("%-34s %3d %-5s %6ld %5ld %5ld %5ld %5ld %8.2f\n", name, width, way, k->lines,
	       k->close, k->word, k->hyph, k->over, k->ms);
}

static void add(struct counts *sum, const struct counts *k)
{
	sum->lines += k->lines;
	sum->close += k->close;
	sum->word += k->word;
	sum->hyph += k->hyph;
	sum->over += k->over;
	sum->ms += k->ms;
}

/* One chapter at one width, both ways; adds to the sums. */
static void compare(const struct lesson *l, const char *name, int width, int runs,
		    struct counts sum[2])
{
	static const unsigned flags[2] = {0, LAYOUT_BREAK_HANDWRITTEN};
	static const char *const ways[2] = {"uax14", "ours"};
	for (int w = 0; w < 2; w++) {
		struct counts k = {0};
		k.ms = -1;
		struct layout *lay = NULL;
		for (int r = 0; r < runs; r++) {
			layout_free(lay);
			double t0 = now();
			lay = layout_build_ex(l, width, flags[w]);
			double ms = now() - t0;
			if (k.ms < 0 || ms < k.ms)
				k.ms = ms;
		}
		count(lay, width, &k);
		layout_free(lay);
		print_row(name, width, ways[w], &k);
		add(&sum[w], &k);
	}
}

static const char *lang_of(const char *path)
{
	return strstr(path, "/zh/") ? "zh" : "en";
}

int main(int argc, char **argv)
{
	int runs = 5, first = 1;
	while (first < argc && !strncmp(argv[first], "--", 2)) {
		if (!strcmp(argv[first], "--show")) {
			show = 1;
			first++;
		} else if (!strcmp(argv[first], "--runs") && first + 1 < argc) {
			runs = atoi(argv[first + 1]);
			first += 2;
		} else {
			fprintf(stderr, "usage: bench_linebreak_compare [--runs N] [--show] "
					"[FILE.md ...]\n");
			return 2;
		}
	}
	if (runs < 1)
		runs = 1;
	static const struct labcat_entry cat[] = {{"zk-create-lost", "01", "a", "a", 1}};
	labcat_init(cat, 1);
	glob_t g = {0};
	if (first >= argc) {
		glob(WB_SOURCE_DIR "/lessons/zh/0*.md", 0, NULL, &g);
		glob(WB_SOURCE_DIR "/lessons/en/0*.md", GLOB_APPEND, NULL, &g);
		glob(WB_SOURCE_DIR "/tests/fixtures/lessons/*/0*.md", GLOB_APPEND, NULL, &g);
	} else {
		for (int i = first; i < argc; i++)
			glob(argv[i], i > first ? GLOB_APPEND | GLOB_NOCHECK : GLOB_NOCHECK, NULL,
			     &g);
	}
	static const int widths[] = {40, 60, 80, 100};
	struct counts sum[2] = {{0}, {0}};
	printf("%-34s %3s %-5s %6s %5s %5s %5s %5s %8s\n", "chapter", "w", "way", "lines", "close",
	       "word", "hyph", "over", "ms");
	int rc = 0;
	for (size_t f = 0; f < g.gl_pathc; f++) {
		const char *path = g.gl_pathv[f];
		const char *base = strrchr(path, '/');
		char name[64];
		snprintf(name, sizeof name, "%s/%s", lang_of(path), base ? base + 1 : path);
		struct lesson *l = NULL;
		if (lesson_load(path, "00-bench", lang_of(path), &l) != 0) {
			fprintf(stderr, "linebreak_compare: %s: cannot load\n", path);
			rc = 1;
			continue;
		}
		for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
			compare(l, name, widths[w], runs, sum);
		lesson_free(l);
	}
	print_row("all", 0, "uax14", &sum[0]);
	print_row("all", 0, "ours", &sum[1]);
	globfree(&g);
	return rc;
}
