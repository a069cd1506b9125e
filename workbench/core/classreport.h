/*
 * classreport.h - an instructor's view of several learners' progress
 * exports (`workbench class report FILE...`): per question, how many
 * learners answered it, their mean points and the share of Again; per
 * learner, questions answered, labs passed, exercises solved; and the
 * hardest questions.  Pure model over the JSON export of core/exchange.c
 * (format "workbench-progress"); it reads no database and draws nothing
 * but plain text.
 */
#ifndef WB_CORE_CLASSREPORT_H
#define WB_CORE_CLASSREPORT_H

#include <stddef.h>
#include <stdio.h>

struct classreport;

/* One question over the class.  Each learner counts once, with the
 * latest graded answer (by graded_at) of that question; answers counts
 * every attempt. */
struct cr_question {
	char *id, *chapter;
	int learners;	    /* learners who answered it */
	int answers;	    /* graded answers in all, every attempt */
	double mean_points; /* mean points of the learners' latest answers */
	double mean_max;    /* mean max_points of the same answers */
	double again_share; /* share of learners whose latest grade is Again, 0..1 */
};

/* One learner.  labs_passed and exercises_solved are -1 when none of the
 * learner's exports carries "labs" or "exercises" (an older workbench). */
struct cr_learner {
	char *name;
	int answered;	      /* distinct questions with a graded answer */
	int labs_passed;      /* distinct lab ids with a passing run */
	int exercises_solved; /* exercises with "passed": true */
	int exercises_tried;  /* exercises listed */
};

enum cr_format { CR_TEXT, CR_CSV, CR_JSON };

/* A new, empty report; never NULL (allocation failure aborts, as wb_x*).
 * Free with classreport_free. */
struct classreport *classreport_new(void);

/* Frees r (NULL is fine).  Cannot fail. */
void classreport_free(struct classreport *r);

/* Adds one export: text[0..len) is its JSON, file its name for messages
 * and the learner's name when the answers name none (the file's base name
 * without .json).  An answer uid seen before (the same export given twice)
 * is skipped.  Returns 0, or WB_EINVAL with a message "FILE: ..." (naming
 * the entry) in err[0..errlen), and then nothing of the file is added. */
int classreport_add_json(struct classreport *r, const char *file, const char *text, size_t len,
			 char *err, size_t errlen);

/* The questions, sorted by chapter then id, and their count; borrowed
 * from r, valid until the next add or free. */
const struct cr_question *classreport_questions(struct classreport *r, size_t *n);

/* The learners, sorted by name, and their count; borrowed as above. */
const struct cr_learner *classreport_learners(struct classreport *r, size_t *n);

/* Up to max question indexes (into classreport_questions) from the
 * hardest: highest share of Again first, then lowest mean points as a
 * share of mean max, then id.  Returns how many were written to idx. */
size_t classreport_hardest(struct classreport *r, size_t *idx, size_t max);

/* Writes the report to out: CR_TEXT two tables and a bar chart of the
 * hardest questions (bars of '#', at most width columns wide in all,
 * width >= 40); CR_CSV one section per table ("section" column first);
 * CR_JSON {"questions":[...],"learners":[...],"hardest":[ids]}.
 * Returns 0 or WB_EIO when out fails. */
int classreport_write(struct classreport *r, enum cr_format fmt, int width, FILE *out);

#endif
