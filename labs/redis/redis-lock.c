/*
 * redis-lock.c - the lab "redis-lock": a real redis-server, two clients,
 * and the gap between checking a lock and acting on it (chapter 01, "The
 * single-instance Redis lock").
 *
 * Four rounds on one key, each shaped like the chapter's diagram:
 *
 *   A: SET key tA NX PX 400; GET key == tA ("mine"); waits at a gate
 *   (the key expires for real: the lab polls PTTL until the key is gone)
 *   B: SET key tB NX PX 30000 -> OK
 *   A is let through the gate and acts on its stale check:
 *     round 1  DEL key                 (control: removes B's lock)
 *     round 2  compare-and-delete      (B's lock survives, returns 0)
 *     round 3  PEXPIRE key 600000      (control: stretches B's lease)
 *     round 4  compare-and-pexpire     (B's lease untouched, returns 0)
 *
 * Client A runs on its own thread with its own connection, so its code
 * reads like the naive client it is; the gate is a condition variable the
 * lab opens only after B holds the key.  Nothing sleeps to make a race.
 * The server runs in the run directory, on 127.0.0.1, without persistence,
 * and is stopped and reaped on every path.
 *
 * It does not stage a failover (no replica is started): the last steps
 * state what asynchronous replication would do.
 *
 * The rounds are redis_lock_scenario (redislab.h): the exercises
 * redis-release and redis-renew run rounds 2 and 4 with the learner's
 * script in place of the recipe's.
 */
#include "base/wb.h"
#include "base/mono.h"
#include "harness/redisserver.h"
#include "harness/narration.h" /* N_: the io_failed texts are narration */
#include "harness/report.h"
#include "lab.h"
#include "redis/redislab.h"

#if defined(__has_include) && __has_include(<hiredis/hiredis.h>)
#define HAVE_HIREDIS 1
#include "recipes/redislock.h"
#include <hiredis/hiredis.h>
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_HIREDIS

#define KEY "lock:report-7"
#define A_LEASE_MS                                                                                 \
	400		  /* A's lease: short, so it really runs out, yet far                      \
			     longer than SET, GET and B's refused SET take */
#define B_LEASE_MS 30000  /* B's lease: long, so only A could change it */
#define A_STRETCH  600000 /* what A's renewal asks for */
#define WAIT_MS	   10000  /* any wait longer than this is a broken run */

enum a_action { A_DEL_UNSAFE, A_DEL_SAFE, A_RENEW_UNSAFE, A_RENEW_SAFE };

/* A one-shot gate: closed until opened, then open for good. */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int open;
};

static void gate_init(struct gate *g)
{
	pthread_mutex_init(&g->mu, NULL);
	mono_cond_init(&g->cv);
	g->open = 0;
}

