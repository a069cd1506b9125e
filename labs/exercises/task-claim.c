/*
 * task-claim.c - the check of the exercise "task-claim": the learner's
 * statement "claim", judged first by the rules the task states (spec.h,
 * taskspec.h), then by the lab task-claim's own scenario
 * (labs/tasks/task-claim.h: eight worker processes, barriers, the stalled
 * holders, the takeovers and the same named checks).
 *
 * Rules: situations stage task T1 in every state the task names (READY
 * and due, due exactly now, due 1 ms later, cancelled, out of attempts,
 * a lease that ended or ends 1 ms later, SUCCEEDED, FAILED, CANCELLED,
 * next to other claimable tasks) on a real SQLite file with the fixed
 * clock, run the claim once and compare every column of every row with
 * what the rule demands.  A claim either changes T1 exactly as the task
 * says or changes nothing.  The worker's clock (:now) is judged apart:
 * the same situations run with :now equal to db_now and 40 s off either
 * way, and every outcome must be the same (any use of :now shows).
 * Then seeded schedules of three workers' claims with the recipe's
 * complete, fail (backoff, attempt budget) and cancel and a moving clock;
 * before each claim the table is read and the claim's outcome is
 * compared with the rules applied to that row.
 *
 * One call of the learner's claim is one BEGIN IMMEDIATE transaction.
 * Parameters: :task_id, :owner, :claim_id, :lease_ms and :now (the
 * worker's own clock, never to be trusted).  In the story the claim_ids
 * come from the check's seed (taskspec_story_id).
 *
 * It does not grade style: only what the statement did to the table.
 */
#include "exercise.h"
#include "sqlex.h"
#include "taskspec.h"
#include "base/sqlitex.h"
#include "base/wb.h"
#include "checkers/history.h"
#include "harness/report.h"
#include "recipes/tasktable.h"
#include "tasks/task-claim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW	  5000000LL /* the staged db time */
#define LEASE	  30000LL   /* :lease_ms of the situations */
#define SKEW	  40000LL   /* how far a worker's clock is off */
#define XLEASE	  3000LL    /* :lease_ms of the exploration */
#define SCHEDULES 40

static const struct spec_rule rules[] = {
	{"claim-takes-claimable",
	 N_("a task that is due (due <= now), not cancelled, has an attempt left and is READY or "
	    "RUNNING with an ended lease (lease_until <= now) is claimed: its row changes")},
	{"claim-records-holder",
	 N_("a won claim sets state = 'RUNNING', owner = :owner and claim_id = :claim_id (the "
	    "previous holder's are replaced) and leaves due, the budget, the cancel flag and "
	    "last_error as they were")},
	{"claim-bumps-version-attempt",
	 N_("a won claim sets claim_version and attempt to one more than the row had")},
	{"claim-sets-lease",
	 N_("a won claim sets claimed_at = now and lease_until = now + :lease_ms, in "
	    "milliseconds of db_now")},
	{"claim-not-before-due",
	 N_("a task whose due is later than now (even by 1 ms) is not claimed: 0 rows, the row as "
	    "it was")},
	{"claim-not-cancelled", N_("a task with cancel_requested = 1 is not claimed, READY or with "
				   "an ended lease: 0 rows")},
	{"claim-within-attempts",
	 N_("a task whose attempt has reached max_attempts is not claimed: 0 rows")},
	{"claim-not-live-lease",
	 N_("a RUNNING task whose lease has not ended (lease_until > now, even by 1 ms) is not "
	    "claimed: 0 rows")},
	{"claim-not-finished",
	 N_("a SUCCEEDED, FAILED or CANCELLED task is never claimed: 0 rows")},
	{"claim-only-named-task",
	 N_("the claim changes no row but :task_id's: other claimable tasks stay as they were")},
	{"claim-ignores-worker-clock",
	 N_("the claim does the same whatever the worker's clock :now reads: due, the lease's end "
	    "and the new lease are all judged by db_now")},
};

