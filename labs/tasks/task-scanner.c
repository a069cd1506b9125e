/*
 * task-scanner.c - the lab "task-scanner": a periodic scanner stops for
 * good after one failing run while its process and the scheduler's other
 * jobs keep going, and an independent monitor raises two alarms: the
 * oldest due age, and claim conflicts per interval (chapter 01, "Why a
 * periodic task stops after one exception" and "Scanning a million due
 * tasks, and what to monitor").
 *
 * The scheduler below is a C model of Java 17's ScheduledThreadPoolExecutor
 * for periodic tasks, after ScheduledFutureTask.run (repository
 * openjdk/jdk17u, tag jdk-17.0.12+7,
 * src/java.base/share/classes/java/util/concurrent/
 * ScheduledThreadPoolExecutor.java, lines 300-309).  In our words: a
 * periodic task is re-queued only when runAndReset() returns true, that is
 * when its body returned normally; only then is the next run time computed
 * and the task put back on the queue.  A body that throws makes
 * runAndReset() return false, so the task is never scheduled again.
 *
 * A run whose body returns an error ("throws") completes that job's future
 * exceptionally and is not queued again; the loop, like the pool thread,
 * keeps running the other jobs.  Two jobs share the loop: the scanner and
 * a sweeper (tasktable_sweep).  Time is the task table's database clock,
 * advanced one second (one monitor interval) per tick, so nothing sleeps.
 *
 * Two runs over the same input (two tasks due every tick, and one task,
 * "poison", whose payload the handler cannot parse, due at tick 3):
 *   naive  the body propagates the handler's error: the scanner's third
 *          run fails, nothing scans afterwards, due tasks age, and the
 *          monitor (oldest due age > 3 s, and the future's terminal state)
 *          raises the alarm.  The sweeper runs every tick throughout.  The
 *          conflict monitor stays quiet: a dead scanner makes no conflicts.
 *   fixed  the body records the failure in the task table (tasktable_fail:
 *          attempt budget and backoff, FAILED once spent), counts it and
 *          returns normally; every tick scans, neither alarm fires under
 *          this load.  At tick 9 a conflict storm is forced: 16 tasks are
 *          released to 6 claimer processes that each read the same
 *          candidate list, wait at a pipe barrier and are let go together
 *          into tasktable_claim on every candidate.  Each task has one
 *          winner and 5 zero-row claims, whatever the interleaving, so the
 *          monitor must read exactly 80 conflicts in that interval and the
 *          conflict alarm must fire there and nowhere else.
 * Claimers are forked before the parent opens the database, recorded with
 * proc_record, die with the parent (PDEATHSIG) and are reaped here.
 * It deliberately does not model thread pools, fixed-delay drift or
 * Future.cancel, and it measures no speed (bench/task_claim.c does).
 */
#include "base/spawn.h"
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/report.h"
#include "lab.h"
#include "recipes/tasktable.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TICKS	    12
#define TICK_MS	    TASK_STAT_INTERVAL_MS /* one tick is one monitor interval */
#define BASE_MS	    1000000		  /* db time of tick 0 */
#define LEASE_MS    5000
#define BATCH	    16
#define ALARM_MS    3000 /* oldest due age that pages someone */
#define POISON_AT   3
#define STORM_AT    9	  /* tick of the forced conflict storm (fixed run) */
#define CLAIMERS    6	  /* storm processes */
#define STORM_TASKS 16	  /* tasks they race for */
#define WAIT_MS	    30000 /* a claimer that takes longer is broken, not slow */

/* The conflict alarm: >= 10 conflicts in an interval AND more than half
 * of the claims that won or conflicted. */
static const struct task_conflict_rule conflict_rule = {.min_conflicts = 10, .max_ratio_pct = 50};

/* ---- the scheduler model --------------------------------------------- */

enum future_state {
	FUTURE_SCHEDULED,     /* periodic: runs again at next_run */
	FUTURE_EXCEPTIONALLY, /* a run failed; future.get() would throw */
};

