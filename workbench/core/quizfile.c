/*
 * quizfile.c - parsing one question bank file with cmark-gfm (see
 * quizfile.h).  Banks and grading are in quizbank.c.
 *
 * The format (docs/architecture.md §6):
 *
 *     # Self-test: <chapter title>
 *     <!-- chapter: 01-locks-ids-leases -->        (optional)
 *     <!-- title: Team drills -->                   (optional: a chapter of
 *                                                  the bank's own, no lesson)
 *     <!-- lang-only: en -->                       (optional: one language
 *                                                  on purpose)
 *
 *     ## [stable-id] Question text on one line
 *     kind: recall|choice|numeric                 (a paragraph of key: value
 *     core: true                                   lines right under the
 *     answer: 4096                                 heading; recall default;
 *     tolerance: 0.5                               core: true|false, default
 *                                                  false: the closed-book core)
 *
 *     Optional question body; for choice a task list of options.
 *
 *     ### Answer
 *     Reference answer (required).
 *
 *     ### Rubric                                  (required for recall)
 *     - 2: one checkable idea
 *
 * Design notes
 * - cmark-gfm gives the block structure and line numbers; the text of a
 *   heading, option or rubric item is taken from the source lines, not
 *   from cmark's inline tree, so Markdown (inline code) survives and the
 *   screens can lay it out again.
 * - The parser never stops at a problem: it records it with its line,
 *   counts errors against the question they belong to and carries on, so
 *   one lint run reports everything.  A question with errors is kept in
 *   the file (for lint) but never enters a bank.
 */
#include "core/quizfile.h"
#include "core/content.h"
#include "core/lesson.h"
#include "base/wb.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

enum section { SEC_NONE, SEC_QUESTION, SEC_ANSWER, SEC_RUBRIC, SEC_IGNORE };

struct parser {
	struct quiz_file *f;
	const char *text;   /* source, BOM stripped */
	size_t len;	    /* bytes of text */
	size_t *line_start; /* byte offset of each line, 0-based index */
	size_t nlines;	    /* lines in text */
	size_t qcap, pcap;  /* capacities of f->q and f->problems */
	long cur;	    /* index of the question being filled, -1 before */
	enum section sec;   /* where we are inside the current question */
	int blocks_in_q;    /* blocks seen since the ## heading */
	int body_first;	    /* first/last source line of the body, 0 = none */
	int body_last;
	int ans_first; /* first/last line of the answer text */
	int ans_last;
	int have_answer;     /* ### Answer seen in this question */
	int have_rubric;     /* ### Rubric seen */
	int rubric_line;     /* line of ### Rubric */
	int answer_key_line; /* line of "answer:" (0 none) */
	int options_line;    /* line of the option list (0 none) */
	int kind_given;	     /* kind: line seen */
	int kind_bad;	     /* kind: unknown, so kind-specific checks are skipped */
};

/* ---- small string helpers ---- */

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return wb_xstrndup(s, n);
}

/* Line n (1-based) without its newline. */
static const char *line_at(const struct parser *p, int n, size_t *len)
{
	if (n < 1 || (size_t)n > p->nlines) {
		*len = 0;
		return "";
	}
	size_t a = p->line_start[n - 1];
	size_t b = (size_t)n < p->nlines ? p->line_start[n] : p->len;
	while (b > a && (p->text[b - 1] == '\n' || p->text[b - 1] == '\r'))
		b--;
	*len = b - a;
	return p->text + a;
}

/* Source lines first..last joined with "\n", blank lines at both ends
 * dropped.  Caller frees. */
static char *lines_text(const struct parser *p, int first, int last)
{
	size_t n;
	while (first <= last && (line_at(p, first, &n), is_blank(line_at(p, first, &n), n)))
		first++;
	while (last >= first && is_blank(line_at(p, last, &n), n))
		last--;
	struct wb_buf b = {0};
	for (int i = first; i <= last; i++) {
		const char *s = line_at(p, i, &n);
		wb_buf_append(&b, s, n);
		if (i < last)
			wb_buf_puts(&b, "\n");
	}
	return wb_buf_steal(&b);
}

