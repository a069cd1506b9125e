/*
 * timeline.c - lays an operation history out as lanes across time and
 * draws it as rows of cells (timeline.h says what the picture shows).
 *
 * Design notes.  Every distinct time of an event (an invocation, an ok or
 * fail completion, a mark) is a point; between two neighbouring points is
 * a gap.  A gap no ok/fail operation spans is idle; an idle gap longer
 * than a tenth of the whole run becomes a break of TL_BREAK_COLS columns
 * (the scale shows ≈, lanes ┊).  Every other gap gets one column, and the
 * columns left over are shared by the square root of each gap's length:
 * distinct times stay in distinct columns (so no bar has zero length and
 * two operations one after the other never touch), and a short read next
 * to a long write keeps room for its label.  When there are more gaps
 * than columns the minimum goes and some points share a column.
 *
 * Within its lane an operation takes the first row whose previous bar
 * ended left of its start (interval packing), so overlapping operations
 * of one process or server get rows of their own; marks get rows of their
 * own below the bars.  A label goes inside its bar, or right after it when
 * there is more room there, truncated with "…" to what there is; packing
 * keeps up to LABEL_ROOM columns free after a bar whose label does not fit
 * inside it (and after a mark), so a short operation followed at once by
 * the next one of its process keeps a readable label.
 *
 * Kept by hand rather than from a library: no Debian package lays out
 * Lamport diagrams into terminal cells, and the layout is short.  This
 * file reads no files and knows nothing of JSON or curses.
 */
#include "core/timeline.h"
#include "core/i18n.h"
#include "core/wrap.h"
#include "core/textsafe.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct op_rec {
	struct tl_op op; /* strings owned */
	int lane;
};

struct mark_rec {
	int lane;
	int64_t t;
	char *text;
};

struct timeline {
	struct op_rec *ops;
	size_t nops;
	struct mark_rec *marks;
	size_t nmarks;
	char **lanes; /* names as given, first appearance order */
	size_t nlanes;
	int *witness; /* history ids */
	size_t nwitness;
	char **notes; /* checker lines */
	size_t nnotes;
};

struct timeline *timeline_new(void)
{
	return wb_xcalloc(1, sizeof(struct timeline));
}

void timeline_free(struct timeline *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nops; i++) {
		free((char *)t->ops[i].op.process);
		free((char *)t->ops[i].op.f);
		free((char *)t->ops[i].op.value);
		free((char *)t->ops[i].op.result);
	}
	free(t->ops);
	for (size_t i = 0; i < t->nmarks; i++)
		free(t->marks[i].text);
	free(t->marks);
	for (size_t i = 0; i < t->nlanes; i++)
		free(t->lanes[i]);
	free(t->lanes);
	free(t->witness);
	for (size_t i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	free(t);
}

static int lane_of(struct timeline *t, const char *name)
{
	for (size_t i = 0; i < t->nlanes; i++)
		if (!strcmp(t->lanes[i], name))
			return (int)i;
	t->lanes = wb_xrealloc(t->lanes, (t->nlanes + 1) * sizeof *t->lanes);
	t->lanes[t->nlanes] = wb_xstrdup(name);
	return (int)t->nlanes++;
}

static char *dup_or_empty(const char *s)
{
	return wb_xstrdup(s ? s : "");
}

int timeline_add_op(struct timeline *t, const struct tl_op *op)
{
	if (!op->process || !*op->process || !op->f || !*op->f || op->t_invoke < 0)
		return WB_EINVAL;
	int done = op->outcome == TL_OK || op->outcome == TL_FAIL;
	if (done && op->t_complete < op->t_invoke)
		return WB_EINVAL;
	t->ops = wb_xrealloc(t->ops, (t->nops + 1) * sizeof *t->ops);
	struct op_rec *r = &t->ops[t->nops++];
	r->op = *op;
	r->op.process = wb_xstrdup(op->process);
	r->op.f = wb_xstrdup(op->f);
	r->op.value = dup_or_empty(op->value);
	r->op.result = dup_or_empty(op->result);
	if (!done)
		r->op.t_complete = op->t_invoke;
	r->lane = lane_of(t, op->process);
	return 0;
}

