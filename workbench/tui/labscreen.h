/*
 * labscreen.h - a lab run in place (tui/lab.c).  Named apart from
 * labs/lab.h, the lab descriptors it shows.
 */
#ifndef WB_TUI_LABSCREEN_H
#define WB_TUI_LABSCREEN_H

#include "tui/tui.h"

/* Starts lab_id (a child `workbench lab run ID --json`) and returns 0 and
 * its screen in *out (push it); WB_ENOENT when this build has no such
 * lab, WB_EIO when the child cannot be started. */
int lab_screen_open(struct tui *t, const char *lab_id, const char *chapter, struct screen *out);

/* An exercise card's Enter: starts exercise ex_id in the workspace (the
 * learner's file is kept when it exists; the start is recorded), opens it
 * in $VISUAL/$EDITOR/vi with curses suspended (no editor: a notice with
 * the path), then runs `workbench exercise check ID --json` as a child and
 * returns its screen in *out, with two more keys: e (edit again, then
 * check) and h (the next hint, recorded).  WB_ENOENT for an id or lab this
 * build lacks, WB_EIO when the workspace or the child cannot be made. */
int lab_exercise_open(struct tui *t, const char *ex_id, const char *chapter, struct screen *out);

#endif
