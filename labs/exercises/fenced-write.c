/*
 * fenced-write.c - the check of the exercise "fenced-write": the
 * learner's statement "write" in place of the fenced resource's
 * compare-and-write (recipes/fenced.h, fenced_set_write), judged first by
 * the task's rules (spec.h), then by the lab zk-fencing's own scenario
 * (labs/zk/zk-fencing.h): a real ZooKeeper, the proxy that silences A
 * until its session expires, A's paused business thread, B's larger
 * token, the reopen, and the forced interleaving.
 *
 * "write" runs inside the recipe's BEGIN IMMEDIATE transaction with
 * :domain, :token and :value; it was accepted when it changed exactly one
 * row.  A file may also define "check", run first and outside the
 * transaction with :domain and :token: a row whose column ok is 0 (or no
 * row) rejects the write there.  That is the naive check-then-write; the
 * scenario's interleaving hook sits between the two.
 *
 * The rules are judged on a SQLite file of the task's schema in the run
 * folder, through the same adapter (learner_write) the story's recipe
 * calls, in the same order: "check" outside any transaction, then
 * "write" inside BEGIN IMMEDIATE, committed whatever it changed.  Each
 * situation stages the rows it needs (one domain, or two for the
 * per-domain rule, so that a comparison with the wrong domain's mark
 * shows only there; tokens of one width except in the integer rule's
 * situations, so that a text comparison shows only there), writes once
 * and reads every row back.  The exploration runs seeded schedules of
 * three writers with fixed tokens A < B < C on two domains, some writes
 * overtaken in flight by C (the story's interleaving), against a model
 * whose state is each domain's mark and value; the first mismatch is
 * attributed to the rule of that write's relation to its own mark.
 *
 * A statement SQLite refuses at run time is the learner's mistake: the
 * situation's rule fails with SQLite's whole message.  report_cannot is
 * kept for the scratch database itself.
 */
#include "exercise.h"
#include "spec.h"
#include "sqlex.h"
#include "base/sqlitex.h"
#include "base/wb.h"
#include "checkers/history.h"
#include "harness/narration.h"
#include "harness/report.h"
#include "recipes/fenced.h"
#include "zk/zk-fencing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_params(struct sqlfile_param p[3], const char *domain, int64_t token,
			 const char *value)
{
	p[0] = (struct sqlfile_param){":domain", SQLFILE_TEXT, 0, domain, 1};
	p[1] = (struct sqlfile_param){":token", SQLFILE_INT, token, NULL, 1};
	p[2] = (struct sqlfile_param){":value", SQLFILE_TEXT, 0, value, 1};
}

static int learner_write(void *arg, sqlite3 *db, enum fenced_write_phase phase, const char *domain,
			 int64_t token, const char *value, int *out, char *err, size_t errlen)
{
	const struct sqlfile *f = arg;
	struct sqlfile_param p[3];
	struct sqlex_out o;
	write_params(p, domain, token, value);
	if (phase == FENCED_WRITE_BEFORE) {
		*out = 1;
		if (!sqlfile_find(f, "check"))
			return 0;
		p[2].required = 0;
		int rc = sqlex_exec(db, f, "check", p, 2, &o, err, errlen);
		long long ok = 0;
		if (rc == 0)
			*out = sqlex_int(&o, "ok", &ok) == 0 && ok != 0;
		return rc;
	}
	int rc = sqlex_exec(db, f, "write", p, 3, &o, err, errlen);
	if (rc == 0)
		*out = o.changes;
	return rc;
}

static void setup(void *arg, struct fenced *f)
{
	fenced_set_write(f, learner_write, arg);
}

/* The resource's table, as the task text gives it. */
static const char schema[] = "CREATE TABLE fenced_resource (\n"
			     "  domain TEXT PRIMARY KEY NOT NULL,\n"
			     "  mark   INTEGER NOT NULL CHECK (mark >= 0),\n"
			     "  value  TEXT NOT NULL\n"
			     ");";

/* --- the rules ------------------------------------------------------ */

enum { R_FIRST, R_STALE, R_SAME, R_HIGHER, R_VALUE, R_INTEGER, R_DOMAIN, R_GAP, R_COUNT };

