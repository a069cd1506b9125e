/*
 * task-complete.c - the check of the exercise "task-complete": the
 * learner's statements "renew" and "complete", judged first by the rules
 * the task states (spec.h, taskspec.h), then by the lab task-takeover's
 * own scenario (labs/tasks/task-takeover.h: A claims T7, stalls, B takes
 * over at 131, A's renew and complete must change 0 rows, B completes),
 * and then by one more trace the lab does not need: the takeover is by a
 * restarted process of the same worker, so only claim_version tells the
 * two claims apart.
 *
 * Rules: situations stage T1 held by a claim (current, renewed to a
 * longer or a shorter lease, a lease ending 1 ms from now, a cancel
 * requested), or a claim that is no longer current (taken over by B, or
 * by A restarted under the same name; a lease that ended; completed,
 * failed back to READY, cancelled, failed for good), or next to a second
 * task A holds with the same version; each statement runs once as the
 * holder and every column of every row is compared with what the rule
 * demands.  Then seeded schedules of three processes (A, A restarted, B)
 * claiming with the recipe's claim, renewing and completing with the
 * learner's statements, with the recipe's fail and cancel and a moving
 * clock; before each renew or complete the table is read and the outcome
 * is compared with the rules applied to that row.
 *
 * One call of a learner's statement is one BEGIN IMMEDIATE transaction;
 * it succeeded when it changed exactly one row.  Parameters: :task_id,
 * :owner, :claim_version and (renew) :lease_ms.
 */
#include "exercise.h"
#include "sqlex.h"
#include "taskspec.h"
#include "base/sqlitex.h"
#include "base/wb.h"
#include "checkers/history.h"
#include "harness/report.h"
#include "recipes/tasktable.h"
#include "tasks/task-takeover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEASE	  30
#define NOW	  5000000LL
#define RENEW	  45000LL /* :lease_ms of the situations' renew */
#define XLEASE	  3000LL  /* leases of the exploration */
#define SCHEDULES 40

static const struct spec_rule rules[] = {
	{"renew-sets-lease",
	 N_("the current claim's renew changes its row and sets lease_until = now + :lease_ms "
	    "(longer or shorter than before, also with a cancel requested), nothing else")},
	{"complete-sets-succeeded",
	 N_("the current claim's complete changes its row and sets state = 'SUCCEEDED', "
	    "lease_until = NULL and finished_at = now, nothing else")},
	{"writes-match-claim-version",
	 N_("a renew or complete with another claim_version than the row's (a takeover by another "
	    "worker or by a restarted process of the same name) changes 0 rows")},
	{"writes-need-live-lease",
	 N_("a renew or complete after the claim's lease ended (lease_until <= now), even with "
	    "nobody taking over, changes 0 rows")},
	{"writes-need-running",
	 N_("a renew or complete of a task that is no longer RUNNING (completed, failed back to "
	    "READY, cancelled, failed for good) changes 0 rows")},
	{"writes-only-named-task",
	 N_("a renew or complete changes no row but :task_id's, even when the worker holds other "
	    "tasks with the same claim_version")},
};

enum { R_RENEW, R_COMPLETE, R_VERSION, R_LIVE, R_RUNNING, R_ONLY, R_N };

/* --- the rules applied to one row --------------------------------------- */

/* The rule that forbids the holder (owner, version) to write task's row in
 * pre at now, or -1 when the claim is current. */
static int refusal(const struct ts_snap *pre, const char *task, const char *owner,
		   long long version, long long now)
{
	const char *state = taskspec_get(pre, task, "state");
	const char *o = taskspec_get(pre, task, "owner");
	if (!state || !o || strcmp(o, owner) ||
	    taskspec_geti(pre, task, "claim_version") != version)
		return R_VERSION;
	if (strcmp(state, "RUNNING"))
		return R_RUNNING;
	if (taskspec_geti(pre, task, "lease_until") <= now)
		return R_LIVE;
	return -1;
}

struct finding {
	int judged, ok;
	char obs[400];
};

/* Judges one renew (renew non-zero, lease) or complete of task by the
 * claim (owner, version) whose table before was pre and whose outcome is
 * o, into f[R_N]. */
