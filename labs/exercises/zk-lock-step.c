/*
 * zk-lock-step.c - the check of exercise zk-lock-step: the learner's
 * wbx_lock_step (exercises/zk-lock-step/api.h) judged by the task's
 * rules, then in the zk-lock-chain lab's listing on a real ZooKeeper (the
 * story).
 *
 * Rules (spec.h).  The step is a pure function of (own, children), so its
 * situations are listings written out in a table: plain names
 * "lock-<10 digits>" whose whole-name order is the sequence order judge
 * who holds (lowest-holds) and whom a waiter watches (waits-on-predecessor),
 * with gaps in the numbers, the server's order scrambled and numbers near
 * the 32-bit end.  Two rules are judged by comparison instead: a listing
 * with protected names ("_c_<GUID>-", GUIDs chosen to sort against the
 * numbers, mixed with plain ones) must get the same answers as the same
 * numbers plainly named (order-by-suffix), and a listing with children
 * that are no lock nodes ("config", "read-0000000001") the same answers as
 * without them (skips-non-lock); so a learner's other mistakes do not
 * count twice.  Own node gone (never listed, the lowest gone, the same
 * number under another GUID) and a suffix that is not ten digits (a
 * wrapped counter "-2147483648") must give WBX_ERROR.
 *
 * Exploration: seeded listings (spec_explore; each op adds one child:
 * plain, protected or no lock node, with numbers drawn once from the
 * seeded stream), every contender asked; a mismatch with the model is
 * put down to the first rule that explains it: the plain listing alone
 * (lowest-holds, waits-on-predecessor), then with its prefixes
 * (order-by-suffix), then the other children (skips-non-lock).
 *
 * The story (unchanged): five protected lock nodes built on the server
 * with GUIDs sorting in the reverse of creation order and a child named
 * config, listed by the server, every contender asked; its checks keep
 * their names.
 *
 * Every GUID the check makes comes from spec_rand: the same code gets the
 * same verdict on every run.
 */
#include "base/wb.h"
#include "checkers/history.h"
#include "exercise.h"
#include "harness/narration.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "lab.h"
#include "recipes/zklock.h"
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONTENDERS 5

typedef int (*step_fn)(const char *own, const char *const *children, size_t n, char *watch,
		       size_t len);

/* api.h's enum wbx_step. */
enum { S_HOLDER = 0, S_WAIT = 1, S_ERROR = -1 };

enum { R_LOWEST, R_WAITS, R_ORDER, R_SKIPS, R_GONE, R_SUFFIX, R_COUNT };

static const struct spec_rule rules[] = {
	{"lowest-holds",
	 N_("the lock node with the smallest sequence number gets WBX_HOLDER, every other lock "
	    "node WBX_WAIT")},
	{"waits-on-predecessor",
	 N_("a waiter watches the lock node with the largest sequence number below its own "
	    "(gaps allowed), not the holder")},
	{"order-by-suffix",
	 N_("protected names (\"_c_<GUID>-\") get the same answers as the same numbers "
	    "plainly named: order is the suffix, never the whole name")},
	{"skips-non-lock",
	 N_("children without \"lock-\" (config, read-0000000001) change no answer")},
	{"own-gone-is-error",
	 N_("WBX_ERROR when own is not among the children (also when it would be the lowest, "
	    "or another GUID has its number)")},
	{"unordered-suffix-is-error",
	 N_("WBX_ERROR when a lock node's suffix is not ten digits (a wrapped counter "
	    "\"-2147483648\")")},
};

#define NAME_MAX_LEN 96
#define LIST_MAX     16

/* One listing: the names, and per name its sequence number (-1: no lock
 * node, -2: a suffix that cannot be ordered) and its index in the plain
 * listing it came from (-1: none, a child added). */
struct listing {
	int n;
	char name[LIST_MAX][NAME_MAX_LEN];
	long seq[LIST_MAX];
	int base[LIST_MAX];
};

/* What one call answered. */
struct answer {
	int rc;
	char watch[256];
};

