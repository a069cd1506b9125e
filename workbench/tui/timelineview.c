/*
 * timelineview.c - the lab screen's timeline view (timelineview.h).
 *
 * The event lines are kept by core/timeline_events; each frame makes a
 * timeline of them and lays it out at the screen's width (a run's history
 * is small), so a running lab's operations appear as they complete and
 * the open ones are drawn as pending.  Cells become curses runs of one
 * attribute each: the witness reverse bold, its label bold, marks bold,
 * the scale, breaks and lane rules dim.  It draws nothing but the view;
 * the status line and the keys are lab.c's.
 */
#include "tui/timelineview.h"
#include "tui/term.h"
#include "core/i18n.h"
#include "core/timeline.h"
#include "core/timeline_events.h"
#include "base/testhook.h"
#include "base/wb.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tlview {
	struct tl_events *ev;	/* the timeline events fed since the run started */
	int top;		/* first lane row shown */
	struct tl_picture *pic; /* the last drawing, or NULL */
	size_t pic_count;	/* events it was drawn from */
	int pic_width;		/* and at which width, */
	const char *pic_lang;	/* in which language (static i18n pointer) */
};

static void drop_picture(struct tlview *v)
{
	timeline_picture_free(v->pic);
	v->pic = NULL;
}

static void load_seam(struct tlview *v)
{
	const char *path = testhook_timeline_events();
	char *data = NULL;
	size_t len = 0;
	if (!path || !*path || wb_read_file(path, &data, &len) != 0)
		return;
	for (char *line = data, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		(void)tlview_feed(v, line);
	}
	free(data);
}

struct tlview *tlview_new(void)
{
	struct tlview *v = wb_xcalloc(1, sizeof *v);
	v->ev = tl_events_new();
	load_seam(v);
	return v;
}

void tlview_free(struct tlview *v)
{
	if (!v)
		return;
	tl_events_free(v->ev);
	drop_picture(v);
	free(v);
}

void tlview_reset(struct tlview *v)
{
	tl_events_free(v->ev);
	v->ev = tl_events_new();
	v->top = 0;
	drop_picture(v);
	load_seam(v);
}

int tlview_feed(struct tlview *v, const char *line)
{
	char err[256];
	return tl_events_feed(v->ev, line, err, sizeof err) != 0;
}

void tlview_scroll(struct tlview *v, int delta)
{
	v->top += delta;
	if (v->top < 0)
		v->top = 0;
}

void tlview_jump(struct tlview *v, int top)
{
	v->top = top ? 0 : 1 << 30;
}

static int curses_attr(unsigned a)
{
	if ((a & TL_A_WITNESS) && (a & TL_A_BAR) && !(a & TL_A_LABEL))
		return A_REVERSE | A_BOLD;
	if (a & (TL_A_WITNESS | TL_A_LANE | TL_A_MARK))
		return A_BOLD;
	if (a & (TL_A_SCALE | TL_A_BREAK))
		return A_DIM;
	return A_NORMAL;
}

/* Row r of p at screen row y: runs of cells with one attribute each. */
static void draw_row(const struct tl_picture *p, size_t r, int y, int x0)
{
	const struct tl_cell *c = p->rows[r].cells;
	int x = 0;
	while (x < p->width) {
		int attr = curses_attr(c[x].attr), start = x;
		struct wb_buf run = {0};
		wb_buf_puts(&run, "");
		while (x < p->width && curses_attr(c[x].attr) == attr)
			wb_buf_puts(&run, c[x++].text);
		term_text(y, x0 + start, run.data, x - start, attr);
		wb_buf_free(&run);
	}
}

void tlview_draw(struct tlview *v, int y0, int x0, int rows, int width, const char *lang)
{
	if (!tl_events_count(v->ev)) {
		term_text_cut(y0, x0, i18n(lang, M_TL_NO_HISTORY), width, A_NORMAL);
		return;
	}
	/* Laid out again only when an event came or the screen changed: the
	 * loop redraws many times a second while a lab runs. */
	if (!v->pic || v->pic_count != tl_events_count(v->ev) || v->pic_width != width ||
	    v->pic_lang != i18n(lang, M_TL_MS)) {
		drop_picture(v);
		struct timeline *t = tl_events_timeline(v->ev);
		(void)timeline_render(t, width, lang, &v->pic);
		timeline_free(t);
		v->pic_count = tl_events_count(v->ev);
		v->pic_width = width;
		v->pic_lang = i18n(lang, M_TL_MS);
	}
	const struct tl_picture *p = v->pic;
	if (!p) { /* narrower than TL_MIN_WIDTH */
		term_text_cut(y0, x0, i18n(lang, M_TL_TITLE), width, A_NORMAL);
		return;
	}
	int head = (int)p->nhead, body = (int)p->n - head, room = rows - head;
	if (room < 1)
		room = 1;
	int maxtop = body > room ? body - room : 0;
	if (v->top > maxtop)
		v->top = maxtop;
	for (int i = 0; i < head && i < rows; i++)
		draw_row(p, (size_t)i, y0 + i, x0);
	for (int i = 0; i < room && head + i < rows && v->top + i < body; i++)
		draw_row(p, (size_t)(head + v->top + i), y0 + head + i, x0);
}
