/*
 * task-recover-claim.c - the check of the exercise "task-recover-claim":
 * the learner's statement "recover", judged first by the rules the task
 * states (spec.h, taskspec.h), then by the lab task-lost-reply's own
 * scenario (labs/tasks/task-lost-reply.h): the claim hook drops the reply
 * after COMMIT, a blind retry meets its own lease, and a restarted
 * process with the same worker name takes the task over before the first
 * one recovers.
 *
 * Rules: situations stage T1 as the lost claim left it (current, a
 * takeover claim, a lease ending 1 ms from now, a cancel requested), as
 * it is when the claim never applied (untouched, or held by another
 * worker), after a takeover (by another worker, by a restarted process
 * of the same name), with the claim's lease ended, and with the claim's
 * task no longer RUNNING (completed, failed back to READY, cancelled,
 * failed for good); the statement runs once with the claim_id the worker
 * sent and its rows and the table after it are compared with what the
 * rule demands.  Then seeded schedules of three processes (A, A
 * restarted, B) whose claims (the recipe's statement, with claim_ids from
 * the seed) all lose their replies, recovering with the learner's
 * statement, with the recipe's complete, fail and cancel and a moving
 * clock; before each recovery the table is read and the rows returned
 * are compared with the rules applied to that row.
 *
 * The statement gets :task_id, :claim_id and :owner (the worker's name)
 * and must return the columns claim_version and lease_until (attempt when
 * it likes) of the claim it found; no row means "not mine to resume".
 * It runs on its own, outside any transaction of this adapter.
 */
#include "exercise.h"
#include "sqlex.h"
#include "taskspec.h"
#include "base/wb.h"
#include "checkers/history.h"
#include "harness/report.h"
#include "recipes/tasktable.h"
#include "tasks/task-lost-reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW	  5000000LL
#define XLEASE	  3000LL /* leases of the exploration */
#define SCHEDULES 40

static const struct spec_rule rules[] = {
	{"recover-finds-current",
	 N_("while the claim :claim_id made is the current one (RUNNING, lease_until > now), "
	    "recover returns exactly one row with its claim_version and lease_until (and attempt, "
	    "when returned) and changes nothing")},
	{"recover-by-claim-id",
	 N_("a claim that never applied, or was taken over (by another worker or by a restarted "
	    "process under the same name), is not found: no row, nothing changed")},
	{"recover-needs-live-lease",
	 N_("the claim whose lease has ended (lease_until <= now), even with nobody taking over, "
	    "is not found: no row")},
	{"recover-needs-running",
	 N_("the claim whose task is no longer RUNNING (completed, failed back to READY, "
	    "cancelled, failed for good) is not found: no row")},
};

enum { R_FINDS, R_BY_ID, R_LIVE, R_RUNNING, R_N };

static void recover_params(struct sqlfile_param p[3], const char *task_id, const char *claim_id,
			   const char *owner)
{
	p[0] = (struct sqlfile_param){":task_id", SQLFILE_TEXT, 0, task_id, 0};
	p[1] = (struct sqlfile_param){":claim_id", SQLFILE_TEXT, 0, claim_id, 0};
	p[2] = (struct sqlfile_param){":owner", SQLFILE_TEXT, 0, owner, 0};
}

/* --- the rules applied to one row --------------------------------------- */

/* The rule that says claim cid of task in pre is not to be found at now,
 * or -1 when it is the current claim. */
static int refusal(const struct ts_snap *pre, const char *task, const char *cid, long long now)
{
	const char *c = taskspec_get(pre, task, "claim_id");
	const char *state = taskspec_get(pre, task, "state");
	if (!c || !state || strcmp(c, cid))
		return R_BY_ID;
	if (strcmp(state, "RUNNING"))
		return R_RUNNING;
	if (taskspec_geti(pre, task, "lease_until") <= now)
		return R_LIVE;
	return -1;
}

/* Column col of o's first row: its text, or NULL when there is none. */
static const char *col_of(const struct ts_out *o, const char *col)
{
	for (int i = 0; o->o.rows && i < o->o.ncol; i++)
		if (!strcmp(o->o.col[i], col))
			return o->o.null[i] ? "NULL" : o->o.text[i];
	return NULL;
}

struct finding {
	int judged, ok;
	char obs[400];
};

/* Judges one recovery of cid for task, whose table before was pre and
 * whose outcome is o, into f[R_N]. */
