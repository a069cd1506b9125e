/*
 * main.c - global flags and dispatch only.
 *
 * Global flags may appear before or after the command words; "--" ends
 * flag parsing (after a command word it is passed on, for `zk-lock ... --
 * CMD`).  Every command is a descriptor in its own file under cli/, listed
 * in cli/commands.def; its options are parsed here from its template
 * before it runs, and `workbench CMD --help` (or `workbench help CMD`)
 * prints its usage.  A mistyped command, subcommand or option is a usage
 * error with a "did you mean" (cli/suggest.c).
 */
#include "app.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/suggest.h"
#include "core/content.h"
#include "core/layout.h"
#include "core/progress.h"
#include "core/sched.h"
#include "core/store.h"
#include "core/labcat.h"
#include "core/exercise_ws.h"
#include "core/textsafe.h"
#include "core/quizbank.h"
#include "base/wb.h"
#include "exercise.h"
#include "lab.h"
#include "tui/tui_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct command *const commands[] = {
#define WB_COMMAND(sym) &cmd_##sym,
#include "cli/commands.def"
#undef WB_COMMAND
};

/* The global flags; the rest of argv is command words and their args. */
static const struct args_spec global_args = {
	.opts = "-h|--help -V|-v|--version --lang= --content= --quizzes= --db= --width= "
		"--new-per-day= --day-starts=",
	.lower = 0,
	.upper = -1,
	.flags = ARGS_PASS_UNKNOWN,
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

/* Hands core the exercise catalogue (labs/exercises.def) the same way.
 * The caller frees the table at exit. */
static struct excat_entry *excat_from_registry(void)
{
	size_t n;
	const struct exercise *const *all = ex_all(&n);
	struct excat_entry *cat = wb_xcalloc(n ? n : 1, sizeof *cat);
	for (size_t i = 0; i < n; i++)
		cat[i] = (struct excat_entry){
			all[i]->id,   all[i]->chapter,	all[i]->lab,	 ex_lang_name(all[i]->lang),
			all[i]->file, all[i]->title_en, all[i]->title_zh};
	excat_init(cat, n);
	return cat;
}

/* One line per command (only those named name, unless NULL): words and
 * usage, then the help, on the next line when the words are long. */
static void print_commands(FILE *f, const char *name)
{
	for (size_t i = 0; i < WB_ARRAY_LEN(commands); i++) {
		const struct command *c = commands[i];
		if (name && strcmp(c->name, name) != 0)
			continue;
		char *words = wb_xasprintf("%s%s%s%s%s", c->name, c->sub ? " " : "",
					   c->sub ? c->sub : "", *c->usage ? " " : "", c->usage);
		if (strlen(words) <= 28)
			fprintf(f, "  %-28s %s\n", words, c->help);
		else
			fprintf(f, "  %s\n  %-28s %s\n", words, "", c->help);
		free(words);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: workbench [OPTIONS] [COMMAND ...]\n"
		   "\n"
		   "With no command, opens the interactive workbench.\n"
		   "\n"
		   "Commands (workbench COMMAND --help for one):\n");
	print_commands(f, NULL);
	fprintf(f, "\n"
		   "Options:\n"
		   "  --lang en|zh       language (default: from LC_ALL/LANG)\n"
		   "  --content DIR      read lessons/ and quizzes/ from DIR\n"
		   "  --quizzes DIR      the instructor's question banks (DIR/<lang>/*.md;\n"
		   "                     default $XDG_DATA_HOME/workbench/quizzes)\n"
		   "  --db PATH          progress database (default: $WORKBENCH_DB or\n"
		   "                     $XDG_DATA_HOME/workbench/progress.db)\n"
		   "  --width N          layout width for `lesson show`\n"
		   "  --new-per-day N    new questions a review may bring in per day (default 20)\n"
		   "  --day-starts HOUR  local hour at which a new day starts (default 4)\n"
		   "  -h, --help         this help (also: workbench help [COMMAND])\n"
		   "  -V, -v, --version  version (also: workbench version)\n");
}

/* " (did you mean 'x'?)" when one of cands[0..n) is close to word, else
 * "", into buf. */
static const char *did_you_mean(char *buf, size_t len, const char *word, const char *const *cands,
				size_t n)
{
	const char *near = suggest_closest(word, cands, n);
	if (near)
		snprintf(buf, len, " (did you mean '%s'?)", near);
	else if (len)
		buf[0] = '\0';
	return buf;
}

/* The command names (group names once), or with group the subcommands of
 * that group, into names[0..WB_ARRAY_LEN(commands) + 2); returns how many. */
static size_t command_words(const char *group, const char **names)
{
	size_t n = 0;
	if (!group) {
		names[n++] = "help";
		names[n++] = "version";
	}
	for (size_t i = 0; i < WB_ARRAY_LEN(commands); i++) {
		const char *w = group ? commands[i]->sub : commands[i]->name;
		if (group && (!w || strcmp(commands[i]->name, group) != 0))
			continue;
		int seen = 0;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp(names[k], w);
		if (!seen)
			names[n++] = w;
	}
	return n;
}

/* The subcommands of a group such as `quiz`. */
static void group_usage(FILE *f, const char *name)
{
	fprintf(f, "usage: workbench %s SUBCOMMAND ...\n", name);
	print_commands(f, name);
}

/* The command named by words[0] (and words[1] when it has a sub), with
 * *nwords set to how many words it took; NULL when none matches. */
static const struct command *find_command(int n, char **words, int *nwords)
{
	for (size_t i = 0; i < WB_ARRAY_LEN(commands); i++) {
		const struct command *c = commands[i];
		if (strcmp(words[0], c->name) != 0)
			continue;
		if (c->sub && (n < 2 || strcmp(words[1], c->sub) != 0))
			continue;
		*nwords = c->sub ? 2 : 1;
		return c;
	}
	return NULL;
}

static int is_group(const char *name)
{
	for (size_t i = 0; i < WB_ARRAY_LEN(commands); i++)
		if (commands[i]->sub && !strcmp(commands[i]->name, name))
			return 1;
	return 0;
}

/* The unknown-command message, with a "did you mean". */
static int unknown_command(const char *word)
{
	const char *names[WB_ARRAY_LEN(commands) + 2];
	char hint[96];
	size_t nn = command_words(NULL, names);
	fprintf(stderr, "workbench: unknown command '%s'%s; see workbench --help\n", word,
		did_you_mean(hint, sizeof hint, word, names, nn));
	return EXIT_USAGE;
}

/* `workbench WORDS... --help`: the command's usage, a group's
 * subcommands, or for unknown words the unknown-command error. */
static int command_help(int n, char **words)
{
	int nwords;
	const struct command *c = find_command(n, words, &nwords);
	if (c) {
		command_print_usage(c, 1, stdout);
	} else if (is_group(words[0])) {
		group_usage(stdout, words[0]);
	} else if (!strcmp(words[0], "help") || !strcmp(words[0], "version")) {
		usage(stdout);
	} else {
		return unknown_command(words[0]);
	}
	return EXIT_OK;
}

/* Words that start a group but name none of its subcommands. */
static int group_error(int n, char **words)
{
	if (n == 1) {
		group_usage(stderr, words[0]);
		return EXIT_USAGE;
	}
	if (!strcmp(words[1], "help")) {
		group_usage(stdout, words[0]);
		return EXIT_OK;
	}
	const char *subs[WB_ARRAY_LEN(commands) + 2];
	char hint[96];
	size_t ns = command_words(words[0], subs);
	fprintf(stderr, "workbench %s: unknown subcommand '%s'%s\n", words[0], words[1],
		did_you_mean(hint, sizeof hint, words[1], subs, ns));
	group_usage(stderr, words[0]);
	return EXIT_USAGE;
}

/* Parses the command's arguments by its template and runs it. */
/* Every command's output goes through the content sanitiser: banks and
 * lessons are files anyone can write, and what a command prints of them
 * (titles, questions, lint messages quoting a value) must never act on the
 * terminal (core/textsafe.h).  A data export (c->data_out) reaches a pipe
 * or a file byte for byte, and a terminal sanitised.  Not for the TUI:
 * curses writes to the terminal's descriptor itself and draws content
 * through the same rules (term.c, layout.c). */
static void sanitise_output(const struct command *c)
{
	static struct textsafe_stream out_state, err_state;
	int tty = isatty(STDOUT_FILENO);
	FILE *out = c->data_out && !tty
			    ? NULL
			    : textsafe_stream(&out_state, STDOUT_FILENO, tty ? _IOLBF : _IOFBF);
	FILE *err = textsafe_stream(&err_state, STDERR_FILENO, _IONBF);
	if (out)
		stdout = out;
	if (err)
		stderr = err;
}

static int run_command(struct app *app, int n, char **words)
{
	int nwords;
	const struct command *c = find_command(n, words, &nwords);
	if (!c && is_group(words[0]))
		return group_error(n, words);
	if (!c)
		return unknown_command(words[0]);
	struct args a;
	int rc;
	sanitise_output(c);
	int bad = args_parse(&c->args, n - nwords, words + nwords, &a) != 0;
	const char *near = bad && a.unknown ? args_suggest(&c->args, a.unknown) : NULL;
	if (near)
		rc = command_usage_error(c, "%s (did you mean '%s'?)", a.err, near);
	else if (bad)
		rc = command_usage_error(c, "%s", a.err);
	else
		rc = c->run(app, &a);
	args_free(&a);
	return rc;
}

/* A whole number lo..hi from a flag's value into *out; 0, or -1 with a
 * message. */
static int int_flag(const char *flag, const char *v, long lo, long hi, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < lo || n > hi) {
		fprintf(stderr, "workbench: %s must be a whole number from %ld to %ld, got '%s'\n",
			flag, lo, hi, v);
		return -1;
	}
	*out = (int)n;
	return 0;
}

