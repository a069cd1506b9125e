/*
 * wrap.c - glyph runs and the line breaker (see wrap.h for the contract;
 * the design notes and measurements are at the top of core/layout.c).
 *
 * Moved out of core/layout.c so that core/timeline, which layout draws
 * for ```timeline blocks, can wrap its notes without calling back into
 * layout (the layout - timeline include cycle).
 */
#include "core/wrap.h"
#include "core/textsafe.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <linebreak.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- glyphs ------------------------------------------------------------ */

static unsigned classify(uint32_t cp)
{
	unsigned c = 0;
	if (cp == '\n')
		c |= WG_NEWLINE;
	if (cp == ' ')
		c |= WG_SPACE;
	if (utf8_no_break_before(cp))
		c |= WG_NO_BREAK_BEFORE;
	if (utf8_no_break_after(cp))
		c |= WG_NO_BREAK_AFTER;
	if (utf8_is_cjk_breakable(cp))
		c |= WG_CJK;
	return c;
}

void wrap_run_free(struct wrap_run *r)
{
	wb_buf_free(&r->text);
	free(r->g);
	free(r->brk);
	memset(r, 0, sizeof *r);
}

static void run_push(struct wrap_run *r, uint32_t cp, const char *bytes, size_t len, int width,
		     unsigned style)
{
	free(r->brk);
	r->brk = NULL;
	if (r->n == r->cap) {
		/* Small first: a table has a run per cell. */
		r->cap = r->cap ? r->cap * 2 : 8;
		r->g = wb_xrealloc(r->g, r->cap * sizeof *r->g);
	}
	r->g[r->n++] = (struct wrap_glyph){.off = (uint32_t)r->text.len,
					   .len = (uint32_t)len,
					   .width = (uint32_t)width,
					   .style = style,
					   .cls = classify(cp)};
	wb_buf_append(&r->text, bytes, len);
}

/* Appends text; code mode keeps spaces and expands tabs to 4 columns. */
void wrap_run_add(struct wrap_run *r, const char *s, size_t n, unsigned style, int code)
{
	size_t i = 0;
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		const char *src = s + i;
		i += k;
		if (cp == '\n') {
			run_push(r, '\n', "", 0, 0, style);
			continue;
		}
		if (cp == '\t') {
			int reps = code ? 4 : 1;
			for (int t = 0; t < reps; t++)
				run_push(r, ' ', " ", 1, 1, style);
			continue;
		}
		if (cp == '\r')
			continue;
		if (textsafe_unsafe_cp(cp)) /* controls, C1, bidi: core/textsafe.h */
			cp = UTF8_REPLACEMENT;
		char enc[4];
		size_t elen;
		if (cp == UTF8_REPLACEMENT) {
			elen = utf8_encode(cp, enc);
			src = enc;
		} else {
			elen = k;
		}
		int w = utf8_cp_width(cp);
		if (w == 0) {
			/* Zero-width: ride on the glyph before, or vanish. */
			if (r->n && !(r->g[r->n - 1].cls & WG_NEWLINE) &&
			    r->g[r->n - 1].len + elen <= WRAP_GLYPH_MAX_LEN) {
				free(r->brk);
				r->brk = NULL;
				wb_buf_append(&r->text, src, elen);
				r->g[r->n - 1].len += (uint32_t)elen;
			}
			continue;
		}
		run_push(r, cp, src, elen, w, style);
	}
}

void wrap_run_addz(struct wrap_run *r, const char *s, unsigned style)
{
	if (s)
		wrap_run_add(r, s, strlen(s), style, 0);
}

int wrap_is_space(const struct wrap_glyph *g)
{
	return (g->cls & WG_SPACE) != 0;
}

/* ---- wrapping ---------------------------------------------------------- */

static pthread_once_t linebreak_once = PTHREAD_ONCE_INIT;

static void linebreak_init(void)
{
	init_linebreak(); /* libunibreak's index of its property tables */
}

/* The language libunibreak tailors for: the lesson's; without one (UI
 * text), zh when the run holds an ideograph, so “” pair up as they do in
 * Chinese instead of sticking to both neighbours. */
static const char *break_lang(const struct wrap_opts *o, const struct wrap_run *r)
{
	if (o->lang)
		return o->lang;
	for (size_t i = 0; i < r->n; i++)
		if (r->g[i].cls & WG_CJK)
			return "zh";
	return NULL;
}

void wrap_run_breaks(struct wrap_run *r, const struct wrap_opts *o)
{
	if (r->brk || o->hand_rules || r->text.len == 0)
		return;
	pthread_once(&linebreak_once, linebreak_init);
	r->brk = wb_xmalloc(r->text.len);
	set_linebreaks_utf8((const utf8_t *)r->text.data, r->text.len, break_lang(o, r), r->brk);
}

/* The hand-written rules (utf8.h), for wrap_opts.hand_rules. */
static int hand_break_before(const struct wrap_run *r, size_t j)
{
	const struct wrap_glyph *prev = &r->g[j - 1], *cur = &r->g[j];
	if (wrap_is_space(prev))
		return 1;
	if ((cur->cls & WG_NO_BREAK_BEFORE) || (prev->cls & WG_NO_BREAK_AFTER))
		return 0;
	return ((cur->cls | prev->cls) & WG_CJK) != 0;
}

/* May a line start at glyph j (j > 0)?  Glyphs are contiguous in text, so
 * the verdict for the boundary is the one after glyph j-1's last byte
 * (zero-width marks included); a forced break (WG_NEWLINE, no bytes) is
 * the wrapper's, not asked here. */