static void verdict(const struct taskspec *ts, const struct ts_snap *pre, const struct ts_out *o,
		    const char *task, const char *cid, struct finding f[R_N])
{
	char d[300] = "", out[200];
	memset(f, 0, sizeof(struct finding) * R_N);
	int changed = taskspec_diff(ts, pre, &o->after, NULL, NULL, d, sizeof d) > 0;
	int r = refusal(pre, task, cid, ts->now);
	if (r >= 0) {
		f[r].judged = 1;
		f[r].ok = !o->failed && o->o.rows == 0 && !changed && o->changes == 0;
		if (!f[r].ok)
			snprintf(f[r].obs, sizeof f[r].obs, "%s%s%s (want no row, nothing changed)",
				 taskspec_outcome(o, 1, out, sizeof out), changed ? ": " : "", d);
		return;
	}
	f[R_FINDS].judged = 1;
	if (o->failed || o->o.rows != 1 || changed || o->changes) {
		snprintf(f[R_FINDS].obs, sizeof f[R_FINDS].obs,
			 "%s%s%s (want 1 row returned, nothing changed)",
			 taskspec_outcome(o, 1, out, sizeof out), changed ? ": " : "", d);
		return;
	}
	static const char *const want[] = {"claim_version", "lease_until", "attempt"};
	size_t off = 0;
	for (int k = 0; k < 3; k++) {
		const char *got = col_of(o, want[k]);
		const char *is = taskspec_get(pre, task, want[k]);
		if (!got && k == 2)
			continue; /* attempt is optional */
		if (got && is && !strcmp(got, is))
			continue;
		int w = snprintf(f[R_FINDS].obs + off, sizeof f[R_FINDS].obs - off,
				 "%s%s %s (want %s)", off ? "; " : "returned ", want[k],
				 got ? got : "missing", is ? is : "?");
		if (w > 0 && (size_t)w < sizeof f[R_FINDS].obs - off)
			off += (size_t)w;
	}
	f[R_FINDS].ok = off == 0;
}

static int recover_once(struct taskspec *ts, const char *task, const char *cid, const char *owner,
			struct finding f[R_N], struct ts_out *o)
{
	struct ts_snap pre;
	struct sqlfile_param p[3];
	recover_params(p, task, cid, owner);
	int rc = taskspec_snap(ts, &pre);
	if (!rc)
		rc = taskspec_run(ts, "recover", p, 3, 0, o);
	if (!rc)
		verdict(ts, &pre, o, task, cid, f);
	return rc;
}

/* --- staged situations --------------------------------------------------- */

#define MINE   "5eed5eed5eed5eed5eed5eed5eed5eed" /* the claim_id A sent */
#define THEIRS "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
#define LATER  "a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2" /* A restarted */
/* T1 as a claim cid_ by owner_ (version v_) left it; more fields follow. */
#define ROW(state_, owner_, cid_, v_, lease_, ...)                                                 \
	{                                                                                          \
		.task_id = "T1", .state = (state_), .due = NOW - 90000, .owner = (owner_),         \
		.claim_id = (cid_), .version = (v_), .attempt = (v_), .lease_until = (lease_),     \
		.claimed_at = NOW - 20000, __VA_ARGS__                                             \
	}

struct sit {
	const char *name;
	struct ts_row r;
};