int timeline_add_mark(struct timeline *t, const char *lane, int64_t ns, const char *text)
{
	if (!lane || !*lane || ns < 0)
		return WB_EINVAL;
	t->marks = wb_xrealloc(t->marks, (t->nmarks + 1) * sizeof *t->marks);
	struct mark_rec *m = &t->marks[t->nmarks++];
	m->lane = lane_of(t, lane);
	m->t = ns;
	m->text = dup_or_empty(text);
	return 0;
}

void timeline_add_checker(struct timeline *t, const char *name, const char *result,
			  const char *text, const int *witness, size_t n)
{
	t->notes = wb_xrealloc(t->notes, (t->nnotes + 1) * sizeof *t->notes);
	t->notes[t->nnotes++] = wb_xasprintf("%s: %s%s%s", name ? name : "?", result ? result : "?",
					     text && *text ? " - " : "", text ? text : "");
	t->witness = wb_xrealloc(t->witness, (t->nwitness + n + 1) * sizeof *t->witness);
	for (size_t i = 0; i < n; i++)
		t->witness[t->nwitness++] = witness[i];
}

size_t timeline_nops(const struct timeline *t)
{
	return t->nops;
}

size_t timeline_nmarks(const struct timeline *t)
{
	return t->nmarks;
}

const struct tl_op *timeline_op(const struct timeline *t, size_t k)
{
	return k < t->nops ? &t->ops[k].op : NULL;
}

int timeline_is_witness(const struct timeline *t, size_t k)
{
	if (k >= t->nops)
		return 0;
	for (size_t i = 0; i < t->nwitness; i++)
		if (t->witness[i] == t->ops[k].op.index)
			return 1;
	return 0;
}

static int op_open(const struct tl_op *op)
{
	return op->outcome == TL_INFO || op->outcome == TL_PENDING;
}

char *timeline_op_label(const struct timeline *t, size_t k)
{
	const struct tl_op *op = &t->ops[k].op;
	struct wb_buf b = {0};
	wb_buf_puts(&b, op->f);
	if (*op->value) {
		wb_buf_puts(&b, " ");
		wb_buf_puts(&b, op->value);
	}
	if (op_open(op))
		wb_buf_puts(&b, "->?");
	else if (op->outcome != TL_FAIL && *op->result) /* a failure's ✗ is its bar's end */
		wb_buf_printf(&b, "->%s", op->result);
	char *raw = wb_buf_steal(&b);
	char *safe = textsafe_str(raw);
	free(raw);
	return safe;
}

int64_t timeline_span(const struct timeline *t)
{
	int64_t end = 0;
	for (size_t i = 0; i < t->nops; i++)
		if (t->ops[i].op.t_complete > end)
			end = t->ops[i].op.t_complete;
	for (size_t i = 0; i < t->nmarks; i++)
		if (t->marks[i].t > end)
			end = t->marks[i].t;
	return end;
}

/* ---- display width helpers ---- */

static int str_width(const char *s)
{
	return utf8_width(s, strlen(s));
}

char *timeline_fit(const char *s, int cols)
{
	if (cols <= 0)
		return wb_xstrdup("");
	if (str_width(s) <= cols)
		return wb_xstrdup(s);
	size_t n = strlen(s), i = 0;
	int w = 0;
	while (i < n) {
		uint32_t cp;
		size_t len = utf8_decode(s + i, n - i, &cp);
		int cw = utf8_cp_width(cp);
		if (w + cw > cols - 1)
			break;
		w += cw;
		i += len;
	}
	return wb_xasprintf("%.*s…", (int)i, s);
}

