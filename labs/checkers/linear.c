/*
 * linear.c - the single-register linearizability checker (linear.h):
 * Wing-Gong search with Lowe's just-in-time linearization, a cache of
 * visited (linearized set, value) pairs, time and memory bounds, and a
 * greedy shrink of a non-linearizable history to a 1-minimal witness.
 *
 * Own code, not a library's: no Debian package offers this for C (see
 * linear.h).  Deliberately absent: P-compositionality (one register only)
 * and any model but read/write/cas.
 *
 * Invariants of the search: the entry list holds, in time order, the call
 * and return entries of the operations not yet linearized; `bits` has a
 * bit set for every linearized operation; frames[0..depth) are the
 * linearized call entries, innermost last, with the value before each.
 */
#include "checkers/linear.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mono.h"
#include "base/wb.h"
#include "checkers/histres.h"

enum lkind { L_READ, L_WRITE, L_CAS };

/* One register operation, values interned. */
struct lop {
	int hidx; /* into h->ops */
	enum lkind kind;
	int a, b; /* read: value read; write: value; cas: old, new */
	int info; /* may take effect after inv, or never */
	int64_t inv, ret;
};

struct entry {
	int op; /* into the search's selection */
	int is_ret;
	struct entry *prev, *next, *match;
};

/* Interned values: index = value id; owned copies. */
struct vals {
	char **s;
	size_t n, cap;
};

/* The visited set: keys are (bitset words, value) in one arena; slots
 * hold key number + 1 (0 = empty), open addressing. */
struct cache {
	uint64_t *keys;
	size_t n, cap;
	uint32_t *slots;
	size_t nslots;
	size_t words;
	size_t max_bytes;
};

struct frame {
	struct entry *e;
	int state;
};

static int vals_intern(struct vals *v, const char *s, size_t len)
{
	for (size_t i = 0; i < v->n; i++)
		if (strlen(v->s[i]) == len && memcmp(v->s[i], s, len) == 0)
			return (int)i;
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 16;
		v->s = wb_xrealloc(v->s, v->cap * sizeof *v->s);
	}
	v->s[v->n] = wb_xstrndup(s, len);
	return (int)v->n++;
}

static void vals_free(struct vals *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->s[i]);
	free(v->s);
}

/* Fills *out from op (of a history histres_validate accepted); returns 1
 * (kept), 0 (dropped: not a register op, or one that says nothing) or
 * WB_EINVAL with res HIST_MALFORMED. */
static int lop_from(const struct hist_op *op, int hidx, struct vals *v, struct lop *out,
		    struct hist_result *res)
{
	int info = op->end == HIST_INFO || op->end == HIST_INVOKE;
	const char *colon;

	memset(out, 0, sizeof *out);
	out->hidx = hidx;
	out->info = info;
	out->inv = op->t_invoke;
	out->ret = info ? INT64_MAX : op->t_complete;
	if (strcmp(op->f, "read") == 0) {
		if (op->end != HIST_OK)
			return 0;
		if (op->result == NULL)
			return histres_malformed(res, "read #%d ended ok without a result",
						 op->index);
		out->kind = L_READ;
		out->a = vals_intern(v, op->result, strlen(op->result));
		return 1;
	}
	if (strcmp(op->f, "write") != 0 && strcmp(op->f, "cas") != 0)
		return 0;
	if (op->value == NULL)
		return histres_malformed(res, "%s #%d has no value", op->f, op->index);
	if (op->end == HIST_FAIL)
		return 0;
	if (op->f[0] == 'w') {
		out->kind = L_WRITE;
		out->a = vals_intern(v, op->value, strlen(op->value));
		return 1;
	}
	colon = strchr(op->value, ':');
	if (colon == NULL)
		return histres_malformed(res, "cas #%d: its value %.40s is not old:new", op->index,
					 op->value);
	out->kind = L_CAS;
	out->a = vals_intern(v, op->value, (size_t)(colon - op->value));
	out->b = vals_intern(v, colon + 1, strlen(colon + 1));
	return 1;
}

