/* test_catalog.c - the one lab catalogue (labs/catalog.def) against
 * everything that names a lab: the registry (every row has a run
 * function, ids unique and sorted), the lessons in both languages (every
 * id embedded in a ```lab card exists; every lab is embedded, and exactly
 * in the chapters its row lists), the chapters (a lesson file per
 * language), the source tree (the recipe file exists and defines the
 * recipe function), and core's view of it (labcat_init, the one
 * "runnable" predicate). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>

#include "base/wb.h"
#include "core/labcat.h"
#include "core/exercise_ws.h"
#include "core/lessonlint.h"
#include "exercise.h"
#include "lab.h"

#define MAX_LABS 64

static const char *const langs[] = {"en", "zh"};

/* embedded[lang][lab]: chapter numbers seen, as "01,02". */
static char embedded[2][MAX_LABS][64];
static int cur_lang;
static char cur_chapter[3];
static int lint_errors;

static size_t lab_index(const char *id)
{
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(labs[i]->id, id))
			return i;
	return (size_t)-1;
}

/* lessonlint asks this for every embedded id it found in the catalogue. */
static int record(const char *id)
{
	size_t i = lab_index(id);
	assert_true(i < MAX_LABS);
	char *seen = embedded[cur_lang][i];
	if (!strstr(seen, cur_chapter)) {
		size_t l = strlen(seen);
		snprintf(seen + l, sizeof embedded[0][0] - l, "%s%s", l ? "," : "", cur_chapter);
	}
	return 1;
}

static void on_lint(void *arg, enum lint_level level, const char *file, int line, int col,
		    const char *msg)
{
	(void)col;
	(void)arg;
	if (level == LINT_ERROR)
		lint_errors++;
	print_error("%s:%d: %s\n", file, line, msg);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lints every lessons/<lang>/NN-name.md, in name order, recording embedded ids. */
static void scan_lessons(void)
{
	for (int k = 0; k < 2; k++) {
		char *dir = wb_xasprintf("%s/lessons/%s", WB_SOURCE_DIR, langs[k]);
		DIR *d = opendir(dir);
		assert_non_null(d);
		char *names[64];
		int n = 0;
		struct dirent *e;
		while ((e = readdir(d)) && n < 64) {
			size_t l = strlen(e->d_name);
			if (l > 3 && !strcmp(e->d_name + l - 3, ".md"))
				names[n++] = wb_xstrdup(e->d_name);
		}
		closedir(d);
		qsort(names, (size_t)n, sizeof names[0], by_name);
		assert_true(n > 0);
		for (int i = 0; i < n; i++) {
			char *path = wb_xasprintf("%s/%s", dir, names[i]);
			char *text;
			size_t len;
			assert_int_equal(wb_read_file(path, &text, &len), 0);
			cur_lang = k;
			snprintf(cur_chapter, sizeof cur_chapter, "%.2s", names[i]);
			lessonlint_text(path, text, len, record, 1, on_lint, NULL);
			free(text);
			free(path);
			free(names[i]);
		}
		free(dir);
	}
}

static struct labcat_entry cat[MAX_LABS];
static struct excat_entry excat[MAX_LABS];

static int setup(void **state)
{
	(void)state;
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	if (n > MAX_LABS)
		return -1;
	for (size_t i = 0; i < n; i++)
		cat[i] = (struct labcat_entry){labs[i]->id, labs[i]->chapters, labs[i]->title_en,
					       labs[i]->title_zh, 1};
	labcat_init(cat, n);
	/* the exercise catalogue, as main.c installs it: exercise cards */
	size_t nex;
	const struct exercise *const *ex = ex_all(&nex);
	if (nex > MAX_LABS)
		return -1;
	for (size_t i = 0; i < nex; i++)
		excat[i] = (struct excat_entry){
			ex[i]->id,   ex[i]->chapter,  ex[i]->lab,     ex_lang_name(ex[i]->lang),
			ex[i]->file, ex[i]->title_en, ex[i]->title_zh};
	excat_init(excat, nex);
	scan_lessons();
	return 0;
}

static void test_registry(void **state)
{
	(void)state;
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	assert_int_equal(n, 20); /* docs/architecture.md §5 */
	assert_null(labs[n]);
	for (size_t i = 0; i < n; i++) {
		const struct lab *l = labs[i];
		assert_non_null(l->run);
		assert_non_null(*l->run);
		assert_ptr_equal(lab_find(l->id), l);
		if (i > 0)
			assert_true(strcmp(labs[i - 1]->id, l->id) < 0); /* sorted, unique */
		assert_true(strlen(l->title_en) > 10);
		assert_true(strlen(l->title_zh) > 10);
		assert_string_not_equal(l->title_en, l->title_zh);
		assert_string_equal(lab_title(l, "zh"), l->title_zh);
		assert_string_equal(lab_title(l, "en"), l->title_en);
		assert_true(l->needs < (LAB_NEEDS_PROCCTL << 1));
	}
	assert_null(lab_find("no-such-lab"));
}

static void test_lessons_embed_the_catalogue(void **state)
{
	(void)state;
	assert_int_equal(lint_errors, 0); /* every embedded id is in the catalogue */
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < n; i++) {
			if (strcmp(embedded[k][i], labs[i]->chapters) != 0)
				print_error("%s: catalogue says chapters %s, %s lessons embed it "
					    "in '%s'\n",
					    labs[i]->id, labs[i]->chapters, langs[k],
					    embedded[k][i]);
			assert_string_equal(embedded[k][i], labs[i]->chapters);
		}
}

