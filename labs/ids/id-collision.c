/*
 * id-collision.c - the lab "id-collision": the 41/10/12 Snowflake model
 * and its three duplicate counterexamples (chapter 01, section "Snowflake:
 * uniqueness is a bit budget plus recovery rules"), plus the bit budget.
 *
 * The generator here is deliberately naive, the model the lesson computes:
 * the sequence restarts at 0 whenever the millisecond differs from the
 * last one this process saw, nothing is persisted, and the worker id comes
 * from configuration.  Each case runs in real processes (fork), because a
 * restart and a second generator are processes, and the milliseconds are
 * the lesson's inputs, not clock readings.  The safe generator is the
 * id-snowflake lab.
 */
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/report.h"
#include "lab.h"
#include "recipes/snowflake.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The naive model's whole state. */
struct naive {
	int have;	 /* last is meaningful */
	uint64_t last;	 /* last ms seen */
	uint32_t seq;	 /* last sequence issued */
	uint32_t worker; /* from configuration, never checked */
};

static int naive_next(struct naive *g, uint64_t t, int64_t *id)
{
	g->seq = g->have && t == g->last ? g->seq + 1 : 0;
	g->have = 1;
	g->last = t;
	return snowflake_encode(t, g->worker, g->seq, id);
}

/* "(1000, 7, 0) -> 4194332672 = 0 000…1111101000 0000000111 000000000000" */
static void show(struct report *r, const char *key, int64_t id)
{
	struct snowflake_triple t;
	char bits[SNOWFLAKE_BITS_LEN];
	if (snowflake_decode(id, &t) != 0) {
		report_evidence(r, key, "%" PRId64 " (negative: not a valid id)", id);
		return;
	}
	snowflake_bits(id, bits);
	report_evidence(r, key, "(%" PRIu64 ", %" PRIu32 ", %" PRIu32 ") -> %" PRId64 " = %s", t.t,
			t.worker, t.seq, id, bits);
}

/* A child process that runs the naive model for worker 7 at the given
 * milliseconds and writes each id to a pipe.  If gate is non-NULL it first waits
 * for the parent to close the gate pipe (a barrier, not a sleep). */
struct child {
	pid_t pid; /* 0 when not started */
	int out;   /* read end of its pipe */
};

static int child_start(struct lab_ctx *ctx, const uint64_t *ms, int n, const int *gate,
		       struct child *c)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		char b;
		close(fd[0]);
		if (gate) {
			close(gate[1]); /* or the barrier would never open */
			if (read(gate[0], &b, 1) < 0)
				_exit(3);
		}
		struct naive g = {.worker = 7};
		for (int i = 0; i < n; i++) {
			int64_t id;
			if (naive_next(&g, ms[i], &id) != 0 ||
			    write(fd[1], &id, sizeof id) != (ssize_t)sizeof id)
				_exit(4);
		}
		_exit(0);
	}
	close(fd[1]);
	proc_record(ctx->run_dir, pid);
	c->pid = pid;
	c->out = fd[0];
	return 0;
}

/* Reads up to n ids and reaps the child.  Returns how many were read, or
 * -1 when the child failed. */
