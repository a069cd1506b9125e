/*
 * id-snowflake.c - the lab "id-snowflake": the generator in
 * recipes/snowflake.c against each duplicate of the id-collision lab,
 * with a controllable clock, a real SQLite reservation file, a real
 * ZooKeeper server for the worker leases, and real processes for the
 * restart and the second holder.
 *
 *   1. rollback: the clock steps back within the bound (wait), past it
 *      (refuse, nothing issued), the lesson's 999, 1000, 999;
 *   2. sequence exhaustion: 4096 per ms, then the next ms, never a wrap;
 *   3. same-ms restart: a process is SIGKILLed right after issuing in ms
 *      1000; its successor starts with the clock still at 1000 and resumes
 *      above the persisted reservation;
 *   4. duplicate worker: a second process cannot take a held worker id; the
 *      holder is paused (SIGSTOP) until its session expires, a new holder
 *      takes the id with a larger generation, and the resumed old holder
 *      stops: by its lease, and even with a stale view of it, by the
 *      generation fence at its reservation;
 *   5. millions of ids with faults injected on the way, and a run on the
 *      real clock; no id repeats across everything this lab issued.
 *
 * Children are forked before anything starts a thread (no ZooKeeper client
 * exists yet), then told what to do over pipes.  Waiting is for events with
 * deadlines (node deletion, lease state), never a sleep.
 *
 * History (docs/histories.md): every request to a generator (this
 * process's W1, W9, W10 and the processes P1, P2, A, B2) is an op "issue"
 * (value: how many, result: first..last id); pauses, kills and expiries are
 * marks.  For the unique-id checker, the batches of steps 1-4 are expanded
 * into one "generate" op per id (about 24,500; each carries its batch's
 * index, and the ids of a batch are spread over its interval in issue
 * order) and must pass; step 5's millions are left to the lab's own sorted
 * comparison, which holds them all.
 *
 * The steps are id_snowflake_scenario (idsnowflake.h) over a generator
 * interface: the lab passes the recipe; the exercise snowflake-next runs
 * steps 1 to 3 with the learner's function behind an adapter.
 */
#include "base/spawn.h"
#include "base/wb.h"
#include "base/mono.h"
#include "harness/proc.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "ids/idsnowflake.h"
#include "lab.h"
#include "checkers/history.h"
#include "recipes/snowflake.h"
#include "checkers/unique.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RESERVE_MS  1000 /* each reservation reaches 1 s ahead */
#define MAX_WAIT_MS 50	 /* longest wait on a clock behind the last ms */
#define EXPIRY_WAIT 20000

/* ------------------------------------------------------------------ */
/* The recipe as an id_snowflake_impl                                   */

static int recipe_open(const struct snowflake_config *cfg, void **g, char *err, size_t errlen)
{
	struct snowflake_gen *sg = NULL;
	int rc = snowflake_gen_open(cfg, &sg, err, errlen);
	*g = sg;
	return rc;
}

static int recipe_next(void *g, int64_t *id)
{
	return snowflake_gen_next(g, id);
}

static const char *recipe_errmsg(void *g)
{
	return snowflake_gen_errmsg(g);
}

static void recipe_stats(void *g, struct snowflake_stats *out)
{
	snowflake_gen_stats(g, out);
}

static void recipe_stale(void *g, int on)
{
	snowflake_gen_set_stale_lease(g, on);
}

static void recipe_free(void *g)
{
	snowflake_gen_free(g);
}

const struct id_snowflake_impl id_snowflake_recipe = {
	.open = recipe_open,
	.next = recipe_next,
	.errmsg = recipe_errmsg,
	.stats = recipe_stats,
	.stale = recipe_stale,
	.free = recipe_free,
};

/* ------------------------------------------------------------------ */
/* Generator processes                                                  */

enum { OP_START = 1, OP_ISSUE, OP_WAIT_LOST, OP_STALE, OP_EXIT };

/* Parent to child. */
struct gmsg {
	int op;		   /* OP_* */
	int n;		   /* ids to issue, stale flag, or a timeout in ms */
	uint64_t clock;	   /* fake clock reading to set first (0: keep) */
	uint64_t max_wait; /* OP_START: the generator's max_wait_ms */
	uint32_t worker;   /* OP_START */
	char connect[256];
	char dir[256]; /* lease directory */
	char db[512];  /* reservation database */
	char ids[512]; /* file the child appends issued ids to */
	char logdir[512];
};

/* Child to parent. */
struct greply {
	int rc;	       /* 0 or WB_E* of the last operation */
	int count;     /* ids issued by OP_ISSUE */
	int64_t first; /* first and last id issued */
	int64_t last;
	uint64_t generation;
	uint64_t resumed_from;
	uint64_t waited_ms; /* the generator's total */
	int64_t session;
	int lease_state;
	char msg[256];
};

struct gchild {
	const char *name; /* for messages */
	pid_t pid;
	int to;	  /* write end of its command pipe */
	int from; /* read end of its reply pipe */
};

