/*
 * classreport.c - the class report over several progress exports (see
 * classreport.h).
 *
 * Design notes
 * - Every graded answer of every file is kept as one record; the figures
 *   are computed on demand by sorting (uid for duplicates, then question
 *   and learner and graded_at for "latest per learner"), so the work is
 *   O(n log n) in the answers and no hash table is needed.
 * - A learner counts once per question, with the latest answer: FSRS
 *   brings a missed question back more often, so counting every attempt
 *   would weigh the struggling learners' Again grades several times.
 *   Every attempt is still shown as "answers".
 * - The export's "labs" ([{"id","passed"}]) and "exercises"
 *   ([{"id","passed",...}]) arrays are optional: without them a learner's
 *   labs and exercises are unknown (-1), never 0.
 * - A file is read and checked by core/exchange.c's answers_parse_json,
 *   the rules `progress import` applies, so the report is made of files a
 *   learner could import and nothing else (review r3 N15).
 * - It does not read CSV exports (they carry no exercises) or databases,
 *   and it does not sanitise: the CLI's output stream does (core/textsafe).
 */
#include "core/classreport.h"
#include "core/answers.h"
#include "core/exchange.h"
#include "core/quizfile.h"
#include "core/store.h"
#include "base/wb.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct rec {
	char *uid, *learner, *question, *chapter;
	int64_t graded_at; /* ms */
	int points, max_points, again;
};

/* A learner's labs and exercises from one file. */
struct extra {
	char *learner;
	char **labs; /* ids of passing runs */
	size_t nlabs;
	int has_labs, has_ex;
	char **ex; /* exercise ids */
	int *ex_passed;
	size_t nex;
};

struct classreport {
	struct rec *r;
	size_t n, cap;
	struct extra *x;
	size_t nx;
	int dirty; /* figures out of date */
	struct cr_question *q;
	size_t nq;
	struct cr_learner *l;
	size_t nl;
};

struct classreport *classreport_new(void)
{
	struct classreport *r = wb_xcalloc(1, sizeof *r);
	r->dirty = 1;
	return r;
}

static void clear_figures(struct classreport *r)
{
	for (size_t i = 0; i < r->nq; i++) {
		free(r->q[i].id);
		free(r->q[i].chapter);
	}
	for (size_t i = 0; i < r->nl; i++)
		free(r->l[i].name);
	free(r->q);
	free(r->l);
	r->q = NULL;
	r->l = NULL;
	r->nq = r->nl = 0;
}

static void rec_free(struct rec *a)
{
	free(a->uid);
	free(a->learner);
	free(a->question);
	free(a->chapter);
}

static void extra_free(struct extra *x)
{
	free(x->learner);
	for (size_t i = 0; i < x->nlabs; i++)
		free(x->labs[i]);
	for (size_t i = 0; i < x->nex; i++)
		free(x->ex[i]);
	free(x->labs);
	free(x->ex);
	free(x->ex_passed);
}

void classreport_free(struct classreport *r)
{
	if (!r)
		return;
	clear_figures(r);
	for (size_t i = 0; i < r->n; i++)
		rec_free(&r->r[i]);
	for (size_t i = 0; i < r->nx; i++)
		extra_free(&r->x[i]);
	free(r->r);
	free(r->x);
	free(r);
}

/* ---- reading one export ---- */

/* The file's base name without a trailing ".json". */
static char *base_name(const char *file)
{
	const char *b = strrchr(file, '/');
	b = b ? b + 1 : file;
	size_t n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	return wb_xstrndup(b, n);
}

