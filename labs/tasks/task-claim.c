/*
 * task-claim.c - the lab "task-claim": N worker processes claim the same
 * due tasks from one SQLite file at once, and only one conditional UPDATE
 * wins each claim (chapter 01, "Claim").
 *
 * Shape of the run (db clock fixed, leases 30 units):
 *   phase 0  the control: every worker reads task "naive" as READY, then,
 *            released together, writes RUNNING with an UPDATE that checks
 *            nothing.  Every one of them changes a row: N "holders".
 *   phase 1  clock 100: every worker holds the same candidate list (all
 *            tasks due), is released together and runs the recipe's claim
 *            on each candidate in the same order.  A winner completes its
 *            task, except every fourth task, where it "stalls" and keeps
 *            the claim without completing.
 *   phase 2  clock 131, the stalled leases (to 130) have expired: each
 *            stalled holder wakes and tries to complete (must change 0
 *            rows), then all workers race again over every task id; the
 *            winners of the expired tasks complete them.
 * Workers append what they were told to their own history file; the
 * parent judges only from those files and the final table.  The claim
 * itself is a parameter (task-claim.h): the lab passes the recipe's, the
 * exercise "task-claim" the learner's statement.  Each worker's own clock
 * reads ahead of the database's by a different amount, and a claim is
 * handed it, so a claim that trusts a worker's clock shows in the leases.
 *
 * Barriers are pipes: a worker writes one byte when it is ready and blocks
 * reading a "go" pipe until the parent closes its write end, so all
 * workers start each phase together.  Nothing sleeps to make a race
 * happen.  Each worker is forked, recorded with proc_record, killed with
 * its parent (PDEATHSIG) and reaped here.  It does not measure speed: see
 * bench/task_claim.c.
 */
#include "base/spawn.h"
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/report.h"
#include "base/sqlitex.h"
#include "lab.h"
#include "recipes/tasktable.h"
#include "tasks/task-claim.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORKERS	    8 /* 2..8 */
#define TASKS	    64
#define LEASE	    30
#define PHASES	    3
#define WORKER_SKEW 10	  /* worker w+1's clock reads (w+1) * this ahead */
#define WAIT_MS	    30000 /* a worker that takes longer is broken, not slow */

/* What the parent shares with its workers (set before fork). */
struct run {
	const char *run_dir;
	char *db_path;	  /* the task table */
	char *naive_path; /* the control's own database */
	int ready[2];	  /* workers write one byte per phase */
	int go[PHASES][2];
	const struct task_claim_impl *impl; /* the claim under test */
};

static void task_name(char *buf, size_t n, int i)
{
	snprintf(buf, n, "T%03d", i);
}

/* ---- the worker process ---------------------------------------------- */

