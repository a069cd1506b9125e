/*
 * lesson.h - a chapter parsed with cmark-gfm (tables, task lists,
 * strikethrough, autolinks).
 *
 * The lesson owns the cmark document; layout.c walks it.  This module does
 * not lay out text or know about screens.
 */
#ifndef WB_LESSON_H
#define WB_LESSON_H

#include <stddef.h>

struct cmark_node;

struct lesson {
	char *id;		/* chapter id (file name without .md) */
	char *lang;		/* "en" or "zh" */
	char *title;		/* first level-1 heading, or the id */
	struct cmark_node *doc; /* parsed document, owned */
	int cut_line;		/* first table cut at the cell budget, 0 none */
	size_t cut_cells;	/* the cells that table has */
	char *path;		/* the file lesson_load read, or NULL (lesson_parse);
				   ```timeline blocks are found beside it */
};

/* The table cells a lesson may hold in all (#20 F5).  cmark-gfm alone
 * takes some 550 bytes per cell and the layout as much again, so a 3.8
 * MB table of 1.9 million cells took gigabytes; 10,000 cells (1,000 rows
 * of 10) cost about 11 MB.  lesson_parse keeps the rows that fit and
 * puts a notice naming the table's line and the limit where the rest
 * was. */
#define LESSON_MAX_TABLE_CELLS 10000u

/* Parses Markdown text (any bytes; invalid UTF-8 is shown as U+FFFD by the
 * layout).  Tables past LESSON_MAX_TABLE_CELLS are cut before parsing
 * (cut_line, cut_cells say where), found in the source lines: a line
 * with a '|' followed by a delimiter row, to the next blank line, inside
 * quotes too, not inside fences.  Returns 0 or WB_ENOMEM; *out freed
 * with lesson_free. */
int lesson_parse(const char *id, const char *lang, const char *text, size_t len,
		 struct lesson **out);

/* A glossary link: lesson_parse turns "[[term]]" in text (not in code)
 * into a link node with an empty URL and this title, whose text is the
 * term, so the layout shows the term styled as a link (and no URL).  The
 * term is looked up in <content>/lessons/<lang>/glossary.md
 * (content_glossary_find). */
#define LESSON_TERM_TITLE "wb:glossary-term"
struct cmark_node;
/* True when n is such a glossary link.  Cannot fail. */
int lesson_is_term_link(struct cmark_node *n);

/* Lesson files larger than this are refused: real chapters are well under
 * 100 KiB, and laying out a runaway file would take seconds and hundreds
 * of megabytes. */
#define LESSON_MAX_BYTES (4u << 20)

/* Reads and parses a lesson file.  Returns 0, WB_ENOENT, WB_EIO, or
 * WB_ERANGE when the file is larger than LESSON_MAX_BYTES. */
int lesson_load(const char *path, const char *id, const char *lang, struct lesson **out);

void lesson_free(struct lesson *l);

/* Attaches the GFM extensions used by lessons and quizzes to a parser.
 * Shared with the quiz parser so both read the same dialect. */
struct cmark_parser;
void lesson_attach_extensions(struct cmark_parser *p);

/* Concatenated plain text of an inline subtree (no markup); caller frees.
 * Iterative: any nesting depth is safe. */
char *lesson_plain_text(struct cmark_node *node);

/* How deep the reader nests (#20 F2).  Block quotes and list items count
 * as one level each for the blocks; emphasis, links, images and
 * strikethrough count for the inline text of one block.  Real chapters
 * stay under ten; deeper levels are laid out flat at this depth (the
 * layout never recurses further), and both linters warn. */
#define LESSON_MAX_NESTING 100

/* The first node under root (in document order) nested deeper than
 * LESSON_MAX_NESTING, blocks or inlines, or NULL when none.  Iterative:
 * safe at any depth.  Cannot fail. */
struct cmark_node *lesson_too_deep(struct cmark_node *root);

/* The source line of n, or of its nearest ancestor that has one (inline
 * nodes may carry none); 1 when none does.  Cannot fail. */
int lesson_node_line(struct cmark_node *n);

#endif