static const struct spec_rule rules[R_COUNT] = {
	{"first-write-inserts",
	 N_("a domain without a row: the write changes one row, which holds the token as the mark "
	    "(token 0 too)")},
	{"stale-token-rejected",
	 N_("a token below the mark: the write changes no row; mark and value stay as they were")},
	{"same-token-accepted",
	 N_("a token equal to the mark: the write changes one row and the mark stays")},
	{"higher-token-advances",
	 N_("a token above the mark: the write changes one row and the mark becomes the token")},
	{"value-stored-with-mark",
	 N_("an accepted write stores its value in the domain's row, in the same statement as the "
	    "mark")},
	{"tokens-compare-as-integers",
	 N_("tokens compare as integers: 10 is above a mark of 9, and 9 is below a mark of 10")},
	{"marks-per-domain",
	 N_("a write compares with its own domain's mark only and changes no other domain's row")},
	{"compare-in-the-write",
	 N_("a newer token that lands between a separate check and the write still rejects the "
	    "older write")},
};

#define N_SITUATIONS 18
#define N_SCHEDULES  30

#define DOM  "/locks/orders"
#define DOM2 "/locks/billing"
#define DOM3 "/locks/new"

struct fx {
	struct lab_ctx *ctx;
	struct spec sp;
	const struct sqlfile *f;
	int has_check;
	sqlite3 *db;
	char env[400]; /* what failed in the scratch database */
};

/* One row as it was read back: present, mark, value. */
struct row {
	int present;
	long long mark;
	char value[80];
};

/* What one write of the learner's did. */
struct wrote {
	int failed;    /* the learner's statement failed: err says how */
	int accepted;  /* changed exactly one row */
	int changes;   /* rows it changed (0 when refused by check) */
	int by_check;  /* refused by "check" before the transaction */
	char err[400]; /* SQLite's message */
};

static int env_fail(struct fx *x, const char *what)
{
	snprintf(x->env, sizeof x->env, "%s: %s", what, sqlite3_errmsg(x->db));
	return WB_EIO;
}

static int exec_env(struct fx *x, const char *sql)
{
	return sqlite3_exec(x->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : env_fail(x, sql);
}

/* The recipe's own compare-and-write (fenced.c), used for the other
 * writer that overtakes the learner's write. */
static int recipe_write(struct fx *x, const char *domain, int64_t token, const char *value)
{
	static const char sql[] =
		"INSERT INTO fenced_resource(domain, mark, value) VALUES (?1, ?2, ?3)"
		" ON CONFLICT(domain) DO UPDATE SET mark = excluded.mark, value = excluded.value"
		" WHERE fenced_resource.mark <= excluded.mark";
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(x->db, sql, -1, &st, NULL) != SQLITE_OK)
		return env_fail(x, "prepare the other writer's write");
	sqlite3_bind_text(st, 1, domain, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, token);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_TRANSIENT);
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	return s == SQLITE_DONE ? 0 : env_fail(x, "the other writer's write");
}

/* Empties the table and inserts n rows (domain, mark, value). */
struct seed_row {
	const char *domain;
	long long mark;
	const char *value;
};

static int stage(struct fx *x, const struct seed_row *rows, int n)
{
	int rc = exec_env(x, "DELETE FROM fenced_resource");
	for (int i = 0; !rc && i < n; i++) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(x->db,
				       "INSERT INTO fenced_resource(domain, mark, value) "
				       "VALUES (?1, ?2, ?3)",
				       -1, &st, NULL) != SQLITE_OK)
			return env_fail(x, "prepare the staging insert");
		sqlite3_bind_text(st, 1, rows[i].domain, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, rows[i].mark);
		sqlite3_bind_text(st, 3, rows[i].value, -1, SQLITE_TRANSIENT);
		int s = sqlite3_step(st);
		sqlite3_finalize(st);
		if (s != SQLITE_DONE)
			rc = env_fail(x, "stage a row");
	}
	return rc;
}

