/*
 * glossary.c - the glossary screen: lessons/<lang>/glossary.md laid out by
 * core/layout like a lesson, with scrolling, a list of the terms to jump
 * to, search, a language switch and q to go back.  It keeps no place in
 * the progress store (a glossary is looked things up in, not read
 * through) and asks nav.c for nothing but going back.
 */
#include "tui/glossary.h"
#include "tui/pager.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "app.h"
#include "core/content.h"
#include "core/i18n.h"
#include "core/layout.h"
#include "core/lesson.h"
#include "base/wb.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	G_TERMS,
	G_SEARCH,
	G_NEXT,
	G_PREV,
	G_LANG,
	G_BACK,
	G_MOUSE,
};

static const struct keybind glossary_keys[] = {
	PAGER_KEYS,
	{'t', 0, "t", G_TERMS, "list of terms", "术语列表"},
	{'/', 0, "/", G_SEARCH, "search", "搜索"},
	{'n', 0, "n", G_NEXT, "next match", "下一处匹配"},
	{'N', 0, "N", G_PREV, "previous match", "上一处匹配"},
	{'L', 0, "L", G_LANG, "switch language (English/中文)", "切换语言（English/中文）"},
	{'q', 0, "q", G_BACK, "back", "返回"},
	{27, 0, "Esc", G_BACK, "back", "返回"},
	{KEY_LEFT, 1, "←", G_BACK, "back", "返回"},
	{KEY_MOUSE, 1, "wheel", G_MOUSE, "scroll", "滚动"},
};

/* The list of terms is a mode with its own keys. */
enum { T_DOWN, T_UP, T_JUMP, T_CLOSE };

static const struct keybind terms_keys[] = {
	{'j', 0, "j", T_DOWN, "next term", "下一个术语"},
	{KEY_DOWN, 1, "↓", T_DOWN, "next term", "下一个术语"},
	{'k', 0, "k", T_UP, "previous term", "上一个术语"},
	{KEY_UP, 1, "↑", T_UP, "previous term", "上一个术语"},
	{'\r', 0, "Enter", T_JUMP, "go to the term", "跳到这个术语"},
	{'\n', 0, "Enter", T_JUMP, "go to the term", "跳到这个术语"},
	{KEY_ENTER, 1, "Enter", T_JUMP, "go to the term", "跳到这个术语"},
	{27, 0, "Esc", T_CLOSE, "close the list", "关闭列表"},
	{'t', 0, "t", T_CLOSE, "close the list", "关闭列表"},
	{'q', 0, "q", T_CLOSE, "close the list", "关闭列表"},
};