/* --new-per-day and --day-starts into app and the review policy (core's
 * progress.h and sched.h).  Returns 0, or -1 after a message. */
static int schedule_options(const struct args *g, struct app *app)
{
	const char *v;
	app->new_per_day = ANSWERS_NEW_PER_DAY;
	app->day_starts = SCHED_DAY_START_DEF;
	if ((v = args_value(g, "--new-per-day")) &&
	    int_flag("--new-per-day", v, 0, 100000, &app->new_per_day) != 0)
		return -1;
	if ((v = args_value(g, "--day-starts")) &&
	    int_flag("--day-starts", v, 0, 23, &app->day_starts) != 0)
		return -1;
	answers_set_new_per_day(app->new_per_day);
	sched_set_day_start(app->day_starts);
	return 0;
}

/* Checks the global flags' values and fills app.  Returns -1 to go on,
 * or the exit code of a usage error. */
static int global_options(const struct args *g, struct app *app)
{
	static const char *const valued[] = {"--lang",	"--content",	 "--quizzes",	"--db",
					     "--width", "--new-per-day", "--day-starts"};
	for (size_t i = 0; i < WB_ARRAY_LEN(valued); i++) {
		const char *v = args_value(g, valued[i]);
		if (args_has(g, valued[i]) && !*v) {
			fprintf(stderr, "workbench: %s needs a value\n", valued[i]);
			return EXIT_USAGE;
		}
	}
	const char *width = args_value(g, "--width");
	if (width) {
		char *end;
		long w = strtol(width, &end, 10);
		if (*end || w < LAYOUT_MIN_WIDTH || w > 1000) {
			fprintf(stderr,
				"workbench: --width must be a number from %d to 1000, got '%s'\n",
				LAYOUT_MIN_WIDTH, width);
			return EXIT_USAGE;
		}
		app->width = (int)w;
	}
	if (schedule_options(g, app) != 0)
		return EXIT_USAGE;
	const char *lang = args_value(g, "--lang");
	if (lang && !content_lang_ok(lang)) {
		fprintf(stderr, "workbench: --lang must be 'en' or 'zh', got '%s'\n", lang);
		return EXIT_USAGE;
	}
	app->lang = content_pick_lang(lang);
	app->lang_explicit = lang != NULL;
	app->content = content_root(args_value(g, "--content"));
	app->quizzes = quiz_instructor_dir(args_value(g, "--quizzes"));
	app->db_path = store_default_path(args_value(g, "--db"));
	return -1;
}