static int peek(struct fx *x, const char *domain, struct row *r)
{
	sqlite3_stmt *st = NULL;
	memset(r, 0, sizeof *r);
	if (sqlite3_prepare_v2(x->db, "SELECT mark, value FROM fenced_resource WHERE domain = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return env_fail(x, "prepare the read-back");
	sqlite3_bind_text(st, 1, domain, -1, SQLITE_TRANSIENT);
	int s = sqlite3_step(st), rc = 0;
	if (s == SQLITE_ROW) {
		r->present = 1;
		r->mark = sqlite3_column_int64(st, 0);
		const unsigned char *v = sqlite3_column_text(st, 1);
		snprintf(r->value, sizeof r->value, "%s", v ? (const char *)v : "");
	} else if (s != SQLITE_DONE) {
		rc = env_fail(x, "read a row back");
	}
	sqlite3_finalize(st);
	return rc;
}

/* How many rows of other domains than domain the table has. */
static int count_others(struct fx *x, const char *domain, int *n)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(x->db, "SELECT count(*) FROM fenced_resource WHERE domain <> ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return env_fail(x, "prepare count");
	sqlite3_bind_text(st, 1, domain, -1, SQLITE_TRANSIENT);
	int s = sqlite3_step(st);
	*n = s == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return s == SQLITE_ROW ? 0 : env_fail(x, "count rows");
}

/* Another writer acting between the learner's check and its write. */
struct overtake {
	const char *domain;
	int64_t token;
	const char *value;
};

/* One write as the recipe makes it with the learner's statements: check
 * (outside any transaction), then the overtaking writer when ov is set,
 * then "write" inside BEGIN IMMEDIATE.  Returns 0 (w says what the
 * learner's code did) or WB_EIO (the scratch database failed: x->env). */
static int learner_once(struct fx *x, const char *domain, int64_t token, const char *value,
			const struct overtake *ov, struct wrote *w)
{
	memset(w, 0, sizeof *w);
	int go = 1;
	int rc = learner_write((void *)x->f, x->db, FENCED_WRITE_BEFORE, domain, token, value, &go,
			       w->err, sizeof w->err);
	if (rc) {
		w->failed = 1;
		return 0;
	}
	/* The other writer lands while this write is in flight, whatever
	 * its check said. */
	if (ov && (rc = recipe_write(x, ov->domain, ov->token, ov->value)) != 0)
		return rc;
	if (!go) {
		w->by_check = 1;
		return 0;
	}
	if ((rc = exec_env(x, "BEGIN IMMEDIATE")) != 0)
		return rc;
	int changed = 0;
	rc = learner_write((void *)x->f, x->db, FENCED_WRITE_IN, domain, token, value, &changed,
			   w->err, sizeof w->err);
	if (rc) {
		w->failed = 1;
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
		return 0;
	}
	w->changes = changed;
	w->accepted = changed == 1;
	return exec_env(x, "COMMIT");
}

static const char *what(const struct wrote *w, char *buf, size_t len)
{
	if (w->failed)
		snprintf(buf, len, "the statement failed: %s", w->err);
	else if (w->by_check)
		snprintf(buf, len, "rejected by check");
	else
		snprintf(buf, len, "%d row%s changed", w->changes, w->changes == 1 ? "" : "s");
	return buf;
}

static const char *row_text(const struct row *r, char *buf, size_t len)
{
	if (!r->present)
		snprintf(buf, len, "no row");
	else
		snprintf(buf, len, "mark %lld, value \"%s\"", r->mark, r->value);
	return buf;
}

/* --- situations ----------------------------------------------------- */

/* The twin of a situation: the same write with only its own domain's
 * row (mark; -1: no row) staged, overtaken by ov when given.  *accepted
 * receives 1 (the learner's code accepted it), 0 (rejected) or -1 (its
 * statement failed). */
static int decide_alone(struct fx *x, const char *domain, long long mark, long long token,
			const struct overtake *ov, int *accepted)
{
	const struct seed_row s = {domain, mark, "alone"};
	struct wrote w;
	int rc = stage(x, &s, mark >= 0);
	if (!rc)
		rc = learner_once(x, domain, token, "alone-after", ov, &w);
	*accepted = w.failed ? -1 : w.accepted;
	return rc;
}

/* A domain without a row; token 0 is the first lock node's sequence. */
static int first_write(struct fx *x, long long token)
{
	struct wrote w;
	struct row r;
	char sit[96], a[440], b[120];
	int rc = stage(x, NULL, 0);
	if (!rc)
		rc = learner_once(x, DOM, token, "first", NULL, &w);
	if (!rc)
		rc = peek(x, DOM, &r);
	if (rc)
		return rc;
	snprintf(sit, sizeof sit, "no row yet, token %lld", token);
	spec_judge(&x->sp, rules[R_FIRST].id, sit,
		   !w.failed && w.accepted && r.present && r.mark == token,
		   "%s; row then %s (want 1 row changed; mark %lld)", what(&w, a, sizeof a),
		   row_text(&r, b, sizeof b), token);
	if (!w.failed && w.accepted)
		spec_judge(&x->sp, rules[R_VALUE].id, sit, r.present && !strcmp(r.value, "first"),
			   "accepted; row then %s (want value \"first\")", b);
	return 0;
}

/* One domain at mark; the learner writes token.  Judges the rule of the
 * relation and, when accepted ought to be, the value rule. */
static int one_domain(struct fx *x, long long mark, long long token, int rule, const char *sit)
{
	const struct seed_row s = {DOM, mark, "before"};
	struct wrote w;
	struct row r;
	char a[440], b[120];
	int rc = stage(x, &s, 1);
	if (!rc)
		rc = learner_once(x, DOM, token, "after", NULL, &w);
	if (!rc)
		rc = peek(x, DOM, &r);
	if (rc)
		return rc;
	what(&w, a, sizeof a);
	row_text(&r, b, sizeof b);
	if (rule == R_STALE) {
		spec_judge(&x->sp, rules[rule].id, sit,
			   !w.failed && !w.accepted && w.changes == 0 && r.present &&
				   r.mark == mark && !strcmp(r.value, "before"),
			   "%s; row then %s (want no row changed; mark %lld, value \"before\")", a,
			   b, mark);
		return 0;
	}
	if (rule == R_INTEGER) {
		/* Decided as the same relation between two-digit numbers is:
		 * what a stale or a fresh token gets is the other rules'. */
		long long tm = token >= mark ? 41 : 57, tt = token >= mark ? 57 : 41;
		int alone = 0;
		if ((rc = decide_alone(x, DOM, tm, tt, NULL, &alone)) != 0)
			return rc;
		spec_judge(&x->sp, rules[rule].id, sit, !w.failed && w.accepted == alone,
			   "%s; with mark %lld and token %lld the same statement %s", a, tm, tt,
			   alone < 0 ? "failed too"
			   : alone   ? "changed 1 row"
				     : "changed no row");
		return 0;
	}
	long long want_mark = rule == R_SAME ? mark : token;
	spec_judge(&x->sp, rules[rule].id, sit, !w.failed && w.accepted && r.mark == want_mark,
		   "%s; row then %s (want 1 row changed, mark %lld)", a, b, want_mark);
	if (!w.failed && w.accepted)
		spec_judge(&x->sp, rules[R_VALUE].id, sit, !strcmp(r.value, "after"),
			   "accepted; row then %s (want value \"after\")", b);
	return 0;
}

/* Two domains at m1 and m2; the learner writes token to dom (DOM, DOM2
 * or the new DOM3).  The rule holds when the write is decided as it is
 * with its own domain's row alone (its twin) and the other rows stay. */
static int two_domains(struct fx *x, long long m1, long long m2, const char *dom, long long token,
		       const char *sit)
{
	const struct seed_row s[2] = {{DOM, m1, "orders-before"}, {DOM2, m2, "billing-before"}};
	struct wrote w;
	struct row r1, r2;
	int n = 0, alone = 0;
	char a[440], b1[120], b2[120];
	long long own = !strcmp(dom, DOM) ? m1 : !strcmp(dom, DOM2) ? m2 : -1;
	int rc = stage(x, s, 2);
	if (!rc)
		rc = learner_once(x, dom, token, "after", NULL, &w);
	if (!rc)
		rc = peek(x, DOM, &r1);
	if (!rc)
		rc = peek(x, DOM2, &r2);
	if (!rc)
		rc = count_others(x, dom, &n);
	if (!rc)
		rc = decide_alone(x, dom, own, token, NULL, &alone);
	if (rc)
		return rc;
	const struct row *got[2] = {&r1, &r2};
	int untouched = n == (strcmp(dom, DOM3) ? 1 : 2);
	for (int i = 0; i < 2; i++)
		if (strcmp(dom, s[i].domain))
			untouched = untouched && got[i]->present && got[i]->mark == s[i].mark &&
				    !strcmp(got[i]->value, s[i].value);
	spec_judge(&x->sp, rules[R_DOMAIN].id, sit, !w.failed && w.accepted == alone && untouched,
		   "%s, alone %s; %s then %s, %s then %s; other domains' rows: %d",
		   what(&w, a, sizeof a),
		   alone < 0 ? "failed too"
		   : alone   ? "1 row changed"
			     : "no row changed",
		   DOM, row_text(&r1, b1, sizeof b1), DOM2, row_text(&r2, b2, sizeof b2), n);
	return 0;
}

/* B's write (token 57) passes its check while its token is the mark;
 * then C writes 73; then B's write runs. */
static int overtaken(struct fx *x)
{
	const struct seed_row s = {DOM, 57, "b-first"};
	const struct overtake ov = {DOM, 73, "c-in-between"};
	struct wrote w;
	struct row r;
	char a[440], b[120];
	int rc = stage(x, &s, 1);
	if (!rc)
		rc = learner_once(x, DOM, 57, "b-late", &ov, &w);
	if (!rc)
		rc = peek(x, DOM, &r);
	if (rc)
		return rc;
	int ok = !w.failed && !w.accepted && r.mark == 73 && !strcmp(r.value, "c-in-between");
	const char *sit = "B's write (token 57) overtaken by C's (token 73) after its check";
	what(&w, a, sizeof a);
	row_text(&r, b, sizeof b);
	/* Without a check nothing can come between: the write holds the
	 * write lock from its comparison to its commit, so a stale write
	 * accepted here is the stale rule's failure, not a gap's. */
	if (x->has_check)
		spec_judge(&x->sp, rules[R_GAP].id, sit, ok,
			   "%s; row then %s (want B's write rejected, mark 73, value "
			   "\"c-in-between\")",
			   a, b);
	else {
		spec_judge(&x->sp, rules[R_GAP].id,
			   "no separate check: the comparison is in the write", 1, "%s", "");
		spec_judge(&x->sp, rules[R_STALE].id,
			   "C's token 73 landed while B's 57 was in flight", ok,
			   "%s; row then %s (want no row changed; mark 73)", a, b);
	}
	return 0;
}

static int situations(struct fx *x)
{
	int rc = first_write(x, 57);
	if (!rc)
		rc = first_write(x, 0);
	if (!rc)
		rc = one_domain(x, 57, 41, R_STALE, "mark 57, token 41");
	if (!rc)
		rc = one_domain(x, 57, 56, R_STALE, "mark 57, token 56 (one below)");
	if (!rc)
		rc = one_domain(x, 57, 57, R_SAME, "mark 57, token 57");
	if (!rc)
		rc = one_domain(x, 0, 0, R_SAME, "mark 0, token 0");
	if (!rc)
		rc = one_domain(x, 41, 57, R_HIGHER, "mark 41, token 57");
	if (!rc)
		rc = one_domain(x, 57, 58, R_HIGHER, "mark 57, token 58 (one above)");
	if (!rc)
		rc = one_domain(x, 9, 10, R_INTEGER, "mark 9, token 10");
	if (!rc)
		rc = one_domain(x, 10, 9, R_INTEGER, "mark 10, token 9");
	if (!rc)
		rc = one_domain(x, 99, 100, R_INTEGER, "mark 99, token 100");
	if (!rc)
		rc = one_domain(x, 1000000000, 999999999, R_INTEGER,
				"mark 1000000000, token 999999999");
	if (!rc)
		rc = two_domains(x, 73, 41, DOM2, 57,
				 "token 57 to a domain at 41 while another is at 73");
	if (!rc)
		rc = two_domains(x, 41, 73, DOM, 57,
				 "token 57 to a domain at 41 while another is at 73 (other order)");
	if (!rc)
		rc = two_domains(x, 41, 41, DOM2, 30,
				 "token 30 to a domain at 41 while another is at 41");
	if (!rc)
		rc = two_domains(x, 73, 12, DOM2, 10,
				 "token 10 to a domain at 12 while another is at 73");
	if (!rc)
		rc = two_domains(x, 73, 41, DOM3, 12,
				 "token 12 to a new domain while others are at 73 and 41");
	if (!rc)
		rc = overtaken(x);
	return rc;
}

/* --- exploration ---------------------------------------------------- */

/* Writers A, B, C with tokens 41 < 57 < 73 on domains 1 and 2; an
 * "overtaken" op is A's or B's write with C's landing after its check. */
enum { OP_W = 0, OP_LATE_A1 = 6, OP_LATE_B2, OP_KINDS };
static const char *const op_names[OP_KINDS] = {"A-writes-1",	"B-writes-1",	"C-writes-1",
					       "A-writes-2",	"B-writes-2",	"C-writes-2",
					       "A-overtaken-1", "B-overtaken-2"};
static const long long tokens[3] = {41, 57, 73};
static const char *const lanes[3] = {"A", "B", "C"};
static const char *const doms[2] = {DOM, DOM2};

struct model {
	long long mark[2]; /* -1: no row */
	char value[2][32];
};

/* The rule a wrong outcome of a write of token t to domain d breaks.  A
 * wrong decision (accepted or not) is the marks-per-domain rule's when
 * the same write, its own domain's row alone staged as it was (pre,
 * before any overtaking write), is decided right, else the rule of its
 * relation to its own mark (own).  A right decision with a wrong row is
 * the relation's rule (the mark) or the value rule.  *rule receives the
 * index. */
static int blame(struct fx *x, const struct model *pre, long long own, int d, long long t,
		 const struct overtake *ov, int decided_right, int mark_ok, int *rule)
{
	int alone = 0, want = own < 0 || t >= own;
	if (!decided_right) {
		int rc = decide_alone(x, doms[d], pre->mark[d], t, ov, &alone);
		if (rc)
			return rc;
		if (alone == want) {
			*rule = R_DOMAIN;
			return 0;
		}
	}
	if (own < 0)
		*rule = R_FIRST;
	else if (t < own)
		*rule = ov && x->has_check ? R_GAP : R_STALE;
	else if (decided_right && mark_ok)
		*rule = R_VALUE;
	else
		*rule = t == own ? R_SAME : R_HIGHER;
	return 0;
}

static int run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			size_t whylen)
{
	struct fx *x = arg;
	struct report *r = x->ctx->report;
	struct model m = {{-1, -1}, {"", ""}};
	int rc = stage(x, NULL, 0);
	for (int i = 0; !rc && i < n; i++) {
		int op = ops[i], late = op >= OP_LATE_A1;
		int k = late ? op - OP_LATE_A1 : op % 3, d = late ? op - OP_LATE_A1 : op / 3;
		long long t = tokens[k];
		char value[32], tok[24], over[32];
		snprintf(value, sizeof value, "%s-%d", lanes[k], i + 1);
		snprintf(tok, sizeof tok, "%lld", t);
		snprintf(over, sizeof over, "C-%d-between", i + 1);
		struct overtake ov = {doms[d], tokens[2], over};
		struct model pre = m;
		if (late) { /* C's write lands first in the model */
			if (record)
				report_mark(r, "C",
					    "token 73 lands on %s while %s's write is in flight",
					    doms[d], lanes[k]);
			m.mark[d] = tokens[2];
			snprintf(m.value[d], sizeof m.value[d], "%s", over);
		}
		int idx = record ? report_invoke(r, lanes[k], "write", tok) : -1;
		struct wrote w;
		if ((rc = learner_once(x, doms[d], t, value, late ? &ov : NULL, &w)) != 0)
			break;
		if (record)
			report_complete(r, idx,
					w.failed     ? HIST_INFO
					: w.accepted ? HIST_OK
						     : HIST_FAIL,
					value);
		struct row got[2];
		if ((rc = peek(x, doms[0], &got[0])) != 0 || (rc = peek(x, doms[1], &got[1])) != 0)
			break;
		struct model before = m;
		int want = m.mark[d] < 0 || t >= m.mark[d];
		if (want) {
			m.mark[d] = t > m.mark[d] ? t : m.mark[d];
			snprintf(m.value[d], sizeof m.value[d], "%s", value);
		}
		int other_ok = m.mark[1 - d] < 0
				       ? !got[1 - d].present
				       : got[1 - d].present && got[1 - d].mark == m.mark[1 - d] &&
						 !strcmp(got[1 - d].value, m.value[1 - d]);
		int mark_ok = got[d].present && got[d].mark == m.mark[d];
		int value_ok = got[d].present && !strcmp(got[d].value, m.value[d]);
		if (!w.failed && w.accepted == want && mark_ok && value_ok && other_ok)
			continue;
		char a[440];
		snprintf(why, whylen,
			 "op %d, %s writes %s with token %lld (mark %lld): %s, want %s; mark then "
			 "%lld, want %lld%s",
			 i + 1, lanes[k], doms[d], t, before.mark[d], what(&w, a, sizeof a),
			 want ? "1 row changed" : "no row changed",
			 got[d].present ? got[d].mark : -1, m.mark[d],
			 other_ok ? "" : "; the other domain's row changed");
		if (!other_ok)
			return R_DOMAIN + 1;
		int rule = 0;
		rc = blame(x, &pre, before.mark[d], d, t, late ? &ov : NULL,
			   !w.failed && w.accepted == want, mark_ok, &rule);
		if (!rc)
			return rule + 1;
	}
	if (rc) {
		report_cannot(r, "the fenced-write exploration stopped: %s", x->env);
		return rc;
	}
	return 0;
}

static int rules_check(struct lab_ctx *ctx, const struct ex_code *code, const struct sqlfile *f,
		       int *failed)
{
	struct fx x = {.ctx = ctx, .f = f, .has_check = sqlfile_find(f, "check") != NULL};
	spec_init(&x.sp, ctx, code, rules, R_COUNT);
	char *path = wb_xasprintf("%s/spec-fenced.db", ctx->run_dir);
	char err[400];
	unlink(path);
	int rc = sqlitex_open(path, NULL, &x.db, err, sizeof err);
	free(path);
	if (rc) {
		report_cannot(ctx->report, "the rules' database: %s", err);
		return WB_EIO;
	}
	rc = exec_env(&x, schema);
	if (!rc)
		rc = exec_env(&x, "PRAGMA synchronous=OFF");
	report_step(ctx->report,
		    "The rules: your statements in %d staged situations on a SQLite file, then "
		    "%d seeded schedules of three writers on two domains",
		    N_SITUATIONS, N_SCHEDULES);
	if (!rc)
		rc = situations(&x);
	if (rc) {
		report_cannot(ctx->report, "a staged situation could not run: %s", x.env);
		goto out;
	}
	const char *const judged[] = {rules[R_FIRST].id,
				      rules[R_STALE].id,
				      rules[R_SAME].id,
				      rules[R_HIGHER].id,
				      rules[R_VALUE].id,
				      rules[R_DOMAIN].id,
				      x.has_check ? rules[R_GAP].id : NULL,
				      NULL};
	rc = spec_explore(&x.sp, judged, N_SCHEDULES, 12, OP_KINDS, op_names, run_schedule, &x);
	if (rc == 0)
		*failed = spec_finish(&x.sp);
out:
	sqlite3_close_v2(x.db);
	return rc;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"write", NULL};
	struct sqlfile_param p[3];
	write_params(p, "/lock", 7, "v");
	struct sqlfile *f = NULL;
	int rc = sqlex_load(ctx, code, schema, names, p, 3, &f);
	if (rc == 0 && sqlfile_find(f, "check")) {
		static const char *const more[] = {"check", NULL};
		p[2].required = 0;
		rc = sqlex_check_stmts(ctx, f, schema, more, p, 2);
	}
	if (rc) {
		sqlfile_free(f);
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	}
	int failed = 0;
	rc = rules_check(ctx, code, f, &failed);
	if (rc || failed) {
		if (!rc)
			report_step(ctx->report, "The story (the lab zk-fencing with your "
						 "statement) runs once every rule holds");
		sqlfile_free(f);
		return lab_outcome_of(ctx, rc);
	}
	report_conclusion(ctx->report,
			  "Your write compared the token with the stored mark and wrote in one "
			  "statement: A's late write was rejected once B's token was accepted, the "
			  "mark survived a reopen, and a write overtaken in flight was rejected "
			  "too.");
	report_step(ctx->report, "The story: the lab zk-fencing with your statement");
	struct fenced_impl impl = {setup, f};
	rc = zk_fencing_scenario(ctx, &impl);
	sqlfile_free(f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_fenced_write = check;
