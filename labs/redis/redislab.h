/*
 * redislab.h - the redis-lock lab's scenario (labs/redis/redis-lock.c) as
 * a function, so an exercise can run it with the learner's scripts in
 * place of the recipe's (docs/exercises.md): the same redis-server, the
 * same client A paused at its gate until its key has really expired, the
 * same named checks.
 *
 * It holds no exercise logic (labs/exercises/redis-*.c adapt the
 * learner's file) and changes nothing in what the lab itself runs.
 */
#ifndef WB_REDISLAB_H
#define WB_REDISLAB_H

#include "lab.h"

/* The rounds of the scenario (redis-lock.c's header comment). */
enum {
	REDIS_LOCK_ROUND_DEL_UNSAFE = 1 << 0,	/* control: GET, then DEL */
	REDIS_LOCK_ROUND_DEL_SAFE = 1 << 1,	/* compare-and-delete */
	REDIS_LOCK_ROUND_RENEW_UNSAFE = 1 << 2, /* control: GET, then PEXPIRE */
	REDIS_LOCK_ROUND_RENEW_SAFE = 1 << 3,	/* compare-and-pexpire */
	REDIS_LOCK_ROUND_ALL = 0xf,
};

/* The code under test in the safe rounds. */
struct redis_lock_code {
	const char *release_lua; /* KEYS[1] key, ARGV[1] token; 1 = deleted */
	const char *renew_lua;	 /* ... ARGV[2] lease in ms; 1 = renewed */
	const char *from;	 /* NULL: the recipe's scripts; else the learner's
				    file name, which the narration names */
	unsigned rounds;	 /* REDIS_LOCK_ROUND_* bits to run */
	int closing_notes;	 /* also the two closing steps of the lab */
};

/*
 * Starts redis-server in ctx->run_dir, runs the chosen rounds with code's
 * scripts in both clients' safe operations, and stops the server.
 * Returns 0 when the rounds ran to their end (the checks say how they
 * went), WB_EUNAVAIL (reported with report_cannot: no redis-server, no
 * hiredis in this build), or WB_EIO (a command failed: reported as the
 * failed check "redis-command", with the server's message).
 */
int redis_lock_scenario(struct lab_ctx *ctx, const struct redis_lock_code *code);

#endif
