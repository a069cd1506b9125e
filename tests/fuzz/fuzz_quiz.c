/*
 * fuzz_quiz.c - libFuzzer target for the question bank parser, the
 * single-file lint checks and the bank loader.
 *
 * The first byte picks the language (bit 0: en/zh) and the file name
 * (bit 1: a chapter name "00-fuzz.md", which gives the chapter, or
 * "bank.md", which needs a chapter comment); the rest is the bank.  When
 * the rest holds a line "=====", what follows it is the same chapter's
 * bank in the other language (for the translation checks); otherwise
 * the other language gets the same text.
 *
 * Aborts when the parser breaks what quizfile.h promises: problems in line
 * order with a line inside the file, a question without errors that has
 * no valid id, no answer, or is not complete for its kind (recall: a
 * rubric whose points sum to max_points; choice: two options, one
 * correct; numeric: a finite number and a tolerance >= 0), or grading
 * that rejects the question's own right answer.  The lint report must
 * count its errors and warnings right and contain every parse error;
 * a bank built from the files may only hold error-free questions with
 * distinct ids.
 *
 * It does not check the wording of messages or the cross-file checks
 * against a lesson folder (content_root is NULL).
 */
#include "core/quizbank.h"
#include "core/quizlint.h"
#include "base/wb.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64]; /* a private folder with en/ and zh/ */

static void remove_root(void)
{
	char sub[96];
	const char *const langs[] = {"en", "zh"};
	const char *const names[] = {"00-fuzz.md", "bank.md"};
	for (size_t i = 0; i < 2; i++) {
		for (size_t k = 0; k < 2; k++) {
			snprintf(sub, sizeof sub, "%s/%s/%s", root, langs[i], names[k]);
			unlink(sub);
		}
		snprintf(sub, sizeof sub, "%s/%s", root, langs[i]);
		rmdir(sub);
	}
	rmdir(root);
}

static void make_root(void)
{
	if (root[0])
		return;
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(root, sizeof root, "%s/fuzz_quiz-XXXXXX", base);
	if (!mkdtemp(root))
		abort();
	char sub[96];
	snprintf(sub, sizeof sub, "%s/en", root);
	if (wb_mkdir_p(sub, 0700) != 0)
		abort();
	snprintf(sub, sizeof sub, "%s/zh", root);
	if (wb_mkdir_p(sub, 0700) != 0)
		abort();
	atexit(remove_root);
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		abort();
}

/* Lines as cmark-gfm (and so the parser) numbers them: "\n", "\r\n" or a
 * lone "\r" ends a line. */
static int count_lines(const char *text, size_t len)
{
	int n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'));
	return n;
}

static void check_question(const struct quiz_file *f, const struct quiz_question *q, int nlines,
			   const uint8_t *pick, size_t npick)
{
	if (q->file != f || !q->text || !q->body || q->line < 1 || q->line > nlines ||
	    q->errors < 0)
		abort();
	if (q->id && !quiz_valid_id(q->id))
		abort();
	if (q->answer_line && (q->answer_line <= q->line || q->answer_line > nlines))
		abort();
	for (size_t i = 0; i < q->noptions; i++)
		if (!q->options[i].text || q->options[i].line < q->line ||
		    q->options[i].line > nlines)
			abort();
	long long sum = 0;
	for (size_t i = 0; i < q->nrubric; i++) {
		if (!q->rubric[i].text || q->rubric[i].points <= 0 || q->rubric[i].line < q->line)
			abort();
		sum += q->rubric[i].points;
	}
	if (q->errors)
		return;
	/* A question that can enter a bank is complete. */
	if (!q->id || !q->answer || !*q->answer || !q->answer_line || !*q->text)
		abort();
	unsigned char *marks = calloc(q->noptions + q->nrubric + 1, 1);
	int points = -1;
	switch (q->kind) {
	case QK_RECALL:
		if (q->nrubric == 0 || q->max_points != sum)
			abort();
		if (quiz_suggest_grade(q, marks, &points) != GRADE_AGAIN || points != 0)
			abort();
		for (size_t i = 0; i < q->nrubric; i++)
			marks[i] = i < npick ? pick[i] & 1 : 0;
		if (quiz_suggest_grade(q, marks, &points) < GRADE_AGAIN || points < 0 ||
		    points > q->max_points)
			abort();
		memset(marks, 1, q->nrubric);
		if (quiz_suggest_grade(q, marks, &points) != GRADE_GOT || points != q->max_points)
			abort();
		break;
	case QK_CHOICE: {
		size_t right = 0;
		for (size_t i = 0; i < q->noptions; i++)
			right += q->options[i].correct != 0;
		if (q->noptions < 2 || right == 0 || q->max_points != 1)
			abort();
		for (size_t i = 0; i < q->noptions; i++)
			marks[i] = i < npick ? pick[i] & 1 : 0;
		if (quiz_grade_choice(q, marks) < 0 || quiz_grade_choice(q, marks) > 1)
			abort();
		for (size_t i = 0; i < q->noptions; i++)
			marks[i] = q->options[i].correct != 0;
		if (quiz_grade_choice(q, marks) != 1)
			abort();
		break;
	}
	case QK_NUMERIC: {
		if (!q->has_number || !isfinite(q->number) || !(q->tolerance >= 0) ||
		    !isfinite(q->tolerance) || q->max_points != 1)
			abort();
		char exact[64];
		snprintf(exact, sizeof exact, "%.17g", q->number);
		double v;
		if (quiz_grade_numeric(q, exact, &v) != 1)
			abort();
		int g = quiz_grade_numeric(q, q->text, NULL);
		if (g != 0 && g != 1 && g != WB_EINVAL)
			abort();
		break;
	}
	default: abort();
	}
	free(marks);
}

