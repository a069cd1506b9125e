/*
 * event.c - lab events as JSON lines (see event.h).  jansson does the
 * escaping, so any bytes a lab observed survive the trip.  No verdict
 * logic and no human output here.
 */
#include "event.h"
#include "base/wb.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
	[EVENT_STEP] = "step",		 [EVENT_CHECK] = "check",
	[EVENT_EVIDENCE] = "evidence",	 [EVENT_ERROR] = "error",
	[EVENT_VERDICT] = "verdict",	 [EVENT_CONCLUSION] = "conclusion",
	[EVENT_CANCELLED] = "cancelled", [EVENT_OP] = "op",
	[EVENT_MARK] = "mark",		 [EVENT_CHECKER] = "checker",
	[EVENT_TIMING] = "timing",	 [EVENT_UNKNOWN] = "?",
};

const char *event_kind_name(enum event_kind kind)
{
	return (unsigned)kind < WB_ARRAY_LEN(names) ? names[kind] : "?";
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* A string or JSON null for NULL. */
static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *encode_op(const struct event_line *e)
{
	return json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:I}", "t", "op", "i", e->index, "p",
			 or_empty(e->process), "type", or_empty(e->type), "f", or_empty(e->f), "v",
			 str_or_null(e->value), "r", str_or_null(e->result), "ns",
			 (json_int_t)e->ns);
}

static json_t *encode_checker(const struct event_line *e)
{
	json_t *w = json_array();
	for (int i = 0; w && i < e->n_witness && i < EVENT_WITNESS_MAX; i++)
		json_array_append_new(w, json_integer(e->witness[i]));
	if (!w)
		return NULL;
	return json_pack("{s:s, s:s, s:s, s:s, s:o}", "t", "checker", "name", or_empty(e->name),
			 "result", or_empty(e->result), "text", or_empty(e->text), "witness", w);
}

/* The JSON object for e, or NULL (unknown kind, no memory). */
static json_t *encode(const struct event_line *e)
{
	switch (e->kind) {
	case EVENT_STEP:
	case EVENT_ERROR:
	case EVENT_CONCLUSION:
		return json_pack("{s:s, s:s}", "t", names[e->kind], "text", or_empty(e->text));
	case EVENT_CHECK:
		return json_pack("{s:s, s:s, s:b, s:s, s:s}", "t", "check", "name",
				 or_empty(e->text), "ok", e->ok, "expected", or_empty(e->expected),
				 "observed", or_empty(e->observed));
	case EVENT_EVIDENCE:
		return json_pack("{s:s, s:s, s:s}", "t", "evidence", "key", or_empty(e->text),
				 "value", or_empty(e->observed));
	case EVENT_VERDICT: {
		json_t *o =
			json_pack("{s:s, s:b, s:I, s:i, s:i}", "t", "verdict", "pass", e->ok, "ms",
				  (json_int_t)e->ms, "checks", e->checks, "failed", e->failed);
		if (o && e->cannot)
			json_object_set_new(o, "cannot", json_true());
		return o;
	}
	case EVENT_CANCELLED:
		return json_pack("{s:s, s:i, s:s}", "t", "cancelled", "stopped", e->stopped, "kept",
				 or_empty(e->text));
	case EVENT_OP: return encode_op(e);
	case EVENT_MARK:
		return json_pack("{s:s, s:s, s:s, s:I}", "t", "mark", "lane", or_empty(e->process),
				 "text", or_empty(e->text), "ns", (json_int_t)e->ns);
	case EVENT_CHECKER: return encode_checker(e);
	case EVENT_TIMING:
		return json_pack("{s:s, s:I, s:I, s:I, s:s}", "t", "timing", "story_ms",
				 (json_int_t)e->story_ms, "server_ms", (json_int_t)e->server_ms,
				 "other_ms", (json_int_t)e->other_ms, "text", or_empty(e->text));
	case EVENT_UNKNOWN: break;
	}
	return NULL;
}

