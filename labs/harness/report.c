/*
 * report.c - lab event output (see report.h).
 *
 * Human lines use ✔/✘ and indentation; JSON lines are event.h's, so
 * every string is escaped correctly, whatever bytes a lab observed.  It
 * runs nothing and knows no lab: the verdict depends only on the checks,
 * report_cannot and how the run ended.  It keeps the operation history
 * the labs record (one mutex: client threads record at once) but judges
 * none; the checkers under checkers/ do.
 */
#include "harness/report.h"
#include "base/wb.h"
#include "checkers/history.h"
#include "event.h"
#include "harness/narration.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Distinct whats of report_story_wait kept apart in the plain line. */
#define REPORT_WAIT_KINDS 8

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
	pthread_mutex_t lock;  /* the history and the streams, for client threads */
	struct hist_op *ops;   /* the history; strings owned */
	int64_t *seen;	       /* when each op's completion was seen, or -1 */
	size_t n_ops, cap_ops;
	struct history hist; /* what report_history returned last */
	long story_ms;	     /* report_story_wait's sum */
	long server_ms;	     /* report_server_time's sum */
	struct story_wait {
		char *what;
		long ms;
	} waits[REPORT_WAIT_KINDS]; /* per what; the last slot takes the rest */
	int n_waits;
};

struct report *report_new(FILE *out, int json)
{
	struct report *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->out = out;
	r->json = json;
	pthread_mutex_init(&r->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	return r;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_ops; i++) {
		free((char *)r->ops[i].process);
		free((char *)r->ops[i].f);
		free((char *)r->ops[i].value);
		free((char *)r->ops[i].result);
	}
	free(r->ops);
	free(r->seen);
	pthread_mutex_destroy(&r->lock);
	free(r->conclusion);
	for (int i = 0; i < r->n_waits; i++)
		free(r->waits[i].what);
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

void report_story_wait(struct report *r, long ms, const char *what)
{
	if (ms <= 0)
		return;
	if (!what || !*what)
		what = "wait";
	pthread_mutex_lock(&r->lock);
	r->story_ms += ms;
	int i = 0;
	while (i < r->n_waits && strcmp(r->waits[i].what, what) != 0)
		i++;
	if (i == r->n_waits && i < REPORT_WAIT_KINDS) {
		r->waits[i].what = strdup(what);
		if (r->waits[i].what)
			r->n_waits++;
	}
	if (i >= r->n_waits)
		i = r->n_waits - 1; /* out of slots (or memory): the last one */
	if (i >= 0)
		r->waits[i].ms += ms;
	pthread_mutex_unlock(&r->lock);
}

void report_server_time(struct report *r, long ms)
{
	if (ms <= 0)
		return;
	pthread_mutex_lock(&r->lock);
	r->server_ms += ms;
	pthread_mutex_unlock(&r->lock);
}

static long elapsed_ms(const struct report *r)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - r->start.tv_sec) * 1000 + (now.tv_nsec - r->start.tv_nsec) / 1000000;
}

/* The split at elapsed time ms. */
static void split_at(struct report *r, long ms, long *story, long *server, long *other)
{
	pthread_mutex_lock(&r->lock);
	long st = r->story_ms, sv = r->server_ms;
	pthread_mutex_unlock(&r->lock);
	long rest = ms - st - sv;
	if (story)
		*story = st;
	if (server)
		*server = sv;
	if (other)
		*other = rest > 0 ? rest : 0;
}

void report_time_split(struct report *r, long *story_ms, long *server_ms, long *other_ms)
{
	split_at(r, elapsed_ms(r), story_ms, server_ms, other_ms);
}

/* The timing event and its plain line, at elapsed time ms. */
static void emit_timing(struct report *r, long ms)
{
	long story, server, other;
	split_at(r, ms, &story, &server, &other);
	struct wb_buf w = {0};
	pthread_mutex_lock(&r->lock);
	for (int i = 0; i < r->n_waits; i++)
		wb_buf_printf(&w, "%s%s %ld ms", i ? ", " : "", r->waits[i].what, r->waits[i].ms);
	pthread_mutex_unlock(&r->lock);
	const char *waits = w.len ? w.data : "-";
	emit(r, &(struct event_line){.kind = EVENT_TIMING,
				     .text = waits,
				     .story_ms = story,
				     .server_ms = server,
				     .other_ms = other});
	if (!r->json) {
		fprintf(r->out,
			narration_text(r->lang,
				       N_("time: %ld ms waiting for the story (%s), %ld ms "
					  "starting and stopping servers, %ld ms the rest")),
			story, waits, server, other);
		fputc('\n', r->out);
		fflush(r->out);
	}
	wb_buf_free(&w);
}

