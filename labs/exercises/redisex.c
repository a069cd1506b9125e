/*
 * redisex.c - a Redis exercise's script in the redis-lock lab's scenario
 * (see redisex.h).  No scenario logic lives here.
 */
#include "redisex.h"
#include "base/wb.h"
#include "harness/report.h"
#include "redis/redislab.h"

#include <stdlib.h>

#if defined(__has_include) && __has_include(<hiredis/hiredis.h>)
#include "recipes/redislock.h"
#define RELEASE_LUA redislock_release_lua
#define RENEW_LUA   redislock_renew_lua
#else
#define RELEASE_LUA ""
#define RENEW_LUA   ""
#endif

enum lab_outcome redisex_check(struct lab_ctx *ctx, const struct ex_code *code,
			       enum redisex_script which)
{
	char *text = NULL;
	if (ex_code_text(code, &text, NULL)) {
		report_check(ctx->report, "reads-script", 0, "the script file can be read",
			     code->path);
		return LAB_RAN;
	}
	const int renew = which == REDISEX_RENEW;
	int rc = redisex_rules(ctx, code, text, renew);
	if (rc) {
		free(text);
		return lab_outcome_of(ctx, rc);
	}
	const struct redis_lock_code lc = {
		.release_lua = renew ? RELEASE_LUA : text,
		.renew_lua = renew ? text : RENEW_LUA,
		.from = code->ex->file,
		.rounds = renew ? REDIS_LOCK_ROUND_RENEW_SAFE : REDIS_LOCK_ROUND_DEL_SAFE,
	};
	report_step(ctx->report, "The story: the redis-lock lab's round with your script");
	rc = redis_lock_scenario(ctx, &lc);
	free(text);
	return lab_outcome_of(ctx, rc);
}