int event_json_line(FILE *f, json_t *o)
{
	if (!o)
		return WB_ENOMEM;
	char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!s)
		return WB_ENOMEM;
	int rc = fprintf(f, "%s\n", s) < 0 ? WB_EIO : 0;
	free(s);
	return rc;
}

int event_write(FILE *f, const struct event_line *e)
{
	if (e->kind == EVENT_UNKNOWN)
		return WB_EINVAL;
	int rc = event_json_line(f, encode(e));
	if (rc != WB_ENOMEM && fflush(f) != 0)
		rc = WB_EIO;
	return rc;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static enum event_kind kind_of(const char *t)
{
	for (size_t i = 0; i < WB_ARRAY_LEN(names); i++)
		if (i != EVENT_UNKNOWN && !strcmp(names[i], t))
			return (enum event_kind)i;
	return EVENT_UNKNOWN;
}

static void parse_op(json_t *o, struct event_line *e)
{
	e->index = (int)json_integer_value(json_object_get(o, "i"));
	e->process = str(o, "p");
	e->type = str(o, "type");
	e->f = str(o, "f");
	e->value = json_string_value(json_object_get(o, "v"));
	e->result = json_string_value(json_object_get(o, "r"));
	e->ns = (long long)json_integer_value(json_object_get(o, "ns"));
}

static void parse_checker(json_t *o, struct event_line *e)
{
	e->name = str(o, "name");
	e->result = str(o, "result");
	e->text = str(o, "text");
	json_t *w = json_object_get(o, "witness");
	for (size_t i = 0; i < json_array_size(w) && e->n_witness < EVENT_WITNESS_MAX; i++) {
		json_t *x = json_array_get(w, i);
		if (json_is_integer(x))
			e->witness[e->n_witness++] = (int)json_integer_value(x);
	}
}

int event_parse(const char *line, struct event_line *e)
{
	memset(e, 0, sizeof *e);
	json_t *o = json_loads(line, 0, NULL);
	const char *t = json_string_value(json_object_get(o, "t"));
	if (!t) {
		json_decref(o);
		return WB_EINVAL;
	}
	e->priv = o;
	e->kind = kind_of(t);
	e->text = e->expected = e->observed = "";
	e->process = e->type = e->f = e->name = "";
	switch (e->kind) {
	case EVENT_CHECK:
		e->text = str(o, "name");
		e->ok = json_is_true(json_object_get(o, "ok"));
		e->expected = str(o, "expected");
		e->observed = str(o, "observed");
		break;
	case EVENT_EVIDENCE:
		e->text = str(o, "key");
		e->observed = str(o, "value");
		break;
	case EVENT_VERDICT:
		e->ok = json_is_true(json_object_get(o, "pass"));
		e->cannot = json_is_true(json_object_get(o, "cannot"));
		e->ms = (long)json_integer_value(json_object_get(o, "ms"));
		e->checks = (int)json_integer_value(json_object_get(o, "checks"));
		e->failed = (int)json_integer_value(json_object_get(o, "failed"));
		break;
	case EVENT_CANCELLED:
		e->stopped = (int)json_integer_value(json_object_get(o, "stopped"));
		e->text = str(o, "kept");
		break;
	case EVENT_OP: parse_op(o, e); break;
	case EVENT_MARK:
		e->process = str(o, "lane");
		e->text = str(o, "text");
		e->ns = (long long)json_integer_value(json_object_get(o, "ns"));
		break;
	case EVENT_CHECKER: parse_checker(o, e); break;
	case EVENT_TIMING:
		e->story_ms = (long)json_integer_value(json_object_get(o, "story_ms"));
		e->server_ms = (long)json_integer_value(json_object_get(o, "server_ms"));
		e->other_ms = (long)json_integer_value(json_object_get(o, "other_ms"));
		e->text = str(o, "text");
		break;
	default: /* step, error, conclusion, and an unknown kind's text if it has one */
		e->text = str(o, "text");
		break;
	}
	return 0;
}

void event_clear(struct event_line *e)
{
	json_decref(e->priv);
	memset(e, 0, sizeof *e);
}