/* Signals ready, then blocks until the parent closes go[phase]. */
static int barrier(struct run *run, int phase)
{
	char b = 'r';
	if (write(run->ready[1], &b, 1) != 1)
		return -1;
	for (;;) {
		ssize_t n = read(run->go[phase][0], &b, 1);
		if (n == 0)
			return 0; /* closed: go */
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

/* The control's read-then-write "claim".  Returns 0 and *rows. */
static int naive_claim(sqlite3 *db, const char *owner, int phase_ok, struct run *run, int *rows)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlitex_prepare(db, "SELECT state FROM task WHERE task_id = 'naive'", &st);
	int ready = 0;
	if (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
		ready = !strcmp((const char *)sqlite3_column_text(st, 0), "READY");
	sqlite3_finalize(st);
	if (rc || !ready || !phase_ok)
		return -1;
	if (barrier(run, 0) != 0) /* everyone has read READY */
		return -1;
	rc = sqlitex_prepare(db,
			     "UPDATE task SET state = 'RUNNING', owner = ?1, claim_id = ?1,"
			     " claim_version = claim_version + 1, attempt = attempt + 1,"
			     " lease_until = 130 WHERE task_id = 'naive'",
			     &st);
	if (rc)
		return -1;
	sqlite3_bind_text(st, 1, owner, -1, SQLITE_TRANSIENT);
	int s = sqlite3_step(st);
	*rows = s == SQLITE_DONE ? sqlite3_changes(db) : -1;
	sqlite3_finalize(st);
	return s == SQLITE_DONE ? 0 : -1;
}

/* Tries every task in order; logs W (won), C (completed) and counts
 * losses.  stall: leave every fourth won task without completing it. */
static int race(struct run *run, struct tasktable *tt, FILE *log, const char *owner, int w,
		int phase, int stall, struct task_claim *stalled, int *nstalled)
{
	int bad = 0, lost = 0;
	long long now = 0;
	for (int i = 0; i < TASKS; i++) {
		char id[16], err[256] = "";
		task_name(id, sizeof id, i);
		struct task_claim c;
		/* Every worker's own clock reads ahead of the database's by a
		 * different amount; a claim judged by it would show. */
		if (tasktable_now(tt, &now) != 0)
			now = 0;
		int rc = run->impl->claim(run->impl->arg, tt, id, owner, LEASE,
					  now + WORKER_SKEW * (w + 1), &c, err, sizeof err);
		if (rc == TASK_ELOST) {
			lost++;
			continue;
		}
		if (rc != 0) {
			fprintf(log, "E claim %s %d %s\n", id, rc, err);
			bad = 1;
			continue;
		}
		fprintf(log, "W %s %lld %lld %lld %lld %s %d\n", id, c.version, c.attempt,
			c.claimed_at, c.lease_until, c.claim_id, phase);
		if (stall && i % 4 == 0) {
			stalled[(*nstalled)++] = c;
			continue;
		}
		rc = tasktable_complete(tt, &c);
		fprintf(log, "C %s %lld %d\n", id, c.version, rc);
		if (rc != 0)
			bad = 1;
	}
	fprintf(log, "L %d %d\n", phase, lost);
	return bad;
}

static int worker_main(struct run *run, int w)
{
	char owner[16], path[512];
	snprintf(owner, sizeof owner, "w%d", w + 1);
	snprintf(path, sizeof path, "%s/history-%d.txt", run->run_dir, w + 1);
	FILE *log = fopen(path, "w");
	if (!log)
		return 3;
	setvbuf(log, NULL, _IOLBF, 0);
	int bad = 0;

	/* Phase 0: the control. */
	sqlite3 *ndb = NULL;
	int rows = -1;
	int ok = sqlitex_open(run->naive_path, NULL, &ndb, NULL, 0) == 0;
	if (naive_claim(ndb, owner, ok, run, &rows) != 0)
		return 3;
	sqlite3_close_v2(ndb);
	fprintf(log, "N %d\n", rows);

	/* Phase 1: the recipe, same candidates for everyone. */
	struct tasktable *tt = NULL;
	char err[256];
	if (tasktable_open(run->db_path, NULL, NULL, &tt, err, sizeof err) != 0) {
		fprintf(log, "E open - 0 %s\n", err);
		return 3;
	}
	char ids[TASKS][TASK_ID_MAX];
	int n = 0;
	if (tasktable_due(tt, ids, TASKS, &n) != 0 || n != TASKS) {
		fprintf(log, "E due - %d %s\n", n, tasktable_errmsg(tt));
		return 3;
	}
	struct task_claim stalled[TASKS];
	int nstalled = 0;
	if (barrier(run, 1) != 0)
		return 3;
	bad |= race(run, tt, log, owner, w, 1, 1, stalled, &nstalled);

	/* Phase 2: the stalled holders wake late; everyone races again. */
	if (barrier(run, 2) != 0)
		return 3;
	for (int i = 0; i < nstalled; i++) {
		int rc = tasktable_complete(tt, &stalled[i]);
		fprintf(log, "S %s %lld %d\n", stalled[i].task_id, stalled[i].version, rc);
		if (rc != 0 && rc != TASK_ELOST)
			bad = 1;
	}
	bad |= race(run, tt, log, owner, w, 2, 0, stalled, &nstalled);
	tasktable_close(tt);
	fclose(log);
	return bad ? 1 : 0;
}

/* ---- the parent ------------------------------------------------------ */

/* Waits for n ready bytes, WAIT_MS at most.  0 or -1. */
static int wait_ready(struct run *run, int n)
{
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (n > 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		long left = WAIT_MS - ((now.tv_sec - start.tv_sec) * 1000 +
				       (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			return -1;
		struct pollfd p = {.fd = run->ready[0], .events = POLLIN};
		int r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		char buf[WORKERS];
		ssize_t got =
			read(run->ready[0], buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf);
		if (got <= 0)
			return -1; /* every worker is gone */
		n -= (int)got;
	}
	return 0;
}

static void release(struct run *run, int phase)
{
	close(run->go[phase][1]);
	run->go[phase][1] = -1;
}

/* One claim as the history records it. */
struct win {
	char task[16];
	long long version, attempt, claimed_at, lease_until;
	char claim_id[TASK_CLAIM_ID_LEN];
	int phase, worker;
};

struct history {
	struct win wins[TASKS * 4];
	int nwins;
	int completes_ok[TASKS]; /* completions that changed 1 row, per task */
	int late_total, late_rows0, late_other;
	int naive_rows[WORKERS];
	int lost[PHASES];
	int errors;
	char first_error[200];
};

static int task_index(const char *id)
{
	int i = -1;
	if (sscanf(id, "T%d", &i) != 1 || i < 0 || i >= TASKS)
		return -1;
	return i;
}

static int read_history(struct lab_ctx *ctx, struct history *h)
{
	for (int w = 0; w < WORKERS; w++) {
		h->naive_rows[w] = -1;
		char *path = wb_xasprintf("%s/history-%d.txt", ctx->run_dir, w + 1);
		FILE *f = fopen(path, "r");
		free(path);
		if (!f)
			return -1;
		char line[512];
		while (fgets(line, sizeof line, f)) {
			struct win x = {.worker = w + 1};
			char id[16];
			long long v;
			int rc, a, b;
			if (line[0] == 'W' && h->nwins < (int)WB_ARRAY_LEN(h->wins) &&
			    sscanf(line, "W %15s %lld %lld %lld %lld %32s %d", x.task, &x.version,
				   &x.attempt, &x.claimed_at, &x.lease_until, x.claim_id,
				   &x.phase) == 7) {
				h->wins[h->nwins++] = x;
			} else if (sscanf(line, "C %15s %lld %d", id, &v, &rc) == 3) {
				int i = task_index(id);
				if (i >= 0 && rc == 0)
					h->completes_ok[i]++;
			} else if (sscanf(line, "S %15s %lld %d", id, &v, &rc) == 3) {
				h->late_total++;
				if (rc == TASK_ELOST)
					h->late_rows0++;
				else
					h->late_other++;
			} else if (sscanf(line, "N %d", &a) == 1) {
				h->naive_rows[w] = a;
			} else if (sscanf(line, "L %d %d", &a, &b) == 2 && a >= 0 && a < PHASES) {
				h->lost[a] += b;
			} else if (line[0] == 'E') {
				if (!h->errors++)
					snprintf(h->first_error, sizeof h->first_error,
						 "w%d: %.150s", w + 1, line);
			}
		}
		fclose(f);
	}
	return 0;
}

static int by_task_version(const void *a, const void *b)
{
	const struct win *x = a, *y = b;
	int c = strcmp(x->task, y->task);
	if (c)
		return c;
	return x->version < y->version ? -1 : x->version > y->version;
}

static int spawn_workers(struct lab_ctx *ctx, struct run *run, pid_t *pids)
{
	struct spawn_opts so = {.death_signal = SIGKILL, .out_fd = -1};
	for (int w = 0; w < WORKERS; w++) {
		pid_t pid;
		if (spawn_fork(&so, &pid) != 0)
			return -1;
		if (pid == 0) {
			/* Keep only what a worker uses, so EOF on go arrives. */
			close(run->ready[0]);
			for (int p = 0; p < PHASES; p++)
				close(run->go[p][1]);
			_exit(worker_main(run, w));
		}
		pids[w] = pid;
		proc_record(ctx->run_dir, pid);
	}
	close(run->ready[1]);
	run->ready[1] = -1;
	return 0;
}

static int setup(struct lab_ctx *ctx, struct run *run)
{
	struct report *r = ctx->report;
	char err[256];
	struct tasktable *tt = NULL;
	char schema[LAB_PATH_MAX];
	int rc =
		tasktable_open(run->db_path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema),
			       NULL, &tt, err, sizeof err);
	if (rc) {
		report_cannot(r, "task table: %s", err);
		return rc;
	}
	rc = tasktable_clock_set(tt, 100);
	for (int i = 0; rc == 0 && i < TASKS; i++) {
		char id[16];
		task_name(id, sizeof id, i);
		rc = tasktable_add(tt, id, 100, NULL);
	}
	if (rc)
		report_cannot(r, "task table set-up: %s", tasktable_errmsg(tt));
	tasktable_close(tt);
	if (rc)
		return rc;
	/* The control's database: the same schema, one task. */
	rc = tasktable_open(run->naive_path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema),
			    NULL, &tt, err, sizeof err);
	if (rc == 0)
		rc = tasktable_add(tt, "naive", 100, NULL);
	if (rc)
		report_cannot(r, "control database: %s", tt ? tasktable_errmsg(tt) : err);
	tasktable_close(tt);
	return rc;
}

static int set_clock(struct lab_ctx *ctx, struct run *run, long long t)
{
	struct tasktable *tt = NULL;
	char err[256];
	char schema[LAB_PATH_MAX];
	int rc =
		tasktable_open(run->db_path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema),
			       NULL, &tt, err, sizeof err);
	if (rc == 0)
		rc = tasktable_clock_set(tt, t);
	if (rc)
		report_cannot(ctx->report, "clock: %s", tt ? tasktable_errmsg(tt) : err);
	tasktable_close(tt);
	return rc;
}

/* Every lease is measured from the database's time of its claim, never
 * from the claiming worker's own (skewed) clock. */
static void check_lease_clock(struct report *r, const struct history *h)
{
	int skewed = 0;
	char skewed_at[96] = "";
	for (int i = 0; i < h->nwins; i++) {
		const struct win *x = &h->wins[i];
		if (x->lease_until != x->claimed_at + LEASE && !skewed++)
			snprintf(skewed_at, sizeof skewed_at,
				 "%s v%lld by w%d: claimed at %lld, lease_until %lld", x->task,
				 x->version, x->worker, x->claimed_at, x->lease_until);
	}
	report_checkf(r, "leases-from-db-clock", skewed == 0 && h->nwins > 0,
		      "every lease ends at the database's time of the claim + 30; the workers' "
		      "own clocks, which disagree, play no part",
		      "%d of %d claims with another lease_until%s%s", skewed, h->nwins,
		      skewed ? ": " : "", skewed_at);
}

/* Checks the history and the final table. */
static void judge(struct lab_ctx *ctx, struct run *run, struct history *h)
{
	struct report *r = ctx->report;
	int naive_holders = 0;
	for (int w = 0; w < WORKERS; w++)
		naive_holders += h->naive_rows[w] == 1;
	char want[256];
	snprintf(want, sizeof want,
		 "the control fails: all %d workers read READY, then each UPDATE without a "
		 "condition changes 1 row, so %d workers believe they hold \"naive\"",
		 WORKERS, WORKERS);
	report_checkf(r, "control-read-then-write-has-many-holders", naive_holders == WORKERS, want,
		      "%d of %d workers changed 1 row", naive_holders, WORKERS);

	report_checkf(r, "no-errors", h->errors == 0,
		      "every claim returned one row (won) or zero rows (lost), nothing else",
		      "%d unexpected results%s%s", h->errors, h->errors ? "; first: " : "",
		      h->first_error);

	qsort(h->wins, (size_t)h->nwins, sizeof h->wins[0], by_task_version);
	int dup = 0, gaps = 0, overlap = 0, p1 = 0, p2 = 0;
	char dup_at[64] = "", overlap_at[96] = "";
	for (int i = 0; i < h->nwins; i++) {
		const struct win *x = &h->wins[i];
		p1 += x->phase == 1;
		p2 += x->phase == 2;
		int first = i == 0 || strcmp(h->wins[i - 1].task, x->task);
		if (first) {
			gaps += x->version != 1;
			continue;
		}
		const struct win *prev = &h->wins[i - 1];
		if (prev->version == x->version) {
			if (!dup++)
				snprintf(dup_at, sizeof dup_at, "%s v%lld: w%d and w%d", x->task,
					 x->version, prev->worker, x->worker);
		} else if (x->version != prev->version + 1) {
			gaps++;
		}
		/* A new holder only once the previous lease has ended. */
		if (x->claimed_at < prev->lease_until && !overlap++)
			snprintf(overlap_at, sizeof overlap_at,
				 "%s: w%d from %lld while w%d held to %lld", x->task, x->worker,
				 x->claimed_at, prev->worker, prev->lease_until);
	}
	report_evidence(r, "wins", "phase 1: %d claims won, %d lost; phase 2: %d won, %d lost", p1,
			h->lost[1], p2, h->lost[2]);
	/* Who won what: with one write lock the order is the lock's, not ours. */
	char per[128] = "";
	for (int w = 0; w < WORKERS; w++) {
		int n = 0;
		for (int i = 0; i < h->nwins; i++)
			n += h->wins[i].worker == w + 1;
		size_t len = strlen(per);
		snprintf(per + len, sizeof per - len, "%sw%d %d", w ? ", " : "", w + 1, n);
	}
	report_evidence(r, "wins_per_worker", "%s", per);
	report_checkf(r, "one-holder-per-version", dup == 0 && h->nwins > 0,
		      "for every task and claim_version, exactly one worker was told it won",
		      "%d claims recorded, %d with a second holder%s%s", h->nwins, dup,
		      dup ? ": " : "", dup_at);
	report_checkf(r, "leases-never-overlap", overlap == 0,
		      "a task's next claim starts no earlier than the previous lease_until",
		      "%d overlapping leases%s%s", overlap, overlap ? ": " : "", overlap_at);
	check_lease_clock(r, h);
	report_checkf(r, "versions-consecutive", gaps == 0,
		      "each task's recorded versions are 1, 2, ... with no gap",
		      "%d gaps or missing first versions", gaps);
	int stalled = (TASKS + 3) / 4;
	snprintf(want, sizeof want,
		 "phase 1: %d wins for %d tasks; the other %d x %d attempts changed 0 rows", TASKS,
		 TASKS, WORKERS - 1, TASKS);
	report_checkf(r, "phase1-every-task-once",
		      p1 == TASKS && h->lost[1] == (WORKERS - 1) * TASKS, want,
		      "%d wins, %d zero-row claims", p1, h->lost[1]);
	snprintf(want, sizeof want,
		 "the %d stalled holders wake after their leases ended (clock 131 > 130): "
		 "each complete changes 0 rows",
		 stalled);
	report_checkf(r, "late-complete-zero-rows",
		      h->late_total == stalled && h->late_rows0 == stalled, want,
		      "%d late completes, %d changed 0 rows, %d other", h->late_total,
		      h->late_rows0, h->late_other);
	snprintf(want, sizeof want,
		 "phase 2: exactly the %d expired tasks are taken over, once each", stalled);
	report_checkf(r, "phase2-takeovers", p2 == stalled, want,
		      "%d takeovers, %d zero-row claims", p2, h->lost[2]);

	/* The final table agrees with the history. */
	struct tasktable *tt = NULL;
	int succeeded = 0, version_match = 0, completed_once = 0;
	char schema[LAB_PATH_MAX];
	if (tasktable_open(run->db_path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema),
			   NULL, &tt, NULL, 0) == 0) {
		for (int i = 0; i < TASKS; i++) {
			char id[16];
			task_name(id, sizeof id, i);
			struct task_row row;
			if (tasktable_get(tt, id, &row) != 0)
				continue;
			succeeded += row.state == TASK_SUCCEEDED;
			long long expect = i % 4 == 0 ? 2 : 1;
			version_match += row.claim_version == expect && row.attempt == expect;
			completed_once += h->completes_ok[i] == 1;
		}
		tasktable_close(tt);
	}
	report_checkf(r, "table-agrees",
		      succeeded == TASKS && version_match == TASKS && completed_once == TASKS,
		      "every task SUCCEEDED and completed exactly once; claim_version and attempt "
		      "are 2 for the tasks taken over and 1 for the rest",
		      "%d SUCCEEDED, %d with the expected version and attempt, %d completed once",
		      succeeded, version_match, completed_once);
}