enum {
	R_TAKES,
	R_HOLDER,
	R_BUMPS,
	R_LEASE,
	R_DUE,
	R_CANCEL,
	R_ATTEMPTS,
	R_LIVE,
	R_FINISHED,
	R_ONLY,
	R_CLOCK,
	R_N
};

#define N_IDS 64

struct cx {
	struct taskspec ts;
	char ids[N_IDS][33]; /* claim_ids, drawn once from the seed */
	int situations;
};

static void claim_params(struct sqlfile_param p[5], const char *task_id, const char *owner,
			 const char *claim_id, long long lease_ms, long long worker_clock)
{
	p[0] = (struct sqlfile_param){":task_id", SQLFILE_TEXT, 0, task_id, 1};
	p[1] = (struct sqlfile_param){":owner", SQLFILE_TEXT, 0, owner, 1};
	p[2] = (struct sqlfile_param){":claim_id", SQLFILE_TEXT, 0, claim_id, 1};
	p[3] = (struct sqlfile_param){":lease_ms", SQLFILE_INT, lease_ms, NULL, 1};
	p[4] = (struct sqlfile_param){":now", SQLFILE_INT, worker_clock, NULL, 0};
}

/* --- the rules applied to one row --------------------------------------- */

/* The rule that forbids claiming task's row in pre at now, or -1 when
 * the task is claimable.  Situations stage one reason at a time. */
static int refusal(const struct ts_snap *pre, const char *task, long long now)
{
	const char *state = taskspec_get(pre, task, "state");
	if (!state)
		return R_TAKES;
	int running = !strcmp(state, "RUNNING");
	if (!running && strcmp(state, "READY"))
		return R_FINISHED;
	if (taskspec_geti(pre, task, "cancel_requested"))
		return R_CANCEL;
	if (taskspec_geti(pre, task, "attempt") >= taskspec_geti(pre, task, "max_attempts"))
		return R_ATTEMPTS;
	if (taskspec_geti(pre, task, "due") > now)
		return R_DUE;
	if (running && taskspec_geti(pre, task, "lease_until") > now)
		return R_LIVE;
	return -1;
}

struct finding {
	int judged, ok;
	char obs[400];
};

static const char *const holder_cols[] = {"state",
					  "owner",
					  "claim_id",
					  "due",
					  "max_attempts",
					  "cancel_requested",
					  "finished_at",
					  "last_error",
					  "backoff_ms",
					  "backoff_max_ms",
					  NULL};
static const char *const bump_cols[] = {"claim_version", "attempt", NULL};
static const char *const lease_cols[] = {"lease_until", "claimed_at", NULL};

static void judge_cols(const struct taskspec *ts, struct finding *f, const struct ts_snap *want,
		       const struct ts_snap *got, const char *task, const char *const *which)
{
	char d[360];
	f->judged = 1;
	f->ok = taskspec_diff(ts, want, got, task, which, d, sizeof d) == 0;
	if (!f->ok)
		snprintf(f->obs, sizeof f->obs, "claimed, but %s", d);
}

/* Judges one claim of task by owner with cid and lease at ts->now, whose
 * table before was pre and whose outcome is o, into f[R_N]. */
