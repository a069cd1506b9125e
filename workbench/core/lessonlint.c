/*
 * lessonlint.c - lesson checks (see lessonlint.h).
 *
 * Lab cards are found with cmark-gfm, like the reader finds them, so a
 * fence inside a list or a quote counts the same; line numbers come from
 * cmark's source positions.  What the reader refuses (a file over
 * LESSON_MAX_BYTES) or cuts (tables past LESSON_MAX_TABLE_CELLS) is an
 * error, what it lays out flat (nesting deeper than LESSON_MAX_NESTING) a
 * warning.
 */
#include "core/lessonlint.h"
#include "core/labcat.h"
#include "core/lesson.h"
#include "core/textsafe.h"
#include "base/wb.h"

#include <cmark-gfm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lint {
	const char *file;
	lint_lab_built_fn built;
	int strict;
	lint_report_fn report;
	void *arg;
	int errors;
};

static void say(struct lint *l, enum lint_level level, int line, const char *fmt, const char *a)
{
	char msg[512];
	snprintf(msg, sizeof msg, fmt, a);
	if (level == LINT_ERROR)
		l->errors++;
	l->report(l->arg, level, l->file, line, 0, msg);
}

/* textsafe_scan's callback: an unsafe character is an error at its column. */
static void unsafe_char(void *arg, size_t line, size_t col, const char *what)
{
	struct lint *l = arg;
	l->errors++;
	l->report(l->arg, LINT_ERROR, l->file, (int)line, (int)col, what);
}

static void check_lab_block(struct lint *l, cmark_node *n)
{
	const char *lit = cmark_node_get_literal(n);
	int line = cmark_node_get_start_line(n) + 1; /* first line inside the fence */
	for (const char *p = lit ? lit : ""; *p; line++) {
		size_t len = strcspn(p, "\n");
		char *id = wb_xstrndup(p, len);
		char *s = id, *e = id + strlen(id);
		while (*s == ' ' || *s == '\t')
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		if (*s) {
			if (!labcat_find(s))
				say(l, LINT_ERROR, line,
				    "unknown lab id '%s' (not in the catalogue)", s);
			else if (l->built && !l->built(s))
				say(l, l->strict ? LINT_ERROR : LINT_WARNING, line,
				    "lab '%s' is not in this build", s);
		}
		free(id);
		p += len;
		if (*p == '\n')
			p++;
	}
}

/* Every node, with cmark's iterator: no recursion, so a 30,000-deep quote
 * is walked like a flat one (#20 F2). */
static void walk(struct lint *l, cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_CODE_BLOCK)
			continue;
		const char *info = cmark_node_get_fence_info(n);
		if (info && !strncmp(info, "lab", 3) && (info[3] == '\0' || info[3] == ' '))
			check_lab_block(l, n);
	}
	cmark_iter_free(it);
}

/* Nesting the reader lays out flat (#20 F2): a warning at its line. */
static void check_depth(struct lint *l, cmark_node *doc)
{
	cmark_node *deep = lesson_too_deep(doc);
	if (!deep)
		return;
	char msg[160];
	snprintf(msg, sizeof msg,
		 "nested deeper than %d levels (quotes, list items or emphasis); the reader "
		 "shows the deeper levels flat",
		 LESSON_MAX_NESTING);
	l->report(l->arg, LINT_WARNING, l->file, lesson_node_line(deep), 0, msg);
}

int lessonlint_text(const char *file, const char *text, size_t len, lint_lab_built_fn built,
		    int strict_labs, lint_report_fn report, void *arg)
{
	struct lint l = {file, built, strict_labs, report, arg, 0};
	struct lesson *lesson = NULL;
	if (len > LESSON_MAX_BYTES) {
		/* What `lesson show` and the reader refuse (#20 F12). */
		char msg[160];
		snprintf(msg, sizeof msg,
			 "the file is larger than %u MiB (%zu bytes); lessons are limited to that",
			 LESSON_MAX_BYTES >> 20, len);
		say(&l, LINT_ERROR, 1, "%s", msg);
		return l.errors;
	}
	/* Control characters, escapes and bidi controls would reach the
	 * terminal of whoever reads the lesson (core/textsafe.h). */
	textsafe_scan(text, len, unsafe_char, &l);
	if (lesson_parse("lint", "en", text, len, &lesson) != 0) {
		say(&l, LINT_ERROR, 1, "%s", "cannot parse the file");
		return l.errors;
	}
	cmark_node *first = cmark_node_first_child(lesson->doc);
	while (first && cmark_node_get_type(first) == CMARK_NODE_HTML_BLOCK)
		first = cmark_node_next(first);
	if (!first || cmark_node_get_type(first) != CMARK_NODE_HEADING ||
	    cmark_node_get_heading_level(first) != 1)
		say(&l, LINT_ERROR, first ? cmark_node_get_start_line(first) : 1, "%s",
		    "a lesson starts with its title as a level-1 heading (# Title)");
	if (lesson->cut_line) {
		/* What the reader cuts (#20 F5). */
		char msg[200];
		snprintf(msg, sizeof msg,
			 "the table has %zu cells; the reader lays out at most %u table cells per "
			 "lesson and cuts the rest",
			 lesson->cut_cells, LESSON_MAX_TABLE_CELLS);
		say(&l, LINT_ERROR, lesson->cut_line, "%s", msg);
	}
	walk(&l, lesson->doc);
	check_depth(&l, lesson->doc);
	lesson_free(lesson);
	return l.errors;
}
