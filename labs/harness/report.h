/*
 * report.h - lab events: steps, checks, evidence and the verdict, written
 * as human-readable lines or as JSON lines (docs/architecture.md §5), one event per
 * line, flushed at once so a reader sees them live.
 *
 * A check states what was expected and what was observed; the verdict is
 * pass only when every check held.  A check named "control-..." is a
 * control: the naive variant the lab shows failing, so it holds when the
 * failure was seen (the human line says so).  This module does not run anything.
 */
#ifndef WB_REPORT_H
#define WB_REPORT_H

#include <stdio.h>

struct report;

/* Creates a reporter writing to out (borrowed).  json selects JSON lines. */
struct report *report_new(FILE *out, int json);
void report_free(struct report *r);

/* The language of the narration: "zh" writes the Chinese text of every
 * step, expected value, conclusion and note that harness/narration.h has
 * (English where it has none); anything else English (the default).
 * Check names, evidence and observed values are never translated. */
void report_set_lang(struct report *r, const char *lang);

/* Also writes every event as a JSON line to tee (borrowed), whatever the
 * main format; the supervisor reads it back to store the run. */
void report_tee(struct report *r, FILE *tee);

/* A step of the narrative. */
void report_step(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A check: returns ok so callers can branch on it.  expected/observed are
 * short strings (copied). */
int report_check(struct report *r, const char *name, int ok, const char *expected,
		 const char *observed);

/* Same, with printf-formatted observed value. */
int report_checkf(struct report *r, const char *name, int ok, const char *expected,
		  const char *observed_fmt, ...) __attribute__((format(printf, 5, 6)));

/* A piece of evidence (key = value), e.g. a dropped xid or a zxid. */
void report_evidence(struct report *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* What the run proved, in one or two sentences of the lab's own (copied;
 * a later call replaces an earlier one).  Written by report_finish, just
 * before the verdict, and only when the verdict is a pass: a run whose
 * checks did not all hold proved nothing to conclude from. */
void report_conclusion(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A note that something could not be done (environment, not a failed
 * check); makes the run "could not run" unless a check failed. */
void report_cannot(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* How a run ended, as its run function says (lab.h maps the lab's
 * outcome onto this). */
enum report_end {
	REPORT_RAN,	   /* ran to the end: the checks decide */
	REPORT_CANNOT_RUN, /* the environment prevented the run */
	REPORT_BROKE,	   /* an unexpected error stopped it: a failure */
};

enum report_verdict { REPORT_PASS, REPORT_FAIL, REPORT_CANNOT };

/* The verdict rule, on its own so it can be tested: a failed check
 * beats everything (fail); then report_cannot or REPORT_CANNOT_RUN make
 * it could-not-run; then REPORT_BROKE is a fail, and so is a run that
 * made no check (it proved nothing); otherwise pass. */
enum report_verdict report_verdict_rule(int checks, int failed, int cannot, enum report_end end);

/* Ends the run: writes the conclusion of a passing run (report_conclusion),
 * then the verdict event (and the human summary line),
 * and returns the verdict of report_verdict_rule. */
enum report_verdict report_finish(struct report *r, enum report_end end);

/* Counters, for tests. */
int report_checks(const struct report *r);
int report_failed(const struct report *r);
/* How many times report_cannot was called. */
int report_cannots(const struct report *r);

#endif
