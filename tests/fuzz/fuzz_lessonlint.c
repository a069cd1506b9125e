/*
 * fuzz_lessonlint.c - libFuzzer target for `lesson lint`
 * (core/lessonlint.c): the checks of one file and the checks across
 * files (heading anchors, links, [[term]]s, the glossary, en/zh parity).
 *
 * The input up to its first NUL is an en chapter, the rest (if any) the
 * en glossary; both are targets, and the chapter is given again as the
 * zh version (context only), so the parity checks run.  Files are not
 * written: lessonlint_set reads nothing but ```timeline histories, which
 * name files that do not exist here (fuzz_lessontimeline covers those).
 * Aborts when a problem is reported without a message or at a line
 * outside its file (1 to the number of line breaks + 1), or when the
 * error count returned differs from the errors reported.  run.sh gives
 * it inputs up to 1 MiB, so nesting reaches the depths that overflowed
 * the stack (review r3 N4: 80,000 '>').
 */
#include "core/exercise_ws.h"
#include "core/labcat.h"
#include "core/lessonlint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct labcat_entry lab_table[] = {
	{"zk-cas", "01", "setData with an expected version", "带期望版本的 setData", 1},
	{"task-claim", "01", "Concurrent claimers", "并发认领", 0},
};
static const struct excat_entry exercises[] = {
	{"zk-lock-step", "01", "zk-cas", "c", "lockstep.c", "Lock step", "锁步"},
};

struct files {
	const char *name[3];
	size_t lines[3]; /* line breaks + 1 */
	int errors;
};

static size_t count_lines(const char *s, size_t n)
{
	size_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n' || s[i] == '\r';
	return lines;
}

static void report(void *arg, enum lint_level level, const char *file, int line, int col,
		   const char *msg)
{
	struct files *f = arg;
	(void)col;
	if (!msg || !*msg || line < 1)
		abort();
	int known = 0;
	for (int i = 0; i < 3; i++)
		if (f->name[i] && !strcmp(file, f->name[i])) {
			known = 1;
			if ((size_t)line > f->lines[i])
				abort();
		}
	if (!known)
		abort();
	if (level == LINT_ERROR)
		f->errors++;
}

static int built(const char *id)
{
	return !strcmp(id, "zk-cas");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (4u << 20) + 1024)
		return 0;
	labcat_init(lab_table, sizeof lab_table / sizeof lab_table[0]);
	excat_init(exercises, sizeof exercises / sizeof exercises[0]);
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t chapter = nul ? (size_t)(nul - text) : size;
	struct lessonlint_doc docs[3] = {
		{"/nonexistent/lessons/en/01-fuzz.md", "en", "01-fuzz.md", text, chapter, 1},
		{"/nonexistent/lessons/zh/01-fuzz.md", "zh", "01-fuzz.md", text, chapter, 0},
		{"/nonexistent/lessons/en/glossary.md", "en", "glossary.md", nul ? nul + 1 : "",
		 nul ? size - chapter - 1 : 0, 1},
	};
	size_t n = nul ? 3 : 2;
	struct files f = {{docs[0].file, docs[1].file, nul ? docs[2].file : NULL},
			  {count_lines(text, chapter), count_lines(text, chapter),
			   nul ? count_lines(docs[2].text, docs[2].len) : 0},
			  0};
	struct lessonlint_opts o = {built, size & 1, (size >> 1) & 1};
	int errors = lessonlint_set(docs, n, &o, report, &f);
	if (errors != f.errors)
		abort();
	return 0;
}
