/*
 * reader.c - the lesson reader: scrolling, table of contents, search,
 * language switch, and the reading position kept in the progress store.
 *
 * The place is kept as a layout anchor (source block, offset), not as a
 * line number, so a resize or a restart at another width comes back to the
 * same text.
 *
 * The share read is the share of the chapter's lines that have been on
 * screen: every screenful adds the range of anchors from its first line
 * to its last (ranges merged, at most COV_MAX kept; stored per chapter and
 * language as reading.seen), and the share is the count of the current
 * layout's lines whose anchor lies in a range, over all its lines.  So G
 * counts only the last page, a search jump only where it landed.  Anchors
 * do not depend on the width: what was seen at one width counts at
 * another (a line counts when its first glyph was on screen).  This screen does not parse or wrap
 * text itself: layout.c does, and this file only draws its lines.  It opens the lab, the test or
 * goes back only by asking nav.c (tui_go); it does not decide whether a lesson may open during a
 * test (nav.c does).
 *
 * Code blocks are laid out whole (LAYOUT_CODE_WHOLE): a diagram wider than
 * the screen is not wrapped but scrolled sideways with h/l, half a screen
 * a step.  Only blocks with a line wider than the screen move (all their
 * lines together, so a diagram keeps its shape); prose never moves.  A
 * shifted line shows "‹" in the left margin, one that goes on past the
 * right edge "›" in the right margin.
 */
#include "tui/reader.h"
#include "tui/pager.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "app.h"
#include "core/content.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "core/labcat.h"
#include "core/layout.h"
#include "core/lesson.h"
#include "core/store.h"
#include "base/wb.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum {
	R_TOC,
	R_SEARCH,
	R_NEXT,
	R_PREV,
	R_LANG,
	R_BACK,
	R_MOUSE,
	R_LAB,
	R_TEST,
	R_GLOSSARY,
	R_CARD_NEXT,
	R_CARD_PREV,
	R_RIGHT,
	R_LEFT,
};

static const struct keybind reader_keys[] = {
	PAGER_KEYS,
	{'l', 0, "l", R_RIGHT, "scroll wide code blocks right", "宽代码块向右滚动"},
	{'h', 0, "h", R_LEFT, "scroll wide code blocks left", "宽代码块向左滚动"},
	{'t', 0, "t", R_TOC, "table of contents", "目录"},
	{'/', 0, "/", R_SEARCH, "search (Enter on an empty prompt: the last search again)",
	 "搜索（空白时按 Enter：重复上次搜索）"},
	{'n', 0, "n", R_NEXT, "next match", "下一处匹配"},
	{'N', 0, "N", R_PREV, "previous match", "上一处匹配"},
	{'\r', 0, "Enter", R_LAB, "run the lab (or do the exercise) of the card on screen",
	 "运行屏幕上卡片的实验（或做练习）"},
	{'\n', 0, "Enter", R_LAB, "run the lab (or do the exercise) of the card on screen",
	 "运行屏幕上卡片的实验（或做练习）"},
	{'w', 0, "w", R_GLOSSARY, "glossary of the terms (words)", "术语表"},
	{'\t', 0, "Tab", R_CARD_NEXT, "pick the next lab card on screen (▶)",
	 "选择屏幕上的下一张实验卡片（▶）"},
	{KEY_BTAB, 1, "Shift-Tab", R_CARD_PREV, "pick the previous lab card on screen",
	 "选择屏幕上的上一张实验卡片"},
	{'\r', 0, "Enter", R_LAB, "run the picked lab card (▶)", "运行选中的实验卡片（▶）"},
	{'\n', 0, "Enter", R_LAB, "run the picked lab card (▶)", "运行选中的实验卡片（▶）"},
	{KEY_ENTER, 1, "Enter", R_LAB, "run the picked lab card (▶)", "运行选中的实验卡片（▶）"},
	{'L', 0, "L", R_LANG, "switch language (English/中文)", "切换语言（English/中文）"},
	{'s', 0, "s", R_TEST, "closed-book self-test of this chapter (closes the lesson)",
	 "本章闭卷自测（会关闭课文）"},
	{'q', 0, "q", R_BACK, "back to the chapters", "返回章节列表"},
	{KEY_LEFT, 1, "←", R_BACK, "back to the chapters", "返回章节列表"},
	{KEY_MOUSE, 1, "wheel", R_MOUSE, "scroll", "滚动"},
};