static void check_file(const struct quiz_file *f, const char *text, size_t len, const uint8_t *pick,
		       size_t npick)
{
	int nlines = count_lines(text, len);
	if (!f->path || !f->lang)
		abort();
	for (size_t i = 0; i < f->nproblems; i++) {
		const struct quiz_problem *p = &f->problems[i];
		if (p->line < 1 || p->line > nlines || !p->msg || !*p->msg)
			abort();
		if (i > 0 && p->line < f->problems[i - 1].line)
			abort();
	}
	for (size_t i = 0; i < f->nq; i++)
		check_question(f, &f->q[i], nlines, pick, npick);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > (1u << 20))
		return 0;
	make_root();
	const char *lang = (data[0] & 1) ? "zh" : "en", *other = (data[0] & 1) ? "en" : "zh";
	const char *name = (data[0] & 2) ? "bank.md" : "00-fuzz.md";
	const char *text = (const char *)data + 1;
	size_t len = size - 1, olen = len;
	const char *otext = text;
	for (size_t i = 0; i + 6 <= len; i++)
		if ((i == 0 || text[i - 1] == '\n') && !memcmp(text + i, "=====", 5) &&
		    (text[i + 5] == '\n' || i + 5 == len)) {
			otext = text + i + 6 > text + len ? text + len : text + i + 6;
			olen = (size_t)(text + len - otext);
			len = i;
			break;
		}

	/* In memory. */
	char path[160];
	snprintf(path, sizeof path, "%s/%s/%s", root, lang, name);
	struct quiz_file *f = NULL;
	if (quiz_parse(path, lang, text, len, &f) != 0)
		abort();
	check_file(f, text, len, data, size);

	/* The same text through the files: lint and a bank. */
	char opath[160];
	snprintf(opath, sizeof opath, "%s/%s/%s", root, other, name);
	write_file(path, text, len);
	write_file(opath, otext, olen);
	const char *targets[] = {path}, *context[] = {opath, path};
	struct quizlint_report r;
	if (quizlint_run(NULL, "en", targets, 1, context, 2, &r) != 0)
		abort();
	int errors = 0, warnings = 0;
	for (size_t i = 0; i < r.n; i++) {
		const struct quizlint_msg *m = &r.m[i];
		if (!m->file || strcmp(m->file, path) != 0 || m->line < 1 || !m->msg || !*m->msg)
			abort();
		if (i > 0 && m->line < r.m[i - 1].line)
			abort();
		errors += m->is_error != 0;
		warnings += m->is_error == 0;
	}
	int parse_errors = 0;
	for (size_t i = 0; i < f->nproblems; i++)
		parse_errors += f->problems[i].is_error;
	if (errors != r.errors || warnings != r.warnings || r.errors < parse_errors)
		abort();
	quizlint_report_free(&r);

	const char *dirs[] = {root};
	struct quiz_bank *b = NULL;
	if (quiz_bank_load(dirs, 1, lang, &b) != 0 || b->nfiles != 1)
		abort();
	for (size_t i = 0; i < b->n; i++) {
		const struct quiz_question *q = b->q[i];
		if (q->errors || !q->id || !q->file->chapter || quiz_bank_find(b, q->id) != q)
			abort();
	}
	const char **chapters = NULL;
	size_t nch = quiz_bank_chapters(b, &chapters);
	size_t total = 0;
	for (size_t i = 0; i < nch; i++) {
		const struct quiz_question **qs = NULL;
		total += quiz_bank_chapter(b, chapters[i], &qs);
		free(qs);
	}
	if (total != b->n)
		abort();
	free(chapters);
	quiz_bank_free(b);
	quiz_file_free(f);
	unlink(path);
	unlink(opath);
	return 0;
}