int main(int argc, char **argv)
{
	struct app app = {0};
	struct labcat_entry *catalogue = NULL;
	struct excat_entry *excat = NULL;
	struct args g;
	int rc;
	if (args_parse(&global_args, argc - 1, argv + 1, &g) != 0) {
		const char *near = g.unknown ? args_suggest(&global_args, g.unknown) : NULL;
		fprintf(stderr, "workbench: %s%s%s%s; see workbench --help\n", g.err,
			near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		rc = EXIT_USAGE;
	} else if (args_has(&g, "--help") && g.argc > 0) {
		rc = command_help(g.argc, g.argv);
	} else if (args_has(&g, "--help") || (g.argc == 1 && !strcmp(g.argv[0], "help"))) {
		usage(stdout);
		rc = EXIT_OK;
	} else if (g.argc > 1 && !strcmp(g.argv[0], "help")) {
		rc = command_help(g.argc - 1, g.argv + 1);
	} else if (args_has(&g, "--version") || (g.argc == 1 && !strcmp(g.argv[0], "version"))) {
		printf("workbench %s\n", WB_VERSION);
		rc = EXIT_OK;
	} else if ((rc = global_options(&g, &app)) < 0) {
		catalogue = labcat_from_registry();
		excat = excat_from_registry();
		if (g.argc == 0) {
			rc = tui_main(&app);
		} else {
			rc = run_command(&app, g.argc, g.argv);
		}
	}
	args_free(&g);
	labcat_init(NULL, 0);
	excat_init(NULL, 0);
	free(catalogue);
	free(excat);
	free(app.content);
	free(app.quizzes);
	free(app.db_path);
	return rc;
}
