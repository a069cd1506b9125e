/*
 * redislock.c - the single-instance Redis lock (see redislock.h).
 *
 * Every command goes through redisCommand with %s / %lld arguments, which
 * hiredis sends as separate RESP bulk strings: a key or token is never
 * spliced into a command line, whatever bytes it holds.
 */
#if defined(__has_include) && __has_include(<hiredis/hiredis.h>)
#include "recipes/redislock.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* Our own teaching version.  GET on a missing key is false in Lua, which
 * never equals a token, so a vanished lock yields 0. */
const char redislock_release_lua[] =
	"-- KEYS[1]: the lock key   ARGV[1]: the token this acquisition wrote\n"
	"if redis.call('GET', KEYS[1]) ~= ARGV[1] then\n"
	"  return 0  -- expired, taken by someone else, or never ours\n"
	"end\n"
	"return redis.call('DEL', KEYS[1])\n";

const char redislock_renew_lua[] =
	"-- KEYS[1]: the lock key   ARGV[1]: our token   ARGV[2]: new lease (ms)\n"
	"if redis.call('GET', KEYS[1]) ~= ARGV[1] then\n"
	"  return 0  -- not ours any more: stop protected work\n"
	"end\n"
	"return redis.call('PEXPIRE', KEYS[1], ARGV[2])\n";

int redislock_token_new(char *out)
{
	unsigned char raw[REDISLOCK_TOKEN_LEN / 2];
	size_t got = 0;
	while (got < sizeof raw) {
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
		if (n <= 0)
			return WB_EIO;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof raw; i++)
		snprintf(out + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* Turns a missing reply or an error reply into WB_EIO with a message. */
static int check_reply(redisContext *c, redisReply *r, const char *what, char **err)
{
	if (!r) {
		if (err)
			*err = wb_xasprintf("%s: %s", what, c->errstr[0] ? c->errstr : "no reply");
		return WB_EIO;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		if (err)
			*err = wb_xasprintf("%s: %.*s", what, (int)r->len, r->str);
		return WB_EIO;
	}
	return 0;
}

static const char *reply_type_name(int type)
{
	switch (type) {
	case REDIS_REPLY_STRING: return "a bulk string";
	case REDIS_REPLY_ARRAY: return "an array";
	case REDIS_REPLY_NIL: return "nil (a Lua false or nil)";
	case REDIS_REPLY_STATUS: return "a status reply (such as OK)";
	default: return "of another type";
	}
}

/* An integer reply into *n. */
static int int_reply(redisContext *c, redisReply *r, const char *what, long long *n, char **err)
{
	int rc = check_reply(c, r, what, err);
	if (!rc && r->type != REDIS_REPLY_INTEGER) {
		if (err)
			*err = wb_xasprintf("%s: the reply is %s, not an integer", what,
					    reply_type_name(r->type));
		rc = WB_EIO;
	}
	if (!rc)
		*n = r->integer;
	freeReplyObject(r);
	return rc;
}

int redislock_acquire(redisContext *c, const char *key, const char *token, long long lease_ms,
		      char **err)
{
	if (lease_ms <= 0)
		return WB_EINVAL;
	redisReply *r = redisCommand(c, "SET %s %s NX PX %lld", key, token, lease_ms);
	int rc = check_reply(c, r, "SET NX PX", err);
	if (!rc)
		rc = r->type == REDIS_REPLY_NIL ? WB_EBUSY : 0; /* nil: the key exists */
	if (r)
		freeReplyObject(r);
	return rc;
}

int redislock_release_with(redisContext *c, const char *script, const char *key, const char *token,
			   int *released, char **err)
{
	long long n = 0;
	int rc = int_reply(c, redisCommand(c, "EVAL %s 1 %s %s", script, key, token),
			   "compare-and-delete", &n, err);
	*released = !rc && n == 1;
	return rc;
}

int redislock_release(redisContext *c, const char *key, const char *token, int *released,
		      char **err)
{
	return redislock_release_with(c, redislock_release_lua, key, token, released, err);
}

int redislock_renew_with(redisContext *c, const char *script, const char *key, const char *token,
			 long long lease_ms, int *renewed, char **err)
{
	long long n = 0;
	*renewed = 0;
	if (lease_ms <= 0)
		return WB_EINVAL;
	int rc = int_reply(c, redisCommand(c, "EVAL %s 1 %s %s %lld", script, key, token, lease_ms),
			   "compare-and-pexpire", &n, err);
	*renewed = !rc && n == 1;
	return rc;
}

int redislock_renew(redisContext *c, const char *key, const char *token, long long lease_ms,
		    int *renewed, char **err)
{
	return redislock_renew_with(c, redislock_renew_lua, key, token, lease_ms, renewed, err);
}

int redislock_get(redisContext *c, const char *key, char **value, char **err)
{
	redisReply *r = redisCommand(c, "GET %s", key);
	int rc = check_reply(c, r, "GET", err);
	*value = NULL;
	if (!rc && r->type == REDIS_REPLY_STRING)
		*value = wb_xstrndup(r->str, r->len);
	if (r)
		freeReplyObject(r);
	return rc;
}

int redislock_del_unsafe(redisContext *c, const char *key, long long *n, char **err)
{
	return int_reply(c, redisCommand(c, "DEL %s", key), "DEL", n, err);
}

int redislock_pexpire_unsafe(redisContext *c, const char *key, long long lease_ms, long long *n,
			     char **err)
{
	return int_reply(c, redisCommand(c, "PEXPIRE %s %lld", key, lease_ms), "PEXPIRE", n, err);
}

int redislock_pttl(redisContext *c, const char *key, long long *ms, char **err)
{
	return int_reply(c, redisCommand(c, "PTTL %s", key), "PTTL", ms, err);
}

#else
/* Built without hiredis: the lab says so (labs/redis-lock.c). */
typedef int redislock_unavailable;
#endif