static int child_finish(struct child *c, int64_t *ids, int n)
{
	int got = 0, status = 0;
	while (got < n && read(c->out, &ids[got], sizeof ids[got]) == (ssize_t)sizeof ids[got])
		got++;
	close(c->out);
	if (waitpid(c->pid, &status, 0) != c->pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return got;
}

static int cannot(struct lab_ctx *ctx, const char *what)
{
	report_cannot(ctx->report, "%s failed", what);
	return WB_EUNAVAIL;
}

static int case_restart(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	const uint64_t at[] = {1000};
	struct child c;
	int64_t first, second;
	report_step(r, "Same-ms restart: process 1 issues at ms 1000 and exits; process 2 starts "
		       "while the clock still reads 1000, its sequence back at 0");
	if (child_start(ctx, at, 1, NULL, &c) || child_finish(&c, &first, 1) != 1)
		return cannot(ctx, "the first process");
	show(r, "first_life", first);
	if (child_start(ctx, at, 1, NULL, &c) || child_finish(&c, &second, 1) != 1)
		return cannot(ctx, "the restarted process");
	show(r, "second_life", second);
	report_checkf(r, "same-ms-restart-duplicates", first == 4194332672 && second == first,
		      "4194332672 twice", "%" PRId64 " then %" PRId64 "%s", first, second,
		      second == first ? " (duplicate)" : "");
	return 0;
}

static int case_rollback(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	const uint64_t at[] = {999, 1000, 999};
	const int64_t want[] = {4190138368, 4194332672, 4190138368};
	int64_t ids[3];
	struct child c;
	report_step(r, "Clock rollback: one process, one worker, the clock reads 999, 1000, 999");
	if (child_start(ctx, at, 3, NULL, &c) || child_finish(&c, ids, 3) != 3)
		return cannot(ctx, "the rollback process");
	for (int i = 0; i < 3; i++) {
		char key[32];
		snprintf(key, sizeof key, "clock_%d_%" PRIu64, i + 1, at[i]);
		show(r, key, ids[i]);
	}
	int same = !memcmp(ids, want, sizeof want);
	report_checkf(r, "rollback-duplicates", same && ids[0] == ids[2],
		      "[4190138368, 4194332672, 4190138368], first == last",
		      "[%" PRId64 ", %" PRId64 ", %" PRId64 "]%s", ids[0], ids[1], ids[2],
		      ids[0] == ids[2] ? ", first == last: duplicate" : "");
	return 0;
}

static int case_shared_worker(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	const uint64_t at[] = {1000};
	struct child a = {0}, b = {0};
	int64_t ida = 0, idb = 0;
	int gate[2], rc = 0;
	report_step(r, "Shared worker: two processes both configured with worker 7 are released "
		       "together (a barrier) and issue in ms 1000");
	if (pipe(gate) != 0)
		return cannot(ctx, "pipe");
	if (child_start(ctx, at, 1, gate, &a) || child_start(ctx, at, 1, gate, &b)) {
		rc = cannot(ctx, "starting the two processes");
		close(gate[1]);
		close(gate[0]);
		if (a.pid)
			child_finish(&a, &ida, 1);
		return rc;
	}
	close(gate[0]);
	close(gate[1]); /* release both */
	if (child_finish(&a, &ida, 1) != 1 || child_finish(&b, &idb, 1) != 1)
		return cannot(ctx, "a worker-7 process");
	report_evidence(r, "pids", "%d and %d", (int)a.pid, (int)b.pid);
	show(r, "process_a", ida);
	show(r, "process_b", idb);
	report_checkf(r, "shared-worker-duplicates", ida == 4194332672 && idb == ida,
		      "(1000, 7, 0) = 4194332672 from both", "%" PRId64 " and %" PRId64 "%s", ida,
		      idb, ida == idb ? " (duplicate)" : "");
	return 0;
}

static void budget(struct lab_ctx *ctx)
{
	struct report *r = ctx->report;
	int64_t id = 0;
	report_step(r, "The bit budget: 12 sequence bits, 10 worker bits, 41 time bits");
	report_checkf(r, "sequence-slots-per-ms", SNOWFLAKE_SEQS == 4096, "2^12 = 4096", "%u",
		      SNOWFLAKE_SEQS);
	report_evidence(r, "ceiling_per_second",
			"4096 x 1000 = %u,%03u,%03u ids per second per worker: a ceiling set by "
			"the bit layout, not a measured rate",
			SNOWFLAKE_SEQS * 1000u / 1000000, SNOWFLAKE_SEQS * 1000u / 1000 % 1000,
			SNOWFLAKE_SEQS * 1000u % 1000);
	report_checkf(r, "worker-values", SNOWFLAKE_WORKERS == 1024, "2^10 = 1024", "%u",
		      SNOWFLAKE_WORKERS);
	char years[16];
	snprintf(years, sizeof years, "%.1f", snowflake_years());
	report_checkf(r, "time-budget-years", !strcmp(years, "69.7"),
		      "2^41 ms / (1000*60*60*24*365.2425) = 69.7 years", "%s years (%.4f)", years,
		      snowflake_years());
	time_t end = (time_t)((SNOWFLAKE_EPOCH_MS + SNOWFLAKE_TIME_LIMIT) / 1000);
	struct tm tm;
	char when[32] = "?";
	if (gmtime_r(&end, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	report_evidence(r, "budget_ends", "epoch 2024-01-01 + 2^41 ms = %s", when);

	report_step(r, "Range checks: a field outside its bits is refused, never masked");
	int64_t last;
	snowflake_encode(SNOWFLAKE_TIME_LIMIT - 1, 1023, 4095, &last);
	show(r, "largest_id", last);
	int ok = snowflake_encode(SNOWFLAKE_TIME_LIMIT, 0, 0, &id) != 0 &&
		 snowflake_encode(0, 1024, 0, &id) != 0 && snowflake_encode(0, 0, 4096, &id) != 0;
	report_check(r, "out-of-range-refused", ok,
		     "t = 2^41, worker = 1024 and seq = 4096 all refused",
		     ok ? "all three refused" : "one was accepted");
	report_checkf(r, "sign-bit-zero", last == INT64_MAX,
		      "the largest triple is 2^63 - 1 (sign bit 0)", "%" PRId64, last);
}

static int id_collision_run(struct lab_ctx *ctx)
{
	int rc = case_restart(ctx);
	if (!rc)
		rc = case_rollback(ctx);
	if (!rc)
		rc = case_shared_worker(ctx);
	if (!rc)
		budget(ctx);
	report_step(ctx->report, "A unique worker id was not enough in two of the three cases; "
				 "the id-snowflake lab runs a generator that survives all three");
	return rc;
}

/* The entry point registered as lab_id_collision in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"A unique worker id was not enough: with the naive generator a restart within "
		"the same millisecond, a clock rollback and two processes sharing worker 7 each "
		"issued the same ID twice. The 41/10/12 layout gives 4096 IDs per millisecond "
		"per worker, 1024 workers and about 69.7 years.");
	return lab_outcome_of(ctx, id_collision_run(ctx));
}

const lab_run_fn lab_id_collision = lab_main;