static void problem(struct parser *p, int line, int is_error, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void problem(struct parser *p, int line, int is_error, const char *fmt, ...)
{
	struct quiz_file *f = p->f;
	if (f->nproblems == p->pcap) {
		p->pcap = p->pcap ? p->pcap * 2 : 8;
		f->problems = wb_xrealloc(f->problems, p->pcap * sizeof *f->problems);
	}
	va_list ap;
	va_start(ap, fmt);
	char *msg = wb_xvasprintf(fmt, ap);
	va_end(ap);
	f->problems[f->nproblems++] = (struct quiz_problem){
		.line = line > 0 ? line : 1, .is_error = is_error, .msg = msg};
	if (is_error && p->cur >= 0)
		f->q[p->cur].errors++;
}

const char *quiz_kind_name(enum quiz_kind k)
{
	switch (k) {
	case QK_RECALL: return "recall";
	case QK_CHOICE: return "choice";
	case QK_NUMERIC: return "numeric";
	}
	return "recall";
}

int quiz_valid_id(const char *id)
{
	size_t n = id ? strlen(id) : 0;
	if (n == 0 || n > QUIZ_ID_MAX || id[0] < 'a' || id[0] > 'z')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '0' && id[i] <= '9') ||
		      id[i] == '-'))
			return 0;
	return 1;
}

int quiz_parse_number(const char *s, double *out)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	char *end;
	double v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || !isfinite(v))
		return 0;
	/* strtod takes "inf", "nan" and hex floats: a bank means decimals. */
	for (const char *c = s; c < end; c++)
		if (isalpha((unsigned char)*c) && *c != 'e' && *c != 'E')
			return 0;
	*out = v;
	return 1;
}

/* ---- questions ---- */

static struct quiz_question *cur_q(struct parser *p)
{
	return p->cur >= 0 ? &p->f->q[p->cur] : NULL;
}

static void finish_question(struct parser *p)
{
	struct quiz_question *q = cur_q(p);
	if (!q)
		return;
	if (p->body_first)
		q->body = lines_text(p, p->body_first, p->body_last);
	if (!q->body)
		q->body = wb_xstrdup("");
	if (p->have_answer && p->ans_first)
		q->answer = lines_text(p, p->ans_first, p->ans_last);
	if (!p->have_answer)
		problem(p, q->line, 1, "question '%s' has no ### Answer section",
			q->id ? q->id : "?");
	else if (!q->answer || !*q->answer)
		problem(p, q->answer_line, 1, "### Answer is empty");

	switch (p->kind_bad ? -1 : (int)q->kind) {
	case QK_RECALL:
		if (!p->have_rubric)
			problem(p, q->line, 1,
				"recall question '%s' has no ### Rubric (a list of '- POINTS: "
				"text' items)",
				q->id ? q->id : "?");
		else if (q->nrubric == 0)
			problem(p, p->rubric_line, 1, "### Rubric has no '- POINTS: text' items");
		break;
	case QK_CHOICE:
		if (q->noptions == 0) {
			problem(p, q->line, 1,
				"choice question has no options (a task list: '- [ ] wrong', "
				"'- [x] right')");
		} else {
			size_t right = 0;
			for (size_t i = 0; i < q->noptions; i++)
				right += q->options[i].correct != 0;
			if (right == 0)
				problem(p, p->options_line, 1,
					"choice question has no correct option (mark one with '- "
					"[x]')");
			if (q->noptions < 2)
				problem(p, p->options_line, 1,
					"choice question needs at least two options");
		}
		break;
	case QK_NUMERIC:
		if (!q->has_number && !p->answer_key_line)
			problem(p, q->line, 1,
				"numeric question without a number (add 'answer: NUMBER' under "
				"the heading)");
		break;
	}
	if (q->kind != QK_RECALL && p->have_rubric && !p->kind_bad)
		problem(p, p->rubric_line, 0, "### Rubric is only used by recall questions");
	if (q->kind != QK_NUMERIC && p->answer_key_line)
		problem(p, p->answer_key_line, 0, "'answer:' is only used by numeric questions");

	q->max_points = 1;
	if (q->kind == QK_RECALL) {
		/* Summed wide: thousands of 6-digit items once overflowed int. */
		long long total = 0;
		for (size_t i = 0; i < q->nrubric; i++)
			total += q->rubric[i].points;
		if (total > QUIZ_MAX_POINTS) {
			problem(p, p->rubric_line, 1,
				"the rubric is worth %lld points; at most %d in all", total,
				QUIZ_MAX_POINTS);
			total = QUIZ_MAX_POINTS;
		}
		q->max_points = (int)total;
	}
	p->cur = -1;
	p->sec = SEC_NONE;
}

