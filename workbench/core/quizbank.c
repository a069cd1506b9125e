/*
 * quizbank.c - banks of questions and grading (see quizbank.h): reading
 * the .md files of the bank folders through quizfile.c, keeping the
 * well-formed questions of one language, and grading an answer against
 * a question.
 *
 * A bank owns its files; its questions are pointers into them, so a
 * bank lives as long as any session that asks from it.  Nothing here
 * parses Markdown or stores answers.
 */
#include "core/quizbank.h"
#include "core/content.h"
#include "base/wb.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- banks ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.md files of a folder, sorted.  Returns the count. */
static size_t list_md(const char *dir, char ***out)
{
	*out = NULL;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*out = wb_xrealloc(*out, cap * sizeof **out);
		}
		(*out)[n++] = wb_xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(*out, n, sizeof **out, cmp_str);
	return n;
}

/* FNV-1a: ids are short ASCII strings. */
static size_t hash_id(const char *s)
{
	uint64_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

/* The slot holding id, or the empty slot where it would go. */
static size_t *slot_of(const struct quiz_bank *b, const char *id)
{
	size_t mask = b->nslots - 1;
	for (size_t i = hash_id(id) & mask;; i = (i + 1) & mask) {
		size_t *s = &b->slots[i];
		if (!*s || !strcmp(b->q[*s - 1]->id, id))
			return s;
	}
}

/* Appends q (its id not yet in the bank), growing q and the index
 * geometrically. */
static void bank_add(struct quiz_bank *b, const struct quiz_question *q, size_t *qcap)
{
	if (b->n == *qcap) {
		*qcap = *qcap ? *qcap * 2 : 32;
		b->q = wb_xrealloc(b->q, *qcap * sizeof *b->q);
	}
	b->q[b->n++] = q;
	if (2 * b->n > b->nslots) {
		free(b->slots);
		b->nslots = b->nslots ? b->nslots * 2 : 64;
		while (2 * b->n > b->nslots)
			b->nslots *= 2;
		b->slots = wb_xcalloc(b->nslots, sizeof *b->slots);
		for (size_t i = 0; i < b->n; i++)
			*slot_of(b, b->q[i]->id) = i + 1;
	} else {
		*slot_of(b, q->id) = b->n;
	}
}

/* The usable questions of one parsed file into the bank. */
static void bank_take(struct quiz_bank *b, const struct quiz_file *f, size_t *qcap)
{
	for (size_t k = 0; k < f->nq; k++) {
		const struct quiz_question *q = &f->q[k];
		if (q->errors || !q->id || !f->chapter || quiz_bank_find(b, q->id)) {
			b->skipped++;
			continue;
		}
		bank_add(b, q, qcap);
	}
}

int quiz_bank_load(const char *const *dirs, size_t ndirs, const char *lang, struct quiz_bank **out)
{
	struct quiz_bank *b = wb_xcalloc(1, sizeof *b);
	b->lang = wb_xstrdup(lang);
	size_t qcap = 0, fcap = 0;
	for (size_t d = 0; d < ndirs; d++) {
		if (!dirs[d])
			continue;
		char *folder = wb_xasprintf("%s/%s", dirs[d], lang);
		char **files;
		size_t nf = list_md(folder, &files);
		free(folder);
		for (size_t i = 0; i < nf; i++) {
			struct quiz_file *f = NULL;
			int rc = quiz_load_file(files[i], lang, &f);
			if (rc == WB_ERANGE)
				b->refused++;
			if (rc == 0) {
				if (b->nfiles == fcap) {
					fcap = fcap ? fcap * 2 : 8;
					b->files = wb_xrealloc(b->files, fcap * sizeof *b->files);
				}
				b->files[b->nfiles++] = f;
				bank_take(b, f, &qcap);
			}
			free(files[i]);
		}
		free(files);
	}
	*out = b;
	return 0;
}

void quiz_bank_free(struct quiz_bank *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nfiles; i++)
		quiz_file_free(b->files[i]);
	free(b->files);
	free(b->q);
	free(b->slots);
	free(b->lang);
	free(b);
}

const struct quiz_question *quiz_bank_find(const struct quiz_bank *b, const char *id)
{
	if (!id || !b->nslots)
		return NULL;
	size_t s = *slot_of(b, id);
	return s ? b->q[s - 1] : NULL;
}

size_t quiz_bank_chapter(const struct quiz_bank *b, const char *chapter,
			 const struct quiz_question ***out)
{
	*out = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < b->n; i++) {
		if (strcmp(b->q[i]->file->chapter, chapter) != 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			*out = wb_xrealloc(*out, cap * sizeof **out);
		}
		(*out)[n++] = b->q[i];
	}
	return n;
}

