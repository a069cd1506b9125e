/*
 * main.c - argument parsing and dispatch only.
 *
 * Global flags may appear before or after the command words; "--" ends
 * flag parsing.  Each command lives in cli/ and is listed in one table.
 */
#include "app.h"
#include "core/content.h"
#include "core/layout.h"
#include "core/store.h"
#include "core/labcat.h"
#include "core/quiz.h"
#include "base/wb.h"
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct command commands[] = {
	{"lessons", NULL, "", "list chapters with their ids and titles", cli_lessons},
	{"lesson", "lint", "[PATH...]", "check lessons: title, lab ids (file:line: message)",
	 cli_lesson_lint},
	{"lesson", "show", "ID [--width N]", "print a chapter as laid out by the reader",
	 cli_lesson_show},
	{"lab", NULL, "list|run ID [--json] [--zk HOST:PORT]",
	 "list labs, or run one (exit 0 pass, 1 fail, 2 could not run)", cli_lab},
	{"zk-lock", NULL, "--zk H:P --path /locks/N [--wait S] -- CMD...",
	 "run CMD while holding a ZooKeeper lock (flock for ZooKeeper)", cli_zk_lock},
	{"quiz", NULL, "lint|new|list|stats|run|export ...",
	 "question banks and plain-text self-tests (workbench quiz help)", cli_quiz},
	{"progress", NULL, "export|import ...",
	 "export graded answers (csv/json) or merge an export", cli_progress},
};

/* Hands core the lab catalogue (labs/catalog.def, through the registry):
 * core cannot include labs/.  Every registered lab has a run function, so
 * it is runnable in this build.  The caller frees the table at exit. */
static struct labcat_entry *labcat_from_registry(void)
{
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	struct labcat_entry *cat = wb_xcalloc(n ? n : 1, sizeof *cat);
	for (size_t i = 0; i < n; i++)
		cat[i] = (struct labcat_entry){labs[i]->id, labs[i]->chapters, labs[i]->title_en,
					       labs[i]->title_zh, labs[i]->run && *labs[i]->run};
	labcat_init(cat, n);
	return cat;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: workbench [OPTIONS] [COMMAND ...]\n"
		   "\n"
		   "With no command, opens the interactive workbench.\n"
		   "\n"
		   "Commands:\n");
	for (size_t i = 0; i < WB_ARRAY_LEN(commands); i++) {
		char words[64];
		snprintf(words, sizeof words, "%s%s%s %s", commands[i].name,
			 commands[i].sub ? " " : "", commands[i].sub ? commands[i].sub : "",
			 commands[i].usage);
		fprintf(f, "  %-28s %s\n", words, commands[i].help);
	}
	fprintf(f, "\n"
		   "Options:\n"
		   "  --lang en|zh       language (default: from LC_ALL/LANG)\n"
		   "  --content DIR      read lessons/ and quizzes/ from DIR\n"
		   "  --quizzes DIR      the instructor's question banks (DIR/<lang>/*.md;\n"
		   "                     default $XDG_DATA_HOME/workbench/quizzes)\n"
		   "  --db PATH          progress database (default: $WORKBENCH_DB or\n"
		   "                     $XDG_DATA_HOME/workbench/progress.db)\n"
		   "  --width N          layout width for `lesson show`\n"
		   "  -h, --help         this help\n"
		   "  -V, --version      version\n");
}

/* Takes the value of --flag VALUE or --flag=VALUE; NULL when missing. */
static const char *flag_value(int argc, char **argv, int *i, const char *flag)
{
	size_t n = strlen(flag);
	if (!strncmp(argv[*i], flag, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], flag)) {
		if (*i + 1 >= argc)
			return NULL;
		return argv[++*i];
	}
	return NULL;
}

static int is_flag(const char *arg, const char *flag)
{
	size_t n = strlen(flag);
	return !strncmp(arg, flag, n) && (arg[n] == '\0' || arg[n] == '=');
}

int main(int argc, char **argv)
{
	struct app app = {0};
	struct labcat_entry *catalogue = NULL;
	const char *content = NULL, *lang = NULL, *db = NULL, *quizzes = NULL;
	char **rest = wb_xcalloc((size_t)argc + 1, sizeof *rest);
	int nrest = 0, rc = EXIT_OK;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			/* After a command word, "--" belongs to the command
			 * (zk-lock ... -- CMD): pass it on. */
			if (nrest > 0)
				rest[nrest++] = argv[i];
			while (++i < argc)
				rest[nrest++] = argv[i];
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			goto out;
		}
		if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("workbench %s\n", WB_VERSION);
			goto out;
		}
		const char **slot = is_flag(a, "--lang")      ? &lang
				    : is_flag(a, "--content") ? &content
				    : is_flag(a, "--quizzes") ? &quizzes
				    : is_flag(a, "--db")      ? &db
							      : NULL;
		if (slot || is_flag(a, "--width")) {
			const char *flag = slot == &lang      ? "--lang"
					   : slot == &content ? "--content"
					   : slot == &quizzes ? "--quizzes"
					   : slot == &db      ? "--db"
							      : "--width";
			const char *v = flag_value(argc, argv, &i, flag);
			if (!v || !*v) {
				fprintf(stderr, "workbench: %s needs a value\n", flag);
				rc = EXIT_USAGE;
				goto out;
			}
			if (slot) {
				*slot = v;
			} else {
				char *end;
				long w = strtol(v, &end, 10);
				if (*end || w < LAYOUT_MIN_WIDTH || w > 1000) {
					fprintf(stderr,
						"workbench: --width must be a number from %d to "
						"1000, got '%s'\n",
						LAYOUT_MIN_WIDTH, v);
					rc = EXIT_USAGE;
					goto out;
				}
				app.width = (int)w;
			}
			continue;
		}
		if (a[0] == '-' && a[1] && nrest == 0) {
			fprintf(stderr, "workbench: unknown option '%s' (see workbench --help)\n",
				a);
			rc = EXIT_USAGE;
			goto out;
		}
		rest[nrest++] = argv[i];
	}

	if (lang && !content_lang_ok(lang)) {
		fprintf(stderr, "workbench: --lang must be 'en' or 'zh', got '%s'\n", lang);
		rc = EXIT_USAGE;
		goto out;
	}
	catalogue = labcat_from_registry();
	app.lang = content_pick_lang(lang);
	app.lang_explicit = lang != NULL;
	app.content = content_root(content);
	app.quizzes = quiz_instructor_dir(quizzes);
	app.db_path = store_default_path(db);

	if (nrest == 0) {
		rc = tui_main(&app);
		goto out;
	}
	for (size_t i = 0; i < WB_ARRAY_LEN(commands); i++) {
		const struct command *c = &commands[i];
		if (strcmp(rest[0], c->name) != 0)
			continue;
		if (c->sub && (nrest < 2 || strcmp(rest[1], c->sub) != 0))
			continue;
		int words = c->sub ? 2 : 1;
		rc = c->run(&app, nrest - words, rest + words);
		goto out;
	}
	fprintf(stderr, "workbench: unknown command '%s%s%s' (see workbench --help)\n", rest[0],
		nrest > 1 ? " " : "", nrest > 1 ? rest[1] : "");
	rc = EXIT_USAGE;
out:
	free(rest);
	labcat_init(NULL, 0);
	free(catalogue);
	free(app.content);
	free(app.quizzes);
	free(app.db_path);
	return rc;
}