static void verdict(const struct taskspec *ts, const struct ts_snap *pre, const struct ts_out *o,
		    int renew, const char *task, const char *owner, long long version,
		    long long lease, struct finding f[R_N])
{
	char d[360], od[360], out[200], not_task[TASK_ID_MAX + 1];
	memset(f, 0, sizeof(struct finding) * R_N);
	const char *what = renew ? "renew" : "complete";
	snprintf(not_task, sizeof not_task, "!%s", task);
	int target = taskspec_diff(ts, pre, &o->after, task, NULL, d, sizeof d) > 0;
	int others = taskspec_diff(ts, pre, &o->after, not_task, NULL, od, sizeof od) > 0;
	if (pre->n > 1) {
		f[R_ONLY].judged = 1;
		f[R_ONLY].ok = !others;
		if (others)
			snprintf(f[R_ONLY].obs, sizeof f[R_ONLY].obs, "%s changed %s", what, od);
	}
	int r = refusal(pre, task, owner, version, ts->now);
	if (r >= 0) {
		f[r].judged = 1;
		f[r].ok = !o->failed && !target && (others || o->changes == 0);
		if (!f[r].ok)
			snprintf(f[r].obs, sizeof f[r].obs, "%s: %s%s%s (want 0 rows)", what,
				 taskspec_outcome(o, 0, out, sizeof out), target ? ": " : "",
				 target ? d : "");
		return;
	}
	int k = renew ? R_RENEW : R_COMPLETE;
	struct ts_snap want = *pre;
	if (renew) {
		taskspec_seti(&want, task, "lease_until", ts->now + lease);
	} else {
		taskspec_set(&want, task, "state", "SUCCEEDED");
		taskspec_seti(&want, task, "lease_until", TS_NULL);
		taskspec_seti(&want, task, "finished_at", ts->now);
	}
	int bad = taskspec_diff(ts, &want, &o->after, task, NULL, d, sizeof d);
	f[k].judged = 1;
	f[k].ok = !o->failed && o->changes >= 1 && !bad;
	if (f[k].ok)
		return;
	if (o->failed || !target)
		snprintf(f[k].obs, sizeof f[k].obs, "%s: %s (want 1 row)", what,
			 taskspec_outcome(o, 0, out, sizeof out));
	else
		snprintf(f[k].obs, sizeof f[k].obs, "%s: 1 row, but %s", what, d);
}

static void holder_params(struct sqlfile_param p[4], const struct task_claim *c, long long lease_ms)
{
	p[0] = (struct sqlfile_param){":task_id", SQLFILE_TEXT, 0, c->task_id, 1};
	p[1] = (struct sqlfile_param){":owner", SQLFILE_TEXT, 0, c->owner, 0};
	p[2] = (struct sqlfile_param){":claim_version", SQLFILE_INT, c->version, NULL, 0};
	p[3] = (struct sqlfile_param){":lease_ms", SQLFILE_INT, lease_ms, NULL, 0};
}

/* Runs renew or complete as claim c and judges it into f. */
static int write_once(struct taskspec *ts, int renew, const struct task_claim *c, long long lease,
		      struct finding f[R_N], struct ts_out *o)
{
	struct ts_snap pre;
	struct sqlfile_param p[4];
	holder_params(p, c, lease);
	int rc = taskspec_snap(ts, &pre);
	if (!rc)
		rc = taskspec_run(ts, renew ? "renew" : "complete", p, 4, 1, o);
	if (!rc)
		verdict(ts, &pre, o, renew, c->task_id, c->owner, c->version, lease, f);
	return rc;
}

/* --- staged situations --------------------------------------------------- */

#define OLD "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
#define NEW "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"
/* T1 (or id_) as claimed by owner_ with version v_ and a lease ending at
 * lease_; more fields follow as designators. */
#define ROW(id_, state_, owner_, v_, lease_, ...)                                                  \
	{                                                                                          \
		.task_id = (id_), .state = (state_), .due = NOW - 90000, .owner = (owner_),        \
		.claim_id = OLD, .version = (v_), .attempt = (v_), .lease_until = (lease_),        \
		.claimed_at = NOW - 20000, __VA_ARGS__                                             \
	}

struct sit {
	const char *name;
	struct ts_row r[3];
	int n;
	const char *owner; /* the writer: A with version version */
	long long version;
	long long lease; /* renew's :lease_ms */
};

