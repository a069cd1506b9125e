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

#endif
