/*
 * textbox.c - the text box model (textbox.h): code points, cursor, edits,
 * wrapping (at spaces; between wide characters anywhere).  No curses: the unit test drives it
 * directly.
 */
#include "tui/textbox.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <stdlib.h>
#include <string.h>

void textbox_clear(struct textbox *b)
{
	b->len = b->cur = 0;
}

void textbox_free(struct textbox *b)
{
	free(b->cp);
	memset(b, 0, sizeof *b);
}

void textbox_insert(struct textbox *b, uint32_t c)
{
	if (b->len == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->cp = wb_xrealloc(b->cp, b->cap * sizeof *b->cp);
	}
	memmove(b->cp + b->cur + 1, b->cp + b->cur, (b->len - b->cur) * sizeof *b->cp);
	b->cp[b->cur++] = c;
	b->len++;
}

void textbox_erase(struct textbox *b, size_t from, size_t to)
{
	if (to > b->len)
		to = b->len;
	if (from >= to)
		return;
	memmove(b->cp + from, b->cp + to, (b->len - to) * sizeof *b->cp);
	b->len -= to - from;
	if (b->cur > to)
		b->cur -= to - from;
	else if (b->cur > from)
		b->cur = from;
}

void textbox_backspace(struct textbox *b)
{
	if (b->cur > 0)
		textbox_erase(b, b->cur - 1, b->cur);
}

size_t textbox_line_start(const struct textbox *b, size_t i)
{
	while (i > 0 && b->cp[i - 1] != '\n')
		i--;
	return i;
}

size_t textbox_line_end(const struct textbox *b, size_t i)
{
	while (i < b->len && b->cp[i] != '\n')
		i++;
	return i;
}

static int is_space(uint32_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == 0x3000;
}

void textbox_kill_word(struct textbox *b)
{
	size_t i = b->cur;
	while (i > 0 && is_space(b->cp[i - 1]))
		i--;
	while (i > 0 && !is_space(b->cp[i - 1]))
		i--;
	textbox_erase(b, i, b->cur);
}

char *textbox_slice(const struct textbox *b, size_t from, size_t to)
{
	struct wb_buf out = {0};
	if (to > b->len)
		to = b->len;
	for (size_t i = from; i < to; i++) {
		char enc[4];
		wb_buf_append(&out, enc, utf8_encode(b->cp[i], enc));
	}
	return wb_buf_steal(&out);
}

char *textbox_text(const struct textbox *b)
{
	return textbox_slice(b, 0, b->len);
}

void textbox_set(struct textbox *b, const char *s)
{
	textbox_clear(b);
	size_t n = s ? strlen(s) : 0, i = 0;
	while (i < n) {
		uint32_t c;
		i += utf8_decode(s + i, n - i, &c);
		if (c != '\r')
			textbox_insert(b, c);
	}
}

int textbox_blank(const struct textbox *b)
{
	for (size_t i = 0; i < b->len; i++)
		if (!is_space(b->cp[i]))
			return 0;
	return 1;
}

static int cp_cols(uint32_t c)
{
	if (c < 0x20)
		return 1; /* shown as U+FFFD */
	return utf8_cp_width(c);
}

static void add_row(struct textbox_rows *r, size_t *cap, size_t start, size_t end)
{
	if (r->n == *cap) {
		*cap *= 2;
		r->start = wb_xrealloc(r->start, *cap * sizeof *r->start);
		r->end = wb_xrealloc(r->end, *cap * sizeof *r->end);
	}
	r->start[r->n] = start;
	r->end[r->n] = end;
	r->n++;
}

/* Where a row [s, i) that cannot take b->cp[i] ends: after its last
 * space, so words stay whole; at i itself when the break falls between
 * wide (CJK) characters, which may break anywhere, or when the row has
 * no space. */
static size_t wrap_point(const struct textbox *b, size_t s, size_t i)
{
	if (b->cp[i] == ' ' || cp_cols(b->cp[i]) > 1 || cp_cols(b->cp[i - 1]) > 1)
		return i;
	for (size_t k = i; k > s + 1; k--)
		if (b->cp[k - 1] == ' ')
			return k;
	return i;
}

void textbox_wrap(const struct textbox *b, int width, struct textbox_rows *r)
{
	size_t cap = 16;
	r->start = wb_xmalloc(cap * sizeof *r->start);
	r->end = wb_xmalloc(cap * sizeof *r->end);
	r->n = 0;
	r->cur_row = 0;
	r->cur_col = 0;
	size_t s = 0;
	int col = 0;
	for (size_t i = 0;; i++) {
		int brk = i == b->len || b->cp[i] == '\n';
		int w = brk ? 0 : cp_cols(b->cp[i]);
		if (!brk && !(col + w > width && i > s)) {
			col += w;
			continue;
		}
		if (brk) { /* a newline or the end */
			add_row(r, &cap, s, i);
			if (i == b->len)
				break;
			s = i + 1;
			col = 0;
			continue;
		}
		/* A wrap: the row ends at wrap_point; what follows starts the
		 * next row, and the loop goes on from i with its width. */
		size_t e = wrap_point(b, s, i);
		add_row(r, &cap, s, e);
		col = 0;
		if (e == i && b->cp[i] == ' ') {
			s = i + 1; /* the space at the break shows on neither row */
			continue;
		}
		s = e;
		for (size_t k = e; k <= i; k++)
			col += cp_cols(b->cp[k]);
	}
	/* The cursor belongs to the last row that starts at or before it. */
	for (size_t k = 0; k < r->n; k++)
		if (r->start[k] <= b->cur)
			r->cur_row = k;
	for (size_t i = r->start[r->cur_row]; i < b->cur && i < b->len; i++)
		r->cur_col += cp_cols(b->cp[i]);
}

void textbox_rows_free(struct textbox_rows *r)
{
	free(r->start);
	free(r->end);
	memset(r, 0, sizeof *r);
}

void textbox_vertical(struct textbox *b, int width, int dir)
{
	struct textbox_rows r;
	textbox_wrap(b, width, &r);
	if ((dir < 0 && r.cur_row == 0) || (dir > 0 && r.cur_row + 1 >= r.n)) {
		b->cur = dir < 0 ? 0 : b->len;
		textbox_rows_free(&r);
		return;
	}
	size_t row = dir < 0 ? r.cur_row - 1 : r.cur_row + 1;
	size_t i = r.start[row];
	int col = 0;
	while (i < r.end[row] && col + cp_cols(b->cp[i]) <= r.cur_col) {
		col += cp_cols(b->cp[i]);
		i++;
	}
	b->cur = i;
	textbox_rows_free(&r);
}
