/*
 * source.c - the read-only source view: the recipe a lab exercises, with
 * line numbers, never wrapped (a wrapped line of code breaks identifiers),
 * scrolled down and across with the pager's keys, opened at the function
 * the lab exercises.  Its own key table (so its own help); q goes back.
 *
 * The file is read once; tabs become spaces (8 columns) and every line
 * goes through the content sanitiser, since a file is drawn as it is.  It
 * does not parse or highlight code and never writes anything.
 */
#include "tui/source.h"
#include "tui/pager.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "app.h"
#include "base/wb.h"
#include "core/i18n.h"
#include "core/textsafe.h"
#include "core/utf8.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	S_LEFT,
	S_RIGHT,
	S_HOME_COL,
	S_BACK,
};

static const struct keybind source_keys[] = {
	PAGER_KEYS,
	{'h', 0, "h", S_LEFT, "scroll left", "向左滚动"},
	{KEY_LEFT, 1, "←", S_LEFT, "scroll left", "向左滚动"},
	{'l', 0, "l", S_RIGHT, "scroll right", "向右滚动"},
	{KEY_RIGHT, 1, "→", S_RIGHT, "scroll right", "向右滚动"},
	{'0', 0, "0", S_HOME_COL, "back to column 1", "回到第 1 列"},
	{'q', 0, "q", S_BACK, "back (to the lab)", "返回（回到实验）"},
	{27, 0, "Esc", S_BACK, "back (to the lab)", "返回（回到实验）"},
};

/* Columns one h or l moves. */
#define SOURCE_HSTEP 8

struct source {
	char *rel;    /* path as shown, relative to the source tree */
	char *func;   /* the function opened at, or NULL */
	char **lines; /* sanitised, tabs expanded */
	size_t n;
	size_t top;  /* first line on screen */
	int left;    /* first column shown */
	size_t mark; /* the definition's line, or (size_t)-1 */
	int widest;  /* widest line, in columns */
};

/* One line of the file, tabs expanded to 8 columns, sanitised. */
static char *expand_line(const char *s, size_t len)
{
	struct wb_buf b = {0};
	int col = 0;
	for (size_t i = 0; i < len;) {
		if (s[i] == '\t') {
			do
				wb_buf_puts(&b, " ");
			while (++col % 8);
			i++;
			continue;
		}
		uint32_t cp;
		size_t k = utf8_decode(s + i, len - i, &cp);
		wb_buf_append(&b, s + i, k ? k : 1);
		col += utf8_cp_width(cp);
		i += k ? k : 1;
	}
	char *out = textsafe_dup(b.data ? b.data : "", b.len);
	wb_buf_free(&b);
	return out;
}

static void split_lines(struct source *s, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		s->lines = wb_xrealloc(s->lines, (s->n + 1) * sizeof *s->lines);
		char *line = expand_line(p, l);
		int w = utf8_width(line, strlen(line));
		if (w > s->widest)
			s->widest = w;
		s->lines[s->n++] = line;
		p += l + (nl != NULL);
	}
}

/* The definition of func: a line that starts in column 0, names func
 * followed by "(" and is not a declaration (no ';'). */
static size_t find_definition(const struct source *s, const char *func)
{
	size_t flen = strlen(func);
	for (size_t i = 0; i < s->n; i++) {
		const char *l = s->lines[i];
		const char *hit = strstr(l, func);
		if (!hit || hit[flen] != '(' || strchr(l, ';'))
			continue;
		if (l[0] == ' ' || l[0] == '*' || l[0] == '/' || l[0] == '#')
			continue;
		if (hit > l && (hit[-1] == '_' || (hit[-1] >= 'a' && hit[-1] <= 'z')))
			continue; /* a longer name that ends in func */
		return i;
	}
	return (size_t)-1;
}

static int text_rows(void)
{
	return LINES - 2;
}

static size_t max_top(const struct source *s)
{
	size_t rows = (size_t)text_rows();
	return s->n > rows ? s->n - rows : 0;
}

static int number_width(const struct source *s)
{
	int w = 1;
	for (size_t n = s->n; n >= 10; n /= 10)
		w++;
	return w;
}