/* Text of a "## ..." heading line: markers and closing hashes removed. */
static char *heading_text(const struct parser *p, int line)
{
	size_t n;
	const char *s = line_at(p, line, &n);
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i < n && s[i] == '#') {
		while (i < n && s[i] == '#')
			i++;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		/* An optional closing sequence: spaces then only '#'. */
		size_t e = n;
		while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		size_t h = e;
		while (h > i && s[h - 1] == '#')
			h--;
		if (h < e && (h == i || s[h - 1] == ' ' || s[h - 1] == '\t'))
			e = h;
		return trim_dup(s + i, e - i);
	}
	return trim_dup(s + i, n - i);
}

static void start_question(struct parser *p, cmark_node *h)
{
	finish_question(p);
	struct quiz_file *f = p->f;
	if (f->nq == p->qcap) {
		p->qcap = p->qcap ? p->qcap * 2 : 16;
		f->q = wb_xrealloc(f->q, p->qcap * sizeof *f->q);
	}
	int line = cmark_node_get_start_line(h);
	p->cur = (long)f->nq++;
	struct quiz_question *q = &f->q[p->cur];
	memset(q, 0, sizeof *q);
	q->line = line;
	q->kind = QK_RECALL;
	q->file = f;
	p->sec = SEC_QUESTION;
	p->blocks_in_q = 0;
	p->body_first = p->body_last = 0;
	p->ans_first = p->ans_last = 0;
	p->have_answer = p->have_rubric = 0;
	p->rubric_line = p->answer_key_line = p->options_line = 0;
	p->kind_given = 0;
	p->kind_bad = 0;

	char *t = heading_text(p, line);
	if (t[0] != '[') {
		problem(p, line, 1,
			"question heading has no id: write '## [some-id] question text'");
		q->text = t;
		return;
	}
	char *close = strchr(t, ']');
	if (!close) {
		problem(p, line, 1, "malformed id: '[' without a closing ']'");
		q->text = t;
		return;
	}
	char *id = wb_xstrndup(t + 1, (size_t)(close - t - 1));
	if (!quiz_valid_id(id)) {
		if (!*id)
			problem(p, line, 1, "question heading has an empty id '[]'");
		else
			problem(p, line, 1,
				"malformed id '%s': use lowercase a-z, 0-9 and '-', starting with "
				"a "
				"letter, at most %d characters",
				id, QUIZ_ID_MAX);
		free(id);
	} else {
		q->id = id;
	}
	q->text = trim_dup(close + 1, strlen(close + 1));
	free(t);
	if (!*q->text)
		problem(p, line, 1, "question text is missing after the id");
}

/* Looks like "key: value" with a lowercase ASCII key. */
static int split_key(const char *s, size_t n, char *key, size_t keylen, const char **val,
		     size_t *vallen)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	size_t k0 = i;
	while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
		i++;
	if (i == k0 || i >= n || s[i] != ':' || i - k0 >= keylen)
		return 0;
	memcpy(key, s + k0, i - k0);
	key[i - k0] = '\0';
	i++;
	*val = s + i;
	*vallen = n - i;
	return 1;
}