int task_claim_scenario(struct lab_ctx *ctx, const struct task_claim_impl *impl)
{
	struct report *r = ctx->report;
	struct run run = {.run_dir = ctx->run_dir, .impl = impl};
	pid_t pids[WORKERS] = {0};
	int rc = 0, started = 0;
	run.ready[0] = run.ready[1] = -1;
	for (int p = 0; p < PHASES; p++)
		run.go[p][0] = run.go[p][1] = -1;
	run.db_path = wb_xasprintf("%s/tasks.db", ctx->run_dir);
	run.naive_path = wb_xasprintf("%s/naive.db", ctx->run_dir);

	report_step(r, "create %s: %d tasks due at 100, clock fixed at 100, leases of %d",
		    run.db_path, TASKS, LEASE);
	rc = setup(ctx, &run);
	if (rc)
		goto out;
	int pipes_ok = pipe(run.ready) == 0;
	for (int p = 0; p < PHASES; p++)
		pipes_ok = pipes_ok && pipe(run.go[p]) == 0;
	if (!pipes_ok) {
		report_cannot(r, "pipe: %s", strerror(errno));
		rc = WB_EIO;
		goto out;
	}
	report_step(r, "fork %d worker processes, each with its own connection", WORKERS);
	if (spawn_workers(ctx, &run, pids) != 0) {
		report_cannot(r, "fork: %s", strerror(errno));
		rc = WB_EIO;
		goto out;
	}
	started = 1;

	report_step(r, "control: every worker reads \"naive\" as READY and waits at the barrier");
	if (wait_ready(&run, WORKERS) != 0)
		goto broken;
	report_step(r, "release: each runs UPDATE ... SET state='RUNNING' WHERE task_id='naive'"
		       " (no state condition)");
	release(&run, 0);

	if (wait_ready(&run, WORKERS) != 0)
		goto broken;
	report_step(r,
		    "all %d workers hold the same %d-task candidate list; release them "
		    "together into the recipe's conditional claim",
		    WORKERS, TASKS);
	release(&run, 1);

	if (wait_ready(&run, WORKERS) != 0)
		goto broken;
	report_step(r, "phase 1 done (winners completed, every fourth winner stalls); set the "
		       "clock to 131, past the stalled leases");
	if (set_clock(ctx, &run, 131) != 0) {
		rc = WB_EIO;
		goto out;
	}
	report_step(r, "release: stalled holders try to complete late, everyone races again");
	release(&run, 2);

	int clean = 0;
	for (int w = 0; w < WORKERS; w++) {
		int status = 0;
		if (waitpid(pids[w], &status, 0) == pids[w] && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			clean++;
		pids[w] = 0;
	}
	started = 0;
	report_evidence(r, "workers", "%d processes, %d exited cleanly", WORKERS, clean);

	struct history *h = wb_xcalloc(1, sizeof *h);
	if (read_history(ctx, h) != 0) {
		report_cannot(r, "a worker left no history file");
		rc = WB_EIO;
	} else {
		judge(ctx, &run, h);
	}
	free(h);
	goto out;

broken:
	report_check(r, "workers-reach-barrier", 0, "every worker reaches each barrier",
		     "a worker died or hung before the barrier");
out:
	if (started) {
		for (int w = 0; w < WORKERS; w++)
			if (pids[w] > 0) {
				kill(pids[w], SIGKILL);
				waitpid(pids[w], NULL, 0);
			}
	}
	for (int i = 0; i < 2; i++)
		if (run.ready[i] >= 0)
			close(run.ready[i]);
	for (int p = 0; p < PHASES; p++)
		for (int i = 0; i < 2; i++)
			if (run.go[p][i] >= 0)
				close(run.go[p][i]);
	free(run.db_path);
	free(run.naive_path);
	return rc;
}

static int recipe_claim(void *arg, struct tasktable *tt, const char *task_id, const char *owner,
			long long lease_ms, long long worker_clock, struct task_claim *out,
			char *err, size_t errlen)
{
	(void)arg;
	(void)worker_clock; /* the recipe reads db_now inside its statement */
	int rc = tasktable_claim(tt, task_id, owner, lease_ms, out);
	if (rc && rc != TASK_ELOST)
		snprintf(err, errlen, "%s", tasktable_errmsg(tt));
	return rc;
}

const struct task_claim_impl task_claim_recipe = {recipe_claim, NULL};

/* The entry point registered as lab_task_claim in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"Read-then-write let every worker believe it held the same task (the control). "
		"The recipe's conditional UPDATE gave each claim version exactly one holder, "
		"leases never overlapped, a late complete changed 0 rows, and every expired "
		"task was taken over exactly once.");
	return lab_outcome_of(ctx, task_claim_scenario(ctx, &task_claim_recipe));
}

const lab_run_fn lab_task_claim = lab_main;
