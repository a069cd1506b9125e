/*
 * layout.c - lesson layout (see layout.h for the contract).
 *
 * Design notes
 * - Text is first turned into glyphs: one visible character (plus any
 *   zero-width marks that follow it) with its width and style.  Invalid
 *   UTF-8 and control characters become U+FFFD here, once.
 * - Wrapping is greedy over break opportunities, and the opportunities
 *   are libunibreak's (Unicode line breaking, UAX #14, with the lesson's
 *   language: for zh the curly quotes are opening/closing).  They replaced
 *   our own rules (a break after a space and on either side of a CJK
 *   character, except before closing punctuation and after opening
 *   brackets) after bench/linebreak_compare measured both on the shipped
 *   chapters and the fixtures at widths 40, 60, 80 and 100 (sums over the
 *   six files and four widths, UAX #14 vs ours): lines starting with
 *   closing punctuation 0 vs 13 (ours breaks before "..." after a space),
 *   Latin words or numbers broken 0 vs 0 (both with the cut below; ours
 *   alone cut 3), lines over the width 0 vs 0, lines 25336 vs 25381,
 *   layout time 96 vs 68 ms (about 4-6 ms a chapter; loaded machine).  The
 *   library also breaks after a hyphen or slash (436 vs 80 such lines:
 *   long paths no longer cut at an arbitrary glyph) and before a Chinese
 *   opening quote.  LAYOUT_BREAK_HANDWRITTEN keeps the old rules for that
 *   comparison only.  A run with no opportunity that does not fit is cut
 *   at a space, else at the edge of a Latin word or number, else between
 *   glyphs, never before a glyph the library will not let follow an
 *   ideograph (closing punctuation) when that can be helped, so the width
 *   invariant holds for any input.
 * - Containers (block quotes, list items) contribute a prefix for their
 *   first line and another for the rest.  Prefixes never take more than
 *   half the width, so deep nesting on a narrow screen stays readable.
 * - Tables get column widths that fit: narrow columns keep their natural
 *   width, wide ones share the rest and wrap inside their cell.  When even
 *   three columns per cell do not fit, rows are shown as "header: value"
 *   records instead.
 */
#include "core/layout.h"
#include "core/labcat.h"
#include "core/exercise_ws.h"
#include "core/lesson.h"
#include "core/i18n.h"
#include "core/timeline.h"
#include "core/timeline_events.h"
#include "core/timeline_lesson.h"
#include "core/utf8.h"
#include "core/wrap.h"
#include "base/wb.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Lines are made of glyph runs (core/wrap.h), whose glyphs keep
 * WRAP_STYLE_BITS of lay_style. */
_Static_assert(LS_STRIKE < (1 << WRAP_STYLE_BITS), "struct wrap_glyph keeps every style bit");

/* ---- output lines ------------------------------------------------------ */

struct prefix {
	char first[48]; /* shown on the first line of the container */
	char rest[48];	/* shown on the following lines */
	int used;	/* first already shown */
	unsigned style;
};

struct ctx {
	struct layout *lay;
	const char *lang;
	const char *path; /* the lesson's file, for ```timeline blocks; NULL none */
	struct prefix pre[32];
	int npre;
	int need_blank; /* a blank line goes before the next block */
	int block;	/* current block index */
	int section;	/* current ## section */
	int list_depth;
	int depth; /* block quotes and list items around the block */
};

static struct lay_line *new_line(struct ctx *c)
{
	struct layout *lay = c->lay;
	if (lay->nlines == lay->cap) {
		lay->cap = lay->cap ? lay->cap * 2 : 256;
		lay->lines = wb_xrealloc(lay->lines, lay->cap * sizeof *lay->lines);
	}
	struct lay_line *l = &lay->lines[lay->nlines++];
	memset(l, 0, sizeof *l);
	l->block = c->block;
	l->section = c->section;
	return l;
}

/* Builds the prefix glyphs for the next line.  consume marks first
 * prefixes used.  The result never exceeds half the width. */
static void make_prefix(struct ctx *c, struct wrap_run *out, int consume)
{
	/* Containers nested deeper than the prefix array are counted in npre
	 * but not drawn. */
	int n = c->npre < (int)WB_ARRAY_LEN(c->pre) ? c->npre : (int)WB_ARRAY_LEN(c->pre);
	for (int i = 0; i < n; i++) {
		struct prefix *p = &c->pre[i];
		const char *s = p->used ? p->rest : p->first;
		wrap_run_add(out, s, strlen(s), p->style, 1);
		if (consume)
			p->used = 1;
	}
	int limit = c->lay->width / 2, w = 0;
	size_t keep = 0;
	while (keep < out->n && w + out->g[keep].width <= limit)
		w += out->g[keep++].width;
	out->n = keep;
}

/* Emits one line: prefix + glyphs [a, b) of r. */
static struct lay_line *emit(struct ctx *c, int kind, const struct wrap_run *r, size_t a, size_t b,
			     int offset, int use_prefix)
{
	struct wrap_run pre = {0};
	if (use_prefix)
		make_prefix(c, &pre, 1);
	struct lay_line *l = new_line(c);
	l->kind = kind;
	l->offset = offset;
	l->joined = a > 0 && a < r->n && !wrap_is_space(&r->g[a - 1]) &&
		    !(r->g[a - 1].cls & WG_NEWLINE);
	struct wb_buf text = {0};
	size_t cap = 0;
	for (int part = 0; part < 2; part++) {
		const struct wrap_run *src = part ? r : &pre;
		size_t from = part ? a : 0, to = part ? b : pre.n;
		if (part)
			l->text_start = (unsigned)text.len;
		for (size_t i = from; src && i < to; i++) {
			const struct wrap_glyph *g = &src->g[i];
			if (g->cls & WG_NEWLINE)
				continue;
			if (l->nspans && l->spans[l->nspans - 1].style == g->style &&
			    l->spans[l->nspans - 1].start + l->spans[l->nspans - 1].len ==
				    text.len) {
				l->spans[l->nspans - 1].len += g->len;
			} else {
				if (l->nspans == cap) {
					cap = cap ? cap * 2 : 4;
					l->spans = wb_xrealloc(l->spans, cap * sizeof *l->spans);
				}
				l->spans[l->nspans++] =
					(struct lay_span){(unsigned)text.len, g->len, g->style};
			}
			wb_buf_append(&text, src->text.data + g->off, g->len);
			l->width += g->width;
		}
	}
	/* Trailing blanks carry nothing and would only confuse width checks. */
	while (text.len && text.data[text.len - 1] == ' ') {
		text.len--;
		text.data[text.len] = '\0';
		l->width--;
		struct lay_span *s = &l->spans[l->nspans - 1];
		if (--s->len == 0)
			l->nspans--;
	}
	l->len = (unsigned)text.len;
	if (l->text_start > l->len)
		l->text_start = l->len;
	/* Lines are kept for the whole layout: no spare capacity (#20 F5). */
	l->text = text.data ? wb_xrealloc(text.data, text.len + 1) : wb_xstrdup("");
	if (l->nspans && l->nspans < cap)
		l->spans = wb_xrealloc(l->spans, l->nspans * sizeof *l->spans);
	wrap_run_free(&pre);
	return l;
}

