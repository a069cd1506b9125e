/*
 * timelineview.h - the lab screen's timeline view (tui/lab.c toggles it
 * with t): the operation history of the run on the screen, drawn by
 * core/timeline at the screen's width, the scale kept in view while the
 * lanes scroll, the checker's witness in reverse bold.  It collects the
 * "op", "mark" and "checker" event lines the run writes; it starts no run
 * and reads no other events.  lab.c owns one; no other screen uses it.
 */
#ifndef WB_TUI_TIMELINEVIEW_H
#define WB_TUI_TIMELINEVIEW_H

struct tlview;

/* A new, empty view.  With WORKBENCH_TEST_TIMELINE_EVENTS=FILE set (a test
 * seam, tests/tui/timeline.sh) it starts with the timeline events of FILE
 * as though the run had written them.  Aborts on allocation failure. */
struct tlview *tlview_new(void);

/* Frees v; accepts NULL. */
void tlview_free(struct tlview *v);

/* Forgets what was fed (a new run starts), then reloads the test seam's
 * file when set.  Cannot fail. */
void tlview_reset(struct tlview *v);

/* Offers one event line: returns 1 when it is a timeline event (taken,
 * or refused as malformed; either way the lab screen shows nothing of it),
 * 0 when it is not, for the lab screen to show. */
int tlview_feed(struct tlview *v, const char *line);

/* Scrolls the lanes by delta rows (clamped when drawn). */
void tlview_scroll(struct tlview *v, int delta);

/* To the first (top nonzero) or the last rows. */
void tlview_jump(struct tlview *v, int top);

/* Draws the view into rows y0 .. y0+rows-1, columns x0 .. x0+width-1, in
 * lang.  Cannot fail (too narrow a screen shows a note). */
void tlview_draw(struct tlview *v, int y0, int x0, int rows, int width, const char *lang);

#endif
