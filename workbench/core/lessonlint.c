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
#include "core/content.h"
#include "core/labcat.h"
#include "core/exercise_ws.h"
#include "core/lesson.h"
#include "core/textsafe.h"
#include "core/timeline.h"
#include "core/timeline_events.h"
#include "core/timeline_lesson.h"
#include "base/wb.h"

#include <cmark-gfm.h>
#include <stdarg.h>
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
	/* A node lesson_parse made (or one after NULs) may carry line 0. */
	l->report(l->arg, level, l->file, line > 0 ? line : 1, 0, msg);
}

/* textsafe_scan's callback: an unsafe character is an error at its column. */
static void unsafe_char(void *arg, size_t line, size_t col, const char *what)
{
	struct lint *l = arg;
	l->errors++;
	l->report(l->arg, LINT_ERROR, l->file, (int)line, (int)col, what);
}

/* A ```exercise fence: exercise cards, one id a line. */
static int is_exercise_fence(const char *info)
{
	return info && !strncmp(info, "exercise", 8) && (info[8] == '\0' || info[8] == ' ');
}

/* The ids of a ```lab (exercise 0) or ```exercise fence must be in the
 * catalogue (and labs in this build). */
static void check_lab_block(struct lint *l, cmark_node *n, int exercise)
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
		if (*s && exercise) {
			if (!excat_find(s))
				say(l, LINT_ERROR, line,
				    "unknown exercise id '%s' (not in the exercise catalogue)", s);
		} else if (*s) {
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

/* A ```timeline block: a valid name whose history file exists beside the
 * lesson (../timelines/NAME.jsonl) and reads cleanly. */
static void check_timeline_block(struct lint *l, cmark_node *n)
{
	int line = cmark_node_get_start_line(n);
	char *name = timeline_block_name(cmark_node_get_literal(n));
	if (!name) {
		say(l, LINT_ERROR, line, "%s", "a timeline block names no history");
		return;
	}
	char *path = timeline_lesson_path(l->file, name);
	if (!path) {
		say(l, LINT_ERROR, line + 1,
		    "timeline name '%s' is not valid (1 to 64 of a-z, 0-9 and -)", name);
		free(name);
		return;
	}
	struct timeline *t = NULL;
	char err[512];
	if (tl_events_load(path, &t, err, sizeof err) != 0) {
		char *msg = wb_xasprintf("timeline '%s': %%s", name);
		say(l, LINT_ERROR, line + 1, msg, err);
		free(msg);
	} else if (!timeline_nops(t)) {
		say(l, LINT_ERROR, line + 1, "timeline '%s' has no operations", name);
	}
	timeline_free(t);
	free(path);
	free(name);
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
			check_lab_block(l, n, 0);
		else if (is_exercise_fence(info))
			check_lab_block(l, n, 1);
		else if (timeline_block_info(info))
			check_timeline_block(l, n);
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

static void lint_lesson(struct lint *l, struct lesson *lesson);

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
	lint_lesson(&l, lesson);
	lesson_free(lesson);
	return l.errors;
}

/* lessonlint_text's checks on a file parsed already (lessonlint_set has
 * the tree: a second parse of a deeply nested file doubled lint's
 * memory, 470 times the file's size). */
static int lint_parsed(const char *file, const char *text, size_t len, struct lesson *lesson,
		       lint_lab_built_fn built, int strict_labs, lint_report_fn report, void *arg)
{
	struct lint l = {file, built, strict_labs, report, arg, 0};
	textsafe_scan(text, len, unsafe_char, &l);
	lint_lesson(&l, lesson);
	return l.errors;
}

/* The checks of a parsed lesson: title, table cut, lab cards and
 * timelines, nesting. */
static void lint_lesson(struct lint *l, struct lesson *lesson)
{
	cmark_node *first = cmark_node_first_child(lesson->doc);
	while (first && cmark_node_get_type(first) == CMARK_NODE_HTML_BLOCK)
		first = cmark_node_next(first);
	if (!first || cmark_node_get_type(first) != CMARK_NODE_HEADING ||
	    cmark_node_get_heading_level(first) != 1)
		say(l, LINT_ERROR, first ? cmark_node_get_start_line(first) : 1, "%s",
		    "a lesson starts with its title as a level-1 heading (# Title)");
	if (lesson->cut_line) {
		/* What the reader cuts (#20 F5). */
		char msg[200];
		snprintf(msg, sizeof msg,
			 "the table has %zu cells; the reader lays out at most %u table cells per "
			 "lesson and cuts the rest",
			 lesson->cut_cells, LESSON_MAX_TABLE_CELLS);
		say(l, LINT_ERROR, lesson->cut_line, "%s", msg);
	}
	walk(l, lesson->doc);
	check_depth(l, lesson->doc);
}

/* ---- checks across files ---------------------------------------------- */

struct card {
	char *id;
	int line;
};

struct parsed {
	const struct lessonlint_doc *d;
	struct lesson *lesson; /* NULL when the file could not be parsed */
	char **slugs;	       /* anchors of every heading, GitHub's -1, -2 for repeats */
	size_t nslugs;
	int *slug_next;	  /* per slug: the next k to try for its repeats */
	size_t *slug_tab; /* hash of the slugs: index + 1, 0 empty */
	size_t slug_cap;  /* slots of slug_tab, a power of 2 */
	int nsections;	  /* level-2 headings */
	struct card *cards;
	size_t ncards;
	struct card *timelines; /* ```timeline blocks: the history each names */
	size_t ntimelines;
	int is_glossary;
	struct glossary gloss; /* is_glossary: its entries */
};

struct set {
	struct parsed *p;
	size_t n;
	const struct lessonlint_opts *o;
	lint_report_fn report;
	void *arg;
	int errors;
};

static void set_say(struct set *s, const struct parsed *p, enum lint_level level, int line,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void set_say(struct set *s, const struct parsed *p, enum lint_level level, int line,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = wb_xvasprintf(fmt, ap);
	va_end(ap);
	if (level == LINT_ERROR)
		s->errors++;
	s->report(s->arg, level, p->d->file, line > 0 ? line : 1, 0, msg);
	free(msg);
}

/* FNV-1a of s. */
static size_t slug_hash(const char *s)
{
	size_t h = (size_t)14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
	return h;
}

/* The index of slug in p->slugs, or -1.  A hash, so a lesson of a
 * million headings is linted in linear time (a list scan made repeated
 * headings cubic). */
static long find_slug(const struct parsed *p, const char *slug)
{
	if (!p->slug_cap)
		return -1;
	for (size_t i = slug_hash(slug) & (p->slug_cap - 1);; i = (i + 1) & (p->slug_cap - 1)) {
		size_t k = p->slug_tab[i];
		if (!k)
			return -1;
		if (!strcmp(p->slugs[k - 1], slug))
			return (long)(k - 1);
	}
}

static int has_slug(const struct parsed *p, const char *slug)
{
	return find_slug(p, slug) >= 0;
}

static void slug_put(struct parsed *p, size_t idx)
{
	size_t i = slug_hash(p->slugs[idx]) & (p->slug_cap - 1);
	while (p->slug_tab[i])
		i = (i + 1) & (p->slug_cap - 1);
	p->slug_tab[i] = idx + 1;
}

/* Adds slug (taken over) to p; it is not there yet. */
static void insert_slug(struct parsed *p, char *slug)
{
	if (2 * (p->nslugs + 1) > p->slug_cap) {
		free(p->slug_tab);
		p->slug_cap = p->slug_cap ? 2 * p->slug_cap : 64;
		p->slug_tab = wb_xcalloc(p->slug_cap, sizeof *p->slug_tab);
		for (size_t i = 0; i < p->nslugs; i++)
			slug_put(p, i);
	}
	p->slugs = wb_xrealloc(p->slugs, (p->nslugs + 1) * sizeof *p->slugs);
	p->slug_next = wb_xrealloc(p->slug_next, (p->nslugs + 1) * sizeof *p->slug_next);
	p->slugs[p->nslugs] = slug;
	p->slug_next[p->nslugs] = 1;
	slug_put(p, p->nslugs++);
}

/* GitHub's anchor of a heading: its slug, and for a repeat the first of
 * slug-1, slug-2, ... not taken yet.  Every slug-k below the base's
 * slug_next is taken already, so the search starts there. */
static void add_slug(struct parsed *p, const char *text)
{
	char *base = content_heading_slug(text);
	long b = find_slug(p, base);
	if (b < 0) {
		insert_slug(p, base);
		return;
	}
	int k = p->slug_next[b];
	char *slug = wb_xasprintf("%s-%d", base, k);
	while (has_slug(p, slug)) {
		free(slug);
		slug = wb_xasprintf("%s-%d", base, ++k);
	}
	p->slug_next[b] = k + 1;
	insert_slug(p, slug);
	free(base);
}

/* The cards of a fence, in order, for the en/zh parity check; exercise
 * cards as "exercise:<id>", so a lab and an exercise of one name differ. */
static void add_cards(struct parsed *p, cmark_node *n, int exercise)
{
	const char *lit = cmark_node_get_literal(n);
	int line = cmark_node_get_start_line(n) + 1;
	for (const char *q = lit ? lit : ""; *q; line++) {
		size_t len = strcspn(q, "\n");
		char *id = wb_xstrndup(q, len);
		char *a = id, *e = id + strlen(id);
		while (*a == ' ' || *a == '\t')
			a++;
		while (e > a && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		if (*a) {
			p->cards = wb_xrealloc(p->cards, (p->ncards + 1) * sizeof *p->cards);
			p->cards[p->ncards++] = (struct card){
				exercise ? wb_xasprintf("exercise:%s", a) : wb_xstrdup(a), line};
		}
		free(id);
		q += len;
		if (*q == '\n')
			q++;
	}
}

static void add_timeline(struct parsed *p, cmark_node *n)
{
	char *name = timeline_block_name(cmark_node_get_literal(n));
	p->timelines = wb_xrealloc(p->timelines, (p->ntimelines + 1) * sizeof *p->timelines);
	p->timelines[p->ntimelines++] =
		(struct card){name ? name : wb_xstrdup(""), cmark_node_get_start_line(n) + 1};
}

/* Headings and fences of the whole document, with cmark's iterator: no
 * recursion, so 100,000 nested images or a million '>' cost no stack
 * (the recursive walk overflowed it: review r3 N4). */
static void collect_doc(struct parsed *p, cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || n == root)
			continue;
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
			char *t = lesson_plain_text(n);
			add_slug(p, t);
			free(t);
			if (cmark_node_get_heading_level(n) == 2)
				p->nsections++;
		} else if (cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK) {
			const char *info = cmark_node_get_fence_info(n);
			if (info && !strncmp(info, "lab", 3) && (info[3] == '\0' || info[3] == ' '))
				add_cards(p, n, 0);
			else if (is_exercise_fence(info))
				add_cards(p, n, 1);
			else if (timeline_block_info(info))
				add_timeline(p, n);
		}
	}
	cmark_iter_free(it);
}

