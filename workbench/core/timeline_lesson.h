/*
 * timeline_lesson.h - the ```timeline block of a lesson: one name, the
 * event history lessons/timelines/<name>.jsonl (core/timeline_events.h)
 * that the reader draws with core/timeline at the page width and that
 * `lesson lint` requires to exist and to read cleanly:
 *
 *     ```timeline
 *     zk-stale-read
 *     ```
 *
 * Only the naming and the path rule live here; drawing is layout.c's,
 * checking lessonlint.c's.
 */
#ifndef WB_TIMELINE_LESSON_H
#define WB_TIMELINE_LESSON_H

/* True when info (a fence's info string) opens a timeline block. */
int timeline_block_info(const char *info);

/* The block's name: its first non-blank line, trimmed.  Returns a copy
 * (caller frees), or NULL when the block is empty. */
char *timeline_block_name(const char *literal);

/* True when name is a valid timeline name: 1 to 64 of [a-z0-9-]. */
int timeline_name_ok(const char *name);

/* The history file for name beside the lesson at lesson_path
 * (<its folder>/../timelines/<name>.jsonl).  Returns a copy (caller
 * frees), or NULL when lesson_path is NULL or name is not valid. */
char *timeline_lesson_path(const char *lesson_path, const char *name);

#endif
