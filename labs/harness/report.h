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

#include <stdint.h>
#include <stdio.h>

struct report;
/* checkers/history.h; not included here so that a lab's own names do not
 * clash with it: a lab that records includes it. */
struct history;
struct hist_result;

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

/* How a run ended, as its run function says (the supervisor,
 * cli/labsuper.c, maps lab.h's enum lab_outcome onto this). */
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
 * the time split (a "timing" event and one plain line: report_story_wait),
 * then the verdict event (and the human summary line),
 * and returns the verdict of report_verdict_rule. */
enum report_verdict report_finish(struct report *r, enum report_end end);

/* The time split (docs/labs.md, "Where a lab's time goes").  A lab
 * declares each wait its story needs, the time it deliberately waited for
 * a session to expire, a lease to run out, syncLimit ticks to pass: ms as
 * measured around that wait, what a short identifier ("session-expiry",
 * "lease", "sync-limit"; copied, not translated).  Waits of the same what
 * add up.  Safe from several threads; ms <= 0 is ignored. */
void report_story_wait(struct report *r, long ms, const char *what);

/* Time spent starting and stopping servers (the JVM of a ZooKeeper, a
 * redis-server), declared by the harness that did it; ms <= 0 is
 * ignored.  Safe from several threads. */
void report_server_time(struct report *r, long ms);

/* The split so far: the story's waits, the servers, and everything else
 * (elapsed minus both, never negative).  Any pointer may be NULL. */
void report_time_split(struct report *r, long *story_ms, long *server_ms, long *other_ms);

/* The operation history (docs/histories.md, checkers/history.h).  Safe to
 * call from several client threads at once.  Each call also writes an
 * "op" or "mark" event (event.h); the plain output shows one terse line
 * per completion and per mark.  Times are CLOCK_MONOTONIC ns since
 * report_new. */

/* Records the invocation of f(value) by process (strings copied; value
 * may be NULL).  Call it just before the client call.  Returns the op's
 * index (0, 1, ... in invocation order, the same in its completion), or
 * WB_ENOMEM. */
int report_invoke(struct report *r, const char *process, const char *f, const char *value);

/* Records the completion of op index: type HIST_OK (took effect, result
 * may be NULL), HIST_FAIL (certainly did not) or HIST_INFO (unknown, as
 * after a lost reply).  Call it just after the client call returned.  An
 * unknown index, a second completion or HIST_INVOKE is ignored. */
void report_complete(struct report *r, int index, int type /* enum hist_type */,
		     const char *result);

/* report_complete that also replaces the op's value with value (copied;
 * NULL keeps it), for an argument known only once the call returned, as
 * the version a won claim set. */
void report_complete_value(struct report *r, int index, int type, const char *value,
			   const char *result);

/* report_complete with the time the completion really ran, as an
 * absolute CLOCK_MONOTONIC time in ns (an asynchronous call's callback
 * time, collected later); a time before the invocation is taken as the
 * invocation's. */
void report_complete_at(struct report *r, int index, int type, const char *result,
			long long mono_ns);

/* An event on a lane of the timeline (a client or server: "c1", "proxy",
 * "zk2"): a dropped reply, a session expiry, a notification ... */
void report_mark(struct report *r, const char *lane, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The history recorded so far, ops in invocation order with
 * ops[k].index == k; borrowed, valid until the next report_invoke or
 * report_free.  Not for use while clients still record. */
const struct history *report_history(struct report *r);

/* The part of the history from op index first on (a later phase of a lab
 * that is checked on its own); indexes stay those of the whole history.
 * *out borrows from r as report_history does.  first past the end gives
 * an empty history. */
void report_history_since(struct report *r, int first, struct history *out);

/* The ops whose indexes are idx[0..n) (in that order; unknown indexes
 * skipped), for a checker that judges part of a run, e.g. every op but a
 * control's.  Indexes stay those of the whole history.  Returns 0 with
 * out->ops allocated (the caller frees out->ops; the strings stay r's),
 * or WB_ENOMEM. */
int report_history_subset(struct report *r, const int *idx, size_t n, struct history *out);

/* When each op's completion was seen (ns from the start; an info op's
 * t_complete says "any time later", this the moment the lab learned it),
 * or -1 while it has none; indexed like report_history, borrowed the same
 * way (NULL while the history is empty). */
const int64_t *report_history_ends(struct report *r);

/* How many ops were invoked so far: the first index of what comes next. */
int report_history_len(struct report *r);

/* A checker's verdict: writes a "checker" event (name, verdict, why,
 * witness) and a check of the same name that holds when res->verdict is
 * expect (HIST_VALID: the property holds; HIST_INVALID: the lesson claims
 * that it fails here).  HIST_UNKNOWN never holds.  Returns the check's ok. */
int report_checker(struct report *r, const char *name, const struct hist_result *res,
		   int expect /* enum hist_verdict */);

/* Sets *res to HIST_UNKNOWN saying that the checker refused the history
 * with rc (a WB_E* code: the lab recorded something malformed), for
 * report_checker to fail on; a *res the checker already marked
 * HIST_MALFORMED with a reason is kept as it is (the reason names the
 * op). */
void report_checker_error(struct hist_result *res, int rc);

/* "valid", "invalid" or "unknown" for an enum hist_verdict. */
const char *report_verdict_word(int verdict);

/* Counters, for tests. */
int report_checks(const struct report *r);
int report_failed(const struct report *r);
/* How many times report_cannot was called. */
int report_cannots(const struct report *r);

#endif
