/*
 * cli/quizcmd.h - what several quiz and progress commands share: opening
 * the progress database with the message every command prints, the bank
 * files of the shipped and the instructor's folders, a chapter's title,
 * the chapter word of `quiz list` and `quiz export`.
 * No command logic here; each command is in its own cli/quiz_*.c file.
 */
#ifndef WB_CLI_QUIZCMD_H
#define WB_CLI_QUIZCMD_H

#include "app.h"

#include <stddef.h>

struct store;
struct quiz_bank;

/* Opens app->db_path into *st.  Returns 0, or EXIT_FAIL after printing
 * "workbench: <why>" on stderr.  The caller closes *st (store_close). */
int quizcmd_open_store(struct app *app, struct store **st);

/* quizcmd_open_store for read-only commands: never creates the database
 * ("no progress database at PATH", store_open_existing). */
int quizcmd_open_existing(struct app *app, struct store **st);

/* Appends the path of every bank file of the shipped and the instructor's
 * folders to (*files)[0..*n) (wb_xrealloc'd; free with
 * quizlint_free_list).  Missing folders add nothing; cannot fail. */
void quizcmd_bank_files(struct app *app, char ***files, size_t *n);

/* The chapter of bank b's questions that word names (an id or a unique
 * prefix, cli/chapter.h), borrowed from b; NULL after printing the
 * message (cmd is the command's words, "quiz list"). */
const char *quizcmd_bank_chapter(const char *cmd, const struct quiz_bank *b, const char *word);

/* The title of chapter in lang, else in English, else Chinese; NULL when
 * no lesson file has it.  Caller frees. */
char *quizcmd_chapter_title(struct app *app, const char *lang, const char *chapter);

#endif
