/*
 * redis-release.c - the check of the exercise "redis-release": the
 * learner's release script (compare-and-delete, exercises/redis-release/)
 * run by a real redis-server in round 2 of the redis-lock lab's scenario
 * (labs/redis/redislab.h): A's lease really expires while A is paused at
 * its gate, B acquires, A wakes up and releases with the learner's script,
 * then B releases its own lock with it.
 *
 * Checks (the lab's own names): compare-and-delete-keeps-b-lock (A's late
 * release returns 0 and B's token is still there) and owner-release-works
 * (B's release returns 1 and the key is gone); a script that fails in Lua
 * or answers a non-integer fails "redis-command" with the server's text.
 *
 * It does not run the lab's control rounds (they run no learner code) nor
 * read the script for keywords: only what the server did counts.
 */
#include "redisex.h"
#include "harness/report.h"

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(ctx->report,
			  "Your release script deleted the lock only for the token that held it: "
			  "A's late release left B's lock in place, and B's own release removed "
			  "it.");
	return redisex_check(ctx, code, REDISEX_RELEASE);
}

const ex_check_fn ex_redis_release = check;
