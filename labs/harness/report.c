/*
 * report.c - lab event output (see report.h).
 *
 * Human lines use ✔/✘ and indentation; JSON lines use jansson so every
 * string is escaped correctly, whatever bytes a lab observed.
 */
#include "harness/report.h"
#include "lab.h"

#include <jansson.h>
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
	free(r);
}

void report_tee(struct report *r, FILE *tee)
{
	r->tee = tee;
}

static void write_json(FILE *f, json_t *obj)
{
	char *s = json_dumps(obj, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (s) {
		fprintf(f, "%s\n", s);
		free(s);
	}
	fflush(f);
}

/* Writes obj to the tee, and to the main stream when it is JSON; then
 * drops the reference. */
static void emit_json(struct report *r, json_t *obj)
{
	if (r->json)
		write_json(r->out, obj);
	if (r->tee)
		write_json(r->tee, obj);
	json_decref(obj);
}

static char *vfmt(const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

void report_step(struct report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vfmt(fmt, ap);
	va_end(ap);
	if (!s)
		return;
	emit_json(r, json_pack("{s:s, s:s}", "t", "step", "text", s));
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
	if (!expected)
		expected = "";
	if (!observed)
		observed = "";
	emit_json(r, json_pack("{s:s, s:s, s:b, s:s, s:s}", "t", "check", "name", name, "ok", ok,
			       "expected", expected, "observed", observed));
	if (!r->json) {
		fprintf(r->out, "  %s %s\n      expected: %s\n      observed: %s\n", ok ? "✔" : "✘",
			name, expected, observed);
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
	emit_json(r, json_pack("{s:s, s:s, s:s}", "t", "evidence", "key", key, "value", s));
	if (!r->json) {
		fprintf(r->out, "    · %s = %s\n", key, s);
		fflush(r->out);
	}
	free(s);
}

void report_cannot(struct report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vfmt(fmt, ap);
	va_end(ap);
	if (!s)
		return;
	r->cannot = 1;
	emit_json(r, json_pack("{s:s, s:s}", "t", "error", "text", s));
	if (!r->json) {
		fprintf(r->out, "  ! %s\n", s);
		fflush(r->out);
	}
	free(s);
}

int report_finish(struct report *r, int run_rc)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms =
		(now.tv_sec - r->start.tv_sec) * 1000 + (now.tv_nsec - r->start.tv_nsec) / 1000000;
	int verdict;
	if (r->failed)
		verdict = LAB_EXIT_FAIL;
	else if (r->cannot || run_rc != 0)
		verdict = r->cannot || run_rc == -LAB_EXIT_CANNOT ? LAB_EXIT_CANNOT : LAB_EXIT_FAIL;
	else if (r->checks == 0)
		verdict = LAB_EXIT_FAIL; /* a lab that checked nothing proved nothing */
	else
		verdict = LAB_EXIT_PASS;
	{
		json_t *o = json_pack("{s:s, s:b, s:I, s:i, s:i}", "t", "verdict", "pass",
				      verdict == LAB_EXIT_PASS, "ms", (json_int_t)ms, "checks",
				      r->checks, "failed", r->failed);
		if (verdict == LAB_EXIT_CANNOT)
			json_object_set_new(o, "cannot", json_true());
		emit_json(r, o);
	}
	if (!r->json) {
		fprintf(r->out, "%s: %d check%s, %d failed (%ld ms)\n",
			verdict == LAB_EXIT_PASS   ? "PASS"
			: verdict == LAB_EXIT_FAIL ? "FAIL"
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