static int known_key(const char *k)
{
	return !strcmp(k, "kind") || !strcmp(k, "core") || !strcmp(k, "answer") ||
	       !strcmp(k, "tolerance");
}

/* The first paragraph under a heading: is it the key: value block? */
static int is_meta_paragraph(const struct parser *p, cmark_node *para)
{
	const struct quiz_question *q = &p->f->q[p->cur];
	int first = cmark_node_get_start_line(para);
	size_t n;
	const char *s = line_at(p, first, &n);
	char key[32];
	const char *v;
	size_t vn;
	if (!split_key(s, n, key, sizeof key, &v, &vn))
		return 0;
	return first == q->line + 1 || known_key(key);
}

static void parse_meta(struct parser *p, cmark_node *para)
{
	struct quiz_question *q = cur_q(p);
	int first = cmark_node_get_start_line(para), last = cmark_node_get_end_line(para);
	int seen_tol = 0, seen_core = 0;
	for (int ln = first; ln <= last; ln++) {
		size_t n;
		const char *s = line_at(p, ln, &n);
		char key[32];
		const char *v;
		size_t vn;
		if (!split_key(s, n, key, sizeof key, &v, &vn)) {
			problem(p, ln, 1,
				"expected 'key: value' here (leave a blank line between the "
				"kind/answer "
				"lines and the question text)");
			continue;
		}
		char *val = trim_dup(v, vn);
		if (!strcmp(key, "kind")) {
			if (p->kind_given)
				problem(p, ln, 1, "kind is given twice");
			p->kind_given = 1;
			if (!strcmp(val, "recall"))
				q->kind = QK_RECALL;
			else if (!strcmp(val, "choice"))
				q->kind = QK_CHOICE;
			else if (!strcmp(val, "numeric"))
				q->kind = QK_NUMERIC;
			else {
				problem(p, ln, 1, "unknown kind '%s' (recall, choice or numeric)",
					val);
				p->kind_bad = 1;
			}
		} else if (!strcmp(key, "core")) {
			if (seen_core)
				problem(p, ln, 1, "core is given twice");
			seen_core = 1;
			if (!strcmp(val, "true"))
				q->core = 1;
			else if (!strcmp(val, "false"))
				q->core = 0;
			else
				problem(p, ln, 1, "core '%s' is neither true nor false", val);
		} else if (!strcmp(key, "answer")) {
			if (p->answer_key_line)
				problem(p, ln, 1, "answer is given twice");
			p->answer_key_line = ln;
			if (quiz_parse_number(val, &q->number)) {
				q->has_number = 1;
				free(q->num_text);
				q->num_text = wb_xstrdup(val);
			} else
				problem(p, ln, 1, "answer '%s' is not a number", val);
		} else if (!strcmp(key, "tolerance")) {
			if (seen_tol)
				problem(p, ln, 1, "tolerance is given twice");
			seen_tol = 1;
			double t;
			if (!quiz_parse_number(val, &t) || t < 0)
				problem(p, ln, 1, "tolerance '%s' is not a number >= 0", val);
			else
				q->tolerance = t;
		} else {
			problem(p, ln, 1, "unknown key '%s' (kind, core, answer or tolerance)",
				key);
		}
		free(val);
	}
	if (seen_tol && q->kind != QK_NUMERIC)
		problem(p, first, 0, "'tolerance:' is only used by numeric questions");
}

/* The source text of a list item: marker (and task box) removed, lines
 * joined by spaces.  *box is -1 without a task box, else 0/1. */
