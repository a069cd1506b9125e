/*
 * segment-alloc.c - the check of the exercise "segment-alloc": the
 * learner's statement "alloc" in place of the segment recipe's UPDATE and
 * generation check (recipes/segment.h, segment_set_bump), judged by the
 * lab id-segment's own scenario (labs/ids/id-segment.h): two allocators
 * with a forced interleaving, four processes behind a barrier, a lost
 * reply, and a restored old backup.
 *
 * "alloc" runs inside the recipe's BEGIN IMMEDIATE transaction with
 * :name and :n, and returns one row with the columns first, last and
 * generation, or no row when it refuses (its generation is behind the
 * witness, attached as schema "witness": a restored backup).  A file may
 * also define "read", which then runs first, outside the transaction,
 * with :name; its row's high_water and generation are passed to alloc as
 * :high_water and :generation.  That is how a read-then-write is written
 * here, and the scenario's forced interleaving sits between the two.  The
 * request record and the witness write stay the recipe's.
 *
 * Before the story the task's rules (spec.h) are judged on SQLite files of
 * the task's schema in the run folder (the allocator, and the witness
 * attached as "witness"), with the recipe's order of work: "read" outside
 * any transaction, "alloc" inside BEGIN IMMEDIATE (rolled back when it
 * returns no row, committed otherwise, as the recipe does), then the
 * witness write.  Each situation stages the rows it needs: one sequence
 * except in the sequences-independent rule's, so that a missing "name ="
 * shows only there; a decision that differs between two sequences and the
 * same sequence alone is that rule's, a decision wrong alone is the
 * witness rules'.  The exploration runs seeded schedules of allocations by
 * three allocators on two sequences, overtaken allocations, lost witness
 * writes, a backup, its restore and the repair (segment_raise's
 * arithmetic) against a model of each row and witness; the first
 * mismatch names the rule.  The story (the lab id-segment) runs once
 * every rule holds: a learner's mistake is a failed rule with SQLite's
 * whole message, never "could not run".
 */
#include "exercise.h"
#include "spec.h"
#include "sqlex.h"
#include "base/sqlitex.h"
#include "checkers/history.h"
#include "harness/narration.h"
#include "base/wb.h"
#include "harness/report.h"
#include "ids/id-segment.h"
#include "recipes/segment.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What "read" returned, per connection (two allocators share a process
 * in the interleaving, and B's whole allocation runs between A's read and
 * A's write). */
struct seen {
	sqlite3 *db;
	long long high_water, generation;
};

struct learner {
	struct sqlfile *f;
	struct seen seen[8];
};

static struct seen *seen_of(struct learner *L, sqlite3 *db)
{
	struct seen *free_slot = NULL;
	for (size_t i = 0; i < WB_ARRAY_LEN(L->seen); i++) {
		if (L->seen[i].db == db)
			return &L->seen[i];
		if (!L->seen[i].db && !free_slot)
			free_slot = &L->seen[i];
	}
	if (!free_slot)
		free_slot = &L->seen[0];
	*free_slot = (struct seen){.db = db};
	return free_slot;
}

static void alloc_params(struct sqlfile_param p[4], const char *name, long long n,
			 const struct seen *s)
{
	p[0] = (struct sqlfile_param){":name", SQLFILE_TEXT, 0, name, 1};
	p[1] = (struct sqlfile_param){":n", SQLFILE_INT, n, NULL, 1};
	p[2] = (struct sqlfile_param){":high_water", SQLFILE_INT, s ? s->high_water : 0, NULL, 0};
	p[3] = (struct sqlfile_param){":generation", SQLFILE_INT, s ? s->generation : 0, NULL, 0};
}

static int learner_bump(void *arg, sqlite3 *db, const char *name, int64_t n,
			enum segment_bump_phase phase, struct segment_range *r, char *err,
			size_t errlen)
{
	struct learner *L = arg;
	struct seen *s = seen_of(L, db);
	struct sqlfile_param p[4];
	struct sqlex_out o;
	if (phase == SEGMENT_BUMP_BEFORE) {
		s->high_water = s->generation = 0;
		if (!sqlfile_find(L->f, "read"))
			return 0;
		alloc_params(p, name, n, NULL);
		int rc = sqlex_exec(db, L->f, "read", p, 1, &o, err, errlen);
		if (rc == 0) {
			(void)sqlex_int(&o, "high_water", &s->high_water);
			(void)sqlex_int(&o, "generation", &s->generation);
		}
		return rc;
	}
	alloc_params(p, name, n, s);
	int rc = sqlex_exec(db, L->f, "alloc", p, 4, &o, err, errlen);
	if (rc)
		return rc;
	if (o.rows == 0) {
		snprintf(err, errlen, "alloc returned no row: refused");
		return WB_ECORRUPT;
	}
	long long first, last, gen;
	if (sqlex_int(&o, "first", &first) || sqlex_int(&o, "last", &last) ||
	    sqlex_int(&o, "generation", &gen)) {
		snprintf(err, errlen, "alloc: the row has no column first, last or generation");
		return WB_EINVAL;
	}
	r->first = first;
	r->last = last;
	r->generation = gen;
	return 0;
}

