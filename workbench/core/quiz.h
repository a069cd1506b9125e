/*
 * quiz.h - question banks: Markdown files parsed with cmark-gfm into
 * questions (DESIGN.md §3, format details in the header of quiz.c).
 *
 * A file is parsed into a quiz_file that keeps every question it could
 * recognise together with the problems found, each with its source line,
 * so the same parse serves the test screens and `workbench quiz lint`.
 * A bank is the set of well-formed questions of one language taken from
 * several folders (shipped quizzes, the instructor's folder).
 *
 * This module does not check anything across files (duplicate ids,
 * missing translations, unknown chapters: see quizlint.h), does not
 * schedule (sched.h) and does not store answers (answers.h).
 */
#ifndef WB_QUIZ_H
#define WB_QUIZ_H

#include <stddef.h>

enum quiz_kind {
	QK_RECALL,  /* closed-book recall, reveal, self-grade against a rubric */
	QK_CHOICE,  /* options as a task list, auto-graded */
	QK_NUMERIC, /* a number with a tolerance, auto-graded */
};

/* The learner's three grades.  Values are stored in the progress DB. */
enum quiz_grade {
	GRADE_AGAIN = 1,  /* could not recall the key points */
	GRADE_PARTLY = 2, /* some points, or only with real effort */
	GRADE_GOT = 3,	  /* every point without help */
};

#define QUIZ_ID_MAX 48
/* The most points a rubric may be worth in all (progress import takes
 * points up to the same bound). */
#define QUIZ_MAX_POINTS 1000000

struct quiz_option {
	char *text;  /* Markdown of the option, marker stripped, one line */
	int correct; /* "- [x]" */
	int line;    /* source line */
};

struct quiz_rubric_item {
	int points; /* positive */
	char *text; /* Markdown, one line */
	int line;   /* source line */
};

struct quiz_question {
	char *id; /* stable id, ASCII; NULL when the heading had none */
	enum quiz_kind kind;
	char *text; /* question heading after "[id] ", Markdown */
	char *body; /* further question text, Markdown, "" when none */
	struct quiz_option *options;
	size_t noptions;
	double number;	  /* numeric: the answer */
	double tolerance; /* numeric: accepted absolute difference, >= 0 */
	int has_number;	  /* numeric: answer: parsed */
	char *answer;	  /* reference answer, Markdown; NULL when missing */
	struct quiz_rubric_item *rubric;
	size_t nrubric;
	int max_points;		      /* recall: sum of the rubric; others: 1 */
	int line;		      /* line of the ## heading */
	int answer_line;	      /* line of ### Answer, 0 when missing */
	int errors;		      /* problems of severity error inside this question */
	const struct quiz_file *file; /* owner (chapter, lang, path) */
};

struct quiz_problem {
	int line;     /* 1-based source line */
	int is_error; /* 0: warning */
	char *msg;    /* English, no trailing newline */
};

struct quiz_file {
	char *path;	  /* as given */
	char *lang;	  /* "en"/"zh" from the parent folder, or the fallback */
	char *chapter;	  /* chapter id, NULL when neither name nor comment gives one */
	int chapter_line; /* line of the <!-- chapter: --> comment, 0 from the name */
	char *title;	  /* "# " title, NULL when missing */
	struct quiz_question *q;
	size_t nq;
	struct quiz_problem *problems; /* in line order */
	size_t nproblems;
};

/* Parses Markdown text as the bank file `path` in language `lang`.
 * Problems of the text are recorded in the result, never returned as
 * errors.  Returns 0 or WB_ENOMEM; free with quiz_file_free. */
int quiz_parse(const char *path, const char *lang, const char *text, size_t len,
	       struct quiz_file **out);

/* Reads and parses a file; the language comes from the parent folder
 * ("en" or "zh") or is fallback_lang.  Returns 0, WB_ENOENT or WB_EIO. */
int quiz_load_file(const char *path, const char *fallback_lang, struct quiz_file **out);
void quiz_file_free(struct quiz_file *f);

/* "en" or "zh" when the file's parent folder is named so, else NULL.
 * Returns a static string. */
const char *quiz_lang_of_path(const char *path);

/* True for a well-formed question id: [a-z][a-z0-9-]*, at most 48. */
int quiz_valid_id(const char *id);

/* A bank: the well-formed questions of one language. */
struct quiz_bank {
	char *lang;
	struct quiz_file **files; /* every file read, owned */
	size_t nfiles;
	const struct quiz_question **q; /* usable questions in file order */
	size_t n;
	size_t skipped; /* questions left out: errors or duplicate ids */
};

/* Loads the .md files of <dir>/<lang>/ for each dir in order (missing folders are
 * fine).  Questions with errors are skipped; of two with the same id the
 * first wins.  Returns 0 or WB_ENOMEM; free with quiz_bank_free. */
int quiz_bank_load(const char *const *dirs, size_t ndirs, const char *lang, struct quiz_bank **out);
void quiz_bank_free(struct quiz_bank *b);

/* The question with this id, or NULL. */
const struct quiz_question *quiz_bank_find(const struct quiz_bank *b, const char *id);

/* Questions of a chapter in bank order.  Returns the count; *out is a
 * malloc'd array of borrowed pointers (NULL when none), caller frees. */
size_t quiz_bank_chapter(const struct quiz_bank *b, const char *chapter,
			 const struct quiz_question ***out);

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
 * between digits are ignored) into *value.  Returns 1 when within the
 * tolerance, 0 when not, WB_EINVAL when the input is not a number. */
int quiz_grade_numeric(const struct quiz_question *q, const char *input, double *value);

/* Recall: points of the ticked rubric items (ticked[i] nonzero) and the
 * grade they suggest: all ticked -> Got it, some -> Partly, none -> Again.
 * Returns the suggested grade; *points may be NULL. */
int quiz_suggest_grade(const struct quiz_question *q, const unsigned char *ticked, int *points);

/* "recall", "choice", "numeric". */
const char *quiz_kind_name(enum quiz_kind k);
/* "again", "partly", "got" (the export spelling); "" for others. */
const char *quiz_grade_key(int grade);
/* Parses quiz_grade_key's spelling or "1".."3"; 0 when unknown. */
int quiz_grade_parse(const char *s);

#endif
