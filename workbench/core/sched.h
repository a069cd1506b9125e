/*
 * sched.h - spaced review: when is a question due again?
 *
 * The model is FSRS-5 (Free Spaced Repetition Scheduler, Ye et al., the
 * scheduler behind Anki's FSRS option) with its published default weights,
 * no per-learner optimisation and no fuzz.  Reference: ts-fsrs 4.7.1
 * (src/fsrs/algorithm.ts, "using FSRS-5.0", enable_short_term = true, the
 * default; FSRSAlgorithm.next_state and the basic scheduler's interval
 * order; fsrs-rs was not compared line by line).  Each question has a
 * memory state:
 *
 *   S  stability, in days: the time after which the chance of recall has
 *      fallen to 90 %; 0.01 <= S <= 36500;
 *   D  difficulty, 1 (easy) .. 10 (hard).
 *
 * Formulas (t = elapsed days, G = rating 1..4, DECAY = -0.5,
 * FACTOR = 19/81 so that R(S, S) = 0.9):
 *
 *   R(t, S)       = (1 + FACTOR * t / S) ^ DECAY               retrievability
 *   I(r, S)       = S / FACTOR * (r ^ (1/DECAY) - 1)           interval (= S at r = 0.9)
 *   S0(G)         = max(w[G-1], 0.1)                           first review
 *   D0(G)         = w4 - e^(w5 * (G - 1)) + 1                  clamped to [1, 10]
 *   D'            = D - w6 * (G - 3) * (10 - D) / 9            linear damping
 *   D''           = w7 * D0(4) + (1 - w7) * D'                 mean reversion, clamped
 *   S'r (G >= 2)  = S * (1 + e^w8 * (11 - D) * S^-w9 * (e^(w10 * (1 - R)) - 1)
 *                       * (w15 if G = 2) * (w16 if G = 4))
 *   S'f (G = 1)   = w11 * D^-w12 * ((S + 1)^w13 - 1) * e^(w14 * (1 - R))
 *   after a lapse = min(S'f, S / e^(w17 * w18))                 (at least 0.01)
 *   same day      = S * e^(w17 * (G - 3 + w18))                t = 0, any G
 *
 * Elapsed days t are whole calendar days of the learner's local time, and
 * a day starts at a fixed hour (4 am by default, like Anki; --day-starts):
 * a review at 23:00 and one at 05:00 the next morning are a day apart
 * (t = 1), a review at 02:00 still belongs to the day before.
 *
 * Default weights w0..w18 (FSRS-5, ts-fsrs 4.7.1 default_w):
 *   0.40255 1.18385 3.173 15.69105 7.1949 0.5345 1.4604 0.0046 1.54575
 *   0.1192 1.01925 1.9395 0.11 0.29605 2.2698 0.2315 2.9898 0.51655 0.6621
 *
 * Intervals.  The desired retention is 0.9, so I(0.9, S) = S: a rating's
 * interval is S rounded to whole days, at least 1, at most 36500, then
 * ordered as ts-fsrs orders a review's choices: Hard = min(Hard, Good),
 * Good = max(Good, Hard + 1), Easy = max(Easy, Good + 1).  Again is always
 * the next day: the workbench asks a question at most once per session
 * and has no minute steps, so "tomorrow" is its one relearning step (ts-fsrs
 * would show it again in 5 minutes).  Likewise a new question goes
 * straight to these day intervals instead of ts-fsrs's learning steps.
 * A question is due at the start of its day (the rollover hour), never
 * 24 h after the last review.
 *
 * The workbench has three grades, mapped onto FSRS's four ratings:
 *   Again  -> 1 Again  the key points were not recalled: a lapse;
 *   Partly -> 2 Hard   recalled, with gaps or real effort: FSRS counts Hard
 *                      as a successful recall whose stability grows less
 *                      (w15 = 0.23 of Good's gain) and whose difficulty
 *                      rises.  Mapping Partly to Good would make a partial
 *                      answer count as a full one; to Again, a lapse.
 *   Got it -> 3 Good   every point recalled without help.
 * Easy (4) is never produced by the learner flow.
 *
 * This module is arithmetic and the local calendar: no clock (callers
 * pass `now`), no storage (answers.c keeps the state and replays history
 * after an undo).  The rollover hour is one process-wide setting, made
 * once at start (sched_set_day_start); the local time zone is TZ's.
 */
#ifndef WB_SCHED_H
#define WB_SCHED_H

#include <stdint.h>

enum sched_rating { SCHED_AGAIN = 1, SCHED_HARD = 2, SCHED_GOOD = 3, SCHED_EASY = 4 };

#define SCHED_RETENTION	    0.9
#define SCHED_MAX_DAYS	    36500
#define SCHED_DAY_START_DEF 4

struct sched_state {
	double stability;    /* days; 0 for a question never reviewed */
	double difficulty;   /* 1..10; 0 when never reviewed */
	int64_t last_review; /* unix seconds of the last review, 0 never */
	int64_t due;	     /* unix seconds: the start of the day it is due */
	int reps;	     /* reviews so far */
	int lapses;	     /* reviews graded Again after the first */
	int interval;	     /* days from the last review's day to the due day (set by
				sched_review; 0 when read back from storage) */
};

/* The FSRS-5 default weights, w[0..18]. */
extern const double sched_default_weights[19];

/* FSRS rating for a workbench grade (quizfile.h GRADE_*); SCHED_AGAIN for an
 * unknown value. */
int sched_rating_of_grade(int grade);

/* Sets the hour (0..23, local time) at which a new day starts; other
 * values leave it unchanged.  Returns 0, or WB_EINVAL for a bad hour.
 * Not thread-safe: call once at start. */
int sched_set_day_start(int hour);

/* The hour a day starts at (SCHED_DAY_START_DEF unless set).  Cannot fail. */
int sched_day_start(void);

/* The learner's day holding unix time t: days since 1970-01-01 in the
 * local calendar, each starting at sched_day_start().  Cannot fail. */
long sched_day(int64_t t);

/* Unix seconds at which day `day` (sched_day's numbering) starts.  Cannot
 * fail. */
int64_t sched_day_begin(long day);

/* Applies one review graded `rating` at unix time `now` to *s (a zeroed
 * state is a new question).  A `now` before the last review is treated
 * as the same moment.  Never fails. */
void sched_review(struct sched_state *s, int rating, int64_t now);

/* What each rating would give at `now`: next[r - 1] is *s after a review
 * rated r (1..4), with its interval.  *s is not changed.  Never fails. */
void sched_preview(const struct sched_state *s, int64_t now, struct sched_state next[4]);

/* Chance of recall at `now` (1 for a new question), over fractional days. */
double sched_retrievability(const struct sched_state *s, int64_t now);

/* Days until recall falls to `retention` for stability s (unrounded). */
double sched_interval_days(double stability, double retention);

/* The formulas, exported for tests. */
double sched_init_difficulty(int rating);
double sched_next_difficulty(double d, int rating);
double sched_recall_stability(double d, double s, double r, int rating);
double sched_forget_stability(double d, double s, double r);
/* Stability after a lapse: min(S'f, S / e^(w17 * w18)), at least 0.01. */
double sched_lapse_stability(double d, double s, double r);
double sched_short_term_stability(double s, int rating);

#endif