/* Draws the part of line from display column left on, at (y, x). */
static void draw_from(int y, int x, const char *line, int left, int maxw, int attr)
{
	size_t len = strlen(line), i = 0;
	int col = 0;
	while (i < len && col < left) {
		uint32_t cp;
		size_t k = utf8_decode(line + i, len - i, &cp);
		col += utf8_cp_width(cp);
		i += k ? k : 1;
	}
	/* A wide character cut by the left edge: a space for its half. */
	int pad = col > left ? col - left : 0;
	term_text(y, x + pad, line + i, maxw - pad, attr);
}

static void source_draw(struct tui *t, void *self)
{
	struct source *s = self;
	const char *lang = t->app->lang;
	erase();
	char *title =
		s->func && *s->func ? wb_xasprintf("%s › %s", s->rel, s->func) : wb_xstrdup(s->rel);
	term_text(0, 1, title, COLS - 2, term_attr_heading(t));
	free(title);
	int numw = number_width(s);
	int textx = numw + 3; /* "NNN │ " */
	int rows = text_rows();
	for (int i = 0; i < rows && s->top + (size_t)i < s->n; i++) {
		size_t ln = s->top + (size_t)i;
		char *num = wb_xasprintf("%*zu │", numw, ln + 1);
		term_text(1 + i, 0, num, COLS, ln == s->mark ? A_BOLD : A_DIM);
		free(num);
		if (COLS > textx)
			draw_from(1 + i, textx, s->lines[ln], s->left, COLS - textx, 0);
	}
	char right[128], pos[64];
	snprintf(pos, sizeof pos, i18n(lang, M_SOURCE_STATUS), s->n ? s->top + 1 : 0, s->n,
		 s->left + 1);
	snprintf(right, sizeof right, "%s  ? %s", pos, i18n(lang, M_HELP_WORD));
	term_status(t, s->rel, right);
}

static void scroll_to(struct source *s, long target)
{
	long mt = (long)max_top(s);
	s->top = (size_t)(target < 0 ? 0 : target > mt ? mt : target);
}

static void source_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	(void)ch;
	(void)is_code;
	struct source *s = self;
	long top = (long)s->top, rows = text_rows();
	int maxleft = s->widest > 8 ? s->widest - 8 : 0;
	long to;
	if (pager_target(action, top, rows, (long)max_top(s), &to)) {
		scroll_to(s, to);
		return;
	}
	switch (action) {
	case S_LEFT: s->left = s->left > SOURCE_HSTEP ? s->left - SOURCE_HSTEP : 0; break;
	case S_RIGHT:
		s->left += SOURCE_HSTEP;
		if (s->left > maxleft)
			s->left = maxleft;
		break;
	case S_HOME_COL: s->left = 0; break;
	case S_BACK: tui_back(t); break;
	}
}

static void source_resize(struct tui *t, void *self)
{
	(void)t;
	struct source *s = self;
	scroll_to(s, (long)s->top);
}

static void source_free(void *self)
{
	struct source *s = self;
	for (size_t i = 0; i < s->n; i++)
		free(s->lines[i]);
	free(s->lines);
	free(s->rel);
	free(s->func);
	free(s);
}

int source_open(struct tui *t, const char *rel, const char *func, struct screen *out)
{
	char *path = rel[0] == '/' ? wb_xstrdup(rel) : wb_xasprintf("%s/%s", t->app->content, rel);
	char *text;
	size_t len;
	int rc = wb_read_file(path, &text, &len);
	free(path);
	if (rc)
		return rc;
	struct source *s = wb_xcalloc(1, sizeof *s);
	s->rel = wb_xstrdup(rel);
	s->func = func && *func ? wb_xstrdup(func) : NULL;
	s->mark = (size_t)-1;
	split_lines(s, text, len);
	free(text);
	if (s->func) {
		s->mark = find_definition(s, s->func);
		/* One line of context: the comment or return type above. */
		if (s->mark != (size_t)-1)
			scroll_to(s, (long)s->mark - 1);
	}
	*out = (struct screen){
		.name = "source",
		.self = s,
		.draw = source_draw,
		.key = source_key,
		.resize = source_resize,
		.free = source_free,
		.keys = source_keys,
		.nkeys = WB_ARRAY_LEN(source_keys),
	};
	return 0;
}