static void gate_destroy(struct gate *g)
{
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->open = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* Waits until the gate opens or ms pass.  Returns 0 or WB_EBUSY. */
static int gate_wait(struct gate *g, int ms)
{
	struct timespec until;
	mono_deadline(&until, ms);
	pthread_mutex_lock(&g->mu);
	int rc = 0;
	while (!g->open && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&g->cv, &g->mu, &until);
	int open = g->open;
	pthread_mutex_unlock(&g->mu);
	return open ? 0 : WB_EBUSY;
}

/* Client A: its connection, its token, and what it saw and did. */
struct client_a {
	redisContext *c;     /* A's own connection, used only on A's thread */
	enum a_action how;   /* what A does after the gate */
	const char *release; /* the scripts of the safe actions */
	const char *renew;
	char token[REDISLOCK_TOKEN_LEN + 1];
	struct gate checked; /* A opens it: acquired and read its value */
	struct gate go;	     /* the lab opens it: A's pause is over */
	int acquire_rc;	     /* SET NX PX: 0 or WB_E* */
	char *seen;	     /* what A's GET returned (NULL: no key) */
	int gate_rc;	     /* 0, or WB_EBUSY when the lab never opened go */
	int act_rc;	     /* the action's result code */
	long long n;	     /* DEL / PEXPIRE result (unsafe actions) */
	int changed;	     /* released / renewed (safe actions) */
	char *err;	     /* a hiredis or server message */
};

static void *client_a_main(void *arg)
{
	struct client_a *a = arg;
	a->acquire_rc = redislock_acquire(a->c, KEY, a->token, A_LEASE_MS, &a->err);
	if (a->acquire_rc == 0)
		redislock_get(a->c, KEY, &a->seen, &a->err);
	gate_open(&a->checked);
	if (a->acquire_rc != 0)
		return NULL;
	/* A decided "mine" and now pauses: a GC pause, a stopped VM. */
	a->gate_rc = gate_wait(&a->go, WAIT_MS + 5000);
	if (a->gate_rc)
		return NULL;
	switch (a->how) {
	case A_DEL_UNSAFE: a->act_rc = redislock_del_unsafe(a->c, KEY, &a->n, &a->err); break;
	case A_DEL_SAFE:
		a->act_rc = redislock_release_with(a->c, a->release, KEY, a->token, &a->changed,
						   &a->err);
		break;
	case A_RENEW_UNSAFE:
		a->act_rc = redislock_pexpire_unsafe(a->c, KEY, A_STRETCH, &a->n, &a->err);
		break;
	case A_RENEW_SAFE:
		a->act_rc = redislock_renew_with(a->c, a->renew, KEY, a->token, A_STRETCH,
						 &a->changed, &a->err);
		break;
	}
	return NULL;
}

/* The lab's state across rounds. */
struct lab_run {
	struct report *r;
	int port;
	redisContext *a;   /* client A's connection (A's thread while a round runs) */
	redisContext *b;   /* client B */
	redisContext *obs; /* the lab's observer: PTTL, GET, clean-up */
	const struct redis_lock_code *code; /* the safe rounds' scripts */
};

static redisContext *connect_client(int port, char **why)
{
	struct timeval tv = {2, 0};
	redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
	if (!c || c->err) {
		*why = wb_xasprintf("connect 127.0.0.1:%d: %s", port, c ? c->errstr : "no memory");
		redisFree(c);
		return NULL;
	}
	struct timeval cmd = {5, 0};
	redisSetTimeout(c, cmd);
	return c;
}

/* Reports an I/O failure as a failed check and returns WB_EIO. */
static int io_failed(struct lab_run *L, const char *what, char *err)
{
	report_check(L->r, "redis-command", 0, what, err ? err : "no reply");
	free(err);
	return WB_EIO;
}

/* Polls PTTL until the key is gone (-2).  Real expiry, bounded wait.
 * Returns 0 with *waited, or WB_EBUSY / WB_EIO. */
static int wait_expired(struct lab_run *L, long long *waited)
{
	long long t0 = mono_now_ms(), ms = 0;
	struct timespec tick = {0, 5 * 1000 * 1000};
	for (;;) {
		char *err = NULL;
		if (redislock_pttl(L->obs, KEY, &ms, &err))
			return io_failed(L, N_("PTTL answers"), err);
		if (ms == -2)
			break;
		if (mono_now_ms() - t0 > A_LEASE_MS + WAIT_MS)
			return WB_EBUSY;
		nanosleep(&tick, NULL); /* polling a condition, with a deadline */
	}
	*waited = mono_now_ms() - t0;
	report_story_wait(L->r, (long)*waited, "lease-expiry"); /* the PX the story sets */
	return 0;
}

static const char *action_text(enum a_action how)
{
	switch (how) {
	case A_DEL_UNSAFE: return "an unconditional DEL";
	case A_DEL_SAFE: return "the compare-and-delete script";
	case A_RENEW_UNSAFE: return "an unconditional PEXPIRE";
	case A_RENEW_SAFE: return "the compare-and-pexpire script";
	}
	return "?";
}

/* Runs one round up to A's action; the caller checks the outcome.
 * tb receives B's token.  Returns 0 or a negative code (reported). */
static int round_run(struct lab_run *L, struct client_a *a, enum a_action how, char *tb)
{
	char *err = NULL;
	int rc = 0, started = 0;
	pthread_t th;
	memset(a, 0, sizeof *a);
	a->c = L->a;
	a->how = how;
	a->release = L->code->release_lua;
	a->renew = L->code->renew_lua;
	gate_init(&a->checked);
	gate_init(&a->go);
	if (redislock_token_new(a->token) || redislock_token_new(tb)) {
		report_cannot(L->r, "getrandom gave no randomness for the tokens");
		rc = WB_EUNAVAIL;
		goto out;
	}
	report_step(L->r, "A: SET %s %.8s… NX PX %d, then GET it, then pause before %s", KEY,
		    a->token, A_LEASE_MS, action_text(how));
	if (pthread_create(&th, NULL, client_a_main, a) != 0) {
		report_cannot(L->r, "cannot start client A's thread");
		rc = WB_EUNAVAIL;
		goto out;
	}
	started = 1;
	if (gate_wait(&a->checked, WAIT_MS)) {
		report_check(L->r, "a-reached-gate", 0, "A acquires and reads within 10 s",
			     "A never reported back");
		rc = WB_EIO;
		goto out;
	}
	if (a->acquire_rc) {
		rc = io_failed(L, N_("A's SET NX PX on a free key answers OK"),
			       wb_xstrdup(a->err ? a->err : wb_strerror(a->acquire_rc)));
		goto out;
	}
	report_checkf(L->r, "a-reads-own-token", a->seen && !strcmp(a->seen, a->token),
		      "GET returns A's token: A decides \"mine\"", "GET = %.8s…",
		      a->seen ? a->seen : "(nil)");

	if (how == A_DEL_UNSAFE) {
		rc = redislock_acquire(L->b, KEY, tb, B_LEASE_MS, &err);
		if (rc != 0 && rc != WB_EBUSY) {
			rc = io_failed(L, N_("B's SET NX PX answers"), err);
			goto out;
		}
		report_check(L->r, "b-refused-while-a-holds", rc == WB_EBUSY,
			     "B's SET NX while A's lease runs: nil (not acquired)",
			     rc == WB_EBUSY ? "nil" : "OK");
	}

	report_step(L->r, "A is paused at its gate; the lab waits until the server has "
			  "expired A's key (PTTL = -2)");
	long long waited = 0;
	rc = wait_expired(L, &waited);
	if (rc == WB_EBUSY)
		report_check(L->r, "a-key-expires", 0, "A's key expires after its lease",
			     "still there after the deadline");
	if (rc)
		goto out;
	report_evidence(L->r, "expired_after_ms", "%lld", waited);

	rc = redislock_acquire(L->b, KEY, tb, B_LEASE_MS, &err);
	if (rc != 0 && rc != WB_EBUSY) {
		rc = io_failed(L, N_("B's SET NX PX answers"), err);
		goto out;
	}
	report_checkf(L->r, "b-acquires-after-expiry", rc == 0,
		      "B: SET NX PX 30000 on the expired key answers OK", "%s",
		      rc == 0 ? "OK" : "nil");
	if (rc)
		goto out;
	report_step(L->r, "B holds %s with token %.8s…; A wakes up and runs %s", KEY, tb,
		    action_text(how));
out:
	if (started) {
		gate_open(&a->go);
		pthread_join(th, NULL);
	}
	if (rc == 0 && a->act_rc)
		rc = io_failed(L, N_("A's command answers"), wb_xstrdup(a->err ? a->err : "?"));
	gate_destroy(&a->checked);
	gate_destroy(&a->go);
	return rc;
}

static void round_done(struct client_a *a)
{
	free(a->seen);
	free(a->err);
	a->seen = a->err = NULL;
}

/* Deletes the key between rounds (the lab's observer, not a client). */
static int reset_key(struct lab_run *L)
{
	long long n;
	char *err = NULL;
	if (redislock_del_unsafe(L->obs, KEY, &n, &err))
		return io_failed(L, N_("DEL between rounds answers"), err);
	return 0;
}

static int value_is(struct lab_run *L, const char *want, char **seen)
{
	char *err = NULL;
	if (redislock_get(L->obs, KEY, seen, &err))
		return io_failed(L, N_("GET answers"), err), -1;
	if (!want)
		return *seen == NULL;
	return *seen && !strcmp(*seen, want);
}

static int round_del_unsafe(struct lab_run *L)
{
	struct client_a a;
	char tb[REDISLOCK_TOKEN_LEN + 1], tc[REDISLOCK_TOKEN_LEN + 1], *seen = NULL, *err = NULL;
	report_step(L->r, "Round 1 (the control): release by GET, compare in the client, DEL");
	int rc = round_run(L, &a, A_DEL_UNSAFE, tb);
	if (rc)
		goto out;
	int gone = value_is(L, NULL, &seen);
	if (gone < 0) {
		rc = WB_EIO;
		goto out;
	}
	report_checkf(L->r, "unconditional-del-removes-b-lock", a.n == 1 && gone,
		      "the control fails: A's DEL returns 1 and B's lock is gone",
		      "DEL returned %lld; key now %s", a.n, gone ? "(nil)" : seen);
	if (redislock_token_new(tc)) {
		rc = WB_EIO;
		goto out;
	}
	rc = redislock_acquire(L->obs, KEY, tc, B_LEASE_MS, &err);
	if (rc != 0 && rc != WB_EBUSY) {
		rc = io_failed(L, N_("C's SET NX PX answers"), err);
		goto out;
	}
	report_checkf(L->r, "c-acquires-beside-b", rc == 0,
		      "a third client C now gets the lock too: B and C both \"hold\" it", "%s",
		      rc == 0 ? "C: OK" : "C: nil");
	rc = 0;
out:
	free(seen);
	round_done(&a);
	return rc ? rc : reset_key(L);
}

static int round_del_safe(struct lab_run *L)
{
	struct client_a a;
	char tb[REDISLOCK_TOKEN_LEN + 1], *seen = NULL, *err = NULL;
	if (L->code->from)
		report_step(L->r,
			    "Round 2 (your script): release by compare-and-delete, the "
			    "script in %s",
			    L->code->from);
	else
		report_step(L->r, "Round 2 (the recipe): release by compare-and-delete, one "
				  "script the server runs atomically (redislock_release_lua)");
	report_evidence(L->r, "release_script", "%s", L->code->release_lua);
	int rc = round_run(L, &a, A_DEL_SAFE, tb);
	if (rc)
		goto out;
	int kept = value_is(L, tb, &seen);
	if (kept < 0) {
		rc = WB_EIO;
		goto out;
	}
	report_checkf(L->r, "compare-and-delete-keeps-b-lock", !a.changed && kept,
		      "A's script returns 0 and the key still holds B's token",
		      "script returned %d; key holds %s", a.changed,
		      !seen		       ? "(nil)"
		      : !strcmp(seen, tb)      ? "B's token"
		      : !strcmp(seen, a.token) ? "A's token"
					       : "another token");
	int released = 0;
	if (redislock_release_with(L->b, L->code->release_lua, KEY, tb, &released, &err)) {
		rc = io_failed(L, N_("B's compare-and-delete answers"), err);
		goto out;
	}
	free(seen);
	seen = NULL;
	int gone = value_is(L, NULL, &seen);
	report_checkf(L->r, "owner-release-works", released && gone == 1,
		      "B's own compare-and-delete returns 1 and the key is gone",
		      "returned %d; key %s", released, gone == 1 ? "gone" : "still there");
out:
	free(seen);
	round_done(&a);
	return rc ? rc : reset_key(L);
}

static int round_renew_unsafe(struct lab_run *L)
{
	struct client_a a;
	char tb[REDISLOCK_TOKEN_LEN + 1], *err = NULL;
	long long pttl = 0;
	report_step(L->r, "Round 3 (the control): renew by GET, compare in the client, PEXPIRE %d",
		    A_STRETCH);
	int rc = round_run(L, &a, A_RENEW_UNSAFE, tb);
	if (rc)
		goto out;
	if (redislock_pttl(L->obs, KEY, &pttl, &err)) {
		rc = io_failed(L, N_("PTTL answers"), err);
		goto out;
	}
	report_checkf(L->r, "unconditional-pexpire-stretches-b-lease",
		      a.n == 1 && pttl > B_LEASE_MS,
		      "the control fails: A's PEXPIRE returns 1 and B's lease grows past 30000 ms",
		      "PEXPIRE returned %lld; PTTL %lld ms", a.n, pttl);
	report_step(L->r, "A now believes it renewed its own lease and keeps working next to "
			  "B, whose key will outlive B by minutes");
out:
	round_done(&a);
	return rc ? rc : reset_key(L);
}

static int round_renew_safe(struct lab_run *L)
{
	struct client_a a;
	char tb[REDISLOCK_TOKEN_LEN + 1], *err = NULL;
	long long pttl = 0;
	if (L->code->from)
		report_step(L->r,
			    "Round 4 (your script): renew by compare-and-pexpire, the script "
			    "in %s",
			    L->code->from);
	else
		report_step(L->r, "Round 4 (the recipe): renew by compare-and-pexpire, one script "
				  "the server runs atomically (redislock_renew_lua)");
	report_evidence(L->r, "renew_script", "%s", L->code->renew_lua);
	int rc = round_run(L, &a, A_RENEW_SAFE, tb);
	if (rc)
		goto out;
	if (redislock_pttl(L->obs, KEY, &pttl, &err)) {
		rc = io_failed(L, N_("PTTL answers"), err);
		goto out;
	}
	report_checkf(L->r, "compare-and-pexpire-leaves-b-lease",
		      !a.changed && pttl > 0 && pttl <= B_LEASE_MS,
		      "A's script returns 0 (stop work now) and B's lease stays within 30000 ms",
		      "script returned %d; PTTL %lld ms", a.changed, pttl);
	int renewed = 0;
	if (redislock_renew_with(L->b, L->code->renew_lua, KEY, tb, 2 * B_LEASE_MS, &renewed,
				 &err)) {
		rc = io_failed(L, N_("B's compare-and-pexpire answers"), err);
		goto out;
	}
	if (redislock_pttl(L->obs, KEY, &pttl, &err)) {
		rc = io_failed(L, N_("PTTL answers"), err);
		goto out;
	}
	report_checkf(L->r, "owner-renew-works", renewed && pttl > B_LEASE_MS,
		      "B's own compare-and-pexpire returns 1 and its lease grows to 60000 ms",
		      "returned %d; PTTL %lld ms", renewed, pttl);
out:
	round_done(&a);
	return rc ? rc : reset_key(L);
}

int redis_lock_scenario(struct lab_ctx *ctx, const struct redis_lock_code *code)
{
	struct lab_run L = {.r = ctx->report, .code = code};
	struct redisserver *srv = NULL;
	char *why = NULL;
	int rc = redisserver_start(ctx->run_dir, 0, &srv, &why);
	if (rc) {
		report_cannot(L.r, "%s", why ? why : wb_strerror(rc));
		free(why);
		return WB_EUNAVAIL;
	}
	L.port = redisserver_port(srv);
	report_step(L.r, "a real redis-server on 127.0.0.1:%d (no RDB, no AOF, protected mode)",
		    L.port);
	report_evidence(L.r, "redis_version", "%s", redisserver_version(srv));
	report_evidence(L.r, "redis_port", "%d", L.port);
	report_evidence(L.r, "redis_start_ms", "%d", redisserver_start_ms(srv));
	report_server_time(L.r, redisserver_start_ms(srv));

	if (!(L.a = connect_client(L.port, &why)) || !(L.b = connect_client(L.port, &why)) ||
	    !(L.obs = connect_client(L.port, &why))) {
		report_cannot(L.r, "%s", why);
		free(why);
		rc = WB_EUNAVAIL;
		goto out;
	}
	static int (*const rounds[])(struct lab_run *) = {round_del_unsafe, round_del_safe,
							  round_renew_unsafe, round_renew_safe};
	for (unsigned i = 0; i < sizeof rounds / sizeof rounds[0]; i++)
		if ((code->rounds & (1u << i)) && (rc = rounds[i](&L)) != 0)
			goto out;
	if (!code->closing_notes)
		goto out;

	report_step(L.r,
		    "What the scripts do not protect: they guard the key and nothing else. "
		    "Writes A sent elsewhere before or during its pause (an open database "
		    "transaction, a half-sent HTTP request) still land; the token is random, "
		    "not ordered, so no resource can use it to refuse A (chapter 02: fencing)");
	report_step(L.r,
		    "Not staged here, failover: Redis replicates asynchronously. If the primary "
		    "acknowledges A's SET and crashes before the key reaches its replica, the "
		    "promoted replica has no key and grants the same lock to B: two holders, no "
		    "bug in either client, and no script on the new primary can tell");
out:
	redisFree(L.a);
	redisFree(L.b);
	redisFree(L.obs);
	long long t_stop = mono_now_ms();
	redisserver_free(srv);
	report_server_time(L.r, (long)(mono_now_ms() - t_stop));
	return rc;
}

#else /* no hiredis headers at build time */

int redis_lock_scenario(struct lab_ctx *ctx, const struct redis_lock_code *code)
{
	(void)code;
	report_cannot(ctx->report, "this workbench was built without hiredis: install the "
				   "Debian package libhiredis-dev and rebuild");
	return WB_EUNAVAIL;
}

#endif

/* The entry point registered as lab_redis_lock in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"A client that checked the lock with GET and then acted on it deleted (DEL) or "
		"stretched (PEXPIRE) the next holder's lock once its own lease had expired. "
		"Doing the compare and the action in one server-side script left B's lock and "
		"lease untouched.");
	const struct redis_lock_code recipe = {
#ifdef HAVE_HIREDIS
		.release_lua = redislock_release_lua,
		.renew_lua = redislock_renew_lua,
#endif
		.rounds = REDIS_LOCK_ROUND_ALL,
		.closing_notes = 1,
	};
	return lab_outcome_of(ctx, redis_lock_scenario(ctx, &recipe));
}

const lab_run_fn lab_redis_lock = lab_main;