static const struct sit staged[] = {
	/* current */
	{"the lost claim applied (version 1), lease ends in 10 s",
	 ROW("RUNNING", "A", MINE, 1, NOW + 10000, .finished_at = TS_NULL)},
	{"the lost claim was a takeover (version 3)",
	 ROW("RUNNING", "A", MINE, 3, NOW + 10000, .finished_at = TS_NULL)},
	{"the lost claim's lease ends 1 ms from now",
	 ROW("RUNNING", "A", MINE, 1, NOW + 1, .finished_at = TS_NULL)},
	{"the lost claim applied, a cancel requested since",
	 ROW("RUNNING", "A", MINE, 1, NOW + 10000, .finished_at = TS_NULL, .cancel = 1)},
	/* never applied, or taken over */
	{"the claim never applied: T1 untouched",
	 {.task_id = "T1",
	  .state = "READY",
	  .due = NOW - 90000,
	  .lease_until = TS_NULL,
	  .claimed_at = TS_NULL,
	  .finished_at = TS_NULL}},
	{"the claim never applied: B holds T1",
	 ROW("RUNNING", "B", THEIRS, 1, NOW + 10000, .finished_at = TS_NULL)},
	{"taken over by B after A's lease ended (version 2)",
	 ROW("RUNNING", "B", THEIRS, 2, NOW + 10000, .finished_at = TS_NULL)},
	{"taken over by A restarted, same name (version 2)",
	 ROW("RUNNING", "A", LATER, 2, NOW + 10000, .finished_at = TS_NULL)},
	/* the lease ended */
	{"the lost claim's lease ended 1 ms ago, nobody took over",
	 ROW("RUNNING", "A", MINE, 1, NOW - 1, .finished_at = TS_NULL)},
	{"the lost claim's lease ends exactly now",
	 ROW("RUNNING", "A", MINE, 1, NOW, .finished_at = TS_NULL)},
	/* no longer RUNNING */
	{"the claim's task was completed (SUCCEEDED)",
	 ROW("SUCCEEDED", "A", MINE, 1, TS_NULL, .finished_at = NOW - 100)},
	/* A statement that left lease_until behind (the lesson's shortened
	 * complete does): the state still decides. */
	{"the claim's task was completed, its lease_until left behind",
	 ROW("SUCCEEDED", "A", MINE, 1, NOW + 10000, .finished_at = NOW - 100)},
	{"the claim's task was cancelled, its lease_until left behind",
	 ROW("CANCELLED", "A", MINE, 1, NOW + 10000, .finished_at = NOW - 100, .cancel = 1)},
	{"the claim's attempt failed, READY again",
	 ROW("READY", "A", MINE, 1, TS_NULL, .finished_at = TS_NULL, .last_error = "boom")},
	{"the claim's task was stopped after a cancel (CANCELLED)",
	 ROW("CANCELLED", "A", MINE, 1, TS_NULL, .finished_at = NOW - 100, .cancel = 1)},
	{"the sweep failed the claim's task for good (FAILED)",
	 ROW("FAILED", "A", MINE, 3, TS_NULL, .finished_at = NOW - 100, .max_attempts = 3)},
};

static int situations(struct taskspec *ts)
{
	report_step(ts->ctx->report,
		    "The rules: your recovery in %d staged situations, then %d seeded schedules "
		    "of three processes whose claims all lose their replies",
		    (int)WB_ARRAY_LEN(staged), SCHEDULES);
	for (size_t i = 0; i < WB_ARRAY_LEN(staged); i++) {
		struct finding f[R_N];
		struct ts_out o;
		int rc = taskspec_stage(ts, NOW, &staged[i].r, 1);
		if (!rc)
			rc = recover_once(ts, "T1", MINE, "A", f, &o);
		if (rc)
			return rc;
		for (int k = 0; k < R_N; k++)
			if (f[k].judged)
				spec_judge(&ts->sp, rules[k].id, staged[i].name, f[k].ok, "%s",
					   f[k].obs);
	}
	return 0;
}

/* --- exploration --------------------------------------------------------- */

enum {
	X_CLAIM_A1,
	X_CLAIM_A2,
	X_CLAIM_B,
	X_RECOVER_A1,
	X_RECOVER_A2,
	X_RECOVER_B,
	X_COMPLETE,
	X_FAIL,
	X_CANCEL,
	X_TICK,
	X_EXPIRE,
	X_KINDS
};
static const char *const op_names[] = {"claim-A1",   "claim-A2",  "claim-B",  "recover-A1",
				       "recover-A2", "recover-B", "complete", "fail",
				       "cancel",     "tick",	  "expire"};
static const char *const procs[] = {"A1", "A2", "B"};
static const int priority[] = {R_FINDS, R_BY_ID, R_LIVE, R_RUNNING};

struct xstate {
	struct taskspec *ts;
	char ids[SPEC_MAX_OPS + 3][33];
};

