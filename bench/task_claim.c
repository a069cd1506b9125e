/*
 * task_claim.c - benchmark of the task table recipe on SQLite: how many
 * claim+complete pairs per second 1, 2 and 4 worker processes get from
 * one database file, in WAL mode with synchronous=NORMAL and FULL, next to
 * an unfenced goqite-style queue loop on the same machine, so the cost of
 * fencing is a ratio; then single-claim latency with 10k, 100k and 1M due
 * tasks, which must stay flat because claim_next reads the (state, due)
 * index from its start (the plan is printed).
 *
 * It prints figures; it asserts nothing (timings are never test
 * conditions).  Correctness of concurrent claims is the task-claim lab's
 * job.  Workers are forked, released together by a pipe the parent closes,
 * and die with the parent (PDEATHSIG).  Files go to --dir (default: a
 * fresh directory under /var/tmp, removed at the end), on a real disk so
 * FULL means an fsync per commit.
 *
 * The batch column claims and completes --batch tasks (default 32) per pair
 * of write transactions with tasktable_claim_batch/complete_batch.  The
 * fence-only column is the goqite loop with an owner, a version and a
 * guarded delete and nothing else: it separates what the fence costs from
 * what the recipe's other duties cost.  The floor column is the least any
 * loop over the recipe's own schema can do per task: the recipe's claim
 * and guarded complete statements alone, each in its own autocommit
 * transaction, the time from the worker's clock instead of db_now, no
 * claim-conflict count and one fixed claim_id per worker (no fresh id, no
 * BEGIN/COMMIT statements, no hook).  It runs no duty the recipe could
 * drop and still pass the task labs (those need the count, the database's
 * clock and a fresh claim_id), so floor/unf bounds what any recipe on this
 * schema can reach against the goqite loop.  Each row is --rounds (default
 * 5) rounds of the five loops, in turn and every other round in reverse,
 * and prints medians and the range of the per-round fenced/unfenced ratio:
 * on a loaded machine a single run of each swung the ratio about 2x.
 *
 *   task_claim [--dir DIR] [--tasks N] [--batch N] [--rounds N] [--quick] [--no-latency]
 */
#include "base/spawn.h"
#include "base/wb.h"
#include "base/sqlitex.h"
#include "recipes/tasktable.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR "."
#endif

static const char *schema_path = WB_SOURCE_DIR "/data/tasks.sql";

/* Eight writers behind fsyncing commits can wait longer than the 5 s
 * default for the lock; a throughput run should measure, not time out. */
#define BUSY_MS 60000

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the unfenced goqite-style queue --------------------------------- */

/* goqite (maragudk/goqite) receives with one UPDATE ... WHERE id = (SELECT
 * ... LIMIT 1) RETURNING and deletes by id when done: no owner, no
 * version, no lease check on delete. */
static const char goqite_schema[] = "CREATE TABLE IF NOT EXISTS q ("
				    "  id TEXT PRIMARY KEY,"
				    "  created INTEGER NOT NULL,"
				    "  timeout INTEGER NOT NULL DEFAULT 0,"
				    "  received INTEGER NOT NULL DEFAULT 0"
				    ") STRICT;"
				    "CREATE INDEX IF NOT EXISTS q_created ON q (created);";

/* The same queue with a fence and nothing else: the receive also sets the
 * owner and bumps a version, and the delete only removes the row when the
 * owner, the version and an unexpired timeout still match (0 rows: a stale
 * holder, refused).  What fencing itself costs, next to the recipe's other
 * duties (takeover index, monitor count, attempts, history, recovery by
 * claim_id). */
static const char fenced_schema[] = "CREATE TABLE IF NOT EXISTS q ("
				    "  id TEXT PRIMARY KEY,"
				    "  created INTEGER NOT NULL,"
				    "  timeout INTEGER NOT NULL DEFAULT 0,"
				    "  received INTEGER NOT NULL DEFAULT 0,"
				    "  owner TEXT,"
				    "  version INTEGER NOT NULL DEFAULT 0"
				    ") STRICT;"
				    "CREATE INDEX IF NOT EXISTS q_created ON q (created);";

static long long wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

enum kind { RECIPE, GOQITE, FENCE_ONLY, FLOOR };

/* The values the receive/delete loops bind, by the names their statements
 * use; the floor's statements are the recipe's own (tasktable_sql), so
 * the goqite ones use the same names.  Indexes are looked up once per
 * prepared statement, not per step. */