struct step_ex {
	struct report *r;
	step_fn step;
	struct spec sp;
	char guid[LIST_MAX][ZKLOCK_GUID_LEN + 1]; /* GUIDs for protected names */
	long pool[LIST_MAX];			  /* numbers of explored nodes */
};

static void add(struct listing *l, const char *name, long seq, int base)
{
	if (l->n >= LIST_MAX)
		abort(); /* the check's own table is wrong */
	snprintf(l->name[l->n], NAME_MAX_LEN, "%s", name);
	l->seq[l->n] = seq;
	l->base[l->n] = base;
	l->n++;
}

/* The sequence number of a child name as api.h defines it: after the last
 * "lock-", exactly ten digits; -1 without "lock-", -2 for another suffix. */
static long name_seq(const char *name)
{
	const char *p = NULL;
	for (const char *q = name; (q = strstr(q, "lock-")) != NULL; q++)
		p = q;
	if (!p)
		return -1;
	p += 5;
	if (strlen(p) != 10)
		return -2;
	long v = 0;
	for (int i = 0; i < 10; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -2;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* The answer api.h demands (the model). */
static void model(const struct listing *l, const char *own, struct answer *a)
{
	long mine = -3;
	int best = -1;
	a->rc = S_ERROR;
	a->watch[0] = '\0';
	for (int i = 0; i < l->n; i++) {
		if (l->seq[i] == -2)
			return;
		if (!strcmp(l->name[i], own))
			mine = l->seq[i];
	}
	if (mine < 0)
		return;
	for (int i = 0; i < l->n; i++)
		if (l->seq[i] >= 0 && l->seq[i] < mine && (best < 0 || l->seq[i] > l->seq[best]))
			best = i;
	a->rc = best < 0 ? S_HOLDER : S_WAIT;
	if (best >= 0)
		snprintf(a->watch, sizeof a->watch, "%s", l->name[best]);
}
/* The recipe's answer for own: 0 holder, 1 wait on *watch, -1 error. */
static int reference(char *const *names, size_t n, const char *own, const char **watch)
{
	struct zklock_entry *e = NULL;
	size_t ne = 0;
	const char *bad;
	if (zklock_sort(names, n, &e, &ne, &bad) != 0)
		return -1;
	long i = zklock_index(e, ne, own);
	int rc = i < 0 ? -1 : i == 0 ? 0 : 1;
	if (rc == 1)
		*watch = e[i - 1].name;
	free(e);
	return rc;
}

/* Creates the config child and CONTENDERS protected lock nodes with
 * GUIDs f..., e..., d..., in that order.  Returns 0 or a WB_E* code. */
static int build_lock(struct report *r, struct zkc *c, const char *lock)
{
	zhandle_t *zh = zkc_handle(c);
	int zrc = zoo_create(zh, lock, "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	if (zrc == ZOK) {
		char *cfg = wb_xasprintf("%s/config", lock);
		zrc = zoo_create(zh, cfg, "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
		free(cfg);
	}
	for (int i = 0; zrc == ZOK && i < CONTENDERS; i++) {
		char guid[ZKLOCK_GUID_LEN + 1];
		snprintf(guid, sizeof guid, "%c0000000-0000-4000-8000-00000000000%d", 'f' - i, i);
		char *prefix = zklock_name_prefix(lock, guid);
		zrc = zoo_create(zh, prefix, "", 0, &ZOO_OPEN_ACL_UNSAFE,
				 ZOO_EPHEMERAL | ZOO_SEQUENCE, NULL, 0);
		free(prefix);
	}
	if (zrc != ZOK) {
		report_cannot(r, "cannot build the lock path %s: %s", lock, zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	report_step(r,
		    "built %s: a child named config and %d protected lock nodes whose GUIDs "
		    "sort in the reverse of their sequence order",
		    lock, CONTENDERS);
	return 0;
}

/* Asks the learner's step for every lock node and checks the answers. */
static void judge(struct report *r, step_fn step, struct String_vector *kids)
{
	struct wb_buf holds = {0}, watches = {0}, skips = {0};
	const char *const *names = (const char *const *)kids->data;
	for (int i = 0; i < kids->count; i++) {
		const char *own = kids->data[i], *want = NULL;
		int ref = reference(kids->data, (size_t)kids->count, own, &want);
		if (ref < 0)
			continue; /* config: not a contender */
		char got[256] = "";
		int rc = step(own, names, (size_t)kids->count, got, sizeof got);
		if ((rc == 0) != (ref == 0))
			wb_buf_printf(&holds, "%s%s says %s", holds.len ? "; " : "", own,
				      rc == 0	? "holder"
				      : rc == 1 ? "wait"
						: "error");
		if (ref == 1 && (rc != 1 || strcmp(got, want)))
			wb_buf_printf(&watches, "%s%s watches %s, not %s", watches.len ? "; " : "",
				      own, rc == 1 ? got : "nothing", want);
		if (rc == 1 && !strcmp(got, "config"))
			wb_buf_printf(&skips, "%s%s watches config", skips.len ? "; " : "", own);
	}
	report_check(r, "lowest-sequence-holds", holds.len == 0,
		     "only the node with the smallest sequence suffix holds",
		     holds.len ? holds.data : "yes");
	report_check(r, "watches-predecessor", watches.len == 0,
		     "every other node watches the lock node just in front of it",
		     watches.len ? watches.data : "yes");
	report_check(r, "skips-non-lock-children", skips.len == 0,
		     "a child without \"lock-\" is no contender", skips.len ? skips.data : "yes");
	char w[256] = "";
	int rc = step("_c_00000000-0000-4000-8000-000000000000-lock-0000000099", names,
		      (size_t)kids->count, w, sizeof w);
	report_checkf(r, "own-missing-is-error", rc == -1,
		      "WBX_ERROR when own is not in the listing", "returned %d", rc);
	wb_buf_free(&holds);
	wb_buf_free(&watches);
	wb_buf_free(&skips);
}

/* A name for the account: a protected prefix shortened to its first four
 * GUID digits. */
static const char *short_name(const char *name, char buf[NAME_MAX_LEN])
{
	const char *p = NULL;
	for (const char *q = name; (q = strstr(q, "lock-")) != NULL; q++)
		p = q;
	if (!strncmp(name, "_c_", 3) && p && p - name > 12)
		snprintf(buf, NAME_MAX_LEN, "_c_%.4s..-%s", name + 3, p);
	else
		snprintf(buf, NAME_MAX_LEN, "%s", name);
	return buf;
}

static void listing_text(const struct listing *l, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < l->n && off + 1 < len; i++) {
		char s[NAME_MAX_LEN];
		int w = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				 short_name(l->name[i], s));
		if (w < 0)
			break;
		off += (size_t)w < len - off ? (size_t)w : len - off - 1;
	}
}

static const char *answer_text(const struct answer *a, char *buf, size_t len)
{
	char s[NAME_MAX_LEN];
	if (a->rc == S_HOLDER)
		snprintf(buf, len, "WBX_HOLDER");
	else if (a->rc == S_WAIT)
		snprintf(buf, len, "WBX_WAIT on %s", short_name(a->watch, s));
	else if (a->rc == S_ERROR)
		snprintf(buf, len, "WBX_ERROR");
	else
		snprintf(buf, len, "%d (no wbx_step)", a->rc);
	return buf;
}

/* The learner's answer for own in l. */
static void ask(struct step_ex *x, const struct listing *l, const char *own, struct answer *a)
{
	const char *names[LIST_MAX];
	for (int i = 0; i < l->n; i++)
		names[i] = l->name[i];
	memset(a->watch, 0, sizeof a->watch);
	a->rc = x->step(own, names, (size_t)l->n, a->watch, sizeof a->watch);
	a->watch[sizeof a->watch - 1] = '\0';
}

static int same_answer(const struct answer *a, const struct answer *b)
{
	return a->rc == b->rc && (a->rc != S_WAIT || !strcmp(a->watch, b->watch));
}

/* The GUID of a protected name numbered seq: its first digit falls as the
 * number rises, so whole-name order is the reverse of the number order.
 * other: a second GUID for the same number. */
static void guid_for(const struct step_ex *x, long seq, int other, char out[ZKLOCK_GUID_LEN + 1])
{
	snprintf(out, ZKLOCK_GUID_LEN + 1, "%s", x->guid[other ? 1 : 0]);
	out[0] = "fedcba9876543210"[seq % 16];
	if (other)
		out[1] = out[1] == 'a' ? 'b' : 'a';
}

/*
 * Parses a situation's listing: tokens separated by spaces, "L<n>" a plain
 * lock node, "P<n>" a protected one, "Q<n>" a protected one with a second
 * GUID, "N<text>" a child that is no lock node, "X<text>" the name
 * "lock-<text>" (a suffix as given).  full receives the listing as
 * written; plain (may be NULL) the same lock nodes plainly named, without
 * the other children, and full->base maps each name to its index there.
 */
static void parse(const struct step_ex *x, const char *spec, struct listing *full,
		  struct listing *plain)
{
	struct listing dummy;
	if (!plain)
		plain = &dummy;
	memset(full, 0, sizeof *full);
	memset(plain, 0, sizeof *plain);
	for (const char *p = spec; p && *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t w = strcspn(p, " ");
		char tok[64];
		snprintf(tok, sizeof tok, "%.*s", (int)w, p);
		p += w;
		char name[NAME_MAX_LEN], pname[32];
		long seq = tok[0] == 'N' || tok[0] == 'X' ? 0 : strtol(tok + 1, NULL, 10);
		snprintf(pname, sizeof pname, "lock-%010ld", seq);
		switch (tok[0]) {
		case 'L': snprintf(name, sizeof name, "%s", pname); break;
		case 'P':
		case 'Q': {
			char g[ZKLOCK_GUID_LEN + 1];
			guid_for(x, seq, tok[0] == 'Q', g);
			snprintf(name, sizeof name, "_c_%s-%s", g, pname);
			break;
		}
		case 'N': snprintf(name, sizeof name, "%s", tok + 1); break;
		default: snprintf(name, sizeof name, "lock-%s", tok + 1); break;
		}
		long s = name_seq(name);
		int base = -1;
		if (s != -1) {
			base = plain->n;
			add(plain, s >= 0 ? pname : name, s, -1);
		}
		add(full, name, s, base);
	}
}

/* The own name in the plain listing for full's name i. */
static const char *plain_own(const struct listing *full, const struct listing *plain, int i)
{
	return full->base[i] >= 0 ? plain->name[full->base[i]] : full->name[i];
}

/* Whether the answer in full (a) is the answer in plain (b) renamed. */
static int renamed_answer(const struct listing *full, const struct listing *plain,
			  const struct answer *a, const struct answer *b)
{
	if (a->rc != b->rc)
		return 0;
	if (a->rc != S_WAIT)
		return 1;
	for (int i = 0; i < full->n; i++)
		if (!strcmp(full->name[i], a->watch))
			return full->base[i] >= 0 && !strcmp(plain->name[full->base[i]], b->watch);
	return !strcmp(a->watch, b->watch);
}

/* One staged situation: the rule it judges, its name, the own name (NULL:
 * every lock node of the listing in turn) and the listing. */
struct situation {
	int rule;
	const char *name;
	const char *own;
	const char *list;
};

static const struct situation situations[] = {
	/* R_LOWEST judges lowest-holds and waits-on-predecessor together. */
	{R_LOWEST, "one lock node", NULL, "L1"},
	{R_LOWEST, "three, listed highest first", NULL, "L7 L5 L3"},
	{R_LOWEST, "three in order", NULL, "L1 L2 L3"},
	{R_LOWEST, "gaps in the numbers", NULL, "L41 L100 L40 L977"},
	{R_LOWEST, "four, the server's order scrambled", NULL, "L12 L4 L20 L8"},
	{R_LOWEST, "numbers near the 32-bit end", NULL, "L2147483647 L2147483645 L2147483646"},
	{R_LOWEST, "the lowest is number 0", NULL, "L1 L0"},
	{R_LOWEST, "9 and 10, 99 and 100: a carry", NULL, "L10 L99 L9 L100"},
	{R_ORDER, "two protected names, GUIDs sorting against the numbers", NULL, "P2 P1"},
	{R_ORDER, "three protected names, GUIDs sorting against the numbers", NULL, "P3 P1 P2"},
	{R_ORDER, "a protected and a plain name", NULL, "L1 P2"},
	{R_ORDER, "protected and plain names mixed, with gaps", NULL, "P5 L9 P7 L6"},
	{R_SKIPS, "a child named config", NULL, "Nconfig L3 L4"},
	{R_SKIPS, "a read node numbered below the lowest", NULL, "Nread-0000000001 L2 L5"},
	{R_SKIPS, "a read node between two lock nodes", NULL, "L3 Nread-0000000004 L5"},
	{R_SKIPS, "children named leader and lease", NULL, "L7 Nleader L9 Nlease"},
	{R_GONE, "own never listed", "L5", "L3 L4"},
	{R_GONE, "own would be the lowest, but is gone", "L1", "L2 L3"},
	{R_GONE, "nothing listed", "L5", ""},
	{R_GONE, "another GUID has own's number", "P5", "P4 Q5"},
	{R_SUFFIX, "a wrapped counter among the children", "L5", "L5 X-2147483648"},
	{R_SUFFIX, "own's suffix is a wrapped counter", "X-2147483647", "X-2147483647 L3"},
	{R_SUFFIX, "a wrapped counter numbered after own", "L5", "L3 L5 X-2147483646"},
	{R_SUFFIX, "a suffix of nine digits", "L5", "L5 X123456789"},
	{R_SUFFIX, "a suffix of eleven digits", "L5", "L5 X00000000012"},
	{R_SUFFIX, "a wrapped counter of ten characters", "L5", "X-999999999 L5"},
};

/* Judges a plain listing: who holds (R_LOWEST) and, where the learner
 * rightly waits, whom it watches (R_WAITS). */
static void judge_plain(struct step_ex *x, const char *sit, const struct listing *l)
{
	char lt[300], got[300], want[300];
	listing_text(l, lt, sizeof lt);
	for (int i = 0; i < l->n; i++) {
		struct answer a, m;
		char s[NAME_MAX_LEN];
		model(l, l->name[i], &m);
		ask(x, l, l->name[i], &a);
		int ok = a.rc == m.rc;
		spec_judge(&x->sp, rules[R_LOWEST].id, sit, ok, "own %s in [%s]: %s (want %s)",
			   short_name(l->name[i], s), lt, answer_text(&a, got, sizeof got),
			   answer_text(&m, want, sizeof want));
		if (m.rc == S_WAIT && a.rc == S_WAIT)
			spec_judge(&x->sp, rules[R_WAITS].id, sit, !strcmp(a.watch, m.watch),
				   "own %s in [%s]: %s (want %s)", short_name(l->name[i], s), lt,
				   answer_text(&a, got, sizeof got),
				   answer_text(&m, want, sizeof want));
	}
}

/* Judges a listing against its plain form (R_ORDER, R_SKIPS). */
static void judge_same(struct step_ex *x, int rule, const char *sit, const struct listing *full,
		       const struct listing *plain)
{
	char lt[300], pt[300], got[300], base[300];
	listing_text(full, lt, sizeof lt);
	listing_text(plain, pt, sizeof pt);
	for (int i = 0; i < full->n; i++) {
		if (full->seq[i] < 0)
			continue;
		struct answer a, b;
		char s[NAME_MAX_LEN];
		ask(x, full, full->name[i], &a);
		ask(x, plain, plain_own(full, plain, i), &b);
		spec_judge(&x->sp, rules[rule].id, sit, renamed_answer(full, plain, &a, &b),
			   "own %s in [%s]: %s; in [%s]: %s", short_name(full->name[i], s), lt,
			   answer_text(&a, got, sizeof got), pt,
			   answer_text(&b, base, sizeof base));
	}
}

static void staged(struct step_ex *x)
{
	for (size_t k = 0; k < sizeof situations / sizeof situations[0]; k++) {
		const struct situation *s = &situations[k];
		struct listing full, plain;
		parse(x, s->list, &full, &plain);
		if (s->rule == R_LOWEST) {
			judge_plain(x, s->name, &full);
		} else if (s->rule == R_ORDER || s->rule == R_SKIPS) {
			judge_same(x, s->rule, s->name, &full, &plain);
		} else {
			struct listing own;
			parse(x, s->own, &own, NULL);
			struct answer a;
			char lt[300], got[300], sn[NAME_MAX_LEN];
			ask(x, &full, own.name[0], &a);
			listing_text(&full, lt, sizeof lt);
			spec_judge(&x->sp, rules[s->rule].id, s->name, a.rc == S_ERROR,
				   "own %s in [%s]: %s (want WBX_ERROR)",
				   short_name(own.name[0], sn), lt,
				   answer_text(&a, got, sizeof got));
		}
	}
}

/* --- exploration ---------------------------------------------------- */

enum { OP_PLAIN, OP_PLAIN2, OP_PROT, OP_PROT2, OP_OTHER, OP_KINDS };
static const char *const op_names[] = {"plain", "plain", "protected", "protected", "no-lock"};

/* The listing of a schedule: op i adds child i, numbered x->pool[i]. */
static void schedule_listing(const struct step_ex *x, const unsigned char *ops, int n,
			     struct listing *full, struct listing *plain, struct listing *kept)
{
	memset(full, 0, sizeof *full);
	memset(plain, 0, sizeof *plain);
	memset(kept, 0, sizeof *kept);
	for (int i = 0; i < n && i < LIST_MAX; i++) {
		char name[NAME_MAX_LEN], pname[32];
		long seq = x->pool[i];
		snprintf(pname, sizeof pname, "lock-%010ld", seq);
		if (ops[i] == OP_OTHER) {
			if (i % 2)
				snprintf(name, sizeof name, "read-%010ld", seq);
			else
				snprintf(name, sizeof name, "node%d", i);
			add(full, name, -1, -1);
			continue;
		}
		if (ops[i] >= OP_PROT)
			snprintf(name, sizeof name, "_c_%s-%s", x->guid[i], pname);
		else
			snprintf(name, sizeof name, "%s", pname);
		add(full, name, seq, plain->n);
		add(plain, pname, seq, -1);
		add(kept, name, seq, plain->n - 1);
	}
}

/* Which rule a wrong answer for full's name i breaks: the plain listing
 * first, then the prefixes, then the other children. */
static int blame(struct step_ex *x, const struct listing *full, const struct listing *plain,
		 const struct listing *kept, int i, char *why, size_t whylen)
{
	struct answer a, m;
	char pt[300], got[300], want[300], s[NAME_MAX_LEN];
	const char *pown = plain_own(full, plain, i);
	model(plain, pown, &m);
	ask(x, plain, pown, &a);
	if (!same_answer(&a, &m)) {
		listing_text(plain, pt, sizeof pt);
		snprintf(why, whylen, "own %s in [%s]: %s (want %s)", short_name(pown, s), pt,
			 answer_text(&a, got, sizeof got), answer_text(&m, want, sizeof want));
		return a.rc != m.rc ? R_LOWEST : R_WAITS;
	}
	model(kept, full->name[i], &m);
	ask(x, kept, full->name[i], &a);
	const struct listing *l = same_answer(&a, &m) ? full : kept;
	if (l == full) {
		model(full, full->name[i], &m);
		ask(x, full, full->name[i], &a);
	}
	listing_text(l, pt, sizeof pt);
	snprintf(why, whylen, "own %s in [%s]: %s (want %s)", short_name(full->name[i], s), pt,
		 answer_text(&a, got, sizeof got), answer_text(&m, want, sizeof want));
	return l == kept ? R_ORDER : R_SKIPS;
}

static int run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			size_t whylen)
{
	struct step_ex *x = arg;
	struct listing full, plain, kept;
	schedule_listing(x, ops, n, &full, &plain, &kept);
	for (int i = 0; i < full.n; i++) {
		if (full.seq[i] < 0)
			continue;
		struct answer a, m;
		model(&full, full.name[i], &m);
		ask(x, &full, full.name[i], &a);
		if (record) {
			char got[300];
			int idx = report_invoke(x->r, "step", "wbx_lock_step", full.name[i]);
			report_complete(x->r, idx, same_answer(&a, &m) ? HIST_OK : HIST_FAIL,
					answer_text(&a, got, sizeof got));
		}
		if (!same_answer(&a, &m))
			return blame(x, &full, &plain, &kept, i, why, whylen) + 1;
	}
	return 0;
}

/* The seeded choices: two GUIDs for the table, one per explored node, and
 * distinct numbers (half of them small, so gaps are short too). */
static void draw(struct step_ex *x)
{
	for (int i = 0; i < LIST_MAX; i++) {
		char hex[33];
		spec_hex_id(&x->sp, hex);
		snprintf(x->guid[i], sizeof x->guid[i], "%.8s-%.4s-4%.3s-8%.3s-%.12s", hex, hex + 8,
			 hex + 12, hex + 15, hex + 18);
	}
	for (int i = 0; i < LIST_MAX; i++) {
		int dup;
		do {
			x->pool[i] = (long)spec_below(&x->sp, i % 2 ? 2147483647u : 64u);
			dup = 0;
			for (int j = 0; j < i; j++)
				dup |= x->pool[j] == x->pool[i];
		} while (dup);
	}
}

static void judge_rules(struct step_ex *x, const struct ex_code *code, struct lab_ctx *ctx)
{
	spec_init(&x->sp, ctx, code, rules, R_COUNT);
	draw(x);
	report_step(x->r,
		    "The rules: wbx_lock_step in %zu listings written out, then %d seeded "
		    "listings of up to %d children",
		    sizeof situations / sizeof situations[0], 60, 12);
	staged(x);
	const char *const judged[] = {rules[R_LOWEST].id, rules[R_WAITS].id, rules[R_ORDER].id,
				      rules[R_SKIPS].id, NULL};
	spec_explore(&x->sp, judged, 60, 12, OP_KINDS, op_names, run_schedule, x);
	spec_finish(&x->sp);
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	struct report *r = ctx->report;
	step_fn step = (step_fn)(uintptr_t)ex_code_sym(code, "wbx_lock_step");
	if (!report_check(r, "defines wbx_lock_step", step != NULL,
			  "the file defines wbx_lock_step", step ? "yes" : "missing"))
		return LAB_RAN;
	struct step_ex *x = wb_xcalloc(1, sizeof *x);
	x->r = r;
	x->step = step;
	judge_rules(x, code, ctx);
	free(x);
	report_step(r, "The story: the zk-lock-chain lab's lock path on a real ZooKeeper");
	struct zklab *z = NULL;
	struct zkc *c = NULL;
	struct String_vector kids = {0, NULL};
	char *lock = NULL;
	int rc = zklab_open(ctx, &z);
	if (rc == 0)
		rc = zklab_client(z, &c);
	if (rc == 0) {
		lock = wb_xasprintf("%s/lock", z->base);
		rc = build_lock(r, c, lock);
	}
	if (rc == 0) {
		int zrc = zoo_get_children(zkc_handle(c), lock, 0, &kids);
		if (zrc != ZOK) {
			report_cannot(r, "cannot list %s: %s", lock, zkc_err_name(zrc));
			rc = zkc_to_wb(zrc);
		}
	}
	if (rc == 0) {
		report_step(r,
			    "asked wbx_lock_step for each of the %d children, in the order "
			    "getChildren returned them",
			    kids.count);
		judge(r, step, &kids);
	}
	deallocate_String_vector(&kids);
	free(lock);
	zkc_close(c);
	zklab_close(z);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_zk_lock_step = check;