struct periodic {
	const char *name;				  /* for evidence */
	int (*body)(void *arg, char *err, size_t errlen); /* 0, or -1 = "throws" */
	void *arg;					  /* the body's state */
	long long next_run;				  /* db ms of the next run */
	long long period;				  /* fixed rate, ms */
	int queued;					  /* on the delay queue */
	int runs;					  /* runs started */
	int failed_tick;				  /* loop pass that failed it, 0 */
	enum future_state state;			  /* what future.isDone() reports */
	char exception[160];				  /* the failed run's error */
};

enum { JOB_SCANNER, JOB_SWEEPER, JOBS };

struct scheduler {
	struct periodic job[JOBS]; /* run in this order when due together */
	int passes;		   /* loop passes so far (the pool thread's) */
	pid_t pid;		   /* the process the loop runs in */
};

/* One pass of the pool thread at time now: run each due job. */
static void scheduler_tick(struct scheduler *s, long long now)
{
	s->passes++;
	for (int j = 0; j < JOBS; j++) {
		struct periodic *p = &s->job[j];
		if (!p->queued || p->next_run > now)
			continue;
		p->queued = 0; /* taken off the queue to run */
		p->runs++;
		if (p->body(p->arg, p->exception, sizeof p->exception) == 0) {
			/* runAndReset() true: setNextRunTime(); reExecutePeriodic() */
			p->next_run += p->period;
			p->queued = 1;
		} else {
			/* runAndReset() false: the future completed exceptionally
			 * and nothing re-queues it.  No log line, no crash: the
			 * loop goes on to the next job. */
			p->state = FUTURE_EXCEPTIONALLY;
			p->failed_tick = s->passes;
		}
	}
}

/* ---- the jobs -------------------------------------------------------- */

struct scanner {
	struct tasktable *tt;
	int fixed;	   /* catch and record failures */
	int processed;	   /* tasks completed */
	int won;	   /* claims won */
	int failures;	   /* handler failures recorded (fixed) */
	char backoff[160]; /* poison's next due times, for evidence */
};

/* The business handler: cannot parse poison's payload. */
static int handle(const struct task_claim *c)
{
	return strcmp(c->task_id, "poison") ? 0 : -1;
}

static int scan(void *arg, char *err, size_t errlen)
{
	struct scanner *s = arg;
	for (int i = 0; i < BATCH; i++) {
		struct task_claim c;
		int rc = tasktable_claim_next(s->tt, "scanner", LEASE_MS, &c);
		if (rc == TASK_ELOST)
			return 0; /* nothing due */
		if (rc) {
			snprintf(err, errlen, "claim: %s", tasktable_errmsg(s->tt));
			if (!s->fixed)
				return -1;
			s->failures++;
			return 0; /* next tick retries */
		}
		s->won++;
		if (handle(&c) != 0) {
			if (!s->fixed) {
				snprintf(err, errlen, "task %s: malformed payload", c.task_id);
				return -1; /* the exception escapes the body */
			}
			enum task_state st;
			long long due = 0;
			rc = tasktable_fail(s->tt, &c, "malformed payload", &st, &due);
			s->failures++;
			size_t len = strlen(s->backoff);
			snprintf(s->backoff + len, sizeof s->backoff - len, "%sattempt %lld -> %s",
				 len ? "; " : "", c.attempt, tasktable_state_name(st));
			len = strlen(s->backoff);
			if (rc == 0 && st == TASK_READY)
				snprintf(s->backoff + len, sizeof s->backoff - len, " due +%lld ms",
					 due - c.claimed_at);
			continue;
		}
		rc = tasktable_complete(s->tt, &c);
		if (rc == 0)
			s->processed++;
		else if (!s->fixed) {
			snprintf(err, errlen, "complete: %s", tasktable_errmsg(s->tt));
			return -1;
		}
	}
	return 0;
}

struct sweeper {
	struct tasktable *tt;
	int swept; /* rows moved to FAILED or CANCELLED */
};

static int sweep(void *arg, char *err, size_t errlen)
{
	struct sweeper *s = arg;
	int nc = 0, nf = 0;
	if (tasktable_sweep(s->tt, &nc, &nf) != 0) {
		snprintf(err, errlen, "sweep: %s", tasktable_errmsg(s->tt));
		return -1;
	}
	s->swept += nc + nf;
	return 0;
}

/* ---- the storm's claimer processes ----------------------------------- */

