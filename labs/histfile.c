/*
 * histfile.c - operation histories as JSON lines or Jepsen EDN (see
 * histfile.h).  jansson writes the JSON; the EDN is written by hand
 * because Debian has no C EDN library and the subset needed (maps of
 * keywords, integers, nil and strings) is small.  It does not read EDN.
 * Times are written as recorded, never adjusted: a completion before its
 * invocation (which the report does not record and the checkers refuse)
 * is written right after its invocation with its own, earlier time, so
 * the file still pairs and a reader sees the time go back.
 */
#include "histfile.h"
#include "event.h"
#include "base/wb.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* One line of the file: an invocation or a completion of op. */
struct hline {
	int64_t key; /* where it sorts: t, but never before its invocation */
	int op;
	int done;  /* 0 invocation, 1 completion */
	int64_t t; /* the time written */
};

static int by_time(const void *pa, const void *pb)
{
	const struct hline *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	/* equal times: invocations first, so no order is claimed that was
	 * not seen */
	if (a->done != b->done)
		return a->done - b->done;
	return (a->op > b->op) - (a->op < b->op);
}

static const char *const type_words[] = {
	[HIST_INVOKE] = "invoke", [HIST_OK] = "ok", [HIST_FAIL] = "fail", [HIST_INFO] = "info"};

int histfile_format_parse(const char *name, enum histfile_format *out)
{
	if (name && !strcmp(name, "json"))
		*out = HISTFILE_JSON;
	else if (name && !strcmp(name, "edn"))
		*out = HISTFILE_EDN;
	else
		return WB_EINVAL;
	return 0;
}

/* The value a line carries: the argument; for a completion of an op
 * that has none (a read), its result (Jepsen's convention).  A write's
 * token stays its value on every line. */
static const char *line_value(const struct hist_op *op, int done)
{
	return done && !op->value && op->result ? op->result : op->value;
}

/* The result a completion line carries apart from its value: an ok
 * op's result when the value is the argument; else NULL (no key). */
static const char *line_result(const struct hist_op *op, int done)
{
	return done && op->end == HIST_OK && op->value ? op->result : NULL;
}

/* 1 when s is a decimal integer that fits int64_t (EDN writes it bare). */
static int is_integer(const char *s)
{
	if (!s || !*s)
		return 0;
	const char *p = s + (*s == '-');
	if (!*p || (p[0] == '0' && p[1]))
		return 0;
	for (const char *q = p; *q; q++)
		if (!isdigit((unsigned char)*q))
			return 0;
	errno = 0;
	char *end;
	(void)strtoll(s, &end, 10);
	return errno == 0 && *end == '\0';
}

/* 1 when s can be an EDN keyword after ':' (a plain word). */
static int is_word(const char *s)
{
	if (!s || !isalpha((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.*+!?", *s))
			return 0;
	return 1;
}

static void edn_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f); /* UTF-8 passes through: EDN text is UTF-8 */
	}
	fputc('"', f);
}

static void edn_value(FILE *f, const char *v)
{
	if (!v)
		fputs("nil", f);
	else if (is_integer(v))
		fputs(v, f);
	else
		edn_string(f, v);
}

static int write_json(FILE *f, int index, const struct hist_op *op, int done, int64_t t)
{
	const char *v = line_value(op, done), *res = line_result(op, done);
	json_t *o = json_pack("{s:i, s:i, s:s, s:s, s:s, s:o, s:I}", "index", index, "op",
			      op->index, "process", op->process ? op->process : "", "type",
			      type_words[done ? op->end : HIST_INVOKE], "f", op->f ? op->f : "",
			      "value", v ? json_string(v) : json_null(), "time", (json_int_t)t);
	if (o && res && json_object_set_new(o, "result", json_string(res)) != 0) {
		json_decref(o);
		o = NULL;
	}
	return event_json_line(f, o);
}

static void write_edn(FILE *f, int index, const struct hist_op *op, int done, int64_t t,
		      int process)
{
	fprintf(f, "{:index %d, :process %d, :type :%s, :f ", index, process,
		type_words[done ? op->end : HIST_INVOKE]);
	if (is_word(op->f))
		fprintf(f, ":%s", op->f);
	else
		edn_string(f, op->f ? op->f : "");
	fputs(", :value ", f);
	edn_value(f, line_value(op, done));
	fprintf(f, ", :time %lld, :name ", (long long)t);
	edn_string(f, op->process ? op->process : "");
	fprintf(f, ", :op %d", op->index);
	const char *res = line_result(op, done);
	if (res) {
		fputs(", :result ", f);
		edn_value(f, res);
	}
	fputs("}\n", f);
}

/* Jepsen process numbers: slot k of a name is free again after an ok or
 * fail, never after an info (a crashed process).  proc[i]: op i's. */
struct slot {
	const char *name;
	int busy, retired;
};

static int take_slot(struct slot *slots, int *n, const char *name)
{
	for (int k = 0; k < *n; k++)
		if (!slots[k].busy && !slots[k].retired && !strcmp(slots[k].name, name)) {
			slots[k].busy = 1;
			return k;
		}
	slots[*n] = (struct slot){.name = name, .busy = 1};
	return (*n)++;
}

int histfile_write(FILE *f, const struct history *h, const int64_t *ends, enum histfile_format fmt)
{
	int rc = 0;
	size_t n = 0;
	struct hline *lines = calloc(2 * h->n + 1, sizeof *lines);
	struct slot *slots = calloc(h->n + 1, sizeof *slots);
	int *proc = calloc(h->n + 1, sizeof *proc);
	if (!lines || !slots || !proc) {
		rc = WB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < h->n; i++) {
		const struct hist_op *op = &h->ops[i];
		lines[n++] = (struct hline){op->t_invoke, (int)i, 0, op->t_invoke};
		int64_t t = ends ? ends[i] : op->t_complete;
		if (op->end != HIST_INVOKE && t >= 0 && t != INT64_MAX)
			lines[n++] =
				(struct hline){t < op->t_invoke ? op->t_invoke : t, (int)i, 1, t};
	}
	if (n > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(lines, n, sizeof *lines, by_time);
	int n_slots = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		const struct hist_op *op = &h->ops[lines[k].op];
		if (!lines[k].done) {
			proc[lines[k].op] =
				take_slot(slots, &n_slots, op->process ? op->process : "");
		} else {
			struct slot *s = &slots[proc[lines[k].op]];
			s->busy = 0;
			s->retired = op->end == HIST_INFO;
		}
		if (fmt == HISTFILE_JSON)
			rc = write_json(f, (int)k, op, lines[k].done, lines[k].t);
		else
			write_edn(f, (int)k, op, lines[k].done, lines[k].t, proc[lines[k].op]);
	}
	if (!rc && (ferror(f) || fflush(f) != 0))
		rc = WB_EIO;
out:
	free(lines);
	free(slots);
	free(proc);
	return rc;
}
