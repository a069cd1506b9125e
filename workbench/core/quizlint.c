/*
 * quizlint.c - cross-file checks of question banks (see quizlint.h).
 *
 * Every file is parsed once; the parser's own problems are copied into
 * the report and the cross-file checks run over the parsed questions.
 * Problems are only reported for target files: context files exist so
 * that "duplicate id" and "only in one language" see the whole bank.
 * This module never reads the progress database.
 */
#include "core/quizlint.h"
#include "core/textsafe.h"
#include "core/quizbank.h"
#include "core/quizfile.h"
#include "base/wb.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct lint {
	struct quizlint_report *r;
	struct quiz_file **files; /* targets first, then context */
	size_t ntargets;	  /* files[0..ntargets) are targets */
	size_t nfiles;
	size_t *order; /* target index of each message, for sorting */
	size_t cap;
	/* (lang, id) -> the first two questions with it, in file order:
	 * open addressing, a power of two at most half full, so the
	 * duplicate and translation checks are linear (#20 F6). */
	struct id_slot *ids;
	size_t nids;
};

struct id_slot {
	const struct quiz_question *a, *b; /* a NULL: empty */
};

static void add(struct lint *l, size_t fi, int line, int is_error, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void add(struct lint *l, size_t fi, int line, int is_error, const char *fmt, ...)
{
	struct quizlint_report *r = l->r;
	if (r->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		r->m = wb_xrealloc(r->m, l->cap * sizeof *r->m);
		l->order = wb_xrealloc(l->order, l->cap * sizeof *l->order);
	}
	va_list ap;
	va_start(ap, fmt);
	char *msg = wb_xvasprintf(fmt, ap);
	va_end(ap);
	l->order[r->n] = fi;
	r->m[r->n++] = (struct quizlint_msg){.file = wb_xstrdup(l->files[fi]->path),
					     .line = line > 0 ? line : 1,
					     .is_error = is_error,
					     .msg = msg};
	if (is_error)
		r->errors++;
	else
		r->warnings++;
}

/* textsafe_scan's callback for one target: an unsafe character is an
 * error at its line and column. */
struct scan_ctx {
	struct lint *l;
	size_t fi;
};

static void unsafe_char(void *arg, size_t line, size_t col, const char *what)
{
	struct scan_ctx *c = arg;
	add(c->l, c->fi, (int)line, 1, "%s", what);
	c->l->r->m[c->l->r->n - 1].col = (int)col;
}

/* Control characters, escapes and bidi controls in a bank would reach
 * the terminal of every learner who takes the test (core/textsafe.h). */
static void check_bytes(struct lint *l, size_t fi)
{
	char *text = NULL;
	size_t len = 0;
	if (wb_read_file(l->files[fi]->path, &text, &len) != 0)
		return;
	struct scan_ctx c = {l, fi};
	textsafe_scan(text, len, unsafe_char, &c);
	free(text);
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return !strcmp(a, b);
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int chapter_exists(const char *root, const char *chapter)
{
	static const char *langs[] = {"en", "zh"};
	for (size_t i = 0; i < WB_ARRAY_LEN(langs); i++) {
		char *p = wb_xasprintf("%s/lessons/%s/%s.md", root, langs[i], chapter);
		int ok = is_file(p);
		free(p);
		if (ok)
			return 1;
	}
	return 0;
}

static const char *other_lang(const char *lang)
{
	return strcmp(lang, "zh") ? "zh" : "en";
}

static size_t hash_key(const char *lang, const char *id)
{
	uint64_t h = 1469598103934665603u;
	for (const char *p = lang; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	h = (h ^ '/') * 1099511628211u;
	for (const char *p = id; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	return (size_t)h;
}

static struct id_slot *id_slot(const struct lint *l, const char *lang, const char *id)
{
	size_t mask = l->nids - 1;
	for (size_t i = hash_key(lang, id) & mask;; i = (i + 1) & mask) {
		struct id_slot *s = &l->ids[i];
		if (!s->a || (!strcmp(s->a->id, id) && !strcmp(s->a->file->lang, lang)))
			return s;
	}
}

/* Indexes every question with an id of every file read. */
static void index_ids(struct lint *l)
{
	size_t n = 0;
	for (size_t f = 0; f < l->nfiles; f++)
		n += l->files[f]->nq;
	l->nids = 64;
	while (l->nids < 2 * n)
		l->nids *= 2;
	l->ids = wb_xcalloc(l->nids, sizeof *l->ids);
	for (size_t f = 0; f < l->nfiles; f++)
		for (size_t k = 0; k < l->files[f]->nq; k++) {
			const struct quiz_question *q = &l->files[f]->q[k];
			if (!q->id)
				continue;
			struct id_slot *s = id_slot(l, l->files[f]->lang, q->id);
			if (!s->a)
				s->a = q;
			else if (!s->b)
				s->b = q;
		}
}

/* The first question with this id in lang other than skip. */
static const struct quiz_question *find_id(const struct lint *l, const char *lang, const char *id,
					   const struct quiz_question *skip)
{
	const struct id_slot *s = id_slot(l, lang, id);
	return s->a != skip ? s->a : s->b;
}

static int lang_has_chapter(const struct lint *l, const char *lang, const char *chapter)
{
	for (size_t f = 0; f < l->nfiles; f++)
		if (!strcmp(l->files[f]->lang, lang) && l->files[f]->chapter &&
		    !strcmp(l->files[f]->chapter, chapter))
			return 1;
	return 0;
}

/* The same question in two languages must agree on what is graded. */
static void compare_translation(struct lint *l, size_t fi, const struct quiz_question *q,
				const struct quiz_question *t)
{
	const char *ol = t->file->lang;
	if (q->errors || t->errors)
		return;
	if (q->kind != t->kind) {
		add(l, fi, q->line, 0, "question '%s' is %s here but %s in the %s bank (%s:%d)",
		    q->id, quiz_kind_name(q->kind), quiz_kind_name(t->kind), ol, t->file->path,
		    t->line);
		return;
	}
	if (q->kind == QK_NUMERIC && (q->number != t->number || q->tolerance != t->tolerance))
		add(l, fi, q->line, 0,
		    "question '%s': answer %g (tolerance %g) here but %g (tolerance %g) in the %s "
		    "bank",
		    q->id, q->number, q->tolerance, t->number, t->tolerance, ol);
	if (q->kind == QK_CHOICE) {
		int same = q->noptions == t->noptions;
		for (size_t i = 0; same && i < q->noptions; i++)
			same = (q->options[i].correct != 0) == (t->options[i].correct != 0);
		if (!same)
			add(l, fi, q->line, 0,
			    "question '%s': options or correct marks differ from the %s bank "
			    "(%s:%d)",
			    q->id, ol, t->file->path, t->line);
	}
	if (q->kind == QK_RECALL && q->max_points != t->max_points)
		add(l, fi, q->line, 0,
		    "question '%s': rubric is worth %d points here but %d in the %s bank", q->id,
		    q->max_points, t->max_points, ol);
}

/* Adds an error for each part of q that still holds template text. */
static int check_placeholders(struct lint *l, size_t fi, const struct quiz_question *q)
{
	static const char hint[] = "left from `workbench quiz new`: write";
	int n = 0;
	if (q->text && strstr(q->text, QUIZLINT_TEMPLATE_QUESTION)) {
		if (l)
			add(l, fi, q->line, 1,
			    "[%s] has the template question text %s the question", q->id, hint);
		n++;
	}
	if (q->answer && strstr(q->answer, QUIZLINT_TEMPLATE_ANSWER)) {
		if (l)
			add(l, fi, q->answer_line ? q->answer_line + 1 : q->line, 1,
			    "[%s] has the template reference answer %s the answer", q->id, hint);
		n++;
	}
	for (size_t k = 0; k < q->nrubric; k++) {
		if (!q->rubric[k].text || !strstr(q->rubric[k].text, QUIZLINT_TEMPLATE_RUBRIC))
			continue;
		if (l)
			add(l, fi, q->rubric[k].line, 1,
			    "[%s] has the template rubric point %s what the answer must contain",
			    q->id, hint);
		n++;
	}
	return n;
}

int quizlint_placeholders(const struct quiz_question *q)
{
	return check_placeholders(NULL, 0, q);
}

/* A tolerance of 1 or more on an integer answer marks the classic
 * off-by-one (2^31 versus 2^31 - 1) correct: worth a warning. */
static void check_off_by_one(struct lint *l, size_t fi, const struct quiz_question *q)
{
	if (q->kind != QK_NUMERIC || !q->has_number || q->errors || q->tolerance < 1 ||
	    q->number != floor(q->number) || fabs(q->number) >= 9007199254740992.0)
		return;
	add(l, fi, q->line, 0,
	    "question '%s': tolerance %g accepts %.0f and %.0f, off-by-one answers to the "
	    "integer %s; give a tolerance below 1, or none, unless near misses should count",
	    q->id, q->tolerance, q->number - 1, q->number + 1,
	    q->num_text ? q->num_text : "answer");
}

/* The closed-book core ("core: true"): a chapter's bank that marks any
 * question core should mark exactly QUIZ_CORE_COUNT (a warning: the
 * 12-question test draws from them).  A bank that marks none has no core
 * yet and is not warned about. */
static void check_core_count(struct lint *l, size_t fi)
{
	const struct quiz_file *f = l->files[fi];
	size_t n = 0;
	for (size_t k = 0; k < f->nq; k++)
		n += f->q[k].core != 0;
	if (n && n != QUIZ_CORE_COUNT)
		add(l, fi, 1, 0,
		    "chapter %s marks %zu core question%s (core: true); its closed-book core is "
		    "exactly %d",
		    f->chapter ? f->chapter : "?", n, n == 1 ? "" : "s", QUIZ_CORE_COUNT);
}

char *quizlint_unknown_chapter(const char *content_root, const char *lang, const char *chapter)
{
	if (!content_root || chapter_exists(content_root, chapter))
		return NULL;
	return wb_xasprintf("unknown chapter '%s': there is no %s/lessons/%s/%s.md; a bank of a "
			    "chapter of its own gives it a title with '<!-- title: ... -->'",
			    chapter, content_root, lang, chapter);
}

/* The chapter: named, and a lesson's or one with a title of the bank's
 * own (<!-- title: -->, which a chapter with a lesson does not use). */
static void check_chapter(struct lint *l, size_t fi, const char *content_root)
{
	const struct quiz_file *f = l->files[fi];
	if (!f->chapter) {
		add(l, fi, 1, 1,
		    "no chapter: name the file after a chapter (NN-slug.md) or add '<!-- chapter: "
		    "ID -->' under the title");
		return;
	}
	char *unknown = quizlint_unknown_chapter(content_root, f->lang, f->chapter);
	if (unknown && !f->chapter_title)
		add(l, fi, f->chapter_line, 1, "%s", unknown);
	else if (!unknown && content_root && f->chapter_title)
		add(l, fi, f->title_line, 0,
		    "chapter %s has a lesson; its title comes from the lesson, not from this "
		    "title: comment",
		    f->chapter);
	free(unknown);
}

/* 1 when f declares it is in its own language only on purpose
 * (<!-- lang-only: -->); a declaration naming the other language is
 * warned about and not obeyed. */
static int lang_only(struct lint *l, size_t fi)
{
	const struct quiz_file *f = l->files[fi];
	if (!f->lang_only)
		return 0;
	if (!strcmp(f->lang_only, f->lang))
		return 1;
	add(l, fi, f->lang_only_line, 0,
	    "the bank declares lang-only: %s but is in the %s folder; the declaration is ignored",
	    f->lang_only, f->lang);
	return 0;
}

/* The questions of f (translated: the other language has a bank of its
 * chapter) missing there: one warning for the bank, at the first. */
static void check_missing(struct lint *l, size_t fi, const char *ol)
{
	const struct quiz_file *f = l->files[fi];
	struct wb_buf ids = {0};
	size_t n = 0, listed = 10;
	const struct quiz_question *first = NULL;
	for (size_t k = 0; k < f->nq; k++) {
		const struct quiz_question *q = &f->q[k];
		if (!q->id || find_id(l, ol, q->id, NULL))
			continue;
		if (n++ == 0)
			first = q;
		if (n <= listed)
			wb_buf_printf(&ids, "%s[%s]", n > 1 ? " " : "", q->id);
	}
	if (n > listed)
		wb_buf_printf(&ids, " and %zu more", n - listed);
	const char *hint = "add them there, or declare the bank";
	if (n == 1)
		add(l, fi, first->line, 0,
		    "question '%s' is only in %s: the %s bank has no [%s] (missing translation); "
		    "add it there, or declare the bank %s only with '<!-- lang-only: %s -->'",
		    first->id, f->lang, ol, first->id, f->lang, f->lang);
	else if (n > 1)
		add(l, fi, first->line, 0,
		    "%zu questions are only in %s: %s (missing translations): the %s bank of "
		    "chapter %s has none of them; %s %s only with '<!-- lang-only: %s -->'",
		    n, f->lang, ids.data, ol, f->chapter, hint, f->lang, f->lang);
	wb_buf_free(&ids);
}

static void check_target(struct lint *l, size_t fi, const char *content_root,
			 const char *fallback_lang)
{
	const struct quiz_file *f = l->files[fi];
	if (!quiz_lang_of_path(f->path))
		add(l, fi, 1, 0,
		    "cannot tell the language: put the file in an en/ or zh/ folder (assuming %s)",
		    fallback_lang);
	for (size_t i = 0; i < f->nproblems; i++)
		add(l, fi, f->problems[i].line, f->problems[i].is_error, "%s", f->problems[i].msg);
	check_chapter(l, fi, content_root);
	const char *ol = other_lang(f->lang);
	int translated = f->chapter && lang_has_chapter(l, ol, f->chapter);
	int one_lang = lang_only(l, fi);
	if (f->chapter && !translated && f->nq && !one_lang)
		add(l, fi, 1, 0,
		    "chapter %s has no %s question bank: every question here is %s only",
		    f->chapter, ol, f->lang);
	check_core_count(l, fi);
	if (translated && !one_lang)
		check_missing(l, fi, ol);
	for (size_t k = 0; k < f->nq; k++) {
		const struct quiz_question *q = &f->q[k];
		if (!q->id)
			continue;
		check_placeholders(l, fi, q);
		const struct quiz_question *dup = find_id(l, f->lang, q->id, q);
		if (dup)
			add(l, fi, q->line, 1, "duplicate id '%s' (also at %s:%d)", q->id,
			    dup->file->path, dup->line);
		check_off_by_one(l, fi, q);
		const struct quiz_question *t = translated ? find_id(l, ol, q->id, NULL) : NULL;
		if (t)
			compare_translation(l, fi, q, t);
		if (t && (q->core != 0) != (t->core != 0))
			add(l, fi, q->line, 1,
			    "question '%s' is %s here but %s in the %s bank (%s:%d): en and zh "
			    "must agree on the core",
			    q->id, q->core ? "core" : "not core", t->core ? "core" : "not core", ol,
			    t->file->path, t->line);
	}
}

/* Sorts the report by (target, line), stable: qsort over indexes with the
 * index as the last key (an insertion sort was quadratic for a bank of
 * 100,000 questions, #20 F6). */
static const struct lint *sort_lint;

static int cmp_msg(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct lint *l = sort_lint;
	if (l->order[i] != l->order[j])
		return l->order[i] < l->order[j] ? -1 : 1;
	if (l->r->m[i].line != l->r->m[j].line)
		return l->r->m[i].line < l->r->m[j].line ? -1 : 1;
	return i < j ? -1 : i > j;
}

static void sort_report(struct lint *l)
{
	size_t n = l->r->n;
	if (n < 2)
		return;
	size_t *idx = wb_xcalloc(n, sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_lint = l;
	qsort(idx, n, sizeof *idx, cmp_msg);
	sort_lint = NULL;
	struct quizlint_msg *m = wb_xcalloc(n, sizeof *m);
	size_t *order = wb_xcalloc(n, sizeof *order);
	for (size_t i = 0; i < n; i++) {
		m[i] = l->r->m[idx[i]];
		order[i] = l->order[idx[i]];
	}
	memcpy(l->r->m, m, n * sizeof *m);
	memcpy(l->order, order, n * sizeof *order);
	free(m);
	free(order);
	free(idx);
}

int quizlint_run(const char *content_root, const char *fallback_lang, const char *const *targets,
		 size_t ntargets, const char *const *context, size_t ncontext,
		 struct quizlint_report *out)
{
	memset(out, 0, sizeof *out);
	if (!fallback_lang)
		fallback_lang = "en";
	struct lint l = {.r = out};
	l.files = wb_xcalloc(ntargets + ncontext + 1, sizeof *l.files);
	/* Unreadable targets become report lines of a stand-in file. */
	size_t *unreadable = wb_xcalloc(ntargets + 1, sizeof *unreadable);
	int *rc_of = wb_xcalloc(ntargets + 1, sizeof *rc_of);
	for (size_t i = 0; i < ntargets; i++) {
		struct quiz_file *f = NULL;
		int rc = quiz_load_file(targets[i], fallback_lang, &f);
		if (rc) {
			f = wb_xcalloc(1, sizeof *f);
			f->path = wb_xstrdup(targets[i]);
			f->lang = wb_xstrdup(fallback_lang);
			unreadable[i] = 1;
			rc_of[i] = rc;
		}
		l.files[l.nfiles++] = f;
	}
	l.ntargets = l.nfiles;
	for (size_t i = 0; i < ncontext; i++) {
		int dup = 0;
		for (size_t k = 0; k < ntargets && !dup; k++)
			dup = same_file(context[i], targets[k]);
		struct quiz_file *f;
		if (!dup && quiz_load_file(context[i], fallback_lang, &f) == 0)
			l.files[l.nfiles++] = f;
	}
	index_ids(&l);
	for (size_t i = 0; i < l.ntargets; i++) {
		if (unreadable[i] && rc_of[i] == WB_ERANGE) {
			add(&l, i, 1, 1,
			    "the file is larger than %u MiB; bank files are limited to that",
			    QUIZ_FILE_MAX_BYTES >> 20);
			continue;
		}
		if (unreadable[i]) {
			add(&l, i, 1, 1, "cannot read the file: %s", wb_strerror(rc_of[i]));
			continue;
		}
		check_bytes(&l, i);
		check_target(&l, i, content_root, fallback_lang);
	}
	sort_report(&l);
	for (size_t i = 0; i < l.nfiles; i++)
		quiz_file_free(l.files[i]);
	free(l.files);
	free(l.order);
	free(l.ids);
	free(unreadable);
	free(rc_of);
	return 0;
}

void quizlint_report_free(struct quizlint_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->m[i].file);
		free(r->m[i].msg);
	}
	free(r->m);
	memset(r, 0, sizeof *r);
}

static void push(char ***files, size_t *n, char *s)
{
	*files = wb_xrealloc(*files, (*n + 1) * sizeof **files);
	(*files)[(*n)++] = s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_md(const char *dir, char ***files, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	size_t start = *n;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		char *p = wb_xasprintf("%s/%s", dir, e->d_name);
		if (is_file(p))
			push(files, n, p);
		else
			free(p);
	}
	closedir(d);
	if (*n > start)
		qsort(*files + start, *n - start, sizeof **files, cmp_str);
}

int quizlint_expand(const char *path, char ***files, size_t *n)
{
	if (is_file(path)) {
		push(files, n, wb_xstrdup(path));
		return 0;
	}
	if (!is_dir(path))
		return WB_ENOENT;
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	char *base = wb_xstrndup(path, len);
	char *en = wb_xasprintf("%s/en", base), *zh = wb_xasprintf("%s/zh", base);
	if (is_dir(en) || is_dir(zh)) {
		add_md(en, files, n);
		add_md(zh, files, n);
	} else {
		add_md(base, files, n);
	}
	free(en);
	free(zh);
	free(base);
	return 0;
}

void quizlint_free_list(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}
