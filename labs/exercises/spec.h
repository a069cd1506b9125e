/*
 * spec.h - an exercise's specification and how a check judges it
 * (docs/exercises.md, "Specification, situations, exploration").
 *
 * A specification is the list of rules the task states, each with a
 * stable id ("release-only-own") that the task text shows the learner
 * (its "## Rules" section, in both languages) and that the check reports
 * as one named check.  A rule is judged in one or more situations: a
 * state staged on the lab's real server (a key that expired and nobody
 * took, a row out of attempts, a reply lost by the proxy) in which the
 * learner's code runs once and the outcome is compared with what the rule
 * demands.  A rule holds when it held in every situation; its check shows
 * the first situation where it did not, with the expected and the observed
 * values, or, when it held, how many situations judged it.
 *
 * After the staged situations a check may explore: seeded random
 * schedules of the exercise's operations (and faults), each run from a
 * fresh state and compared with the exercise's model; a schedule that
 * breaks a rule is shrunk (ops removed one at a time while the same rule
 * still breaks) and run once more with recording on, so the history and
 * the timeline show the smallest failing schedule.
 *
 * Determinism: every choice a check makes (ids, tokens, schedules) comes
 * from spec_rand, seeded from the exercise id, or from --seed; the seed is
 * printed as evidence, and the same code gets the same verdict on every
 * run.  Evidence keys "rules", "seed", "situations" and "schedules" are
 * read by tests/exercises/check.sh and bench/exercise_checks.sh.
 *
 * This module runs nothing itself: the exercise's check stages the
 * situations and supplies the schedule runner.
 */
#ifndef WB_SPEC_H
#define WB_SPEC_H

#include "exercise.h"
#include "harness/narration.h" /* N_ for the rules' demands */

#include <stddef.h>
#include <stdint.h>

#define SPEC_MAX_RULES 16
#define SPEC_MAX_OPS   64

/* One rule of the task: its id and what it demands, in one line (the
 * expected value of its check; an English literal marked N_ so the
 * narration catalogue translates it). */
struct spec_rule {
	const char *id;
	const char *demands;
};

struct spec_state {
	int situations; /* how many situations judged the rule */
	int failed;	/* how many of them it failed */
	char where[96]; /* the first failed situation */
	char observed[400];
};

struct spec {
	struct lab_ctx *ctx;
	const struct spec_rule *rules;
	size_t n;
	struct spec_state st[SPEC_MAX_RULES];
	uint64_t seed; /* as given or derived; printed */
	uint64_t rng;  /* the stream spec_rand draws from */
	int schedules; /* schedules explored */
	int reported;  /* spec_finish ran */
};

/* Starts judging: the rules (n of them, at most SPEC_MAX_RULES, ids
 * unique), the seed (code->seed when code->seed_given, else a hash of the
 * exercise id), and the evidence "rules" (ids, space-separated) and
 * "seed". */
void spec_init(struct spec *s, struct lab_ctx *ctx, const struct ex_code *code,
	       const struct spec_rule *rules, size_t n);

/* The next number of the check's seeded stream. */
uint64_t spec_rand(struct spec *s);
/* A number from 0 to n-1 (n > 0) from the stream. */
unsigned spec_below(struct spec *s, unsigned n);
/* 32 hex digits from the stream, NUL-terminated, in buf: a token or an id
 * the check chooses (so a rerun sees the same one). */
void spec_hex_id(struct spec *s, char buf[33]);

/* The index of rule id, or -1 (a programming error the caller asserts). */
int spec_rule_index(const struct spec *s, const char *id);

/* Judges rule id in one situation (a short name: "key expired, untaken"):
 * ok, else the observed value (printf format).  Returns ok.  An unknown
 * rule id aborts: it is the check's bug. */
int spec_judge(struct spec *s, const char *id, const char *situation, int ok,
	       const char *observed_fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * One schedule of an exploration: ops[0..n) are op kinds (0 .. kinds-1),
 * each drawn from the seeded stream; the runner stages a fresh state,
 * runs them in order against the learner's code and compares each outcome
 * with the exercise's model.  record non-zero: also record the operations
 * into the run's history (report_invoke/complete), which happens only for
 * the final shrunk schedule.  Returns 0 when every op matched the model,
 * the index + 1 of the rule the first mismatch breaks (with a one-line
 * account in why), or a negative WB_E code when the environment failed
 * (reported by the runner with report_cannot).
 */
typedef int (*spec_run_fn)(void *arg, const unsigned char *ops, int n, int record, char *why,
			   size_t whylen);

/*
 * Runs schedules schedules of len ops over kinds kinds (names[k] names
 * kind k in the account), stopping at the first that breaks a rule: that
 * schedule is shrunk, run again with record on, and judged as the rule's
 * situation "exploration" with the seed, the schedule and the runner's
 * account.  Every schedule that holds counts as a situation of every rule
 * in judged (ids, NULL-terminated).  Returns 0 (explored; rules judged),
 * or the runner's negative code.
 */
int spec_explore(struct spec *s, const char *const *judged, int schedules, int len, int kinds,
		 const char *const *names, spec_run_fn run, void *arg);

/* Ends judging: one check per rule (name = rule id, expected = what it
 * demands, observed = the first failed situation and what was seen, or
 * "held in N situations"), and the evidence "situations" and
 * "schedules".  Returns the number of rules that did not hold. */
int spec_finish(struct spec *s);

#endif