static char *item_text(const struct parser *p, cmark_node *item, int *box)
{
	int first = cmark_node_get_start_line(item), last = cmark_node_get_end_line(item);
	struct wb_buf b = {0};
	*box = -1;
	for (int ln = first; ln <= last; ln++) {
		size_t n;
		const char *s = line_at(p, ln, &n);
		size_t i = 0;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (ln == first) {
			if (i < n && (s[i] == '-' || s[i] == '*' || s[i] == '+')) {
				i++;
			} else {
				while (i < n && isdigit((unsigned char)s[i]))
					i++;
				if (i < n && (s[i] == '.' || s[i] == ')'))
					i++;
			}
			while (i < n && (s[i] == ' ' || s[i] == '\t'))
				i++;
			if (i + 2 < n && s[i] == '[' && s[i + 2] == ']' &&
			    (s[i + 1] == ' ' || s[i + 1] == 'x' || s[i + 1] == 'X')) {
				*box = s[i + 1] != ' ';
				i += 3;
			}
		}
		char *piece = trim_dup(s + i, n - i);
		if (*piece) {
			if (b.len)
				wb_buf_puts(&b, " ");
			wb_buf_puts(&b, piece);
		}
		free(piece);
	}
	return wb_buf_steal(&b);
}

static int is_task_item(cmark_node *item)
{
	const char *t = cmark_node_get_type_string(item);
	return t && !strcmp(t, "tasklist");
}

static void parse_options(struct parser *p, cmark_node *list)
{
	struct quiz_question *q = cur_q(p);
	if (p->options_line) {
		problem(p, cmark_node_get_start_line(list), 1,
			"a choice question has one option list; this second list is not allowed");
		return;
	}
	p->options_line = cmark_node_get_start_line(list);
	size_t cap = 0;
	for (cmark_node *it = cmark_node_first_child(list); it; it = cmark_node_next(it)) {
		int line = cmark_node_get_start_line(it);
		int box;
		char *text = item_text(p, it, &box);
		if (!is_task_item(it) || box < 0) {
			problem(p, line, 1,
				"option is not a task list item: write '- [ ] text' or '- [x] "
				"text'");
			free(text);
			continue;
		}
		if (!*text)
			problem(p, line, 1, "option has no text");
		if (q->noptions == cap) {
			cap = cap ? cap * 2 : 4;
			q->options = wb_xrealloc(q->options, cap * sizeof *q->options);
		}
		q->options[q->noptions++] = (struct quiz_option){
			.text = text,
			.correct = cmark_gfm_extensions_get_tasklist_item_checked(it),
			.line = line};
	}
}

static void parse_rubric_list(struct parser *p, cmark_node *list)
{
	struct quiz_question *q = cur_q(p);
	size_t cap = q->nrubric;
	for (cmark_node *it = cmark_node_first_child(list); it; it = cmark_node_next(it)) {
		int line = cmark_node_get_start_line(it);
		int box;
		char *text = item_text(p, it, &box);
		char *colon = strchr(text, ':');
		if (!colon) {
			problem(p, line, 1,
				"rubric item must be '- POINTS: text' with POINTS a positive "
				"integer");
			free(text);
			continue;
		}
		char *num = trim_dup(text, (size_t)(colon - text));
		int ok = *num != '\0' && strlen(num) <= 6;
		for (char *c = num; *c; c++)
			if (!isdigit((unsigned char)*c))
				ok = 0;
		long pts = ok ? strtol(num, NULL, 10) : 0;
		if (!ok || pts <= 0) {
			problem(p, line, 1, "rubric points '%s' are not a positive integer", num);
			free(num);
			free(text);
			continue;
		}
		free(num);
		char *rest = trim_dup(colon + 1, strlen(colon + 1));
		free(text);
		if (!*rest)
			problem(p, line, 1, "rubric item has no text after the points");
		if (q->nrubric == cap) {
			cap = cap ? cap * 2 : 4;
			q->rubric = wb_xrealloc(q->rubric, cap * sizeof *q->rubric);
		}
		q->rubric[q->nrubric++] =
			(struct quiz_rubric_item){.points = (int)pts, .text = rest, .line = line};
	}
}

/* A header comment's key: "chapter", "title" or "lang-only"; s points
 * past "<!--" and blanks.  Returns its length (with the colon), 0 for
 * another comment. */