static void verdict(struct cx *x, const struct ts_snap *pre, const struct ts_out *o,
		    const char *task, const char *owner, const char *cid, long long lease,
		    struct finding f[R_N])
{
	struct taskspec *ts = &x->ts;
	char d[360], out[200];
	memset(f, 0, sizeof(struct finding) * R_N);
	int target = taskspec_diff(ts, pre, &o->after, task, NULL, d, sizeof d) > 0;
	char od[360], not_task[TASK_ID_MAX + 1];
	snprintf(not_task, sizeof not_task, "!%s", task);
	int others = taskspec_diff(ts, pre, &o->after, not_task, NULL, od, sizeof od) > 0;
	if (pre->n > 1) {
		f[R_ONLY].judged = 1;
		f[R_ONLY].ok = !others;
		if (others)
			snprintf(f[R_ONLY].obs, sizeof f[R_ONLY].obs, "%s", od);
	}
	int r = refusal(pre, task, ts->now);
	if (r >= 0) {
		f[r].judged = 1;
		f[r].ok = !o->failed && !target && (others || o->changes == 0);
		if (!f[r].ok)
			snprintf(f[r].obs, sizeof f[r].obs, "%s%s%s (want 0 rows)",
				 taskspec_outcome(o, 0, out, sizeof out), target ? ": " : "",
				 target ? d : "");
		return;
	}
	f[R_TAKES].judged = 1;
	f[R_TAKES].ok = !o->failed && o->changes >= 1 && target;
	if (!f[R_TAKES].ok) {
		snprintf(f[R_TAKES].obs, sizeof f[R_TAKES].obs, "%s%s (want 1 row: %s claimed)",
			 taskspec_outcome(o, 0, out, sizeof out),
			 !o->failed && o->changes ? ", but not this task's" : "", task);
		return;
	}
	struct ts_snap want = *pre;
	taskspec_set(&want, task, "state", "RUNNING");
	taskspec_set(&want, task, "owner", owner);
	taskspec_set(&want, task, "claim_id", cid);
	taskspec_seti(&want, task, "claim_version", taskspec_geti(pre, task, "claim_version") + 1);
	taskspec_seti(&want, task, "attempt", taskspec_geti(pre, task, "attempt") + 1);
	taskspec_seti(&want, task, "lease_until", ts->now + lease);
	taskspec_seti(&want, task, "claimed_at", ts->now);
	judge_cols(ts, &f[R_HOLDER], &want, &o->after, task, holder_cols);
	judge_cols(ts, &f[R_BUMPS], &want, &o->after, task, bump_cols);
	judge_cols(ts, &f[R_LEASE], &want, &o->after, task, lease_cols);
}

/* --- staged situations --------------------------------------------------- */

static int claim(struct cx *x, const char *task, const char *owner, const char *cid,
		 long long lease, long long worker_clock, struct ts_out *o)
{
	struct sqlfile_param p[5];
	claim_params(p, task, owner, cid, lease, worker_clock);
	return taskspec_run(&x->ts, "claim", p, 5, 1, o);
}

/* Stages rows, claims T1 once as worker "w9" and judges every rule the
 * situation decides. */
static int situation(struct cx *x, const char *name, const struct ts_row *rows, int n)
{
	struct taskspec *ts = &x->ts;
	struct ts_snap pre;
	struct ts_out o;
	const char *cid = x->ids[x->situations++ % N_IDS];
	int rc = taskspec_stage(ts, NOW, rows, n);
	if (!rc)
		rc = taskspec_snap(ts, &pre);
	if (!rc)
		rc = claim(x, "T1", "w9", cid, LEASE, NOW, &o);
	if (rc)
		return rc;
	struct finding f[R_N];
	verdict(x, &pre, &o, "T1", "w9", cid, LEASE, f);
	for (int k = 0; k < R_N; k++)
		if (f[k].judged)
			spec_judge(&ts->sp, rules[k].id, name, f[k].ok, "%s", f[k].obs);
	return 0;
}

/* The same situation with the worker's clock at db_now, SKEW ahead and
 * SKEW behind: the outcomes must not differ. */
static int clock_situation(struct cx *x, const char *name, const struct ts_row *rows, int n)
{
	struct taskspec *ts = &x->ts;
	static const long long skews[] = {0, SKEW, -SKEW};
	struct ts_out first;
	const char *cid = x->ids[x->situations++ % N_IDS];
	for (int k = 0; k < 3; k++) {
		struct ts_out o;
		int rc = taskspec_stage(ts, NOW, rows, n);
		if (!rc)
			rc = claim(x, "T1", "w9", cid, LEASE, NOW + skews[k], &o);
		if (rc)
			return rc;
		if (k == 0) {
			first = o;
			continue;
		}
		char d[300] = "", a[200], b[200];
		int same = o.failed == first.failed && o.changes == first.changes &&
			   taskspec_diff(ts, &first.after, &o.after, NULL, NULL, d, sizeof d) == 0;
		if (!spec_judge(&ts->sp, rules[R_CLOCK].id, name, same,
				"with :now = db_now%+lld: %s%s%s (with :now = db_now: %s)",
				skews[k], taskspec_outcome(&o, 0, a, sizeof a), *d ? ", " : "", d,
				taskspec_outcome(&first, 0, b, sizeof b)))
			return 0;
	}
	return 0;
}