static int run_schedule(void *arg, const unsigned char *ops, int n, int record, char *why,
			size_t whylen)
{
	struct xstate *x = arg;
	struct taskspec *ts = x->ts;
	struct report *r = ts->ctx->report;
	/* The claim_id each process sent last; before any, one never sent. */
	const char *sent[3] = {x->ids[SPEC_MAX_OPS], x->ids[SPEC_MAX_OPS + 1],
			       x->ids[SPEC_MAX_OPS + 2]};
	const struct ts_row start = {.task_id = "T1",
				     .state = "READY",
				     .due = NOW,
				     .lease_until = TS_NULL,
				     .claimed_at = TS_NULL,
				     .finished_at = TS_NULL,
				     .backoff_ms = 500,
				     .backoff_max_ms = 2000};
	int rc = taskspec_stage(ts, NOW, &start, 1);
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
			sent[p] = x->ids[i];
			if (record)
				idx = report_invoke(r, procs[p], "claim", sent[p]);
			int e = taskspec_ref_claim(ts, "T1", p == 2 ? "B" : "A", sent[p], XLEASE,
						   &c);
			if (e && e != TASK_ELOST) {
				rc = e;
				break;
			}
			if (record) /* the reply is lost */
				report_complete(r, idx, HIST_INFO, NULL);
			continue;
		}
		if (op >= X_COMPLETE) {
			struct ts_snap pre;
			if ((rc = taskspec_snap(ts, &pre)) != 0)
				break;
			struct task_claim c;
			taskspec_claim_of(&pre, "T1", &c);
			if (record)
				idx = report_invoke(r, op == X_CANCEL ? "operator" : "holder",
						    op_names[op], "T1");
			int e = TASK_ELOST;
			if (op == X_CANCEL) {
				struct task_cancel cc;
				e = tasktable_cancel(ts->tt, "T1", &cc);
			} else if (c.owner[0] && c.version > 0) {
				e = op == X_COMPLETE
					    ? tasktable_complete(ts->tt, &c)
					    : tasktable_fail(ts->tt, &c, "boom", NULL, NULL);
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
		int p = op - X_RECOVER_A1;
		if (record)
			idx = report_invoke(r, procs[p], "recover", sent[p]);
		struct finding f[R_N];
		struct ts_out o;
		if ((rc = recover_once(ts, "T1", sent[p], p == 2 ? "B" : "A", f, &o)) != 0)
			break;
		if (record)
			report_complete(r, idx,
					o.failed   ? HIST_INFO
					: o.o.rows ? HIST_OK
						   : HIST_FAIL,
					o.failed ? o.err : NULL);
		for (size_t k = 0; k < WB_ARRAY_LEN(priority); k++) {
			const struct finding *g = &f[priority[k]];
			if (!g->judged || g->ok)
				continue;
			snprintf(why, whylen, "op %d, recovery by %s at now+%lld: %s", i + 1,
				 procs[p], ts->now - NOW, g->obs);
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
	for (int k = 0; k < SPEC_MAX_OPS + 3; k++)
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

static int learner_recover(void *arg, struct tasktable *tt, const char *task_id,
			   const char *claim_id, const char *owner, struct task_claim *out,
			   char *err, size_t errlen)
{
	const struct sqlfile *f = arg;
	struct sqlfile_param p[3];
	struct sqlex_out o;
	memset(out, 0, sizeof *out);
	recover_params(p, task_id, claim_id, owner);
	int rc = sqlex_exec(tasktable_db(tt), f, "recover", p, 3, &o, err, errlen);
	if (rc)
		return rc;
	if (o.rows == 0)
		return TASK_ELOST;
	if (o.rows > 1) {
		snprintf(err, errlen, "recover: %d rows for one claim", o.rows);
		return WB_EINVAL;
	}
	if (sqlex_int(&o, "claim_version", &out->version) != 0 ||
	    sqlex_int(&o, "lease_until", &out->lease_until) != 0) {
		snprintf(err, errlen,
			 "recover: the row has no column claim_version or lease_until");
		return WB_EINVAL;
	}
	(void)sqlex_int(&o, "attempt", &out->attempt);
	snprintf(out->task_id, sizeof out->task_id, "%s", task_id);
	snprintf(out->owner, sizeof out->owner, "%s", owner);
	snprintf(out->claim_id, sizeof out->claim_id, "%s", claim_id);
	out->outcome = TASK_OUTCOME_WON;
	return 0;
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	static const char *const names[] = {"recover", NULL};
	struct sqlfile_param p[3];
	recover_params(p, "T1", "00000000000000000000000000000000", "w");
	struct sqlfile *f = NULL;
	int rc = sqlex_load_data(ctx, code, "tasks.sql", names, p, 3, &f);
	if (rc)
		return rc == WB_EINVAL ? LAB_RAN : LAB_CANNOT_RUN;
	report_conclusion(ctx->report,
			  "Your recovery found the lost claim by the claim_id the worker had sent "
			  "and finished the task with it, and found nothing once a restarted "
			  "process under the same name had taken the task over.");
	rc = rules_check(ctx, code, f);
	if (rc == 0) {
		report_step(ctx->report, "The story: the task-lost-reply lab with your recovery");
		struct task_recover_impl impl = {learner_recover, f};
		rc = task_lost_reply_scenario(ctx, &impl);
	}
	sqlfile_free(f);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_task_recover_claim = check;
