/*
 * sched.h - spaced review: when is a question due again?
 *
 * The model is FSRS-5 (Free Spaced Repetition Scheduler, Ye et al., the
 * scheduler behind Anki's FSRS option) with its published default weights
 * and no per-learner optimisation.  Each question has a memory state:
 *
 *   S  stability, in days: the time after which the chance of recall has
 *      fallen to 90 %;
 *   D  difficulty, 1 (easy) .. 10 (hard).
 *
 * Formulas (t = days since the last review, G = rating 1..4,
 * DECAY = -0.5, FACTOR = 19/81 so that R(S, S) = 0.9):
 *
 *   R(t, S)       = (1 + FACTOR * t / S) ^ DECAY               retrievability
 *   I(r, S)       = S / FACTOR * (r ^ (1/DECAY) - 1)           interval (= S at r = 0.9)
 *   S0(G)         = w[G-1]                                     first review
 *   D0(G)         = w4 - e^(w5 * (G - 1)) + 1                  clamped to [1, 10]
 *   D'            = D - w6 * (G - 3) * (10 - D) / 9            linear damping
 *   D''           = w7 * D0(4) + (1 - w7) * D'                 mean reversion, clamped
 *   S'r (G >= 2)  = S * (1 + e^w8 * (11 - D) * S^-w9 * (e^(w10 * (1 - R)) - 1)
 *                       * (w15 if G = 2) * (w16 if G = 4))
 *   S'f (G = 1)   = min(S, w11 * D^-w12 * ((S + 1)^w13 - 1) * e^(w14 * (1 - R)))
 *   same day      = S * e^(w17 * (G - 3 + w18))                t < 1 day
 *
 * Default weights w0..w18 (FSRS-5, as shipped by py-fsrs 4 / ts-fsrs 4):
 *   0.40255 1.18385 3.173 15.69105 7.1949 0.5345 1.4604 0.0046 1.54575
 *   0.1192 1.01925 1.9395 0.11 0.29605 2.2698 0.2315 2.9898 0.51655 0.6621
 *
 * The workbench has three grades, mapped onto FSRS's four ratings:
 * Again -> 1 (Again), Partly -> 2 (Hard: recalled, with gaps or effort),
 * Got it -> 3 (Good).  Easy (4) is never produced by the learner flow.
 * The desired retention is 0.9; the next review is I(0.9, S) days after
 * this one, rounded to whole days, at least 1, at most 36500.  A lapse
 * (Again) is therefore due the next day.
 *
 * This module is pure arithmetic: no clock (callers pass `now`), no
 * storage (answers.c keeps the state and replays history after an undo).
 */
#ifndef WB_SCHED_H
#define WB_SCHED_H

#include <stdint.h>

enum sched_rating { SCHED_AGAIN = 1, SCHED_HARD = 2, SCHED_GOOD = 3, SCHED_EASY = 4 };

#define SCHED_RETENTION 0.9
#define SCHED_MAX_DAYS	36500

struct sched_state {
	double stability;    /* days; 0 for a question never reviewed */
	double difficulty;   /* 1..10; 0 when never reviewed */
	int64_t last_review; /* unix seconds of the last review, 0 never */
	int64_t due;	     /* unix seconds when the next review is due */
	int reps;	     /* reviews so far */
	int lapses;	     /* reviews graded Again after the first */
};

/* The FSRS-5 default weights, w[0..18]. */
extern const double sched_default_weights[19];

/* FSRS rating for a workbench grade (quizfile.h GRADE_*); SCHED_AGAIN for an
 * unknown value. */
int sched_rating_of_grade(int grade);

/* Applies one review graded `rating` at unix time `now` to *s (a zeroed
 * state is a new question).  A `now` before the last review is treated
 * as the same moment.  Never fails. */
void sched_review(struct sched_state *s, int rating, int64_t now);

/* Chance of recall at `now` (1 for a new question). */
double sched_retrievability(const struct sched_state *s, int64_t now);

/* Days until recall falls to `retention` for stability s (unrounded). */
double sched_interval_days(double stability, double retention);

/* The formulas, exported for tests. */
double sched_init_difficulty(int rating);
double sched_next_difficulty(double d, int rating);
double sched_recall_stability(double d, double s, double r, int rating);
double sched_forget_stability(double d, double s, double r);
double sched_short_term_stability(double s, int rating);

#endif