enum { B_LEASE_END, B_LEASE_MS, B_NOW, B_OWNER, B_CLAIM_ID, B_TASK_ID, B_VERSION, B__N };
static const char *const bind_name[B__N] = {":lease_end", ":lease_ms", ":now",	  ":owner",
					    ":claim_id",  ":task_id",  ":version"};

struct bound {
	sqlite3_stmt *st;
	int at[B__N]; /* parameter index of each name, 0 where st has none */
};

static int bound_prepare(sqlite3 *db, const char *sql, struct bound *b)
{
	if (sqlitex_prepare(db, sql, &b->st))
		return -1;
	for (int i = 0; i < B__N; i++)
		b->at[i] = sqlite3_bind_parameter_index(b->st, bind_name[i]);
	return 0;
}

/* Resets b and binds the values it has parameters for: num[i] for the
 * integers, txt[i] (copied) for the texts. */
static void bound_reset(struct bound *b, const long long num[B__N], const char *const txt[B__N])
{
	sqlite3_reset(b->st);
	for (int i = 0; i < B__N; i++) {
		if (!b->at[i])
			continue;
		if (txt[i])
			sqlite3_bind_text(b->st, b->at[i], txt[i], -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_int64(b->st, b->at[i], num[i]);
	}
}

/* Receives (claims) and deletes (completes) until nothing is left;
 * returns messages done.  k: GOQITE, FENCE_ONLY (fenced_schema) or FLOOR
 * (the recipe's schema, and its claim_next and complete statements with
 * the time bound from this worker's clock, each its own autocommit
 * transaction, one fixed claim_id), as owner. */
static long goqite_loop(sqlite3 *db, enum kind k, const char *owner, long *errors)
{
	static const char *const recv_sql[] = {
		[GOQITE] = "UPDATE q SET timeout = :lease_end, received = received + 1"
			   " WHERE id = (SELECT id FROM q WHERE :now >= timeout AND received < 3"
			   "             ORDER BY created LIMIT 1) RETURNING id",
		[FENCE_ONLY] =
			"UPDATE q SET timeout = :lease_end, received = received + 1,"
			"  owner = :owner, version = version + 1"
			" WHERE id = (SELECT id FROM q WHERE :now >= timeout AND received < 3"
			"             ORDER BY created LIMIT 1) RETURNING id, version",
	};
	static const char *const del_sql[] = {
		[GOQITE] = "DELETE FROM q WHERE id = :task_id",
		[FENCE_ONLY] = "DELETE FROM q WHERE id = :task_id AND owner = :owner"
			       " AND version = :version AND timeout > :now",
	};
	const char *who = k == FLOOR ? "floor" : "goqite";
	int fenced = k != GOQITE;
	struct bound recv = {0}, del = {0};
	long done = 0;
	char claim_id[33]; /* the floor's one claim_id: no fresh id per claim */
	char id[64];	   /* the received task's */
	snprintf(claim_id, sizeof claim_id, "%-32s", owner);
	long long num[B__N] = {[B_LEASE_MS] = 30000};
	const char *txt[B__N] = {[B_OWNER] = owner, [B_CLAIM_ID] = claim_id, [B_TASK_ID] = id};
	if (bound_prepare(db, k == FLOOR ? tasktable_sql("claim_next") : recv_sql[k], &recv) ||
	    bound_prepare(db, k == FLOOR ? tasktable_sql("complete") : del_sql[k], &del))
		goto out;
	for (;;) {
		num[B_NOW] = wall_ms();
		num[B_LEASE_END] = num[B_NOW] + 30000;
		bound_reset(&recv, num, txt);
		int s = sqlite3_step(recv.st);
		if (s == SQLITE_DONE)
			break; /* empty */
		if (s != SQLITE_ROW) {
			if (!(*errors)++)
				fprintf(stderr, "task_claim: %s: %s\n", who, sqlite3_errmsg(db));
			if ((s & 0xFF) == SQLITE_BUSY && *errors < 100)
				continue;
			break;
		}
		snprintf(id, sizeof id, "%s", (const char *)sqlite3_column_text(recv.st, 0));
		num[B_VERSION] = fenced ? sqlite3_column_int64(recv.st, 1) : 0;
		sqlite3_reset(recv.st);
		num[B_NOW] = wall_ms();
		bound_reset(&del, num, txt);
		if (sqlite3_step(del.st) != SQLITE_DONE || (fenced && sqlite3_changes(db) != 1)) {
			if (!(*errors)++)
				fprintf(stderr, "task_claim: %s: %s\n", who, sqlite3_errmsg(db));
			break;
		}
		done++;
	}
out:
	sqlite3_finalize(recv.st);
	sqlite3_finalize(del.st);
	return done;
}

/* ---- the fenced recipe loop ------------------------------------------ */

/* Claims up to batch tasks per call (tasktable_claim_batch) and completes
 * them in one transaction (tasktable_complete_batch): two write
 * transactions per batch instead of per task. */
static long batch_loop(struct tasktable *tt, const char *owner, int batch, long *errors)
{
	struct task_claim c[TASK_BATCH_MAX];
	long done = 0;
	for (int busy = 0; busy < 100;) {
		int n = 0;
		int rc = tasktable_claim_batch(tt, owner, 30000, batch, c, &n);
		if (rc == TASK_ELOST)
			break; /* nothing left */
		if (rc) {
			if (!(*errors)++)
				fprintf(stderr, "task_claim: %s: %s\n", owner,
					tasktable_errmsg(tt));
			busy += rc == WB_EBUSY;
			continue;
		}
		rc = tasktable_complete_batch(tt, c, n, NULL);
		if (rc == 0)
			done += n;
		else if (!(*errors)++)
			fprintf(stderr, "task_claim: %s: %s\n", owner, tasktable_errmsg(tt));
	}
	return done;
}

static long recipe_loop(struct tasktable *tt, const char *owner, int batch, long *errors)
{
	if (batch > 1)
		return batch_loop(tt, owner, batch, errors);
	long done = 0;
	for (int busy = 0; busy < 100;) {
		struct task_claim c;
		int rc = tasktable_claim_next(tt, owner, 30000, &c);
		if (rc == TASK_ELOST)
			break; /* nothing left */
		if (rc) {
			if (!(*errors)++)
				fprintf(stderr, "task_claim: %s: %s\n", owner,
					tasktable_errmsg(tt));
			busy += rc == WB_EBUSY;
			continue;
		}
		rc = tasktable_complete(tt, &c);
		if (rc == 0) {
			done++;
		} else if (!(*errors)++) {
			fprintf(stderr, "task_claim: %s: %s\n", owner, tasktable_errmsg(tt));
		}
	}
	return done;
}

/* ---- one throughput run ---------------------------------------------- */

struct result {
	double seconds;
	long done;
	long errors;
};

static int fill(const char *path, enum kind k, int tasks, int sync)
{
	struct sqlitex_opts o = {.synchronous = sync, .busy_timeout_ms = BUSY_MS};
	char err[256];
	unlink(path);
	char *wal = wb_xasprintf("%s-wal", path), *shm = wb_xasprintf("%s-shm", path);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
	sqlite3 *db = NULL;
	struct tasktable *tt = NULL;
	int rc;
	if (k == RECIPE || k == FLOOR) {
		rc = tasktable_open(path, schema_path, &o, &tt, err, sizeof err);
		if (rc == 0)
			rc = tasktable_clock_real(tt);
		db = tt ? tasktable_db(tt) : NULL;
	} else {
		rc = sqlitex_open(path, &o, &db, err, sizeof err);
		if (rc == 0)
			rc = sqlitex_exec(db, k == FENCE_ONLY ? fenced_schema : goqite_schema);
	}
	if (rc) {
		fprintf(stderr, "task_claim: %s: %s\n", path, err);
		goto out;
	}
	sqlite3_stmt *ins = NULL;
	rc = sqlitex_begin_immediate(db);
	if (rc == 0)
		rc = sqlitex_prepare(db,
				     k == RECIPE || k == FLOOR
					     ? "INSERT INTO task (task_id, due) VALUES (?1, ?2)"
					     : "INSERT INTO q (id, created) VALUES (?1, ?2)",
				     &ins);
	for (int i = 0; rc == 0 && i < tasks; i++) {
		char id[32];
		snprintf(id, sizeof id, "t%07d", i);
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(ins, 2, i); /* due long ago, in order */
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = WB_EIO;
	}
	sqlite3_finalize(ins);
	rc = sqlitex_end(db, rc);
	if (rc)
		fprintf(stderr, "task_claim: filling %s: %s\n", path, sqlite3_errmsg(db));
out:
	if (tt)
		tasktable_close(tt);
	else
		sqlite3_close_v2(db);
	return rc;
}

static int throughput(const char *path, enum kind k, int workers, int tasks, int sync, int batch,
		      struct result *res)
{
	memset(res, 0, sizeof *res);
	if (fill(path, k, tasks, sync) != 0)
		return -1;
	int go[2], out[2], ready[2];
	if (pipe(go) != 0 || pipe(out) != 0 || pipe(ready) != 0)
		return -1;
	pid_t pids[8];
	struct spawn_opts so = {.death_signal = SIGKILL, .out_fd = -1};
	for (int w = 0; w < workers; w++) {
		pid_t pid;
		if (spawn_fork(&so, &pid) != 0)
			return -1;
		if (pid == 0) {
			close(go[1]);
			close(out[0]);
			close(ready[0]);
			struct sqlitex_opts o = {.synchronous = sync, .busy_timeout_ms = BUSY_MS};
			long counts[2] = {0, 0};
			struct tasktable *tt = NULL;
			sqlite3 *db = NULL;
			int ok = k == RECIPE || k == FLOOR
					 ? tasktable_open(path, schema_path, &o, &tt, NULL, 0) == 0
					 : sqlitex_open(path, &o, &db, NULL, 0) == 0;
			char b = 'r';
			if (write(ready[1], &b, 1) != 1)
				_exit(3);
			while (read(go[0], &b, 1) < 0 && errno == EINTR)
				;
			if (ok) {
				char owner[16];
				snprintf(owner, sizeof owner, "w%d", w);
				counts[0] = k == RECIPE ? recipe_loop(tt, owner, batch, &counts[1])
							: goqite_loop(tt ? tasktable_db(tt) : db, k,
								      owner, &counts[1]);
			} else {
				counts[1] = 1;
			}
			ssize_t n = write(out[1], counts, sizeof counts);
			tasktable_close(tt);
			sqlite3_close_v2(db);
			_exit(n == (ssize_t)sizeof counts ? 0 : 3);
		}
		pids[w] = pid;
	}
	close(go[0]);
	close(out[1]);
	close(ready[1]);
	/* Every worker has opened its connection before the clock starts:
	 * opening is not what we measure. */
	for (int got = 0; got < workers;) {
		char b[8];
		ssize_t n = read(ready[0], b, sizeof b);
		if (n <= 0 && errno != EINTR)
			break;
		if (n > 0)
			got += (int)n;
	}
	close(ready[0]);
	double t0 = now_s();
	close(go[1]);
	for (int w = 0; w < workers; w++) {
		long counts[2];
		if (read(out[0], counts, sizeof counts) == (ssize_t)sizeof counts) {
			res->done += counts[0];
			res->errors += counts[1];
		}
	}
	res->seconds = now_s() - t0;
	close(out[0]);
	for (int w = 0; w < workers; w++)
		waitpid(pids[w], NULL, 0);
	if (res->done != tasks)
		res->errors += tasks - res->done;
	return 0;
}

#define MAX_ROUNDS 15

/* The median of v[0..n) (sorts v). */
static double median(double *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- latency against the backlog size -------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int latency(const char *path, int backlog, int samples, double *median, double *p99,
		   int print_plan)
{
	if (fill(path, RECIPE, backlog, 1) != 0)
		return -1;
	struct tasktable *tt = NULL;
	char err[256];
	if (tasktable_open(path, schema_path, NULL, &tt, err, sizeof err) != 0) {
		fprintf(stderr, "task_claim: %s\n", err);
		return -1;
	}
	sqlitex_exec(tasktable_db(tt), "ANALYZE");
	if (print_plan) {
		char *plan = NULL;
		if (tasktable_explain(tt, "claim_next", &plan) == 0) {
			printf("claim_next query plan (EXPLAIN QUERY PLAN):\n");
			for (char *line = strtok(plan, "\n"); line; line = strtok(NULL, "\n"))
				printf("    %s\n", line);
		}
		free(plan);
	}
	double *t = wb_xcalloc((size_t)samples, sizeof *t);
	int n = 0;
	for (int i = 0; i < samples; i++) {
		struct task_claim c;
		double a = now_s();
		int rc = tasktable_claim_next(tt, "bench", 30000, &c);
		double b = now_s();
		if (rc != 0)
			break;
		t[n++] = (b - a) * 1e6;
	}
	tasktable_close(tt);
	if (n == 0) {
		free(t);
		return -1;
	}
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	*median = t[n / 2];
	*p99 = t[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
	free(t);
	return 0;
}

/* Runs latency() in a child so that the child can configure SQLite before
 * its first use.  bulk: keep SQLite's default bulk page-cache allocation
 * (SQLITE_DEFAULT_PCACHE_INITSZ) or turn it off.  Returns 0 with the
 * figures, -1 on failure. */
static int latency_child(const char *path, int backlog, int bulk, int print_plan, double out[3])
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	struct spawn_opts so = {.death_signal = SIGKILL, .out_fd = -1};
	pid_t pid;
	if (spawn_fork(&so, &pid) != 0)
		return -1;
	if (pid == 0) {
		close(fd[0]);
		if (!bulk && sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0) != SQLITE_OK)
			_exit(3);
		double r[3];
		double t0 = now_s();
		if (latency(path, backlog, 2000, &r[0], &r[1], print_plan) != 0)
			_exit(3);
		r[2] = now_s() - t0;
		fflush(NULL);
		_exit(write(fd[1], r, sizeof r) == (ssize_t)sizeof r ? 0 : 3);
	}
	close(fd[1]);
	ssize_t n = read(fd[0], out, 3 * sizeof *out);
	close(fd[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	return n == (ssize_t)(3 * sizeof *out) && WIFEXITED(status) && WEXITSTATUS(status) == 0
		       ? 0
		       : -1;
}

/* ---- main ------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr, "usage: task_claim [--dir DIR] [--tasks N] [--batch N] [--rounds N] "
			"[--quick] [--no-latency]\n");
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	int tasks = 3000, quick = 0, batch = 32, latency_runs = 1, rounds = 5;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "--tasks") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 8 || v > 10000000) {
				fprintf(stderr, "task_claim: --tasks must be 8..10000000\n");
				return 2;
			}
			tasks = (int)v;
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > MAX_ROUNDS) {
				fprintf(stderr, "task_claim: --rounds must be 1..%d\n", MAX_ROUNDS);
				return 2;
			}
			rounds = (int)v;
		} else if (!strcmp(argv[i], "--quick")) {
			quick = 1;
		} else if (!strcmp(argv[i], "--no-latency")) {
			latency_runs = 0;
		} else if (!strcmp(argv[i], "--batch") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 2 || v > TASK_BATCH_MAX) {
				fprintf(stderr, "task_claim: --batch must be 2..%d\n",
					TASK_BATCH_MAX);
				return 2;
			}
			batch = (int)v;
		} else {
			usage();
			return 2;
		}
	}
	char tmpl[] = "/var/tmp/wb-bench-task-XXXXXX";
	int own_dir = 0;
	if (!dir) {
		if (!mkdtemp(tmpl)) {
			fprintf(stderr, "task_claim: mkdtemp: %s\n", strerror(errno));
			return 1;
		}
		dir = tmpl;
		own_dir = 1;
	}
	char *path = wb_xasprintf("%s/bench.db", dir);
	int rc = 1;
	printf("task_claim: SQLite %s, WAL, files in %s\n\n", sqlite3_libversion(), dir);

	/* Latency first: each figure comes from a child that configures
	 * SQLite before using it, and this process has not used it yet. */
	static const int backlogs[] = {10000, 100000, 1000000};
	printf("claim_next latency against the number of due tasks (2000 claims, one "
	       "connection, synchronous=NORMAL)\n");
	printf("  default: SQLite's bulk page-cache allocation per cache (20 pages); every "
	       "RETURNING\n  statement opens an ephemeral table with its own cache, so glibc may "
	       "grow and\n  trim the heap around it on every claim.  no-bulk: "
	       "SQLITE_CONFIG_PAGECACHE 0,0.\n");
	printf("  %-9s %14s %14s %14s %14s %10s\n", "due", "default med us", "default p99",
	       "no-bulk med us", "no-bulk p99", "vs 10k");
	double first = 0;
	for (size_t i = 0; latency_runs && i < WB_ARRAY_LEN(backlogs); i++) {
		if (quick && backlogs[i] > 100000)
			break;
		double a[3], b[3];
		if (latency_child(path, backlogs[i], 1, i == 0, a) != 0 ||
		    latency_child(path, backlogs[i], 0, 0, b) != 0) {
			fprintf(stderr, "task_claim: latency run failed\n");
			goto out;
		}
		if (i == 0)
			first = b[0];
		printf("  %-9d %14.1f %14.1f %14.1f %14.1f %10.2f   (%.1f s incl. fill)\n",
		       backlogs[i], a[0], a[1], b[0], b[1], b[0] / first, a[2] + b[2]);
	}
	printf("\n");

	/* Throughput without the bulk allocation, for both loops alike. */
	if (sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0) != SQLITE_OK) {
		fprintf(stderr, "task_claim: sqlite3_config failed\n");
		goto out;
	}
	printf("claim+complete per second.  fenced = this recipe (tasktable_claim_next +\n"
	       "tasktable_complete); unfenced = goqite-style UPDATE ... RETURNING + DELETE (two\n"
	       "write transactions per task, as the recipe); fonly = the same goqite loop with\n"
	       "a fence and nothing else (owner and version set on receive, the delete guarded\n"
	       "by owner, version and timeout); batch = tasktable_claim_batch +\n"
	       "tasktable_complete_batch, %d tasks per pair of transactions; floor = the\n"
	       "recipe's two statements alone on its schema (autocommit, the worker's clock,\n"
	       "no count, a fixed claim_id): what any recipe on this schema can at most reach.\n"
	       "Each row runs the five loops %d times, in turn, every other round in reverse\n"
	       "order, and shows median rates, ratios of medians, and the range of the\n"
	       "per-round f/unf ratios.\n",
	       batch, rounds);
	static const int wset[] = {1, 2, 4};
	for (int sync = 1; sync <= 2; sync++) {
		int n = sync == 2 && tasks > 1000 ? tasks / 3 : tasks; /* FULL fsyncs */
		printf("synchronous=%s, %d tasks per run\n", sync == 2 ? "FULL" : "NORMAL", n);
		printf("  %-8s %9s %9s %9s %9s %9s %7s %7s %7s %7s %13s %s\n", "workers",
		       "fenced/s", "batch/s", "fonly/s", "floor/s", "unfenc/s", "f/unf", "fo/unf",
		       "fl/unf", "b/unf", "f/unf rounds", "errors f/b/fo/fl/u");
		for (size_t i = 0; i < WB_ARRAY_LEN(wset); i++) {
			if (quick && wset[i] > 2)
				break;
			/* The loops of a row: fenced, batch, fence-only, floor,
			 * unfenced; each round runs them in turn, every other
			 * round in reverse order, so neither side of a ratio
			 * always runs first on a warm cache or a quiet machine. */
			enum { NL = 5, UNF = NL - 1 };
			static const struct {
				enum kind k;
				int batched; /* 1: tasktable_claim_batch, batch tasks a call */
			} loops[NL] = {
				{RECIPE, 0}, {RECIPE, 1}, {FENCE_ONLY, 0}, {FLOOR, 0}, {GOQITE, 0}};
			double rate[NL][MAX_ROUNDS], rf[MAX_ROUNDS];
			long errs[NL] = {0};
			for (int r = 0; r < rounds; r++) {
				for (int j = 0; j < NL; j++) {
					int l = r % 2 ? NL - 1 - j : j;
					struct result res;
					if (throughput(path, loops[l].k, wset[i], n, sync,
						       loops[l].batched ? batch : 1, &res) != 0) {
						fprintf(stderr, "task_claim: run failed\n");
						goto out;
					}
					rate[l][r] = (double)res.done / res.seconds;
					errs[l] += res.errors;
				}
				rf[r] = rate[0][r] / rate[UNF][r];
			}
			double lo = rf[0], hi = rf[0];
			for (int r = 1; r < rounds; r++) {
				lo = rf[r] < lo ? rf[r] : lo;
				hi = rf[r] > hi ? rf[r] : hi;
			}
			double m[NL];
			for (int l = 0; l < NL; l++)
				m[l] = median(rate[l], rounds);
			printf("  %-8d %9.0f %9.0f %9.0f %9.0f %9.0f %7.2f %7.2f %7.2f %7.2f "
			       "%7.2f..%-5.2f %ld/%ld/%ld/%ld/%ld\n",
			       wset[i], m[0], m[1], m[2], m[3], m[UNF], median(rf, rounds),
			       m[2] / m[UNF], m[3] / m[UNF], m[1] / m[UNF], lo, hi, errs[0],
			       errs[1], errs[2], errs[3], errs[4]);
		}
		printf("\n");
	}
	rc = 0;
out:;
	char *wal = wb_xasprintf("%s-wal", path), *shm = wb_xasprintf("%s-shm", path);
	unlink(path);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
	free(path);
	if (own_dir)
		rmdir(dir);
	return rc;
}
