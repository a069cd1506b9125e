/*
 * task-scanner.c - the lab "task-scanner": a periodic scanner stops for
 * good after one failing run while its process stays up, and an
 * independent monitor of the oldest due age raises the alarm (chapter 01,
 * "Why a periodic task stops after one exception" and "Scanning a million
 * due tasks, and what to monitor").
 *
 * The scheduler below is a C model of Java 17's ScheduledThreadPoolExecutor
 * for one periodic task, after ScheduledFutureTask.run (openjdk/jdk17u,
 * jdk-17.0.12+7, ScheduledThreadPoolExecutor.java lines 300-309):
 *
 *     else if (super.runAndReset()) {   // false when the body threw
 *         setNextRunTime();
 *         reExecutePeriodic(outerTask);
 *     }
 *
 * A run whose body returns an error ("throws") completes the future
 * exceptionally and is not queued again; the loop, like the pool thread,
 * keeps going.  Time is the task table's database clock, advanced one
 * second per tick, so nothing sleeps.
 *
 * Two runs over the same input (two tasks due every tick, and one task,
 * "poison", whose payload the handler cannot parse, due at tick 3):
 *   naive  the body propagates the handler's error: the scanner's third
 *          run fails, nothing scans afterwards, due tasks age, and the
 *          monitor (oldest due age > 3 s, and the future's terminal state)
 *          raises the alarm.
 *   fixed  the body records the failure in the task table (tasktable_fail:
 *          attempt budget and backoff, FAILED once spent), counts it and
 *          returns normally; every tick scans, no alarm.
 * It deliberately does not model thread pools, fixed-delay drift or
 * Future.cancel: one periodic job is enough to show the contract.
 */
#include "core/wb.h"
#include "harness/report.h"
#include "lab.h"
#include "recipes/tasktable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICKS	  12
#define TICK_MS	  1000
#define BASE_MS	  1000000 /* db time of tick 0 */
#define LEASE_MS  5000
#define BATCH	  16
#define ALARM_MS  3000 /* oldest due age that pages someone */
#define POISON_AT 3

/* ---- the scheduler model --------------------------------------------- */

enum future_state {
	FUTURE_SCHEDULED,     /* periodic: runs again at next_run */
	FUTURE_EXCEPTIONALLY, /* a run failed; future.get() would throw */
};

struct periodic {
	int (*body)(void *arg, char *err, size_t errlen); /* 0, or -1 = "throws" */
	void *arg;					  /* the body's state */
	long long next_run;				  /* db ms of the next run */
	long long period;				  /* fixed rate, ms */
	int queued;					  /* on the delay queue */
	int runs;					  /* runs started */
	enum future_state state;			  /* what future.isDone() reports */
	char exception[160];				  /* the failed run's error */
};

/* One pass of the pool thread at time now: run the job if it is due. */
static void scheduler_tick(struct periodic *p, long long now)
{
	if (!p->queued || p->next_run > now)
		return;
	p->queued = 0; /* taken off the queue to run */
	p->runs++;
	if (p->body(p->arg, p->exception, sizeof p->exception) == 0) {
		/* runAndReset() true: setNextRunTime(); reExecutePeriodic() */
		p->next_run += p->period;
		p->queued = 1;
	} else {
		/* runAndReset() false: the future completed exceptionally and
		 * nothing re-queues it.  No log line, no crash. */
		p->state = FUTURE_EXCEPTIONALLY;
	}
}

/* ---- the scanner ----------------------------------------------------- */

