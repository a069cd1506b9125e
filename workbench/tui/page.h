/*
 * page.h - a page of screen lines for the quiz screen (tui/page.c): plain
 * text wrapped with a hanging indent, or Markdown laid out by core/layout,
 * each line optionally tagged (an option or rubric item) so the selected
 * item can be highlighted and kept in view.  Built each frame, drawn,
 * freed; it knows nothing of questions.
 */
#ifndef WB_TUI_PAGE_H
#define WB_TUI_PAGE_H

#include <stddef.h>

struct tui;
struct lay_line;
struct layout;

/* A list of screen lines: either a laid-out Markdown line or plain text. */
struct pline {
	const struct lay_line *lay; /* borrowed from one of page.lays */
	char *text;		    /* plain text, owned */
	int attr;		    /* curses attribute of plain text */
	int indent;		    /* columns from the left edge */
	int tag;		    /* rubric item / option index + 1, 0 none */
};

struct page {
	struct pline *l;      /* lines, owned */
	size_t n;	      /* lines used */
	struct layout **lays; /* layouts the Markdown lines borrow from, owned */
	size_t nlays;
};

/* Appends an empty line and returns it (zeroed). */
struct pline *page_add(struct page *p);
/* Appends an empty text line. */
void page_blank(struct page *p);
/* Plain text wrapped to width columns starting at indent; lines after the
 * first are indented `hang` more (for "[ ] 1. " prefixes). */
void page_hang(struct page *p, const char *text, int width, int attr, int indent, int hang,
	       int tag);
/* page_hang without a hanging indent. */
void page_text(struct page *p, const char *text, int width, int attr, int indent, int tag);
/* Markdown md laid out at width (lang for its typography), without the
 * blank lines around it; nothing is added when it does not parse. */
void page_md(struct page *p, const char *md, int width, const char *lang, int indent);
/* Frees the lines and layouts; the page is empty and reusable after. */
void page_free(struct page *p);
/* Draws lines [first, first+rows) of p at (y, x), width w; lines tagged
 * sel_tag (0: none) are drawn in reverse video. */
void page_draw(struct tui *t, const struct page *p, int y, int x, int rows, int w, int first,
	       int sel_tag);
/* First and last line of a tag; both -1 when absent. */
void page_tag_span(const struct page *p, int tag, int *first, int *last);

#endif