static int full_io(int fd, void *buf, size_t n, int writing)
{
	char *p = buf;
	while (n > 0) {
		ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void child_main(const struct id_snowflake_impl *impl, int in, int out)
{
	struct gmsg m;
	struct greply rep;
	struct zkc *c = NULL;
	struct snowflake_lease *lease = NULL;
	void *g = NULL;
	struct snowflake_fake_clock fc = {0};
	FILE *ids = NULL;

	while (full_io(in, &m, sizeof m, 0) == 0) {
		memset(&rep, 0, sizeof rep);
		if (m.op == OP_START) {
			rep.rc = zkc_connect(m.connect, ZKLAB_SESSION_MS, ZKLAB_WAIT_MS, m.logdir,
					     &c);
			if (rep.rc) {
				snprintf(rep.msg, sizeof rep.msg, "cannot connect to %.200s",
					 m.connect);
			} else {
				rep.session = zkc_session_id(c);
				rep.rc = snowflake_lease_acquire(zkc_handle(c), m.dir, m.worker,
								 &lease, rep.msg, sizeof rep.msg);
			}
			if (!rep.rc) {
				fc.now = m.clock;
				struct snowflake_config cfg = {
					.worker = m.worker,
					.lease = lease,
					.db_path = m.db,
					.reserve_ms = RESERVE_MS,
					.max_wait_ms = m.max_wait,
					.clock = snowflake_fake_clock(&fc),
				};
				rep.generation = snowflake_lease_generation(lease);
				rep.rc = impl->open(&cfg, &g, rep.msg, sizeof rep.msg);
			}
			if (!rep.rc) {
				struct snowflake_stats st;
				impl->stats(g, &st);
				rep.resumed_from = st.resumed_from;
				ids = fopen(m.ids, "ab");
				if (!ids) {
					rep.rc = WB_EIO;
					snprintf(rep.msg, sizeof rep.msg, "cannot open %.200s",
						 m.ids);
				}
			}
		} else if (m.op == OP_ISSUE && g && ids) {
			if (m.clock)
				fc.now = m.clock;
			for (int i = 0; i < m.n; i++) {
				int64_t id;
				rep.rc = impl->next(g, &id);
				if (rep.rc) {
					snprintf(rep.msg, sizeof rep.msg, "%s", impl->errmsg(g));
					break;
				}
				fwrite(&id, sizeof id, 1, ids);
				if (!rep.count++)
					rep.first = id;
				rep.last = id;
			}
			if (fflush(ids) != 0)
				rep.rc = WB_EIO;
			struct snowflake_stats st;
			impl->stats(g, &st);
			rep.waited_ms = st.waited_ms;
		} else if (m.op == OP_WAIT_LOST && lease) {
			/* Through SUSPENDED (the client sees the dead connection
			 * first) to LOST (the server says the session expired). */
			long long end = mono_now_ms() + m.n;
			enum snowflake_lease_state st;
			while ((st = snowflake_lease_state(lease)) != SNOWFLAKE_LEASE_LOST &&
			       mono_now_ms() < end)
				snowflake_lease_wait(lease, st, (int)(end - mono_now_ms()));
			rep.lease_state = (int)st;
		} else if (m.op == OP_STALE && g && impl->stale) {
			impl->stale(g, m.n);
		} else if (m.op == OP_EXIT) {
			break;
		} else {
			rep.rc = WB_EINVAL;
			snprintf(rep.msg, sizeof rep.msg, "operation %d out of order", m.op);
		}
		if (full_io(out, &rep, sizeof rep, 1) != 0)
			break;
	}
	if (ids)
		fclose(ids);
	if (g)
		impl->free(g);
	snowflake_lease_free(lease);
	zkc_close(c);
	_exit(0);
}

/* Forks children[0..n) while this process has no threads yet. */
static int prefork(struct lab_ctx *ctx, const struct id_snowflake_impl *impl, struct gchild *ch,
		   int n)
{
	for (int i = 0; i < n; i++) {
		int to[2], from[2];
		if (pipe(to) != 0)
			return -1;
		if (pipe(from) != 0) {
			close(to[0]);
			close(to[1]);
			return -1;
		}
		struct spawn_opts so = {.death_signal = SIGKILL, .out_fd = -1};
		pid_t pid;
		if (spawn_fork(&so, &pid) != 0)
			return -1;
		if (pid == 0) {
			for (int j = 0; j < i; j++) {
				close(ch[j].to);
				close(ch[j].from);
			}
			close(to[1]);
			close(from[0]);
			child_main(impl, to[0], from[1]);
		}
		close(to[0]);
		close(from[1]);
		ch[i].pid = pid;
		ch[i].to = to[1];
		ch[i].from = from[0];
		proc_record(ctx->run_dir, pid);
	}
	return 0;
}

/* Sends m and reads the reply.  Returns 0, or -1 when the child is gone. */
static int ask(struct gchild *c, struct gmsg *m, struct greply *rep)
{
	memset(rep, 0, sizeof *rep);
	if (full_io(c->to, m, sizeof *m, 1) != 0 || full_io(c->from, rep, sizeof *rep, 0) != 0) {
		snprintf(rep->msg, sizeof rep->msg, "process %s (pid %d) is gone", c->name,
			 (int)c->pid);
		rep->rc = WB_EIO;
		return -1;
	}
	return 0;
}

static void child_end(struct gchild *c)
{
	if (c->pid <= 0)
		return;
	struct gmsg m = {.op = OP_EXIT};
	if (full_io(c->to, &m, sizeof m, 1) != 0)
		kill(c->pid, SIGKILL);
	close(c->to);
	close(c->from);
	kill(c->pid, SIGCONT);
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
}

static void child_kill(struct gchild *c)
{
	kill(c->pid, SIGKILL);
	close(c->to);
	close(c->from);
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

struct ids {
	int64_t *v;
	size_t n, cap;
};

static void ids_add(struct ids *s, int64_t id)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1 << 16;
		s->v = wb_xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = id;
}

static int ids_file(struct ids *s, const char *path)
{
	FILE *f = fopen(path, "rb");
	int64_t id;
	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (fread(&id, sizeof id, 1, f) == 1)
		ids_add(s, id);
	fclose(f);
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Merges the sorted runs [from[b[j]], from[b[j+1]]) pairwise into to,
 * updating the boundaries b[0..*k] (b[*k] == n).  */
static void merge_pass(const int64_t *from, int64_t *to, size_t *b, size_t *k)
{
	size_t out = 0;
	for (size_t j = 0; j < *k; j += 2) {
		size_t lo = b[j], mid = j + 1 < *k ? b[j + 1] : b[*k],
		       hi = j + 1 < *k ? b[j + 2] : b[*k];
		size_t x = lo, y = mid, w = lo;
		while (x < mid && y < hi)
			to[w++] = from[y] < from[x] ? from[y++] : from[x++];
		while (x < mid)
			to[w++] = from[x++];
		while (y < hi)
			to[w++] = from[y++];
		b[out++] = lo;
	}
	b[out] = b[*k];
	*k = out;
}

/* Sorts v[0..n) ascending, as qsort with cmp_i64 would, by merging its
 * ascending runs (a natural merge sort).  The ids come in a few long
 * runs, one per generator and step, so this takes a few passes where
 * qsort of the 4 million took about 0.2 s of the lab's own time.  Falls
 * back to qsort when memory is short. */
static void sort_i64(int64_t *v, size_t n)
{
	size_t k = 0, cap = 64;
	size_t *b = malloc(cap * sizeof *b);
	int64_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
	for (size_t i = 0; b && i < n; i++) {
		if (i && v[i] >= v[i - 1])
			continue;
		if (k + 2 > cap) {
			size_t *nb = realloc(b, 2 * cap * sizeof *b);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		b[k++] = i; /* a run starts here */
	}
	if (!b || !tmp) {
		free(b);
		free(tmp);
		qsort(v, n, sizeof *v, cmp_i64);
		return;
	}
	b[k] = n;
	int64_t *from = v, *to = tmp;
	while (k > 1) {
		merge_pass(from, to, b, &k);
		int64_t *t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, n * sizeof *v);
	free(tmp);
	free(b);
	/* The repeat check compares neighbours, so it is only as good as
	 * this order: one linear look, and qsort if it is wrong, so a fault
	 * here can never hide a repeated id. */
	for (size_t i = 1; i < n; i++)
		if (v[i] < v[i - 1]) {
			qsort(v, n, sizeof *v, cmp_i64);
			break;
		}
}

static void show(struct report *r, const char *key, int64_t id)
{
	struct snowflake_triple t;
	char bits[SNOWFLAKE_BITS_LEN];
	snowflake_decode(id, &t);
	snowflake_bits(id, bits);
	report_evidence(r, key, "(%" PRIu64 ", %" PRIu32 ", %" PRIu32 ") -> %" PRId64 " = %s", t.t,
			t.worker, t.seq, id, bits);
}

static uint64_t t_of(int64_t id)
{
	struct snowflake_triple t;
	snowflake_decode(id, &t);
	return t.t;
}

/* One recorded request for ids: which op, whose ids, where they are. */
struct batch {
	int op;	      /* the "issue" op in the history */
	int child;    /* index in run.ch, or -1: this process (run.all) */
	size_t off;   /* first id: in run.all, or in the child's ids file */
	size_t count; /* ids issued */
};

#define MAX_BATCHES 32

/* Everything the steps share. */
struct run {
	struct lab_ctx *ctx;
	const struct id_snowflake_impl *impl; /* steps 1-3 (4 and 5: the recipe) */
	struct report *r;
	struct zklab *z;
	struct zkc *c;	/* the parent's own session */
	char *dir;	/* lease directory */
	char *db;	/* reservation database */
	struct ids all; /* every id issued in this process */
	struct gchild ch[5];
	struct batch batch[MAX_BATCHES]; /* steps 1-4, for the unique checker */
	int n_batch;
	size_t in_file[5]; /* ids each child wrote to its file so far */
};

/* Records the start of a request to process for n ids; returns the op. */
static int batch_begin(struct run *R, const char *process, int n)
{
	char v[16];
	snprintf(v, sizeof v, "%d", n);
	return report_invoke(R->r, process, "issue", v);
}

/* Records the end: ok "first..last" when ids came (kept for the checker
 * when keep), fail when none did. */
static void batch_end(struct run *R, int op, int child, size_t off, size_t count, int64_t first,
		      int64_t last, int keep)
{
	char res[48];
	snprintf(res, sizeof res, "%" PRId64 "..%" PRId64, first, last);
	report_complete(R->r, op, count ? HIST_OK : HIST_FAIL, count ? res : NULL);
	if (keep && count && op >= 0 && R->n_batch < MAX_BATCHES)
		R->batch[R->n_batch++] = (struct batch){op, child, off, count};
}

/* Ids issued in this process from R->all[off..) as one recorded batch. */
static void batch_local(struct run *R, int op, size_t off)
{
	size_t n = R->all.n - off;
	batch_end(R, op, -1, off, n, n ? R->all.v[off] : 0, n ? R->all.v[R->all.n - 1] : 0, 1);
}

static int cannot(struct run *R, const char *what, const char *msg)
{
	report_cannot(R->r, "%s: %s", what, msg);
	return WB_EUNAVAIL;
}

/* The generator under the steps did not issue what it was asked for: for
 * the recipe the environment failed (cannot), for code under test a check
 * (idsnowflake.h).  Returns the code to stop the step with. */
static int gen_failed(struct run *R, const char *what, int rc, const char *msg)
{
	if (!R->impl->under_test)
		return cannot(R, what, msg);
	if (rc == WB_ECONFLICT)
		report_checkf(R->r, "issues-within-reservation", 0,
			      "every id has t below the reservation made durable before it",
			      "%s: %s", what, msg);
	else
		report_checkf(R->r, "generator-answers", 0,
			      "the generator issues every id the step asks for", "%s: %s (%s)",
			      what, msg, wb_strerror(rc));
	return WB_EIO;
}

static struct gmsg start_msg(struct run *R, uint32_t worker, uint64_t clock, const char *tag)
{
	struct gmsg m = {.op = OP_START, .worker = worker, .clock = clock, .max_wait = 2000};
	snprintf(m.connect, sizeof m.connect, "%s", R->z->connect);
	snprintf(m.dir, sizeof m.dir, "%s", R->dir);
	snprintf(m.db, sizeof m.db, "%s", R->db);
	snprintf(m.ids, sizeof m.ids, "%s/ids-%s.bin", R->ctx->run_dir, tag);
	snprintf(m.logdir, sizeof m.logdir, "%s", R->ctx->run_dir);
	return m;
}

static struct gmsg issue_msg(uint64_t clock, int n)
{
	return (struct gmsg){.op = OP_ISSUE, .clock = clock, .n = n};
}

/* ask() for an OP_ISSUE, recorded as a batch of child c. */
static int ask_issue(struct run *R, struct gchild *c, struct gmsg *m, struct greply *rep)
{
	int i = (int)(c - R->ch);
	int op = batch_begin(R, c->name, m->n);
	int rc = ask(c, m, rep);
	size_t n = rep->count > 0 ? (size_t)rep->count : 0;
	batch_end(R, op, i, R->in_file[i], n, rep->first, rep->last, 1);
	R->in_file[i] += n;
	return rc;
}

/* Opens a generator in this process with its own lease. */
static int open_local(struct run *R, const struct id_snowflake_impl *impl, uint32_t worker,
		      struct snowflake_fake_clock *fc, struct snowflake_lease **lease, void **g)
{
	char err[256];
	if (snowflake_lease_acquire(zkc_handle(R->c), R->dir, worker, lease, err, sizeof err))
		return cannot(R, "lease", err);
	struct snowflake_config cfg = {
		.worker = worker,
		.lease = *lease,
		.db_path = R->db,
		.reserve_ms = RESERVE_MS,
		.max_wait_ms = MAX_WAIT_MS,
		.clock = fc ? snowflake_fake_clock(fc) : snowflake_system_clock(),
	};
	if (impl->open(&cfg, g, err, sizeof err))
		return cannot(R, "generator", err);
	return 0;
}

/* ------------------------------------------------------------------ */
/* 1 and 2: rollback and exhaustion                                     */

/* One id from worker 1's local generator g, recorded as a batch of one
 * (kept in R->all when issued).  Returns next()'s code. */
static int next_local(struct run *R, void *g, int64_t *id)
{
	size_t off = R->all.n;
	int op = batch_begin(R, "W1", 1);
	int rc = R->impl->next(g, id);
	if (!rc)
		ids_add(&R->all, *id);
	batch_local(R, op, off);
	return rc;
}

/* Step 1, small steps back: 100 ids at ms 1000, then the clock reads
 * 980 (within the bound: it waits) and 999 (the lesson's sequence).
 * Returns 0, or gen_failed's code when the first ids do not come. */
static int rollback_within_bound(struct run *R, void *g, struct snowflake_fake_clock *fc)
{
	struct report *r = R->r;
	int64_t id = 0, prev = -1;
	int rc = 0;
	report_step(r,
		    "Rollback: worker 1 issues 100 ids at ms 1000, then the clock steps back "
		    "20 ms (bound %d ms)",
		    MAX_WAIT_MS);
	size_t off = R->all.n;
	int op = batch_begin(R, "W1", 100);
	for (int i = 0; i < 100 && !rc; i++) {
		rc = R->impl->next(g, &id);
		ids_add(&R->all, id);
	}
	batch_local(R, op, off);
	if (rc)
		return gen_failed(R, "issuing", rc, R->impl->errmsg(g));
	show(r, "first", R->all.v[R->all.n - 100]);
	prev = id;
	fc->now = 980;
	report_mark(r, "W1", "clock steps back to 980");
	rc = next_local(R, g, &id);
	show(r, "after_step_back", id);
	report_checkf(r, "rollback-waits",
		      rc == 0 && fc->slept == 20 && id > prev && t_of(id) == 1000,
		      "waits 20 ms, then (1000, 1, 100): no past ms reused",
		      "rc %d, waited %" PRIu64 " ms, t = %" PRIu64, rc, fc->slept, t_of(id));

	report_step(r, "The lesson's sequence: the clock reads 999 after 1000");
	prev = id;
	fc->now = 999;
	report_mark(r, "W1", "clock reads 999");
	rc = next_local(R, g, &id);
	show(r, "clock_999", id);
	report_checkf(r, "no-reuse-of-999", rc == 0 && t_of(id) == 1000 && id > prev,
		      "t stays 1000 (the naive model reissued 4190138368 here)",
		      "t = %" PRIu64 ", id %" PRId64, t_of(id), id);
	return 0;
}

/* Step 1, a step back ten times the bound: refused after waiting the
 * bound, and issuing resumes when the clock returns. */
static void rollback_past_bound(struct run *R, void *g, struct snowflake_fake_clock *fc)
{
	struct report *r = R->r;
	struct snowflake_stats st;
	report_step(r, "The clock steps back 500 ms, ten times the bound");
	fc->now = 500;
	fc->slept = 0;
	int64_t id = 0;
	report_mark(r, "W1", "clock steps back to 500");
	int op = batch_begin(R, "W1", 1);
	int rc = R->impl->next(g, &id);
	if (rc == 0)
		ids_add(&R->all, id);
	batch_end(R, op, -1, R->all.n - (rc == 0), rc == 0, id, id, 1);
	R->impl->stats(g, &st);
	report_checkf(r, "rollback-refused", rc == WB_EBUSY && id == 0 && fc->slept == MAX_WAIT_MS,
		      "refused after waiting the bound; nothing issued", "%s",
		      rc == WB_EBUSY ? R->impl->errmsg(g) : "issued an id");
	fc->now = 1001;
	rc = next_local(R, g, &id);
	report_checkf(r, "resumes-when-clock-returns", rc == 0 && t_of(id) == 1001,
		      "the clock reads 1001 again: (1001, 1, 0)", "rc %d, t = %" PRIu64, rc,
		      t_of(id));
}

/* Step 2: the clock frozen at ms 2000, 3 x 4096 + 1 ids: the sequence
 * waits for the next ms instead of wrapping.  Returns 0, or gen_failed's
 * code when an id does not come. */
static int exhaustion(struct run *R, void *g, struct snowflake_fake_clock *fc)
{
	struct report *r = R->r;
	int64_t id = 0;
	report_step(r, "Exhaustion: the clock frozen at ms 2000; 3 x 4096 + 1 ids");
	fc->now = 2000;
	fc->slept = 0;
	int per_ms[4] = {0}, wrapped = 0;
	uint32_t last_seq = 0;
	uint64_t last_t = 0;
	size_t off = R->all.n;
	int op = batch_begin(R, "W1", 3 * 4096 + 1);
	for (int i = 0; i < 3 * 4096 + 1; i++) {
		int rc = R->impl->next(g, &id);
		if (rc) {
			batch_local(R, op, off);
			return gen_failed(R, "issuing", rc, R->impl->errmsg(g));
		}
		ids_add(&R->all, id);
		struct snowflake_triple t;
		snowflake_decode(id, &t);
		if (t.t >= 2000 && t.t < 2004)
			per_ms[t.t - 2000]++;
		if (i && t.t == last_t && t.seq != last_seq + 1)
			wrapped++;
		last_t = t.t;
		last_seq = t.seq;
	}
	batch_local(R, op, off);
	show(r, "after_exhaustion", id);
	report_checkf(r, "sequence-never-wraps",
		      per_ms[0] == 4096 && per_ms[1] == 4096 && per_ms[2] == 4096 &&
			      per_ms[3] == 1 && wrapped == 0 && fc->slept == 3,
		      "4096 in each of ms 2000, 2001, 2002, then 1 in 2003; waited 3 x 1 ms",
		      "%d, %d, %d, %d; waited %" PRIu64 " ms; %d wraps", per_ms[0], per_ms[1],
		      per_ms[2], per_ms[3], fc->slept, wrapped);
	return 0;
}

/* Steps 1 and 2 on worker 1's generator, opened in this process on a
 * fake clock. */
static int step_rollback_and_exhaustion(struct run *R)
{
	struct snowflake_fake_clock fc = {.now = 1000};
	struct snowflake_lease *lease = NULL;
	void *g = NULL;
	int rc = open_local(R, R->impl, 1, &fc, &lease, &g);
	if (rc)
		goto out;
	report_evidence(R->r, "worker_1", "%s, generation %" PRIu64, snowflake_lease_path(lease),
			snowflake_lease_generation(lease));
	if ((rc = rollback_within_bound(R, g, &fc)) != 0)
		goto out;
	rollback_past_bound(R, g, &fc);
	rc = exhaustion(R, g, &fc);
out:
	if (g)
		R->impl->free(g);
	snowflake_lease_free(lease);
	return rc;
}

/* ------------------------------------------------------------------ */
/* 3: restart in the same millisecond                                   */

/* Sets a watch on path with the parent's session, runs `act`, and waits
 * for the node's deletion.  Returns the ms waited or -1. */
static long long watch_then(struct run *R, const char *path, struct gchild *c, int sig)
{
	struct Stat st;
	int zrc = zoo_exists(zkc_handle(R->c), path, 1, &st);
	if (zrc != ZOK)
		return -1;
	long long t0 = mono_now_ms();
	report_mark(R->r, c->name, "%s", sig == SIGKILL ? "SIGKILL" : "SIGSTOP");
	if (sig == SIGKILL)
		child_kill(c);
	else
		kill(c->pid, sig);
	if (zkc_wait_event(R->c, ZOO_DELETED_EVENT, path, EXPIRY_WAIT, NULL) != 0)
		return -1;
	report_mark(R->r, "zk", "session of %s expired: %s deleted", c->name,
		    strrchr(path, '/') + 1);
	report_story_wait(R->r, (long)(mono_now_ms() - t0), "session-expiry");
	return mono_now_ms() - t0;
}

static int step_restart(struct run *R, struct gchild *p1, struct gchild *p2)
{
	struct report *r = R->r;
	struct greply a, b, s1;
	struct gmsg m = start_msg(R, 2, 1000, "p1");
	char *path = wb_xasprintf("%s/worker-0002", R->dir);
	int rc = 0;

	report_step(r,
		    "Same-ms restart: process P1 takes worker 2, issues 5000 ids from ms 1000 "
		    "(reserving up to ms %d first), and is SIGKILLed",
		    1000 + RESERVE_MS);
	if (ask(p1, &m, &s1) || s1.rc) {
		rc = cannot(R, "P1", s1.msg);
		goto out;
	}
	m = issue_msg(1000, 5000);
	if (ask_issue(R, p1, &m, &a) || a.rc || a.count != 5000) {
		rc = gen_failed(R, "P1 issuing", a.rc, a.msg);
		goto out;
	}
	show(r, "p1_first", a.first);
	show(r, "p1_last", a.last);
	long long waited = watch_then(R, path, p1, SIGKILL);
	if (waited < 0) {
		rc = cannot(R, "P1's lease", "its node was not deleted after the kill");
		goto out;
	}
	report_evidence(r, "p1_session_expired", "node %s deleted %lld ms after the kill", path,
			waited);

	report_step(r, "P2 starts while the clock still reads 1000 and takes worker 2");
	m = start_msg(R, 2, 1000, "p2");
	if (ask(p2, &m, &b) || b.rc) {
		rc = cannot(R, "P2", b.msg);
		goto out;
	}
	report_evidence(r, "p2_resumes_from", "reservation %" PRIu64 " found in %s", b.resumed_from,
			R->db);
	m = issue_msg(1000, 5000);
	struct greply c;
	if (ask_issue(R, p2, &m, &c) || c.rc || c.count != 5000) {
		rc = gen_failed(R, "P2 issuing", c.rc, c.msg);
		goto out;
	}
	show(r, "p2_first", c.first);
	int64_t naive;
	snowflake_encode(1000, 2, 0, &naive);
	report_evidence(r, "without_reservation",
			"a fresh sequence at ms 1000 would have issued %" PRId64 " again", naive);
	report_checkf(r, "restart-resumes-above-reservation",
		      b.resumed_from == 1000 + RESERVE_MS && t_of(c.first) >= b.resumed_from &&
			      c.first > a.last && b.generation > s1.generation,
		      "P2's first id at t >= 2000, above every id of P1; a newer generation",
		      "t = %" PRIu64 " (waited %" PRIu64 " ms), first %" PRId64
		      " > P1's last %" PRId64 ", generation %" PRIu64 " > %" PRIu64,
		      t_of(c.first), c.waited_ms, c.first, a.last, b.generation, s1.generation);
out:
	free(path);
	return rc;
}

/* ------------------------------------------------------------------ */
/* 4: a second holder of worker 7                                       */

static int step_duplicate_worker(struct run *R, struct gchild *A, struct gchild *B,
				 struct gchild *B2)
{
	struct report *r = R->r;
	struct greply a, b, b2, x;
	struct gmsg m = start_msg(R, 7, 5000, "a");
	char *path = wb_xasprintf("%s/worker-0007", R->dir);
	char hex[ZKC_HEX_LEN];
	int rc = 0;

	report_step(r, "Process A takes worker 7 and issues 1000 ids at ms 5000");
	if (ask(A, &m, &a) || a.rc) {
		rc = cannot(R, "A", a.msg);
		goto out;
	}
	m = issue_msg(5000, 1000);
	if (ask_issue(R, A, &m, &x) || x.rc) {
		rc = cannot(R, "A issuing", x.msg);
		goto out;
	}
	int64_t a_last = x.last;
	report_evidence(r, "A", "session %s, generation %" PRIu64 ", last id %" PRId64,
			zkc_hex(a.session, hex), a.generation, a_last);

	report_step(r, "Process B asks for worker 7 while A holds it");
	m = start_msg(R, 7, 5000, "b");
	ask(B, &m, &b);
	if (b.rc)
		report_mark(r, "B", "refused worker 7");
	report_checkf(r, "second-holder-refused",
		      b.rc == WB_EBUSY && strstr(b.msg, "held by session") != NULL,
		      "refused: the ephemeral node exists", "%s", b.rc ? b.msg : "B got worker 7");
	child_end(B);

	report_step(r, "A is paused (SIGSTOP: a long GC, a frozen VM) until the server expires "
		       "its session and deletes its node");
	long long waited = watch_then(R, path, A, SIGSTOP);
	report_checkf(r, "paused-holder-expires", waited >= 0,
		      "A's node is deleted while A cannot notice",
		      waited >= 0 ? "deleted %lld ms after the pause" : "not deleted (%lld)",
		      waited);
	if (waited < 0) {
		rc = WB_EUNAVAIL;
		goto out;
	}

	report_step(r, "Process B2 takes worker 7 with the clock at ms 5000");
	m = start_msg(R, 7, 5000, "b2");
	if (ask(B2, &m, &b2) || b2.rc) {
		rc = cannot(R, "B2", b2.msg);
		goto out;
	}
	m = issue_msg(5000, 1000);
	if (ask_issue(R, B2, &m, &x) || x.rc) {
		rc = cannot(R, "B2 issuing", x.msg);
		goto out;
	}
	int64_t b2_first = x.first;
	show(r, "b2_first", b2_first);
	report_checkf(r, "new-holder-newer-generation-above-window",
		      b2.generation > a.generation && b2.resumed_from == 5000 + RESERVE_MS &&
			      t_of(b2_first) >= b2.resumed_from && b2_first > a_last,
		      "generation above A's; first id at or above A's reservation (6000)",
		      "generation %" PRIu64 " > %" PRIu64 ", resumed from %" PRIu64
		      ", first t = %" PRIu64,
		      b2.generation, a.generation, b2.resumed_from, t_of(b2_first));

	report_step(r, "A resumes (SIGCONT); its client reconnects and learns the session is "
		       "gone");
	kill(A->pid, SIGCONT);
	report_mark(r, "A", "SIGCONT");
	m = (struct gmsg){.op = OP_WAIT_LOST, .n = EXPIRY_WAIT};
	ask(A, &m, &x);
	static const char *const state_names[] = {"HELD", "SUSPENDED", "LOST"};
	report_checkf(r, "old-holder-sees-loss", x.lease_state == SNOWFLAKE_LEASE_LOST,
		      "A's lease turns LOST", "%s",
		      x.lease_state >= 0 && x.lease_state <= 2 ? state_names[x.lease_state] : "?");
	m = issue_msg(5001, 10);
	ask_issue(R, A, &m, &x);
	report_checkf(r, "lost-lease-stops-issuing",
		      x.rc == WB_EUNAVAIL && x.count == 0 && strstr(x.msg, "is lost"),
		      "A refuses to issue", "%d issued; %s", x.count, x.msg);

	report_step(r, "Suppose A had not yet seen the expiry (a stale lease view, forced by a "
		       "hook): it may finish its committed window, below B2");
	m = (struct gmsg){.op = OP_STALE, .n = 1};
	ask(A, &m, &x);
	m = issue_msg(5500, 100);
	ask_issue(R, A, &m, &x);
	report_checkf(r, "stale-holder-stays-below-new-holder",
		      x.rc == 0 && x.count == 100 && x.last < b2_first,
		      "100 ids at t = 5500 < 6000: none can equal B2's",
		      "%d issued, last %" PRId64 " vs B2's first %" PRId64, x.count, x.last,
		      b2_first);
	m = issue_msg(5000 + RESERVE_MS, 1);
	ask_issue(R, A, &m, &x);
	report_checkf(r, "fenced-at-reservation",
		      x.rc == WB_EUNAVAIL && x.count == 0 && strstr(x.msg, "newer generation"),
		      "A cannot extend its reservation: the row belongs to B2's generation",
		      "%d issued; %s", x.count, x.msg);
out:
	free(path);
	return rc;
}

/* ------------------------------------------------------------------ */
/* 5: millions of ids with faults injected, and the real clock          */

/* The counters of a generator about to be dropped, added up. */
struct fault_tally {
	uint64_t waits, refusals, exhausted, commits, restarts;
};

static void tally_add(struct fault_tally *t, struct snowflake_gen *g)
{
	struct snowflake_stats st;
	snowflake_gen_stats(g, &st);
	t->waits += st.rollback_waits;
	t->refusals += st.rollback_refused;
	t->exhausted += st.exhausted_waits;
	t->commits += st.commits;
}

/* The fault due after the n-th block of ids: a 30 ms step back, a 5 s
 * step back, a frozen clock, or a restart (a new generator object, the
 * clock at the last issued ms).  0 or the code of cannot(). */
static int inject_fault(struct run *R, int n, struct snowflake_fake_clock *fc,
			struct snowflake_lease *lease, void **g, int64_t prev,
			struct fault_tally *t)
{
	switch (n % 4) {
	case 0: fc->now -= 30; return 0;
	case 1: fc->now -= 5000; return 0;
	case 2: fc->tick_every = 0; return 0;
	default: break;
	}
	tally_add(t, *g);
	snowflake_gen_free(*g);
	*g = NULL;
	struct snowflake_config cfg = {
		.worker = 9,
		.lease = lease,
		.db_path = R->db,
		.reserve_ms = RESERVE_MS,
		.max_wait_ms = MAX_WAIT_MS,
		.clock = snowflake_fake_clock(fc),
	};
	char err[256];
	if (recipe_open(&cfg, g, err, sizeof err)) {
		*g = NULL;
		return cannot(R, "reopening", err);
	}
	fc->now = t_of(prev);
	fc->tick_every = 1000;
	t->restarts++;
	return 0;
}

/* Worker 9 on a fake clock with a fault every EVERY ids. */
static int millions_with_faults(struct run *R)
{
	struct report *r = R->r;
	enum { TOTAL = 3000000, EVERY = 100000 };
	struct snowflake_fake_clock fc = {.now = 10000, .tick_every = 1000};
	struct snowflake_lease *lease = NULL;
	void *g = NULL;
	struct fault_tally t = {0};
	int64_t prev = -1;
	int increasing = 1, rc;
	size_t start = R->all.n;

	report_step(r,
		    "Worker 9: %d ids on a clock advancing 1 ms per 1000 reads; every %d ids "
		    "a fault: a 30 ms step back, a 5 s step back, a frozen clock, or a restart "
		    "in the same ms",
		    TOTAL, EVERY);
	if ((rc = open_local(R, &id_snowflake_recipe, 9, &fc, &lease, &g)) != 0)
		goto out;
	int op = batch_begin(R, "W9", TOTAL);
	for (int i = 0, fault = 0; i < TOTAL;) {
		if (i > 0 && i % EVERY == 0 && fault <= i / EVERY - 1)
			if ((rc = inject_fault(R, fault++, &fc, lease, &g, prev, &t)) != 0)
				goto out;
		int64_t id;
		rc = snowflake_gen_next(g, &id);
		if (rc == WB_EBUSY) {
			/* Refused: time passes while the caller backs off. */
			fc.now += MAX_WAIT_MS;
			continue;
		}
		if (rc) {
			rc = cannot(R, "issuing", snowflake_gen_errmsg(g));
			goto out;
		}
		if (id <= prev)
			increasing = 0;
		prev = id;
		ids_add(&R->all, id);
		i++;
	}
	batch_end(R, op, -1, start, R->all.n - start, R->all.v[start], prev, 0);
	tally_add(&t, g);
	report_evidence(r, "faults",
			"%" PRIu64 " rollback waits, %" PRIu64 " refusals, %" PRIu64
			" exhausted milliseconds, %" PRIu64 " restarts, %" PRIu64
			" reservation commits, fake clock at %" PRIu64 " ms",
			t.waits, t.refusals, t.exhausted, t.restarts, t.commits, fc.now);
	report_checkf(r, "faults-injected",
		      t.waits > 0 && t.refusals > 0 && t.exhausted > 0 && t.restarts > 0,
		      "every kind of fault happened",
		      "%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64, t.waits, t.refusals,
		      t.exhausted, t.restarts);
	report_checkf(r, "one-worker-strictly-increasing", increasing && R->all.n - start == TOTAL,
		      "3000000 ids, each greater than the one before, across every restart",
		      "%zu ids, %s", R->all.n - start, increasing ? "strictly increasing" : "NOT");
out:
	snowflake_gen_free(g);
	snowflake_lease_free(lease);
	return rc;
}

/* Worker 10 on the real clock, for the rate. */
static int millions_real_clock(struct run *R)
{
	struct report *r = R->r;
	struct snowflake_lease *lease = NULL;
	void *g = NULL;
	struct snowflake_stats st;
	int64_t prev = -1;
	int increasing = 1, rc;

	report_step(r, "Worker 10 on the real clock (CLOCK_REALTIME since 2024-01-01), 1000000 "
		       "ids, reservations committed with synchronous=FULL");
	if ((rc = open_local(R, &id_snowflake_recipe, 10, NULL, &lease, &g)) != 0)
		goto out;
	long long t0 = mono_now_ms();
	size_t start = R->all.n;
	int op = batch_begin(R, "W10", 1000000);
	for (int i = 0; i < 1000000; i++) {
		int64_t id;
		rc = snowflake_gen_next(g, &id);
		if (rc) {
			rc = cannot(R, "issuing on the real clock", snowflake_gen_errmsg(g));
			goto out;
		}
		if (id <= prev)
			increasing = 0;
		prev = id;
		ids_add(&R->all, id);
	}
	long long ms = mono_now_ms() - t0;
	batch_end(R, op, -1, start, R->all.n - start, R->all.v[start], prev, 0);
	snowflake_gen_stats(g, &st);
	/* At most 4096 ids per millisecond: a million take at least 245 ms
	 * of the real clock, spent waiting for the next millisecond once
	 * one is used up.  That floor is this step's story (the ceiling it
	 * shows); the time above it is the generator's and the lab's own. */
	long floor_ms = (1000000 + 4095) / 4096;
	report_story_wait(r, ms < floor_ms ? (long)ms : floor_ms, "ms-ceiling");
	report_evidence(
		r, "real_clock",
		"1000000 ids in %lld ms (%.0f per second, storing each id too; the ceiling is "
		"4,096,000), %" PRIu64 " exhausted ms, %" PRIu64 " commits",
		ms, ms ? 1000000.0 * 1000 / (double)ms : 0.0, st.exhausted_waits, st.commits);
	report_check(r, "real-clock-strictly-increasing", increasing, "each id above the last",
		     increasing ? "strictly increasing" : "NOT increasing");
out:
	snowflake_gen_free(g);
	snowflake_lease_free(lease);
	return rc;
}

static int step_millions(struct run *R)
{
	int rc = millions_with_faults(R);
	if (rc == 0)
		rc = millions_real_clock(R);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The unique-id checker on steps 1-4                                    */

/* Reads count ids of child i's file from id number off into out. */
static int child_ids(struct run *R, int i, size_t off, size_t count, int64_t *out)
{
	/* the ids file of child i: the tag its start_msg gave */
	static const char *const child_tags[5] = {"p1", "p2", "a", "b", "b2"};
	char *p = wb_xasprintf("%s/ids-%s.bin", R->ctx->run_dir, child_tags[i]);
	FILE *f = fopen(p, "rb");
	free(p);
	if (!f)
		return WB_EIO;
	int rc = fseek(f, (long)(off * sizeof *out), SEEK_SET) == 0 &&
				 fread(out, sizeof *out, count, f) == count
			 ? 0
			 : WB_EIO;
	fclose(f);
	return rc;
}

/* Expands the recorded batches into one "generate" op per id and runs
 * the unique checker on them (before R->all is sorted). */
static void check_unique(struct run *R)
{
	struct report *r = R->r;
	const struct history *h = report_history(r);
	size_t n = 0;
	for (int b = 0; b < R->n_batch; b++)
		n += R->batch[b].count;
	struct hist_op *ops = wb_xcalloc(n ? n : 1, sizeof *ops);
	char(*txt)[24] = wb_xcalloc(n ? n : 1, sizeof *txt);
	int64_t *ids = wb_xcalloc(n ? n : 1, sizeof *ids);
	size_t k = 0;
	int rc = 0;
	for (int b = 0; b < R->n_batch && !rc; b++) {
		const struct batch *bt = &R->batch[b];
		const struct hist_op *src = &h->ops[bt->op];
		if (bt->child < 0)
			memcpy(ids + k, R->all.v + bt->off, bt->count * sizeof *ids);
		else
			rc = child_ids(R, bt->child, bt->off, bt->count, ids + k);
		int64_t span = src->t_complete - src->t_invoke;
		for (size_t j = 0; j < bt->count && !rc; j++, k++) {
			snprintf(txt[k], sizeof txt[k], "%" PRId64, ids[k]);
			ops[k] = (struct hist_op){
				.index = bt->op,
				.process = src->process,
				.f = "generate",
				.result = txt[k],
				.end = HIST_OK,
				.t_invoke = src->t_invoke,
				.t_complete = src->t_invoke +
					      span * (int64_t)(j + 1) / (int64_t)bt->count,
			};
		}
	}
	struct hist_result res;
	if (rc)
		report_checker_error(&res, rc);
	else if ((rc = unique_check(&(struct history){.ops = ops, .n = k}, 0, &res)) != 0)
		report_checker_error(&res, rc);
	report_evidence(r, "ids_checked", "%zu ids of steps 1-4 in %d recorded batches", k,
			R->n_batch);
	report_checker(r, "ids-history-unique", &res, HIST_VALID);
	free(ops);
	free(txt);
	free(ids);
}

int id_snowflake_scenario(struct lab_ctx *ctx, const struct id_snowflake_impl *impl, unsigned steps)
{
	struct run R = {.ctx = ctx, .r = ctx->report, .impl = impl};
	static const char *const names[] = {"P1", "P2", "A", "B", "B2"};
	int rc, nch = steps & ID_SNOWFLAKE_DUPLICATE ? 5 : 2;
	for (int i = 0; i < 5; i++)
		R.ch[i].name = names[i];
	if (prefork(ctx, impl, R.ch, nch) != 0) {
		report_cannot(ctx->report, "cannot start the generator processes");
		rc = WB_EUNAVAIL;
		goto out;
	}
	rc = zklab_open(ctx, &R.z);
	if (rc)
		goto out;
	if ((rc = zklab_client(R.z, &R.c)) != 0)
		goto out;
	R.dir = wb_xasprintf("%s/snowflake-workers", R.z->base);
	R.db = wb_xasprintf("%s/snowflake.db", ctx->run_dir);
	report_evidence(ctx->report, "reservations", "%s (reserve %d ms ahead, wait at most %d ms)",
			R.db, RESERVE_MS, MAX_WAIT_MS);

	rc = 0;
	if (steps & ID_SNOWFLAKE_ROLLBACK)
		rc = step_rollback_and_exhaustion(&R);
	if (!rc && (steps & ID_SNOWFLAKE_RESTART))
		rc = step_restart(&R, &R.ch[0], &R.ch[1]);
	if (!rc && (steps & ID_SNOWFLAKE_DUPLICATE))
		rc = step_duplicate_worker(&R, &R.ch[2], &R.ch[3], &R.ch[4]);
	if (!rc && (steps & ID_SNOWFLAKE_MILLIONS))
		rc = step_millions(&R);
	for (int i = 0; i < 5; i++)
		child_end(&R.ch[i]);
	if (!rc && (steps & ID_SNOWFLAKE_MILLIONS))
		check_unique(&R);
	if (!rc && (steps & ID_SNOWFLAKE_MILLIONS)) {
		static const char *const tags[] = {"p1", "p2", "a", "b2"};
		size_t own = R.all.n;
		for (size_t i = 0; i < 4; i++) {
			char *p = wb_xasprintf("%s/ids-%s.bin", ctx->run_dir, tags[i]);
			ids_file(&R.all, p);
			free(p);
		}
		report_step(ctx->report,
			    "Every id from this process (%zu) and the generator "
			    "processes (%zu), sorted",
			    own, R.all.n - own);
		sort_i64(R.all.v, R.all.n);
		size_t dups = 0, negative = 0;
		for (size_t i = 0; i < R.all.n; i++) {
			negative += R.all.v[i] < 0;
			if (i && R.all.v[i] == R.all.v[i - 1])
				dups++;
		}
		report_checkf(ctx->report, "no-id-repeats",
			      dups == 0 && negative == 0 && R.all.n > 4000000,
			      "over 4 million ids, no duplicate, none negative",
			      "%zu ids, %zu duplicates, %zu negative", R.all.n, dups, negative);
	}
out:
	for (int i = 0; i < 5; i++)
		if (R.ch[i].pid > 0)
			child_kill(&R.ch[i]);
	zkc_close(R.c);
	zklab_close(R.z);
	free(R.all.v);
	free(R.dir);
	free(R.db);
	return rc;
}

/* The entry point registered as lab_id_snowflake in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"The recipe's generator never issued an ID twice: it waited out a small clock "
		"rollback and refused a large one, moved to the next millisecond instead of "
		"wrapping, resumed above its persisted reservation after a restart, and a "
		"paused holder of a worker id was stopped by its lease and by the generation "
		"fence.");
	return lab_outcome_of(ctx,
			      id_snowflake_scenario(ctx, &id_snowflake_recipe, ID_SNOWFLAKE_ALL));
}

const lab_run_fn lab_id_snowflake = lab_main;