int wrap_can_break_before(const struct wrap_run *r, size_t j)
{
	if (wrap_is_space(&r->g[j]))
		return 0;
	if (!r->brk)
		return hand_break_before(r, j);
	uint32_t off = r->g[j].off;
	if (off == 0)
		return 0;
	char b = r->brk[off - 1];
	return b == LINEBREAK_ALLOWBREAK || b == LINEBREAK_MUSTBREAK;
}

/* May a line that has to be cut mid-run start at glyph j?  Not with
 * closing punctuation: for libunibreak, a glyph that may not follow an
 * ideograph (CL, CP, EX, IS, NS, ...). */
static int may_start_cut(const struct wrap_run *r, size_t j, const char *lang)
{
	if (!r->brk)
		return !(r->g[j].cls & WG_NO_BREAK_BEFORE);
	uint32_t cp;
	utf8_decode(r->text.data + r->g[j].off, r->g[j].len, &cp);
	return r->g[j].len == 0 ||
	       is_line_breakable(0x4E00, cp, lang ? lang : "zh") != LINEBREAK_NOBREAK;
}

/* An ASCII letter or digit. */
static int is_latin(const struct wrap_run *r, size_t j)
{
	if (r->g[j].len != 1)
		return 0;
	unsigned char ch = (unsigned char)r->text.data[r->g[j].off];
	return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

/* Is glyph k a digit after a digit and . , or : ("3.9", "10,000")? */
static int in_number(const struct wrap_run *r, size_t k)
{
	if (k < 2 || r->g[k - 1].len != 1)
		return 0;
	const char *t = r->text.data;
	unsigned char d = (unsigned char)t[r->g[k].off], p = (unsigned char)t[r->g[k - 2].off];
	char sep = t[r->g[k - 1].off];
	return r->g[k].len == 1 && r->g[k - 2].len == 1 && d >= '0' && d <= '9' && p >= '0' &&
	       p <= '9' && (sep == '.' || sep == ',' || sep == ':');
}

/* Where a line [start, ...) with no break opportunity before j (the
 * first glyph that does not fit, j > start) ends when it must: at a space
 * (the next line starting where a line may), else at any space (UAX #14
 * keeps "word ]" together; words stay whole), else at a word's edge, else
 * between glyphs, not before closing punctuation when that can be
 * helped. */
static size_t forced_cut(const struct wrap_run *r, size_t start, size_t to, size_t j,
			 const char *lang)
{
	size_t any = 0;
	for (size_t k = j; k > start; k--) {
		if (wrap_is_space(&r->g[k - 1]) == wrap_is_space(&r->g[k]))
			continue; /* not a word's edge */
		size_t next = k;
		while (next < to && wrap_is_space(&r->g[next]))
			next++;
		if (next >= to || may_start_cut(r, next, lang))
			return k;
		if (!any)
			any = k;
	}
	if (any)
		return any;
	/* A token longer than the line (a path, a call chain): at the last
	 * edge of a Latin word or number, so "a.withProtection()" is cut
	 * before "withProtection", not in it. */
	for (size_t k = j; k > start + 1; k--)
		if (!(is_latin(r, k - 1) && is_latin(r, k)) && !in_number(r, k) &&
		    may_start_cut(r, k, lang))
			return k;
	size_t end = j;
	while (end > start + 1 && !may_start_cut(r, end, lang))
		end--;
	return end;
}

void wrap_lines(struct wrap_run *r, size_t from, size_t to, int avail, int hard,
		const struct wrap_opts *o, wrap_line_fn fn, void *arg)
{
	static const struct wrap_opts defaults = {0};
	if (!o)
		o = &defaults;
	if (avail < 2)
		avail = 2;
	if (!hard)
		wrap_run_breaks(r, o);
	const char *lang = r->brk ? break_lang(o, r) : NULL;
	size_t start = from;
	while (start < to) {
		if (!hard)
			while (start < to && wrap_is_space(&r->g[start]))
				start++;
		if (start >= to)
			break;
		int w = 0;
		size_t j = start, brk = start;
		int forced = 0;
		while (j < to) {
			const struct wrap_glyph *g = &r->g[j];
			if (g->cls & WG_NEWLINE) {
				forced = 1;
				break;
			}
			if (j > start && !hard && wrap_can_break_before(r, j))
				brk = j;
			if (w + g->width > avail)
				break;
			w += g->width;
			j++;
		}
		size_t end;
		if (forced || j >= to) {
			end = j;
		} else if (brk > start) {
			end = brk;
		} else if (!hard) {
			end = forced_cut(r, start, to, j, lang);
		} else {
			end = j;
		}
		fn(r, start, end, arg);
		start = end;
		if (forced)
			start++;
	}
}

/* ---- plain text -------------------------------------------------------- */

struct wrap_collect {
	char **lines;
	size_t n;
};

static void wrap_collect_line(const struct wrap_run *r, size_t a, size_t b, void *arg)
{
	struct wrap_collect *wc = arg;
	struct wb_buf line = {0};
	for (size_t i = a; i < b; i++)
		wb_buf_append(&line, r->text.data + r->g[i].off, r->g[i].len);
	while (line.len && line.data[line.len - 1] == ' ')
		line.data[--line.len] = '\0';
	wc->lines = wb_xrealloc(wc->lines, (wc->n + 1) * sizeof *wc->lines);
	wc->lines[wc->n++] = wb_buf_steal(&line);
}

size_t wrap_text(const char *text, int width, char ***lines)
{
	struct wrap_run r = {0};
	wrap_run_add(&r, text, strlen(text), 0, 0);
	struct wrap_collect wc = {0};
	wrap_lines(&r, 0, r.n, width < 2 ? 2 : width, 0, NULL, wrap_collect_line, &wc);
	wrap_run_free(&r);
	*lines = wc.lines;
	return wc.n;
}

void wrap_text_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}