struct glossary_view {
	char lang[8];
	struct lesson *lesson;
	struct layout *lay;
	size_t top;
	int terms_open;
	int terms_sel;
	char query[256];
	struct lay_hit *hits;
	size_t nhits;
	size_t cur_hit;
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

static size_t max_top(const struct glossary_view *g)
{
	size_t rows = (size_t)page_rows();
	return g->lay->nlines > rows ? g->lay->nlines - rows : 0;
}

static void scroll_to(struct glossary_view *g, long target)
{
	long mt = (long)max_top(g);
	if (target > mt)
		target = mt;
	if (target < 0)
		target = 0;
	g->top = (size_t)target;
}

static void rerun_search(struct glossary_view *g)
{
	free(g->hits);
	g->hits = NULL;
	g->nhits = 0;
	if (g->query[0])
		g->nhits = layout_search(g->lay, g->query, &g->hits);
	if (g->cur_hit >= g->nhits)
		g->cur_hit = 0;
}

static int load(struct glossary_view *g, const char *root, const char *lang)
{
	char *path = content_glossary_path(root, lang);
	struct lesson *l = NULL;
	int rc = lesson_load(path, "glossary", lang, &l);
	free(path);
	if (rc)
		return rc;
	lesson_free(g->lesson);
	layout_free(g->lay);
	g->lesson = l;
	g->lay = layout_build(l, text_width());
	snprintf(g->lang, sizeof g->lang, "%s", lang);
	g->top = 0;
	rerun_search(g);
	return 0;
}

/* The line of the entry named term (either of a zh entry's names); -1
 * when there is none. */
static long term_line(const struct glossary_view *g, const char *root, const char *term)
{
	struct glossary gl;
	long line = -1;
	if (!term || !*term || content_glossary_load(root, g->lang, &gl) != 0)
		return -1;
	int i = content_glossary_find(&gl, term);
	for (size_t s = 0; i >= 0 && s < g->lay->nsections && line < 0; s++)
		if (!strcmp(g->lay->sections[s].title, gl.e[i].heading))
			line = g->lay->sections[s].line;
	glossary_free(&gl);
	return line;
}

/* The entry on screen: the last heading at or above the top line. */
static int entry_at_top(const struct glossary_view *g)
{
	return g->lay->nlines ? g->lay->lines[g->top].section : -1;
}

static void draw_terms(struct tui *t, struct glossary_view *g)
{
	int h = LINES - 4, w = COLS - 6, y0 = 2, x0 = 3;
	for (int y = 0; y < h; y++) {
		move(y0 + y, x0);
		for (int x = 0; x < w; x++)
			addch(' ' | A_REVERSE);
	}
	term_text(y0, x0 + 1, i18n(t->app->lang, M_GLOSSARY_TERMS), w - 2, A_REVERSE | A_BOLD);
	int rows = h - 2;
	int first = g->terms_sel >= rows ? g->terms_sel - rows + 1 : 0;
	for (int i = first; i < (int)g->lay->nsections && i - first < rows; i++) {
		int attr = i == g->terms_sel ? A_BOLD : A_REVERSE;
		int y = y0 + 2 + i - first;
		if (i == g->terms_sel)
			mvhline(y, x0, ' ', w);
		term_text(y, x0 + 1, g->lay->sections[i].title, w - 2, attr);
	}
}

static void glossary_draw(struct tui *t, void *self)
{
	struct glossary_view *g = self;
	erase();
	int rows = page_rows();
	for (int i = 0; i < rows && g->top + (size_t)i < g->lay->nlines; i++) {
		size_t ln = g->top + (size_t)i;
		const struct lay_line *l = &g->lay->lines[ln];
		term_draw_line(t, i, 1, l, COLS - 1);
		unsigned hs[64][2];
		size_t nh = 0;
		for (size_t h = 0; h < g->nhits && nh < 64; h++)
			if (g->hits[h].line == ln) {
				hs[nh][0] = g->hits[h].start;
				hs[nh][1] = g->hits[h].len;
				nh++;
			}
		if (nh)
			term_draw_hits(i, 1, l, (const unsigned(*)[2])hs, nh);
	}
	if (g->terms_open && g->lay->nsections)
		draw_terms(t, g);
	char left[512], right[64];
	int sec = entry_at_top(g);
	snprintf(left, sizeof left, "%s%s%s", g->lesson->title, sec >= 0 ? " › " : "",
		 sec >= 0 ? g->lay->sections[sec].title : "");
	snprintf(right, sizeof right, "%s", i18n(t->app->lang, M_GLOSSARY_HINT));
	term_status(t, left, right);
}

static void goto_hit(struct tui *t, struct glossary_view *g)
{
	if (!g->nhits) {
		tui_flash(t, i18n(t->app->lang, M_SEARCH_NONE), g->query);
		return;
	}
	scroll_to(g, (long)g->hits[g->cur_hit].line - 2);
	tui_flash(t, i18n(t->app->lang, M_SEARCH_HITS), g->cur_hit + 1, g->nhits, g->query);
}

static void search(struct tui *t, struct glossary_view *g)
{
	char q[256];
	snprintf(q, sizeof q, "%s", g->query);
	if (!term_prompt(t, i18n(t->app->lang, M_SEARCH_PROMPT), q, sizeof q) || !q[0])
		return;
	snprintf(g->query, sizeof g->query, "%s", q);
	rerun_search(g);
	g->cur_hit = 0;
	while (g->cur_hit < g->nhits && g->hits[g->cur_hit].line < g->top)
		g->cur_hit++;
	if (g->cur_hit == g->nhits)
		g->cur_hit = 0;
	goto_hit(t, g);
}

static void switch_lang(struct tui *t, struct glossary_view *g)
{
	const char *to = strcmp(g->lang, "zh") ? "zh" : "en";
	int sec = entry_at_top(g);
	if (load(g, t->app->content, to) != 0) {
		tui_flash(t, "%s", i18n(to, M_GLOSSARY_MISSING));
		return;
	}
	t->app->lang = !strcmp(to, "zh") ? "zh" : "en";
	/* The two glossaries list the same terms in the same order. */
	if (sec >= 0 && (size_t)sec < g->lay->nsections)
		scroll_to(g, g->lay->sections[sec].line);
}

static void terms_key(struct glossary_view *g, int action)
{
	int n = (int)g->lay->nsections;
	switch (action) {
	case T_DOWN:
		if (g->terms_sel + 1 < n)
			g->terms_sel++;
		break;
	case T_UP:
		if (g->terms_sel > 0)
			g->terms_sel--;
		break;
	case T_JUMP:
		if (n)
			scroll_to(g, g->lay->sections[g->terms_sel].line);
		g->terms_open = 0;
		break;
	case T_CLOSE: g->terms_open = 0; break;
	}
}

static void glossary_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	struct glossary_view *g = self;
	long top = (long)g->top, rows = page_rows();
	(void)ch;
	(void)is_code;
	if (g->terms_open) {
		terms_key(g, action);
		return;
	}
	long to;
	if (pager_target(action, top, rows, (long)max_top(g), &to)) {
		scroll_to(g, to);
		return;
	}
	switch (action) {
	case G_TERMS: {
		int sec = entry_at_top(g);
		g->terms_open = g->lay->nsections > 0;
		g->terms_sel = sec > 0 ? sec : 0;
		break;
	}
	case G_SEARCH: search(t, g); break;
	case G_NEXT:
		if (g->nhits)
			g->cur_hit = (g->cur_hit + 1) % g->nhits;
		if (g->query[0])
			goto_hit(t, g);
		break;
	case G_PREV:
		if (g->nhits)
			g->cur_hit = (g->cur_hit + g->nhits - 1) % g->nhits;
		if (g->query[0])
			goto_hit(t, g);
		break;
	case G_LANG: switch_lang(t, g); break;
	case G_BACK: tui_back(t); break;
	case G_MOUSE: {
		MEVENT ev;
		if (getmouse(&ev) == OK) {
			if (ev.bstate & BUTTON4_PRESSED)
				scroll_to(g, top - 3);
			else if (ev.bstate & BUTTON5_PRESSED)
				scroll_to(g, top + 3);
		}
		break;
	}
	}
}