/* The table of contents overlay is a mode with its own keys. */
enum { T_DOWN, T_UP, T_JUMP, T_CLOSE };

static const struct keybind toc_keys[] = {
	{'j', 0, "j", T_DOWN, "next section", "下一节"},
	{KEY_DOWN, 1, "↓", T_DOWN, "next section", "下一节"},
	{'k', 0, "k", T_UP, "previous section", "上一节"},
	{KEY_UP, 1, "↑", T_UP, "previous section", "上一节"},
	{'\r', 0, "Enter", T_JUMP, "jump to the section", "跳到这一节"},
	{'\n', 0, "Enter", T_JUMP, "jump to the section", "跳到这一节"},
	{KEY_ENTER, 1, "Enter", T_JUMP, "jump to the section", "跳到这一节"},
	{27, 0, "Esc", T_CLOSE, "close the contents", "关闭目录"},
	{'t', 0, "t", T_CLOSE, "close the contents", "关闭目录"},
	{'q', 0, "q", T_CLOSE, "close the contents", "关闭目录"},
};

struct reader {
	char *chapter;	       /* chapter id */
	char lang[8];	       /* language shown */
	struct lesson *lesson; /* parsed chapter */
	struct layout *lay;    /* lines for the current width */
	size_t top;	       /* first line on screen */
	int toc_open;	       /* table of contents overlay shown */
	int toc_sel;	       /* selected section in the overlay */
	char query[256];       /* last search */
	struct lay_hit *hits;  /* matches of query in lay */
	size_t nhits;
	size_t cur_hit; /* index of the current match */
	int furthest;	/* share of the lines seen, per mille, as last saved */
	struct cov {
		int64_t a, b; /* anchors [a, b) seen */
	} * cov;
	size_t ncov;
	int cov_changed;   /* a range grew since the last save */
	time_t saved_at;   /* last save, to save at most once a second */
	char card[80];	   /* the card picked with Tab (card_key; "" = the first on screen) */
	char pick_for[64]; /* question whose section the open contents ask for, or "" */
	int hoff;	   /* columns wide code blocks are scrolled left by (h/l) */
};

static int text_width(void)
{
	int w = COLS - 2;
	return w > 100 ? 100 : w;
}

static int page_rows(void)
{
	return LINES - 1;
}

static size_t max_top(const struct reader *r)
{
	size_t rows = (size_t)page_rows();
	return r->lay->nlines > rows ? r->lay->nlines - rows : 0;
}

static int percent_at(const struct reader *r, size_t top)
{
	size_t n = r->lay->nlines;
	if (n == 0)
		return 1000;
	size_t seen = top + (size_t)page_rows();
	return seen >= n ? 1000 : (int)(seen * 1000 / n);
}

/* ---- the lines seen (the share read) ---- */

enum { COV_MAX = 64 };
#define COV_END INT64_MAX

/* A line's anchor as one ordered number: block, then offset (-1 for a
 * blank line, before the block's first line). */
static int64_t anchor_key(const struct lay_line *l)
{
	return ((int64_t)l->block << 32) | (uint32_t)(l->offset + 1);
}

/* Past COV_MAX ranges the two with the smallest gap are joined (the gap
 * then counts as seen). */
