/*
 * app.h - options shared by the command line and the TUI, and the exit
 * codes of every command.
 *
 * One struct filled by main.c from the global flags; commands and screens
 * read it.  It owns its strings.  Nothing else here: the command type is
 * in cli/commands.h, the TUI's entry point in tui/tui_main.h.
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
	int new_per_day;   /* --new-per-day: new questions a review brings per day */
	int day_starts;	   /* --day-starts: local hour a new day starts at */
};

/* Exit codes of every command. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

#endif