static int is_chapter_name(const char *name)
{
	size_t len = strlen(name);
	if (len < 4 || strcmp(name + len - 3, ".md") != 0)
		return 0;
	char *id = wb_xstrndup(name, len - 3);
	int ok = content_valid_chapter_id(id);
	free(id);
	return ok;
}

static const struct parsed *find_doc(const struct set *s, const char *lang, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->p[i].d->lang, lang) && !strcmp(s->p[i].d->name, name))
			return &s->p[i];
	return NULL;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

static char *percent_decode(const char *s)
{
	char *out = wb_xstrdup(s), *o = out;
	for (const char *q = s; *q; q++) {
		if (q[0] == '%' && hexval(q[1]) >= 0 && hexval(q[2]) >= 0) {
			*o++ = (char)(hexval(q[1]) * 16 + hexval(q[2]));
			q += 2;
		} else {
			*o++ = *q;
		}
	}
	*o = '\0';
	return out;
}

static void check_term(struct set *s, const struct parsed *p, cmark_node *link, int line)
{
	char *term = lesson_plain_text(link);
	const struct parsed *g = find_doc(s, p->d->lang, CONTENT_GLOSSARY_FILE);
	if (!g)
		set_say(s, p, LINT_ERROR, line,
			"[[%s]]: there is no %s glossary (lessons/%s/" CONTENT_GLOSSARY_FILE ")",
			term, p->d->lang, p->d->lang);
	else if (content_glossary_find(&g->gloss, term) < 0)
		set_say(s, p, LINT_ERROR, line, "[[%s]] is not a term of the glossary %s", term,
			g->d->file);
	free(term);
}

