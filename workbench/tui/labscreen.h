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

#endif