int classreport_add_json(struct classreport *r, const char *file, const char *text, size_t len,
			 char *err, size_t errlen)
{
	/* The rules `progress import` reads an export by: a file one command
	 * refuses, the other refuses too (review r3 N15). */
	struct answers_doc d;
	int line;
	char why[400];
	if (answers_parse_json(text, len, &d, &line, why, sizeof why) != 0) {
		if (line)
			snprintf(err, errlen, "%s:%d: %s", file, line, why);
		else
			snprintf(err, errlen, "%s: %s", file, why);
		return WB_EINVAL;
	}
	char *fallback = base_name(file);
	struct extra x = {0};
	x.has_labs = d.has_labs;
	x.has_ex = d.has_ex;
	for (size_t i = 0; i < d.nlabs; i++) {
		if (!d.labs[i].passed)
			continue;
		x.labs = wb_xrealloc(x.labs, (x.nlabs + 1) * sizeof *x.labs);
		x.labs[x.nlabs++] = wb_xstrdup(d.labs[i].id);
	}
	x.ex = wb_xcalloc(d.nex + 1, sizeof *x.ex);
	x.ex_passed = wb_xcalloc(d.nex + 1, sizeof *x.ex_passed);
	for (size_t i = 0; i < d.nex; i++) {
		x.ex[x.nex] = wb_xstrdup(d.ex[i].id);
		x.ex_passed[x.nex++] = d.ex[i].passed;
	}
	if (r->n + d.n > r->cap) {
		r->cap = (r->n + d.n) * 2;
		r->r = wb_xrealloc(r->r, r->cap * sizeof *r->r);
	}
	for (size_t i = 0; i < d.n; i++) {
		const struct answer *a = &d.a[i];
		r->r[r->n++] = (struct rec){wb_xstrdup(a->uid),
					    wb_xstrdup(a->learner[0] ? a->learner : fallback),
					    wb_xstrdup(a->question),
					    wb_xstrdup(a->chapter),
					    a->graded_at,
					    a->points,
					    a->max_points,
					    a->grade == GRADE_AGAIN};
	}
	x.learner = wb_xstrdup(d.n && d.a[0].learner[0] ? d.a[0].learner : fallback);
	r->x = wb_xrealloc(r->x, (r->nx + 1) * sizeof *r->x);
	r->x[r->nx++] = x;
	r->dirty = 1;
	answers_doc_free(&d);
	free(fallback);
	return 0;
}

/* ---- figures ---- */

static int by_uid(const void *a, const void *b)
{
	return strcmp(((const struct rec *)a)->uid, ((const struct rec *)b)->uid);
}

static int by_question(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int c = strcmp(a->question, b->question);
	if (!c)
		c = strcmp(a->learner, b->learner);
	if (!c)
		c = (a->graded_at > b->graded_at) - (a->graded_at < b->graded_at);
	return c ? c : strcmp(a->uid, b->uid);
}

static int by_chapter_id(const void *pa, const void *pb)
{
	const struct cr_question *a = pa, *b = pb;
	int c = strcmp(a->chapter, b->chapter);
	return c ? c : strcmp(a->id, b->id);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cr_learner *)a)->name, ((const struct cr_learner *)b)->name);
}

/* Drops answers whose uid came before (sorted by uid). */
static void drop_duplicates(struct classreport *r)
{
	if (r->n > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(r->r, r->n, sizeof *r->r, by_uid);
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (k && !strcmp(r->r[k - 1].uid, r->r[i].uid)) {
			rec_free(&r->r[i]);
			continue;
		}
		r->r[k++] = r->r[i];
	}
	r->n = k;
}

/* The learner named name, added when new. */
static struct cr_learner *learner(struct classreport *r, const char *name)
{
	for (size_t i = 0; i < r->nl; i++)
		if (!strcmp(r->l[i].name, name))
			return &r->l[i];
	r->l = wb_xrealloc(r->l, (r->nl + 1) * sizeof *r->l);
	r->l[r->nl] = (struct cr_learner){wb_xstrdup(name), 0, -1, -1, 0};
	return &r->l[r->nl++];
}