static void test_chapters_exist(void **state)
{
	(void)state;
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	for (size_t i = 0; i < n; i++) {
		const char *c = labs[i]->chapters;
		assert_true(strlen(c) >= 2);
		for (const char *p = c; *p;) {
			assert_true(p[0] >= '0' && p[0] <= '9' && p[1] >= '0' && p[1] <= '9');
			for (int k = 0; k < 2; k++) {
				char *dir = wb_xasprintf("%s/lessons/%s", WB_SOURCE_DIR, langs[k]);
				DIR *d = opendir(dir);
				assert_non_null(d);
				struct dirent *e;
				int found = 0;
				while ((e = readdir(d)))
					found |= !strncmp(e->d_name, p, 2) && e->d_name[2] == '-';
				closedir(d);
				free(dir);
				assert_true(found);
			}
			p += 2;
			if (*p == ',')
				p++;
			else
				assert_int_equal(*p, '\0');
		}
	}
}

static void test_recipe_sources(void **state)
{
	(void)state;
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	for (size_t i = 0; i < n; i++) {
		const struct lab *l = labs[i];
		assert_non_null(l->recipe_file);
		assert_non_null(l->recipe_func);
		assert_int_equal(strncmp(l->recipe_file, "labs/", 5), 0); /* installed with labs/ */
		char *path = wb_xasprintf("%s/%s", WB_SOURCE_DIR, l->recipe_file);
		char *text;
		size_t len;
		if (wb_read_file(path, &text, &len) != 0)
			fail_msg("%s: recipe file %s does not exist", l->id, path);
		char *call = wb_xasprintf("%s(", l->recipe_func);
		if (!strstr(text, call))
			fail_msg("%s: %s has no %s", l->id, l->recipe_file, call);
		free(call);
		free(text);
		free(path);
	}
}

static void test_core_view(void **state)
{
	(void)state;
	size_t n, m;
	lab_all(&n);
	const struct labcat_entry *all = labcat_all(&m);
	assert_int_equal(m, n);
	for (size_t i = 0; i < m; i++) {
		assert_ptr_equal(labcat_find(all[i].id), &all[i]);
		assert_true(labcat_runnable(all[i].id));
		assert_string_equal(labcat_summary(&all[i], "zh"), all[i].title_zh);
	}
	assert_false(labcat_runnable("no-such-lab"));
	assert_null(labcat_find(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_lessons_embed_the_catalogue),
		cmocka_unit_test(test_chapters_exist),
		cmocka_unit_test(test_recipe_sources),
		cmocka_unit_test(test_core_view),
	};
	return cmocka_run_group_tests_name("catalog", tests, setup, NULL);
}