static size_t header_key(const char *s)
{
	static const char *keys[] = {"chapter:", "title:", "lang-only:"};
	for (size_t i = 0; i < WB_ARRAY_LEN(keys); i++)
		if (!strncmp(s, keys[i], strlen(keys[i])))
			return strlen(keys[i]);
	return 0;
}

/* Stores a header comment's value (v, owned) into the file. */
static void header_value(struct parser *p, const char *key, char *v, int line)
{
	struct quiz_file *f = p->f;
	char **slot = NULL;
	if (!strcmp(key, "chapter:") && !content_valid_chapter_id(v))
		problem(p, line, 1, "malformed chapter id '%s' in the chapter comment", v);
	else if (!strcmp(key, "title:") && !*v)
		problem(p, line, 1, "the title comment has no title");
	else if (!strcmp(key, "lang-only:") && strcmp(v, "en") && strcmp(v, "zh"))
		problem(p, line, 1, "lang-only: '%s' is not en or zh", v);
	else
		slot = !strcmp(key, "chapter:") ? &f->chapter
		       : !strcmp(key, "title:") ? &f->chapter_title
						: &f->lang_only;
	if (!slot) {
		free(v);
		return;
	}
	free(*slot);
	*slot = v;
	if (slot == &f->chapter)
		f->chapter_line = line;
	else if (slot == &f->chapter_title)
		f->title_line = line;
	else
		f->lang_only_line = line;
}

/* The header comments under the title: <!-- chapter: ID -->, <!-- title:
 * TEXT --> (the title of a chapter of the bank's own, without a lesson)
 * and <!-- lang-only: en|zh --> (a bank in one language on purpose).
 * Other comments are comments. */
static void header_comment(struct parser *p, cmark_node *n)
{
	const char *lit = cmark_node_get_literal(n);
	int line = cmark_node_get_start_line(n);
	if (!lit)
		return;
	const char *s = lit;
	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "<!--", 4) != 0)
		return;
	s += 4;
	while (isspace((unsigned char)*s))
		s++;
	size_t klen = header_key(s);
	if (!klen)
		return;
	char key[16];
	snprintf(key, sizeof key, "%.*s", (int)klen, s);
	s += klen;
	const char *end = strstr(s, "-->");
	if (!end)
		end = s + strlen(s);
	char *v = trim_dup(s, (size_t)(end - s));
	if (p->f->nq) {
		problem(p, line, 0, "%.*s comment after the first question is ignored",
			(int)klen - 1, key);
		free(v);
		return;
	}
	header_value(p, key, v, line);
}

static void extend(int *first, int *last, cmark_node *n)
{
	int a = cmark_node_get_start_line(n), b = cmark_node_get_end_line(n);
	if (b < a)
		b = a;
	if (!*first)
		*first = a;
	if (b > *last)
		*last = b;
}

