/*
 * exchange.h - export and import of graded answers (CSV or JSON), so
 * that a learner can keep their record and an instructor can merge the
 * records of several learners.
 *
 * Answers are keyed by a random uid, so exports from several databases
 * merge cleanly and importing the same file twice adds nothing.  This
 * module neither grades nor schedules: an import replays schedules with
 * the same code a save uses (answers.c).  Test seam (base/testhook.h):
 * the "import" hold.
 */
#ifndef WB_EXCHANGE_H
#define WB_EXCHANGE_H

#include <stddef.h>
#include <stdio.h>

struct store;

/* Export of every graded answer, oldest first.  learner, when not NULL,
 * names this learner's rows ('' in the database) in the output. */
enum answers_format { ANSWERS_CSV, ANSWERS_JSON };
/* Returns 0, WB_EIO when writing to out failed, or a WB_E* code from
 * the database.  out stays open (the caller closes it). */
int answers_export(struct store *s, FILE *out, enum answers_format fmt, const char *learner);

/* Merges an export (CSV or JSON, detected) in one transaction: answers
 * whose uid exists are skipped, schedules of this learner's questions are
 * replayed.  Returns 0; WB_EINVAL with a message naming the row for bad
 * input (nothing imported); WB_EBUSY; WB_EIO. */
int answers_import(struct store *s, const char *text, size_t len, size_t *added, size_t *skipped,
		   char *err, size_t errlen);

/* How an import treats the file's unnamed answers (learner "", an export
 * written without --learner: the exporter's own). */
struct answers_import_opts {
	const char *learner; /* NULL, or the name the file's answers and exercises
				take (a file naming somebody else is refused) */
	int as_mine;	     /* unnamed answers may join a database that has
				answers or exercises of its own */
};

/* What an import did. */
struct answers_import_result {
	size_t added, skipped; /* answers */
	size_t ex_merged;      /* exercises merged into this learner's own state */
	size_t ex_left;	       /* exercises of a named learner, left out */
	char learner[64];      /* the file's learner ("" the exporter's own) */
};

/* answers_import with options (review ux-r3 B2, B3): the answers and
 * exercises of a named learner (o->learner, the file's "learner", or one
 * name shared by all its answers) never touch this learner's schedule or
 * exercise list (the exercises are left out: r->ex_left).  Unnamed ones
 * are refused with WB_ECONFLICT (err names --learner NAME and
 * --as-mine) when the database already holds answers or exercises of its
 * own and !o->as_mine; into an empty database they are this learner's.
 * Returns as answers_import; on any failure nothing was written. */
int answers_import_with(struct store *s, const char *text, size_t len,
			const struct answers_import_opts *o, struct answers_import_result *r,
			char *err, size_t errlen);

/* The largest export `progress import` and `class report` read, from a
 * file or standard input (review r3 N6: both read /dev/zero or an endless
 * pipe until the process ran out of memory).  A learner's export is
 * about 400 bytes an answer, so this holds some 150,000 answers; reading
 * a JSON export costs about 8 times its size in memory. */
#define ANSWERS_FILE_MAX (64u << 20)

/* A lab of an export's "labs" array. */
struct answers_lab {
	char id[64];
	int passed; /* some run passed */
	int runs;   /* 0 when the export does not say */
};

/* A JSON export read and checked by answers_parse_json. */
struct answer;
struct store_ex_state;
struct answers_doc {
	struct answer *a; /* the answers, in file order, each as answers_invalid accepts */
	size_t n;
	struct store_ex_state *ex; /* "exercises" */
	size_t nex;
	int has_ex; /* the export has an "exercises" array */
	struct answers_lab *labs;
	size_t nlabs;
	int has_labs;	  /* the export has a "labs" array */
	char learner[64]; /* the export's "learner" ("" when it has none) */
};

/* Reads the JSON export text[0..len) (an object with "answers", or a bare
 * array of answers) by the one set of rules `progress import` and `class
 * report` share: no duplicate key anywhere, a "format" if any of
 * "workbench-progress", every answer an object whose fields have the
 * types answers_export writes (points integers, times ISO 8601 strings
 * that parse, ...) and pass answers_invalid (uid, question and chapter
 * ids, grade, points within 0..max_points), "exercises" and "labs"
 * entries well formed.  Returns 0 with *d filled (answers_doc_free), or
 * WB_EINVAL with nothing in *d and err saying why ("answer 3: bad
 * question id"); *line is the line of a JSON syntax error, else 0. */
int answers_parse_json(const char *text, size_t len, struct answers_doc *d, int *line, char *err,
		       size_t errlen);

/* Frees what answers_parse_json filled in and zeroes d.  NULL is fine. */
void answers_doc_free(struct answers_doc *d);

#endif
