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

char *lesson_plain_text(cmark_node *node)
{
	/* cmark's iterator keeps no stack of its own: 30,000 nested links
	 * cost no more than one (#20 F2). */
	struct wb_buf b = {0};
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || c == node)
			continue;
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE: {
			const char *lit = cmark_node_get_literal(c);
			if (lit)
				wb_buf_puts(&b, lit);
			break;
		}
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK: wb_buf_puts(&b, " "); break;
		default: break;
		}
	}
	cmark_iter_free(it);
	return wb_buf_steal(&b);
}

/* Does n open one level of inline nesting?  The inline containers:
 * every inline type that is not a leaf of cmark's iterator. */
static int inline_level(cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	if ((t & CMARK_NODE_TYPE_MASK) != CMARK_NODE_TYPE_INLINE)
		return 0;
	return t != CMARK_NODE_TEXT && t != CMARK_NODE_SOFTBREAK && t != CMARK_NODE_LINEBREAK &&
	       t != CMARK_NODE_CODE && t != CMARK_NODE_HTML_INLINE;
}

cmark_node *lesson_too_deep(cmark_node *root)
{
	cmark_node *found = NULL;
	int blocks = 0, inl = 0;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while (!found && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		int *depth = t == CMARK_NODE_BLOCK_QUOTE || t == CMARK_NODE_ITEM ? &blocks
			     : inline_level(n)					 ? &inl
										 : NULL;
		if (!depth || n == root)
			continue;
		if (ev == CMARK_EVENT_EXIT) {
			(*depth)--;
		} else if (++*depth > LESSON_MAX_NESTING) {
			found = n;
		}
	}
	cmark_iter_free(it);
	return found;
}

int lesson_node_line(cmark_node *n)
{
	for (; n; n = cmark_node_parent(n))
		if (cmark_node_get_start_line(n) > 0)
			return cmark_node_get_start_line(n);
	return 1;
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
