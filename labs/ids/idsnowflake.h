/*
 * idsnowflake.h - the id-snowflake lab's scenario (labs/ids/id-snowflake.c)
 * as a function, so an exercise can run its steps with another generator
 * in place of recipes/snowflake.c's (docs/exercises.md): the same fake
 * clock for the rollback and exhaustion steps, the same real SQLite
 * reservation file, the same ZooKeeper worker leases and SIGKILLed
 * process for the restart, the same named checks.
 *
 * It holds no exercise logic (labs/exercises/snowflake-next.c adapts the
 * learner's function) and changes nothing in what the lab itself runs.
 */
#ifndef WB_IDSNOWFLAKE_H
#define WB_IDSNOWFLAKE_H

#include "lab.h"
#include "recipes/snowflake.h"

#include <stddef.h>

/* The steps of the scenario (id-snowflake.c's header comment). */
enum {
	ID_SNOWFLAKE_ROLLBACK = 1 << 0,	 /* steps 1 and 2: rollback, exhaustion */
	ID_SNOWFLAKE_RESTART = 1 << 1,	 /* step 3: same-ms restart */
	ID_SNOWFLAKE_DUPLICATE = 1 << 2, /* step 4: a second holder (recipe only) */
	ID_SNOWFLAKE_MILLIONS = 1 << 3,	 /* step 5 and the final no-id-repeats (recipe only) */
	ID_SNOWFLAKE_ALL = 0xf,
};

/*
 * A generator the scenario drives: the recipe's snowflake_gen_* calls, or
 * an exercise's adapter.  g is the implementation's own handle.
 */
struct id_snowflake_impl {
	/* like snowflake_gen_open: 0, or a WB_E* code with err filled */
	int (*open)(const struct snowflake_config *cfg, void **g, char *err, size_t errlen);
	/* like snowflake_gen_next */
	int (*next)(void *g, int64_t *id);
	/* the message for the last error (owned by g) */
	const char *(*errmsg)(void *g);
	/* counters; an implementation fills what it knows, zeroes the rest */
	void (*stats)(void *g, struct snowflake_stats *out);
	/* the stale-lease hook; NULL when the generator has none */
	void (*stale)(void *g, int on);
	void (*free)(void *g);
	/* 0: the recipe, whose failures to issue are an environment problem
	 * (report_cannot); 1: code under test, whose failures are failed
	 * checks ("generator-answers", or "issues-within-reservation" for
	 * WB_ECONFLICT, which an adapter returns for an id at or beyond the
	 * durable reservation) */
	int under_test;
};

/* The recipe (recipes/snowflake.c). */
extern const struct id_snowflake_impl id_snowflake_recipe;

/*
 * Runs the chosen steps (ID_SNOWFLAKE_* bits) with impl, starting (or
 * joining, with --zk) ZooKeeper and forking the generator processes
 * first.  Returns 0 when the steps ran to their end (the checks say how
 * they went), WB_EUNAVAIL (reported with report_cannot), or another
 * negative code (a failed check says why).
 */
int id_snowflake_scenario(struct lab_ctx *ctx, const struct id_snowflake_impl *impl,
			  unsigned steps);

#endif