/* A task nobody claimed yet, due at due_; and one claimed before by
 * "w-old" (state, version, attempt, budget, lease end, claim and finish
 * times); more fields follow as designators. */
#define FRESH(id_, due_, ...)                                                                      \
	{                                                                                          \
		.task_id = (id_), .state = "READY", .due = (due_), .lease_until = TS_NULL,         \
		.claimed_at = TS_NULL, .finished_at = TS_NULL, __VA_ARGS__                         \
	}
#define HELD(id_, state_, v_, a_, m_, lease_, claimed_, fin_, ...)                                 \
	{                                                                                          \
		.task_id = (id_), .state = (state_), .due = NOW - 90000, .owner = "w-old",         \
		.claim_id = OLD, .version = (v_), .attempt = (a_), .max_attempts = (m_),           \
		.lease_until = (lease_), .claimed_at = (claimed_), .finished_at = (fin_),          \
		__VA_ARGS__                                                                        \
	}
#define OLD "0ld0ld0ld0ld0ld0ld0ld0ld0ld0ld0l"

struct sit {
	const char *name;
	struct ts_row r[4];
	int n;
};

static const struct sit staged[] = {
	/* claimable */
	{"READY, due long ago, never claimed", {FRESH("T1", NOW - 60000, .cancel = 0)}, 1},
	{"READY, due exactly now", {FRESH("T1", NOW, .cancel = 0)}, 1},
	{"RUNNING, lease ended 1 ms ago (takeover)",
	 {HELD("T1", "RUNNING", 1, 1, 3, NOW - 1, NOW - 30001, TS_NULL, .cancel = 0)},
	 1},
	{"RUNNING, lease ends exactly now, one attempt left",
	 {HELD("T1", "RUNNING", 2, 2, 3, NOW, NOW - 30000, TS_NULL, .cancel = 0)},
	 1},
	{"READY again after a failed attempt, one attempt left",
	 {HELD("T1", "READY", 2, 2, 3, TS_NULL, NOW - 40000, TS_NULL,
	       .last_error = "provider timeout", .backoff_ms = 500, .backoff_max_ms = 2000)},
	 1},
	{"next to other claimable tasks",
	 {FRESH("T0", NOW - 7000, .cancel = 0), FRESH("T1", NOW - 5000, .cancel = 0),
	  FRESH("T2", NOW - 9000, .cancel = 0),
	  HELD("T3", "RUNNING", 1, 1, 3, NOW - 50000, NOW - 80000, TS_NULL, .cancel = 0)},
	 4},
	/* not yet due */
	{"READY, due 1 ms from now", {FRESH("T1", NOW + 1, .cancel = 0)}, 1},
	{"READY, backing off after a failed attempt",
	 {FRESH("T1", NOW + 2000, .owner = "w-old", .claim_id = OLD, .version = 1, .attempt = 1,
		.last_error = "provider timeout")},
	 1},
	/* cancelled */
	{"RUNNING, lease ended, cancel requested",
	 {HELD("T1", "RUNNING", 1, 1, 3, NOW - 10, NOW - 30010, TS_NULL, .cancel = 1)},
	 1},
	{"READY, cancel requested", {FRESH("T1", NOW - 10, .cancel = 1)}, 1},
	/* out of attempts */
	{"RUNNING, lease ended, attempt 3 of 3",
	 {HELD("T1", "RUNNING", 3, 3, 3, NOW - 10, NOW - 30010, TS_NULL, .cancel = 0)},
	 1},
	{"READY, attempt 1 of 1",
	 {HELD("T1", "READY", 1, 1, 1, TS_NULL, NOW - 40000, TS_NULL, .cancel = 0)},
	 1},
	{"READY, attempt 4, max_attempts lowered to 3",
	 {HELD("T1", "READY", 4, 4, 3, TS_NULL, NOW - 40000, TS_NULL, .cancel = 0)},
	 1},
	/* a live lease */
	{"RUNNING, lease ends 1 ms from now",
	 {HELD("T1", "RUNNING", 1, 1, 3, NOW + 1, NOW - 29999, TS_NULL, .cancel = 0)},
	 1},
	{"RUNNING, claimed just now by another worker",
	 {HELD("T1", "RUNNING", 1, 1, 3, NOW + 30000, NOW, TS_NULL, .cancel = 0)},
	 1},
	/* finished */
	{"SUCCEEDED",
	 {HELD("T1", "SUCCEEDED", 1, 1, 3, TS_NULL, NOW - 60000, NOW - 50000, .cancel = 0)},
	 1},
	{"FAILED for good by an operator, attempts left",
	 {HELD("T1", "FAILED", 1, 1, 3, TS_NULL, NOW - 60000, NOW - 50000, .cancel = 0)},
	 1},
	/* A statement that left lease_until behind (the lesson's shortened
	 * complete does): the state still decides. */
	{"SUCCEEDED, its ended lease_until left behind",
	 {HELD("T1", "SUCCEEDED", 1, 1, 3, NOW - 10, NOW - 30010, NOW - 20, .cancel = 0)},
	 1},
	{"FAILED by an operator, attempts left, its ended lease_until left behind",
	 {HELD("T1", "FAILED", 1, 1, 3, NOW - 10, NOW - 30010, NOW - 20, .cancel = 0)},
	 1},
	{"CANCELLED before anyone claimed it",
	 {{.task_id = "T1",
	   .state = "CANCELLED",
	   .due = NOW - 90000,
	   .lease_until = TS_NULL,
	   .claimed_at = TS_NULL,
	   .finished_at = NOW - 50000}},
	 1},
};

