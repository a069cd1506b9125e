/*
 * home.c - the home screen: chapters of the current language with the
 * share read, Enter opens one, L switches the language; below the list
 * the review line (the test in progress, or the questions due today and
 * the new ones a review brings in); each chapter shows its due count.
 * It opens other screens only by asking nav.c (tui_go).
 */
#include "tui/home.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "app.h"
#include "core/answers.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/session.h"
#include "core/content.h"
#include "core/i18n.h"
#include "core/labcat.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H_UP, H_DOWN, H_OPEN, H_LANG, H_QUIT, H_TOP, H_BOTTOM, H_TEST, H_REVIEW, H_STATS };

static const struct keybind home_keys[] = {
	{'k', 0, "k", H_UP, "previous chapter", "上一章"},
	{KEY_UP, 1, "↑", H_UP, "previous chapter", "上一章"},
	{'j', 0, "j", H_DOWN, "next chapter", "下一章"},
	{KEY_DOWN, 1, "↓", H_DOWN, "next chapter", "下一章"},
	{'\r', 0, "Enter", H_OPEN, "open the chapter", "打开这一章"},
	{'\n', 0, "Enter", H_OPEN, "open the chapter", "打开这一章"},
	{KEY_ENTER, 1, "Enter", H_OPEN, "open the chapter", "打开这一章"},
	{KEY_RIGHT, 1, "→", H_OPEN, "open the chapter", "打开这一章"},
	{'g', 0, "g", H_TOP, "first chapter", "第一章"},
	{'G', 0, "G", H_BOTTOM, "last chapter", "最后一章"},
	{'L', 0, "L", H_LANG, "switch language (English/中文)", "切换语言（English/中文）"},
	{'s', 0, "s", H_TEST, "closed-book self-test of the chapter (or resume it)",
	 "本章闭卷自测（或继续）"},
	{'r', 0, "r", H_REVIEW, "review the questions due today", "复习今天到期的题目"},
	{'p', 0, "p", H_STATS, "statistics", "统计"},
	{'q', 0, "q", H_QUIT, "quit", "退出"},
};

struct home {
	struct chapter_list chapters; /* of the current language */
	int sel;		      /* selected row */
	char lang[8];		      /* language the list was loaded for */
};

static void home_load(struct tui *t, struct home *h)
{
	chapter_list_free(&h->chapters);
	content_list_chapters(t->app->content, t->app->lang, &h->chapters);
	snprintf(h->lang, sizeof h->lang, "%s", t->app->lang);
	if (h->sel >= (int)h->chapters.n)
		h->sel = h->chapters.n ? (int)h->chapters.n - 1 : 0;
}

/* Catalogue labs of a chapter ("01-..." matches "01" in the entry's
 * chapter list) and how many of them have a passing run. */
static int chapter_labs(struct tui *t, const char *chapter, int *passed)
{
	size_t n;
	const struct labcat_entry *all = labcat_all(&n);
	int total = 0;
	*passed = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strstr(all[i].chapters, (char[]){chapter[0], chapter[1], 0}))
			continue;
		total++;
		*passed += store_lab_passed(t->store, all[i].id);
	}
	return total;
}

/* Questions of a chapter due today (scheduled ones, overdue included),
 * like Anki's due count per deck. */
static int chapter_due(struct tui *t, const char *chapter)
{
	int due = 0;
	tui_due_today(t, t->app->lang); /* loads t->due_bank for this language */
	if (t->due_bank)
		answers_due_today(t->store, t->due_bank, chapter, answers_now_ms() / 1000, &due,
				  NULL);
	return due;
}

/* The review line at row y: the test in progress, or how many questions
 * are due today. */
static void review_line(struct tui *t, int y)
{
	const char *L = t->app->lang;
	char buf[512];
	struct quiz_test *run;
	if (answers_running_test(t->store, &run) == 0) {
		snprintf(buf, sizeof buf, i18n(L, M_HOME_TEST_RUNNING),
			 run->chapter ? run->chapter : i18n(L, M_QUIZ_REVIEW_TITLE), run->answered,
			 run->n);
		quiz_test_free(run);
		term_text_cut(y, 2, buf, COLS - 4, A_BOLD);
		return;
	}
	int due = tui_due_today(t, L), fresh = 0;
	if (t->due_bank)
		answers_due_today(t->store, t->due_bank, NULL, answers_now_ms() / 1000, &due,
				  &fresh);
	snprintf(buf, sizeof buf, i18n(L, M_HOME_DUE_NEW), due, fresh);
	term_text_cut(y, 2, buf, COLS - 4, A_DIM);
}

/* Asks nav.c for a screen about the selected chapter. */
static void go_chapter(struct tui *t, struct home *h, enum nav_kind kind)
{
	struct nav n = {.kind = kind};
	snprintf(n.chapter, sizeof n.chapter, "%s", h->chapters.items[h->sel].id);
	snprintf(n.lang, sizeof n.lang, "%s", t->app->lang);
	tui_go(t, &n);
}

