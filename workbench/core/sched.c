/*
 * sched.c - FSRS-5 memory model and intervals (formulas and sources in
 * sched.h).
 *
 * Invariants
 * - 1 <= difficulty <= 10 and stability >= 0.01 after any review.
 * - due >= last_review + 1 day: a question is never due twice in a day
 *   because of its own review.
 */
#include "core/sched.h"
#include "core/quizfile.h"

#include <math.h>

const double sched_default_weights[19] = {
	0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046,  1.54575, 0.1192,
	1.01925, 1.9395,  0.11,	 0.29605,  2.2698, 0.2315, 2.9898, 0.51655, 0.6621,
};

#define W(i) sched_default_weights[i]

static const double DECAY = -0.5;
static const double FACTOR = 19.0 / 81.0;
static const double S_MIN = 0.01;

static double clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

int sched_rating_of_grade(int grade)
{
	switch (grade) {
	case GRADE_GOT: return SCHED_GOOD;
	case GRADE_PARTLY: return SCHED_HARD;
	default: return SCHED_AGAIN;
	}
}

static int clamp_rating(int g)
{
	return g < SCHED_AGAIN ? SCHED_AGAIN : g > SCHED_EASY ? SCHED_EASY : g;
}

double sched_interval_days(double stability, double retention)
{
	return stability / FACTOR * (pow(retention, 1.0 / DECAY) - 1.0);
}

static double retrievability_at(double t_days, double s)
{
	if (s <= 0)
		return 0;
	return pow(1.0 + FACTOR * t_days / s, DECAY);
}

double sched_retrievability(const struct sched_state *s, int64_t now)
{
	if (s->reps == 0)
		return 1.0;
	double t = (double)(now - s->last_review) / 86400.0;
	return retrievability_at(t < 0 ? 0 : t, s->stability);
}

double sched_init_difficulty(int rating)
{
	return clamp(W(4) - exp(W(5) * (clamp_rating(rating) - 1)) + 1.0, 1, 10);
}

double sched_next_difficulty(double d, int rating)
{
	double delta = -W(6) * (clamp_rating(rating) - 3);
	double damped = d + delta * (10.0 - d) / 9.0;
	/* Mean reversion towards D0(Easy): unreviewed drift stays bounded.
	 * D0(4) is used unclamped, as in the reference implementations. */
	double target = W(4) - exp(W(5) * 3) + 1.0;
	return clamp(W(7) * target + (1.0 - W(7)) * damped, 1, 10);
}

double sched_recall_stability(double d, double s, double r, int rating)
{
	rating = clamp_rating(rating);
	double hard = rating == SCHED_HARD ? W(15) : 1.0;
	double easy = rating == SCHED_EASY ? W(16) : 1.0;
	return s * (1.0 + exp(W(8)) * (11.0 - d) * pow(s, -W(9)) * (exp(W(10) * (1.0 - r)) - 1.0) *
				  hard * easy);
}

double sched_forget_stability(double d, double s, double r)
{
	double f = W(11) * pow(d, -W(12)) * (pow(s + 1.0, W(13)) - 1.0) * exp(W(14) * (1.0 - r));
	/* Forgetting never makes a memory more stable than it was. */
	return f < s ? f : s;
}

double sched_short_term_stability(double s, int rating)
{
	return s * exp(W(17) * (clamp_rating(rating) - 3 + W(18)));
}

void sched_review(struct sched_state *s, int rating, int64_t now)
{
	rating = clamp_rating(rating);
	if (s->reps == 0) {
		s->stability = W(rating - 1);
		s->difficulty = sched_init_difficulty(rating);
	} else {
		if (now < s->last_review)
			now = s->last_review;
		double t = (double)(now - s->last_review) / 86400.0;
		double d = s->difficulty, st = s->stability;
		if (t < 1.0) {
			st = sched_short_term_stability(st, rating);
		} else {
			double r = retrievability_at(t, st);
			st = rating == SCHED_AGAIN ? sched_forget_stability(d, st, r)
						   : sched_recall_stability(d, st, r, rating);
		}
		s->stability = st;
		s->difficulty = sched_next_difficulty(d, rating);
		if (rating == SCHED_AGAIN)
			s->lapses++;
	}
	if (s->stability < S_MIN)
		s->stability = S_MIN;
	s->reps++;
	s->last_review = now;
	double days = round(sched_interval_days(s->stability, SCHED_RETENTION));
	days = clamp(days, 1, SCHED_MAX_DAYS);
	if (rating == SCHED_AGAIN)
		days = 1;
	s->due = now + (int64_t)days * 86400;
}
