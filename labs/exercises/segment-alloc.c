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
 */
#include "exercise.h"
#include "sqlex.h"
#include "base/wb.h"
#include "harness/report.h"
#include "ids/id-segment.h"
#include "recipes/segment.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	report_conclusion(ctx->report,
			  "Your allocation moved the high-water mark in one statement: "
			  "interleaved and concurrent allocators got disjoint ranges, and a "
			  "restored old backup was refused until h was raised past every issued "
			  "ID.");
	struct segment_impl impl = {setup, L};
	rc = id_segment_scenario(ctx, &impl);
	sqlfile_free(L->f);
	free(L);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_segment_alloc = check;