static char *fit(const char *s, int cols)
{
	return timeline_fit(s, cols);
}

/* ---- layout ---- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static size_t point_index(const int64_t *p, size_t m, int64_t t)
{
	size_t lo = 0, hi = m;
	while (lo + 1 < hi) {
		size_t mid = (lo + hi) / 2;
		if (p[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The time axis: sorted distinct points and the column of each. */
struct axis {
	int64_t *p;
	size_t m;
	int *x;
	unsigned char *brk; /* brk[k]: the gap after point k is a break */
};

static void axis_points(const struct timeline *t, struct axis *a)
{
	a->p = wb_xmalloc((2 * t->nops + t->nmarks + 1) * sizeof *a->p);
	size_t m = 0;
	for (size_t i = 0; i < t->nops; i++) {
		a->p[m++] = t->ops[i].op.t_invoke;
		if (!op_open(&t->ops[i].op))
			a->p[m++] = t->ops[i].op.t_complete;
	}
	for (size_t i = 0; i < t->nmarks; i++)
		a->p[m++] = t->marks[i].t;
	if (m > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(a->p, m, sizeof *a->p, cmp_i64);
	size_t u = 0;
	for (size_t i = 0; i < m; i++)
		if (!u || a->p[i] != a->p[u - 1])
			a->p[u++] = a->p[i];
	a->m = u;
}

/* Which gaps are breaks: idle and longer than a tenth of the run. */
static size_t axis_breaks(const struct timeline *t, struct axis *a)
{
	size_t m = a->m, nbreak = 0;
	a->brk = wb_xcalloc(m + 1, 1);
	if (m < 2)
		return 0;
	int *cover = wb_xcalloc(m + 1, sizeof *cover);
	for (size_t i = 0; i < t->nops; i++) {
		const struct tl_op *op = &t->ops[i].op;
		if (op_open(op))
			continue;
		cover[point_index(a->p, m, op->t_invoke)]++;
		cover[point_index(a->p, m, op->t_complete)]--;
	}
	int64_t span = a->p[m - 1] - a->p[0];
	int run = 0;
	for (size_t k = 0; k + 1 < m; k++) {
		run += cover[k];
		/* divided, not multiplied: times near INT64_MAX must not overflow */
		if (run == 0 && a->p[k + 1] - a->p[k] > span / 10) {
			a->brk[k] = 1;
			nbreak++;
		}
	}
	free(cover);
	return nbreak;
}

/* Columns for every point within area columns (see the design notes). */
static void axis_columns(struct axis *a, size_t nbreak, int area)
{
	size_t m = a->m;
	a->x = wb_xcalloc(m + 1, sizeof *a->x);
	if (m < 2)
		return;
	int reserve = area / 8;
	long budget = (long)area - 1 - reserve - (long)nbreak * (TL_BREAK_COLS + 1);
	size_t ngap = m - 1 - nbreak;
	double total = 0;
	for (size_t k = 0; k + 1 < m; k++)
		if (!a->brk[k])
			total += sqrt((double)(a->p[k + 1] - a->p[k]));
	int minimum = budget >= (long)ngap;
	long extra = budget - (minimum ? (long)ngap : 0);
	if (extra < 0)
		extra = 0;
	double cum = 0;
	long used = 0, base = 0;
	size_t gaps = 0;
	for (size_t k = 0; k + 1 < m; k++) {
		if (a->brk[k]) {
			base += TL_BREAK_COLS + 1;
		} else {
			cum += sqrt((double)(a->p[k + 1] - a->p[k]));
			gaps++;
			used = total > 0 ? (long)floor(extra * cum / total + 1e-9) : 0;
		}
		long x = base + used + (minimum ? (long)gaps : 0);
		a->x[k + 1] = x < area - 1 ? (int)x : area - 1;
	}
}

static int axis_x(const struct axis *a, int64_t t)
{
	return a->x[point_index(a->p, a->m, t)];
}

static void axis_free(struct axis *a)
{
	free(a->p);
	free(a->x);
	free(a->brk);
}

/* Columns a row keeps for a label outside its bar, or a mark's label. */
#define LABEL_ROOM 12

/* Per-lane row packing: the last column used in each row. */
struct packer {
	int *last;
	size_t n;
};

static int pack(struct packer *pk, int x0, int x1, int gap)
{
	for (size_t r = 0; r < pk->n; r++)
		if (pk->last[r] + gap < x0) {
			pk->last[r] = x1;
			return (int)r;
		}
	pk->last = wb_xrealloc(pk->last, (pk->n + 1) * sizeof *pk->last);
	pk->last[pk->n] = x1;
	return (int)pk->n++;
}

static void place_bars_and_marks(const struct timeline *t, const struct axis *a,
				 struct tl_layout *l)
{
	struct packer *bars = wb_xcalloc(t->nlanes + 1, sizeof *bars);
	struct packer *marks = wb_xcalloc(t->nlanes + 1, sizeof *marks);
	int *bar_row = wb_xcalloc(t->nops + 1, sizeof *bar_row);
	int *mark_row = wb_xcalloc(t->nmarks + 1, sizeof *mark_row);
	l->bars = wb_xcalloc(t->nops + 1, sizeof *l->bars);
	for (size_t i = 0; i < t->nops; i++) {
		const struct tl_op *op = &t->ops[i].op;
		struct tl_bar *b = &l->bars[l->nbars++];
		b->op = (int)i;
		b->open = op_open(op);
		b->x0 = axis_x(a, op->t_invoke);
		b->x1 = b->open ? l->area - 1 : axis_x(a, op->t_complete);
		if (b->x1 < b->x0)
			b->x1 = b->x0;
		b->attr = TL_A_BAR | (b->open ? TL_A_INFO : 0) |
			  (op->outcome == TL_FAIL ? TL_A_FAIL : 0) |
			  (timeline_is_witness(t, i) ? TL_A_WITNESS : 0);
		b->label = timeline_op_label(t, i);
		/* a label that does not fit inside goes after the bar: keep
		 * room for it (up to LABEL_ROOM columns) in the row */
		int lw = str_width(b->label), inside = b->x1 - b->x0 - 1, end = b->x1;
		if (!b->open && lw > inside)
			end += 1 + (lw < LABEL_ROOM ? lw : LABEL_ROOM);
		bar_row[i] = pack(&bars[t->ops[i].lane], b->x0, end, 0);
	}
	l->marks = wb_xcalloc(t->nmarks + 1, sizeof *l->marks);
	for (size_t i = 0; i < t->nmarks; i++) {
		struct tl_markpos *mp = &l->marks[l->nmarks++];
		mp->x = axis_x(a, t->marks[i].t);
		mp->label = textsafe_str(t->marks[i].text);
		/* a mark wants its glyph, a blank and some of its label */
		int lw = str_width(mp->label);
		mark_row[i] = pack(&marks[t->marks[i].lane], mp->x,
				   mp->x + 2 + (lw < LABEL_ROOM ? lw : LABEL_ROOM), 0);
	}
	l->lanes = wb_xcalloc(t->nlanes + 1, sizeof *l->lanes);
	int row = 0;
	for (size_t k = 0; k < t->nlanes; k++) {
		struct tl_lane *ln = &l->lanes[l->nlanes++];
		ln->name = textsafe_str(t->lanes[k]);
		ln->row0 = row;
		ln->nrows = (int)(bars[k].n + marks[k].n);
		if (ln->nrows < 1)
			ln->nrows = 1;
		row += ln->nrows;
	}
	l->nrows = row;
	for (size_t i = 0; i < t->nops; i++)
		l->bars[i].row = l->lanes[t->ops[i].lane].row0 + bar_row[i];
	for (size_t i = 0; i < t->nmarks; i++) {
		int lane = t->marks[i].lane;
		l->marks[i].row = l->lanes[lane].row0 + (int)bars[lane].n + mark_row[i];
	}
	for (size_t k = 0; k < t->nlanes; k++) {
		free(bars[k].last);
		free(marks[k].last);
	}
	free(bars);
	free(marks);
	free(bar_row);
	free(mark_row);
}

struct rowpos {
	int row, x;
	size_t i;
};

static int cmp_rowpos(const void *a, const void *b)
{
	const struct rowpos *p = a, *q = b;
	if (p->row != q->row)
		return p->row - q->row;
	if (p->x != q->x)
		return p->x - q->x;
	return (p->i > q->i) - (p->i < q->i);
}

/* Each bar's and mark's right-hand neighbour in its row (sorted once, so
 * labels are placed in O(n log n), not O(n^2), for a long history). */
static void link_rows(struct tl_layout *l)
{
	size_t n = l->nbars > l->nmarks ? l->nbars : l->nmarks;
	struct rowpos *rp = wb_xcalloc(n + 1, sizeof *rp);
	for (size_t i = 0; i < l->nbars; i++)
		rp[i] = (struct rowpos){l->bars[i].row, l->bars[i].x0, i};
	if (l->nbars > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(rp, l->nbars, sizeof *rp, cmp_rowpos);
	for (size_t k = 0; k < l->nbars; k++) {
		int next = l->area + 1;
		/* bars of a row never overlap, so the next one starts after x1 */
		if (k + 1 < l->nbars && rp[k + 1].row == rp[k].row)
			next = rp[k + 1].x;
		l->bars[rp[k].i].next_x0 = next;
	}
	for (size_t i = 0; i < l->nmarks; i++)
		rp[i] = (struct rowpos){l->marks[i].row, l->marks[i].x, i};
	if (l->nmarks > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(rp, l->nmarks, sizeof *rp, cmp_rowpos);
	for (size_t k = 0; k < l->nmarks; k++) {
		size_t j = k + 1;
		while (j < l->nmarks && rp[j].row == rp[k].row && rp[j].x == rp[k].x)
			j++;
		struct tl_markpos *m = &l->marks[rp[k].i];
		m->next_x = j < l->nmarks && rp[j].row == rp[k].row ? rp[j].x : l->area + 1;
		m->first = k == 0 || rp[k - 1].row != rp[k].row;
	}
	free(rp);
}

static char *ms_text(int64_t ns)
{
	double ms = (double)ns / 1e6;
	if (ms < 10 && ns % 1000000)
		return wb_xasprintf("%.1f", ms);
	return wb_xasprintf("%.0f", ms);
}

/* Ticks: first the run's start, the first point after each break and the
 * last point, then any other point with room for its label. */
static void place_ticks(const struct axis *a, struct tl_layout *l)
{
	unsigned char *used = wb_xcalloc((size_t)l->area + 1, 1);
	l->ticks = wb_xcalloc(a->m + 1, sizeof *l->ticks);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < a->m; k++) {
			int key = k == 0 || k + 1 == a->m || a->brk[k - 1];
			if ((pass == 0) != key)
				continue;
			char *s = ms_text(a->p[k]);
			int w = str_width(s), x = a->x[k];
			free(s);
			int ok = x + w <= l->area;
			for (int c = x - 1; ok && c <= x + w; c++)
				if (c >= 0 && c < l->area && used[c])
					ok = 0;
			if (!ok)
				continue;
			for (int c = x; c < x + w; c++)
				used[c] = 1;
			l->ticks[l->nticks++] = (struct tl_tick){x, a->p[k]};
		}
	}
	free(used);
}

static void add_note(struct tl_layout *l, char *s)
{
	l->notes = wb_xrealloc(l->notes, (l->nnotes + 1) * sizeof *l->notes);
	l->notes[l->nnotes++] = s;
}

static void place_notes(const struct timeline *t, const struct axis *a, struct tl_layout *l,
			const char *lang)
{
	if (!t->nops && !t->nmarks) {
		add_note(l, wb_xstrdup(i18n(lang, M_TL_EMPTY)));
		return;
	}
	int64_t idle = 0;
	l->breaks = wb_xcalloc(a->m + 1, sizeof *l->breaks);
	for (size_t k = 0; k + 1 < a->m; k++)
		if (a->brk[k]) {
			l->breaks[l->nbreaks++] =
				(struct tl_break){a->x[k] + 1, a->p[k], a->p[k + 1]};
			idle += a->p[k + 1] - a->p[k];
		}
	if (l->nbreaks) {
		char *ms = ms_text(idle);
		add_note(l, wb_xasprintf(i18n(lang, M_TL_NOTE_BREAKS), ms));
		free(ms);
	} else {
		add_note(l, wb_xstrdup(i18n(lang, M_TL_NOTE_SCALE)));
	}
	struct wb_buf ids = {0};
	for (size_t i = 0; i < t->nops; i++)
		if (timeline_is_witness(t, i)) {
			char *lab = timeline_op_label(t, i);
			char *who = textsafe_str(t->ops[i].op.process);
			wb_buf_printf(&ids, "%s#%d %s %s", ids.len ? ", " : "", t->ops[i].op.index,
				      who, lab);
			free(who);
			free(lab);
		}
	if (ids.len)
		add_note(l, wb_xasprintf(i18n(lang, M_TL_NOTE_WITNESS), ids.data));
	wb_buf_free(&ids);
	for (size_t i = 0; i < t->nnotes; i++)
		add_note(l, textsafe_str(t->notes[i]));
}

int timeline_layout(const struct timeline *t, int width, const char *lang, struct tl_layout **out)
{
	*out = NULL;
	if (width < TL_MIN_WIDTH)
		return WB_ERANGE;
	struct tl_layout *l = wb_xcalloc(1, sizeof *l);
	l->width = width;
	l->unit = i18n(lang, M_TL_MS);
	int names = 0;
	for (size_t k = 0; k < t->nlanes; k++) {
		char *s = textsafe_str(t->lanes[k]);
		int w = str_width(s);
		free(s);
		names = w > names ? w : names;
	}
	int ms = str_width(i18n(lang, M_TL_MS));
	names = names < ms ? ms : names > 10 ? 10 : names;
	l->name_cols = names + 1;
	l->area = width - l->name_cols;
	struct axis a = {0};
	axis_points(t, &a);
	size_t nbreak = axis_breaks(t, &a);
	axis_columns(&a, nbreak, l->area);
	place_bars_and_marks(t, &a, l);
	link_rows(l);
	place_ticks(&a, l);
	place_notes(t, &a, l, lang);
	axis_free(&a);
	*out = l;
	return 0;
}

void timeline_layout_free(struct tl_layout *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nlanes; i++)
		free(l->lanes[i].name);
	for (size_t i = 0; i < l->nbars; i++)
		free(l->bars[i].label);
	for (size_t i = 0; i < l->nmarks; i++)
		free(l->marks[i].label);
	for (size_t i = 0; i < l->nnotes; i++)
		free(l->notes[i]);
	free(l->lanes);
	free(l->bars);
	free(l->marks);
	free(l->ticks);
	free(l->breaks);
	free(l->notes);
	free(l);
}