/* A blank line belongs to the block that follows it (offset -1), so a
 * saved place on a blank line comes back to that same blank line. */
static void emit_blank_for(struct ctx *c, int block)
{
	struct wrap_run pre = {0};
	make_prefix(c, &pre, 0);
	/* Keep quote bars on blank lines; drop list indentation. */
	size_t keep = 0;
	for (size_t i = 0; i < pre.n; i++)
		if (pre.g[i].style & LS_QUOTE)
			keep = i + 1;
	int save = c->block;
	c->block = block;
	struct lay_line *l = emit(c, LK_BLANK, &pre, 0, keep, -1, 0);
	l->kind = LK_BLANK;
	c->block = save;
	wrap_run_free(&pre);
}

static void emit_blank(struct ctx *c)
{
	emit_blank_for(c, c->lay->nblocks);
}

static void begin_block(struct ctx *c)
{
	if (c->need_blank && c->lay->nlines)
		emit_blank(c);
	c->need_blank = 0;
	c->block = c->lay->nblocks++;
}

static int prefix_width(struct ctx *c)
{
	struct wrap_run pre = {0};
	make_prefix(c, &pre, 0);
	int w = 0;
	for (size_t i = 0; i < pre.n; i++)
		w += pre.g[i].width;
	wrap_run_free(&pre);
	return w;
}

/* ---- wrapping ---------------------------------------------------------- */

/* The breaker is core/wrap's; a layout wraps in its lesson's language,
 * with the hand-written rules when it was built with
 * LAYOUT_BREAK_HANDWRITTEN, and gets each line with its context. */
/* How this layout breaks lines. */
static struct wrap_opts opts_of(const struct ctx *c)
{
	return (struct wrap_opts){c->lang, (c->lay->flags & LAYOUT_BREAK_HANDWRITTEN) != 0};
}

typedef void (*line_fn)(struct ctx *c, const struct wrap_run *r, size_t a, size_t b, void *arg);

struct line_call {
	struct ctx *c;
	line_fn fn;
	void *arg;
};

static void call_line(const struct wrap_run *r, size_t a, size_t b, void *arg)
{
	struct line_call *lc = arg;
	lc->fn(lc->c, r, a, b, lc->arg);
}

/* Splits glyphs [from, to) into lines of at most avail columns and calls
 * fn for each.  hard: break only when full (code), keeping spaces. */
static void wrap(struct ctx *c, struct wrap_run *r, size_t from, size_t to, int avail, int hard,
		 line_fn fn, void *arg)
{
	struct wrap_opts o = opts_of(c);
	struct line_call lc = {c, fn, arg};
	wrap_lines(r, from, to, avail, hard, &o, call_line, &lc);
}

struct text_arg {
	int kind;
};

static void text_line(struct ctx *c, const struct wrap_run *r, size_t a, size_t b, void *arg)
{
	struct text_arg *t = arg;
	emit(c, t->kind, r, a, b, (int)a, 1);
}

/* ---- inline content ---------------------------------------------------- */

/* Inline text nested deeper than LESSON_MAX_NESTING: the literals of the
 * subtree in the style of the level where nesting stopped, walked with
 * cmark's iterator (no recursion, #20 F2). */
static void inlines_flat(struct wrap_run *r, cmark_node *n, unsigned style)
{
	cmark_iter *it = cmark_iter_new(n);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *ch = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || ch == n)
			continue;
		switch (cmark_node_get_type(ch)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE: wrap_run_addz(r, cmark_node_get_literal(ch), style); break;
		case CMARK_NODE_SOFTBREAK: wrap_run_add(r, " ", 1, style, 0); break;
		case CMARK_NODE_LINEBREAK: wrap_run_add(r, "\n", 1, style, 0); break;
		default: break;
		}
	}
	cmark_iter_free(it);
}

static void inlines_at(struct wrap_run *r, cmark_node *n, unsigned style, int depth);

static void inlines(struct wrap_run *r, cmark_node *n, unsigned style)
{
	inlines_at(r, n, style, 0);
}

