/*
 * redisspec.c - the rules of the Redis exercises (redis-release,
 * redis-renew), judged on a real redis-server before the lab's story runs
 * (see redisex.h and spec.h).
 *
 * Situations: the learner's script runs once against a key staged in each
 * state its rules name: the caller's own key, another client's key, a key
 * whose token has the caller's as a prefix, a key never set, and a key
 * whose lease really expired on the server (PEXPIRE 1, then PTTL polled
 * until -2) with nobody taking it.  After each call the check reads the
 * reply, the key's value and its PTTL.
 *
 * Exploration: seeded schedules of three clients' acquisitions (SET NX PX,
 * run by the check), releases and renewals (one of them the learner's
 * script, the other the recipe's), and a nemesis that expires the key;
 * each reply and the key's value after each op are compared with a model
 * whose state is who holds the key.  The first mismatch names the rule it
 * breaks; the failing schedule is shrunk and recorded as the run's
 * history.
 *
 * Invariant: the learner's script is only ever run with EVAL; nothing here
 * reads it for keywords.
 */
#include "redisex.h"
#include "spec.h"
#include "base/wb.h"
#include "checkers/history.h"
#include "harness/redisserver.h"
#include "harness/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__has_include) && __has_include(<hiredis/hiredis.h>)
#include "recipes/redislock.h"

#include <hiredis/hiredis.h>

#define KEY	"wb:ex:lock"
#define LEASE	30000LL
#define RENEW	60000LL
#define SHORTER 5000LL

static const struct spec_rule release_rules[] = {
	{"release-owner-deletes", N_("the holder's release returns 1 and the key is gone")},
	{"release-only-own",
	 N_("a release with another token returns 0 and leaves the key's value and lease as they "
	    "were")},
	{"release-missing-is-0",
	 N_("a release of a key that is gone (expired and untaken, or never set) returns 0 and "
	    "creates nothing")},
};

static const struct spec_rule renew_rules[] = {
	{"renew-owner-sets-lease",
	 N_("the holder's renew returns 1, keeps its token and sets the remaining lease to ARGV[2] "
	    "milliseconds")},
	{"renew-only-own",
	 N_("a renew with another token returns 0 and leaves the key's value and lease as they "
	    "were")},
	{"renew-missing-is-0",
	 N_("a renew of a key that is gone (expired and untaken, or never set) returns 0 and "
	    "creates nothing")},
};

struct rx {
	struct lab_ctx *ctx;
	redisContext *c;
	const char *script; /* the learner's */
	int renew;	    /* which exercise */
	struct spec sp;
	char tok[3][33]; /* clients A, B, C */
	char env_err[256];
};

/* What one EVAL answered: an integer, or something else described. */
struct answer {
	int is_int;
	long long n;
	char text[160];
};

static int eval(struct rx *x, const char *script, const char *token, long long lease,
		struct answer *a)
{
	redisReply *r =
		lease ? redisCommand(x->c, "EVAL %s 1 %s %s %lld", script, KEY, token, lease)
		      : redisCommand(x->c, "EVAL %s 1 %s %s", script, KEY, token);
	memset(a, 0, sizeof *a);
	if (!r) {
		snprintf(x->env_err, sizeof x->env_err, "EVAL: %s", x->c->errstr);
		return WB_EIO;
	}
	switch (r->type) {
	case REDIS_REPLY_INTEGER:
		a->is_int = 1;
		a->n = r->integer;
		snprintf(a->text, sizeof a->text, "%lld", r->integer);
		break;
	case REDIS_REPLY_NIL:
		snprintf(a->text, sizeof a->text, "nil (Lua false or nothing)");
		break;
	case REDIS_REPLY_ERROR: snprintf(a->text, sizeof a->text, "error: %.140s", r->str); break;
	case REDIS_REPLY_STATUS:
	case REDIS_REPLY_STRING: snprintf(a->text, sizeof a->text, "\"%.140s\"", r->str); break;
	default: snprintf(a->text, sizeof a->text, "a reply of type %d", r->type); break;
	}
	freeReplyObject(r);
	return 0;
}