static void block(struct parser *p, cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	int line = cmark_node_get_start_line(n);
	if (t == CMARK_NODE_HEADING) {
		int level = cmark_node_get_heading_level(n);
		if (level == 1) {
			if (!p->f->title && p->f->nq == 0 && p->cur < 0) {
				p->f->title = heading_text(p, line);
			} else {
				problem(p, line, 1,
					"a bank has one '# ' title; questions are '## [id] text'");
			}
			return;
		}
		if (level == 2) {
			start_question(p, n);
			return;
		}
		if (level == 3 && p->cur >= 0) {
			char *name = heading_text(p, line);
			if (!strcasecmp(name, "answer")) {
				if (p->have_answer)
					problem(p, line, 1, "second ### Answer in one question");
				p->have_answer = 1;
				cur_q(p)->answer_line = line;
				p->sec = SEC_ANSWER;
			} else if (!strcasecmp(name, "rubric")) {
				if (p->have_rubric)
					problem(p, line, 1, "second ### Rubric in one question");
				p->have_rubric = 1;
				p->rubric_line = line;
				p->sec = SEC_RUBRIC;
			} else {
				problem(p, line, 1,
					"unknown section '### %s' (only ### Answer and ### Rubric; "
					"keep these two headings in English)",
					name);
				p->sec = SEC_IGNORE;
			}
			free(name);
			return;
		}
		problem(p, line, 1,
			"unexpected heading level %d: questions are '## [id] text', sections "
			"'### Answer' and '### Rubric'",
			level);
		return;
	}
	if (t == CMARK_NODE_HTML_BLOCK) {
		header_comment(p, n);
		return; /* comments are never shown */
	}
	struct quiz_question *q = cur_q(p);
	switch (p->sec) {
	case SEC_NONE:
	case SEC_IGNORE: return; /* an introduction before the first question */
	case SEC_QUESTION:
		if (p->blocks_in_q++ == 0 && t == CMARK_NODE_PARAGRAPH && is_meta_paragraph(p, n)) {
			parse_meta(p, n);
			return;
		}
		if (q->kind == QK_CHOICE && t == CMARK_NODE_LIST) {
			cmark_node *first = cmark_node_first_child(n);
			if (first && (is_task_item(first) || !p->options_line)) {
				parse_options(p, n);
				return;
			}
		}
		extend(&p->body_first, &p->body_last, n);
		return;
	case SEC_ANSWER: extend(&p->ans_first, &p->ans_last, n); return;
	case SEC_RUBRIC:
		if (t == CMARK_NODE_LIST) {
			parse_rubric_list(p, n);
			return;
		}
		problem(p, line, 1,
			"only a list of '- POINTS: text' items belongs under ### Rubric");
		return;
	}
}

/* Lines end as cmark-gfm ends them: "\n", "\r\n" or a lone "\r", so the
 * line numbers of its nodes index the same lines here (a lone CR once
 * shifted every later question onto the wrong source line). */
static void index_lines(struct parser *p)
{
	size_t cap = 64;
	p->line_start = wb_xmalloc(cap * sizeof *p->line_start);
	p->nlines = 0;
	size_t i = 0;
	while (i < p->len) {
		if (p->nlines == cap) {
			cap *= 2;
			p->line_start = wb_xrealloc(p->line_start, cap * sizeof *p->line_start);
		}
		p->line_start[p->nlines++] = i;
		while (i < p->len && p->text[i] != '\n' && p->text[i] != '\r')
			i++;
		if (i < p->len && p->text[i] == '\r' && i + 1 < p->len && p->text[i + 1] == '\n')
			i++;
		if (i < p->len)
			i++;
	}
}

/* Insertion sort by line: stable, and the lists are short and nearly
 * sorted already. */
static void sort_problems(struct quiz_file *f)
{
	for (size_t i = 1; i < f->nproblems; i++) {
		struct quiz_problem v = f->problems[i];
		size_t j = i;
		while (j > 0 && f->problems[j - 1].line > v.line) {
			f->problems[j] = f->problems[j - 1];
			j--;
		}
		f->problems[j] = v;
	}
}

static char *chapter_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n < 4 || strcmp(base + n - 3, ".md") != 0)
		return NULL;
	char *id = wb_xstrndup(base, n - 3);
	if (!content_valid_chapter_id(id)) {
		free(id);
		return NULL;
	}
	return id;
}

/* text with every NUL byte replaced by U+FFFD, as cmark-gfm replaces it
 * in its own copy: the heading, option and answer texts are cut from the
 * source lines as C strings, where a NUL once dropped the rest of the
 * line (#20 F12; quiz lint reports the NUL as an error).  NULL when the
 * text has none. */
static char *without_nul(const char *text, size_t len, size_t *outlen)
{
	if (!memchr(text, '\0', len))
		return NULL;
	struct wb_buf b = {0};
	for (size_t i = 0; i < len; i++) {
		if (text[i])
			wb_buf_append(&b, text + i, 1);
		else
			wb_buf_append(&b, "\xEF\xBF\xBD", 3);
	}
	*outlen = b.len;
	return wb_buf_steal(&b);
}