/* The inline children of n; depth: inline containers above n. */
static void inlines_at(struct wrap_run *r, cmark_node *n, unsigned style, int depth)
{
	if (depth >= LESSON_MAX_NESTING) {
		inlines_flat(r, n, style);
		return;
	}
	depth++;
	for (cmark_node *ch = cmark_node_first_child(n); ch; ch = cmark_node_next(ch)) {
		const char *type = cmark_node_get_type_string(ch);
		switch (cmark_node_get_type(ch)) {
		case CMARK_NODE_TEXT: wrap_run_addz(r, cmark_node_get_literal(ch), style); break;
		case CMARK_NODE_CODE:
			wrap_run_addz(r, cmark_node_get_literal(ch), style | LS_CODE);
			break;
		case CMARK_NODE_SOFTBREAK: {
			/* Between two CJK characters a source newline is no space. */
			int before_cjk = r->n && (r->g[r->n - 1].cls & WG_CJK);
			cmark_node *nx = cmark_node_next(ch);
			const char *lit = nx ? cmark_node_get_literal(nx) : NULL;
			uint32_t after = ' ';
			if (lit && *lit)
				utf8_decode(lit, strlen(lit), &after);
			if (!(before_cjk && utf8_is_cjk_breakable(after)))
				wrap_run_add(r, " ", 1, style, 0);
			break;
		}
		case CMARK_NODE_LINEBREAK: wrap_run_add(r, "\n", 1, style, 0); break;
		case CMARK_NODE_EMPH: inlines_at(r, ch, style | LS_ITALIC, depth); break;
		case CMARK_NODE_STRONG: inlines_at(r, ch, style | LS_BOLD, depth); break;
		case CMARK_NODE_LINK: {
			size_t before = r->n;
			inlines_at(r, ch, style | LS_LINK, depth);
			const char *url = cmark_node_get_url(ch);
			if (url && *url) {
				size_t tl = r->text.len -
					    (before < r->n ? r->g[before].off : r->text.len);
				const char *shown =
					before < r->n ? r->text.data + r->g[before].off : "";
				const char *u = url;
				if (!strncmp(u, "mailto:", 7) && strcmp(shown, u) != 0)
					u += 7;
				if (!(tl == strlen(u) && !strncmp(shown, u, tl))) {
					wrap_run_add(r, " <", 2, style | LS_DIM, 0);
					wrap_run_addz(r, u, style | LS_DIM | LS_LINK);
					wrap_run_add(r, ">", 1, style | LS_DIM, 0);
				}
			}
			break;
		}
		case CMARK_NODE_IMAGE:
			wrap_run_addz(r, "[image: ", style | LS_DIM);
			inlines_at(r, ch, style | LS_DIM, depth);
			wrap_run_addz(r, "]", style | LS_DIM);
			break;
		case CMARK_NODE_HTML_INLINE: {
			const char *lit = cmark_node_get_literal(ch);
			if (lit && (!strncmp(lit, "<br", 3) || !strncmp(lit, "<BR", 3)))
				wrap_run_add(r, "\n", 1, style, 0);
			break;
		}
		default:
			if (type && !strcmp(type, "strikethrough"))
				inlines_at(r, ch, style | LS_STRIKE, depth);
			else
				inlines_at(r, ch, style, depth);
		}
	}
}

/* ---- blocks ------------------------------------------------------------ */

static void blocks(struct ctx *c, cmark_node *parent);

static void paragraph(struct ctx *c, cmark_node *n, int kind, unsigned style)
{
	begin_block(c);
	struct wrap_run r = {0};
	inlines(&r, n, style);
	struct text_arg t = {kind};
	if (r.n == 0)
		emit(c, kind, &r, 0, 0, 0, 1);
	wrap(c, &r, 0, r.n, c->lay->width - prefix_width(c), 0, text_line, &t);
	wrap_run_free(&r);
	c->need_blank = 1;
}

static struct lay_line *rule_line(struct ctx *c, const char *ch, int cols, unsigned style, int kind)
{
	struct wrap_run r = {0};
	for (int i = 0; i < cols; i++)
		wrap_run_addz(&r, ch, style);
	struct lay_line *l = emit(c, kind, &r, 0, r.n, 0, 1);
	wrap_run_free(&r);
	return l;
}

static void heading(struct ctx *c, cmark_node *n)
{
	int level = cmark_node_get_heading_level(n);
	unsigned style = LS_BOLD | (level == 1 ? LS_H1 : level == 2 ? LS_H2 : LS_H3);
	if (level == 2) {
		struct layout *lay = c->lay;
		lay->sections =
			wb_xrealloc(lay->sections, (lay->nsections + 1) * sizeof *lay->sections);
		lay->sections[lay->nsections].title = lesson_plain_text(n);
		c->section = (int)lay->nsections++;
		c->need_blank = 1;
	}
	size_t first = c->lay->nlines;
	paragraph(c, n, LK_HEADING, style);
	if (level == 2 && c->lay->nsections)
		c->lay->sections[c->section].line =
			(int)first + (c->lay->lines[first].kind == LK_BLANK);
	if (level == 1) {
		int w = 0;
		for (size_t i = first; i < c->lay->nlines; i++)
			if (c->lay->lines[i].width > w)
				w = c->lay->lines[i].width;
		int avail = c->lay->width - prefix_width(c);
		/* The underline sits after every glyph of the title. */
		rule_line(c, "═", w < avail ? w : avail, LS_H1 | LS_DIM, LK_HEADING)->offset =
			1 << 20;
	}
}

struct code_arg {
	int indent;
	int row;
};

static void code_line(struct ctx *c, const struct wrap_run *r, size_t a, size_t b, void *arg)
{
	struct code_arg *ca = arg;
	struct wrap_run line = {0};
	for (int i = 0; i < ca->indent; i++)
		wrap_run_add(&line, " ", 1, LS_CODE, 1);
	for (size_t i = a; i < b; i++)
		wrap_run_add(&line, r->text.data + r->g[i].off, r->g[i].len, r->g[i].style, 1);
	/* Offsets grow along the block: row, then position inside the row. */
	emit(c, LK_CODE, &line, 0, line.n, ca->row * 4096 + (int)(a < 4095 ? a : 4095), 1);
	wrap_run_free(&line);
}

static void lab_card(struct ctx *c, const char *id);
static void exercise_card(struct ctx *c, const char *id);

/* A ```lab fence: one lab card per non-blank line (the lab id); a
 * ```exercise fence the same with exercise cards. */
