/*
 * quizbank.h - banks and grading: the well-formed questions of one
 * language gathered from several folders (shipped quizzes, the
 * instructor's folder), and how an answer to one of them is graded.
 *
 * This is what the test screens and `quiz run` call; the parser of a
 * single file is quizfile.h (included: a bank is made of parsed files).
 * This module does not parse Markdown itself, does not check anything
 * across files (quizlint.h), does not schedule (sched.h) and does not
 * store answers (answers.h).
 */
#ifndef WB_QUIZBANK_H
#define WB_QUIZBANK_H

#include "core/quizfile.h"

#include <stddef.h>

/* A bank: the well-formed questions of one language. */
struct quiz_bank {
	char *lang;
	struct quiz_file **files; /* every file read, owned */
	size_t nfiles;
	const struct quiz_question **q; /* usable questions in file order */
	size_t n;
	size_t skipped; /* questions left out: errors or duplicate ids */
	size_t refused; /* files left out whole: larger than QUIZ_FILE_MAX_BYTES */
	/* Private to quizbank.c: the ids hashed (open addressing, index + 1
	 * into q, 0 = empty slot; a power of two at most half full), so
	 * loading and quiz_bank_find stay linear in the bank (#20 F6). */
	size_t *slots;
	size_t nslots;
};

/* Loads the .md files of <dir>/<lang>/ for each dir in order (missing folders are
 * fine).  Questions with errors are skipped; of two with the same id the
 * first wins; a file larger than QUIZ_FILE_MAX_BYTES is left out whole
 * and counted in refused (`quiz lint` names it).  Time and memory are
 * linear in the files' size.  Returns 0 or WB_ENOMEM; free with
 * quiz_bank_free. */
int quiz_bank_load(const char *const *dirs, size_t ndirs, const char *lang, struct quiz_bank **out);

/* Frees a bank, its files and their questions; b may be NULL.  Cannot
 * fail.  Sessions borrow its questions: free it after them. */
void quiz_bank_free(struct quiz_bank *b);

/* The question with this id, or NULL; constant time.  Cannot fail. */
const struct quiz_question *quiz_bank_find(const struct quiz_bank *b, const char *id);

/* Questions of a chapter in bank order.  Returns the count; *out is a
 * malloc'd array of borrowed pointers (NULL when none), caller frees. */
size_t quiz_bank_chapter(const struct quiz_bank *b, const char *chapter,
			 const struct quiz_question ***out);

/* How many questions of a chapter in the bank are marked "core: true"
 * (the closed-book core a 12-question test draws from).  With out not
 * NULL, *out is a malloc'd array of them in bank order (NULL when none),
 * caller frees.  Cannot fail. */
size_t quiz_bank_core(const struct quiz_bank *b, const char *chapter,
		      const struct quiz_question ***out);

/* The number of core questions a chapter's bank should mark (quiz lint
 * warns otherwise). */
#define QUIZ_CORE_COUNT 12

/* Sorted, distinct chapter ids that have questions.  Returns the count;
 * *out is malloc'd, its strings are borrowed from the bank. */
size_t quiz_bank_chapters(const struct quiz_bank *b, const char ***out);

/* The folders banks come from, in order: <content>/quizzes, then the
 * instructor's folder.  Fills dirs[0..1] with malloc'd strings and
 * returns the count. */
size_t quiz_bank_dirs(const char *content_root, const char *instructor_dir, char *dirs[2]);

/* quiz_bank_load over quiz_bank_dirs(content_root, instructor_dir). */
int quiz_bank_open(const char *content_root, const char *instructor_dir, const char *lang,
		   struct quiz_bank **out);

/* The instructor's folder: explicit (--quizzes) wins, else
 * $XDG_DATA_HOME/workbench/quizzes, else ~/.local/share/workbench/quizzes.
 * It holds <lang>/ subfolders like the shipped quizzes/.  Caller frees. */
char *quiz_instructor_dir(const char *explicit_dir);

/* Grading.  Choice: picked[i] nonzero for each chosen option; correct
 * when exactly the set of correct options is chosen.  Returns 1 when
 * correct, 0 otherwise. */
int quiz_grade_choice(const struct quiz_question *q, const unsigned char *picked);

/* Numeric: parses the learner's input (spaces, commas and underscores
 * between digits are ignored) into *value.  Returns 1 when the input
 * differs from the answer by at most the question's tolerance, 0 when
 * not, WB_EINVAL when the input is not a number.  The comparison is exact
 * in decimal, as written: without a tolerance only the answer itself
 * counts (2147483648 is not 2147483647; 1.50 is 1.5), and there is no
 * hidden slack. */
int quiz_grade_numeric(const struct quiz_question *q, const char *input, double *value);

/* Recall: points of the ticked rubric items (ticked[i] nonzero) and the
 * grade they suggest: all ticked -> Got it, some -> Partly, none -> Again.
 * Returns the suggested grade; *points may be NULL. */
int quiz_suggest_grade(const struct quiz_question *q, const unsigned char *ticked, int *points);

/* "again", "partly", "got" (the export spelling); "" for others. */
const char *quiz_grade_key(int grade);
/* Parses quiz_grade_key's spelling or "1".."3"; 0 when unknown or
 * NULL.  Cannot fail. */
int quiz_grade_parse(const char *s);

#endif