/* Judged by claim-ignores-worker-clock only: each runs three times. */
static const struct sit clocked[] = {
	{"worker clocks off by 40 s: READY, due exactly now", {FRESH("T1", NOW, .cancel = 0)}, 1},
	{"worker clocks off by 40 s: READY, due in 20 s",
	 {FRESH("T1", NOW + 20000, .cancel = 0)},
	 1},
	{"worker clocks off by 40 s: lease ended exactly now",
	 {HELD("T1", "RUNNING", 1, 1, 3, NOW, NOW - 30000, TS_NULL, .cancel = 0)},
	 1},
	{"worker clocks off by 40 s: lease ends in 20 s",
	 {HELD("T1", "RUNNING", 1, 1, 3, NOW + 20000, NOW - 10000, TS_NULL, .cancel = 0)},
	 1},
};

static int situations(struct cx *x)
{
	report_step(x->ts.ctx->report,
		    "The rules: your claim in %d staged situations, %d more with the workers' "
		    "clocks off, then %d seeded schedules of three workers",
		    (int)WB_ARRAY_LEN(staged), (int)WB_ARRAY_LEN(clocked), SCHEDULES);
	int rc = 0;
	for (size_t i = 0; !rc && i < WB_ARRAY_LEN(staged); i++)
		rc = situation(x, staged[i].name, staged[i].r, staged[i].n);
	for (size_t i = 0; !rc && i < WB_ARRAY_LEN(clocked); i++)
		rc = clock_situation(x, clocked[i].name, clocked[i].r, clocked[i].n);
	return rc;
}

/* --- exploration --------------------------------------------------------- */

enum { X_CLAIM_A, X_CLAIM_B, X_CLAIM_C, X_COMPLETE, X_FAIL, X_CANCEL, X_TICK, X_EXPIRE, X_KINDS };
static const char *const op_names[] = {"claim-A", "claim-B", "claim-C", "complete",
				       "fail",	  "cancel",  "tick",	"expire"};
static const char *const lanes[] = {"A", "B", "C"};
static const int priority[] = {R_TAKES,	 R_HOLDER,   R_BUMPS, R_LEASE,	  R_DUE,
			       R_CANCEL, R_ATTEMPTS, R_LIVE,  R_FINISHED, R_ONLY};