static void lab_fence(struct ctx *c, const char *lit, int exercise)
{
	const char *p = lit;
	while (*p) {
		size_t len = strcspn(p, "\n");
		while (len && (p[0] == ' ' || p[0] == '\t'))
			p++, len--;
		size_t l2 = len;
		while (l2 && (p[l2 - 1] == ' ' || p[l2 - 1] == '\t' || p[l2 - 1] == '\r'))
			l2--;
		if (l2) {
			char *id = wb_xstrndup(p, l2);
			if (exercise)
				exercise_card(c, id);
			else
				lab_card(c, id);
			free(id);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
}

/* The style of a timeline cell: the witness and lane names bold, the
 * scale, breaks and legend dim. */
static unsigned timeline_style(unsigned attr)
{
	if (attr & (TL_A_WITNESS | TL_A_LANE))
		return LS_BOLD;
	if (attr & (TL_A_SCALE | TL_A_BREAK | TL_A_NOTE))
		return LS_DIM;
	return 0;
}

/* A ```timeline fence (core/timeline_lesson.h): the history beside the
 * lesson drawn by core/timeline at the page width; a file that is missing
 * or bad, or a page too narrow, is one dim line saying so. */
static void timeline_fence(struct ctx *c, const char *lit)
{
	begin_block(c);
	int avail = c->lay->width - prefix_width(c);
	char *name = timeline_block_name(lit);
	char *path = timeline_lesson_path(c->path, name);
	struct timeline *t = NULL;
	struct tl_picture *p = NULL;
	char err[256] = "";
	if (path && tl_events_load(path, &t, err, sizeof err) == 0)
		(void)timeline_render(t, avail, c->lang, &p);
	struct wrap_run r = {0};
	if (!p) {
		char *msg = wb_xasprintf(i18n(c->lang, M_TL_MISSING), name ? name : "");
		wrap_run_addz(&r, msg, LS_DIM);
		struct text_arg ta = {LK_TEXT};
		wrap(c, &r, 0, r.n, avail, 0, text_line, &ta);
		wrap_run_free(&r);
		free(msg);
	}
	for (size_t row = 0; p && row < p->n; row++) {
		int last = p->width;
		while (last > 0 && !strcmp(p->rows[row].cells[last - 1].text, " "))
			last--;
		for (int x = 0; x < last; x++) {
			const struct tl_cell *cell = &p->rows[row].cells[x];
			if (*cell->text)
				wrap_run_add(&r, cell->text, strlen(cell->text),
					     timeline_style(cell->attr), 1);
		}
		emit(c, LK_TEXT, &r, 0, r.n, (int)row, 1);
		wrap_run_free(&r);
		r = (struct wrap_run){0};
	}
	timeline_picture_free(p);
	timeline_free(t);
	free(path);
	free(name);
	c->need_blank = 1;
}

/* The widest line of lit[0..litlen) in columns (a tab counts 4). */
static int code_widest(const char *lit, size_t litlen)
{
	int widest = 0;
	for (const char *p = lit; p < lit + litlen;) {
		size_t len = strcspn(p, "\n");
		if (p + len > lit + litlen)
			len = (size_t)(lit + litlen - p);
		int w = utf8_width(p, len);
		for (size_t i = 0; i < len; i++)
			if (p[i] == '\t')
				w += 3;
		if (w > widest)
			widest = w;
		p += len + 1;
	}
	return widest;
}

/* A code block: measure its widest line, choose the indent (two when
 * every line still fits: diagrams keep their shape), emit each line,
 * wrapped only when it must be (never with LAYOUT_CODE_WHOLE: then a line
 * stays whole, however wide); a ```lab fence becomes lab cards.  Every
 * line of the block records the block's widest line (block_width). */
static void code_block(struct ctx *c, cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n);
	const char *lit = cmark_node_get_literal(n);
	if (!lit)
		lit = "";
	if (info && !strncmp(info, "lab", 3) && (info[3] == '\0' || info[3] == ' ')) {
		lab_fence(c, lit, 0);
		return;
	}
	if (info && !strncmp(info, "exercise", 8) && (info[8] == '\0' || info[8] == ' ')) {
		lab_fence(c, lit, 1);
		return;
	}
	if (timeline_block_info(info)) {
		timeline_fence(c, lit);
		return;
	}
	begin_block(c);
	int avail = c->lay->width - prefix_width(c);
	size_t litlen = strlen(lit);
	if (litlen && lit[litlen - 1] == '\n')
		litlen--;
	struct code_arg ca = {code_widest(lit, litlen) + 2 <= avail ? 2 : 0, 0};
	int whole = (c->lay->flags & LAYOUT_CODE_WHOLE) != 0;
	size_t first = c->lay->nlines;
	const char *p = lit;
	while (p <= lit + litlen) {
		size_t len = strcspn(p, "\n");
		if (p + len > lit + litlen)
			len = (size_t)(lit + litlen - p);
		struct wrap_run r = {0};
		wrap_run_add(&r, p, len, LS_CODE, 1);
		if (r.n == 0)
			emit(c, LK_CODE, &r, 0, 0, ca.row * 4096, 1);
		else if (whole)
			code_line(c, &r, 0, r.n, &ca);
		else
			wrap(c, &r, 0, r.n, avail - ca.indent, 1, code_line, &ca);
		wrap_run_free(&r);
		ca.row++;
		p += len + 1;
	}
	int widest = 0;
	for (size_t i = first; i < c->lay->nlines; i++)
		if (c->lay->lines[i].width > widest)
			widest = c->lay->lines[i].width;
	for (size_t i = first; i < c->lay->nlines; i++)
		c->lay->lines[i].block_width = widest;
	c->need_blank = 1;
}

struct box_arg {
	int inner;
	const char *id;
	int kind; /* LK_LAB or LK_EXERCISE */
};

static void box_line(struct ctx *c, const struct wrap_run *r, size_t a, size_t b, void *arg)
{
	struct box_arg *ba = arg;
	struct wrap_run line = {0};
	wrap_run_addz(&line, "│ ", LS_LAB | LS_BORDER);
	int w = 0;
	for (size_t i = a; i < b; i++) {
		wrap_run_add(&line, r->text.data + r->g[i].off, r->g[i].len, r->g[i].style, 1);
		w += r->g[i].width;
	}
	for (; w < ba->inner; w++)
		wrap_run_add(&line, " ", 1, LS_LAB, 1);
	wrap_run_addz(&line, " │", LS_LAB | LS_BORDER);
	struct lay_line *l = emit(c, ba->kind, &line, 0, line.n, (int)a, 1);
	l->lab_id = ba->id;
	wrap_run_free(&line);
}

static const char *remember_lab(struct layout *lay, const char *id)
{
	for (size_t i = 0; i < lay->nlabs; i++)
		if (!strcmp(lay->lab_ids[i], id))
			return lay->lab_ids[i];
	lay->lab_ids = wb_xrealloc(lay->lab_ids, (lay->nlabs + 1) * sizeof *lay->lab_ids);
	return lay->lab_ids[lay->nlabs++] = wb_xstrdup(id);
}

static const char *remember_exercise(struct layout *lay, const char *id)
{
	for (size_t i = 0; i < lay->nexercises; i++)
		if (!strcmp(lay->exercise_ids[i], id))
			return lay->exercise_ids[i];
	lay->exercise_ids =
		wb_xrealloc(lay->exercise_ids, (lay->nexercises + 1) * sizeof *lay->exercise_ids);
	return lay->exercise_ids[lay->nexercises++] = wb_xstrdup(id);
}

static void card_box(struct ctx *c, struct wrap_run *body, struct box_arg *ba);

/* A card's box at this depth: at most 64 columns wide, its text 4 less
 * (the borders and their padding), never under 2. */
static struct box_arg card_arg(struct ctx *c, const char *kept_id, int kind)
{
	int avail = c->lay->width - prefix_width(c);
	int cw = avail < 64 ? avail : 64;
	struct box_arg ba = {cw - 4, kept_id, kind};
	if (ba.inner < 2)
		ba.inner = 2;
	return ba;
}

static void lab_card(struct ctx *c, const char *id)
{
	begin_block(c);
	struct box_arg ba = card_arg(c, remember_lab(c->lay, id), LK_LAB);
	int zh = c->lang && !strcmp(c->lang, "zh");

	struct wrap_run body = {0};
	const struct labcat_entry *e = labcat_find(id);
	wrap_run_addz(&body, zh ? "实验 " : "Lab ", LS_LAB | LS_BOLD);
	wrap_run_addz(&body, id, LS_LAB | LS_BOLD | LS_CODE);
	wrap_run_add(&body, "\n", 1, LS_LAB, 0);
	if (e)
		wrap_run_addz(&body, labcat_summary(e, c->lang), LS_LAB);
	else
		wrap_run_addz(&body, zh ? "未知的实验编号" : "Unknown lab id", LS_LAB | LS_DIM);
	wrap_run_add(&body, "\n", 1, LS_LAB, 0);
	if (e && labcat_runnable(id))
		wrap_run_addz(&body, zh ? "▶ 按 Enter 就地运行" : "▶ Enter runs it here",
			      LS_LAB | LS_DIM);
	else
		wrap_run_addz(&body,
			      zh ? "本版本尚未包含这个实验" : "This lab is not in this build yet",
			      LS_LAB | LS_DIM);
	card_box(c, &body, &ba);
	wrap_run_free(&body);
	c->need_blank = 1;
}

/* The box around a card's body: top and bottom borders as LK_* lines of
 * the card id, the body wrapped inside (box_line). */
static void card_box(struct ctx *c, struct wrap_run *body, struct box_arg *ba)
{
	struct wrap_run top = {0}, bottom = {0};
	wrap_run_addz(&top, "┌", LS_LAB | LS_BORDER);
	for (int i = 0; i < ba->inner + 2; i++)
		wrap_run_addz(&top, "─", LS_LAB | LS_BORDER);
	wrap_run_addz(&top, "┐", LS_LAB | LS_BORDER);
	struct lay_line *l = emit(c, ba->kind, &top, 0, top.n, 0, 1);
	l->lab_id = ba->id;
	wrap(c, body, 0, body->n, ba->inner, 0, box_line, ba);
	wrap_run_addz(&bottom, "└", LS_LAB | LS_BORDER);
	for (int i = 0; i < ba->inner + 2; i++)
		wrap_run_addz(&bottom, "─", LS_LAB | LS_BORDER);
	wrap_run_addz(&bottom, "┘", LS_LAB | LS_BORDER);
	l = emit(c, ba->kind, &bottom, 0, bottom.n, (int)body->n, 1);
	l->lab_id = ba->id;
	wrap_run_free(&top);
	wrap_run_free(&bottom);
}

/* An exercise card: "Try it yourself", the exercise's title and what
 * Enter does; an id not in the catalogue says so. */
static void exercise_card(struct ctx *c, const char *id)
{
	begin_block(c);
	struct box_arg ba = card_arg(c, remember_exercise(c->lay, id), LK_EXERCISE);
	int zh = c->lang && !strcmp(c->lang, "zh");
	struct wrap_run body = {0};
	const struct excat_entry *e = excat_find(id);
	wrap_run_addz(&body, zh ? "自己动手 " : "Try it yourself ", LS_LAB | LS_BOLD);
	wrap_run_addz(&body, id, LS_LAB | LS_BOLD | LS_CODE);
	wrap_run_add(&body, "\n", 1, LS_LAB, 0);
	if (e)
		wrap_run_addz(&body, excat_title(e, c->lang), LS_LAB);
	else
		wrap_run_addz(&body,
			      zh ? "本版本尚未包含这个练习"
				 : "This exercise is not in this build yet",
			      LS_LAB | LS_DIM);
	wrap_run_add(&body, "\n", 1, LS_LAB, 0);
	if (e)
		wrap_run_addz(&body,
			      zh ? "▶ Enter 打开你的文件，保存退出后就地检查"
				 : "▶ Enter opens your file; on return it is checked here",
			      LS_LAB | LS_DIM);
	card_box(c, &body, &ba);
	wrap_run_free(&body);
	c->need_blank = 1;
}

/* ---- tables ------------------------------------------------------------ */

struct table {
	size_t nrows, ncols;
	struct wrap_run *cells; /* nrows * ncols */
};

static int run_width(const struct wrap_run *r, size_t a, size_t b)
{
	int w = 0;
	for (size_t i = a; i < b; i++)
		w += r->g[i].width;
	return w;
}

struct cell_lines {
	size_t (*ranges)[2];
	size_t n, cap;
};

static void collect_line(struct ctx *c, const struct wrap_run *r, size_t a, size_t b, void *arg)
{
	(void)c;
	(void)r;
	struct cell_lines *cl = arg;
	if (cl->n == cl->cap) {
		cl->cap = cl->cap ? cl->cap * 2 : 4;
		cl->ranges = wb_xrealloc(cl->ranges, cl->cap * sizeof *cl->ranges);
	}
	cl->ranges[cl->n][0] = a;
	cl->ranges[cl->n][1] = b;
	cl->n++;
}

static void border(struct ctx *c, const int *w, size_t ncols, const char *l, const char *m,
		   const char *r, int row)
{
	struct wrap_run line = {0};
	wrap_run_addz(&line, l, LS_BORDER);
	for (size_t k = 0; k < ncols; k++) {
		for (int i = 0; i < w[k] + 2; i++)
			wrap_run_addz(&line, "─", LS_BORDER);
		wrap_run_addz(&line, k + 1 < ncols ? m : r, LS_BORDER);
	}
	emit(c, LK_TABLE, &line, 0, line.n, row, 1);
	wrap_run_free(&line);
}

static void table_records(struct ctx *c, struct table *t, int avail)
{
	for (size_t row = 1; row < t->nrows; row++) {
		if (row > 1)
			emit_blank_for(c, c->block);
		for (size_t k = 0; k < t->ncols; k++) {
			struct wrap_run r = {0};
			struct wrap_run *h = &t->cells[k], *v = &t->cells[row * t->ncols + k];
			for (size_t i = 0; i < h->n; i++)
				wrap_run_add(&r, h->text.data + h->g[i].off, h->g[i].len, LS_BOLD,
					     1);
			wrap_run_addz(&r, ": ", LS_BOLD);
			for (size_t i = 0; i < v->n; i++)
				wrap_run_add(&r, v->text.data + v->g[i].off, v->g[i].len,
					     v->g[i].style, 1);
			struct cell_lines cl = {0};
			wrap(c, &r, 0, r.n, avail, 0, collect_line, &cl);
			for (size_t i = 0; i < cl.n; i++)
				emit(c, LK_TABLE, &r, cl.ranges[i][0], cl.ranges[i][1], (int)row,
				     1);
			free(cl.ranges);
			wrap_run_free(&r);
		}
	}
}

static void table_grid(struct ctx *c, struct table *t, int *w)
{
	size_t nc = t->ncols;
	border(c, w, nc, "┌", "┬", "┐", 0);
	int tall = 0;
	struct cell_lines *cls = wb_xcalloc(t->nrows * nc, sizeof *cls);
	for (size_t row = 0; row < t->nrows; row++)
		for (size_t k = 0; k < nc; k++) {
			struct wrap_run *cell = &t->cells[row * nc + k];
			wrap(c, cell, 0, cell->n, w[k], 0, collect_line, &cls[row * nc + k]);
			if (row > 0 && cls[row * nc + k].n > 1)
				tall = 1;
		}
	for (size_t row = 0; row < t->nrows; row++) {
		size_t h = 1;
		for (size_t k = 0; k < nc; k++)
			if (cls[row * nc + k].n > h)
				h = cls[row * nc + k].n;
		for (size_t i = 0; i < h; i++) {
			struct wrap_run line = {0};
			wrap_run_addz(&line, "│", LS_BORDER);
			for (size_t k = 0; k < nc; k++) {
				struct wrap_run *cell = &t->cells[row * nc + k];
				struct cell_lines *cl = &cls[row * nc + k];
				wrap_run_add(&line, " ", 1, 0, 1);
				int used = 0;
				if (i < cl->n) {
					for (size_t g = cl->ranges[i][0]; g < cl->ranges[i][1];
					     g++) {
						const struct wrap_glyph *gl = &cell->g[g];
						wrap_run_add(
							&line, cell->text.data + gl->off, gl->len,
							gl->style | (row == 0 ? LS_BOLD : 0), 1);
					}
					used = run_width(cell, cl->ranges[i][0], cl->ranges[i][1]);
				}
				for (; used < w[k] + 1; used++)
					wrap_run_add(&line, " ", 1, 0, 1);
				wrap_run_addz(&line, "│", LS_BORDER);
			}
			emit(c, LK_TABLE, &line, 0, line.n, (int)row, 1);
			wrap_run_free(&line);
		}
		if (row == 0 && t->nrows > 1)
			border(c, w, nc, "├", "┼", "┤", (int)row);
		else if (tall && row + 1 < t->nrows)
			border(c, w, nc, "├", "┼", "┤", (int)row);
	}
	border(c, w, nc, "└", "┴", "┘", (int)t->nrows);
	for (size_t i = 0; i < t->nrows * nc; i++)
		free(cls[i].ranges);
	free(cls);
}

/* Step 1 of table(): counts rows and columns and lays out every cell's
 * inlines.  Returns 0 when the table has no column (nothing to draw). */
static int table_read(struct table *t, cmark_node *n)
{
	for (cmark_node *row = cmark_node_first_child(n); row; row = cmark_node_next(row)) {
		size_t k = 0;
		for (cmark_node *cell = cmark_node_first_child(row); cell;
		     cell = cmark_node_next(cell))
			k++;
		if (k > t->ncols)
			t->ncols = k;
		t->nrows++;
	}
	if (t->ncols == 0)
		return 0;
	t->cells = wb_xcalloc(t->nrows * t->ncols, sizeof *t->cells);
	size_t ri = 0;
	for (cmark_node *row = cmark_node_first_child(n); row; row = cmark_node_next(row), ri++) {
		size_t k = 0;
		for (cmark_node *cell = cmark_node_first_child(row); cell;
		     cell = cmark_node_next(cell), k++)
			inlines(&t->cells[ri * t->ncols + k], cell, 0);
	}
	return 1;
}

/* Step 2: the natural width of column k (its widest line; a forced
 * break inside a cell counts per piece). */
static int column_natural(const struct table *t, size_t k)
{
	int natural = 0;
	for (size_t row = 0; row < t->nrows; row++) {
		const struct wrap_run *cell = &t->cells[row * t->ncols + k];
		int cur = 0;
		for (size_t i = 0; i < cell->n; i++) {
			cur = (cell->g[i].cls & WG_NEWLINE) ? 0 : cur + (int)cell->g[i].width;
			if (cur > natural)
				natural = cur;
		}
	}
	return natural;
}

/* Step 2: the widest unbreakable piece of column k, capped at 16 so one
 * long URL does not force the record view. */
static int column_min(const struct ctx *c, struct table *t, size_t k)
{
	int minw = 0;
	for (size_t row = 0; row < t->nrows; row++) {
		struct wrap_run *cell = &t->cells[row * t->ncols + k];
		struct wrap_opts o = opts_of(c);
		wrap_run_breaks(cell, &o);
		int cur = 0;
		for (size_t i = 0; i < cell->n; i++) {
			if (i > 0 && wrap_can_break_before(cell, i))
				cur = 0;
			if (wrap_is_space(&cell->g[i]) || (cell->g[i].cls & WG_NEWLINE))
				continue;
			cur += cell->g[i].width;
			if (cur > minw)
				minw = cur;
		}
	}
	return minw > 16 ? 16 : minw;
}

/* Step 3: w[k] by water-filling `content` columns of screen: narrow
 * columns keep their natural width, the rest share what is left. */
static void choose_widths(const int *natural, size_t ncols, int content, int *w)
{
	int *order = wb_xcalloc(ncols, sizeof *order);
	for (size_t k = 0; k < ncols; k++)
		order[k] = (int)k;
	for (size_t i = 1; i < ncols; i++)
		for (size_t j = i; j > 0 && natural[order[j]] < natural[order[j - 1]]; j--) {
			int tmp = order[j];
			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	int remaining = content;
	for (size_t i = 0; i < ncols; i++) {
		int k = order[i];
		int fair = remaining / (int)(ncols - i);
		w[k] = natural[k] < fair ? natural[k] : fair;
		if (w[k] < 1)
			w[k] = 1;
		remaining -= w[k];
	}
	free(order);
}

/* A GFM table: read the cells, measure the columns, choose a grid (with
 * widths) or the record view when the columns cannot fit, emit. */
static void table(struct ctx *c, cmark_node *n)
{
	begin_block(c);
	struct table t = {0};
	if (!table_read(&t, n)) {
		c->need_blank = 1;
		return;
	}
	int avail = c->lay->width - prefix_width(c);
	int content = avail - (int)(3 * t.ncols + 1);
	int *w = wb_xcalloc(t.ncols, sizeof *w);
	int *natural = wb_xcalloc(t.ncols, sizeof *natural);
	int summin = 0;
	for (size_t k = 0; k < t.ncols; k++) {
		natural[k] = column_natural(&t, k);
		summin += column_min(c, &t, k);
	}
	if (content >= (int)(4 * t.ncols) && summin <= content && t.nrows >= 2) {
		choose_widths(natural, t.ncols, content, w);
		table_grid(c, &t, w);
	} else if (t.nrows < 2 && content >= (int)(2 * t.ncols)) {
		for (size_t k = 0; k < t.ncols; k++)
			w[k] = content / (int)t.ncols;
		table_grid(c, &t, w);
	} else {
		table_records(c, &t, avail);
	}
	for (size_t i = 0; i < t.nrows * t.ncols; i++)
		wrap_run_free(&t.cells[i]);
	free(t.cells);
	free(w);
	free(natural);
	c->need_blank = 1;
}

/* ---- containers -------------------------------------------------------- */

static void push_prefix(struct ctx *c, const char *first, const char *rest, unsigned style)
{
	if (c->npre >= (int)WB_ARRAY_LEN(c->pre)) {
		c->npre++; /* deeper than we draw: count only */
		return;
	}
	struct prefix *p = &c->pre[c->npre++];
	snprintf(p->first, sizeof p->first, "%s", first);
	snprintf(p->rest, sizeof p->rest, "%s", rest);
	p->used = 0;
	p->style = style;
}

static void list(struct ctx *c, cmark_node *n)
{
	int ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
	int tight = cmark_node_get_list_tight(n);
	int num = cmark_node_get_list_start(n);
	int items = 0;
	for (cmark_node *it = cmark_node_first_child(n); it; it = cmark_node_next(it))
		items++;
	int numw = snprintf(NULL, 0, "%d", num + items - 1);
	c->list_depth++;
	int first = 1;
	for (cmark_node *it = cmark_node_first_child(n); it; it = cmark_node_next(it), num++) {
		char mark[48], pad[48];
		const char *type = cmark_node_get_type_string(it);
		if (type && !strcmp(type, "tasklist"))
			snprintf(mark, sizeof mark, "%s ",
				 cmark_gfm_extensions_get_tasklist_item_checked(it) ? "[x]"
										    : "[ ]");
		else if (ordered)
			snprintf(mark, sizeof mark, "%*d. ", numw, num);
		else
			snprintf(mark, sizeof mark, "%s ", c->list_depth % 2 ? "•" : "◦");
		int mw = utf8_width(mark, strlen(mark));
		snprintf(pad, sizeof pad, "%*s", mw, "");
		if (!first && tight)
			c->need_blank = 0;
		first = 0;
		push_prefix(c, mark, pad, ordered ? 0 : LS_DIM);
		if (!cmark_node_first_child(it)) {
			begin_block(c);
			struct wrap_run r = {0};
			emit(c, LK_TEXT, &r, 0, 0, 0, 1);
		}
		c->depth++;
		blocks(c, it);
		c->depth--;
		c->npre--;
		if (tight)
			c->need_blank = 0;
	}
	c->list_depth--;
	c->need_blank = 1;
}

/* The blocks that contain no other block: paragraphs, headings, code,
 * rules, HTML and tables.  Returns 0 for a container (not drawn here). */
static int leaf_block(struct ctx *c, cmark_node *n)
{
	const char *type = cmark_node_get_type_string(n);
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_PARAGRAPH: paragraph(c, n, LK_TEXT, 0); return 1;
	case CMARK_NODE_HEADING: heading(c, n); return 1;
	case CMARK_NODE_CODE_BLOCK: code_block(c, n); return 1;
	case CMARK_NODE_THEMATIC_BREAK: {
		begin_block(c);
		int w = c->lay->width - prefix_width(c);
		rule_line(c, "─", w, LS_DIM, LK_RULE);
		c->need_blank = 1;
		return 1;
	}
	case CMARK_NODE_HTML_BLOCK: return 1; /* comments such as <!-- chapter: ... --> */
	default:
		if (type && !strcmp(type, "table")) {
			table(c, n);
			return 1;
		}
		return 0;
	}
}

/* Containers nested deeper than LESSON_MAX_NESTING: every leaf block of
 * the subtree at the current depth, in order, found with cmark's iterator
 * so no input nests the C stack deeper (#20 F2). */
static void blocks_flat(struct ctx *c, cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || n == root)
			continue;
		if (leaf_block(c, n))
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT); /* its inlines are done */
	}
	cmark_iter_free(it);
	c->need_blank = 1;
}