static void glossary_resize(struct tui *t, void *self)
{
	(void)t;
	struct glossary_view *g = self;
	if (COLS >= TUI_MIN_COLS && text_width() != g->lay->width) {
		int block = 0, offset = 0;
		if (g->lay->nlines) {
			block = g->lay->lines[g->top].block;
			offset = g->lay->lines[g->top].offset;
		}
		layout_free(g->lay);
		g->lay = layout_build(g->lesson, text_width());
		g->top = layout_find_anchor(g->lay, block, offset);
		rerun_search(g);
	}
	if (g->top > max_top(g))
		g->top = max_top(g);
}

static void glossary_free_view(void *self)
{
	struct glossary_view *g = self;
	layout_free(g->lay);
	lesson_free(g->lesson);
	free(g->hits);
	free(g);
}

static struct keymap glossary_keymap(void *self)
{
	const struct glossary_view *g = self;
	if (g->terms_open)
		return (struct keymap){terms_keys, WB_ARRAY_LEN(terms_keys), 0};
	return (struct keymap){glossary_keys, WB_ARRAY_LEN(glossary_keys), 0};
}

int glossary_open(struct tui *t, const char *lang, const char *term, struct screen *out)
{
	struct glossary_view *g = wb_xcalloc(1, sizeof *g);
	int rc = load(g, t->app->content, lang && *lang ? lang : t->app->lang);
	if (rc) {
		free(g);
		return rc;
	}
	long line = term_line(g, t->app->content, term);
	if (line >= 0)
		scroll_to(g, line);
	else if (term && *term)
		tui_flash(t, i18n(t->app->lang, M_GLOSSARY_NO_TERM), term);
	*out = (struct screen){
		.name = "glossary",
		.self = g,
		.draw = glossary_draw,
		.key = glossary_key,
		.resize = glossary_resize,
		.free = glossary_free_view,
		.keymap = glossary_keymap,
		.keys = glossary_keys,
		.nkeys = WB_ARRAY_LEN(glossary_keys),
	};
	return 0;
}