static void cov_limit(struct reader *r)
{
	if (r->ncov <= COV_MAX)
		return;
	size_t k = 0;
	for (size_t m = 1; m + 1 < r->ncov; m++)
		if (r->cov[m + 1].a - r->cov[m].b < r->cov[k + 1].a - r->cov[k].b)
			k = m;
	r->cov[k].b = r->cov[k + 1].b;
	memmove(r->cov + k + 1, r->cov + k + 2, (r->ncov - k - 2) * sizeof *r->cov);
	r->ncov--;
}

/* Adds [a, b) to the sorted ranges, merging those it overlaps or
 * touches. */
static void cov_add(struct reader *r, int64_t a, int64_t b)
{
	size_t i = 0;
	while (i < r->ncov && r->cov[i].b < a)
		i++;
	if (i < r->ncov && r->cov[i].a <= a && b <= r->cov[i].b)
		return; /* already seen */
	r->cov_changed = 1;
	size_t j = i;
	for (; j < r->ncov && r->cov[j].a <= b; j++) {
		a = r->cov[j].a < a ? r->cov[j].a : a;
		b = r->cov[j].b > b ? r->cov[j].b : b;
	}
	if (i == j) { /* a new range at i */
		r->cov = wb_xrealloc(r->cov, (r->ncov + 1) * sizeof *r->cov);
		memmove(r->cov + i + 1, r->cov + i, (r->ncov - i) * sizeof *r->cov);
		r->ncov++;
	} else { /* ranges [i, j) become one */
		memmove(r->cov + i + 1, r->cov + j, (r->ncov - j) * sizeof *r->cov);
		r->ncov -= j - i - 1;
	}
	r->cov[i] = (struct cov){a, b};
	cov_limit(r);
}

/* The lines on screen now count as seen. */
static void cov_mark_screen(struct reader *r)
{
	size_t n = r->lay->nlines, last = r->top + (size_t)page_rows() - 1;
	if (!n || r->top >= n)
		return;
	cov_add(r, anchor_key(&r->lay->lines[r->top]),
		last >= n - 1 ? COV_END : anchor_key(&r->lay->lines[last]) + 1);
}

/* Per mille of the layout's lines whose anchor has been seen. */
static int cov_permille(const struct reader *r)
{
	size_t n = r->lay->nlines, seen = 0, k = 0;
	if (!n)
		return 1000;
	for (size_t i = 0; i < n; i++) {
		int64_t key = anchor_key(&r->lay->lines[i]);
		k = 0; /* anchors are not assumed to be in order: look from the start */
		while (k < r->ncov && r->cov[k].b <= key)
			k++;
		seen += k < r->ncov && r->cov[k].a <= key;
	}
	return seen == n ? 1000 : (int)(seen * 1000 / n);
}

/* The ranges as text for the store: "a-b,a-b" ("e" for the end). */
static char *cov_format(const struct reader *r)
{
	struct wb_buf b = {0};
	wb_buf_puts(&b, "");
	for (size_t i = 0; i < r->ncov; i++) {
		wb_buf_printf(&b, "%s%lld-", i ? "," : "", (long long)r->cov[i].a);
		if (r->cov[i].b == COV_END)
			wb_buf_puts(&b, "e");
		else
			wb_buf_printf(&b, "%lld", (long long)r->cov[i].b);
	}
	return wb_buf_steal(&b);
}

/* The stored ranges (what does not parse is left out). */
static void cov_parse(struct reader *r, const char *s)
{
	free(r->cov);
	r->cov = NULL;
	r->ncov = 0;
	while (s && *s) {
		char *end;
		long long a = strtoll(s, &end, 10), b = COV_END;
		if (end == s || *end != '-')
			break;
		s = end + 1;
		if (*s == 'e') {
			s++;
		} else {
			b = strtoll(s, &end, 10);
			if (end == s)
				break;
			s = end;
		}
		if (a >= 0 && b > a)
			cov_add(r, a, b);
		s += *s == ',';
	}
	r->cov_changed = 0;
}