static void setup(void *arg, struct segment_alloc *a)
{
	segment_set_bump(a, learner_bump, arg);
}

/* The recipe's tables, as the task text gives them; the witness is
 * attached as "witness". */
static const char schema[] = "CREATE TABLE segment_seq(name TEXT PRIMARY KEY,"
			     " high_water INTEGER NOT NULL CHECK (high_water >= 0),"
			     " generation INTEGER NOT NULL);"
			     "ATTACH DATABASE ':memory:' AS witness;"
			     "CREATE TABLE witness.segment_witness(name TEXT PRIMARY KEY,"
			     " generation INTEGER NOT NULL, high_water INTEGER NOT NULL);";

/* --- the rules ------------------------------------------------------ */

enum { R_RANGE, R_STEP, R_GEN, R_BEHIND, R_SERVED, R_SEQ, R_UNKNOWN, R_GAP, R_COUNT };

static const struct spec_rule rules[R_COUNT] = {
	{"returns-new-range",
	 N_("the row returned has first = the new high_water - :n + 1 and last = the new "
	    "high_water: the :n numbers just above the old mark")},
	{"moves-h-by-n", N_("high_water grows by exactly :n (from 0, from a large value, n = 1 and "
			    "larger)")},
	{"generation-advances",
	 N_("generation grows by 1 and the row returned carries the new generation")},
	{"behind-witness-refused",
	 N_("a row whose generation is behind the witness's (a restored backup): alloc returns no "
	    "row")},
	{"caught-up-served",
	 N_("a row whose generation equals or is ahead of the witness's, or that the witness does "
	    "not know yet: alloc serves")},
	{"sequences-independent",
	 N_("alloc changes only :name's row and compares only with :name's witness row")},
	{"unknown-name-refused",
	 N_("a name without a row in segment_seq: alloc returns no row and creates none")},
	{"overtaken-no-overlap",
	 N_("an allocation overtaken between a separate read and its write still gets a range "
	    "disjoint from the other's, and h moves by both")},
};

#define N_SITUATIONS 13
#define N_SCHEDULES  30

#define SEQ  "orders"
#define SEQ2 "users"
#define SEQ3 "invoices"

struct sx {
	struct lab_ctx *ctx;
	struct spec sp;
	const struct sqlfile *f;
	int has_read;
	sqlite3 *db;
	char env[400];
};

/* One sequence row or witness row as staged or read back. */
struct srow {
	const char *name;
	int present;
	long long h, gen;
};

/* What one allocation of the learner's did. */
struct got {
	int failed;  /* a statement failed: err */
	int refused; /* alloc returned no row */
	int rows;    /* rows it returned */
	int has_first, has_last, has_gen;
	long long first, last, gen;
	char err[400];
};

static int s_env(struct sx *x, const char *what)
{
	snprintf(x->env, sizeof x->env, "%s: %s", what, sqlite3_errmsg(x->db));
	return WB_EIO;
}

static int s_exec(struct sx *x, const char *sql)
{
	return sqlite3_exec(x->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : s_env(x, sql);
}

static int s_put(struct sx *x, const char *sql, const struct srow *r)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(x->db, sql, -1, &st, NULL) != SQLITE_OK)
		return s_env(x, "prepare a staging statement");
	sqlite3_bind_text(st, 1, r->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, r->h);
	sqlite3_bind_int64(st, 3, r->gen);
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	return s == SQLITE_DONE ? 0 : s_env(x, "stage a row");
}