size_t quiz_bank_core(const struct quiz_bank *b, const char *chapter,
		      const struct quiz_question ***out)
{
	if (out)
		*out = NULL;
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++) {
		if (!b->q[i]->core || strcmp(b->q[i]->file->chapter, chapter) != 0)
			continue;
		if (out) {
			*out = wb_xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n] = b->q[i];
		}
		n++;
	}
	return n;
}

size_t quiz_bank_chapters(const struct quiz_bank *b, const char ***out)
{
	*out = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < b->n; i++) {
		const char *c = b->q[i]->file->chapter;
		/* Questions come file by file, and a file is one chapter. */
		if (i > 0 && b->q[i - 1]->file == b->q[i]->file)
			continue;
		size_t k = 0;
		while (k < n && strcmp((*out)[k], c) != 0)
			k++;
		if (k < n)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*out = wb_xrealloc(*out, cap * sizeof **out);
		}
		(*out)[n++] = c;
	}
	if (n)
		qsort(*out, n, sizeof **out, cmp_str);
	return n;
}

char *quiz_instructor_dir(const char *explicit_dir)
{
	if (explicit_dir && *explicit_dir)
		return wb_xstrdup(explicit_dir);
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg)
		return wb_xasprintf("%s/workbench/quizzes", xdg);
	const char *home = getenv("HOME");
	return wb_xasprintf("%s/.local/share/workbench/quizzes", home && *home ? home : ".");
}

size_t quiz_bank_dirs(const char *content_root, const char *instructor_dir, char *dirs[2])
{
	size_t n = 0;
	if (content_root)
		dirs[n++] = wb_xasprintf("%s/quizzes", content_root);
	if (instructor_dir)
		dirs[n++] = wb_xstrdup(instructor_dir);
	return n;
}

int quiz_bank_open(const char *content_root, const char *instructor_dir, const char *lang,
		   struct quiz_bank **out)
{
	char *dirs[2] = {NULL, NULL};
	size_t n = quiz_bank_dirs(content_root, instructor_dir, dirs);
	int rc = quiz_bank_load((const char *const *)dirs, n, lang, out);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	return rc;
}

const char *quiz_grade_key(int grade)
{
	switch (grade) {
	case GRADE_AGAIN: return "again";
	case GRADE_PARTLY: return "partly";
	case GRADE_GOT: return "got";
	}
	return "";
}

int quiz_grade_parse(const char *s)
{
	if (!s)
		return 0;
	if (!strcmp(s, "again") || !strcmp(s, "1"))
		return GRADE_AGAIN;
	if (!strcmp(s, "partly") || !strcmp(s, "2"))
		return GRADE_PARTLY;
	if (!strcmp(s, "got") || !strcmp(s, "3"))
		return GRADE_GOT;
	return 0;
}

/* ---- grading ---- */

int quiz_grade_choice(const struct quiz_question *q, const unsigned char *picked)
{
	for (size_t i = 0; i < q->noptions; i++)
		if ((picked[i] != 0) != (q->options[i].correct != 0))
			return 0;
	return 1;
}

/* ---- exact decimals (numeric grading) ---- */

/* A decimal number held exactly: (-1)^neg * d[0..n) * 10^exp, with no
 * leading or trailing zeros in d (zero: n = 0).  Answers, tolerances and
 * learners' inputs are compared in this form, never in binary floating
 * point, so 2147483648 is not 2147483647 and 0.3 - 0.2 is 0.1. */
enum { DEC_DIGITS = 80, DEC_SPAN = 400 };
struct dec {
	int neg, n;
	long exp;
	unsigned char d[DEC_DIGITS];
};

/* Reads the exponent of "e[+-]digits" at *s into *e (magnitude capped).
 * Returns 0 when no digit follows. */
