/*
 * page.c - lines of a quiz page (page.h): wrapping, Markdown lines,
 * drawing with a highlighted item.  It draws through term.c only.
 */
#include "tui/page.h"
#include "core/layout.h"
#include "core/wrap.h"
#include "core/lesson.h"
#include "base/wb.h"
#include "tui/term.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

struct pline *page_add(struct page *p)
{
	p->l = wb_xrealloc(p->l, (p->n + 1) * sizeof *p->l);
	memset(&p->l[p->n], 0, sizeof p->l[p->n]);
	return &p->l[p->n++];
}

void page_blank(struct page *p)
{
	page_add(p)->text = wb_xstrdup("");
}

/* Appends lines[0..n) (taking the strings, not the array). */
static void add_lines(struct page *p, char **lines, size_t n, int attr, int indent, int tag)
{
	for (size_t i = 0; i < n; i++) {
		struct pline *l = page_add(p);
		l->text = lines[i];
		l->attr = attr;
		l->indent = indent;
		l->tag = tag;
	}
}

/* Plain text wrapped to width columns starting at indent; lines after
 * the first are indented `hang` more (for "[ ] 1. " prefixes).  The first
 * line takes the whole width; the rest of the text is wrapped again at
 * width - hang. */
void page_hang(struct page *p, const char *text, int width, int attr, int indent, int hang, int tag)
{
	char **lines;
	int full = width > 4 ? width : 4;
	int w = width - hang > 4 ? width - hang : 4;
	size_t n = wrap_text(text, full, &lines);
	size_t len0 = n ? strlen(lines[0]) : 0;
	int split = hang && n > 1 && !strncmp(text, lines[0], len0);
	if (hang && n > 1 && !split) { /* the first line is not a plain prefix */
		wrap_text_free(lines, n);
		n = wrap_text(text, w, &lines);
	}
	if (split) {
		add_lines(p, lines, 1, attr, indent, tag);
		for (size_t i = 1; i < n; i++)
			free(lines[i]);
		free(lines);
		const char *rest = text + len0;
		rest += strspn(rest, " \n");
		n = wrap_text(rest, w, &lines);
		for (size_t i = 0; i < n; i++)
			add_lines(p, lines + i, 1, attr, indent + hang, tag);
		free(lines);
		return;
	}
	for (size_t i = 0; i < n; i++)
		add_lines(p, lines + i, 1, attr, indent + (i ? hang : 0), tag);
	free(lines);
}

void page_text(struct page *p, const char *text, int width, int attr, int indent, int tag)
{
	page_hang(p, text, width, attr, indent, 0, tag);
}

void page_md(struct page *p, const char *md, int width, const char *lang, int indent)
{
	struct lesson *les;
	if (lesson_parse("quiz", lang, md, strlen(md), &les) != 0)
		return;
	struct layout *lay = layout_build(les, width > LAYOUT_MIN_WIDTH ? width : LAYOUT_MIN_WIDTH);
	lesson_free(les);
	p->lays = wb_xrealloc(p->lays, (p->nlays + 1) * sizeof *p->lays);
	p->lays[p->nlays++] = lay;
	size_t n = lay->nlines;
	while (n > 0 && lay->lines[n - 1].kind == LK_BLANK)
		n--;
	size_t i = 0;
	while (i < n && lay->lines[i].kind == LK_BLANK)
		i++;
	for (; i < n; i++) {
		struct pline *l = page_add(p);
		l->lay = &lay->lines[i];
		l->indent = indent;
	}
}

void page_free(struct page *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->l[i].text);
	free(p->l);
	for (size_t i = 0; i < p->nlays; i++)
		layout_free(p->lays[i]);
	free(p->lays);
	memset(p, 0, sizeof *p);
}

/* Draws lines [first, first+rows) of p at (y, x), width w.  Lines tagged
 * sel_tag are drawn in reverse video. */
void page_draw(struct tui *t, const struct page *p, int y, int x, int rows, int w, int first,
	       int sel_tag)
{
	for (int r = 0; r < rows && first + r < (int)p->n; r++) {
		const struct pline *l = &p->l[first + r];
		int hl = sel_tag && l->tag == sel_tag;
		if (hl) {
			attron(term_attr_select());
			mvhline(y + r, x, ' ', w);
			attroff(term_attr_select());
		}
		if (l->lay)
			term_draw_line(t, y + r, x + l->indent, l->lay, w - l->indent);
		else
			term_text_cut(y + r, x + l->indent, l->text, w - l->indent,
				      l->attr | (hl ? term_attr_select() : 0));
	}
}

/* First and last line of a tag; -1 when absent. */
void page_tag_span(const struct page *p, int tag, int *first, int *last)
{
	*first = *last = -1;
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].tag == tag) {
			if (*first < 0)
				*first = (int)i;
			*last = (int)i;
		}
}