/* Nesting the screens lay out flat (#20 F2): a warning at its line. */
static void check_depth(struct parser *p, cmark_node *doc)
{
	cmark_node *deep = lesson_too_deep(doc);
	if (deep)
		problem(p, lesson_node_line(deep), 0,
			"nested deeper than %d levels (quotes, list items or emphasis); the "
			"screens show the deeper levels flat",
			LESSON_MAX_NESTING);
}

int quiz_parse(const char *path, const char *lang, const char *text, size_t len,
	       struct quiz_file **out)
{
	*out = NULL;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		text += 3, len -= 3;
	char *clean = without_nul(text, len, &len);
	if (clean)
		text = clean;
	cmark_parser *cp = cmark_parser_new(CMARK_OPT_DEFAULT);
	if (!cp) {
		free(clean);
		return WB_ENOMEM;
	}
	lesson_attach_extensions(cp);
	cmark_parser_feed(cp, text, len);
	cmark_node *doc = cmark_parser_finish(cp);
	cmark_parser_free(cp);
	if (!doc) {
		free(clean);
		return WB_ENOMEM;
	}

	struct quiz_file *f = wb_xcalloc(1, sizeof *f);
	f->path = wb_xstrdup(path);
	f->lang = wb_xstrdup(lang ? lang : "en");
	f->chapter = chapter_from_name(path);
	struct parser p = {.f = f, .text = text, .len = len, .cur = -1};
	index_lines(&p);
	for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n))
		block(&p, n);
	finish_question(&p);
	check_depth(&p, doc);
	if (!f->title)
		problem(&p, 1, 0, "no '# ' title line (e.g. '# Self-test: <chapter title>')");
	if (f->nq == 0)
		problem(&p, 1, 0, "no questions ('## [id] question text')");
	sort_problems(f);
	free(p.line_start);
	cmark_node_free(doc);
	free(clean);
	*out = f;
	return 0;
}

const char *quiz_lang_of_path(const char *path)
{
	const char *end = strrchr(path, '/');
	if (!end)
		return NULL;
	const char *start = end;
	while (start > path && start[-1] != '/')
		start--;
	size_t n = (size_t)(end - start);
	if (n == 2 && !strncmp(start, "en", 2))
		return "en";
	if (n == 2 && !strncmp(start, "zh", 2))
		return "zh";
	return NULL;
}

int quiz_load_file(const char *path, const char *fallback_lang, struct quiz_file **out)
{
	*out = NULL;
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > QUIZ_FILE_MAX_BYTES)
		return WB_ERANGE;
	char *text;
	size_t len;
	int rc = wb_read_file(path, &text, &len);
	if (rc)
		return rc;
	if (len > QUIZ_FILE_MAX_BYTES) { /* grew since the stat, or not a regular file */
		free(text);
		return WB_ERANGE;
	}
	const char *lang = quiz_lang_of_path(path);
	rc = quiz_parse(path, lang ? lang : (fallback_lang ? fallback_lang : "en"), text, len, out);
	free(text);
	return rc;
}

void quiz_file_free(struct quiz_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nq; i++) {
		struct quiz_question *q = &f->q[i];
		free(q->id);
		free(q->text);
		free(q->body);
		free(q->answer);
		free(q->num_text);
		for (size_t k = 0; k < q->noptions; k++)
			free(q->options[k].text);
		free(q->options);
		for (size_t k = 0; k < q->nrubric; k++)
			free(q->rubric[k].text);
		free(q->rubric);
	}
	free(f->q);
	for (size_t i = 0; i < f->nproblems; i++)
		free(f->problems[i].msg);
	free(f->problems);
	free(f->path);
	free(f->lang);
	free(f->chapter);
	free(f->title);
	free(f->chapter_title);
	free(f->lang_only);
	free(f);
}
