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
};

/* Parses Markdown text (any bytes; invalid UTF-8 is shown as U+FFFD by the
 * layout).  Returns 0 or WB_ENOMEM; *out freed with lesson_free. */
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

/* Concatenated plain text of an inline subtree (no markup); caller frees. */
char *lesson_plain_text(struct cmark_node *node);

#endif