static int cmd_ok(struct rx *x, redisReply *r, const char *what)
{
	if (!r || r->type == REDIS_REPLY_ERROR) {
		snprintf(x->env_err, sizeof x->env_err, "%s: %s", what, r ? r->str : x->c->errstr);
		if (r)
			freeReplyObject(r);
		return WB_EIO;
	}
	freeReplyObject(r);
	return 0;
}

/* The key's value (or "" when gone) into v, its PTTL into *pttl. */
static int peek(struct rx *x, char v[64], long long *pttl)
{
	redisReply *r = redisCommand(x->c, "GET %s", KEY);
	if (!r || r->type == REDIS_REPLY_ERROR)
		return cmd_ok(x, r, "GET");
	snprintf(v, 64, "%s", r->type == REDIS_REPLY_STRING ? r->str : "");
	freeReplyObject(r);
	r = redisCommand(x->c, "PTTL %s", KEY);
	if (!r || r->type != REDIS_REPLY_INTEGER)
		return cmd_ok(x, r, "PTTL");
	*pttl = r->integer;
	freeReplyObject(r);
	return 0;
}

static int stage(struct rx *x, const char *value, long long lease)
{
	int rc = cmd_ok(x, redisCommand(x->c, "DEL %s", KEY), "DEL");
	if (rc || !value)
		return rc;
	return cmd_ok(x, redisCommand(x->c, "SET %s %s PX %lld", KEY, value, lease), "SET");
}

/* Makes the key's lease run out on the server and waits until PTTL says
 * it is gone (a condition polled with a deadline, not a guess). */
static int expire_now(struct rx *x)
{
	int rc = cmd_ok(x, redisCommand(x->c, "PEXPIRE %s 1", KEY), "PEXPIRE");
	struct timespec tick = {0, 500 * 1000};
	for (int i = 0; !rc && i < 4000; i++) {
		char v[64];
		long long pttl = 0;
		if ((rc = peek(x, v, &pttl)) != 0)
			return rc;
		if (pttl == -2)
			return 0;
		nanosleep(&tick, NULL);
	}
	if (!rc)
		snprintf(x->env_err, sizeof x->env_err, "the key did not expire within 2 s");
	return rc ? rc : WB_EBUSY;
}

static const char *R(const struct rx *x, int k)
{
	return x->renew ? renew_rules[k].id : release_rules[k].id;
}

/* Rule 0 (the holder): the script runs with the key's own token. */
static int holder(struct rx *x, long long before, long long lease)
{
	char sit[96];
	snprintf(sit, sizeof sit, "own key, lease %lld ms%s", before,
		 x->renew ? (lease < before ? ", renewed shorter" : ", renewed longer") : "");
	int rc = stage(x, x->tok[0], before);
	struct answer a;
	char v[64];
	long long pttl = 0;
	if (rc || (rc = eval(x, x->script, x->tok[0], x->renew ? lease : 0, &a)) ||
	    (rc = peek(x, v, &pttl)))
		return rc;
	if (!x->renew) {
		spec_judge(&x->sp, R(x, 0), sit, a.is_int && a.n == 1 && pttl == -2,
			   "returned %s, key %s", a.text, pttl == -2 ? "gone" : "still there");
		return 0;
	}
	int ok = a.is_int && a.n == 1 && strcmp(v, x->tok[0]) == 0 && pttl > lease - 1000 &&
		 pttl <= lease;
	spec_judge(&x->sp, R(x, 0), sit, ok,
		   "returned %s, value %s, PTTL %lld ms (want 1, the holder's token, PTTL in "
		   "(%lld, %lld])",
		   a.text, strcmp(v, x->tok[0]) == 0 ? "the holder's token" : (*v ? v : "gone"),
		   pttl, lease - 1000, lease);
	return 0;
}