/* Applies op to state: 1 and *next when legal, else 0. */
static int lop_step(const struct lop *op, int state, int *next)
{
	switch (op->kind) {
	case L_READ: *next = state; return op->a == state;
	case L_WRITE: *next = op->a; return 1;
	case L_CAS: *next = op->b; return op->a == state;
	}
	return 0;
}

static uint64_t key_hash(const uint64_t *bits, size_t words, int state)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ (uint64_t)(uint32_t)state;
	for (size_t i = 0; i < words; i++) {
		h ^= bits[i];
		h *= 0xff51afd7ed558ccdu;
		h ^= h >> 33;
	}
	return h;
}

static size_t cache_bytes(size_t cap, size_t words, size_t nslots)
{
	return cap * (words + 1) * sizeof(uint64_t) + nslots * sizeof(uint32_t);
}

/* Rebuilds the slot table at twice the size.  0 or WB_ENOSPC (bound). */
static int cache_grow(struct cache *c)
{
	size_t nslots = c->nslots ? c->nslots * 2 : 1024, cap = nslots / 2;
	if (cache_bytes(cap, c->words, nslots) > c->max_bytes)
		return WB_ENOSPC;
	c->keys = wb_xrealloc(c->keys, cap * (c->words + 1) * sizeof(uint64_t));
	c->cap = cap;
	free(c->slots);
	c->slots = wb_xcalloc(nslots, sizeof *c->slots);
	c->nslots = nslots;
	for (size_t k = 0; k < c->n; k++) {
		const uint64_t *key = c->keys + k * (c->words + 1);
		size_t s = key_hash(key, c->words, (int)key[c->words]) & (nslots - 1);
		while (c->slots[s] != 0)
			s = (s + 1) & (nslots - 1);
		c->slots[s] = (uint32_t)(k + 1);
	}
	return 0;
}

/* Adds (bits, state).  Returns 1 (new), 0 (seen before) or WB_ENOSPC
 * (the memory bound). */
static int cache_add(struct cache *c, const uint64_t *bits, int state)
{
	size_t s, w = c->words;

	if (c->n + 1 > c->cap && cache_grow(c) != 0)
		return WB_ENOSPC;
	s = key_hash(bits, w, state) & (c->nslots - 1);
	for (; c->slots[s] != 0; s = (s + 1) & (c->nslots - 1)) {
		const uint64_t *key = c->keys + (size_t)(c->slots[s] - 1) * (w + 1);
		if (key[w] == (uint64_t)(uint32_t)state && memcmp(key, bits, w * 8) == 0)
			return 0;
	}
	memcpy(c->keys + c->n * (w + 1), bits, w * 8);
	c->keys[c->n * (w + 1) + w] = (uint64_t)(uint32_t)state;
	c->slots[s] = (uint32_t)(++c->n);
	return 1;
}

static void lift(struct entry *e)
{
	struct entry *r = e->match;
	e->prev->next = e->next;
	e->next->prev = e->prev; /* a call is always followed by its return */
	r->prev->next = r->next;
	if (r->next != NULL)
		r->next->prev = r->prev;
}

static void unlift(struct entry *e)
{
	struct entry *r = e->match;
	r->prev->next = r;
	if (r->next != NULL)
		r->next->prev = r;
	e->prev->next = e;
	e->next->prev = e;
}

/* Sort key of an entry: time, calls before returns at one time (equal
 * times are concurrent), info returns after every other. */
struct sortent {
	int64_t t;
	int rank; /* 0 call, 1 return, 2 info return */
	int op;
};

static int sortent_cmp(const void *pa, const void *pb)
{
	const struct sortent *a = pa, *b = pb;
	if (a->rank == 2 || b->rank == 2)
		if (a->rank != b->rank)
			return a->rank == 2 ? 1 : -1;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank - b->rank;
	return a->op - b->op;
}

/* Builds the entry list of the m selected ops into ents (2m) after the
 * sentinel head. */
static void build_list(const struct lop *all, const int *sel, size_t m, struct entry *head,
		       struct entry *ents)
{
	struct sortent *se = wb_xcalloc(2 * m, sizeof *se);
	struct entry **call = wb_xcalloc(m, sizeof *call);
	struct entry *prev = head;

