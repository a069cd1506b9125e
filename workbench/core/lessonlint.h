/*
 * lessonlint.h - checks a lesson file: a level-1 title first, lab cards
 * that name catalogue labs, and (when the caller says every catalogue lab
 * is built) labs that this build can run, and the limits of the reader
 * (core/lesson.h: the file size and the table cell budget are errors,
 * nesting it lays out flat a warning).  Reports problems as
 * "file:line: message" through a callback; reads nothing but the file.
 */
#ifndef WB_LESSONLINT_H
#define WB_LESSONLINT_H

#include <stddef.h>

enum lint_level { LINT_WARNING, LINT_ERROR };

/* One problem: line 1-based; col 1-based, or 0 when the problem has no
 * column (most have none: they are about a block). */
typedef void (*lint_report_fn)(void *arg, enum lint_level level, const char *file, int line,
			       int col, const char *msg);

/* Returns true when this build can run the lab (set by the caller). */
typedef int (*lint_lab_built_fn)(const char *id);

/* Lints Markdown text of a lesson.  strict_labs: an id missing from this
 * build is an error (once every catalogue lab exists) instead of a
 * warning.  Returns the number of errors. */
int lessonlint_text(const char *file, const char *text, size_t len, lint_lab_built_fn built,
		    int strict_labs, lint_report_fn report, void *arg);

/* ---- checks across files: lessonlint_set ----
 *
 * A set of lesson files of both languages (chapters NN-slug.md and the
 * glossary.md of each language).  Besides lessonlint_text's checks on
 * every target:
 *  - a relative link "NN-slug.md#anchor" (or "#anchor", or a bare
 *    "NN-slug.md") names a file of the same language in the set, and the
 *    anchor is the GitHub slug of one of its headings (error);
 *  - every "[[term]]" is an entry of that language's glossary (error);
 *  - a glossary entry links to at least one chapter section, and no two
 *    entries have the same name (error);
 *  - parity: an en chapter and its zh file have the same number of ##
 *    sections and the same lab cards in the same order, and the two
 *    glossaries define the same terms (the zh entries' English names);
 *    an error with strict_parity, else a warning.  Reported once per
 *    pair, on the en file when both are targets.
 * Links with a scheme (https:, mailto:) and paths with a '/' are not
 * checked. */
struct lessonlint_doc {
	const char *file; /* path shown in messages */
	const char *lang; /* "en" or "zh" */
	const char *name; /* file name: "01-locks-ids-leases.md", "glossary.md" */
	const char *text;
	size_t len;
	int target; /* report this file's problems (others are context) */
};

struct lessonlint_opts {
	lint_lab_built_fn built; /* may be NULL: every lab counts as built */
	int strict_labs;	 /* as lessonlint_text */
	int strict_parity;	 /* en/zh differences are errors, not warnings */
};

/* Lints the targets of docs[0..n).  Returns the number of errors. */
int lessonlint_set(const struct lessonlint_doc *docs, size_t n, const struct lessonlint_opts *o,
		   lint_report_fn report, void *arg);

#endif