static int run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			size_t whylen)
{
	struct cx *x = arg;
	struct taskspec *ts = &x->ts;
	struct report *r = ts->ctx->report;
	const struct ts_row start[] = {
		{"T1", "READY", NOW, .lease_until = TS_NULL, .claimed_at = TS_NULL,
		 .finished_at = TS_NULL, .max_attempts = 2, .backoff_ms = 500,
		 .backoff_max_ms = 2000},
		{"T2", "READY", NOW, .lease_until = TS_NULL, .claimed_at = TS_NULL,
		 .finished_at = TS_NULL},
	};
	int rc = taskspec_stage(ts, NOW, start, 2);
	for (int i = 0; !rc && i < n; i++) {
		struct ts_snap pre;
		if ((rc = taskspec_snap(ts, &pre)) != 0)
			break;
		int op = ops[i], idx = -1;
		if (op == X_TICK || op == X_EXPIRE) {
			long long step = op == X_TICK ? 1000 : XLEASE;
			if (record)
				report_mark(r, "nemesis", "the database clock moves %lld ms", step);
			rc = taskspec_clock(ts, ts->now + step);
			continue;
		}
		if (op == X_COMPLETE || op == X_FAIL) {
			struct task_claim c;
			taskspec_claim_of(&pre, "T1", &c);
			if (record)
				idx = report_invoke(r, "holder", op_names[op], c.owner);
			int e = !c.owner[0] || c.version < 1 ? TASK_ELOST /* nobody holds it */
				: op == X_COMPLETE	     ? tasktable_complete(ts->tt, &c)
						   : tasktable_fail(ts->tt, &c, "boom", NULL, NULL);
			if (e && e != TASK_ELOST) {
				snprintf(ts->env, sizeof ts->env, "the recipe's %s: %s",
					 op_names[op], tasktable_errmsg(ts->tt));
				rc = e;
			}
			if (record)
				report_complete(r, idx, e ? HIST_FAIL : HIST_OK, NULL);
			continue;
		}
		if (op == X_CANCEL) {
			struct task_cancel cc;
			if (record)
				idx = report_invoke(r, "operator", "cancel", "T1");
			rc = tasktable_cancel(ts->tt, "T1", &cc);
			if (rc)
				snprintf(ts->env, sizeof ts->env, "the recipe's cancel: %s",
					 tasktable_errmsg(ts->tt));
			if (record)
				report_complete(r, idx, HIST_OK, NULL);
			continue;
		}
		const char *owner = lanes[op - X_CLAIM_A];
		const char *cid = x->ids[i % N_IDS];
		if (record)
			idx = report_invoke(r, owner, "claim", "T1");
		struct ts_out o;
		if ((rc = claim(x, "T1", owner, cid, XLEASE, ts->now, &o)) != 0)
			break;
		if (record)
			report_complete(r, idx,
					o.failed	 ? HIST_INFO
					: o.changes == 1 ? HIST_OK
							 : HIST_FAIL,
					o.failed ? o.err : NULL);
		struct finding f[R_N];
		verdict(x, &pre, &o, "T1", owner, cid, XLEASE, f);
		for (size_t k = 0; k < WB_ARRAY_LEN(priority); k++) {
			const struct finding *g = &f[priority[k]];
			if (!g->judged || g->ok)
				continue;
			snprintf(why, whylen, "op %d, claim by %s at now+%lld: %s", i + 1, owner,
				 ts->now - NOW, g->obs);
			return priority[k] + 1;
		}
	}
	if (rc) {
		report_cannot(r, "the task-table exploration stopped: %s", ts->env);
		return rc;
	}
	return 0;
}