enum report_verdict report_finish(struct report *r, enum report_end end)
{
	long ms = elapsed_ms(r);
	enum report_verdict verdict = report_verdict_rule(r->checks, r->failed, r->cannot, end);
	if (verdict == REPORT_PASS && r->conclusion) {
		emit(r, &(struct event_line){.kind = EVENT_CONCLUSION, .text = r->conclusion});
		if (!r->json)
			fprintf(r->out, "  ⇒ %s\n", r->conclusion);
	}
	emit_timing(r, ms);
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

static int64_t since_start_ns(const struct report *r)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - r->start.tv_sec) * 1000000000 +
	       (now.tv_nsec - r->start.tv_nsec);
}

static const char *const type_words[] = {
	[HIST_INVOKE] = "invoke", [HIST_OK] = "ok", [HIST_FAIL] = "fail", [HIST_INFO] = "info"};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int report_invoke(struct report *r, const char *process, const char *f, const char *value)
{
	int index = WB_ENOMEM;
	pthread_mutex_lock(&r->lock);
	if (r->n_ops == r->cap_ops) {
		size_t cap = r->cap_ops ? 2 * r->cap_ops : 32;
		struct hist_op *ops = realloc(r->ops, cap * sizeof *ops);
		if (!ops)
			goto out;
		r->ops = ops;
		int64_t *seen = realloc(r->seen, cap * sizeof *seen);
		if (!seen)
			goto out;
		r->seen = seen;
		r->cap_ops = cap;
	}
	struct hist_op *op = &r->ops[r->n_ops];
	*op = (struct hist_op){.index = (int)r->n_ops,
			       .process = strdup(process ? process : ""),
			       .f = strdup(f ? f : ""),
			       .value = dup_or_null(value),
			       .end = HIST_INVOKE,
			       .t_invoke = since_start_ns(r),
			       .t_complete = INT64_MAX};
	if (!op->process || !op->f || (value && !op->value)) {
		free((char *)op->process);
		free((char *)op->f);
		free((char *)op->value);
		goto out;
	}
	r->seen[r->n_ops] = -1;
	index = (int)r->n_ops++;
	emit(r, &(struct event_line){.kind = EVENT_OP,
				     .index = index,
				     .process = op->process,
				     .type = "invoke",
				     .f = op->f,
				     .value = op->value,
				     .ns = op->t_invoke});
out:
	pthread_mutex_unlock(&r->lock);
	return index;
}

/* Records the completion; ns: since the start, or < 0 for now; value:
 * the op's new value, or NULL to keep it. */
static void complete(struct report *r, int index, int type, const char *value, const char *result,
		     int64_t ns)
{
	if (type != HIST_OK && type != HIST_FAIL && type != HIST_INFO)
		return;
	pthread_mutex_lock(&r->lock);
	if (index < 0 || (size_t)index >= r->n_ops || r->ops[index].end != HIST_INVOKE)
		goto out;
	struct hist_op *op = &r->ops[index];
	if (ns < 0)
		ns = since_start_ns(r);
	if (ns < op->t_invoke)
		ns = op->t_invoke;
	char *v = value ? strdup(value) : NULL;
	if (v) {
		free((char *)op->value);
		op->value = v;
	}
	op->end = (enum hist_type)type;
	op->result = type == HIST_OK ? dup_or_null(result) : NULL;
	/* an unknown outcome may take effect at any later time */
	op->t_complete = type == HIST_INFO ? INT64_MAX : ns;
	r->seen[index] = ns;
	emit(r, &(struct event_line){.kind = EVENT_OP,
				     .index = index,
				     .process = op->process,
				     .type = type_words[type],
				     .f = op->f,
				     .value = op->value,
				     .result = op->result,
				     .ns = ns});
	if (!r->json) {
		/* terse: "    op B read -> ok 0", "    op B write(2) -> info" */
		fprintf(r->out, "    op %s %s%s%s%s -> %s%s%s\n", op->process, op->f,
			op->value ? "(" : "", op->value ? op->value : "", op->value ? ")" : "",
			type_words[type], op->result ? " " : "", op->result ? op->result : "");
		fflush(r->out);
	}
out:
	pthread_mutex_unlock(&r->lock);
}