static void save_place(struct tui *t, struct reader *r)
{
	if (!r->lay->nlines)
		return;
	const struct lay_line *l = &r->lay->lines[r->top];
	cov_mark_screen(r);
	r->furthest = cov_permille(r);
	struct store_position pos = {l->block, l->offset, r->furthest};
	char *seen = cov_format(r);
	if (store_set_reading(t->store, r->chapter, r->lang, &pos, seen) != 0)
		tui_flash(t, "%s", store_errmsg(t->store));
	free(seen);
	r->cov_changed = 0;
	r->saved_at = time(NULL);
}

static void rerun_search(struct reader *r)
{
	free(r->hits);
	r->hits = NULL;
	r->nhits = 0;
	if (r->query[0])
		r->nhits = layout_search(r->lay, r->query, &r->hits);
	if (r->cur_hit >= r->nhits)
		r->cur_hit = 0;
}

static void relayout(struct reader *r)
{
	int block = 0, offset = 0;
	if (r->lay && r->lay->nlines) {
		block = r->lay->lines[r->top].block;
		offset = r->lay->lines[r->top].offset;
	}
	layout_free(r->lay);
	r->lay = layout_build_ex(r->lesson, text_width(), LAYOUT_CODE_WHOLE);
	r->top = layout_find_anchor(r->lay, block, offset);
	if (r->top > max_top(r))
		r->top = max_top(r);
	rerun_search(r);
}

static void scroll_to(struct tui *t, struct reader *r, long target)
{
	long mt = (long)max_top(r);
	if (target > mt)
		target = mt;
	if (target < 0)
		target = 0;
	r->top = (size_t)target;
	cov_mark_screen(r);
	if (r->cov_changed || time(NULL) != r->saved_at)
		save_place(t, r);
}

static void draw_toc(struct tui *t, struct reader *r)
{
	const char *lang = t->app->lang;
	int h = LINES - 4, w = COLS - 6;
	int y0 = 2, x0 = 3;
	/* The whole band of rows the box covers is cleared, the box's edges
	 * and a blank row above and below included: no piece of a page line
	 * shows beside it. */
	for (int y = y0 - 1; y <= y0 + h && y < LINES - 1; y++) {
		move(y, 0);
		clrtoeol();
	}
	for (int y = 0; y < h; y++) {
		move(y0 + y, x0);
		for (int x = 0; x < w; x++)
			addch(' ' | A_REVERSE);
	}
	term_text_cut(y0, x0 + 1, i18n(lang, M_TOC_TITLE), w - 2, A_REVERSE | A_BOLD);
	if (r->pick_for[0]) {
		char ask[160];
		snprintf(ask, sizeof ask, i18n(lang, M_READER_PICK_SECTION), r->pick_for);
		term_text_cut(y0 + 1, x0 + 1, ask, w - 2, A_REVERSE);
	}
	if (!r->lay->nsections) {
		term_text_cut(y0 + 2, x0 + 1, i18n(lang, M_NO_SECTIONS), w - 2, A_REVERSE);
		return;
	}
	int rows = h - 2;
	int first = r->toc_sel >= rows ? r->toc_sel - rows + 1 : 0;
	for (int i = first; i < (int)r->lay->nsections && i - first < rows; i++) {
		int attr = i == r->toc_sel ? A_BOLD : A_REVERSE;
		char num[16];
		snprintf(num, sizeof num, "%2d ", i + 1);
		int y = y0 + 2 + i - first;
		if (i == r->toc_sel)
			mvhline(y, x0, ' ', w);
		int used = term_text(y, x0 + 1, num, w - 2, attr);
		term_text_cut(y, x0 + 1 + used, r->lay->sections[i].title, w - 2 - used, attr);
	}
}

/* A card line: of a lab card or an exercise card. */
static int is_card(const struct lay_line *l)
{
	return (l->kind == LK_LAB || l->kind == LK_EXERCISE) && l->lab_id;
}