	for (size_t i = 0; i < m; i++) {
		const struct lop *op = &all[sel[i]];
		se[2 * i] = (struct sortent){op->inv, 0, (int)i};
		se[2 * i + 1] = (struct sortent){op->ret, op->info ? 2 : 1, (int)i};
	}
	if (2 * m > 1) /* qsort wants a valid pointer even for 0 elements */
		qsort(se, 2 * m, sizeof *se, sortent_cmp);
	memset(head, 0, sizeof *head);
	for (size_t k = 0; k < 2 * m; k++) {
		struct entry *e = &ents[k];
		e->op = se[k].op;
		e->is_ret = se[k].rank != 0;
		e->prev = prev;
		e->next = NULL;
		prev->next = e;
		if (!e->is_ret) {
			call[e->op] = e;
		} else {
			e->match = call[e->op];
			call[e->op]->match = e;
		}
		prev = e;
	}
	free(se);
	free(call);
}

/* The search over the m ops all[sel[0..m)].  Returns the verdict. */
static enum hist_verdict search(const struct lop *all, const int *sel, size_t m, int initial,
				long long deadline, size_t max_bytes)
{
	struct entry head, *ents = wb_xcalloc(2 * m + 1, sizeof *ents), *e;
	struct frame *frames = wb_xcalloc(m + 1, sizeof *frames);
	struct cache c = {.words = (m + 63) / 64 ? (m + 63) / 64 : 1, .max_bytes = max_bytes};
	uint64_t *bits = wb_xcalloc(c.words, sizeof *bits);
	enum hist_verdict v = HIST_VALID;
	size_t depth = 0;
	unsigned long iter = 0;
	int state = initial, next;

	build_list(all, sel, m, &head, ents);
	e = head.next;
	while (head.next != NULL) {
		if ((++iter & 1023) == 0 && mono_now_ms() > deadline) {
			v = HIST_UNKNOWN;
			goto out;
		}
		if (e->is_ret) {
			if (all[sel[e->op]].info)
				goto out; /* only info ops are left: they need not happen */
			if (depth == 0) {
				v = HIST_INVALID;
				goto out;
			}
			depth--;
			e = frames[depth].e;
			state = frames[depth].state;
			bits[e->op / 64] &= ~((uint64_t)1 << (e->op % 64));
			unlift(e);
			e = e->next;
			continue;
		}
		if (lop_step(&all[sel[e->op]], state, &next)) {
			int rc;
			bits[e->op / 64] |= (uint64_t)1 << (e->op % 64);
			rc = cache_add(&c, bits, next);
			if (rc < 0) {
				v = HIST_UNKNOWN;
				goto out;
			}
			if (rc == 1) {
				frames[depth++] = (struct frame){e, state};
				state = next;
				lift(e);
				e = head.next;
				continue;
			}
			bits[e->op / 64] &= ~((uint64_t)1 << (e->op % 64));
		}
		e = e->next;
	}
out:
	free(ents);
	free(frames);
	free(bits);
	free(c.keys);
	free(c.slots);
	return v;
}

/* Appends a short description of op to b, values made printable. */
static void describe(struct wb_buf *b, const struct hist_op *op)
{
	const char *val = strcmp(op->f, "read") == 0 ? op->result : op->value;
	wb_buf_printf(b, " %s #%d %s", op->f, op->index, strcmp(op->f, "read") == 0 ? "->" : "");
	for (const char *p = val ? val : ""; *p && p - val < 24; p++)
		wb_buf_printf(b, "%c", (*p >= 0x20 && *p < 0x7f) ? *p : '?');
	wb_buf_puts(b, ";");
}

/* The value op leaves in the register when it takes effect, or -1 (a
 * read produces nothing); the value it needs there, or -1 (a write). */
static int produces(const struct lop *op)
{
	return op->kind == L_WRITE ? op->a : op->kind == L_CAS ? op->b : -1;
}

static int consumes(const struct lop *op)
{
	return op->kind == L_WRITE ? -1 : op->a;
}

/* May sel[i] go?  Not when it is the last op left that produces a value
 * some remaining read or cas needs (other than the initial value): the
 * rest would then be "not linearizable" only because a read has lost its
 * write, which shows nothing about the history. */