struct scanner {
	struct tasktable *tt;
	int fixed;	   /* catch and record failures */
	int processed;	   /* tasks completed */
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

/* ---- one run of the whole scenario ----------------------------------- */

struct outcome {
	struct periodic job;
	struct scanner sc;
	long long age[TICKS + 1]; /* oldest due age after each tick */
	long long due_ready[TICKS + 1];
	int alarm_tick;	       /* first tick with age > ALARM_MS, 0 if none */
	int future_alarm_tick; /* first tick the monitor saw the future done */
	struct task_row poison;
	long long succeeded, ready, failed;
};

static int run_scenario(struct lab_ctx *ctx, int fixed, struct outcome *o)
{
	struct report *r = ctx->report;
	char err[256];
	char *path = wb_xasprintf("%s/%s.db", ctx->run_dir, fixed ? "fixed" : "naive");
	struct tasktable *tt = NULL;
	int rc = tasktable_open(path, NULL, NULL, &tt, err, sizeof err);
	free(path);
	if (rc) {
		report_cannot(r, "task table: %s", err);
		return rc;
	}
	memset(o, 0, sizeof *o);
	o->sc.tt = tt;
	o->sc.fixed = fixed;
	o->job = (struct periodic){.body = scan,
				   .arg = &o->sc,
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
		scheduler_tick(&o->job, now);
		/* The monitor: independent of the scanner, reads the table and
		 * the future's state after every tick. */
		struct task_health h;
		if ((rc = tasktable_health(tt, &h)) != 0)
			goto out;
		o->age[tick] = h.oldest_due_age;
		o->due_ready[tick] = h.due_ready;
		if (!o->alarm_tick && h.oldest_due_age > ALARM_MS)
			o->alarm_tick = tick;
		if (!o->future_alarm_tick && o->job.state == FUTURE_EXCEPTIONALLY)
			o->future_alarm_tick = tick;
		report_evidence(r, fixed ? "fixed" : "naive",
				"tick %2d: scanner runs %2d, future %s, oldest due age %5lld ms, "
				"due and unclaimed %2lld%s",
				tick, o->job.runs,
				o->job.state == FUTURE_SCHEDULED ? "scheduled" : "EXCEPTIONAL",
				h.oldest_due_age, h.due_ready,
				o->alarm_tick == tick ? "  <- ALARM: oldest due age" : "");
	}
	if ((rc = tasktable_get(tt, "poison", &o->poison)) != 0)
		goto out;
	struct task_health h;
	if ((rc = tasktable_health(tt, &h)) != 0)
		goto out;
	o->succeeded = h.succeeded;
	o->ready = h.ready;
	o->failed = h.failed;
out:
	if (rc)
		report_cannot(r, "task table: %s", tasktable_errmsg(tt));
	tasktable_close(tt);
	return rc;
}

static int task_scanner_run(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	struct outcome *o = wb_xcalloc(1, sizeof *o);
	int rc;

	report_step(r,
		    "naive: a periodic scanner (every %d ms of db time) claims due tasks; "
		    "the producer adds 2 tasks per tick; \"poison\" is due at tick %d and "
		    "its handler fails; the body lets the error escape",
		    TICK_MS, POISON_AT);
	if ((rc = run_scenario(ctx, 0, o)) != 0)
		goto out;
	int rising = 1;
	for (int t = POISON_AT + 1; t <= TICKS; t++)
		rising = rising && o->age[t] > o->age[t - 1];
	report_checkf(r, "scanner-stops-after-one-failure",
		      o->job.runs == POISON_AT && o->job.state == FUTURE_EXCEPTIONALLY &&
			      !o->job.queued,
		      "run 3 fails; the future completes exceptionally and is never queued "
		      "again: 3 runs in 12 ticks while the scheduler loop keeps ticking",
		      "%d runs in %d ticks; future %s (\"%s\"); queued %d", o->job.runs, TICKS,
		      o->job.state == FUTURE_EXCEPTIONALLY ? "exceptional" : "scheduled",
		      o->job.exception, o->job.queued);
	report_checkf(r, "oldest-due-age-rises", rising && o->age[TICKS] >= 8 * TICK_MS,
		      "after tick 3 the oldest due age grows every tick (>= 8000 ms by tick 12)",
		      "ages at ticks 3..12: %lld, %lld, %lld ... %lld ms; %lld due unclaimed",
		      o->age[3], o->age[4], o->age[5], o->age[TICKS], o->due_ready[TICKS]);
	report_checkf(r, "monitor-alarms", o->alarm_tick > 0 && o->future_alarm_tick > 0,
		      "the monitor raises both alarms: oldest due age > 3000 ms, and the "
		      "scanner's future is done",
		      "age alarm at tick %d, future alarm at tick %d", o->alarm_tick,
		      o->future_alarm_tick);
	report_evidence(r, "stranded",
			"poison %s (claimed, never completed or failed); %lld "
			"tasks READY, %lld SUCCEEDED",
			tasktable_state_name(o->poison.state), o->ready, o->succeeded);

	report_step(r,
		    "fixed: the same input; the body records a handler failure with "
		    "tasktable_fail (budget 3, backoff from %d ms), counts it and returns",
		    TICK_MS);
	if ((rc = run_scenario(ctx, 1, o)) != 0)
		goto out;
	long long max_age = 0;
	for (int t = 1; t <= TICKS; t++)
		max_age = o->age[t] > max_age ? o->age[t] : max_age;
	report_checkf(r, "fixed-scanner-keeps-running",
		      o->job.runs == TICKS && o->job.state == FUTURE_SCHEDULED && o->job.queued,
		      "12 runs in 12 ticks, the future still scheduled",
		      "%d runs; future %s; %d failures counted", o->job.runs,
		      o->job.state == FUTURE_SCHEDULED ? "scheduled" : "exceptional",
		      o->sc.failures);
	report_checkf(r, "poison-fails-after-budget",
		      o->poison.state == TASK_FAILED && o->poison.attempt == 3 &&
			      o->sc.failures == 3,
		      "poison: 3 attempts with backoff, then FAILED (a terminal state an "
		      "operator can see)",
		      "%s after %lld attempts: %s", tasktable_state_name(o->poison.state),
		      o->poison.attempt, o->sc.backoff);
	report_checkf(r, "fixed-no-alarm",
		      o->alarm_tick == 0 && max_age <= ALARM_MS && o->succeeded == 2 * TICKS,
		      "oldest due age never above 3000 ms; all 24 ordinary tasks SUCCEEDED",
		      "max oldest due age %lld ms; %lld SUCCEEDED, %lld FAILED", max_age,
		      o->succeeded, o->failed);
out:
	free(o);
	return rc;
}

const struct lab lab_task_scanner = {
	.id = "task-scanner",
	.chapter = "01-locks-ids-leases",
	.title = "A periodic scanner stops after a failure; oldest-due age alarms",
	.needs = LAB_NEEDS_SQLITE,
	.run = task_scanner_run,
	.recipe_file = "labs/recipes/tasktable.c",
	.recipe_func = "tasktable_health",
};