static int in_list(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* Labs passed and exercises solved of each learner, over all files of
 * that learner (an id counts once; an exercise passed in any file is
 * solved). */
static void learner_extras(struct classreport *r)
{
	for (size_t i = 0; i < r->nl; i++) {
		struct cr_learner *L = &r->l[i];
		char **labs = NULL, **ex = NULL, **solved = NULL;
		size_t nlabs = 0, nex = 0, nsolved = 0;
		for (size_t f = 0; f < r->nx; f++) {
			struct extra *x = &r->x[f];
			if (strcmp(x->learner, L->name))
				continue;
			if (x->has_labs && L->labs_passed < 0)
				L->labs_passed = 0;
			if (x->has_ex && L->exercises_solved < 0)
				L->exercises_solved = 0;
			for (size_t k = 0; k < x->nlabs; k++)
				if (!in_list(labs, nlabs, x->labs[k])) {
					labs = wb_xrealloc(labs, (nlabs + 1) * sizeof *labs);
					labs[nlabs++] = x->labs[k];
				}
			for (size_t k = 0; k < x->nex; k++) {
				if (!in_list(ex, nex, x->ex[k])) {
					ex = wb_xrealloc(ex, (nex + 1) * sizeof *ex);
					ex[nex++] = x->ex[k];
				}
				if (x->ex_passed[k] && !in_list(solved, nsolved, x->ex[k])) {
					solved =
						wb_xrealloc(solved, (nsolved + 1) * sizeof *solved);
					solved[nsolved++] = x->ex[k];
				}
			}
		}
		if (L->labs_passed >= 0)
			L->labs_passed = (int)nlabs;
		if (L->exercises_solved >= 0)
			L->exercises_solved = (int)nsolved;
		L->exercises_tried = (int)nex;
		free(labs);
		free(ex);
		free(solved);
	}
}

/* One question's group [s, e) of records (sorted by learner, graded_at):
 * its figures, and each learner's answered count. */
static void question_group(struct classreport *r, size_t s, size_t e)
{
	struct cr_question q = {wb_xstrdup(r->r[s].question), NULL, 0, (int)(e - s), 0, 0, 0};
	long sum = 0, sum_max = 0, again = 0;
	const struct rec *latest = &r->r[s];
	for (size_t i = s; i < e; i++) {
		const struct rec *a = &r->r[i];
		if (i + 1 < e && !strcmp(r->r[i + 1].learner, a->learner))
			continue; /* not this learner's latest */
		q.learners++;
		sum += a->points;
		sum_max += a->max_points;
		again += a->again;
		learner(r, a->learner)->answered++;
		if (a->graded_at > latest->graded_at)
			latest = a;
	}
	q.chapter = wb_xstrdup(latest->chapter);
	q.mean_points = (double)sum / q.learners;
	q.mean_max = (double)sum_max / q.learners;
	q.again_share = (double)again / q.learners;
	r->q = wb_xrealloc(r->q, (r->nq + 1) * sizeof *r->q);
	r->q[r->nq++] = q;
}

static void compute(struct classreport *r)
{
	if (!r->dirty)
		return;
	clear_figures(r);
	drop_duplicates(r);
	if (r->n > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(r->r, r->n, sizeof *r->r, by_question);
	for (size_t s = 0, e; s < r->n; s = e) {
		for (e = s + 1; e < r->n && !strcmp(r->r[e].question, r->r[s].question); e++)
			;
		question_group(r, s, e);
	}
	for (size_t f = 0; f < r->nx; f++)
		learner(r, r->x[f].learner);
	learner_extras(r);
	if (r->nq > 1)
		qsort(r->q, r->nq, sizeof *r->q, by_chapter_id);
	if (r->nl > 1)
		qsort(r->l, r->nl, sizeof *r->l, by_name);
	r->dirty = 0;
}

const struct cr_question *classreport_questions(struct classreport *r, size_t *n)
{
	compute(r);
	*n = r->nq;
	return r->q;
}

const struct cr_learner *classreport_learners(struct classreport *r, size_t *n)
{
	compute(r);
	*n = r->nl;
	return r->l;
}

static const struct cr_question *sort_base;

static double score_share(const struct cr_question *q)
{
	return q->mean_max > 0 ? q->mean_points / q->mean_max : 1.0;
}

static int harder_first(const void *pa, const void *pb)
{
	const struct cr_question *a = &sort_base[*(const size_t *)pa];
	const struct cr_question *b = &sort_base[*(const size_t *)pb];
	if (a->again_share != b->again_share)
		return a->again_share > b->again_share ? -1 : 1;
	if (score_share(a) != score_share(b))
		return score_share(a) < score_share(b) ? -1 : 1;
	return strcmp(a->id, b->id);
}

size_t classreport_hardest(struct classreport *r, size_t *idx, size_t max)
{
	compute(r);
	if (!r->nq || !max)
		return 0;
	size_t *all = wb_xcalloc(r->nq, sizeof *all);
	for (size_t i = 0; i < r->nq; i++)
		all[i] = i;
	sort_base = r->q;
	if (r->nq > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(all, r->nq, sizeof *all, harder_first);
	size_t n = r->nq < max ? r->nq : max;
	memcpy(idx, all, n * sizeof *idx);
	free(all);
	return n;
}

/* ---- writing ---- */

enum { CR_CHART_MAX = 10 };

static void count_or_dash(FILE *out, int v, int w)
{
	if (v < 0)
		fprintf(out, "%*s", w, "-");
	else
		fprintf(out, "%*d", w, v);
}

static void write_text(struct classreport *r, int width, FILE *out)
{
	fprintf(out, "Questions (each learner's latest answer)\n");
	fprintf(out, "%-24s %-20s %8s %7s %11s %5s\n", "question", "chapter", "learners", "answers",
		"mean points", "again");
	for (size_t i = 0; i < r->nq; i++) {
		const struct cr_question *q = &r->q[i];
		/* a long id or chapter gets a line of its own: rows stay 80 wide */
		if (strlen(q->id) > 24 || strlen(q->chapter) > 20)
			fprintf(out, "%s %s\n%45s", q->id, q->chapter, "");
		else
			fprintf(out, "%-24s %-20s", q->id, q->chapter);
		fprintf(out, " %8d %7d %5.2f/%-5.2f %4.0f%%\n", q->learners, q->answers,
			q->mean_points, q->mean_max, 100 * q->again_share);
	}
	fprintf(out, "\nLearners\n%-24s %9s %12s %17s\n", "learner", "questions", "labs passed",
		"exercises solved");
	for (size_t i = 0; i < r->nl; i++) {
		const struct cr_learner *l = &r->l[i];
		fprintf(out, "%-24s %9d ", l->name, l->answered);
		count_or_dash(out, l->labs_passed, 12);
		fputc(' ', out);
		count_or_dash(out, l->exercises_solved, 17);
		fputc('\n', out);
	}
	size_t idx[CR_CHART_MAX];
	size_t n = classreport_hardest(r, idx, CR_CHART_MAX);
	int bar = (width < 40 ? 40 : width) - 32 - 8;
	fprintf(out, "\nHardest questions (share of Again)\n");
	for (size_t k = 0; k < n; k++) {
		const struct cr_question *q = &r->q[idx[k]];
		int len = (int)(q->again_share * bar + 0.5);
		fprintf(out, "%-30.30s |", q->id);
		for (int c = 0; c < len; c++)
			fputc('#', out);
		fprintf(out, "%*s %3.0f%%\n", bar - len, "", 100 * q->again_share);
	}
}

static void csv_text(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void write_csv(struct classreport *r, FILE *out)
{
	fputs("section,id,chapter,learners,answers,mean_points,mean_max_points,again_share\r\n",
	      out);
	for (size_t i = 0; i < r->nq; i++) {
		const struct cr_question *q = &r->q[i];
		fputs("question,", out);
		csv_text(out, q->id);
		fputc(',', out);
		csv_text(out, q->chapter);
		fprintf(out, ",%d,%d,%.4f,%.4f,%.4f\r\n", q->learners, q->answers, q->mean_points,
			q->mean_max, q->again_share);
	}
	fputs("\r\nsection,learner,questions_answered,labs_passed,exercises_solved,"
	      "exercises_tried\r\n",
	      out);
	for (size_t i = 0; i < r->nl; i++) {
		const struct cr_learner *l = &r->l[i];
		fputs("learner,", out);
		csv_text(out, l->name);
		fprintf(out, ",%d,", l->answered);
		if (l->labs_passed >= 0)
			fprintf(out, "%d", l->labs_passed);
		fputc(',', out);
		if (l->exercises_solved >= 0)
			fprintf(out, "%d,%d", l->exercises_solved, l->exercises_tried);
		else
			fputc(',', out);
		fputs("\r\n", out);
	}
}

static json_t *count_json(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static int write_json(struct classreport *r, FILE *out)
{
	json_t *qs = json_array(), *ls = json_array(), *hard = json_array();
	for (size_t i = 0; i < r->nq; i++) {
		const struct cr_question *q = &r->q[i];
		json_array_append_new(
			qs, json_pack("{s:s, s:s, s:i, s:i, s:f, s:f, s:f}", "id", q->id, "chapter",
				      q->chapter, "learners", q->learners, "answers", q->answers,
				      "mean_points", q->mean_points, "mean_max_points", q->mean_max,
				      "again_share", q->again_share));
	}
	for (size_t i = 0; i < r->nl; i++) {
		const struct cr_learner *l = &r->l[i];
		json_array_append_new(ls,
				      json_pack("{s:s, s:i, s:o, s:o, s:i}", "learner", l->name,
						"questions_answered", l->answered, "labs_passed",
						count_json(l->labs_passed), "exercises_solved",
						count_json(l->exercises_solved), "exercises_tried",
						l->exercises_tried));
	}
	size_t idx[CR_CHART_MAX];
	size_t n = classreport_hardest(r, idx, CR_CHART_MAX);
	for (size_t k = 0; k < n; k++)
		json_array_append_new(hard, json_string(r->q[idx[k]].id));
	json_t *doc = json_pack("{s:s, s:i, s:o, s:o, s:o}", "format", "workbench-class-report",
				"version", 1, "questions", qs, "learners", ls, "hardest", hard);
	int bad = !doc || json_dumpf(doc, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0;
	json_decref(doc);
	fputc('\n', out);
	return bad ? WB_EIO : 0;
}

int classreport_write(struct classreport *r, enum cr_format fmt, int width, FILE *out)
{
	compute(r);
	int rc = 0;
	if (fmt == CR_JSON)
		rc = write_json(r, out);
	else if (fmt == CR_CSV)
		write_csv(r, out);
	else
		write_text(r, width, out);
	return rc || ferror(out) ? WB_EIO : 0;
}