/* Returns 1 when the link points at a chapter of the set (for the
 * glossary's "links to a section" check). */
static int check_link(struct set *s, const struct parsed *p, cmark_node *link, int line)
{
	const char *url = cmark_node_get_url(link);
	if (!url || !*url)
		return 0;
	size_t pathlen = strcspn(url, "#?");
	size_t colon = strcspn(url, ":/");
	if (url[colon] == ':' && colon < pathlen)
		return 0; /* has a scheme */
	char *path = wb_xstrndup(url, pathlen);
	const char *frag = url[pathlen] == '#' ? url + pathlen + 1 : NULL;
	int chapter = 0;
	const struct parsed *t = NULL;
	if (!*path) {
		t = p;
	} else if (!strchr(path, '/') && strlen(path) > 3 &&
		   !strcmp(path + strlen(path) - 3, ".md")) {
		t = find_doc(s, p->d->lang, path);
		if (!t)
			set_say(s, p, LINT_ERROR, line,
				"link to '%s': there is no %s in lessons/%s/", url, path,
				p->d->lang);
		chapter = t && is_chapter_name(path);
	}
	if (t && frag && *frag) {
		char *anchor = percent_decode(frag);
		if (!has_slug(t, anchor)) {
			set_say(s, p, LINT_ERROR, line,
				"link to '%s': %s has no heading with the anchor '%s'", url,
				*path ? path : "this file", anchor);
			chapter = 0;
		}
		free(anchor);
	}
	free(path);
	return chapter;
}

