/*
 * report.c - lab event output (see report.h).
 *
 * Human lines use ✔/✘ and indentation; JSON lines are event.h's, so
 * every string is escaped correctly, whatever bytes a lab observed.  It
 * runs nothing and knows no lab: the verdict depends only on the checks,
 * report_cannot and how the run ended.
 */
#include "harness/report.h"
#include "base/wb.h"
#include "event.h"
#include "harness/narration.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct report {
	FILE *out;	       /* borrowed stream */
	int json;	       /* JSON lines instead of text */
	FILE *tee;	       /* borrowed: a JSON copy of every event, or NULL */
	int checks;	       /* checks made */
	int failed;	       /* checks that did not hold */
	int cannot;	       /* the environment prevented the run */
	struct timespec start; /* for the verdict's elapsed time */
	char *conclusion;      /* report_conclusion's text, or NULL */
	const char *lang;      /* narration language ("en", "zh"); static */
};

struct report *report_new(FILE *out, int json)
{
	struct report *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->out = out;
	r->json = json;
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	return r;
}

void report_free(struct report *r)
{
	if (r)
		free(r->conclusion);
	free(r);
}

void report_tee(struct report *r, FILE *tee)
{
	r->tee = tee;
}

/* Writes e to the tee, and to the main stream when it is JSON. */
static void emit(struct report *r, const struct event_line *e)
{
	if (r->json)
		event_write(r->out, e);
	if (r->tee)
		event_write(r->tee, e);
}

static char *vfmt(const char *fmt, va_list ap)
{
	return wb_xvasprintf(fmt, ap); /* the one two-pass vsnprintf (base/wb.h) */
}

void report_set_lang(struct report *r, const char *lang)
{
	r->lang = lang && !strcmp(lang, "zh") ? "zh" : "en";
}

void report_step(struct report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vfmt(narration_text(r->lang, fmt), ap);
	va_end(ap);
	if (!s)
		return;
	emit(r, &(struct event_line){.kind = EVENT_STEP, .text = s});
	if (!r->json) {
		fprintf(r->out, "  • %s\n", s);
		fflush(r->out);
	}
	free(s);
}

int report_check(struct report *r, const char *name, int ok, const char *expected,
		 const char *observed)
{
	r->checks++;
	if (!ok)
		r->failed++;
	expected = expected ? narration_text(r->lang, expected) : "";
	if (!observed)
		observed = "";
	emit(r, &(struct event_line){.kind = EVENT_CHECK,
				     .text = name,
				     .ok = ok,
				     .expected = expected,
				     .observed = observed});
	if (!r->json) {
		int control = ok && !strncmp(name, "control-", 8);
		fprintf(r->out, "  %s %s%s\n      expected: %s\n      observed: %s\n",
			ok ? "✔" : "✘", name, control ? "  (the control failed, as expected)" : "",
			expected, observed);
		fflush(r->out);
	}
	return ok;
}

int report_checkf(struct report *r, const char *name, int ok, const char *expected,
		  const char *observed_fmt, ...)
{
	va_list ap;
	va_start(ap, observed_fmt);
	char *s = vfmt(observed_fmt, ap);
	va_end(ap);
	int rc = report_check(r, name, ok, expected, s ? s : "?");
	free(s);
	return rc;
}

void report_evidence(struct report *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vfmt(fmt, ap);
	va_end(ap);
	if (!s)
		return;
	emit(r, &(struct event_line){.kind = EVENT_EVIDENCE, .text = key, .observed = s});
	if (!r->json) {
		fprintf(r->out, "    · %s = %s\n", key, s);
		fflush(r->out);
	}
	free(s);
}

void report_conclusion(struct report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vfmt(narration_text(r->lang, fmt), ap);
	va_end(ap);
	if (!s)
		return;
	free(r->conclusion);
	r->conclusion = s;
}

void report_cannot(struct report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vfmt(narration_text(r->lang, fmt), ap);
	va_end(ap);
	if (!s)
		return;
	r->cannot++;
	emit(r, &(struct event_line){.kind = EVENT_ERROR, .text = s});
	if (!r->json) {
		fprintf(r->out, "  ! %s\n", s);
		fflush(r->out);
	}
	free(s);
}

enum report_verdict report_verdict_rule(int checks, int failed, int cannot, enum report_end end)
{
	if (failed)
		return REPORT_FAIL;
	if (cannot || end == REPORT_CANNOT_RUN)
		return REPORT_CANNOT;
	if (end != REPORT_RAN)
		return REPORT_FAIL;
	if (checks == 0)
		return REPORT_FAIL; /* a lab that checked nothing proved nothing */
	return REPORT_PASS;
}

enum report_verdict report_finish(struct report *r, enum report_end end)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms =
		(now.tv_sec - r->start.tv_sec) * 1000 + (now.tv_nsec - r->start.tv_nsec) / 1000000;
	enum report_verdict verdict = report_verdict_rule(r->checks, r->failed, r->cannot, end);
	if (verdict == REPORT_PASS && r->conclusion) {
		emit(r, &(struct event_line){.kind = EVENT_CONCLUSION, .text = r->conclusion});
		if (!r->json)
			fprintf(r->out, "  ⇒ %s\n", r->conclusion);
	}
	emit(r, &(struct event_line){.kind = EVENT_VERDICT,
				     .ok = verdict == REPORT_PASS,
				     .cannot = verdict == REPORT_CANNOT,
				     .ms = ms,
				     .checks = r->checks,
				     .failed = r->failed});
	if (!r->json) {
		fprintf(r->out, "%s: %d check%s, %d failed (%ld ms)\n",
			verdict == REPORT_PASS	 ? "PASS"
			: verdict == REPORT_FAIL ? "FAIL"
						 : "COULD NOT RUN",
			r->checks, r->checks == 1 ? "" : "s", r->failed, ms);
		fflush(r->out);
	}
	return verdict;
}

int report_checks(const struct report *r)
{
	return r->checks;
}

int report_failed(const struct report *r)
{
	return r->failed;
}

int report_cannots(const struct report *r)
{
	return r->cannot;
}
