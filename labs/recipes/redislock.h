/*
 * redislock.h - the single-instance Redis lock of chapter 01 ("The
 * single-instance Redis lock"), through hiredis:
 *
 *     acquire   SET key <token> NX PX <lease>
 *     release   compare-and-delete, one Lua script run atomically
 *     renew     compare-and-pexpire, the same shape
 *
 * The token is 128 random bits per acquisition, never a host or process
 * name: a restarted process with the same name is a different holder.
 * Release and renewal compare the token on the server in the same step as
 * the change, so nothing can run between the compare and the act.
 *
 * The unsafe variants (unconditional DEL and PEXPIRE after a client-side
 * GET) are here too, named as such, because the lab runs them as the
 * control that must really fail.
 *
 * What it deliberately does not do, and cannot: protect anything but the
 * key.  Requests a paused holder already sent elsewhere are not revoked,
 * and the token is not ordered (it is no fencing token).  With
 * asynchronous replication a failover can lose the key and grant the lock
 * twice.  It also does not retry, spin, or renew in the background.
 */
#ifndef WB_REDISLOCK_H
#define WB_REDISLOCK_H

#include <hiredis/hiredis.h>

/* Hex text of 128 random bits, plus the NUL. */
#define REDISLOCK_TOKEN_LEN 32

/* The scripts, so a lab can show them. */
extern const char redislock_release_lua[];
extern const char redislock_renew_lua[];

/* A fresh token from getrandom into out[REDISLOCK_TOKEN_LEN + 1].
 * Returns 0 or WB_EIO. */
int redislock_token_new(char *out);

/*
 * SET key token NX PX lease_ms.  Returns 0 when acquired; WB_EBUSY when
 * the key exists (someone holds it); WB_EINVAL (lease_ms <= 0); WB_EIO
 * (connection or server error; the message is in c->errstr or *err).
 * err (may be NULL) receives a message the caller frees.
 */
int redislock_acquire(redisContext *c, const char *key, const char *token, long long lease_ms,
		      char **err);

/*
 * Compare-and-delete: deletes key only if its value is token.  *released
 * is 1 when this call deleted it, 0 when the key was gone or held by
 * another token (the lock had already been lost).  Returns 0 or WB_EIO.
 */
int redislock_release(redisContext *c, const char *key, const char *token, int *released,
		      char **err);

/*
 * Compare-and-pexpire: sets the key's lease to lease_ms only if its value
 * is token.  *renewed 0 means "stop protected work now", not "try again".
 * Returns 0, WB_EINVAL (lease_ms <= 0) or WB_EIO.
 */
int redislock_renew(redisContext *c, const char *key, const char *token, long long lease_ms,
		    int *renewed, char **err);

/*
 * The same two operations with another script in place of the recipe's
 * (an exercise runs the learner's): EVAL script 1 key token [lease_ms].
 * The script must answer an integer; 1 counts as released / renewed.
 * Returns 0, WB_EINVAL (lease_ms <= 0) or WB_EIO (a server error, such as
 * the script's own Lua error, or a reply that is not an integer: *err
 * says which).
 */
int redislock_release_with(redisContext *c, const char *script, const char *key, const char *token,
			   int *released, char **err);
int redislock_renew_with(redisContext *c, const char *script, const char *key, const char *token,
			 long long lease_ms, int *renewed, char **err);

/*
 * THE UNSAFE CONTROLS.  GET the value (the caller compares it in the
 * client), and later DEL or PEXPIRE the key unconditionally.  Whatever was
 * checked is not what is changed.  *value: the key's value or NULL
 * (caller frees).  *n: what DEL / PEXPIRE returned (1: a key was deleted
 * or its lease changed).  Return 0 or WB_EIO.
 */
int redislock_get(redisContext *c, const char *key, char **value, char **err);
int redislock_del_unsafe(redisContext *c, const char *key, long long *n, char **err);
int redislock_pexpire_unsafe(redisContext *c, const char *key, long long lease_ms, long long *n,
			     char **err);

/* PTTL key: ms left, -2 when the key is gone, -1 when it has no expiry.
 * Returns 0 or WB_EIO. */
int redislock_pttl(redisContext *c, const char *key, long long *ms, char **err);

#endif