static int dec_exponent(const char **s, long *e)
{
	const char *p = *s + 1;
	int neg = *p == '-';
	if (*p == '+' || *p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	long v = 0;
	for (; isdigit((unsigned char)*p); p++)
		if (v < 100000)
			v = v * 10 + (*p - '0');
	*e = neg ? -v : v;
	*s = p;
	return 1;
}

/* Parses [+-]digits[.digits][e[+-]digits] (surrounding blanks allowed)
 * exactly into *x.  Returns 0 when s is not such a number or has more
 * than DEC_DIGITS significant digits. */
static int dec_parse(const char *s, struct dec *x)
{
	memset(x, 0, sizeof *x);
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		x->neg = *s++ == '-';
	int digits = 0, point = 0;
	long frac = 0;
	for (; isdigit((unsigned char)*s) || (*s == '.' && !point); s++) {
		if (*s == '.') {
			point = 1;
			continue;
		}
		digits++;
		frac += point;
		if (x->n == 0 && *s == '0')
			continue;
		if (x->n == DEC_DIGITS)
			return 0;
		x->d[x->n++] = (unsigned char)(*s - '0');
	}
	long e = 0;
	if (!digits || ((*s == 'e' || *s == 'E') && !dec_exponent(&s, &e)))
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		return 0;
	x->exp = e - frac;
	while (x->n && x->d[x->n - 1] == 0) {
		x->n--;
		x->exp++;
	}
	if (!x->n)
		x->neg = 0, x->exp = 0;
	return 1;
}

/* The shortest decimal that reads back as v (exact for any value written
 * with at most 15 significant digits). */
static void dec_of_double(double v, struct dec *x)
{
	char buf[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	dec_parse(buf, x);
}

/* x's digits at weights 10^lo .. 10^(lo+w-1), least significant first. */
static void dec_spread(const struct dec *x, long lo, int w, unsigned char *out)
{
	memset(out, 0, (size_t)w);
	for (int i = 0; i < x->n; i++)
		out[x->exp + (x->n - 1 - i) - lo] = x->d[i];
}

static int mag_cmp(const unsigned char *a, const unsigned char *b, int w)
{
	for (int i = w - 1; i >= 0; i--)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* r = a + b (sign 1) or a - b (sign -1, a >= b), w digits. */
static void mag_addsub(const unsigned char *a, const unsigned char *b, int sign, int w,
		       unsigned char *r)
{
	int carry = 0;
	for (int i = 0; i < w; i++) {
		int v = a[i] + sign * b[i] + carry;
		carry = v >= 10 ? 1 : v < 0 ? -1 : 0;
		r[i] = (unsigned char)(v - 10 * carry);
	}
}

/* 1 when |a - b| <= t, 0 when not, -1 when the numbers are too far apart
 * in scale to compare digit by digit. */
static int dec_within(const struct dec *a, const struct dec *b, const struct dec *t)
{
	const struct dec *all[] = {a, b, t};
	long lo = 0, hi = 0;
	int any = 0;
	for (int i = 0; i < 3; i++) {
		if (!all[i]->n)
			continue;
		long l = all[i]->exp, h = all[i]->exp + all[i]->n;
		lo = !any || l < lo ? l : lo;
		hi = !any || h > hi ? h : hi;
		any = 1;
	}
	if (!any)
		return 1;
	if (hi - lo + 1 > DEC_SPAN)
		return -1;
	int w = (int)(hi - lo + 1);
	unsigned char A[DEC_SPAN], B[DEC_SPAN], T[DEC_SPAN], D[DEC_SPAN];
	dec_spread(a, lo, w, A);
	dec_spread(b, lo, w, B);
	dec_spread(t, lo, w, T);
	if (a->neg != b->neg)
		mag_addsub(A, B, 1, w, D);
	else if (mag_cmp(A, B, w) >= 0)
		mag_addsub(A, B, -1, w, D);
	else
		mag_addsub(B, A, -1, w, D);
	return mag_cmp(D, T, w) <= 0;
}

int quiz_grade_numeric(const struct quiz_question *q, const char *input, double *value)
{
	struct wb_buf b = {0};
	for (const char *s = input; *s; s++)
		if (*s != ' ' && *s != ',' && *s != '_' && *s != '\t')
			wb_buf_append(&b, s, 1);
	char *clean = wb_buf_steal(&b);
	double v;
	struct dec given, want, tol;
	int ok = quiz_parse_number(clean, &v);
	int exact = ok && dec_parse(clean, &given);
	free(clean);
	if (!ok)
		return WB_EINVAL;
	if (value)
		*value = v;
	/* Only the tolerance the bank gives: no hidden slack.  The answer is
	 * compared as written; the tolerance is a short decimal, read back
	 * from its double exactly. */
	if (!q->num_text || !dec_parse(q->num_text, &want))
		dec_of_double(q->number, &want);
	dec_of_double(q->tolerance, &tol);
	int r = exact ? dec_within(&given, &want, &tol) : -1;
	return r >= 0 ? r : fabs(v - q->number) <= q->tolerance;
}

int quiz_suggest_grade(const struct quiz_question *q, const unsigned char *ticked, int *points)
{
	int pts = 0;
	size_t n = 0;
	for (size_t i = 0; i < q->nrubric; i++)
		if (ticked[i]) {
			pts += q->rubric[i].points;
			n++;
		}
	if (points)
		*points = pts;
	if (q->nrubric && n == q->nrubric)
		return GRADE_GOT;
	return n ? GRADE_PARTLY : GRADE_AGAIN;
}