/* ---- drawing into cells ---- */

static void set_cell(struct tl_picture *p, size_t r, int x, const char *s, size_t n, unsigned attr)
{
	if (r >= p->n || x < 0 || x >= p->width || n >= sizeof p->rows[r].cells[x].text)
		return;
	struct tl_cell *c = &p->rows[r].cells[x];
	memcpy(c->text, s, n);
	c->text[n] = '\0';
	c->attr = attr;
}

/* Writes s at row r from column x, at most cols columns (a double-width
 * character that would not fit is left out); returns columns used. */
static int put_text(struct tl_picture *p, size_t r, int x, int cols, const char *s, unsigned attr)
{
	size_t n = strlen(s), i = 0;
	int w = 0;
	while (i < n) {
		uint32_t cp;
		size_t len = utf8_decode(s + i, n - i, &cp);
		int cw = utf8_cp_width(cp);
		if (cw == 0) { /* combining: dropped rather than misplaced */
			i += len;
			continue;
		}
		if (w + cw > cols || x + w + cw > p->width)
			break;
		set_cell(p, r, x + w, s + i, len, attr);
		if (cw == 2)
			set_cell(p, r, x + w + 1, "", 0, attr);
		w += cw;
		i += len;
	}
	return w;
}

static void new_rows(struct tl_picture *p, size_t n)
{
	p->rows = wb_xrealloc(p->rows, (p->n + n + 1) * sizeof *p->rows);
	for (size_t i = 0; i < n; i++) {
		struct tl_row *row = &p->rows[p->n + i];
		row->cells = wb_xcalloc((size_t)p->width, sizeof *row->cells);
		for (int x = 0; x < p->width; x++)
			row->cells[x].text[0] = ' ';
	}
	p->n += n;
}

