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

#endif
