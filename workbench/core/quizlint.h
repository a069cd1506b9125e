/*
 * quizlint.h - checks question bank files for `workbench quiz lint`.
 *
 * Per-file problems come from the parser (quizfile.h); this module adds what
 * needs more than one file: duplicate ids within a language, questions
 * present in one language only (a warning), the same question differing
 * between languages (kind, number, options; one warning per bank for the
 * questions the other language lacks, none for a bank declared
 * <!-- lang-only: -->), chapters that have no lesson nor a title of the
 * bank's own (<!-- title: -->), and the template text of `quiz new` left in a question.  It prints
 * nothing: the CLI formats the report.
 */
#ifndef WB_QUIZLINT_H
#define WB_QUIZLINT_H

#include <stddef.h>

struct quizlint_msg {
	char *file;   /* path as given */
	int line;     /* 1-based */
	int col;      /* 1-based, 0 when the problem has no column */
	int is_error; /* 0: warning */
	char *msg;    /* English, one line */
};

struct quizlint_report {
	struct quizlint_msg *m; /* by target file in the given order, then line */
	size_t n;
	int errors;
	int warnings;
};

/* The template text `workbench quiz new` writes.  Each part still in a
 * question is an error of quizlint_run, at its line: the question is not
 * ready for learners until the instructor has written it. */
#define QUIZLINT_TEMPLATE_QUESTION "Write the question here, on one line"
#define QUIZLINT_TEMPLATE_ANSWER   "Write the reference answer here."
#define QUIZLINT_TEMPLATE_RUBRIC   "one checkable idea the answer must contain"

struct quiz_question;

/* How many parts of q (question line, reference answer, rubric items)
 * still hold the template text above; 0 once all are written.  Cannot
 * fail. */
int quizlint_placeholders(const struct quiz_question *q);

/* Lints every target file.  context files (other banks of both
 * languages) are read for the cross-file checks only; one that is also
 * a target is skipped.  content_root is where lessons/<lang>/ lives, for
 * the chapter check.  fallback_lang is used (with a warning) for a file
 * that is not in an en/ or zh/ folder.  A target that cannot be read is
 * an error in the report.  Returns 0; free with quizlint_report_free. */
int quizlint_run(const char *content_root, const char *fallback_lang, const char *const *targets,
		 size_t ntargets, const char *const *context, size_t ncontext,
		 struct quizlint_report *out);
void quizlint_report_free(struct quizlint_report *r);

/* The error for a bank of `chapter` in `lang` when no lesson of it
 * exists under content_root (lessons/en or lessons/zh): malloc'd, the
 * same words in `quiz lint` and `quiz run`.  NULL when a lesson exists
 * or content_root is NULL.  A bank file that gives the chapter a title
 * of its own (<!-- title: -->, quiz_file.chapter_title) is accepted
 * without a lesson; the caller checks that. */
char *quizlint_unknown_chapter(const char *content_root, const char *lang, const char *chapter);

/* Expands a command-line PATH into bank files: a file as is; a folder
 * with en/ or zh/ subfolders gives their .md files; another folder its
 * own .md files.  Appends malloc'd paths to *files / *n.  Returns 0, or
 * WB_ENOENT when the path does not exist. */
int quizlint_expand(const char *path, char ***files, size_t *n);

/* Frees an array of malloc'd strings. */
void quizlint_free_list(char **files, size_t n);

#endif
