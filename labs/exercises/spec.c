/*
 * spec.c - judging an exercise by its rules (see spec.h).
 *
 * Invariants: every rule is reported exactly once, by spec_finish; a rule
 * no situation judged is reported as failed (a check that forgot a rule
 * must not pass it); the stream spec_rand draws from depends only on the
 * seed and on the order of the draws, so a check that draws in a fixed
 * order replays exactly.  The PRNG is splitmix64 (Steele, Lea and Flood,
 * OOPSLA 2014): tiny, full-period and good enough to choose schedules;
 * nothing here needs a library's.
 */
#include "spec.h"
#include "harness/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* FNV-1a of the exercise id: the default seed, fixed per exercise. */
static uint64_t id_seed(const char *id)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; id && *id; id++)
		h = (h ^ (unsigned char)*id) * 0x100000001b3ull;
	return h % 1000000007ull; /* a number a learner can type */
}

void spec_init(struct spec *s, struct lab_ctx *ctx, const struct ex_code *code,
	       const struct spec_rule *rules, size_t n)
{
	if (n > SPEC_MAX_RULES)
		abort();
	memset(s, 0, sizeof *s);
	s->ctx = ctx;
	s->rules = rules;
	s->n = n;
	s->seed = code->seed_given ? code->seed : id_seed(code->ex ? code->ex->id : "");
	s->rng = s->seed;
	char ids[SPEC_MAX_RULES * 40] = "";
	size_t off = 0;
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(ids + off, sizeof ids - off, "%s%s", i ? " " : "", rules[i].id);
		if (w > 0 && (size_t)w < sizeof ids - off)
			off += (size_t)w;
	}
	report_evidence(ctx->report, "rules", "%s", ids);
	report_evidence(ctx->report, "seed", "%llu", (unsigned long long)s->seed);
}

uint64_t spec_rand(struct spec *s)
{
	return splitmix64(&s->rng);
}

unsigned spec_below(struct spec *s, unsigned n)
{
	return n ? (unsigned)(spec_rand(s) % n) : 0;
}

void spec_hex_id(struct spec *s, char buf[33])
{
	uint64_t a = spec_rand(s), b = spec_rand(s);
	snprintf(buf, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

int spec_rule_index(const struct spec *s, const char *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->rules[i].id, id) == 0)
			return (int)i;
	return -1;
}

static int judge_v(struct spec *s, int k, const char *situation, int ok, const char *fmt,
		   va_list ap)
{
	struct spec_state *st = &s->st[k];
	st->situations++;
	if (ok)
		return 1;
	if (st->failed++ == 0) {
		snprintf(st->where, sizeof st->where, "%s", situation);
		vsnprintf(st->observed, sizeof st->observed, fmt, ap);
	}
	return 0;
}

int spec_judge(struct spec *s, const char *id, const char *situation, int ok,
	       const char *observed_fmt, ...)
{
	int k = spec_rule_index(s, id);
	if (k < 0) {
		fprintf(stderr, "spec_judge: no rule '%s'\n", id);
		abort();
	}
	va_list ap;
	va_start(ap, observed_fmt);
	int r = judge_v(s, k, situation, ok, observed_fmt, ap);
	va_end(ap);
	return r;
}

static void schedule_text(char *buf, size_t len, const unsigned char *ops, int n,
			  const char *const *names)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && off + 1 < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? " " : "", names[ops[i]]);
		if (w < 0)
			break;
		off += (size_t)w < len - off ? (size_t)w : len - off - 1;
	}
}

/* Greedy shrinking: drop one op at a time while the schedule still breaks
 * the same rule; repeat until no single removal does.  *n shrinks. */
static int shrink(spec_run_fn run, void *arg, unsigned char *ops, int *n, int rule)
{
	char why[256];
	int changed = 1;
	while (changed && *n > 1) {
		changed = 0;
		for (int i = 0; i < *n; i++) {
			unsigned char t[SPEC_MAX_OPS];
			int m = 0;
			for (int j = 0; j < *n; j++)
				if (j != i)
					t[m++] = ops[j];
			int r = run(arg, t, m, 0, why, sizeof why);
			if (r < 0)
				return r;
			if (r == rule) {
				memcpy(ops, t, (size_t)m);
				*n = m;
				changed = 1;
				break;
			}
		}
	}
	return 0;
}

int spec_explore(struct spec *s, const char *const *judged, int schedules, int len, int kinds,
		 const char *const *names, spec_run_fn run, void *arg)
{
	if (len > SPEC_MAX_OPS)
		len = SPEC_MAX_OPS;
	for (int k = 0; k < schedules; k++) {
		unsigned char ops[SPEC_MAX_OPS];
		int n = len;
		for (int i = 0; i < n; i++)
			ops[i] = (unsigned char)spec_below(s, (unsigned)kinds);
		char why[256] = "";
		int r = run(arg, ops, n, 0, why, sizeof why);
		s->schedules++;
		if (r < 0)
			return r;
		if (r == 0) {
			for (int j = 0; judged && judged[j]; j++)
				spec_judge(s, judged[j], "exploration", 1, "%s", "");
			continue;
		}
		if (r > (int)s->n)
			abort();
		int from = n;
		int e = shrink(run, arg, ops, &n, r);
		if (e < 0)
			return e;
		why[0] = '\0';
		e = run(arg, ops, n, 1, why, sizeof why);
		if (e < 0)
			return e;
		if (e != r) /* not reproducible: judge what the first run saw */
			e = r;
		char sched[200];
		schedule_text(sched, sizeof sched, ops, n, names);
		char where[96];
		snprintf(where, sizeof where, "exploration, schedule %d", k + 1);
		spec_judge(s, s->rules[e - 1].id, where, 0,
			   "%s (seed %llu; shrunk from %d to %d ops: %s; replay: exercise check "
			   "--seed %llu)",
			   why, (unsigned long long)s->seed, from, n, sched,
			   (unsigned long long)s->seed);
		return 0;
	}
	return 0;
}

int spec_finish(struct spec *s)
{
	int bad = 0, total = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct spec_state *st = &s->st[i];
		total += st->situations;
		if (st->situations == 0) {
			report_check(s->ctx->report, s->rules[i].id, 0, s->rules[i].demands,
				     "no situation judged this rule (the check stopped before it)");
			bad++;
		} else if (st->failed) {
			report_checkf(s->ctx->report, s->rules[i].id, 0, s->rules[i].demands,
				      "%s: %s", st->where, st->observed);
			bad++;
		} else {
			report_checkf(s->ctx->report, s->rules[i].id, 1, s->rules[i].demands,
				      "held in %d situation%s", st->situations,
				      st->situations == 1 ? "" : "s");
		}
	}
	report_evidence(s->ctx->report, "situations", "%d", total);
	report_evidence(s->ctx->report, "schedules", "%d", s->schedules);
	s->reported = 1;
	return bad;
}