static int can_drop(const struct lop *all, const int *sel, size_t m, size_t i, int initial)
{
	int p = produces(&all[sel[i]]);
	if (p < 0 || p == initial)
		return 1;
	for (size_t j = 0; j < m; j++)
		if (j != i && produces(&all[sel[j]]) == p)
			return 1;
	for (size_t j = 0; j < m; j++)
		if (j != i && consumes(&all[sel[j]]) == p)
			return 0;
	return 1;
}

/* Shrinks sel (m ops, non-linearizable) in place; returns the new size.
 * *stopped is set when the deadline cut it short. */
static size_t shrink(const struct lop *all, int *sel, size_t m, int initial, long long deadline,
		     size_t max_bytes, int *stopped)
{
	int *trial = wb_xcalloc(m ? m : 1, sizeof *trial);
	int changed = 1;

	*stopped = 0;
	while (changed && !*stopped) {
		changed = 0;
		for (size_t i = 0; i < m && !*stopped;) {
			size_t k = 0;
			if (!can_drop(all, sel, m, i, initial)) {
				i++;
				continue;
			}
			for (size_t j = 0; j < m; j++)
				if (j != i)
					trial[k++] = sel[j];
			enum hist_verdict v = search(all, trial, k, initial, deadline, max_bytes);
			if (v == HIST_INVALID) {
				memmove(sel + i, sel + i + 1, (m - i - 1) * sizeof *sel);
				m--;
				changed = 1;
			} else {
				if (v == HIST_UNKNOWN && mono_now_ms() > deadline)
					*stopped = 1;
				i++;
			}
		}
	}
	free(trial);
	return m;
}

/* Fills res for the witness sel[0..m). */
static void report_invalid(const struct history *h, const struct lop *all, const int *sel, size_t m,
			   const char *initial, int stopped, struct hist_result *res)
{
	struct wb_buf b = {0};
	wb_buf_printf(&b, "no order of these %zu operations fits a register starting at %s%s:", m,
		      initial, stopped ? " (shrinking stopped at the time bound)" : "");
	for (size_t i = 0; i < m; i++) {
		const struct hist_op *op = &h->ops[all[sel[i]].hidx];
		histres_witness(res, op->index);
		describe(&b, op);
	}
	histres_set(res, HIST_INVALID, "%s", b.data);
	wb_buf_free(&b);
}

int linear_check(const struct history *h, const struct linear_opts *opts, struct hist_result *res)
{
	struct linear_opts o = opts ? *opts : (struct linear_opts){0};
	struct vals vals = {0};
	struct lop *all = NULL;
	int *sel = NULL, rc = 0, stopped = 0, initial;
	size_t m = 0;
	long long deadline;
	enum hist_verdict v;

	if (res == NULL)
		return WB_EINVAL;
	if ((rc = histres_validate(h, res)) != 0)
		return rc;
	histres_valid(res);
	if (o.initial == NULL)
		o.initial = "0";
	deadline = mono_now_ms() + (o.max_ms > 0 ? o.max_ms : LINEAR_DEFAULT_MS);
	if (o.max_bytes == 0)
		o.max_bytes = LINEAR_DEFAULT_BYTES;
	initial = vals_intern(&vals, o.initial, strlen(o.initial));
	all = wb_xcalloc(h->n ? h->n : 1, sizeof *all);
	sel = wb_xcalloc(h->n ? h->n : 1, sizeof *sel);
	for (size_t i = 0; i < h->n; i++) {
		int kept = lop_from(&h->ops[i], (int)i, &vals, &all[m], res);
		if (kept < 0) {
			rc = kept;
			goto out;
		}
		if (kept) {
			sel[m] = (int)m;
			m++;
		}
	}
	v = search(all, sel, m, initial, deadline, o.max_bytes);
	if (v == HIST_VALID) {
		histres_set(res, HIST_VALID, "linearizable: %zu register operations", m);
	} else if (v == HIST_UNKNOWN) {
		histres_set(res, HIST_UNKNOWN, "the search over %zu operations hit its bound", m);
	} else {
		m = shrink(all, sel, m, initial, deadline, o.max_bytes, &stopped);
		report_invalid(h, all, sel, m, o.initial, stopped, res);
	}
out:
	free(all);
	free(sel);
	vals_free(&vals);
	return rc;
}