static int rules_check(struct lab_ctx *ctx, const struct ex_code *code, const struct sqlfile *f,
		       uint64_t *seed)
{
	struct cx x;
	memset(&x, 0, sizeof x);
	int rc = taskspec_open(&x.ts, ctx, code, f, rules, R_N, "rules.db");
	if (rc)
		return rc;
	*seed = x.ts.sp.seed;
	for (int k = 0; k < N_IDS; k++)
		spec_hex_id(&x.ts.sp, x.ids[k]);
	rc = situations(&x);
	if (rc) {
		report_cannot(ctx->report, "a staged situation could not run: %s", x.ts.env);
		goto out;
	}
	const char *judged[R_N];
	int nj = 0;
	for (int k = 0; k < R_N; k++)
		if (k != R_CLOCK)
			judged[nj++] = rules[k].id;
	judged[nj] = NULL;
	rc = spec_explore(&x.ts.sp, judged, SCHEDULES, 12, X_KINDS, op_names, run_schedule, &x);
	if (rc == 0)
		spec_finish(&x.ts.sp);
out:
	taskspec_close(&x.ts);
	return rc;
}

/* --- the story ------------------------------------------------------------ */

struct learner {
	struct sqlfile *f;
	uint64_t seed;
};

/* Reads the claimed row back inside the claim's transaction. */
static int read_back(sqlite3 *db, const char *task_id, struct task_claim *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(db,
				 "SELECT claim_version, attempt, lease_until, owner, claim_id"
				 "  FROM task WHERE task_id = ?1",
				 &st);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, task_id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st) == SQLITE_ROW ? 0 : WB_EIO;
	if (rc == 0) {
		out->version = sqlite3_column_int64(st, 0);
		out->attempt = sqlite3_column_int64(st, 1);
		out->lease_until = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc;
}

static int learner_claim(void *arg, struct tasktable *tt, const char *task_id, const char *owner,
			 long long lease_ms, long long worker_clock, struct task_claim *out,
			 char *err, size_t errlen)
{
	struct learner *L = arg;
	sqlite3 *db = tasktable_db(tt);
	memset(out, 0, sizeof *out);
	snprintf(out->task_id, sizeof out->task_id, "%s", task_id);
	snprintf(out->owner, sizeof out->owner, "%s", owner);
	taskspec_story_id(L->seed, owner, task_id, out->claim_id);
	struct sqlfile_param p[5];
	claim_params(p, task_id, owner, out->claim_id, lease_ms, worker_clock);
	int rc = sqlitex_begin_immediate(db);
	if (rc) {
		snprintf(err, errlen, "BEGIN IMMEDIATE: %s", wb_strerror(rc));
		return rc;
	}
	long long now = 0;
	rc = sqlitex_int(db, "SELECT now FROM db_now", &now);
	struct sqlex_out o;
	if (rc == 0)
		rc = sqlex_exec(db, L->f, "claim", p, 5, &o, err, errlen);
	if (rc == 0 && o.changes > 1) {
		snprintf(err, errlen, "claim: changed %d rows for one task_id", o.changes);
		rc = WB_EINVAL;
	}
	if (rc == 0 && o.changes == 1) {
		rc = read_back(db, task_id, out);
		out->claimed_at = now;
		out->outcome = TASK_OUTCOME_WON;
	}
	rc = sqlitex_end(db, rc);
	if (rc)
		return rc;
	return o.changes == 1 ? 0 : TASK_ELOST;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"claim", NULL};
	struct sqlfile_param p[5];
	claim_params(p, "T000", "w1", "00000000000000000000000000000000", 30, 100);
	struct learner L = {0};
	int rc = sqlex_load_data(ctx, code, "tasks.sql", names, p, 5, &L.f);
	if (rc)
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	report_conclusion(ctx->report,
			  "Your claim took a task exactly when the rules allow it, by the "
			  "database's clock, and gave every claim version exactly one holder: "
			  "leases never overlapped, a late complete changed 0 rows and every "
			  "expired task was taken over exactly once.");
	rc = rules_check(ctx, code, L.f, &L.seed);
	if (rc == 0) {
		report_step(ctx->report, "The story: the task-claim lab's race with your claim");
		struct task_claim_impl impl = {learner_claim, &L};
		rc = task_claim_scenario(ctx, &impl);
	}
	sqlfile_free(L.f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_task_claim = check;