static void blocks(struct ctx *c, cmark_node *parent)
{
	for (cmark_node *n = cmark_node_first_child(parent); n; n = cmark_node_next(n)) {
		if (leaf_block(c, n))
			continue;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_BLOCK_QUOTE:
			if (c->depth >= LESSON_MAX_NESTING) {
				blocks_flat(c, n);
				break;
			}
			if (c->need_blank && c->lay->nlines)
				emit_blank(c);
			c->need_blank = 0;
			push_prefix(c, "│ ", "│ ", LS_QUOTE | LS_DIM);
			c->depth++;
			blocks(c, n);
			c->depth--;
			c->npre--;
			c->need_blank = 1;
			break;
		case CMARK_NODE_LIST:
			if (c->depth >= LESSON_MAX_NESTING) {
				blocks_flat(c, n);
				break;
			}
			if (c->need_blank && c->lay->nlines &&
			    !(cmark_node_parent(n) &&
			      cmark_node_get_type(cmark_node_parent(n)) == CMARK_NODE_ITEM &&
			      cmark_node_get_list_tight(cmark_node_parent(cmark_node_parent(n)))))
				emit_blank(c);
			c->need_blank = 0;
			list(c, n);
			break;
		default:
			if (c->depth >= LESSON_MAX_NESTING)
				blocks_flat(c, n);
			else
				blocks(c, n);
		}
	}
}