/* The card's key for r->card: the lab id, or "exercise:<id>" (a lab and
 * an exercise may share a name). */
static void card_key(const struct lay_line *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", l->kind == LK_EXERCISE ? "exercise:" : "", l->lab_id);
}

/* The cards on screen (wholly or in part) as one line of each, in order,
 * at most max; returns how many.  The layout keeps one string per id and
 * kind, so the pointer tells cards apart. */
static size_t cards_on_screen(const struct reader *r, const struct lay_line **cards, size_t max)
{
	size_t n = 0, rows = (size_t)page_rows();
	for (size_t i = 0; i < rows && r->top + i < r->lay->nlines; i++) {
		const struct lay_line *l = &r->lay->lines[r->top + i];
		if (!is_card(l))
			continue;
		size_t k = 0;
		while (k < n && cards[k]->lab_id != l->lab_id)
			k++;
		if (k == n && n < max)
			cards[n++] = l;
	}
	return n;
}

/* The card Enter runs: the one picked with Tab while it is on screen,
 * else the first on screen; NULL when none is. */
static const struct lay_line *picked_card(const struct reader *r)
{
	const struct lay_line *cards[16];
	char key[80];
	size_t n = cards_on_screen(r, cards, WB_ARRAY_LEN(cards));
	for (size_t i = 0; i < n; i++) {
		card_key(cards[i], key, sizeof key);
		if (!strcmp(key, r->card))
			return cards[i];
	}
	return n ? cards[0] : NULL;
}

/* Tab / Shift-Tab: the next or previous card on screen becomes the pick. */
static void pick_card(struct tui *t, struct reader *r, int step)
{
	const struct lay_line *cards[16];
	size_t n = cards_on_screen(r, cards, WB_ARRAY_LEN(cards));
	if (!n) {
		tui_flash(t, "%s", i18n(t->app->lang, M_LAB_NO_CARD));
		return;
	}
	const struct lay_line *cur = picked_card(r);
	size_t i = 0;
	while (i < n && cards[i]->lab_id != cur->lab_id)
		i++;
	i = (i + n + (size_t)(step > 0 ? 1 : n - 1)) % n;
	card_key(cards[i], r->card, sizeof r->card);
}

/* Does line l scroll sideways: a line of a code block wider than the screen? */
static int is_wide(const struct reader *r, const struct lay_line *l)
{
	return l->kind == LK_CODE && l->block_width > r->lay->width;
}

/* h/l: moves wide code blocks by half a screen, no further than the widest
 * of them on screen needs; l does nothing when none is on screen. */
static void shift_code(struct reader *r, int dir)
{
	int rows = page_rows(), need = 0, step = r->lay->width / 2;
	for (int i = 0; i < rows && r->top + (size_t)i < r->lay->nlines; i++) {
		const struct lay_line *l = &r->lay->lines[r->top + (size_t)i];
		if (is_wide(r, l) && l->block_width - r->lay->width > need)
			need = l->block_width - r->lay->width;
	}
	if (dir > 0 && r->hoff >= need)
		return; /* nothing more to the right: keep where other blocks are */
	r->hoff += dir * (step > 0 ? step : 1);
	if (r->hoff > need)
		r->hoff = need;
	if (r->hoff < 0)
		r->hoff = 0;
}