void report_complete(struct report *r, int index, int type, const char *result)
{
	complete(r, index, type, NULL, result, -1);
}

void report_complete_value(struct report *r, int index, int type, const char *value,
			   const char *result)
{
	complete(r, index, type, value, result, -1);
}

void report_complete_at(struct report *r, int index, int type, const char *result,
			long long mono_ns)
{
	int64_t start = (int64_t)r->start.tv_sec * 1000000000 + r->start.tv_nsec;
	int64_t ns = (int64_t)mono_ns - start;
	complete(r, index, type, NULL, result, ns < 0 ? 0 : ns);
}

void report_mark(struct report *r, const char *lane, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vfmt(fmt, ap);
	va_end(ap);
	if (!s)
		return;
	pthread_mutex_lock(&r->lock);
	emit(r, &(struct event_line){.kind = EVENT_MARK,
				     .process = lane ? lane : "",
				     .text = s,
				     .ns = since_start_ns(r)});
	if (!r->json) {
		fprintf(r->out, "    ~ %s: %s\n", lane ? lane : "", s);
		fflush(r->out);
	}
	pthread_mutex_unlock(&r->lock);
	free(s);
}

const struct history *report_history(struct report *r)
{
	report_history_since(r, 0, &r->hist);
	return &r->hist;
}

void report_history_since(struct report *r, int first, struct history *out)
{
	pthread_mutex_lock(&r->lock);
	size_t from = first < 0 ? 0 : (size_t)first;
	if (from > r->n_ops)
		from = r->n_ops;
	out->ops = r->ops ? r->ops + from : NULL;
	out->n = r->n_ops - from;
	pthread_mutex_unlock(&r->lock);
}

int report_history_subset(struct report *r, const int *idx, size_t n, struct history *out)
{
	out->n = 0;
	out->ops = calloc(n ? n : 1, sizeof *out->ops);
	if (!out->ops)
		return WB_ENOMEM;
	pthread_mutex_lock(&r->lock);
	for (size_t i = 0; i < n; i++)
		if (idx[i] >= 0 && (size_t)idx[i] < r->n_ops)
			out->ops[out->n++] = r->ops[idx[i]];
	pthread_mutex_unlock(&r->lock);
	return 0;
}

const int64_t *report_history_ends(struct report *r)
{
	return r->seen;
}

int report_history_len(struct report *r)
{
	pthread_mutex_lock(&r->lock);
	int n = (int)r->n_ops;
	pthread_mutex_unlock(&r->lock);
	return n;
}

const char *report_verdict_word(int verdict)
{
	return verdict == HIST_VALID	   ? "valid"
	       : verdict == HIST_INVALID   ? "invalid"
	       : verdict == HIST_MALFORMED ? "malformed"
					   : "unknown";
}

void report_checker_error(struct hist_result *res, int rc)
{
	if (res->verdict == HIST_MALFORMED && res->why[0])
		return; /* the checker said which op is malformed: keep it */
	memset(res, 0, sizeof *res);
	res->verdict = HIST_UNKNOWN;
	snprintf(res->why, sizeof res->why, "the checker refused the history (error %d)", rc);
}

int report_checker(struct report *r, const char *name, const struct hist_result *res, int expect)
{
	struct event_line e = {.kind = EVENT_CHECKER,
			       .name = name,
			       .result = report_verdict_word(res->verdict),
			       .text = res->why};
	size_t nw = res->n_witness < EVENT_WITNESS_MAX ? res->n_witness : EVENT_WITNESS_MAX;
	char wit[EVENT_WITNESS_MAX * 12 + 16] = "";
	size_t used = 0;
	for (size_t i = 0; i < nw; i++) {
		e.witness[i] = res->witness[i];
		used += (size_t)snprintf(wit + used, sizeof wit - used, "%s%d", i ? "," : "",
					 res->witness[i]);
	}
	e.n_witness = (int)nw;
	pthread_mutex_lock(&r->lock);
	emit(r, &e);
	pthread_mutex_unlock(&r->lock);
	char expected[64];
	snprintf(expected, sizeof expected, "the checker says %s", report_verdict_word(expect));
	return report_checkf(r, name, (int)res->verdict == expect && expect != HIST_UNKNOWN,
			     expected, "%s: %s%s%s%s", report_verdict_word(res->verdict), res->why,
			     nw ? " (ops " : "", wit, nw ? ")" : "");
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