/* Checks every link under parent (not parent itself); returns how many
 * point at a chapter.  cmark's iterator, no recursion (review r3 N4).  A
 * link's line is its own, or that of the last node before it (in
 * document order: an ancestor or an earlier node) that has one: inline
 * nodes made by lesson_parse have none. */
static int check_links(struct set *s, const struct parsed *p, cmark_node *parent)
{
	int chapters = 0, line = cmark_node_get_start_line(parent);
	if (line < 1)
		line = 1;
	cmark_iter *it = cmark_iter_new(parent);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || n == parent)
			continue;
		if (cmark_node_get_start_line(n) > 0)
			line = cmark_node_get_start_line(n);
		if (lesson_is_term_link(n)) {
			check_term(s, p, n, line);
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT); /* not inside the term */
			continue;
		}
		if (cmark_node_get_type(n) == CMARK_NODE_LINK)
			chapters += check_link(s, p, n, line);
	}
	cmark_iter_free(it);
	return chapters;
}

/* The glossary's own checks: every entry links to a chapter section; no
 * name twice.  Other links are checked by check_links on the way. */
static void check_glossary(struct set *s, const struct parsed *p)
{
	const struct glossary *g = &p->gloss;
	size_t entry = 0;
	int links = 0, in_entry = 0;
	for (cmark_node *c = cmark_node_first_child(p->lesson->doc);; c = cmark_node_next(c)) {
		int heading2 = c && cmark_node_get_type(c) == CMARK_NODE_HEADING &&
			       cmark_node_get_heading_level(c) == 2;
		if (!c || heading2) {
			if (in_entry && !links)
				set_say(s, p, LINT_ERROR, g->e[entry].line,
					"glossary entry '%s' links to no chapter section (See: "
					"[section](NN-slug.md#anchor))",
					g->e[entry].heading);
			if (!c)
				break;
			if (in_entry)
				entry++;
			in_entry = 1;
			links = 0;
			continue;
		}
		if (in_entry)
			links += check_links(s, p, c);
		else
			check_links(s, p, c);
	}
	for (size_t i = 0; i < g->n; i++)
		for (size_t k = 0; k < i; k++) {
			const char *a[] = {g->e[i].term, g->e[i].alt};
			for (int m = 0; m < 2; m++)
				if (a[m] && content_glossary_find(&(struct glossary){&g->e[k], 1},
								  a[m]) == 0)
					set_say(s, p, LINT_ERROR, g->e[i].line,
						"glossary term '%s' is defined twice (also at line "
						"%d)",
						a[m], g->e[k].line);
		}
}

