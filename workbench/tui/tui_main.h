/* tui/tui_main.h - the interactive workbench's entry point, for main.c only (no TUI internals). */
#ifndef WB_TUI_MAIN_H
#define WB_TUI_MAIN_H

struct app;

/* Runs the interactive workbench until the learner quits.  Returns an exit code. */
int tui_main(struct app *app);

#endif
