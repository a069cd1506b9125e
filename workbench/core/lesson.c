/*
 * lesson.c - Markdown parsing with cmark-gfm (see lesson.h).
 *
 * Extensions are registered once per process; cmark-gfm's registry is
 * global and not thread-safe, and the workbench parses on one thread.
 */
#include "core/lesson.h"
#include "base/wb.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void ensure_extensions(void)
{
	static int done;
	if (!done) {
		cmark_gfm_core_extensions_ensure_registered();
		done = 1;
	}
}

void lesson_attach_extensions(struct cmark_parser *p)
{
	static const char *names[] = {"table", "tasklist", "strikethrough", "autolink"};
	ensure_extensions();
	for (size_t i = 0; i < WB_ARRAY_LEN(names); i++) {
		cmark_syntax_extension *ext = cmark_find_syntax_extension(names[i]);
		if (ext)
			cmark_parser_attach_syntax_extension(p, ext);
	}
}

static void plain_text_into(struct wb_buf *b, cmark_node *n)
{
	for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE: {
			const char *lit = cmark_node_get_literal(c);
			if (lit)
				wb_buf_puts(b, lit);
			break;
		}
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK: wb_buf_puts(b, " "); break;
		default: plain_text_into(b, c);
		}
	}
}

char *lesson_plain_text(cmark_node *node)
{
	struct wb_buf b = {0};
	plain_text_into(&b, node);
	return wb_buf_steal(&b);
}

int lesson_is_term_link(struct cmark_node *n)
{
	const char *title;
	return n && cmark_node_get_type(n) == CMARK_NODE_LINK &&
	       (title = cmark_node_get_title(n)) && !strcmp(title, LESSON_TERM_TITLE);
}

/* The term of "[[term]]" at s: its length, or 0 when s does not start one
 * (empty, longer than 64 bytes, or holding a bracket or a newline). */
static size_t term_at(const char *s, size_t *inner)
{
	if (strncmp(s, "[[", 2) != 0)
		return 0;
	size_t n = strcspn(s + 2, "[]\n");
	if (n == 0 || n > 64 || strncmp(s + 2 + n, "]]", 2) != 0)
		return 0;
	*inner = n;
	return n + 4;
}

/* Turns every "[[term]]" of a text node into a link node (empty URL,
 * title LESSON_TERM_TITLE) holding the term as its text.  cmark splits
 * brackets into their own text nodes, so adjacent ones are merged first. */
static void mark_terms(cmark_node *doc)
{
	cmark_consolidate_text_nodes(doc);
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;

	size_t ntodo = 0, cap = 0;
	cmark_node **list = NULL;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		const char *lit;
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_TEXT ||
		    !(lit = cmark_node_get_literal(n)) || !strstr(lit, "[["))
			continue;
		if (ntodo == cap) {
			cap = cap ? cap * 2 : 8;
			list = wb_xrealloc(list, cap * sizeof *list);
		}
		list[ntodo++] = n;
	}
	cmark_iter_free(it);

	for (size_t i = 0; i < ntodo; i++) {
		cmark_node *text = list[i];
		char *lit = wb_xstrdup(cmark_node_get_literal(text));
		const char *p = lit, *start = lit;
		cmark_node *after = text;
		int first = 1;
		while ((p = strstr(p, "[["))) {
			size_t inner, len = term_at(p, &inner);
			if (!len) {
				p++;
				continue;
			}
			char *before = wb_xstrndup(start, (size_t)(p - start));
			if (first) {
				cmark_node_set_literal(text, before);
				first = 0;
			} else if (*before) {
				cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
				cmark_node_set_literal(t, before);
				cmark_node_insert_after(after, t);
				after = t;
			}
			free(before);
			char *term = wb_xstrndup(p + 2, inner);
			cmark_node *link = cmark_node_new(CMARK_NODE_LINK);
			cmark_node_set_url(link, "");
			cmark_node_set_title(link, LESSON_TERM_TITLE);
			cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
			cmark_node_set_literal(t, term);
			cmark_node_append_child(link, t);
			cmark_node_insert_after(after, link);
			after = link;
			free(term);
			p += len;
			start = p;
		}
		if (!first && *start) {
			cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
			cmark_node_set_literal(t, start);
			cmark_node_insert_after(after, t);
		}
		free(lit);
	}
	free(list);
}

int lesson_parse(const char *id, const char *lang, const char *text, size_t len,
		 struct lesson **out)
{
	ensure_extensions();
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	if (!p)
		return WB_ENOMEM;
	lesson_attach_extensions(p);
	cmark_parser_feed(p, text, len);
	cmark_node *doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	if (!doc)
		return WB_ENOMEM;
	mark_terms(doc);

	struct lesson *l = wb_xcalloc(1, sizeof *l);
	l->id = wb_xstrdup(id);
	l->lang = wb_xstrdup(lang);
	l->doc = doc;
	for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c)) {
		if (cmark_node_get_type(c) == CMARK_NODE_HEADING &&
		    cmark_node_get_heading_level(c) == 1) {
			l->title = lesson_plain_text(c);
			break;
		}
	}
	if (!l->title)
		l->title = wb_xstrdup(id);
	*out = l;
	return 0;
}

int lesson_load(const char *path, const char *id, const char *lang, struct lesson **out)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > LESSON_MAX_BYTES)
		return WB_ERANGE;
	char *text;
	size_t len;
	int rc = wb_read_file(path, &text, &len);
	if (rc)
		return rc;
	if (len > LESSON_MAX_BYTES) {
		free(text);
		return WB_ERANGE;
	}
	rc = lesson_parse(id, lang, text, len, out);
	free(text);
	return rc;
}

void lesson_free(struct lesson *l)
{
	if (!l)
		return;
	if (l->doc)
		cmark_node_free(l->doc);
	free(l->id);
	free(l->lang);
	free(l->title);
	free(l);
}