static void draw_head(struct tl_picture *p, const struct tl_layout *l)
{
	int o = l->name_cols;
	put_text(p, 0, 0, l->name_cols - 1, l->unit, TL_A_SCALE);
	for (int x = 0; x < l->area; x++)
		put_text(p, 1, o + x, 1, "─", TL_A_SCALE);
	for (size_t i = 0; i < l->nticks; i++) {
		char *s = ms_text(l->ticks[i].t);
		put_text(p, 0, o + l->ticks[i].x, l->area - l->ticks[i].x, s, TL_A_SCALE);
		put_text(p, 1, o + l->ticks[i].x, 1, "┬", TL_A_SCALE);
		free(s);
	}
	for (size_t i = 0; i < l->nbreaks; i++) {
		int x = o + l->breaks[i].x;
		put_text(p, 1, x, 1, " ", TL_A_BREAK);
		put_text(p, 1, x + 1, 1, "≈", TL_A_BREAK);
		put_text(p, 1, x + 2, 1, " ", TL_A_BREAK);
	}
}

void timeline_label_place(const struct tl_layout *l, size_t b, int *x, int *cols)
{
	const struct tl_bar *bar = &l->bars[b];
	int next = bar->next_x0;
	int inside = bar->open ? bar->x1 - bar->x0 : bar->x1 - bar->x0 - 1;
	int outside = next - bar->x1 - 2;
	if (str_width(bar->label) <= inside || inside >= outside) {
		*x = bar->x0 + 1;
		*cols = inside > 0 ? inside : 0;
	} else {
		*x = bar->x1 + 1;
		*cols = outside;
	}
}