static const struct sit staged[] = {
	/* current */
	{"A's claim, lease ends in 20 s",
	 {ROW("T1", "RUNNING", "A", 1, NOW + 20000, .finished_at = TS_NULL)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"A's claim, lease ends in 50 s, renewed to a shorter one",
	 {ROW("T1", "RUNNING", "A", 1, NOW + 50000, .finished_at = TS_NULL)},
	 1,
	 "A",
	 1,
	 10000},
	{"A's claim, lease ends 1 ms from now",
	 {ROW("T1", "RUNNING", "A", 2, NOW + 1, .finished_at = TS_NULL)},
	 1,
	 "A",
	 2,
	 RENEW},
	{"A's claim, a cancel requested",
	 {ROW("T1", "RUNNING", "A", 1, NOW + 20000, .finished_at = TS_NULL, .cancel = 1)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"B's claim after a takeover (version 2)",
	 {ROW("T1", "RUNNING", "B", 2, NOW + 20000, .finished_at = TS_NULL)},
	 1,
	 "B",
	 2,
	 RENEW},
	/* not current: another version */
	{"B took over (version 2), A writes with version 1",
	 {ROW("T1", "RUNNING", "B", 2, NOW + 20000, .finished_at = TS_NULL)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"A restarted took over under the same name (version 2), A's first process writes with 1",
	 {ROW("T1", "RUNNING", "A", 2, NOW + 20000, .finished_at = TS_NULL)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"A holds version 1, a write names version 2",
	 {ROW("T1", "RUNNING", "A", 1, NOW + 20000, .finished_at = TS_NULL)},
	 1,
	 "A",
	 2,
	 RENEW},
	/* not current: the lease ended */
	{"A's lease ended 1 ms ago, nobody took over",
	 {ROW("T1", "RUNNING", "A", 1, NOW - 1, .finished_at = TS_NULL)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"A's lease ends exactly now",
	 {ROW("T1", "RUNNING", "A", 1, NOW, .finished_at = TS_NULL)},
	 1,
	 "A",
	 1,
	 RENEW},
	/* not current: no longer RUNNING */
	{"A already completed it",
	 {ROW("T1", "SUCCEEDED", "A", 1, TS_NULL, .finished_at = NOW - 100)},
	 1,
	 "A",
	 1,
	 RENEW},
	/* A statement that left lease_until behind (the lesson's shortened
	 * complete does): the state still decides. */
	{"A completed it, its lease_until left behind",
	 {ROW("T1", "SUCCEEDED", "A", 1, NOW + 20000, .finished_at = NOW - 100)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"A stopped it after a cancel, its lease_until left behind",
	 {ROW("T1", "CANCELLED", "A", 1, NOW + 20000, .finished_at = NOW - 100, .cancel = 1)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"A's attempt failed, the task is READY again",
	 {ROW("T1", "READY", "A", 1, TS_NULL, .finished_at = TS_NULL, .last_error = "boom")},
	 1,
	 "A",
	 1,
	 RENEW},
	{"A stopped it after a cancel (CANCELLED)",
	 {ROW("T1", "CANCELLED", "A", 1, TS_NULL, .finished_at = NOW - 100, .cancel = 1)},
	 1,
	 "A",
	 1,
	 RENEW},
	{"the sweep failed it for good (FAILED)",
	 {ROW("T1", "FAILED", "A", 3, TS_NULL, .finished_at = NOW - 100, .max_attempts = 3)},
	 1,
	 "A",
	 3,
	 RENEW},
	/* another task of the same holder */
	{"A holds T0, T1 and T2, all version 1",
	 {ROW("T0", "RUNNING", "A", 1, NOW + 15000, .finished_at = TS_NULL),
	  ROW("T1", "RUNNING", "A", 1, NOW + 20000, .finished_at = TS_NULL),
	  ROW("T2", "RUNNING", "A", 1, NOW + 25000, .finished_at = TS_NULL)},
	 3,
	 "A",
	 1,
	 RENEW},
};

static int situations(struct taskspec *ts)
{
	report_step(ts->ctx->report,
		    "The rules: your renew and complete in %d staged situations each, then %d "
		    "seeded schedules of three processes",
		    (int)WB_ARRAY_LEN(staged), SCHEDULES);
	for (size_t i = 0; i < WB_ARRAY_LEN(staged); i++) {
		const struct sit *s = &staged[i];
		struct task_claim c = {.task_id = "T1", .version = s->version};
		snprintf(c.owner, sizeof c.owner, "%s", s->owner);
		for (int renew = 1; renew >= 0; renew--) {
			struct finding f[R_N];
			struct ts_out o;
			int rc = taskspec_stage(ts, NOW, s->r, s->n);
			if (!rc)
				rc = write_once(ts, renew, &c, s->lease, f, &o);
			if (rc)
				return rc;
			for (int k = 0; k < R_N; k++)
				if (f[k].judged)
					spec_judge(&ts->sp, rules[k].id, s->name, f[k].ok, "%s",
						   f[k].obs);
		}
	}
	return 0;
}

/* --- exploration --------------------------------------------------------- */

enum {
	X_CLAIM_A1,
	X_CLAIM_A2,
	X_CLAIM_B,
	X_RENEW_A1,
	X_RENEW_A2,
	X_RENEW_B,
	X_COMPLETE_A1,
	X_COMPLETE_A2,
	X_COMPLETE_B,
	X_FAIL,
	X_CANCEL,
	X_TICK,
	X_EXPIRE,
	X_KINDS
};
static const char *const op_names[] = {
	"claim-A1",    "claim-A2",   "claim-B", "renew-A1", "renew-A2", "renew-B", "complete-A1",
	"complete-A2", "complete-B", "fail",	"cancel",   "tick",	"expire"};
static const char *const procs[] = {"A1", "A2", "B"};
static const int priority[] = {R_RENEW, R_COMPLETE, R_VERSION, R_LIVE, R_RUNNING, R_ONLY};

struct xstate {
	struct taskspec *ts;
	char ids[SPEC_MAX_OPS][33];
};

static int run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			size_t whylen)
{
	struct xstate *x = arg;
	struct taskspec *ts = x->ts;
	struct report *r = ts->ctx->report;
	struct task_claim held[3]; /* what each process believes it holds */
	memset(held, 0, sizeof held);
	const struct ts_row start[] = {
		{.task_id = "T1",
		 .state = "READY",
		 .due = NOW,
		 .lease_until = TS_NULL,
		 .claimed_at = TS_NULL,
		 .finished_at = TS_NULL,
		 .backoff_ms = 500,
		 .backoff_max_ms = 2000},
		/* A's other task, version 1 like A's first claim of T1 */
		{.task_id = "T2",
		 .state = "RUNNING",
		 .due = NOW - 1000,
		 .owner = "A",
		 .claim_id = OLD,
		 .version = 1,
		 .attempt = 1,
		 .lease_until = NOW + 1000000000LL,
		 .claimed_at = NOW - 1000,
		 .finished_at = TS_NULL},
	};
	int rc = taskspec_stage(ts, NOW, start, 2);
	for (int i = 0; !rc && i < n; i++) {
		int op = ops[i], idx = -1;
		if (op == X_TICK || op == X_EXPIRE) {
			long long step = op == X_TICK ? 1000 : XLEASE;
			if (record)
				report_mark(r, "nemesis", "the database clock moves %lld ms", step);
			rc = taskspec_clock(ts, ts->now + step);
			continue;
		}
		if (op <= X_CLAIM_B) {
			int p = op - X_CLAIM_A1;
			struct task_claim c;
			if (record)
				idx = report_invoke(r, procs[p], "claim", "T1");
			int e = taskspec_ref_claim(ts, "T1", p == 2 ? "B" : "A", x->ids[i], XLEASE,
						   &c);
			if (e && e != TASK_ELOST) {
				rc = e;
				break;
			}
			if (e == 0)
				held[p] = c;
			if (record)
				report_complete(r, idx, e ? HIST_FAIL : HIST_OK, NULL);
			continue;
		}
		if (op == X_FAIL || op == X_CANCEL) {
			struct ts_snap pre;
			if ((rc = taskspec_snap(ts, &pre)) != 0)
				break;
			struct task_claim c;
			taskspec_claim_of(&pre, "T1", &c);
			if (record)
				idx = report_invoke(r, op == X_FAIL ? "holder" : "operator",
						    op_names[op], "T1");
			int e = TASK_ELOST;
			if (op == X_CANCEL) {
				struct task_cancel cc;
				e = tasktable_cancel(ts->tt, "T1", &cc);
			} else if (c.owner[0] && c.version > 0) {
				e = tasktable_fail(ts->tt, &c, "boom", NULL, NULL);
			}
			if (e && e != TASK_ELOST) {
				snprintf(ts->env, sizeof ts->env, "the recipe's %s: %s",
					 op_names[op], tasktable_errmsg(ts->tt));
				rc = e;
				break;
			}
			if (record)
				report_complete(r, idx, e ? HIST_FAIL : HIST_OK, NULL);
			continue;
		}
		int renew = op <= X_RENEW_B;
		int p = renew ? op - X_RENEW_A1 : op - X_COMPLETE_A1;
		struct task_claim c = held[p];
		if (!c.task_id[0]) { /* never claimed: it writes with version 0 */
			snprintf(c.task_id, sizeof c.task_id, "T1");
			snprintf(c.owner, sizeof c.owner, "%s", p == 2 ? "B" : "A");
		}
		if (record)
			idx = report_invoke(r, procs[p], renew ? "renew" : "complete", "T1");
		struct finding f[R_N];
		struct ts_out o;
		if ((rc = write_once(ts, renew, &c, XLEASE, f, &o)) != 0)
			break;
		if (record)
			report_complete(r, idx,
					o.failed	 ? HIST_INFO
					: o.changes == 1 ? HIST_OK
							 : HIST_FAIL,
					o.failed ? o.err : NULL);
		for (size_t k = 0; k < WB_ARRAY_LEN(priority); k++) {
			const struct finding *g = &f[priority[k]];
			if (!g->judged || g->ok)
				continue;
			snprintf(why, whylen, "op %d, %s by %s (version %lld) at now+%lld: %s",
				 i + 1, renew ? "renew" : "complete", procs[p], c.version,
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

static int rules_check(struct lab_ctx *ctx, const struct ex_code *code, const struct sqlfile *f)
{
	struct taskspec ts;
	struct xstate x = {.ts = &ts};
	int rc = taskspec_open(&ts, ctx, code, f, rules, R_N, "rules.db");
	if (rc)
		return rc;
	for (int k = 0; k < SPEC_MAX_OPS; k++)
		spec_hex_id(&ts.sp, x.ids[k]);
	rc = situations(&ts);
	if (rc) {
		report_cannot(ctx->report, "a staged situation could not run: %s", ts.env);
		goto out;
	}
	const char *judged[R_N + 1];
	for (int k = 0; k < R_N; k++)
		judged[k] = rules[k].id;
	judged[R_N] = NULL;
	rc = spec_explore(&ts.sp, judged, SCHEDULES, 14, X_KINDS, op_names, run_schedule, &x);
	if (rc == 0)
		spec_finish(&ts.sp);
out:
	taskspec_close(&ts);
	return rc;
}

/* --- the story ------------------------------------------------------------ */

/* Runs statement name for claim c in its own write transaction. */
static int holder_write(const struct sqlfile *f, const char *name, struct tasktable *tt,
			const struct task_claim *c, long long lease_ms, char *err, size_t errlen)
{
	sqlite3 *db = tasktable_db(tt);
	struct sqlfile_param p[4];
	struct sqlex_out o = {0};
	holder_params(p, c, lease_ms);
	int rc = sqlitex_begin_immediate(db);
	if (rc) {
		snprintf(err, errlen, "BEGIN IMMEDIATE: %s", wb_strerror(rc));
		return rc;
	}
	rc = sqlex_exec(db, f, name, p, 4, &o, err, errlen);
	if (rc == 0 && o.changes > 1) {
		snprintf(err, errlen, "%s: changed %d rows for one task_id", name, o.changes);
		rc = WB_EINVAL;
	}
	rc = sqlitex_end(db, rc);
	if (rc)
		return rc;
	if (o.changes == 0) {
		snprintf(err, errlen, "%s: 0 rows", name);
		return TASK_ELOST;
	}
	return 0;
}

static int learner_renew(void *arg, struct tasktable *tt, const struct task_claim *c,
			 long long lease_ms, char *err, size_t errlen)
{
	return holder_write(arg, "renew", tt, c, lease_ms, err, errlen);
}

static int learner_complete(void *arg, struct tasktable *tt, const struct task_claim *c, char *err,
			    size_t errlen)
{
	return holder_write(arg, "complete", tt, c, 0, err, errlen);
}

static const char *rows_of(int rc)
{
	return rc == 0 ? "1 row" : rc == TASK_ELOST ? "0 rows" : wb_strerror(rc);
}

/* The same takeover, by a restarted process of worker A. */
static int restart_trace(struct lab_ctx *ctx, const struct sqlfile *f)
{
	struct report *r = ctx->report;
	char err[256] = "", schema[LAB_PATH_MAX];
	struct tasktable *p1 = NULL, *p2 = NULL;
	struct task_claim c1, c2;
	char *path = wb_xasprintf("%s/t8-restart.db", ctx->run_dir);
	lab_data_file(ctx, "tasks.sql", schema, sizeof schema);
	int rc = tasktable_open(path, schema, NULL, &p1, err, sizeof err);
	if (rc == 0)
		rc = tasktable_open(path, schema, NULL, &p2, err, sizeof err);
	if (rc == 0 && (rc = tasktable_clock_set(p1, 100)) == 0)
		rc = tasktable_add(p1, "T8", 100, NULL);
	if (rc == 0)
		rc = tasktable_claim(p1, "T8", "A", LEASE, &c1);
	if (rc == 0 && (rc = tasktable_clock_set(p1, 131)) == 0)
		rc = tasktable_claim(p2, "T8", "A", LEASE, &c2);
	free(path);
	if (rc) {
		report_cannot(r, "restart trace: %s", p1 ? tasktable_errmsg(p1) : err);
		goto out;
	}
	report_step(r, "one more trace: worker A's process 1 claims T8 at 100 (version 1) and "
		       "stalls; at 131 A restarted as process 2, same name, takes it over "
		       "(version 2)");
	int renew = tasktable_clock_set(p1, 132);
	if (renew == 0)
		renew = learner_renew((void *)f, p1, &c1, LEASE, err, sizeof err);
	int late = tasktable_clock_set(p1, 133);
	if (late == 0)
		late = learner_complete((void *)f, p1, &c1, err, sizeof err);
	report_step(r, "clock 132-133: process 1 wakes and renews, then completes, with version 1");
	report_checkf(r, "restart-late-renew-zero-rows", renew == TASK_ELOST,
		      "process 1's renew: 0 rows (same owner name, older claim_version)",
		      "process 1's renew: %s", rows_of(renew));
	report_checkf(r, "restart-late-complete-zero-rows", late == TASK_ELOST,
		      "process 1's complete: 0 rows; T8 stays RUNNING for process 2",
		      "process 1's complete: %s", rows_of(late));
	int done = tasktable_clock_set(p1, 150);
	if (done == 0)
		done = learner_complete((void *)f, p2, &c2, err, sizeof err);
	struct task_row row;
	int got = tasktable_get(p1, "T8", &row) == 0;
	report_checkf(r, "restart-holder-completes",
		      done == 0 && got && row.state == TASK_SUCCEEDED && row.claim_version == 2,
		      "clock 150: process 2 completes with version 2: 1 row; SUCCEEDED",
		      "process 2: %s; %s, version %lld", rows_of(done),
		      got ? tasktable_state_name(row.state) : "?", got ? row.claim_version : -1);
out:
	tasktable_close(p1);
	tasktable_close(p2);
	return rc;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"renew", "complete", NULL};
	struct task_claim c = {.task_id = "T7", .owner = "A", .version = 1};
	struct sqlfile_param p[4];
	holder_params(p, &c, LEASE);
	struct sqlfile *f = NULL;
	int rc = sqlex_load_data(ctx, code, "tasks.sql", names, p, 4, &f);
	if (rc)
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	report_conclusion(ctx->report,
			  "Your renew and complete changed a row only for the current claim: after "
			  "a takeover, by another worker or by a restart under the same name, the "
			  "late holder's writes changed 0 rows and the new holder completed.");
	rc = rules_check(ctx, code, f);
	if (rc == 0) {
		report_step(
			ctx->report,
			"The story: the task-takeover lab's trace with your renew and complete");
		struct task_holder_impl impl = {learner_renew, learner_complete, f};
		rc = task_takeover_scenario(ctx, &impl);
	}
	if (rc == 0)
		rc = restart_trace(ctx, f);
	sqlfile_free(f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_task_complete = check;