/* Empties both tables, then inserts the present rows of seq and wit. */
static int s_stage(struct sx *x, const struct srow *seq, int nseq, const struct srow *wit, int nwit)
{
	int rc = s_exec(x, "DELETE FROM segment_seq; DELETE FROM witness.segment_witness;");
	for (int i = 0; !rc && i < nseq; i++)
		if (seq[i].present)
			rc = s_put(x,
				   "INSERT INTO segment_seq(name, high_water, generation) "
				   "VALUES (?1, ?2, ?3)",
				   &seq[i]);
	for (int i = 0; !rc && i < nwit; i++)
		if (wit[i].present)
			rc = s_put(x,
				   "INSERT INTO witness.segment_witness(name, high_water, "
				   "generation) VALUES (?1, ?2, ?3)",
				   &wit[i]);
	return rc;
}

static int s_peek(struct sx *x, const char *name, struct srow *r)
{
	sqlite3_stmt *st = NULL;
	*r = (struct srow){.name = name};
	if (sqlite3_prepare_v2(x->db,
			       "SELECT high_water, generation FROM segment_seq WHERE name = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return s_env(x, "prepare the read-back");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	int s = sqlite3_step(st), rc = 0;
	if (s == SQLITE_ROW) {
		r->present = 1;
		r->h = sqlite3_column_int64(st, 0);
		r->gen = sqlite3_column_int64(st, 1);
	} else if (s != SQLITE_DONE) {
		rc = s_env(x, "read a row back");
	}
	sqlite3_finalize(st);
	return rc;
}

/* The recipe's witness write: generation and h only ever grow. */
static int s_witness(struct sx *x, const char *name, long long gen, long long h)
{
	const struct srow r = {name, 1, h, gen};
	return s_put(x,
		     "INSERT INTO witness.segment_witness(name, high_water, generation)"
		     " VALUES (?1, ?2, ?3) ON CONFLICT(name) DO UPDATE SET"
		     " generation = max(generation, excluded.generation),"
		     " high_water = max(high_water, excluded.high_water)",
		     &r);
}

struct s_overtake;
static int s_alloc(struct sx *x, const char *name, long long n, const struct s_overtake *ov,
		   int lose_witness, struct got *g);

/* Another allocation landing after the learner's read and before its
 * write. */
struct s_overtake {
	const char *name;
	long long n;
	struct got *got;      /* what it received */
	struct srow after[2]; /* SEQ's and SEQ2's rows right after it */
};

/* One allocation as the recipe makes it with the learner's statements.
 * Returns 0 (g says what the learner's code did) or WB_EIO (x->env). */
static int s_alloc(struct sx *x, const char *name, long long n, const struct s_overtake *ov,
		   int lose_witness, struct got *g)
{
	struct seen seen = {0};
	struct sqlfile_param p[4];
	struct sqlex_out o;
	int rc;
	memset(g, 0, sizeof *g);
	if (x->has_read) {
		alloc_params(p, name, n, NULL);
		if (sqlex_exec(x->db, x->f, "read", p, 1, &o, g->err, sizeof g->err)) {
			g->failed = 1;
			return 0;
		}
		(void)sqlex_int(&o, "high_water", &seen.high_water);
		(void)sqlex_int(&o, "generation", &seen.generation);
	}
	if (ov) {
		struct s_overtake *o2 = (struct s_overtake *)ov;
		if ((rc = s_alloc(x, ov->name, ov->n, NULL, 0, ov->got)) != 0 ||
		    (rc = s_peek(x, SEQ, &o2->after[0])) != 0 ||
		    (rc = s_peek(x, SEQ2, &o2->after[1])) != 0)
			return rc;
	}
	if ((rc = s_exec(x, "BEGIN IMMEDIATE")) != 0)
		return rc;
	alloc_params(p, name, n, &seen);
	int erc = sqlex_exec(x->db, x->f, "alloc", p, 4, &o, g->err, sizeof g->err);
	if (erc || o.rows == 0) {
		g->failed = erc != 0;
		g->refused = erc == 0;
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
		return 0;
	}
	g->rows = o.rows;
	g->has_first = sqlex_int(&o, "first", &g->first) == 0;
	g->has_last = sqlex_int(&o, "last", &g->last) == 0;
	g->has_gen = sqlex_int(&o, "generation", &g->gen) == 0;
	if ((rc = s_exec(x, "COMMIT")) != 0)
		return rc;
	struct srow now;
	if ((rc = s_peek(x, name, &now)) != 0 || lose_witness)
		return rc;
	return s_witness(x, name, g->has_gen ? g->gen : now.gen, g->has_last ? g->last : now.h);
}

static const char *g_text(const struct got *g, char *buf, size_t len)
{
	char f[24] = "(none)", l[24] = "(none)", n[24] = "(none)";
	if (g->has_first)
		snprintf(f, sizeof f, "%lld", g->first);
	if (g->has_last)
		snprintf(l, sizeof l, "%lld", g->last);
	if (g->has_gen)
		snprintf(n, sizeof n, "%lld", g->gen);
	if (g->failed)
		snprintf(buf, len, "a statement failed: %s", g->err);
	else if (g->refused)
		snprintf(buf, len, "no row (refused)");
	else
		snprintf(buf, len, "first %s, last %s, generation %s%s", f, l, n,
			 g->rows > 1 ? " (and more rows)" : "");
	return buf;
}

/* The twin: the same allocation with only its own row and witness row
 * (either may be absent) staged.  *served: 1, 0, or -1 (a statement
 * failed). */
static int s_alone(struct sx *x, const struct srow *row, const struct srow *wit, long long n,
		   int *served)
{
	struct got g;
	int rc = s_stage(x, row, 1, wit, 1);
	if (!rc)
		rc = s_alloc(x, row->name, n, NULL, 0, &g);
	*served = g.failed ? -1 : !g.refused;
	return rc;
}

/* --- situations ----------------------------------------------------- */

/* One sequence at h, gen; the witness at wgen (wgen < 0: no witness
 * row).  Serving is right: judges the served rule and, when served, the
 * range, step and generation rules. */
static int served(struct sx *x, const char *sit, long long h, long long gen, long long wgen,
		  long long n)
{
	const struct srow row = {SEQ, 1, h, gen}, wit = {SEQ, wgen >= 0, h, wgen};
	struct got g;
	struct srow after;
	char a[440];
	int rc = s_stage(x, &row, 1, &wit, 1);
	if (!rc)
		rc = s_alloc(x, SEQ, n, NULL, 0, &g);
	if (!rc)
		rc = s_peek(x, SEQ, &after);
	if (rc)
		return rc;
	g_text(&g, a, sizeof a);
	char wtext[48] = "no witness row";
	if (wgen >= 0)
		snprintf(wtext, sizeof wtext, "witness at generation %lld", wgen);
	spec_judge(&x->sp, rules[R_SERVED].id, sit, !g.failed && !g.refused,
		   "%s (want a range: generation %lld, %s)", a, gen, wtext);
	if (g.failed || g.refused)
		return 0;
	spec_judge(&x->sp, rules[R_STEP].id, sit, after.h == h + n,
		   "high_water %lld -> %lld for n = %lld (want %lld)", h, after.h, n, h + n);
	spec_judge(&x->sp, rules[R_GEN].id, sit,
		   after.gen == gen + 1 && g.has_gen && g.gen == gen + 1,
		   "generation %lld -> %lld, returned %s (want %lld and %lld)", gen, after.gen, a,
		   gen + 1, gen + 1);
	spec_judge(&x->sp, rules[R_RANGE].id, sit,
		   g.has_first && g.has_last && g.first == after.h - n + 1 && g.last == after.h,
		   "returned %s; high_water now %lld, n = %lld (want first %lld, last %lld)", a,
		   after.h, n, after.h - n + 1, after.h);
	return 0;
}

/* A restored backup: the row at gen, the witness at wgen > gen. */
static int behind(struct sx *x, const char *sit, long long gen, long long wgen)
{
	const struct srow row = {SEQ, 1, 5000, gen}, wit = {SEQ, 1, 9000, wgen};
	struct got g;
	struct srow after;
	char a[440];
	int rc = s_stage(x, &row, 1, &wit, 1);
	if (!rc)
		rc = s_alloc(x, SEQ, 1000, NULL, 0, &g);
	if (!rc)
		rc = s_peek(x, SEQ, &after);
	if (rc)
		return rc;
	spec_judge(&x->sp, rules[R_BEHIND].id, sit, !g.failed && g.refused,
		   "%s (want no row: generation %lld is behind the witness's %lld)",
		   g_text(&g, a, sizeof a), gen, wgen);
	return 0;
}

/* Two sequences; the learner allocates for name.  The rule holds when
 * the decision is the one the same allocation gets alone and the other
 * row stays as it was, with one row returned at most. */
static int two_seqs(struct sx *x, const char *sit, const struct srow row[2],
		    const struct srow wit[2], const char *name)
{
	int me = strcmp(name, row[0].name) ? 1 : 0;
	struct got g;
	struct srow other;
	char a[440];
	int alone = 0;
	int rc = s_stage(x, row, 2, wit, 2);
	if (!rc)
		rc = s_alloc(x, name, 100, NULL, 0, &g);
	if (!rc)
		rc = s_peek(x, row[1 - me].name, &other);
	const struct srow *w = !strcmp(wit[0].name, name) ? &wit[0] : &wit[1];
	if (!rc)
		rc = s_alone(x, &row[me], w, 100, &alone);
	if (rc)
		return rc;
	int decided = g.failed ? -1 : !g.refused;
	int same = other.present && other.h == row[1 - me].h && other.gen == row[1 - me].gen;
	spec_judge(&x->sp, rules[R_SEQ].id, sit, decided == alone && same && g.rows <= 1,
		   "%s, alone %s; %s then high_water %lld, generation %lld (was %lld, %lld)",
		   g_text(&g, a, sizeof a),
		   alone < 0 ? "a statement failed"
		   : alone   ? "a range"
			     : "no row",
		   row[1 - me].name, other.h, other.gen, row[1 - me].h, row[1 - me].gen);
	return 0;
}

/* A name without a row, in a table without rows (witnessed: the witness
 * knows the name, as when a restore lost the row). */
static int unknown(struct sx *x, const char *sit, int witnessed)
{
	const struct srow wit[2] = {{SEQ, 1, 5000, 3}, {SEQ3, witnessed, 3000, 4}};
	struct got g;
	struct srow after;
	char a[440];
	int rc = s_stage(x, NULL, 0, wit, 2);
	if (!rc)
		rc = s_alloc(x, SEQ3, 1000, NULL, 0, &g);
	if (!rc)
		rc = s_peek(x, SEQ3, &after);
	if (rc)
		return rc;
	spec_judge(&x->sp, rules[R_UNKNOWN].id, sit, !g.failed && g.refused && !after.present,
		   "%s; %s then %s (want no row, and no row created)", g_text(&g, a, sizeof a),
		   SEQ3, after.present ? "has a row" : "has no row");
	return 0;
}

/* B's whole allocation lands after A's read and before A's write. */
static int overtaken(struct sx *x)
{
	const struct srow row = {SEQ, 1, 5000, 3}, wit = {SEQ, 1, 5000, 3};
	const char *sit = "A reads h = 5000, B allocates 1000, then A writes";
	if (!x->has_read) {
		/* Without a read nothing comes between: alloc holds the write
		 * lock from its read of the row to its commit. */
		spec_judge(&x->sp, rules[R_GAP].id,
			   "no separate read: the row is read in the write", 1, "%s", "");
		return 0;
	}
	struct got ga, gb;
	struct s_overtake ov = {.name = SEQ, .n = 1000, .got = &gb};
	struct srow after;
	char a[440], b[440];
	int rc = s_stage(x, &row, 1, &wit, 1);
	if (!rc)
		rc = s_alloc(x, SEQ, 1000, &ov, 0, &ga);
	if (!rc)
		rc = s_peek(x, SEQ, &after);
	if (rc)
		return rc;
	int ok = !ga.failed && !ga.refused && !gb.failed && !gb.refused && ga.has_first &&
		 ga.has_last && gb.has_first && gb.has_last &&
		 (ga.last < gb.first || gb.last < ga.first) && after.h == 7000;
	spec_judge(&x->sp, rules[R_GAP].id, sit, ok,
		   "A %s; B %s; high_water then %lld (want disjoint ranges, high_water 7000)",
		   g_text(&ga, a, sizeof a), g_text(&gb, b, sizeof b), after.h);
	return 0;
}

static int s_situations(struct sx *x)
{
	int rc = served(x, "h = 5000, n = 1000, witness equal", 5000, 3, 3, 1000);
	if (!rc)
		rc = served(x, "h = 0, n = 1, a new sequence the witness does not know", 0, 0, -1,
			    1);
	if (!rc)
		rc = served(x, "h = 2^40, n = 2^31", 1099511627776LL, 8, 8, 2147483648LL);
	if (!rc)
		rc = served(x, "generation ahead of the witness (its last write was lost)", 7000, 5,
			    4, 1000);
	if (!rc)
		rc = behind(x, "restored backup: generation 3, witness 7", 3, 7);
	if (!rc)
		rc = behind(x, "restored backup: generation 6, witness 7 (one behind)", 6, 7);
	if (!rc) {
		const struct srow row[2] = {{SEQ, 1, 5000, 3}, {SEQ2, 1, 700, 9}};
		const struct srow wit[2] = {{SEQ2, 1, 700, 9}, {SEQ, 1, 5000, 3}};
		rc = two_seqs(x, "orders at generation 3 = its witness; users' witness at 9", row,
			      wit, SEQ);
	}
	if (!rc) {
		const struct srow row[2] = {{SEQ, 1, 5000, 1}, {SEQ2, 1, 700, 2}};
		const struct srow wit[2] = {{SEQ, 1, 5000, 1}, {SEQ2, 1, 900, 5}};
		rc = two_seqs(x, "users restored (generation 2, witness 5); orders' witness at 1",
			      row, wit, SEQ2);
	}
	if (!rc) {
		const struct srow row[2] = {{SEQ, 1, 5000, 3}, {SEQ2, 1, 700, 1}};
		const struct srow wit[2] = {{SEQ, 1, 5000, 3}, {SEQ2, 0, 0, 0}};
		rc = two_seqs(x, "users never witnessed; orders' witness at 3", row, wit, SEQ2);
	}
	if (!rc) {
		const struct srow row[2] = {{SEQ, 1, 5000, 3}, {SEQ3, 0, 0, 0}};
		const struct srow wit[2] = {{SEQ, 1, 5000, 3}, {SEQ3, 0, 0, 0}};
		rc = two_seqs(x, "invoices, which has no row, next to orders", row, wit, SEQ3);
	}
	if (!rc)
		rc = unknown(x, "a name without a row", 0);
	if (!rc)
		rc = unknown(x, "a name without a row that the witness knows", 1);
	if (!rc)
		rc = overtaken(x);
	return rc;
}

/* --- exploration ---------------------------------------------------- */

enum {
	OP_A, /* orders, n = 1 */
	OP_B, /* orders, n = 1000 */
	OP_C, /* users, n = 37 */
	OP_OVERTAKEN,
	OP_LOST_WITNESS,
	OP_BACKUP,
	OP_RESTORE,
	OP_RAISE,
	OP_KINDS
};
static const char *const op_names[OP_KINDS] = {"A-orders-1",	   "B-orders-1000", "C-users-37",
					       "A-overtaken-by-B", "witness-lost",  "backup",
					       "restore",	   "raise"};

struct smodel {
	struct srow seq[2], wit[2];
	struct srow snap; /* the backup of orders (present: taken) */
	long long max_last[2];
};

/* Checks one allocation of the learner's against the model (and moves
 * the model): its answer g and the rows after it (seen, SEQ's and SEQ2's,
 * or NULL: read them now).  Returns 0 or the rule + 1 it breaks, with
 * why; *envrc is set when the scratch database failed. */
static int s_judge_alloc(struct sx *x, struct smodel *m, int s, long long n, const struct got *g,
			 int lost, int gap, const struct srow *seen, char *why, size_t whylen,
			 int *envrc)
{
	const struct srow pre = m->seq[s], wpre = m->wit[s];
	int want = pre.gen >= (wpre.present ? wpre.gen : 0);
	struct srow now[2];
	char a[440];
	*envrc = 0;
	if (seen) {
		now[0] = seen[0];
		now[1] = seen[1];
	} else if ((*envrc = s_peek(x, SEQ, &now[0])) != 0 ||
		   (*envrc = s_peek(x, SEQ2, &now[1])) != 0) {
		return 0;
	}
	if (want) {
		m->seq[s].h += n;
		m->seq[s].gen += 1;
		if (m->seq[s].h > m->max_last[s])
			m->max_last[s] = m->seq[s].h;
		if (!lost) {
			m->wit[s].present = 1;
			if (m->seq[s].gen > m->wit[s].gen)
				m->wit[s].gen = m->seq[s].gen;
			if (m->seq[s].h > m->wit[s].h)
				m->wit[s].h = m->seq[s].h;
		}
	}
	const struct srow *o = &now[1 - s], *mo = &m->seq[1 - s];
	const struct srow *me = &now[s], *mm = &m->seq[s];
	int decided = g->failed ? -1 : !g->refused;
	int ok = decided == want && g->rows <= 1 && o->h == mo->h && o->gen == mo->gen &&
		 me->h == mm->h && me->gen == mm->gen &&
		 (!want || (g->has_first && g->has_last && g->has_gen && g->gen == mm->gen &&
			    g->first == pre.h + 1 && g->last == mm->h));
	if (ok)
		return 0;
	snprintf(why, whylen,
		 "%s n = %lld at high_water %lld, generation %lld (witness %lld): %s, want %s; "
		 "high_water then %lld, generation %lld (want %lld, %lld)",
		 s ? SEQ2 : SEQ, n, pre.h, pre.gen, wpre.present ? wpre.gen : -1,
		 g_text(g, a, sizeof a), want ? "a range" : "no row", me->h, me->gen, mm->h,
		 mm->gen);
	if (g->rows > 1 || o->h != mo->h || o->gen != mo->gen)
		return R_SEQ + 1;
	if (gap)
		return R_GAP + 1;
	if (decided != want) {
		int alone = 0;
		if ((*envrc = s_alone(x, &pre, &wpre, n, &alone)) != 0)
			return 0;
		if (alone == want)
			return R_SEQ + 1;
		return (want ? R_SERVED : R_BEHIND) + 1;
	}
	if (!g->has_gen || g->gen != mm->gen || me->gen != mm->gen)
		return R_GEN + 1;
	if (me->h != mm->h)
		return R_STEP + 1;
	return R_RANGE + 1;
}

static const char *const s_lanes[3] = {"A", "B", "C"};

static int s_run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			  size_t whylen)
{
	struct sx *x = arg;
	struct report *r = x->ctx->report;
	struct smodel m = {.seq = {{SEQ, 1, 5000, 0}, {SEQ2, 1, 0, 0}},
			   .wit = {{SEQ, 0, 0, 0}, {SEQ2, 0, 0, 0}},
			   .snap = {SEQ, 0, 0, 0},
			   .max_last = {5000, 0}};
	int rc = s_stage(x, m.seq, 2, m.wit, 2);
	for (int i = 0; !rc && i < n; i++) {
		int op = ops[i], bad = 0;
		struct got g, gb;
		char val[64], a[440];
		if (op == OP_BACKUP) {
			m.snap = m.seq[0];
			if (record)
				report_mark(r, "operator", "backup of orders at h = %lld",
					    m.snap.h);
			continue;
		}
		if (op == OP_RESTORE) {
			if (!m.snap.present)
				continue;
			m.seq[0] = m.snap;
			rc = s_put(x,
				   "UPDATE segment_seq SET high_water = ?2, generation = ?3 "
				   "WHERE name = ?1",
				   &m.seq[0]);
			if (record)
				report_mark(r, "operator", "orders restored to h = %lld", m.snap.h);
			continue;
		}
		if (op == OP_RAISE) {
			struct srow *q = &m.seq[0], *w = &m.wit[0];
			long long h = q->h > m.max_last[0] ? q->h : m.max_last[0];
			if (w->present && w->h > h)
				h = w->h;
			q->h = h;
			q->gen = (w->present && w->gen > q->gen ? w->gen : q->gen) + 1;
			*w = (struct srow){SEQ, 1, h, q->gen};
			rc = s_put(x,
				   "UPDATE segment_seq SET high_water = ?2, generation = ?3 "
				   "WHERE name = ?1",
				   q);
			if (!rc)
				rc = s_witness(x, SEQ, q->gen, h);
			if (record)
				report_mark(r, "operator", "orders raised to h = %lld", h);
			continue;
		}
		int s = op == OP_C, k = op == OP_B ? 1 : op == OP_C ? 2 : 0;
		long long sz = op == OP_B	       ? 1000
			       : op == OP_C	       ? 37
			       : op == OP_LOST_WITNESS ? 100
						       : 1;
		struct s_overtake ov = {.name = SEQ, .n = 1000, .got = &gb};
		snprintf(val, sizeof val, "%lld", sz);
		int idx = record ? report_invoke(r, s_lanes[k], "alloc", val) : -1;
		if ((rc = s_alloc(x, s ? SEQ2 : SEQ, sz, op == OP_OVERTAKEN ? &ov : NULL,
				  op == OP_LOST_WITNESS, &g)) != 0)
			break;
		if (op == OP_OVERTAKEN) { /* B's allocation landed first */
			if (record) {
				int bi = report_invoke(r, "B", "alloc", "1000");
				report_complete(r, bi,
						gb.failed    ? HIST_INFO
						: gb.refused ? HIST_FAIL
							     : HIST_OK,
						g_text(&gb, a, sizeof a));
			}
			bad = s_judge_alloc(x, &m, 0, 1000, &gb, 0, 0, ov.after, why, whylen, &rc);
			if (rc || bad)
				goto judged;
		}
		if (record)
			report_complete(r, idx,
					g.failed    ? HIST_INFO
					: g.refused ? HIST_FAIL
						    : HIST_OK,
					g_text(&g, a, sizeof a));
		bad = s_judge_alloc(x, &m, s, sz, &g, op == OP_LOST_WITNESS,
				    op == OP_OVERTAKEN && x->has_read, NULL, why, whylen, &rc);
	judged:
		if (rc)
			break;
		if (bad) {
			char at[480];
			snprintf(at, sizeof at, "op %d, %s", i + 1, why);
			snprintf(why, whylen, "%s", at);
			return bad;
		}
	}
	if (rc) {
		report_cannot(r, "the segment-alloc exploration stopped: %s", x->env);
		return rc;
	}
	return 0;
}

static int s_rules(struct lab_ctx *ctx, const struct ex_code *code, const struct sqlfile *f,
		   int *failed)
{
	struct sx x = {.ctx = ctx, .f = f, .has_read = sqlfile_find(f, "read") != NULL};
	spec_init(&x.sp, ctx, code, rules, R_COUNT);
	char *path = wb_xasprintf("%s/spec-allocator.db", ctx->run_dir);
	char *wpath = wb_xasprintf("%s/spec-witness.db", ctx->run_dir);
	char err[400];
	unlink(path);
	unlink(wpath);
	int rc = sqlitex_open(path, NULL, &x.db, err, sizeof err);
	free(path);
	if (rc) {
		free(wpath);
		report_cannot(ctx->report, "the rules' database: %s", err);
		return WB_EIO;
	}
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(x.db, "ATTACH DATABASE ?1 AS witness", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, wpath, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : s_env(&x, "attach the witness");
	} else {
		rc = s_env(&x, "attach the witness");
	}
	sqlite3_finalize(st);
	free(wpath);
	if (!rc)
		rc = s_exec(&x, "PRAGMA synchronous=OFF; PRAGMA witness.synchronous=OFF;"
				"CREATE TABLE segment_seq(name TEXT PRIMARY KEY,"
				" high_water INTEGER NOT NULL CHECK (high_water >= 0),"
				" generation INTEGER NOT NULL);"
				"CREATE TABLE witness.segment_witness(name TEXT PRIMARY KEY,"
				" generation INTEGER NOT NULL, high_water INTEGER NOT NULL);");
	report_step(ctx->report,
		    "The rules: your statements in %d staged situations on SQLite files, then %d "
		    "seeded schedules of allocations, lost witness writes, a backup, its restore "
		    "and the repair",
		    N_SITUATIONS, N_SCHEDULES);
	if (!rc)
		rc = s_situations(&x);
	if (rc) {
		report_cannot(ctx->report, "a staged situation could not run: %s", x.env);
		goto out;
	}
	const char *const judged[] = {rules[R_RANGE].id,
				      rules[R_STEP].id,
				      rules[R_GEN].id,
				      rules[R_BEHIND].id,
				      rules[R_SERVED].id,
				      rules[R_SEQ].id,
				      x.has_read ? rules[R_GAP].id : NULL,
				      NULL};
	rc = spec_explore(&x.sp, judged, N_SCHEDULES, 12, OP_KINDS, op_names, s_run_schedule, &x);
	if (rc == 0)
		*failed = spec_finish(&x.sp);
out:
	sqlite3_close_v2(x.db);
	return rc;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"alloc", NULL};
	struct sqlfile_param p[4];
	alloc_params(p, "orders", 1000, NULL);
	struct learner *L = wb_xcalloc(1, sizeof *L);
	int rc = sqlex_load(ctx, code, schema, names, p, 4, &L->f);
	if (rc == 0 && sqlfile_find(L->f, "read")) {
		static const char *const more[] = {"read", NULL};
		rc = sqlex_check_stmts(ctx, L->f, schema, more, p, 1);
	}
	if (rc) {
		sqlfile_free(L->f);
		free(L);
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	}
	int failed = 0;
	rc = s_rules(ctx, code, L->f, &failed);
	if (rc || failed) {
		if (!rc)
			report_step(ctx->report,
				    "The story (the lab id-segment with your statement) "
				    "runs once every rule holds");
		sqlfile_free(L->f);
		free(L);
		return lab_outcome_of(ctx, rc);
	}
	report_conclusion(ctx->report,
			  "Your allocation moved the high-water mark in one statement: "
			  "interleaved and concurrent allocators got disjoint ranges, and a "
			  "restored old backup was refused until h was raised past every issued "
			  "ID.");
	report_step(ctx->report, "The story: the lab id-segment with your statement");
	struct segment_impl impl = {setup, L};
	rc = id_segment_scenario(ctx, &impl);
	sqlfile_free(L->f);
	free(L);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_segment_alloc = check;