/* The right side of chapter c's row into right: due questions, labs
 * passed, exercises solved and the share read (pct).  The share read
 * always shows; the exercises give way first, when the title would be cut;
 * the labs and due counts give way before the title has less than 12
 * columns.  Returns its width in columns. */
static int row_right(struct tui *t, const struct chapter_info *c, int pct, char *right, size_t len)
{
	const char *lang = t->app->lang;
	int passed, total = chapter_labs(t, c->id, &passed), solved, nex;
	char due[32] = "", labs[48] = "", ex[64] = "";
	int ndue = chapter_due(t, c->id);
	if (ndue > 0) {
		snprintf(due, sizeof due - 2, i18n(lang, M_HOME_CHAPTER_DUE), ndue);
		strcat(due, "  ");
	}
	if (total)
		snprintf(labs, sizeof labs, "%s %d/%d  ", i18n(lang, M_LABS), passed, total);
	if (progress_exercises_solved(t->store, c->id, &solved, &nex) == 0 && nex)
		snprintf(ex, sizeof ex, "%s %d/%d  ", i18n(lang, M_EX_SOLVED), solved, nex);
	snprintf(right, len, "%s%s%s%3d%% %s", due, labs, ex, pct, i18n(lang, M_READ));
	int rw = utf8_width(right, strlen(right));
	if (*ex && COLS - 6 - rw - 4 < utf8_width(c->title, strlen(c->title))) {
		snprintf(right, len, "%s%s%3d%% %s", due, labs, pct, i18n(lang, M_READ));
		rw = utf8_width(right, strlen(right));
	}
	if (COLS - 6 - rw - 4 < 12) {
		snprintf(right, len, "%3d%% %s", pct, i18n(lang, M_READ));
		rw = utf8_width(right, strlen(right));
	}
	return rw;
}

static void home_draw(struct tui *t, void *self)
{
	struct home *h = self;
	const char *lang = t->app->lang;
	if (strcmp(h->lang, lang) != 0)
		home_load(t, h);
	erase();
	term_text_cut(0, 1, i18n(lang, M_APP_TITLE), COLS - 2, term_attr_heading(t));
	if (!h->chapters.n) {
		char buf[512];
		snprintf(buf, sizeof buf, i18n(lang, M_NO_CHAPTERS), t->app->content);
		term_text(2, 1, buf, COLS - 2, 0);
	}
	int rows = LINES - 4;
	int first = h->sel >= rows ? h->sel - rows + 1 : 0;
	for (int i = first; i < (int)h->chapters.n && i - first < rows; i++) {
		const struct chapter_info *c = &h->chapters.items[i];
		struct store_position pos;
		int pct = 0;
		if (store_get_position(t->store, c->id, lang, &pos) == 0)
			pct = pos.furthest_permille / 10;
		char right[160];
		int rw = row_right(t, c, pct, right, sizeof right);
		int y = 2 + i - first;
		int attr = i == h->sel ? term_attr_select() : 0;
		if (attr) {
			attron(attr);
			mvhline(y, 0, ' ', COLS);
			attroff(attr);
		}
		char num[4] = {c->id[0], c->id[1], 0};
		term_text(y, 2, num, 2, attr | A_BOLD);
		term_text_cut(y, 6, c->title, COLS - 6 - rw - 4, attr);
		term_text(y, COLS - rw - 2, right, rw, attr);
	}
	review_line(t, LINES - 2);
	term_status(t, i18n(lang, M_HOME_HINT), !strcmp(lang, "zh") ? "中文" : "English");
}

static void home_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	(void)ch;
	(void)is_code;
	struct home *h = self;
	int n = (int)h->chapters.n;
	switch (action) {
	case H_UP:
		if (h->sel > 0)
			h->sel--;
		break;
	case H_DOWN:
		if (h->sel + 1 < n)
			h->sel++;
		break;
	case H_TOP: h->sel = 0; break;
	case H_BOTTOM: h->sel = n ? n - 1 : 0; break;
	case H_OPEN:
		if (n)
			go_chapter(t, h, NAV_READER);
		break;
	case H_LANG:
		t->app->lang = strcmp(t->app->lang, "zh") ? "zh" : "en";
		home_load(t, h);
		break;
	case H_QUIT: t->quit = 1; break;
	case H_TEST:
		if (n)
			go_chapter(t, h, NAV_TEST);
		break;
	case H_REVIEW: {
		struct nav r = {.kind = NAV_REVIEW};
		snprintf(r.lang, sizeof r.lang, "%s", t->app->lang);
		tui_go(t, &r);
		break;
	}
	case H_STATS: tui_go(t, &(struct nav){.kind = NAV_STATS}); break;
	}
}

static void home_free(void *self)
{
	struct home *h = self;
	chapter_list_free(&h->chapters);
	free(h);
}

struct screen home_screen(struct tui *t)
{
	struct home *h = wb_xcalloc(1, sizeof *h);
	home_load(t, h);
	return (struct screen){
		.name = "home",
		.self = h,
		.draw = home_draw,
		.key = home_key,
		.free = home_free,
		.keys = home_keys,
		.nkeys = WB_ARRAY_LEN(home_keys),
	};
}