static void reader_draw(struct tui *t, void *self)
{
	struct reader *r = self;
	erase();
	int rows = page_rows();
	const struct lay_line *picked = picked_card(r);
	for (int i = 0; i < rows && r->top + (size_t)i < r->lay->nlines; i++) {
		size_t ln = r->top + (size_t)i;
		const struct lay_line *l = &r->lay->lines[ln];
		int wide = is_wide(r, l), skip = wide ? r->hoff : 0;
		if (wide) {
			term_draw_line_from(t, i, 1, l, skip, r->lay->width);
			if (skip > 0)
				term_text(i, 0, "‹", 1, A_BOLD);
			if (l->width - skip > r->lay->width)
				term_text(i, 1 + r->lay->width, "›", 1, A_BOLD);
		} else {
			term_draw_line(t, i, 1, l, COLS - 1);
		}
		unsigned hs[64][2];
		size_t nh = 0;
		for (size_t h = 0; h < r->nhits && nh < 64; h++)
			if (r->hits[h].line == ln) {
				hs[nh][0] = r->hits[h].start;
				hs[nh][1] = r->hits[h].len;
				nh++;
			}
		if (nh)
			term_draw_hits_from(i, 1, l, skip, wide ? r->lay->width : COLS - 1,
					    (const unsigned(*)[2])hs, nh);
		if (is_card(l) && picked && l->lab_id == picked->lab_id)
			term_text(i, 0, "▶", 1, A_BOLD);
	}
	if (r->toc_open)
		draw_toc(t, r);
	char left[512], right[64];
	const struct lay_line *l = r->lay->nlines ? &r->lay->lines[r->top] : NULL;
	int sec = l ? l->section : -1;
	/* Report the section whose heading is on screen, if one is. */
	for (int i = 0; l && i < rows && r->top + (size_t)i < r->lay->nlines; i++) {
		const struct lay_line *x = &r->lay->lines[r->top + (size_t)i];
		if (x->kind == LK_HEADING && x->section > sec && i < rows / 3)
			sec = x->section;
	}
	snprintf(left, sizeof left, "%s%s%s", r->lesson->title, sec >= 0 ? " › " : "",
		 sec >= 0 ? r->lay->sections[sec].title : "");
	snprintf(right, sizeof right, "%d%%  %s", percent_at(r, r->top) / 10,
		 i18n(t->app->lang, M_READER_HINT));
	term_status(t, left, right);
}

static int load_lesson(struct reader *r, const char *root, const char *chapter, const char *lang)
{
	char *path = content_lesson_path(root, lang, chapter);
	struct lesson *l = NULL;
	int rc = lesson_load(path, chapter, lang, &l);
	free(path);
	if (rc)
		return rc;
	lesson_free(r->lesson);
	r->lesson = l;
	snprintf(r->lang, sizeof r->lang, "%s", lang);
	return 0;
}

static void restore_place(struct tui *t, struct reader *r)
{
	struct store_position pos;
	r->furthest = 0;
	r->top = 0;
	char *seen = NULL;
	store_get_seen(t->store, r->chapter, r->lang, &seen);
	cov_parse(r, seen);
	free(seen);
	if (store_get_position(t->store, r->chapter, r->lang, &pos) == 0) {
		r->furthest = pos.furthest_permille;
		r->top = layout_find_anchor(r->lay, pos.block, pos.offset);
		if (r->top > max_top(r))
			r->top = max_top(r);
	}
	cov_mark_screen(r);
}

static void switch_lang(struct tui *t, struct reader *r)
{
	const char *to = strcmp(r->lang, "zh") ? "zh" : "en";
	char *path = content_lesson_path(t->app->content, to, r->chapter);
	struct stat st;
	int exists = stat(path, &st) == 0;
	free(path);
	if (!exists) {
		tui_flash(t, "%s", i18n(to, M_LANG_MISSING));
		return;
	}
	int sec = r->lay->nlines ? r->lay->lines[r->top].section : -1;
	save_place(t, r);
	if (load_lesson(r, t->app->content, r->chapter, to) != 0)
		return;
	t->app->lang = !strcmp(to, "zh") ? "zh" : "en";
	layout_free(r->lay);
	r->lay = layout_build_ex(r->lesson, text_width(), LAYOUT_CODE_WHOLE);
	restore_place(t, r);
	/* Same section in the other language: the chapters line up by ##. */
	if (sec >= 0 && (size_t)sec < r->lay->nsections)
		r->top = (size_t)r->lay->sections[sec].line;
	if (r->top > max_top(r))
		r->top = max_top(r);
	rerun_search(r);
	save_place(t, r);
}

