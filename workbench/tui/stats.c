/*
 * tui/stats.c - the statistics screen: mastery per chapter, points per
 * test over time as a small column chart, and the questions due in the
 * next 14 days as a bar chart.
 *
 * The screen is rendered into plain text lines when opened (and again on
 * a resize), then scrolled; the numbers come from core/answers.h.  It
 * writes nothing.
 */
#include "app.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/content.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "core/quizbank.h"
#include "core/utf8.h"
#include "base/wb.h"
#include "tui/pager.h"
#include "tui/stats.h"
#include "tui/term.h"
#include "tui/tui.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DUE_DAYS   14
#define CHART_ROWS 5

struct stats {
	char **lines; /* rendered text */
	int *attrs;   /* curses attribute per line */
	size_t n;
	int top;   /* first line shown */
	int width; /* COLS when rendered */
};

enum { S_BACK };

static const struct keybind stats_keys[] = {
	PAGER_KEYS,
	{'q', 0, "q", S_BACK, "back", "返回"},
	{KEY_LEFT, 1, "←", S_BACK, "back", "返回"},
};

static void add(struct stats *s, int attr, char *line)
{
	s->lines = wb_xrealloc(s->lines, (s->n + 1) * sizeof *s->lines);
	s->attrs = wb_xrealloc(s->attrs, (s->n + 1) * sizeof *s->attrs);
	s->lines[s->n] = line;
	s->attrs[s->n++] = attr;
}

static void stats_clear(struct stats *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->lines[i]);
	free(s->lines);
	free(s->attrs);
	s->lines = NULL;
	s->attrs = NULL;
	s->n = 0;
}

/* A bar of `cells` columns filled to share (0..1) with eighth blocks. */
static void bar(struct wb_buf *b, double share, int cells)
{
	static const char *eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
	int total = (int)(share * cells * 8 + 0.5);
	for (int i = 0; i < cells; i++) {
		int fill = total - i * 8;
		if (fill >= 8)
			wb_buf_puts(b, "█");
		else if (fill > 0)
			wb_buf_puts(b, eighths[fill]);
		else
			wb_buf_puts(b, "·");
	}
}

