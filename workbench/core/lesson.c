/*
 * lesson.c - Markdown parsing with cmark-gfm (see lesson.h).
 *
 * Extensions are registered once per process; cmark-gfm's registry is
 * global and not thread-safe, and the workbench parses on one thread.
 */
#include "core/lesson.h"
#include "core/i18n.h"
#include "base/wb.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <stdio.h>
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

/* ---- the table cell budget (#20 F5) ---- */

struct src_line {
	const char *s; /* after the quote and indentation prefix */
	size_t n;      /* bytes to the end of the line, newline excluded */
	size_t end;    /* offset just past the newline */
};

static struct src_line src_line(const char *text, size_t len, size_t at)
{
	const char *nl = memchr(text + at, '\n', len - at);
	size_t stop = nl ? (size_t)(nl - text) : len;
	struct src_line l = {text + at, stop - at, nl ? stop + 1 : len};
	for (;;) { /* quote marks, indentation and list markers, nested */
		while (l.n && (*l.s == ' ' || *l.s == '\t' || *l.s == '>'))
			l.s++, l.n--;
		size_t k = 0;
		while (k < l.n && k < 9 && l.s[k] >= '0' && l.s[k] <= '9')
			k++;
		if (k && k < l.n && (l.s[k] == '.' || l.s[k] == ')'))
			k++;
		else if (!k && l.n && strchr("-*+", *l.s))
			k = 1;
		else
			break;
		if (k >= l.n || (l.s[k] != ' ' && l.s[k] != '\t'))
			break;
		l.s += k, l.n -= k;
	}
	while (l.n && (l.s[l.n - 1] == ' ' || l.s[l.n - 1] == '\t' || l.s[l.n - 1] == '\r'))
		l.n--;
	return l;
}

/* The cells of a table row as cmark-gfm splits it: unescaped pipes, less
 * a leading and a trailing one; 0 when the line has no pipe. */
static size_t row_cells(struct src_line l)
{
	size_t pipes = 0;
	for (size_t i = 0; i < l.n; i++) {
		if (l.s[i] == '\\')
			i++;
		else if (l.s[i] == '|')
			pipes++;
	}
	if (!pipes)
		return 0;
	size_t cells = pipes + 1;
	if (l.s[0] == '|')
		cells--;
	if (l.n > 1 && l.s[l.n - 1] == '|' && l.s[l.n - 2] != '\\')
		cells--;
	return cells ? cells : 1;
}

static int is_delimiter_row(struct src_line l)
{
	int dash = 0;
	for (size_t i = 0; i < l.n; i++) {
		if (l.s[i] == '-')
			dash = 1;
		else if (!strchr("|: \t", l.s[i]))
			return 0;
	}
	return dash;
}

static int is_fence(struct src_line l)
{
	return l.n >= 3 && (!strncmp(l.s, "```", 3) || !strncmp(l.s, "~~~", 3));
}

struct budget {
	struct wb_buf out; /* the text with cut tables, once one is cut */
	size_t copied;	   /* source bytes already in out */
	size_t used;	   /* cells of the tables so far */
	int cut_line;
	size_t cut_cells;
};

/* A table from line `line` (offset at) with `cols` columns: counts its
 * rows to the next blank line and cuts it when the budget is passed.
 * Returns the offset after the table. */
static size_t table_budget(struct budget *b, const char *text, size_t len, size_t at, int line,
			   size_t cols, const char *lang)
{
	/* Lines that fit: the delimiter row has no cells, every other line
	 * has cols (cmark-gfm pads and trims rows to the header). */
	size_t lines = 0, keep_end = at, p = at;
	size_t fit = (LESSON_MAX_TABLE_CELLS - b->used) / cols + 1;
	while (p < len) {
		struct src_line l = src_line(text, len, p);
		if (!l.n)
			break;
		lines++;
		p = l.end;
		if (lines <= fit)
			keep_end = p;
	}
	size_t cells = (lines - 1) * cols;
	if (b->used + cells <= LESSON_MAX_TABLE_CELLS) {
		b->used += cells;
		return p;
	}
	if (fit < 3) /* no room for the header, delimiter and one row */
		keep_end = at;
	wb_buf_append(&b->out, text + b->copied, keep_end - b->copied);
	if (keep_end > b->copied && text[keep_end - 1] != '\n')
		wb_buf_puts(&b->out, "\n");
	char *note = wb_xasprintf(i18n(lang, M_TABLE_CUT), line, cells, LESSON_MAX_TABLE_CELLS);
	wb_buf_puts(&b->out, "\n");
	wb_buf_puts(&b->out, note);
	wb_buf_puts(&b->out, "\n\n");
	free(note);
	b->copied = p;
	b->used = LESSON_MAX_TABLE_CELLS;
	if (!b->cut_line) {
		b->cut_line = line;
		b->cut_cells = cells;
	}
	return p;
}

/* text with every table past the budget cut, or NULL when none is. */
static char *cap_tables(const char *text, size_t len, const char *lang, size_t *outlen,
			struct lesson *l)
{
	struct budget b = {0};
	int fenced = 0, line = 1;
	size_t at = 0;
	while (at < len) {
		struct src_line cur = src_line(text, len, at);
		if (is_fence(cur))
			fenced = !fenced;
		size_t cols = fenced ? 0 : row_cells(cur);
		if (cols && cur.end < len && is_delimiter_row(src_line(text, len, cur.end))) {
			size_t next = table_budget(&b, text, len, at, line, cols, lang);
			for (size_t i = at; i < next; i++)
				line += text[i] == '\n';
			at = next;
			continue;
		}
		at = cur.end;
		line++;
	}
	if (!b.cut_line)
		return NULL;
	wb_buf_append(&b.out, text + b.copied, len - b.copied);
	l->cut_line = b.cut_line;
	l->cut_cells = b.cut_cells;
	*outlen = b.out.len;
	return wb_buf_steal(&b.out);
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
	struct lesson *l = wb_xcalloc(1, sizeof *l);
	char *capped = cap_tables(text, len, lang, &len, l);
	if (capped)
		text = capped;
	ensure_extensions();
	cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_node *doc = NULL;
	if (p) {
		lesson_attach_extensions(p);
		cmark_parser_feed(p, text, len);
		doc = cmark_parser_finish(p);
		cmark_parser_free(p);
	}
	free(capped);
	if (!doc) {
		free(l);
		return WB_ENOMEM;
	}
	mark_terms(doc);
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
	if (rc == 0)
		(*out)->path = wb_xstrdup(path);
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
	free(l->path);
	free(l);
}