static void goto_hit(struct tui *t, struct reader *r)
{
	if (!r->nhits) {
		tui_flash(t, i18n(t->app->lang, M_SEARCH_NONE), r->query);
		return;
	}
	size_t line = r->hits[r->cur_hit].line;
	scroll_to(t, r, (long)line - 2);
	tui_flash(t, i18n(t->app->lang, M_SEARCH_HITS), r->cur_hit + 1, r->nhits, r->query);
}

static void toc_key(struct tui *t, struct reader *r, int action)
{
	int n = (int)r->lay->nsections;
	switch (action) {
	case T_DOWN:
		if (r->toc_sel + 1 < n)
			r->toc_sel++;
		break;
	case T_UP:
		if (r->toc_sel > 0)
			r->toc_sel--;
		break;
	case T_JUMP:
		if (n)
			scroll_to(t, r, r->lay->sections[r->toc_sel].line);
		r->toc_open = 0;
		break;
	case T_CLOSE: r->toc_open = 0; break;
	}
	if (!r->toc_open)
		r->pick_for[0] = '\0';
}

static struct keymap reader_keymap(void *self)
{
	const struct reader *r = self;
	if (r->toc_open)
		return (struct keymap){toc_keys, WB_ARRAY_LEN(toc_keys), 0};
	return (struct keymap){reader_keys, WB_ARRAY_LEN(reader_keys), 0};
}

/* The picked card on screen: asks nav.c to run the lab, or to edit and
 * check the exercise; or says there is none. */
static void run_card(struct tui *t, struct reader *r)
{
	const struct lay_line *card = picked_card(r);
	if (!card) {
		tui_flash(t, "%s", i18n(t->app->lang, M_LAB_NO_CARD));
		return;
	}
	const char *id = card->lab_id;
	int exercise = card->kind == LK_EXERCISE;
	if (exercise ? !excat_find(id) : !labcat_runnable(id)) {
		tui_flash(t, i18n(t->app->lang, exercise ? M_EX_NOT_BUILT : M_LAB_NOT_BUILT), id);
		return;
	}
	struct nav n = {.kind = exercise ? NAV_EXERCISE : NAV_LAB};
	snprintf(n.arg, sizeof n.arg, "%s", id);
	snprintf(n.chapter, sizeof n.chapter, "%s", r->chapter);
	tui_go(t, &n);
}

/* / : an empty prompt (the last query is named in it); Enter on an empty
 * prompt searches for the last query again, from the next match on. */
static void search(struct tui *t, struct reader *r)
{
	char q[256] = "", prompt[320];
	const char *lang = t->app->lang;
	if (r->query[0])
		snprintf(prompt, sizeof prompt, i18n(lang, M_SEARCH_PROMPT_LAST), r->query);
	else
		snprintf(prompt, sizeof prompt, "%s", i18n(lang, M_SEARCH_PROMPT));
	if (!term_prompt(t, prompt, q, sizeof q))
		return;
	if (!q[0]) {
		if (!r->query[0])
			return;
		if (r->nhits)
			r->cur_hit = (r->cur_hit + 1) % r->nhits;
		goto_hit(t, r);
		return;
	}
	snprintf(r->query, sizeof r->query, "%s", q);
	rerun_search(r);
	r->cur_hit = 0;
	while (r->cur_hit < r->nhits && r->hits[r->cur_hit].line < r->top)
		r->cur_hit++;
	if (r->cur_hit == r->nhits)
		r->cur_hit = 0;
	goto_hit(t, r);
}

