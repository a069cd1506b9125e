/*
 * cli/chapter.h - the chapter word of a command (`lesson show 01`, `quiz
 * new 02`, `quiz list 01`): an id or a unique prefix of one, and the
 * message when it names none ("no chapter '03-nope'; chapters: 01-...,
 * 02-..." with a "did you mean") or several.  No paths in messages.  It
 * reads only chapter ids (core/content.c); no command logic.
 */
#ifndef WB_CLI_CHAPTER_H
#define WB_CLI_CHAPTER_H

#include "app.h"

#include <stddef.h>

/* The one of ids[0..n) that word names (content_find_chapter's rules),
 * borrowed from ids; NULL after printing "workbench CMD: ..." on stderr
 * when none or several do.  cmd is the command's words ("lesson show"). */
const char *cli_chapter_pick(const char *cmd, const char *word, const char *const *ids, size_t n);

/* The lesson chapter word names, in app->lang or else in English, into
 * *id (caller frees).  Returns 0, or EXIT_USAGE after the message of
 * cli_chapter_pick, or EXIT_FAIL when there are no lessons at all. */
int cli_chapter_lesson(struct app *app, const char *cmd, const char *word, char **id);

#endif