/* ---- public API -------------------------------------------------------- */

struct layout *layout_build(const struct lesson *lesson, int width)
{
	return layout_build_ex(lesson, width, 0);
}

struct layout *layout_build_ex(const struct lesson *lesson, int width, unsigned flags)
{
	struct layout *lay = wb_xcalloc(1, sizeof *lay);
	lay->width = width < LAYOUT_MIN_WIDTH ? LAYOUT_MIN_WIDTH : width;
	lay->flags = flags;
	struct ctx c = {.lay = lay, .lang = lesson->lang, .path = lesson->path, .section = -1};
	blocks(&c, lesson->doc);
	return lay;
}

void layout_free(struct layout *lay)
{
	if (!lay)
		return;
	for (size_t i = 0; i < lay->nlines; i++) {
		free(lay->lines[i].text);
		free(lay->lines[i].spans);
	}
	for (size_t i = 0; i < lay->nsections; i++)
		free(lay->sections[i].title);
	for (size_t i = 0; i < lay->nlabs; i++)
		free(lay->lab_ids[i]);
	free(lay->lab_ids);
	for (size_t i = 0; i < lay->nexercises; i++)
		free(lay->exercise_ids[i]);
	free(lay->exercise_ids);
	free(lay->sections);
	free(lay->lines);
	free(lay);
}