/* The English name of a glossary entry: the zh entries' part in
 * parentheses, the en entries' whole term. */
static const char *english_name(const struct glossary_entry *e, const char *lang)
{
	return !strcmp(lang, "zh") && e->alt ? e->alt : e->term;
}

static void glossary_parity(struct set *s, const struct parsed *p, const struct parsed *o,
			    enum lint_level level)
{
	for (size_t i = 0; i < p->gloss.n; i++) {
		const char *name = english_name(&p->gloss.e[i], p->d->lang);
		int found = 0;
		for (size_t k = 0; k < o->gloss.n && !found; k++) {
			const char *on = english_name(&o->gloss.e[k], o->d->lang);
			found = content_glossary_find(&(struct glossary){&o->gloss.e[k], 1},
						      name) == 0 ||
				!strcmp(on, name);
		}
		if (!found)
			set_say(s, p, level, p->gloss.e[i].line,
				"glossary term '%s' has no entry in the %s glossary %s", name,
				o->d->lang, o->d->file);
	}
}

static void chapter_parity(struct set *s, const struct parsed *p, const struct parsed *o,
			   enum lint_level level)
{
	if (p->nsections != o->nsections)
		set_say(s, p, level, 1,
			"%d ## sections here but %d in the %s version %s: the chapters should "
			"line up section by section",
			p->nsections, o->nsections, o->d->lang, o->d->file);
	size_t n = p->ncards < o->ncards ? p->ncards : o->ncards;
	for (size_t i = 0; i < n; i++)
		if (strcmp(p->cards[i].id, o->cards[i].id) != 0) {
			set_say(s, p, level, p->cards[i].line,
				"lab card %zu is '%s' here but '%s' in the %s version (%s:%d); "
				"%zu cards here, %zu there: the same cards should come in the "
				"same order",
				i + 1, p->cards[i].id, o->cards[i].id, o->d->lang, o->d->file,
				o->cards[i].line, p->ncards, o->ncards);
			return;
		}
	if (p->ncards != o->ncards)
		set_say(s, p, level,
			p->ncards > n ? p->cards[n].line
			: p->ncards   ? p->cards[n - 1].line
				      : 1,
			"%zu lab cards here but %zu in the %s version %s", p->ncards, o->ncards,
			o->d->lang, o->d->file);
}