static void reader_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	struct reader *r = self;
	long top = (long)r->top, rows = page_rows();
	(void)ch;
	(void)is_code;
	if (r->toc_open) {
		toc_key(t, r, action);
		return;
	}
	long to;
	if (pager_target(action, top, rows, (long)max_top(r), &to)) {
		scroll_to(t, r, to);
		return;
	}
	switch (action) {
	case R_RIGHT: shift_code(r, 1); break;
	case R_LEFT: shift_code(r, -1); break;
	case R_TOC: {
		r->toc_open = 1;
		int sec = r->lay->nlines ? r->lay->lines[r->top].section : 0;
		r->toc_sel = sec > 0 ? sec : 0;
		break;
	}
	case R_SEARCH: search(t, r); break;
	case R_CARD_NEXT: pick_card(t, r, 1); break;
	case R_CARD_PREV: pick_card(t, r, -1); break;
	case R_NEXT:
		if (r->nhits)
			r->cur_hit = (r->cur_hit + 1) % r->nhits;
		if (r->query[0])
			goto_hit(t, r);
		break;
	case R_PREV:
		if (r->nhits)
			r->cur_hit = (r->cur_hit + r->nhits - 1) % r->nhits;
		if (r->query[0])
			goto_hit(t, r);
		break;
	case R_LANG: switch_lang(t, r); break;
	case R_LAB: run_card(t, r); break;
	case R_GLOSSARY:
		tui_go(t, &(struct nav){.kind = NAV_GLOSSARY, .lang = {r->lang[0], r->lang[1]}});
		break;
	case R_BACK: tui_back(t); break;
	case R_TEST: {
		/* The test replaces (and so closes) this reader. */
		struct nav n = {.kind = NAV_TEST, .replace_top = 1};
		snprintf(n.chapter, sizeof n.chapter, "%s", r->chapter);
		snprintf(n.lang, sizeof n.lang, "%s", r->lang);
		tui_go(t, &n);
		break;
	}
	case R_MOUSE: {
		MEVENT ev;
		if (getmouse(&ev) == OK) {
			if (ev.bstate & BUTTON4_PRESSED)
				scroll_to(t, r, top - 3);
			else if (ev.bstate & BUTTON5_PRESSED)
				scroll_to(t, r, top + 3);
		}
		break;
	}
	}
}

static void reader_resize(struct tui *t, void *self)
{
	(void)t;
	struct reader *r = self;
	if (COLS >= TUI_MIN_COLS && text_width() != r->lay->width)
		relayout(r);
	if (r->top > max_top(r))
		r->top = max_top(r);
}

static void reader_leave(struct tui *t, void *self)
{
	save_place(t, self);
}

static void reader_free(void *self)
{
	struct reader *r = self;
	layout_free(r->lay);
	lesson_free(r->lesson);
	free(r->hits);
	free(r->cov);
	free(r->chapter);
	free(r);
}

static struct screen reader_screen(struct reader *r)
{
	return (struct screen){
		.name = "reader",
		.self = r,
		.draw = reader_draw,
		.key = reader_key,
		.resize = reader_resize,
		.leave = reader_leave,
		.free = reader_free,
		.keymap = reader_keymap,
		.keys = reader_keys,
		.nkeys = WB_ARRAY_LEN(reader_keys),
	};
}

int reader_open(struct tui *t, const char *chapter, const char *lang, const char *pick_for,
		struct screen *out)
{
	struct reader *r = wb_xcalloc(1, sizeof *r);
	r->chapter = wb_xstrdup(chapter);
	int rc = load_lesson(r, t->app->content, chapter, lang);
	if (rc) {
		reader_free(r);
		return rc;
	}
	r->lay = layout_build_ex(r->lesson, text_width(), LAYOUT_CODE_WHOLE);
	restore_place(t, r);
	if (pick_for && *pick_for) {
		snprintf(r->pick_for, sizeof r->pick_for, "%s", pick_for);
		r->toc_open = 1;
		int sec = r->lay->nlines ? r->lay->lines[r->top].section : 0;
		r->toc_sel = sec > 0 ? sec : 0;
	}
	*out = reader_screen(r);
	return 0;
}
