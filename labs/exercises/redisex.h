/*
 * redisex.h - what the Redis exercises' checks share
 * (labs/exercises/redis-release.c, redis-renew.c): the learner's Lua
 * script read from the workspace and run in its safe round of the
 * redis-lock lab's scenario (labs/redis/redislab.h), the recipe's script
 * in the other slot.
 *
 * It deliberately reads the script only to hand it to redis-server: no
 * keyword grading, and no checks of its own but "reads-script".
 */
#ifndef WB_REDISEX_H
#define WB_REDISEX_H

#include "exercise.h"
#include "harness/narration.h"

/* Which script the learner wrote. */
enum redisex_script {
	REDISEX_RELEASE, /* compare-and-delete: round REDIS_LOCK_ROUND_DEL_SAFE */
	REDISEX_RENEW,	 /* compare-and-pexpire: round REDIS_LOCK_ROUND_RENEW_SAFE */
};

/* Reads code's file (an unreadable one is the failed check
 * "reads-script" and LAB_RAN) and runs the round of which with the
 * learner's script; the caller sets the conclusion (a literal, so its
 * Chinese text is found).
 * Returns the lab's outcome (lab_outcome_of). */
/* The rules of the exercise (redisspec.c): the learner's script in the
 * staged situations and the seeded exploration, on a redis-server of its
 * own, each rule reported as a check named by its id (spec.h).  renew
 * selects redis-renew's rules, else redis-release's.  Returns 0 (the rules
 * were judged), or a WB_E code after report_cannot. */
int redisex_rules(struct lab_ctx *ctx, const struct ex_code *code, const char *script, int renew);

enum lab_outcome redisex_check(struct lab_ctx *ctx, const struct ex_code *code,
			       enum redisex_script which);

#endif