/* What a claimer tells the parent (one write, shorter than PIPE_BUF). */
struct claimer_result {
	int who;       /* 1..CLAIMERS */
	int seen;      /* candidates it held at the barrier */
	int won;       /* claims that changed 1 row */
	int lost;      /* claims that changed 0 rows (TASK_ELOST) */
	int completed; /* wins it completed */
	int errors;    /* anything else */
};

struct storm {
	const char *db_path;
	pid_t pid[CLAIMERS]; /* 0 once reaped */
	int prepare[2];	     /* the parent closes [1]: read the candidates */
	int ready[2];	     /* each claimer writes one byte when it holds them */
	int go[2];	     /* the parent closes [1]: race */
	int result[2];	     /* one struct claimer_result each */
	struct claimer_result res[CLAIMERS];
	int nres;  /* results read */
	int clean; /* claimers that exited 0 */
};

/* Blocks until the write end of fd's pipe is closed. */
static int wait_closed(int fd)
{
	char b;
	for (;;) {
		ssize_t n = read(fd, &b, 1);
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

static int claimer_main(struct storm *s, int who)
{
	struct claimer_result res = {.who = who};
	char owner[16];
	snprintf(owner, sizeof owner, "claimer%d", who);
	if (wait_closed(s->prepare[0]) != 0)
		return 3;
	struct tasktable *tt = NULL;
	if (tasktable_open(s->db_path, NULL, NULL, &tt, NULL, 0) != 0)
		return 3;
	char ids[STORM_TASKS * 2][TASK_ID_MAX];
	int rc = tasktable_due(tt, ids, (int)WB_ARRAY_LEN(ids), &res.seen);
	char b = 'r';
	if (rc != 0 || write(s->ready[1], &b, 1) != 1 || wait_closed(s->go[0]) != 0) {
		tasktable_close(tt);
		return 3;
	}
	/* Everyone holds the same list and walks it in the same order. */
	for (int i = 0; i < res.seen; i++) {
		struct task_claim c;
		rc = tasktable_claim(tt, ids[i], owner, LEASE_MS, &c);
		if (rc == TASK_ELOST) {
			res.lost++;
		} else if (rc != 0) {
			res.errors++;
		} else {
			res.won++;
			if (tasktable_complete(tt, &c) == 0)
				res.completed++;
			else
				res.errors++;
		}
	}
	tasktable_close(tt);
	if (write(s->result[1], &res, sizeof res) != (ssize_t)sizeof res)
		return 3;
	return res.errors ? 1 : 0;
}

static void storm_init(struct storm *s, const char *db_path)
{
	memset(s, 0, sizeof *s);
	s->db_path = db_path;
	int *fds[] = {s->prepare, s->ready, s->go, s->result};
	for (size_t i = 0; i < WB_ARRAY_LEN(fds); i++)
		fds[i][0] = fds[i][1] = -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Kills and reaps claimers still running, closes every pipe end. */
static void storm_end(struct storm *s)
{
	for (int i = 0; i < CLAIMERS; i++)
		if (s->pid[i] > 0) {
			kill(s->pid[i], SIGKILL);
			waitpid(s->pid[i], NULL, 0);
			s->pid[i] = 0;
		}
	int *fds[] = {s->prepare, s->ready, s->go, s->result};
	for (size_t i = 0; i < WB_ARRAY_LEN(fds); i++) {
		close_fd(&fds[i][0]);
		close_fd(&fds[i][1]);
	}
}

/* Forks the claimers; they wait on prepare.  Call while this process has
 * no SQLite connection open: a child must not inherit one.  0 or WB_EIO. */
static int storm_fork(struct lab_ctx *ctx, struct storm *s)
{
	if (pipe(s->prepare) || pipe(s->ready) || pipe(s->go) || pipe(s->result))
		return WB_EIO;
	struct spawn_opts so = {.death_signal = SIGKILL, .out_fd = -1};
	for (int i = 0; i < CLAIMERS; i++) {
		pid_t pid;
		if (spawn_fork(&so, &pid) != 0)
			return WB_EIO;
		if (pid == 0) {
			/* Keep only what a claimer uses, so EOF on the barriers
			 * arrives when the parent closes its ends. */
			close(s->prepare[1]);
			close(s->go[1]);
			close(s->ready[0]);
			close(s->result[0]);
			_exit(claimer_main(s, i + 1));
		}
		s->pid[i] = pid;
		proc_record(ctx->run_dir, pid);
	}
	close_fd(&s->prepare[0]);
	close_fd(&s->go[0]);
	close_fd(&s->ready[1]);
	close_fd(&s->result[1]);
	return 0;
}

/* Reads exactly len bytes from fd before WAIT_MS have passed since
 * start.  0 or -1. */
static int read_within(int fd, void *buf, size_t len, const struct timespec *start)
{
	size_t got = 0;
	while (got < len) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long left = WAIT_MS - ((now.tv_sec - start->tv_sec) * 1000 +
				       (now.tv_nsec - start->tv_nsec) / 1000000);
		if (left <= 0)
			return -1;
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ssize_t n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1; /* every claimer is gone */
		got += (size_t)n;
	}
	return 0;
}

/* The storm itself, at the current db time: the claimers read their
 * candidates, meet at the barrier, race.  Results in s->res.  0, or -1
 * when a claimer died or hung (then nothing is judged). */
static int storm_run(struct storm *s)
{
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	close_fd(&s->prepare[1]);
	char ready[CLAIMERS];
	if (read_within(s->ready[0], ready, sizeof ready, &start) != 0)
		return -1;
	close_fd(&s->go[1]); /* all hold their candidates: go */
	for (s->nres = 0; s->nres < CLAIMERS; s->nres++)
		if (read_within(s->result[0], &s->res[s->nres], sizeof s->res[0], &start) != 0)
			return -1;
	for (int i = 0; i < CLAIMERS; i++) {
		int status = 0;
		if (waitpid(s->pid[i], &status, 0) == s->pid[i]) {
			s->pid[i] = 0;
			s->clean += WIFEXITED(status) && WEXITSTATUS(status) == 0;
		}
	}
	return 0;
}

/* ---- one run of the whole scenario ----------------------------------- */

struct outcome {
	struct scheduler sched;
	struct scanner sc;
	struct sweeper sw;
	long long age[TICKS + 1]; /* oldest due age after each tick */
	long long due_ready[TICKS + 1];
	struct task_claim_stats cs[TICKS + 1]; /* the tick's interval */
	int conflict_alarm[TICKS + 1];
	int scanner_won[TICKS + 1]; /* claims the scanner won in the tick */
	int alarm_tick;		    /* first tick with age > ALARM_MS, 0 if none */
	int future_alarm_tick;	    /* first tick the monitor saw the future done */
	int storm_ok;		    /* the storm ran and every claimer reported */
	struct storm storm;
	int storm_rows_v1; /* storm tasks SUCCEEDED with claim_version 1 */
	struct task_row poison;
	long long succeeded, ready, failed;
};

/* The producer's storm batch at the storm tick, then the race. */
static int storm_tick(struct lab_ctx *ctx, struct tasktable *tt, long long now, struct outcome *o)
{
	struct report *r = ctx->report;
	for (int k = 0; k < STORM_TASKS; k++) {
		char id[32];
		snprintf(id, sizeof id, "storm-%02d", k);
		int rc = tasktable_add(tt, id, now, NULL);
		if (rc)
			return rc;
	}
	report_step(r,
		    "tick %d: %d tasks become due at once; %d claimer processes each read the "
		    "same candidate list, wait at a pipe barrier, and are released together "
		    "into tasktable_claim on every candidate, in the same order",
		    STORM_AT, STORM_TASKS, CLAIMERS);
	if (storm_run(&o->storm) != 0) {
		report_check(r, "claimers-reach-barrier", 0,
			     "every claimer reaches the barrier and reports",
			     "a claimer died or hung");
		storm_end(&o->storm); /* none may hold the write lock on */
		return 0;
	}
	o->storm_ok = 1;
	return 0;
}

enum mode { NAIVE, FIXED };

static int run_scenario(struct lab_ctx *ctx, enum mode mode, struct outcome *o)
{
	struct report *r = ctx->report;
	char err[256];
	int fixed = mode == FIXED;
	char *path = wb_xasprintf("%s/%s.db", ctx->run_dir, fixed ? "fixed" : "naive");
	struct tasktable *tt = NULL;
	memset(o, 0, sizeof *o);
	storm_init(&o->storm, path);
	int rc = 0;
	/* Fork first: no connection of ours may cross a fork. */
	if (fixed && (rc = storm_fork(ctx, &o->storm)) != 0) {
		report_cannot(r, "claimers: %s", strerror(errno));
		goto out;
	}
	char schema[LAB_PATH_MAX];
	rc = tasktable_open(path, lab_data_file(ctx, "tasks.sql", schema, sizeof schema), NULL, &tt,
			    err, sizeof err);
	if (rc) {
		report_cannot(r, "task table: %s", err);
		goto out;
	}
	o->sc.tt = o->sw.tt = tt;
	o->sc.fixed = fixed;
	o->sched.pid = getpid();
	o->sched.job[JOB_SCANNER] = (struct periodic){.name = "scanner",
						      .body = scan,
						      .arg = &o->sc,
						      .next_run = BASE_MS + TICK_MS,
						      .period = TICK_MS,
						      .queued = 1};
	o->sched.job[JOB_SWEEPER] = (struct periodic){.name = "sweeper",
						      .body = sweep,
						      .arg = &o->sw,
						      .next_run = BASE_MS + TICK_MS,
						      .period = TICK_MS,
						      .queued = 1};
	struct task_opts poison_opts = {.max_attempts = 3, .backoff_ms = TICK_MS};
	if ((rc = tasktable_clock_set(tt, BASE_MS)) != 0 ||
	    (rc = tasktable_add(tt, "poison", BASE_MS + POISON_AT * TICK_MS, &poison_opts)) != 0)
		goto out;
	for (int tick = 1; tick <= TICKS; tick++) {
		long long now = BASE_MS + (long long)tick * TICK_MS;
		if ((rc = tasktable_clock_set(tt, now)) != 0)
			goto out;
		for (int k = 0; k < 2; k++) { /* the producer */
			char id[32];
			snprintf(id, sizeof id, "t%02d-%d", tick, k);
			if ((rc = tasktable_add(tt, id, now, NULL)) != 0)
				goto out;
		}
		int won_before = o->sc.won;
		scheduler_tick(&o->sched, now);
		o->scanner_won[tick] = o->sc.won - won_before;
		if (fixed && tick == STORM_AT && (rc = storm_tick(ctx, tt, now, o)) != 0)
			goto out;
		/* The monitor: independent of the scanner, reads the table, the
		 * claim counters of this interval and the future's state. */
		struct task_health h;
		if ((rc = tasktable_health(tt, &h)) != 0 ||
		    (rc = tasktable_claim_stats(tt, 1, &o->cs[tick])) != 0)
			goto out;
		o->age[tick] = h.oldest_due_age;
		o->due_ready[tick] = h.due_ready;
		o->conflict_alarm[tick] = tasktable_conflict_alarm(&o->cs[tick], &conflict_rule);
		if (!o->alarm_tick && h.oldest_due_age > ALARM_MS)
			o->alarm_tick = tick;
		const struct periodic *scanner = &o->sched.job[JOB_SCANNER];
		if (!o->future_alarm_tick && scanner->state == FUTURE_EXCEPTIONALLY)
			o->future_alarm_tick = tick;
		const struct task_claim_stats *cs = &o->cs[tick];
		report_evidence(r, fixed ? "fixed" : "naive",
				"tick %2d: scanner runs %2d (future %s), sweeper runs %2d; oldest "
				"due age %5lld ms, %2lld due; claims won %2lld, conflicts %2lld, "
				"empty %lld%s%s",
				tick, scanner->runs,
				scanner->state == FUTURE_SCHEDULED ? "scheduled" : "EXCEPTIONAL",
				o->sched.job[JOB_SWEEPER].runs, h.oldest_due_age, h.due_ready,
				cs->won, cs->conflicts, cs->empty,
				o->alarm_tick == tick ? "  <- ALARM: oldest due age" : "",
				o->conflict_alarm[tick] ? "  <- ALARM: claim conflicts" : "");
	}
	if ((rc = tasktable_get(tt, "poison", &o->poison)) != 0)
		goto out;
	for (int k = 0; fixed && k < STORM_TASKS; k++) {
		char id[32];
		struct task_row row;
		snprintf(id, sizeof id, "storm-%02d", k);
		if ((rc = tasktable_get(tt, id, &row)) != 0)
			goto out;
		o->storm_rows_v1 += row.state == TASK_SUCCEEDED && row.claim_version == 1;
	}
	struct task_health h;
	if ((rc = tasktable_health(tt, &h)) != 0)
		goto out;
	o->succeeded = h.succeeded;
	o->ready = h.ready;
	o->failed = h.failed;
out:
	if (rc && tt)
		report_cannot(r, "task table: %s", tasktable_errmsg(tt));
	storm_end(&o->storm);
	tasktable_close(tt);
	free(path);
	return rc;
}

/* ---- judging --------------------------------------------------------- */

static void judge_naive(struct report *r, const struct outcome *o)
{
	const struct periodic *scanner = &o->sched.job[JOB_SCANNER];
	const struct periodic *sweeper = &o->sched.job[JOB_SWEEPER];
	int rising = 1;
	for (int t = POISON_AT + 1; t <= TICKS; t++)
		rising = rising && o->age[t] > o->age[t - 1];
	report_checkf(r, "scanner-stops-after-one-failure",
		      scanner->runs == POISON_AT && scanner->state == FUTURE_EXCEPTIONALLY &&
			      !scanner->queued,
		      "run 3 fails; the future completes exceptionally and is never queued "
		      "again: 3 runs in 12 ticks",
		      "%d runs in %d ticks; future %s (\"%s\"); queued %d", scanner->runs, TICKS,
		      scanner->state == FUTURE_EXCEPTIONALLY ? "exceptional" : "scheduled",
		      scanner->exception, scanner->queued);
	report_checkf(
		r, "scheduler-loop-survives",
		o->sched.passes == TICKS && sweeper->runs == TICKS &&
			sweeper->state == FUTURE_SCHEDULED && sweeper->queued &&
			scanner->failed_tick == POISON_AT,
		"the process stays up and its scheduler loop keeps running the other job: "
		"12 passes, the sweeper runs all 12 ticks (9 after the scanner's failure "
		"at pass 3) and stays scheduled",
		"process %ld ran every pass; %d passes; scanner failed at pass %d; sweeper %d runs "
		"(%d after the failure), future %s",
		(long)o->sched.pid, o->sched.passes, scanner->failed_tick, sweeper->runs,
		sweeper->runs - scanner->failed_tick,
		sweeper->state == FUTURE_SCHEDULED ? "scheduled" : "exceptional");
	report_checkf(r, "oldest-due-age-rises", rising && o->age[TICKS] >= 8 * TICK_MS,
		      "after tick 3 the oldest due age grows every tick (>= 8000 ms by tick 12)",
		      "ages at ticks 3..12: %lld, %lld, %lld ... %lld ms; %lld due unclaimed",
		      o->age[3], o->age[4], o->age[5], o->age[TICKS], o->due_ready[TICKS]);
	report_checkf(r, "monitor-alarms", o->alarm_tick > 0 && o->future_alarm_tick > 0,
		      "the monitor raises both alarms: oldest due age > 3000 ms, and the "
		      "scanner's future is done",
		      "age alarm at tick %d, future alarm at tick %d", o->alarm_tick,
		      o->future_alarm_tick);
	long long conflicts = 0, won_after = 0;
	int conflict_alarms = 0;
	for (int t = 1; t <= TICKS; t++) {
		conflicts += o->cs[t].conflicts;
		conflict_alarms += o->conflict_alarm[t];
		if (t > POISON_AT)
			won_after += o->cs[t].won;
	}
	report_checkf(r, "conflict-monitor-blind-to-dead-scanner",
		      conflicts == 0 && conflict_alarms == 0 && won_after == 0,
		      "the conflict monitor stays quiet: a dead scanner claims nothing and so "
		      "loses no races (0 conflicts, 0 claims won after tick 3); only the age "
		      "alarm sees it",
		      "%lld conflicts in 12 intervals, %d conflict alarms, %lld claims won after "
		      "tick 3",
		      conflicts, conflict_alarms, won_after);
	report_evidence(r, "stranded",
			"poison %s (claimed, never completed or failed); %lld "
			"tasks READY, %lld SUCCEEDED; the sweeper swept %d",
			tasktable_state_name(o->poison.state), o->ready, o->succeeded, o->sw.swept);
}

static void judge_fixed(struct report *r, const struct outcome *o)
{
	const struct periodic *scanner = &o->sched.job[JOB_SCANNER];
	long long max_age = 0;
	for (int t = 1; t <= TICKS; t++)
		max_age = o->age[t] > max_age ? o->age[t] : max_age;
	report_checkf(
		r, "fixed-scanner-keeps-running",
		scanner->runs == TICKS && scanner->state == FUTURE_SCHEDULED && scanner->queued,
		"12 runs in 12 ticks, the future still scheduled",
		"%d runs; future %s; %d failures counted", scanner->runs,
		scanner->state == FUTURE_SCHEDULED ? "scheduled" : "exceptional", o->sc.failures);
	report_checkf(r, "poison-fails-after-budget",
		      o->poison.state == TASK_FAILED && o->poison.attempt == 3 &&
			      o->sc.failures == 3,
		      "poison: 3 attempts with backoff, then FAILED (a terminal state an "
		      "operator can see)",
		      "%s after %lld attempts: %s", tasktable_state_name(o->poison.state),
		      o->poison.attempt, o->sc.backoff);
	report_checkf(r, "fixed-no-age-alarm",
		      o->alarm_tick == 0 && max_age <= ALARM_MS &&
			      o->succeeded == 2 * TICKS + STORM_TASKS,
		      "oldest due age never above 3000 ms; all 24 ordinary tasks and the 16 "
		      "storm tasks SUCCEEDED",
		      "max oldest due age %lld ms; %lld SUCCEEDED, %lld FAILED", max_age,
		      o->succeeded, o->failed);

	/* Normal load: every interval but the storm's. */
	int quiet = 1, empties = 1;
	long long won = 0, conflicts = 0;
	for (int t = 1; t <= TICKS; t++) {
		if (t == STORM_AT)
			continue;
		quiet = quiet && o->cs[t].conflicts == 0 && !o->conflict_alarm[t] &&
			o->cs[t].won == o->scanner_won[t];
		empties = empties && o->cs[t].empty == 1;
		won += o->cs[t].won;
		conflicts += o->cs[t].conflicts;
	}
	report_checkf(r, "conflict-monitor-quiet-under-normal-load", quiet && empties && won > 0,
		      "in the 11 ordinary intervals: 0 conflicts, no conflict alarm, the "
		      "counted wins equal the scanner's own, one empty poll per interval (the "
		      "scanner's last claim_next: not a conflict)",
		      "%lld claims won, %lld conflicts; every interval as expected: %s", won,
		      conflicts, quiet && empties ? "yes" : "no");

	if (!o->storm_ok)
		return; /* reported as a failed check already */
	const struct storm *s = &o->storm;
	int same = 1, seen = -1, won_sum = 0, lost_sum = 0, done_sum = 0, errors = 0;
	char per[160] = "";
	for (int i = 0; i < s->nres; i++) {
		const struct claimer_result *x = &s->res[i];
		same = same && x->seen == STORM_TASKS;
		seen = x->seen;
		won_sum += x->won;
		lost_sum += x->lost;
		done_sum += x->completed;
		errors += x->errors;
		size_t len = strlen(per);
		snprintf(per + len, sizeof per - len, "%sclaimer%d %d/%d", i ? ", " : "", x->who,
			 x->won, x->lost);
	}
	report_evidence(r, "storm", "won/lost per claimer: %s", per);
	report_checkf(r, "storm-claimers-hold-the-same-candidates",
		      same && s->nres == CLAIMERS && errors == 0 && s->clean == CLAIMERS,
		      "all 6 claimers held the same 16 due tasks when released; every claim "
		      "returned won or 0 rows, nothing else; all exited cleanly",
		      "%d claimers reported, %d exited 0; candidates held: %d each%s; %d errors",
		      s->nres, s->clean, seen, same ? "" : " (not all the same)", errors);
	report_checkf(r, "storm-one-winner-per-task",
		      won_sum == STORM_TASKS && done_sum == STORM_TASKS &&
			      o->storm_rows_v1 == STORM_TASKS,
		      "16 wins for 16 tasks, each completed; every storm task SUCCEEDED with "
		      "claim_version 1",
		      "%d wins, %d completed, %d rows SUCCEEDED at version 1", won_sum, done_sum,
		      o->storm_rows_v1);
	const struct task_claim_stats *cs = &o->cs[STORM_AT];
	long long want_conflicts = (long long)(CLAIMERS - 1) * STORM_TASKS;
	char want[256];
	snprintf(want, sizeof want,
		 "the monitor's interval holds every 0-row claim once: %lld = (%d - 1) x %d, "
		 "the same as the claimers saw; wins: the storm's %d + the scanner's %d",
		 want_conflicts, CLAIMERS, STORM_TASKS, STORM_TASKS, o->scanner_won[STORM_AT]);
	report_checkf(r, "storm-conflicts-counted-once",
		      cs->conflicts == want_conflicts && lost_sum == want_conflicts &&
			      cs->won == STORM_TASKS + o->scanner_won[STORM_AT],
		      want, "monitor: %lld conflicts, %lld won; claimers: %d zero-row claims",
		      cs->conflicts, cs->won, lost_sum);
	int alarms = 0, first = 0;
	for (int t = 1; t <= TICKS; t++) {
		alarms += o->conflict_alarm[t];
		if (o->conflict_alarm[t] && !first)
			first = t;
	}
	long long decided = cs->won + cs->conflicts;
	snprintf(want, sizeof want,
		 "the conflict alarm (>= %lld conflicts and > %d%% of won + conflicts in an "
		 "interval) fires at tick %d and at no other tick; it clears at tick %d",
		 conflict_rule.min_conflicts, conflict_rule.max_ratio_pct, STORM_AT, STORM_AT + 1);
	report_checkf(r, "conflict-alarm-fires-in-storm",
		      alarms == 1 && first == STORM_AT && !o->conflict_alarm[STORM_AT + 1], want,
		      "fired %d time(s), first at tick %d: %lld conflicts of %lld (%lld%%); tick "
		      "%d: %lld conflicts, alarm %s",
		      alarms, first, cs->conflicts, decided,
		      decided ? cs->conflicts * 100 / decided : 0, STORM_AT + 1,
		      o->cs[STORM_AT + 1].conflicts,
		      o->conflict_alarm[STORM_AT + 1] ? "on" : "off");
}

static int task_scanner_run(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	struct outcome *o = wb_xcalloc(1, sizeof *o);
	int rc;

	report_step(r,
		    "naive: one scheduler loop runs two periodic jobs every %d ms of db time: "
		    "a scanner that claims due tasks and a sweeper; the producer adds 2 tasks "
		    "per tick; \"poison\" is due at tick %d and its handler fails; the scanner's "
		    "body lets the error escape",
		    TICK_MS, POISON_AT);
	if ((rc = run_scenario(ctx, NAIVE, o)) != 0)
		goto out;
	judge_naive(r, o);

	report_step(r,
		    "fixed: the same input; the body records a handler failure with "
		    "tasktable_fail (budget 3, backoff from %d ms), counts it and returns; the "
		    "monitor also reads the claim counters of each %d ms interval",
		    TICK_MS, TASK_STAT_INTERVAL_MS);
	if ((rc = run_scenario(ctx, FIXED, o)) != 0)
		goto out;
	judge_fixed(r, o);
out:
	free(o);
	return rc;
}

/* The entry point registered as lab_task_scanner in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"A periodic job whose body failed once was never scheduled again while the "
		"scheduler's other jobs went on, so only an outside monitor of the oldest due "
		"age noticed. Handling each task's error kept the scanner alive, and the "
		"claim-conflict alarm fired in a claim storm but stayed quiet under normal "
		"load.");
	return lab_outcome_of(ctx, task_scanner_run(ctx));
}

const lab_run_fn lab_task_scanner = lab_main;
