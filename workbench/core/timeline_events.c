/*
 * timeline_events.c - reads the "op", "mark" and "checker" event lines
 * into a timeline (timeline_events.h), with jansson.
 *
 * Operations are kept as they are fed (invocation, then completion by the
 * same "i") and turned into a timeline only when asked, so a screen can
 * feed a running lab's lines one by one and draw at any moment, with the
 * operations still open shown as pending.  A malformed line is refused
 * whole: nothing of it is kept.  It does not decide anything about the
 * history (the checkers under labs/checkers do).
 *
 * It also reads the history files of `lab run --history` (labs/histfile.h,
 * Jepsen's shape): JSON lines {"index","process","type","f","value",
 * "time"} without "t", and EDN lines {:index 0, :process 0, :type
 * :invoke, ...} (turned into the same JSON object by a small reader of
 * the EDN maps histfile writes: keywords, integers, strings, nil,
 * booleans).  Such a file has no operation ids: a completion closes the
 * oldest open invocation of its process (EDN's integer :process, which
 * Jepsen never gives two open operations; in JSON the name, then the
 * same f first), and the lane is the name (EDN's :name).  A completion's
 * value is drawn as the result when it differs from the invocation's.
 */
#include "core/timeline_events.h"
#include "base/wb.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest event file tl_events_load reads (review r3 N6): a lesson's
 * ```timeline block or `workbench timeline FILE` pointing at /dev/zero
 * or a runaway file read until the process ran out of memory.  Real
 * histories are a few KiB (lessons/timelines) to a few hundred KiB (a
 * lab's --history); 16 MiB costs about 50 MB and 1.5 s to draw. */
#define TL_EVENTS_MAX_BYTES (16u << 20)

struct ev_op {
	long long id;
	char *p, *f, *v, *r;
	enum tl_outcome end;
	int completed;
	int64_t t_inv, t_end;
};

struct ev_mark {
	char *lane, *text;
	int64_t t;
};

struct ev_checker {
	char *name, *result, *text;
	int *witness;
	size_t n;
};

/* An invocation of a history file not completed yet. */
struct ev_open {
	char *key;    /* the process it pairs by */
	long long id; /* the invocation's line index */
	long long op; /* the file's operation id ("op"), or -1 when it has none */
};

struct tl_events {
	struct ev_op *ops;
	size_t nops;
	struct ev_mark *marks;
	size_t nmarks;
	struct ev_checker *checkers;
	size_t nchk;
	size_t taken;
	size_t *slots;	      /* open addressing: id -> index into ops + 1, 0 empty */
	size_t nslots;	      /* a power of two, more than twice nops; 0 before the first */
	struct ev_open *open; /* history files: open invocations, oldest first */
	size_t nopen;
};

struct tl_events *tl_events_new(void)
{
	return wb_xcalloc(1, sizeof(struct tl_events));
}

void tl_events_free(struct tl_events *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nops; i++) {
		free(e->ops[i].p);
		free(e->ops[i].f);
		free(e->ops[i].v);
		free(e->ops[i].r);
	}
	free(e->ops);
	for (size_t i = 0; i < e->nmarks; i++) {
		free(e->marks[i].lane);
		free(e->marks[i].text);
	}
	free(e->marks);
	for (size_t i = 0; i < e->nchk; i++) {
		free(e->checkers[i].name);
		free(e->checkers[i].result);
		free(e->checkers[i].text);
		free(e->checkers[i].witness);
	}
	free(e->checkers);
	free(e->slots);
	for (size_t i = 0; i < e->nopen; i++)
		free(e->open[i].key);
	free(e->open);
	free(e);
}

size_t tl_events_count(const struct tl_events *e)
{
	return e->taken;
}

__attribute__((format(printf, 3, 4))) static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return WB_EINVAL;
}

/* A field as text: strings as they are, numbers and booleans written out,
 * absent or null as NULL.  Returns WB_EINVAL for arrays and objects. */
static int text_field(json_t *o, const char *key, char **out)
{
	json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (json_is_string(v))
		*out = wb_xstrdup(json_string_value(v));
	else if (json_is_integer(v))
		*out = wb_xasprintf("%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		*out = wb_xasprintf("%g", json_real_value(v));
	else if (json_is_boolean(v))
		*out = wb_xstrdup(json_is_true(v) ? "true" : "false");
	else
		return WB_EINVAL;
	return 0;
}

static int ns_field(json_t *o, int64_t *out)
{
	json_t *v = json_object_get(o, "ns");
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return WB_EINVAL;
	*out = (int64_t)json_integer_value(v);
	return 0;
}

static size_t slot_of(const struct tl_events *e, long long id)
{
	unsigned long long h = (unsigned long long)id * 0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 20) & (e->nslots - 1);
	while (e->slots[i] && e->ops[e->slots[i] - 1].id != id)
		i = (i + 1) & (e->nslots - 1);
	return i;
}

/* The operation with id, by hash (a history of 100,000 operations is
 * read in linear time), or NULL. */
static struct ev_op *find_op(struct tl_events *e, long long id)
{
	if (!e->nslots)
		return NULL;
	size_t i = slot_of(e, id);
	return e->slots[i] ? &e->ops[e->slots[i] - 1] : NULL;
}

/* Indexes ops[nops - 1], growing the table to keep it under half full. */
static void index_last(struct tl_events *e)
{
	if (2 * e->nops >= e->nslots) {
		free(e->slots);
		e->nslots = e->nslots ? 2 * e->nslots : 64;
		e->slots = wb_xcalloc(e->nslots, sizeof *e->slots);
		for (size_t k = 0; k + 1 < e->nops; k++)
			e->slots[slot_of(e, e->ops[k].id)] = k + 1;
	}
	e->slots[slot_of(e, e->ops[e->nops - 1].id)] = e->nops;
}

static int feed_invoke(struct tl_events *e, json_t *o, long long id, int64_t ns, char *err,
		       size_t errlen)
{
	if (find_op(e, id))
		return bad(err, errlen, "operation %lld is invoked twice", id);
	struct ev_op op = {.id = id, .t_inv = ns, .end = TL_PENDING};
	if (text_field(o, "p", &op.p) || !op.p || !*op.p || text_field(o, "f", &op.f) || !op.f ||
	    !*op.f || text_field(o, "v", &op.v) || text_field(o, "r", &op.r)) {
		free(op.p);
		free(op.f);
		free(op.v);
		free(op.r);
		return bad(err, errlen, "operation %lld: an invocation needs text \"p\" and \"f\"",
			   id);
	}
	e->ops = wb_xrealloc(e->ops, (e->nops + 1) * sizeof *e->ops);
	e->ops[e->nops++] = op;
	index_last(e);
	return 1;
}

static int feed_completion(struct tl_events *e, json_t *o, long long id, enum tl_outcome end,
			   int64_t ns, char *err, size_t errlen)
{
	struct ev_op *op = find_op(e, id);
	if (!op)
		return bad(err, errlen, "operation %lld completes but was never invoked", id);
	if (op->completed)
		return bad(err, errlen, "operation %lld completes twice", id);
	if (ns < op->t_inv)
		return bad(err, errlen, "operation %lld completes before its invocation", id);
	char *v = NULL, *r = NULL;
	if (text_field(o, "v", &v) || text_field(o, "r", &r)) {
		free(v);
		free(r);
		return bad(err, errlen, "operation %lld: \"v\" and \"r\" must be text or numbers",
			   id);
	}
	if (v && !op->v)
		op->v = v;
	else
		free(v);
	free(op->r);
	op->r = r;
	op->end = end;
	op->completed = 1;
	op->t_end = ns;
	return 1;
}

static int feed_op(struct tl_events *e, json_t *o, char *err, size_t errlen)
{
	json_t *i = json_object_get(o, "i");
	const char *type = json_string_value(json_object_get(o, "type"));
	int64_t ns;
	if (!json_is_integer(i))
		return bad(err, errlen, "an \"op\" event needs an integer \"i\"");
	long long id = (long long)json_integer_value(i);
	if (ns_field(o, &ns))
		return bad(err, errlen, "operation %lld: \"ns\" must be a non-negative integer",
			   id);
	if (!type)
		return bad(err, errlen, "operation %lld: \"type\" must be text", id);
	if (!strcmp(type, "invoke"))
		return feed_invoke(e, o, id, ns, err, errlen);
	if (!strcmp(type, "ok"))
		return feed_completion(e, o, id, TL_OK, ns, err, errlen);
	if (!strcmp(type, "fail"))
		return feed_completion(e, o, id, TL_FAIL, ns, err, errlen);
	if (!strcmp(type, "info"))
		return feed_completion(e, o, id, TL_INFO, ns, err, errlen);
	return bad(err, errlen, "operation %lld: unknown type (invoke, ok, fail or info)", id);
}

static int feed_mark(struct tl_events *e, json_t *o, char *err, size_t errlen)
{
	struct ev_mark m = {0};
	if (ns_field(o, &m.t))
		return bad(err, errlen, "a \"mark\" needs a non-negative integer \"ns\"");
	if (text_field(o, "lane", &m.lane) || !m.lane || !*m.lane ||
	    text_field(o, "text", &m.text)) {
		free(m.lane);
		free(m.text);
		return bad(err, errlen, "a \"mark\" needs a text \"lane\"");
	}
	e->marks = wb_xrealloc(e->marks, (e->nmarks + 1) * sizeof *e->marks);
	e->marks[e->nmarks++] = m;
	return 1;
}

static int feed_checker(struct tl_events *e, json_t *o, char *err, size_t errlen)
{
	struct ev_checker c = {0};
	json_t *w = json_object_get(o, "witness");
	if (w && !json_is_array(w) && !json_is_null(w))
		return bad(err, errlen, "a checker's \"witness\" must be a list of operation ids");
	size_t n = json_is_array(w) ? json_array_size(w) : 0;
	for (size_t k = 0; k < n; k++)
		if (!json_is_integer(json_array_get(w, k)))
			return bad(err, errlen,
				   "a checker's \"witness\" must be a list of "
				   "operation ids");
	if (text_field(o, "name", &c.name) || text_field(o, "result", &c.result) ||
	    text_field(o, "text", &c.text)) {
		free(c.name);
		free(c.result);
		free(c.text);
		return bad(err, errlen, "a checker's name, result and text must be text");
	}
	c.witness = wb_xcalloc(n + 1, sizeof *c.witness);
	for (size_t k = 0; k < n; k++)
		c.witness[k] = (int)json_integer_value(json_array_get(w, k));
	c.n = n;
	e->checkers = wb_xrealloc(e->checkers, (e->nchk + 1) * sizeof *e->checkers);
	e->checkers[e->nchk++] = c;
	return 1;
}

/* One line of a history file (JSON, or EDN turned into JSON). */
static int feed_hist(struct tl_events *e, json_t *o, char *err, size_t errlen)
{
	json_t *idx = json_object_get(o, "index"), *tm = json_object_get(o, "time");
	const char *type = json_string_value(json_object_get(o, "type"));
	if (!json_is_integer(idx) || !json_is_integer(tm) || json_integer_value(tm) < 0 || !type)
		return bad(err, errlen,
			   "a history line needs an integer \"index\", a non-negative integer "
			   "\"time\" and a \"type\"");
	long long id = (long long)json_integer_value(idx);
	int64_t ns = (int64_t)json_integer_value(tm);
	json_t *opj = json_object_get(o, "op");
	long long opn = json_is_integer(opj) ? (long long)json_integer_value(opj) : -1;
	char *key = NULL, *name = NULL, *f = NULL, *v = NULL, *res = NULL;
	int rc = WB_EINVAL;
	if (text_field(o, "process", &key) || !key || text_field(o, "name", &name) ||
	    text_field(o, "f", &f) || !f || !*f || text_field(o, "value", &v) ||
	    text_field(o, "result", &res)) {
		rc = bad(err, errlen, "history line %lld: \"process\" and \"f\" must be text", id);
		goto out;
	}
	if (!strcmp(type, "invoke")) {
		json_t *x = json_pack("{s:s, s:s, s:s?}", "p", name && *name ? name : key, "f", f,
				      "v", v);
		rc = x ? feed_invoke(e, x, id, ns, err, errlen) : WB_ENOMEM;
		json_decref(x);
		if (rc == 1) {
			e->open = wb_xrealloc(e->open, (e->nopen + 1) * sizeof *e->open);
			e->open[e->nopen++] = (struct ev_open){key, id, opn};
			key = NULL;
		}
		goto out;
	}
	enum tl_outcome end = !strcmp(type, "ok")     ? TL_OK
			      : !strcmp(type, "fail") ? TL_FAIL
			      : !strcmp(type, "info") ? TL_INFO
						      : TL_PENDING;
	if (end == TL_PENDING) {
		rc = bad(err, errlen, "history line %lld: unknown type (invoke, ok, fail or info)",
			 id);
		goto out;
	}
	/* the invocation with the same operation id when the file has them;
	 * else the oldest open one of the process, of the same f if any */
	size_t k = e->nopen;
	for (size_t j = 0; opn >= 0 && j < e->nopen && k == e->nopen; j++)
		if (e->open[j].op == opn)
			k = j;
	for (size_t j = 0; j < e->nopen && k == e->nopen; j++)
		if (!strcmp(e->open[j].key, key) && !strcmp(find_op(e, e->open[j].id)->f, f))
			k = j;
	for (size_t j = 0; j < e->nopen && k == e->nopen; j++)
		if (!strcmp(e->open[j].key, key))
			k = j;
	if (k == e->nopen) {
		rc = bad(err, errlen,
			 "history line %lld: a completion of process %s, which has "
			 "no invocation open",
			 id, key);
		goto out;
	}
	long long op_id = e->open[k].id;
	const char *inv_v = find_op(e, op_id)->v;
	/* a "result" is the answer (the value keeps the inputs); older files
	 * put the answer in the value */
	const char *r = res ? res : end == TL_OK && v && (!inv_v || strcmp(v, inv_v)) ? v : NULL;
	json_t *x = json_pack("{s:s?}", "r", end == TL_OK ? r : NULL);
	rc = x ? feed_completion(e, x, op_id, end, ns, err, errlen) : WB_ENOMEM;
	json_decref(x);
	if (rc == 1) {
		free(e->open[k].key);
		memmove(&e->open[k], &e->open[k + 1], (e->nopen - k - 1) * sizeof *e->open);
		e->nopen--;
	}
out:
	free(key);
	free(name);
	free(f);
	free(v);
	free(res);
	return rc;
}

/* The EDN reader: just the maps histfile writes, one per line. */
static void edn_space(const char **p)
{
	while (**p == ' ' || **p == ',' || **p == '\t')
		(*p)++;
}

/* 1 for a character that may continue a keyword or symbol. */
static int edn_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("-_.*+!?/<>=", c));
}

/* A string from just after its opening quote; NULL when malformed. */
static json_t *edn_string(const char **p)
{
	struct wb_buf b = {0};
	const char *s = *p;
	for (; *s && *s != '"'; s++) {
		char c = *s;
		if (c == '\\') {
			s++;
			if (*s == 'n')
				c = '\n';
			else if (*s == 't')
				c = '\t';
			else if (*s == 'r')
				c = '\r';
			else if (*s == '"' || *s == '\\')
				c = *s;
			else if (*s == 'u' && strspn(s + 1, "0123456789abcdefABCDEF") >= 4) {
				char hex[5] = {s[1], s[2], s[3], s[4], 0};
				unsigned long u = strtoul(hex, NULL, 16);
				s += 4;
				if (u == 0 || u >= 0x80) { /* only what histfile escapes */
					wb_buf_free(&b);
					return NULL;
				}
				c = (char)u;
			} else {
				wb_buf_free(&b);
				return NULL;
			}
		}
		wb_buf_append(&b, &c, 1);
	}
	if (*s != '"') {
		wb_buf_free(&b);
		return NULL;
	}
	*p = s + 1;
	json_t *v = json_stringn(b.data ? b.data : "", b.len);
	wb_buf_free(&b);
	return v; /* NULL for invalid UTF-8 */
}

/* One value: a string, keyword, integer, nil, true or false. */
static json_t *edn_value(const char **p)
{
	const char *s = *p;
	if (*s == '"') {
		*p = s + 1;
		return edn_string(p);
	}
	if (*s == ':') {
		size_t n = 0;
		while (edn_word_char(s[1 + n]))
			n++;
		*p = s + 1 + n;
		return n ? json_stringn(s + 1, n) : NULL;
	}
	size_t n = 0;
	while (edn_word_char(s[n]))
		n++;
	*p = s + n;
	if (n == 3 && !strncmp(s, "nil", 3))
		return json_null();
	if (n == 4 && !strncmp(s, "true", 4))
		return json_true();
	if (n == 5 && !strncmp(s, "false", 5))
		return json_false();
	char *end;
	errno = 0;
	long long x = n ? strtoll(s, &end, 10) : 0;
	return n && end == s + n && !errno ? json_integer((json_int_t)x) : NULL;
}

/* An EDN map {:key value, ...} of plain values as a JSON object, or NULL. */
static json_t *edn_map(const char *line)
{
	const char *p = line;
	edn_space(&p);
	if (*p++ != '{')
		return NULL;
	json_t *o = json_object();
	for (;;) {
		edn_space(&p);
		if (*p == '}')
			break;
		json_t *k = *p == ':' ? edn_value(&p) : NULL;
		edn_space(&p);
		json_t *v = k ? edn_value(&p) : NULL;
		if (!v || json_object_get(o, json_string_value(k))) {
			json_decref(k);
			json_decref(v);
			json_decref(o);
			return NULL;
		}
		json_object_set_new(o, json_string_value(k), v);
		json_decref(k);
	}
	p++;
	edn_space(&p);
	if (*p) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A line as a JSON object: an EDN map when it starts with "{:", else
 * JSON.  NULL when it is neither. */
static json_t *parse_line(const char *line)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '{' && p[1] == ':')
		return edn_map(p);
	json_error_t jerr;
	json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
	if (o && !json_is_object(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int tl_events_feed(struct tl_events *e, const char *line, char *err, size_t errlen)
{
	json_t *o = parse_line(line);
	if (!o)
		return 0;
	int rc = 0;
	const char *t = json_string_value(json_object_get(o, "t"));
	if (!t && !json_object_get(o, "t") && json_object_get(o, "process") &&
	    json_object_get(o, "type") && json_object_get(o, "time"))
		rc = feed_hist(e, o, err, errlen);
	else if (!t)
		rc = 0;
	else if (!strcmp(t, "op"))
		rc = feed_op(e, o, err, errlen);
	else if (!strcmp(t, "mark"))
		rc = feed_mark(e, o, err, errlen);
	else if (!strcmp(t, "checker"))
		rc = feed_checker(e, o, err, errlen);
	json_decref(o);
	if (rc == 1)
		e->taken++;
	return rc;
}

struct timeline *tl_events_timeline(const struct tl_events *e)
{
	struct timeline *t = timeline_new();
	for (size_t i = 0; i < e->nops; i++) {
		const struct ev_op *op = &e->ops[i];
		struct tl_op x = {
			.index = (int)op->id,
			.process = op->p,
			.f = op->f,
			.value = op->v,
			.result = op->r,
			.outcome = op->end,
			.t_invoke = op->t_inv,
			.t_complete = op->completed ? op->t_end : op->t_inv,
		};
		(void)timeline_add_op(t, &x); /* checked when fed */
	}
	for (size_t i = 0; i < e->nmarks; i++)
		(void)timeline_add_mark(t, e->marks[i].lane, e->marks[i].t, e->marks[i].text);
	for (size_t i = 0; i < e->nchk; i++)
		timeline_add_checker(t, e->checkers[i].name, e->checkers[i].result,
				     e->checkers[i].text, e->checkers[i].witness, e->checkers[i].n);
	return t;
}

int tl_events_load(const char *path, struct timeline **out, char *err, size_t errlen)
{
	*out = NULL;
	char *data = NULL;
	size_t len = 0;
	int rc = wb_read_file_max(path, TL_EVENTS_MAX_BYTES, &data, &len);
	if (rc) {
		char why[96];
		snprintf(err, errlen, "%s: %s", path,
			 wb_read_strerror(rc, TL_EVENTS_MAX_BYTES, why, sizeof why));
		return rc;
	}
	struct tl_events *e = tl_events_new();
	char why[256];
	size_t lineno = 0;
	char *s = data;
	while (s < data + len) {
		char *nl = memchr(s, '\n', (size_t)(data + len - s));
		char *end = nl ? nl : data + len;
		lineno++;
		*end = '\0';
		if (end > s && end[-1] == '\r')
			end[-1] = '\0';
		const char *p = s;
		while (*p == ' ' || *p == '\t')
			p++;
		s = end + 1;
		if (!*p)
			continue;
		size_t n = (size_t)(end - p);
		if (n && p[n - 1] == '\0') /* the CR of a CR LF */
			n--;
		if (strlen(p) != n) {
			snprintf(err, errlen, "%s:%zu: a NUL byte inside the line", path, lineno);
			rc = WB_EINVAL;
			goto out;
		}
		json_t *o = parse_line(p);
		json_decref(o);
		if (!o) {
			snprintf(err, errlen,
				 "%s:%zu: not a JSON event object (nor an EDN history line)", path,
				 lineno);
			rc = WB_EINVAL;
			goto out;
		}
		if (tl_events_feed(e, p, why, sizeof why) < 0) {
			snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
			rc = WB_EINVAL;
			goto out;
		}
	}
	*out = tl_events_timeline(e);
out:
	tl_events_free(e);
	free(data);
	return rc;
}
