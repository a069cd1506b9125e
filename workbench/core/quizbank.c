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

int quiz_grade_numeric(const struct quiz_question *q, const char *input, double *value)
{
	struct wb_buf b = {0};
	for (const char *s = input; *s; s++)
		if (*s != ' ' && *s != ',' && *s != '_' && *s != '\t')
			wb_buf_append(&b, s, 1);
	char *clean = wb_buf_steal(&b);
	double v;
	int ok = quiz_parse_number(clean, &v);
	free(clean);
	if (!ok)
		return WB_EINVAL;
	if (value)
		*value = v;
	/* A hair of slack for decimal answers that binary cannot hold exactly. */
	double slack = 1e-9 * fmax(1.0, fabs(q->number));
	return fabs(v - q->number) <= q->tolerance + slack;
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