/* Rule 1: the key holds value (another client's); the script runs with
 * the caller's token. */
static int other(struct rx *x, const char *sit, const char *value)
{
	int rc = stage(x, value, LEASE);
	struct answer a;
	char v[64];
	long long pttl = 0;
	if (rc || (rc = eval(x, x->script, x->tok[0], x->renew ? RENEW : 0, &a)) ||
	    (rc = peek(x, v, &pttl)))
		return rc;
	int ok = a.is_int && a.n == 0 && strcmp(v, value) == 0 && pttl > 0 && pttl <= LEASE;
	spec_judge(&x->sp, R(x, 1), sit, ok,
		   "returned %s, value %s, PTTL %lld ms (want 0, the other token, PTTL at most "
		   "%lld)",
		   a.text, strcmp(v, value) == 0 ? "unchanged" : (*v ? "replaced" : "deleted"),
		   pttl, LEASE);
	return 0;
}

/* Rule 2: the key is gone; expired says how it went. */
static int gone(struct rx *x, int expired)
{
	int rc = stage(x, expired ? x->tok[0] : NULL, LEASE);
	if (!rc && expired)
		rc = expire_now(x);
	struct answer a;
	char v[64];
	long long pttl = 0;
	if (rc || (rc = eval(x, x->script, x->tok[0], x->renew ? RENEW : 0, &a)) ||
	    (rc = peek(x, v, &pttl)))
		return rc;
	spec_judge(&x->sp, R(x, 2),
		   expired ? "own lease expired on the server, nobody took the key"
			   : "key never set",
		   a.is_int && a.n == 0 && pttl == -2, "returned %s, key %s", a.text,
		   pttl == -2 ? "still gone" : "created again");
	return 0;
}

static int situations(struct rx *x)
{
	char prefixed[64];
	snprintf(prefixed, sizeof prefixed, "%s0", x->tok[0]);
	int rc = holder(x, LEASE, RENEW);
	if (!rc && x->renew)
		rc = holder(x, LEASE, SHORTER);
	if (!rc)
		rc = other(x, "another client's key", x->tok[1]);
	if (!rc)
		rc = other(x, "a key whose token starts with the caller's", prefixed);
	if (!rc)
		rc = gone(x, 0);
	if (!rc)
		rc = gone(x, 1);
	return rc;
}

/* --- exploration ---------------------------------------------------- */

enum { OP_ACQ, OP_REL = 3, OP_RENEW = 6, OP_EXPIRE = 9, OP_KINDS };
static const char *const op_names[] = {"acquire-A", "acquire-B", "acquire-C", "release-A",
				       "release-B", "release-C", "renew-A",   "renew-B",
				       "renew-C",   "expire"};

static const char *const lane[] = {"A", "B", "C"};

