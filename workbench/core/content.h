/*
 * content.h - where lessons, quizzes and data live, and which chapters exist.
 *
 * Finds the content root and lists chapters of a language.  It does not
 * parse Markdown beyond reading a chapter's first "# " title line.
 */
#ifndef WB_CONTENT_H
#define WB_CONTENT_H

#include <stddef.h>

struct chapter_info {
	char *id;    /* file name without .md, e.g. "01-locks-ids-leases" */
	char *title; /* first "# " heading, or the id when there is none */
	char *path;  /* full path of the lesson file */
};

struct chapter_list {
	struct chapter_info *items; /* sorted by id */
	size_t n;
};

/* Returns the content root, in this order: the explicit dir (--content),
 * $WORKBENCH_CONTENT, the source tree when the binary runs from its build
 * directory, <prefix>/share/workbench next to an installed binary, the
 * configured install dir.  Caller frees.  Never NULL. */
char *content_root(const char *explicit_dir);

/* Lists chapters in <root>/lessons/<lang>/.  A missing folder gives an
 * empty list and WB_ENOENT; 0 otherwise.  Free with chapter_list_free. */
int content_list_chapters(const char *root, const char *lang, struct chapter_list *out);
void chapter_list_free(struct chapter_list *l);

/* The chapter of l that word names: its id, or a prefix of exactly one
 * id ("01" or "01-locks" for "01-locks-ids-leases").  Returns 0 with
 * *index set, WB_ENOENT when no id starts with word (or word is empty),
 * WB_EINVAL when several do (*index is the first of them).  Cannot fail
 * otherwise. */
int content_find_chapter(const struct chapter_list *l, const char *word, size_t *index);

/* True when id looks like a chapter id: "NN-" then [a-z0-9-]+. */
int content_valid_chapter_id(const char *id);

/* Builds <root>/lessons/<lang>/<id>.md; caller frees. */
char *content_lesson_path(const char *root, const char *lang, const char *id);

/* ---- the glossary: <root>/lessons/<lang>/glossary.md ----
 *
 * One "## term" heading per entry; in zh "## 中文名（English）" (or with
 * ASCII parentheses): both names find the entry.  The file name is no
 * chapter id, so content_list_chapters never lists it. */

#define CONTENT_GLOSSARY_FILE "glossary.md"

struct glossary_entry {
	char *heading; /* plain text of the ## heading */
	char *term;    /* the heading without a trailing "(English)" part */
	char *alt;     /* the part in parentheses, NULL when there is none */
	char *slug;    /* content_heading_slug(heading) */
	int line;      /* source line of the heading */
};

struct glossary {
	struct glossary_entry *e; /* in file order */
	size_t n;
};

/* Builds <root>/lessons/<lang>/glossary.md; caller frees. */
char *content_glossary_path(const char *root, const char *lang);

/* Parses glossary Markdown: every level-2 heading is an entry.  Cannot
 * fail (out of memory aborts); free with glossary_free. */
void content_glossary_parse(const char *text, size_t len, struct glossary *out);

/* Reads and parses the glossary of lang.  Returns 0, WB_ENOENT or WB_EIO
 * (out is then empty). */
int content_glossary_load(const char *root, const char *lang, struct glossary *out);
void glossary_free(struct glossary *g);

/* The entry whose term or alt equals word (ASCII case-insensitive,
 * surrounding spaces ignored): its index, or -1.  Cannot fail. */
int content_glossary_find(const struct glossary *g, const char *word);

/* GitHub's anchor for a heading's text: ASCII letters lowercased, spaces
 * to '-', ASCII punctuation other than '-' and '_' dropped, and common
 * Unicode punctuation and symbols (U+00A1-U+00BF, U+00D7, U+00F7,
 * U+2000-U+2BFF, U+3000-U+303F, full-width punctuation U+FF01-U+FF0F,
 * U+FF1A-U+FF20, U+FF3B-U+FF40, U+FF5B-U+FF65) dropped; letters of other
 * scripts (CJK) kept as they are.  Caller frees. */
char *content_heading_slug(const char *heading);

/* Picks "zh" or "en": explicit wins, else LC_ALL, then LANG starting with
 * "zh" gives "zh", everything else "en".  Returns a static string. */
const char *content_pick_lang(const char *explicit_lang);

/* True for the languages we ship ("en", "zh"). */
int content_lang_ok(const char *lang);

#endif