static void draw_bar(struct tl_picture *p, const struct tl_layout *l, size_t i, size_t r0)
{
	const struct tl_bar *b = &l->bars[i];
	int o = l->name_cols, w = b->attr & TL_A_WITNESS;
	size_t r = r0 + (size_t)b->row;
	const char *fill = b->open ? (w ? "┅" : "┄") : (w ? "━" : "─");
	const char *right = (b->attr & TL_A_FAIL) ? "✗" : w ? "┫" : "┤";
	if (b->x0 == b->x1) {
		put_text(p, r, o + b->x0, 1,
			 (b->attr & TL_A_FAIL) ? "✗"
			 : b->open	       ? (w ? "┣" : "├")
					       : (w ? "╋" : "┼"),
			 b->attr);
	} else {
		put_text(p, r, o + b->x0, 1, w ? "┣" : "├", b->attr);
		for (int x = b->x0 + 1; x < b->x1; x++)
			put_text(p, r, o + x, 1, fill, b->attr);
		put_text(p, r, o + b->x1, 1, b->open ? fill : right, b->attr);
	}
	int x, cols;
	timeline_label_place(l, i, &x, &cols);
	char *s = fit(b->label, cols);
	put_text(p, r, o + x, cols, s, b->attr | TL_A_LABEL);
	free(s);
}