/* The en and zh chapters embed the same timelines in the same order. */
static void timeline_parity(struct set *s, const struct parsed *p, const struct parsed *o,
			    enum lint_level level)
{
	size_t n = p->ntimelines < o->ntimelines ? p->ntimelines : o->ntimelines;
	for (size_t i = 0; i < n; i++)
		if (strcmp(p->timelines[i].id, o->timelines[i].id) != 0) {
			set_say(s, p, level, p->timelines[i].line,
				"timeline %zu is '%s' here but '%s' in the %s version (%s:%d)",
				i + 1, p->timelines[i].id, o->timelines[i].id, o->d->lang,
				o->d->file, o->timelines[i].line);
			return;
		}
	if (p->ntimelines != o->ntimelines)
		set_say(s, p, level, p->ntimelines > n ? p->timelines[n].line : 1,
			"%zu timelines here but %zu in the %s version %s", p->ntimelines,
			o->ntimelines, o->d->lang, o->d->file);
}

static void parity(struct set *s, const struct parsed *p)
{
	const char *ol = strcmp(p->d->lang, "zh") ? "zh" : "en";
	const struct parsed *o = find_doc(s, ol, p->d->name);
	enum lint_level level = s->o->strict_parity ? LINT_ERROR : LINT_WARNING;
	if (!o || !o->lesson) {
		set_say(s, p, LINT_WARNING, 1, "%s has no %s version (lessons/%s/%s)",
			p->is_glossary ? "the glossary" : "this chapter", ol, ol, p->d->name);
		return;
	}
	if (!strcmp(p->d->lang, "zh") && o->d->target)
		return; /* reported once, on the en file */
	if (p->is_glossary)
		glossary_parity(s, p, o, level);
	else {
		chapter_parity(s, p, o, level);
		timeline_parity(s, p, o, level);
	}
	if (p->is_glossary && !strcmp(p->d->lang, "en") && o->d->target)
		glossary_parity(s, o, p, level);
}

int lessonlint_set(const struct lessonlint_doc *docs, size_t n, const struct lessonlint_opts *o,
		   lint_report_fn report, void *arg)
{
	struct set s = {wb_xcalloc(n + 1, sizeof *s.p), n, o, report, arg, 0};
	for (size_t i = 0; i < n; i++) {
		struct parsed *p = &s.p[i];
		p->d = &docs[i];
		p->is_glossary = !strcmp(docs[i].name, CONTENT_GLOSSARY_FILE);
		/* A file the reader refuses is reported by lessonlint_text and
		 * not parsed here either: no links or parity for it. */
		if (docs[i].len > LESSON_MAX_BYTES ||
		    lesson_parse("lint", docs[i].lang, docs[i].text, docs[i].len, &p->lesson) !=
			    0) {
			p->lesson = NULL;
			continue;
		}
		collect_doc(p, p->lesson->doc);
		if (p->is_glossary)
			content_glossary_parse(docs[i].text, docs[i].len, &p->gloss);
	}
	for (size_t i = 0; i < n; i++) {
		struct parsed *p = &s.p[i];
		if (!p->d->target)
			continue;
		if (!p->lesson) {
			/* Over the size limit, or not parsed: lessonlint_text
			 * says which. */
			s.errors += lessonlint_text(p->d->file, p->d->text, p->d->len, o->built,
						    o->strict_labs, report, arg);
			continue;
		}
		s.errors += lint_parsed(p->d->file, p->d->text, p->d->len, p->lesson, o->built,
					o->strict_labs, report, arg);
		if (p->is_glossary)
			check_glossary(&s, p);
		else
			check_links(&s, p, p->lesson->doc);
		if (p->is_glossary || is_chapter_name(p->d->name))
			parity(&s, p);
	}
	for (size_t i = 0; i < n; i++) {
		struct parsed *p = &s.p[i];
		lesson_free(p->lesson);
		for (size_t k = 0; k < p->nslugs; k++)
			free(p->slugs[k]);
		free(p->slugs);
		free(p->slug_next);
		free(p->slug_tab);
		for (size_t k = 0; k < p->ncards; k++)
			free(p->cards[k].id);
		free(p->cards);
		for (size_t k = 0; k < p->ntimelines; k++)
			free(p->timelines[k].id);
		free(p->timelines);
		glossary_free(&p->gloss);
	}
	free(s.p);
	return s.errors;
}
