/*
 * app.h - options shared by the command line and the TUI.
 *
 * One struct filled by main.c from the global flags; commands read it.
 * It owns its strings.  No behaviour here beyond the command table type.
 */
#ifndef WB_APP_H
#define WB_APP_H

struct app {
	char *content;	   /* content root (lessons/, quizzes/, data/) */
	const char *lang;  /* "en" or "zh" */
	int lang_explicit; /* --lang given */
	char *db_path;	   /* progress database path */
	char *quizzes;	   /* instructor's question banks: <dir>/<lang>/NN-slug.md */
	int width;	   /* --width, 0 when not given */
};

/* Exit codes of every command. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct command {
	const char *name;				    /* first word, e.g. "lesson" */
	const char *sub;				    /* second word or NULL, e.g. "show" */
	const char *usage;				    /* argument synopsis for --help */
	const char *help;				    /* one line */
	int (*run)(struct app *app, int argc, char **argv); /* args after the words */
};

/* Commands, one file each under cli/. */
int cli_lessons(struct app *app, int argc, char **argv);
int cli_lesson_show(struct app *app, int argc, char **argv);
int cli_lesson_lint(struct app *app, int argc, char **argv);
int cli_lab(struct app *app, int argc, char **argv);
int cli_zk_lock(struct app *app, int argc, char **argv);
int cli_quiz(struct app *app, int argc, char **argv);
int cli_progress(struct app *app, int argc, char **argv);

/* The interactive workbench (tui/). Returns an exit code. */
int tui_main(struct app *app);

#endif