/* One column cell of a vertical chart: `level` eighths of this row. */
static const char *vcell(int level)
{
	static const char *cells[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
	return cells[level < 0 ? 0 : level > 8 ? 8 : level];
}

static void render_mastery(struct tui *t, struct stats *s, const struct quiz_bank *bank)
{
	const char *L = t->app->lang;
	add(s, A_BOLD, wb_xstrdup(i18n(L, M_STATS_MASTERY)));
	const char **chapters;
	size_t nc = quiz_bank_chapters(bank, &chapters);
	struct chapter_list lessons = {0};
	content_list_chapters(t->app->content, L, &lessons);
	int cells = COLS >= 70 ? 20 : 10;
	int titlew = COLS - cells - 22;
	if (titlew < 8)
		titlew = 8;
	for (size_t i = 0; i < nc; i++) {
		int got = 0, total = 0;
		answers_mastery(t->store, bank, chapters[i], &got, &total);
		const char *title = chapters[i];
		for (size_t k = 0; k < lessons.n; k++)
			if (!strcmp(lessons.items[k].id, chapters[i]))
				title = lessons.items[k].title;
		/* Clip the title to its column by display width. */
		struct wb_buf b = {0};
		wb_buf_printf(&b, "  %.2s ", chapters[i]);
		int used = 0;
		for (size_t k = 0, len = strlen(title); k < len;) {
			uint32_t cp;
			size_t step = utf8_decode(title + k, len - k, &cp);
			int w = utf8_cp_width(cp);
			if (used + w > titlew)
				break;
			wb_buf_append(&b, title + k, step);
			used += w;
			k += step;
		}
		for (; used < titlew; used++)
			wb_buf_puts(&b, " ");
		wb_buf_puts(&b, " ");
		bar(&b, total ? (double)got / total : 0, cells);
		wb_buf_printf(&b, " %3d%% %d/%d", total ? got * 100 / total : 0, got, total);
		add(s, 0, wb_buf_steal(&b));
	}
	chapter_list_free(&lessons);
	free(chapters);
}

static void render_points(struct tui *t, struct stats *s)
{
	const char *L = t->app->lang;
	struct answers_test_points *h = NULL;
	size_t n = 0;
	answers_test_history(t->store, &h, &n);
	char head[256];
	snprintf(head, sizeof head, i18n(L, M_STATS_POINTS), n);
	add(s, A_BOLD, wb_xstrdup(head));
	if (n == 0) {
		add(s, A_DIM, wb_xasprintf("  %s", i18n(L, M_STATS_NO_TESTS)));
		answers_test_history_free(h, n);
		return;
	}
	/* One column (two cells wide) per test; the latest that fit. */
	size_t fit = (size_t)((COLS - 10) / 2);
	size_t first = n > fit ? n - fit : 0;
	for (int row = CHART_ROWS - 1; row >= 0; row--) {
		struct wb_buf b = {0};
		const char *label = row == CHART_ROWS - 1 ? "100%" : row == 0 ? "  0%" : "    ";
		wb_buf_printf(&b, "  %s ┤", label);
		for (size_t i = first; i < n; i++) {
			double share = h[i].max_points ? (double)h[i].points / h[i].max_points : 0;
			int eighths = (int)(share * CHART_ROWS * 8 + 0.5);
			/* A test with no points still shows a sliver on the axis. */
			if (row == 0 && eighths == 0)
				eighths = 1;
			const char *c = vcell(eighths - row * 8);
			wb_buf_puts(&b, c);
			wb_buf_puts(&b, c);
		}
		add(s, 0, wb_buf_steal(&b));
	}
	/* Dates of the first and last test shown under the axis. */
	char d0[16], d1[16];
	time_t a = (time_t)(h[first].started_at / 1000), z = (time_t)(h[n - 1].started_at / 1000);
	struct tm tm;
	localtime_r(&a, &tm);
	strftime(d0, sizeof d0, "%m-%d", &tm);
	localtime_r(&z, &tm);
	strftime(d1, sizeof d1, "%m-%d", &tm);
	/* The last date ends under the last column, or, when the columns
	 * are too few for both, follows the first after two spaces. */
	int cols = (int)(n - first) * 2;
	add(s, A_DIM,
	    wb_xasprintf("        %s%*s", d0, cols - 5 > 7 ? cols - 5 : 7,
			 n - first > 1 ? d1 : ""));
	answers_test_history_free(h, n);
}

static void render_due(struct tui *t, struct stats *s, const struct quiz_bank *bank)
{
	const char *L = t->app->lang;
	add(s, A_BOLD, wb_xstrdup(i18n(L, M_STATS_DUE)));
	int counts[DUE_DAYS];
	int64_t now = answers_now_ms() / 1000;
	answers_due_days(t->store, bank, now, DUE_DAYS, counts);
	int max = 0;
	for (int i = 0; i < DUE_DAYS; i++)
		if (counts[i] > max)
			max = counts[i];
	/* Columns three cells wide, scaled to the busiest day. */
	for (int row = CHART_ROWS - 1; row >= 0; row--) {
		struct wb_buf b = {0};
		if (row == CHART_ROWS - 1)
			wb_buf_printf(&b, "  %4d ┤", max);
		else if (row == 0)
			wb_buf_printf(&b, "  %4d ┤", 0);
		else
			wb_buf_puts(&b, "       ┤");
		for (int d = 0; d < DUE_DAYS; d++) {
			int eighths = max ? (counts[d] * CHART_ROWS * 8 + max - 1) / max : 0;
			const char *c = vcell(eighths - row * 8);
			wb_buf_printf(&b, "%s%s ", c, c);
		}
		add(s, 0, wb_buf_steal(&b));
	}
	struct wb_buf nums = {0}, days = {0};
	wb_buf_puts(&nums, "        ");
	wb_buf_puts(&days, "        ");
	for (int d = 0; d < DUE_DAYS; d++) {
		wb_buf_printf(&nums, "%-3d", counts[d]);
		time_t day = (time_t)answers_day_start(now, d);
		struct tm tm;
		localtime_r(&day, &tm);
		wb_buf_printf(&days, "%02d ", tm.tm_mday);
	}
	add(s, 0, wb_buf_steal(&nums));
	add(s, A_DIM, wb_buf_steal(&days));
	add(s, A_DIM,
	    wb_xasprintf("        ↑ %s (%d)", i18n(L, M_STATS_TODAY), tui_due_today(t, L)));
}

static int cmp_chapter(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Exercises solved per chapter (a chapter with none is left out). */
static void render_exercises(struct tui *t, struct stats *s)
{
	const char *L = t->app->lang;
	size_t n;
	const struct excat_entry *all = excat_all(&n);
	if (!n)
		return;
	add(s, 0, wb_xstrdup(""));
	add(s, A_BOLD, wb_xstrdup(i18n(L, M_STATS_EXERCISES)));
	char seen[64][3];
	size_t nseen = 0;
	for (size_t i = 0; i < n && nseen < WB_ARRAY_LEN(seen); i++) {
		size_t k = 0;
		while (k < nseen && strncmp(seen[k], all[i].chapter, 2))
			k++;
		if (k < nseen)
			continue;
		snprintf(seen[nseen++], sizeof seen[0], "%.2s", all[i].chapter);
	}
	qsort(seen, nseen, sizeof seen[0], cmp_chapter);
	for (size_t k = 0; k < nseen; k++) {
		int solved, total;
		if (progress_exercises_solved(t->store, seen[k], &solved, &total) != 0)
			continue;
		struct wb_buf b = {0};
		wb_buf_printf(&b, "  %s ", seen[k]);
		bar(&b, total ? (double)solved / total : 0, 20);
		wb_buf_printf(&b, " %d/%d", solved, total);
		add(s, 0, wb_buf_steal(&b));
		wb_buf_free(&b);
	}
}

static void render(struct tui *t, struct stats *s)
{
	stats_clear(s);
	s->width = COLS;
	struct quiz_bank *bank;
	quiz_bank_open(t->app->content, t->app->quizzes, t->app->lang, &bank);
	add(s, term_attr_heading(t), wb_xstrdup(i18n(t->app->lang, M_STATS_TITLE)));
	add(s, 0, wb_xstrdup(""));
	render_mastery(t, s, bank);
	add(s, 0, wb_xstrdup(""));
	render_points(t, s);
	add(s, 0, wb_xstrdup(""));
	render_due(t, s, bank);
	render_exercises(t, s);
	quiz_bank_free(bank);
}

static int page_rows(void)
{
	return LINES - 1;
}

static void clamp_top(struct stats *s)
{
	int max = (int)s->n - page_rows();
	if (s->top > max)
		s->top = max;
	if (s->top < 0)
		s->top = 0;
}

static void stats_draw(struct tui *t, void *self)
{
	struct stats *s = self;
	if (s->width != COLS)
		render(t, s);
	clamp_top(s);
	erase();
	for (int r = 0; r < page_rows() && s->top + r < (int)s->n; r++)
		term_text_cut(r, 1, s->lines[s->top + r], COLS - 2, s->attrs[s->top + r]);
	term_status(t, i18n(t->app->lang, M_STATS_HINT), "");
}

static void stats_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	(void)ch;
	(void)is_code;
	struct stats *s = self;
	long to;
	if (pager_target(action, s->top, page_rows(), (long)s->n - page_rows(), &to)) {
		s->top = to < 0 ? 0 : to > (long)s->n ? (int)s->n : (int)to;
		clamp_top(s);
		return;
	}
	if (action == S_BACK)
		tui_back(t);
}

static void stats_free(void *self)
{
	struct stats *s = self;
	stats_clear(s);
	free(s);
}

struct screen stats_screen(struct tui *t)
{
	struct stats *s = wb_xcalloc(1, sizeof *s);
	render(t, s);
	return ((struct screen){
		.name = "stats",
		.self = s,
		.draw = stats_draw,
		.key = stats_key,
		.free = stats_free,
		.keys = stats_keys,
		.nkeys = WB_ARRAY_LEN(stats_keys),
	});
}
