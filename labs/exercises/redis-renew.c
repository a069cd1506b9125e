/*
 * redis-renew.c - the check of the exercise "redis-renew": the learner's
 * renew script (compare-and-pexpire, exercises/redis-renew/) run by a real
 * redis-server in round 4 of the redis-lock lab's scenario
 * (labs/redis/redislab.h): A's lease really expires while A is paused at
 * its gate, B acquires with a 30000 ms lease, A wakes up and renews for
 * 600000 ms with the learner's script, then B renews its own lock with it.
 *
 * Checks (the lab's own names): compare-and-pexpire-leaves-b-lease (A's
 * renewal returns 0 and B's lease stays within 30000 ms) and
 * owner-renew-works (B's renewal returns 1 and the lease grows); a script
 * that fails in Lua or answers a non-integer fails "redis-command".
 *
 * It does not run the lab's control rounds nor read the script for
 * keywords: only what the server did counts.
 */
#include "redisex.h"
#include "harness/report.h"

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(ctx->report,
			  "Your renew script extended the lease only for the token that held it: "
			  "A's late renewal left B's lease as it was, and B's own renewal "
			  "extended it.");
	return redisex_check(ctx, code, REDISEX_RENEW);
}

const ex_check_fn ex_redis_renew = check;