static void draw_lanes(struct tl_picture *p, const struct tl_layout *l, size_t r0)
{
	int o = l->name_cols;
	for (size_t k = 0; k < l->nlanes; k++) {
		char *s = fit(l->lanes[k].name, l->name_cols - 1);
		put_text(p, r0 + (size_t)l->lanes[k].row0, 0, l->name_cols - 1, s, TL_A_LANE);
		free(s);
	}
	for (size_t i = 0; i < l->nbreaks; i++)
		for (int r = 0; r < l->nrows; r++)
			put_text(p, r0 + (size_t)r, o + l->breaks[i].x + 1, 1, "┊", TL_A_BREAK);
	for (size_t i = 0; i < l->nbars; i++)
		draw_bar(p, l, i, r0);
	for (size_t i = 0; i < l->nmarks; i++) {
		const struct tl_markpos *m = &l->marks[i];
		size_t r = r0 + (size_t)m->row;
		put_text(p, r, o + m->x, 1, "◆", TL_A_MARK);
		int x, room;
		timeline_mark_place(l, i, &x, &room);
		char *s = fit(m->label, room);
		put_text(p, r, o + x, room, s, TL_A_MARK | TL_A_LABEL);
		free(s);
	}
}

void timeline_mark_place(const struct tl_layout *l, size_t i, int *x, int *cols)
{
	const struct tl_markpos *m = &l->marks[i];
	int next = m->next_x, first = m->first;
	int right = next - m->x - 3, left = m->x - 1;
	if (first && right < str_width(m->label) && left > right) {
		int w = str_width(m->label);
		*cols = w < left ? w : left;
		*x = m->x - 1 - *cols;
	} else {
		*x = m->x + 2;
		*cols = right > 0 ? right : 0;
	}
}

