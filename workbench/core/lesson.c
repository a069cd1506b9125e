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
