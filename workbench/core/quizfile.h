/*
 * quizfile.h - one question bank file: Markdown parsed with cmark-gfm
 * into questions (docs/architecture.md §6, format details and design notes in the
 * header of quizfile.c).
 *
 * A file is parsed into a quiz_file that keeps every question it could
 * recognise together with the problems found, each with its source line,
 * so the same parse serves the test screens (through a bank, quizbank.h)
 * and `workbench quiz lint` (quizlint.h).
 *
 * This module does not read folders or collect banks (quizbank.h), does
 * not grade (quizbank.h), does not check anything across files
 * (duplicate ids, missing translations, unknown chapters: quizlint.h),
 * does not schedule (sched.h) and does not store answers (answers.h).
 */
#ifndef WB_QUIZFILE_H
#define WB_QUIZFILE_H

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
	int core;   /* "core: true": one of the chapter's closed-book core questions */
	char *text; /* question heading after "[id] ", Markdown */
	char *body; /* further question text, Markdown, "" when none */
	struct quiz_option *options;
	size_t noptions;
	double number;	  /* numeric: the answer */
	char *num_text;	  /* numeric: the answer as written (graded exactly); NULL if none */
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
	char *path;	     /* as given */
	char *lang;	     /* "en"/"zh" from the parent folder, or the fallback */
	char *chapter;	     /* chapter id, NULL when neither name nor comment gives one */
	int chapter_line;    /* line of the <!-- chapter: --> comment, 0 from the name */
	char *title;	     /* "# " title, NULL when missing */
	char *chapter_title; /* <!-- title: --> the chapter's title when it has no
				lesson (a chapter of the bank's own), else NULL */
	int title_line;	     /* its line, 0 when none */
	char *lang_only;     /* <!-- lang-only: en|zh -->, NULL when not given */
	int lang_only_line;  /* its line, 0 when none */
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

/* Bank files larger than this are refused (#20 F6): the shipped banks
 * are under 50 KiB, 8 MiB holds some 100,000 short questions, and parsing
 * takes about 40 bytes of memory per byte of file. */
#define QUIZ_FILE_MAX_BYTES (8u << 20)

/* Reads and parses a file; the language comes from the parent folder
 * ("en" or "zh") or is fallback_lang.  Returns 0, WB_ENOENT, WB_EIO, or
 * WB_ERANGE when the file is larger than QUIZ_FILE_MAX_BYTES (nothing
 * is parsed). */
int quiz_load_file(const char *path, const char *fallback_lang, struct quiz_file **out);

/* Frees a parsed file and its questions; f may be NULL.  Cannot fail. */
void quiz_file_free(struct quiz_file *f);

/* "en" or "zh" when the file's parent folder is named so, else NULL.
 * Returns a static string. */
const char *quiz_lang_of_path(const char *path);

/* True for a well-formed question id: [a-z][a-z0-9-]*, at most 48.
 * Cannot fail. */
int quiz_valid_id(const char *id);

/* Parses the whole of s (surrounding spaces allowed) as a finite number
 * into *out.  Returns 1 on success, 0 when s is not one (*out is then
 * unchanged). */
int quiz_parse_number(const char *s, double *out);

/* "recall", "choice", "numeric" (static strings; "recall" for an
 * unknown value).  Cannot fail. */
const char *quiz_kind_name(enum quiz_kind k);

#endif
