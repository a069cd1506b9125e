/*
 * exercise.h - what an exercise is (docs/exercises.md): the learner writes
 * one piece of a recipe (C, SQL or Lua) and the lab's own scenario judges
 * it under the lab's faults.  The catalogue is labs/exercises.def; the
 * learner-facing files (task, starter, hints, reference solution, the
 * known-wrong variants and, for C, the interface header) live under
 * exercises/<id>/ in the source tree and share/workbench/exercises/<id>/
 * when installed.
 *
 * A check is a lab run function with one more argument: the learner's
 * code.  It narrates, checks and records evidence through ctx->report
 * exactly as a lab does, with stable check names (a known-wrong variant
 * names the check that must catch it).  It runs in the lab supervisor's
 * worker process, under resource limits, so learner code that crashes or
 * hangs takes only the worker with it.
 *
 * This header holds no UI and no workspace logic (workbench/core and
 * workbench/cli own where the learner's files live and what was tried).
 */
#ifndef WB_EXERCISE_H
#define WB_EXERCISE_H

#include "lab.h"

#include <stddef.h>

/* The language the learner writes in. */
enum ex_lang {
	EX_LANG_C,   /* one or more functions, built into a shared object */
	EX_LANG_SQL, /* named statements ("-- name: claim") in a .sql file */
	EX_LANG_LUA, /* a script run by a real redis-server with EVAL */
};

struct exercise;

/* The learner's code as the check receives it. */
struct ex_code {
	const struct exercise *ex;
	const char *path;	 /* the learner's file, absolute */
	void *dl;		 /* EX_LANG_C: the dlopen()ed shared object; else NULL */
	const char *dir;	 /* the exercise's shipped folder (exercises/<id>) */
	unsigned long long seed; /* --seed N: the seed of the check's choices */
	int seed_given;		 /* 0: the check derives its seed from the id */
};

/* A check: the lab's scenario with code in place of the recipe.  Returns
 * like a lab run function (LAB_RAN when the scenario ran to its end,
 * whatever the checks said). */
typedef enum lab_outcome (*ex_check_fn)(struct lab_ctx *ctx, const struct ex_code *code);

struct exercise {
	const char *id;		  /* e.g. "redis-release"; never changes */
	const char *chapter;	  /* two-digit chapter number, e.g. "01" */
	const char *lab;	  /* the lab whose scenario judges it */
	enum ex_lang lang;	  /* what the learner writes */
	const char *file;	  /* the workspace file name, e.g. "release.lua" */
	const char *title_en;	  /* one line */
	const char *title_zh;	  /* the same line in Chinese */
	const ex_check_fn *check; /* call (*check)(ctx, code) */
};

/* All exercises in catalogue order; *n receives the count; the array ends
 * with NULL. */
const struct exercise *const *ex_all(size_t *n);
/* The exercise with this id, or NULL. */
const struct exercise *ex_find(const char *id);
/* The title in lang ("zh", anything else English). */
const char *ex_title(const struct exercise *ex, const char *lang);
/* "c", "sql" or "lua". */
const char *ex_lang_name(enum ex_lang lang);

/* The address of the learner's function name in code (EX_LANG_C), or
 * NULL when the object does not define it (or the exercise is not C).
 * A check that gets NULL reports it as a failed check named
 * "defines <name>" and returns LAB_RAN. */
void *ex_code_sym(const struct ex_code *code, const char *name);

/* Reads the learner's whole file into a NUL-terminated string (*out, the
 * caller frees; *len may be NULL).  Returns 0, WB_ENOENT or WB_EIO. */
int ex_code_text(const struct ex_code *code, char **out, size_t *len);

/* Builds a C exercise's file into the shared object so_path with the
 * system compiler ($CC, else cc): -std=c11 -Wall -Wextra -fPIC -shared,
 * the exercise folder (for its api.h) and the ZooKeeper headers on the
 * include path.  The compiler's output (diagnostics name the learner's
 * file and line) goes to the file descriptor diag_fd.  Returns 0, WB_EINVAL
 * when the compiler rejected the file, or WB_EIO when no compiler ran. */
int ex_build_c(const struct exercise *ex, const char *src, const char *ex_dir, const char *so_path,
	       int diag_fd);

#endif
