/*
 * sched.c - FSRS-5 memory model, intervals and the learner's days
 * (formulas, sources and the grade mapping in sched.h).
 *
 * Invariants
 * - 1 <= difficulty <= 10 and 0.01 <= stability <= 36500 after any review.
 * - due is the start of a later day than the review's: a question is never
 *   due again on the day of its own review.
 * - Intervals are ordered: Again <= Hard < Good < Easy (Hard may equal
 *   Again's one day).
 * State: the rollover hour (sched_set_day_start), one int for the process.
 */
#include "core/sched.h"
#include "core/quizfile.h"
#include "base/wb.h"

#include <math.h>
#include <time.h>

const double sched_default_weights[19] = {
	0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046,  1.54575, 0.1192,
	1.01925, 1.9395,  0.11,	 0.29605,  2.2698, 0.2315, 2.9898, 0.51655, 0.6621,
};

#define W(i) sched_default_weights[i]

static const double DECAY = -0.5;
static const double FACTOR = 19.0 / 81.0;
static const double S_MIN = 0.01;
static const double S_MAX = 36500.0;

static int day_start_hour = SCHED_DAY_START_DEF;

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

/* ---- days ---- */

int sched_set_day_start(int hour)
{
	if (hour < 0 || hour > 23)
		return WB_EINVAL;
	day_start_hour = hour;
	return 0;
}

int sched_day_start(void)
{
	return day_start_hour;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, int m, int d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

long sched_day(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	localtime_r(&tt, &tm);
	long day = days_from_civil(tm.tm_year + 1900L, tm.tm_mon + 1, tm.tm_mday);
	return tm.tm_hour < day_start_hour ? day - 1 : day;
}

int64_t sched_day_begin(long day)
{
	/* The calendar date of `day` (UTC arithmetic has no DST), then that
	 * date at the rollover hour in local time. */
	time_t noon = (time_t)day * 86400 + 43200;
	struct tm d;
	gmtime_r(&noon, &d);
	struct tm tm = {.tm_year = d.tm_year,
			.tm_mon = d.tm_mon,
			.tm_mday = d.tm_mday,
			.tm_hour = day_start_hour,
			.tm_isdst = -1};
	return (int64_t)mktime(&tm);
}

/* ---- the model ---- */

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
	/* Mean reversion towards D0(Easy): unreviewed drift stays bounded. */
	return clamp(W(7) * sched_init_difficulty(SCHED_EASY) + (1.0 - W(7)) * damped, 1, 10);
}

double sched_recall_stability(double d, double s, double r, int rating)
{
	rating = clamp_rating(rating);
	double hard = rating == SCHED_HARD ? W(15) : 1.0;
	double easy = rating == SCHED_EASY ? W(16) : 1.0;
	return clamp(s * (1.0 + exp(W(8)) * (11.0 - d) * pow(s, -W(9)) *
					(exp(W(10) * (1.0 - r)) - 1.0) * hard * easy),
		     S_MIN, S_MAX);
}

double sched_forget_stability(double d, double s, double r)
{
	return clamp(W(11) * pow(d, -W(12)) * (pow(s + 1.0, W(13)) - 1.0) * exp(W(14) * (1.0 - r)),
		     S_MIN, S_MAX);
}

double sched_lapse_stability(double d, double s, double r)
{
	/* A lapse never leaves a memory more stable than a same-day Again
	 * would (FSRS-5 with short-term stability). */
	double cap = clamp(s / exp(W(17) * W(18)), S_MIN, S_MAX);
	double f = sched_forget_stability(d, s, r);
	return f < cap ? f : cap;
}

double sched_short_term_stability(double s, int rating)
{
	return clamp(s * exp(W(17) * (clamp_rating(rating) - 3 + W(18))), S_MIN, S_MAX);
}

/* The memory state after a review rated g, t whole days after the last. */
static void next_memory(const struct sched_state *s, int g, long t, struct sched_state *n)
{
	if (s->reps == 0) {
		n->stability = clamp(W(g - 1) > 0.1 ? W(g - 1) : 0.1, S_MIN, S_MAX);
		n->difficulty = sched_init_difficulty(g);
		return;
	}
	double d = s->difficulty, st = s->stability;
	if (t == 0) {
		n->stability = sched_short_term_stability(st, g);
	} else {
		double r = retrievability_at((double)t, st);
		n->stability = g == SCHED_AGAIN ? sched_lapse_stability(d, st, r)
						: sched_recall_stability(d, st, r, g);
	}
	n->difficulty = sched_next_difficulty(d, g);
	if (g == SCHED_AGAIN)
		n->lapses++;
}

static int days_for(double stability)
{
	return (int)clamp(round(sched_interval_days(stability, SCHED_RETENTION)), 1,
			  SCHED_MAX_DAYS);
}

void sched_preview(const struct sched_state *s, int64_t now, struct sched_state next[4])
{
	if (s->reps && now < s->last_review)
		now = s->last_review;
	long today = sched_day(now);
	long t = s->reps ? today - sched_day(s->last_review) : 0;
	if (t < 0)
		t = 0;
	for (int g = SCHED_AGAIN; g <= SCHED_EASY; g++) {
		struct sched_state *n = &next[g - 1];
		*n = *s;
		next_memory(s, g, t, n);
		n->reps = s->reps + 1;
		n->last_review = now;
	}
	int ivl[4] = {1, days_for(next[1].stability), days_for(next[2].stability),
		      days_for(next[3].stability)};
	if (ivl[1] > ivl[2])
		ivl[1] = ivl[2];
	if (ivl[2] < ivl[1] + 1)
		ivl[2] = ivl[1] + 1;
	if (ivl[3] < ivl[2] + 1)
		ivl[3] = ivl[2] + 1;
	for (int i = 0; i < 4; i++) {
		next[i].interval = ivl[i] < SCHED_MAX_DAYS ? ivl[i] : SCHED_MAX_DAYS;
		next[i].due = sched_day_begin(today + next[i].interval);
	}
}

void sched_review(struct sched_state *s, int rating, int64_t now)
{
	struct sched_state next[4];
	sched_preview(s, now, next);
	*s = next[clamp_rating(rating) - 1];
}