static int run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			size_t whylen)
{
	struct rx *x = arg;
	struct report *r = x->ctx->report;
	int holder_k = -1; /* the model: who holds the key */
	int rc = stage(x, NULL, 0);
	for (int i = 0; !rc && i < n; i++) {
		int op = ops[i], k = op % 3, idx = -1;
		if (op == OP_EXPIRE) {
			if (record)
				report_mark(r, "nemesis", "the key's lease runs out");
			if (holder_k >= 0)
				rc = expire_now(x);
			holder_k = -1;
			continue;
		}
		if (op < OP_REL) {
			redisReply *rep =
				redisCommand(x->c, "SET %s %s NX PX %lld", KEY, x->tok[k], LEASE);
			if (!rep || rep->type == REDIS_REPLY_ERROR)
				return cmd_ok(x, rep, "SET NX PX");
			int won = rep->type != REDIS_REPLY_NIL;
			freeReplyObject(rep);
			if (record) {
				idx = report_invoke(r, lane[k], "acquire", x->tok[k]);
				report_complete(r, idx, won ? HIST_OK : HIST_FAIL, NULL);
			}
			if (won)
				holder_k = k;
			continue;
		}
		int renew = op >= OP_RENEW;
		const char *script = renew == x->renew ? x->script
				     : renew	       ? redislock_renew_lua
						       : redislock_release_lua;
		if (record)
			idx = report_invoke(r, lane[k], renew ? "renew" : "release", x->tok[k]);
		struct answer a;
		if ((rc = eval(x, script, x->tok[k], renew ? RENEW : 0, &a)) != 0)
			break;
		if (record)
			report_complete(r, idx, a.is_int && a.n == 1 ? HIST_OK : HIST_FAIL, a.text);
		char v[64];
		long long pttl = 0;
		if ((rc = peek(x, v, &pttl)) != 0)
			break;
		int mine = holder_k == k;
		int want = mine ? 1 : 0;
		if (!renew && mine)
			holder_k = -1;
		const char *want_v = holder_k >= 0 ? x->tok[holder_k] : "";
		if (a.is_int && a.n == want && strcmp(v, want_v) == 0)
			continue;
		if (renew != x->renew) /* the recipe's script never mismatches */
			continue;
		snprintf(why, whylen, "op %d, %s by %s: returned %s, want %d; key then %s, want %s",
			 i + 1, renew ? "renew" : "release", lane[k], a.text, want,
			 *v ? (strcmp(v, x->tok[k]) == 0 ? "the caller's" : "another's") : "gone",
			 holder_k >= 0 ? (holder_k == k ? "the caller's" : "another's") : "gone");
		return mine ? 1 : holder_k >= 0 ? 2 : 3;
	}
	if (rc) {
		report_cannot(r, "the Redis exploration stopped: %s", x->env_err);
		return rc;
	}
	return 0;
}

int redisex_rules(struct lab_ctx *ctx, const struct ex_code *code, const char *script, int renew)
{
	struct rx x = {.ctx = ctx, .script = script, .renew = renew};
	spec_init(&x.sp, ctx, code, renew ? renew_rules : release_rules, 3);
	for (int k = 0; k < 3; k++)
		spec_hex_id(&x.sp, x.tok[k]);
	struct redisserver *srv = NULL;
	char *why = NULL;
	int rc = redisserver_start(ctx->run_dir, 0, &srv, &why);
	if (rc) {
		report_cannot(ctx->report, "%s", why ? why : "redis-server did not start");
		free(why);
		return rc;
	}
	report_server_time(ctx->report, redisserver_start_ms(srv));
	struct timeval tv = {2, 0};
	x.c = redisConnectWithTimeout("127.0.0.1", redisserver_port(srv), tv);
	if (!x.c || x.c->err) {
		report_cannot(ctx->report, "connect to redis-server: %s",
			      x.c ? x.c->errstr : "no memory");
		rc = WB_EIO;
		goto out;
	}
	report_step(ctx->report,
		    "The rules: your script in %d staged situations, then %d seeded "
		    "schedules of three clients",
		    renew ? 6 : 5, 40);
	rc = situations(&x);
	if (rc) {
		report_cannot(ctx->report, "a staged situation could not run: %s", x.env_err);
		goto out;
	}
	const char *const judged[] = {R(&x, 0), R(&x, 1), R(&x, 2), NULL};
	rc = spec_explore(&x.sp, judged, 40, 14, OP_KINDS, op_names, run_schedule, &x);
	if (rc == 0)
		spec_finish(&x.sp);
out:
	if (x.c)
		redisFree(x.c);
	redisserver_free(srv);
	return rc;
}

#else

int redisex_rules(struct lab_ctx *ctx, const struct ex_code *code, const char *script, int renew)
{
	(void)code;
	(void)script;
	(void)renew;
	report_cannot(ctx->report, "this build has no hiredis: install libhiredis-dev and rebuild");
	return WB_EUNAVAIL;
}

#endif