/* Wraps note s into rows of at most p->width columns, where the lesson
 * reader would (core/wrap.h: UAX #14, so no row starts with ，。). */
static void draw_note(struct tl_picture *p, const char *s)
{
	char **lines;
	size_t n = wrap_text(s, p->width, &lines);
	for (size_t i = 0; i < n; i++) {
		new_rows(p, 1);
		put_text(p, p->n - 1, 0, p->width, lines[i], TL_A_NOTE);
	}
	wrap_text_free(lines, n);
}

struct tl_picture *timeline_draw(const struct tl_layout *l)
{
	struct tl_picture *p = wb_xcalloc(1, sizeof *p);
	p->width = l->width;
	p->nhead = 2;
	new_rows(p, 2 + (size_t)l->nrows);
	draw_head(p, l);
	draw_lanes(p, l, 2);
	if (l->nnotes) {
		new_rows(p, 1);
		for (size_t i = 0; i < l->nnotes; i++)
			draw_note(p, l->notes[i]);
	}
	return p;
}

int timeline_render(const struct timeline *t, int width, const char *lang, struct tl_picture **out)
{
	*out = NULL;
	struct tl_layout *l;
	int rc = timeline_layout(t, width, lang, &l);
	if (rc)
		return rc;
	struct tl_picture *p = timeline_draw(l);
	timeline_layout_free(l);
	*out = p;
	return 0;
}

void timeline_picture_free(struct tl_picture *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->rows[i].cells);
	free(p->rows);
	free(p);
}

char *timeline_row_text(const struct tl_picture *p, size_t r)
{
	struct wb_buf b = {0};
	wb_buf_puts(&b, "");
	if (r < p->n)
		for (int x = 0; x < p->width; x++)
			wb_buf_puts(&b, p->rows[r].cells[x].text);
	char *s = wb_buf_steal(&b);
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
	return s;
}