size_t layout_find_anchor(const struct layout *lay, int block, int offset)
{
	/* Lines of one block have non-decreasing offsets; the answer is the
	 * first line carrying the largest offset not past the wanted one. */
	size_t best = 0;
	int found = 0, best_off = 0;
	for (size_t i = 0; i < lay->nlines; i++) {
		const struct lay_line *l = &lay->lines[i];
		if (l->block < block) {
			best = i;
			continue;
		}
		if (l->block > block)
			return found ? best : i;
		if (!found || (l->offset > best_off && l->offset <= offset)) {
			best = i;
			best_off = l->offset;
			found = 1;
		}
	}
	return best;
}

size_t layout_search(const struct layout *lay, const char *query, struct lay_hit **hits)
{
	*hits = NULL;
	size_t qn = strlen(query), n = 0, cap = 0;
	if (!qn)
		return 0;
	for (size_t i = 0; i < lay->nlines; i++) {
		const struct lay_line *l = &lay->lines[i];
		for (size_t s = 0; s + qn <= l->len; s++) {
			size_t k = 0;
			while (k < qn) {
				unsigned char a = (unsigned char)l->text[s + k];
				unsigned char b = (unsigned char)query[k];
				if (a < 0x80)
					a = (unsigned char)utf8_fold(a);
				if (b < 0x80)
					b = (unsigned char)utf8_fold(b);
				if (a != b)
					break;
				k++;
			}
			if (k < qn)
				continue;
			/* Only hits that start on a character boundary. */
			if (((unsigned char)l->text[s] & 0xC0) == 0x80)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				*hits = wb_xrealloc(*hits, cap * sizeof **hits);
			}
			(*hits)[n++] = (struct lay_hit){i, (unsigned)s, (unsigned)qn};
			s += qn - 1;
		}
	}
	return n;
}

void layout_print(const struct layout *lay, FILE *stream)
{
	for (size_t i = 0; i < lay->nlines; i++) {
		fwrite(lay->lines[i].text, 1, lay->lines[i].len, stream);
		fputc('\n', stream);
	}
}
