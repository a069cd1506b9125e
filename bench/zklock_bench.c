/*
 * zklock_bench.c - benchmark of the ZooKeeper lock recipe
 * (labs/recipes/zklock.c) against one server, in one run:
 *
 *  1. uncontended acquire+release cycles per second of the recipe, next to
 *     a raw create(ephemeral sequential) + getChildren + delete loop on the
 *     same session - the floor the server allows for any lock of this
 *     shape - and next to kazoo's Lock (Debian's python3-kazoo, run with
 *     /usr/bin/python3) when it is installed;
 *  2. hand-off latency from a release to the moment the next holder's
 *     zklock_acquire returns, with 16 waiters queued behind the holder
 *     (each released holder queues again at the tail), as percentiles and
 *     as a multiple of one round trip.
 *
 * It prints figures and ratios and asserts nothing (timings are never test
 * conditions).  By default it starts its own server the way the labs do
 * (harness/zkserver.h: tickTime 200 ms, forceSync=no, so no fsync per
 * write - pass --fsync for forceSync=yes); --zk HOST:PORT uses an existing
 * one.  Every process it starts is recorded and reaped.
 *
 *   zklock_bench [--zk HOST:PORT] [--seconds S] [--rounds R] [--handoffs N]
 *                [--fsync]
 *
 * The uncontended loops run in R interleaved rounds (default 9), raw and
 * recipe back to back in each, their order swapped every other round;
 * more, shorter rounds give a steadier median ratio on a busy machine.
 * kazoo runs in at most 9 of them (each round starts a python3).
 */
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkserver.h"
#include "recipes/zklock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SESSION_MS 10000
#define WAIT_MS	   30000
#define WAITERS	   16
#define ROUNDS	   9   /* default rounds of the uncontended loops */
#define MAX_ROUNDS 199 /* --rounds at most */
#define KZ_ROUNDS  9   /* kazoo rounds at most (each starts a python3) */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(const double *sorted, int n, double p)
{
	int i = (int)(p * (n - 1) + 0.5);
	return sorted[i < 0 ? 0 : (i >= n ? n - 1 : i)];
}

static void ensure_path(zhandle_t *zh, const char *path)
{
	char *p = wb_xstrdup(path);
	for (char *s = strchr(p + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		zoo_create(zh, p, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
		if (!s)
			break;
		*s = '/';
	}
	free(p);
}

/* ---- 1. uncontended cycles ---------------------------------------------- */

/* The child watch raw_loop's getChildren sets with watched: its event
 * is all it costs. */
static void raw_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	(void)type;
	(void)state;
	(void)path;
	(void)ctx;
}

/* Raw create+getChildren+delete; watched: the getChildren with a child
 * watch, as the recipe's first listing (the floor of a lock that can tell
 * its holder about a loss). */
static double raw_loop(zhandle_t *zh, double seconds, int watched, long *cycles)
{
	const char *dir = "/bench/raw";
	ensure_path(zh, dir);
	long n = 0;
	double t0 = now_s(), t;
	do {
		char made[256];
		struct String_vector sv = {0};
		if (zoo_create(zh, "/bench/raw/_c_00000000-0000-4000-8000-000000000000-lock-", NULL,
			       -1, &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL_SEQUENTIAL, made,
			       sizeof made) != ZOK ||
		    (watched ? zoo_wget_children(zh, dir, raw_watcher, NULL, &sv)
			     : zoo_get_children(zh, dir, 0, &sv)) != ZOK ||
		    zoo_delete(zh, made, -1) != ZOK) {
			fprintf(stderr, "zklock_bench: raw loop failed\n");
			*cycles = 0;
			deallocate_String_vector(&sv);
			return -1;
		}
		deallocate_String_vector(&sv);
		n++;
		t = now_s();
	} while (t - t0 < seconds);
	*cycles = n;
	return n / (t - t0);
}

static double recipe_loop(zhandle_t *zh, double seconds, long *cycles)
{
	struct zklock *l = NULL;
	*cycles = 0;
	if (zklock_new(zh, "/bench/recipe", NULL, &l) != 0)
		return -1;
	long n = 0;
	double t0 = now_s(), t;
	do {
		if (zklock_acquire(l, WAIT_MS) != 0 || zklock_release(l) != 0) {
			fprintf(stderr, "zklock_bench: recipe loop failed: %s\n",
				zklock_message(l));
			zklock_free(l);
			return -1;
		}
		n++;
		t = now_s();
	} while (t - t0 < seconds);
	zklock_free(l);
	*cycles = n;
	return n / (t - t0);
}

static const char kazoo_script[] =
	"import sys, time, logging\n"
	"logging.disable(logging.CRITICAL)\n"
	"try:\n"
	"    import kazoo\n"
	"    from kazoo.client import KazooClient\n"
	"except Exception as e:\n"
	"    print('SKIP python3-kazoo is not installed (%s)' % e); sys.exit(0)\n"
	"zk = KazooClient(hosts=sys.argv[1], timeout=10.0)\n"
	"zk.start(timeout=10)\n"
	"lock = zk.Lock('/bench/kazoo', 'bench')\n"
	"secs = float(sys.argv[2]); n = 0\n"
	"t0 = time.monotonic(); t = t0\n"
	"while t - t0 < secs:\n"
	"    lock.acquire(); lock.release(); n += 1; t = time.monotonic()\n"
	"zk.stop(); zk.close()\n"
	"print('OK %s %d %.6f' % (getattr(kazoo, '__version__', '?'), n, t - t0))\n";

/* Runs kazoo's Lock loop in /usr/bin/python3 (Debian's, where
 * python3-kazoo installs).  Returns cycles/s, or -1 with *why set. */
static double kazoo_loop(const char *run_dir, const char *hosts, double seconds, long *cycles,
			 char *version, size_t vlen, char *why, size_t wlen)
{
	const char *py = "/usr/bin/python3";
	*cycles = 0;
	if (access(py, X_OK) != 0) {
		snprintf(why, wlen, "no %s", py);
		return -1;
	}
	char *script = wb_xasprintf("%s/kazoo_bench.py", run_dir);
	FILE *f = fopen(script, "w");
	if (!f || fputs(kazoo_script, f) < 0 || fclose(f) != 0) {
		snprintf(why, wlen, "cannot write %s", script);
		free(script);
		return -1;
	}
	char *cmd = wb_xasprintf("%s %s %s %.3f 2>&1", py, script, hosts, seconds);
	FILE *p = popen(cmd, "r");
	char line[512] = "";
	double rate = -1;
	if (p) {
		char buf[512];
		while (fgets(buf, sizeof buf, p))
			if (!strncmp(buf, "OK ", 3) || !strncmp(buf, "SKIP ", 5) || !line[0])
				snprintf(line, sizeof line, "%s", buf);
		pclose(p);
	}
	line[strcspn(line, "\n")] = '\0';
	long n = 0;
	double secs = 0;
	char ver[64];
	if (sscanf(line, "OK %63s %ld %lf", ver, &n, &secs) == 3 && secs > 0) {
		*cycles = n;
		snprintf(version, vlen, "%s", ver);
		rate = n / secs;
	} else {
		snprintf(why, wlen, "%.200s", !strncmp(line, "SKIP ", 5) ? line + 5 : line);
	}
	free(cmd);
	free(script);
	return rate;
}

/* ---- 2b. the hand-off's floor -------------------------------------------- */

/* A hand-off with nothing but the calls a note-4 lock needs: the holder
 * deletes its node; the waiter's data watch on it fires, its watcher sends
 * a getChildren (asynchronous, as the recipe's does) of a directory with
 * as many children as the recipe's queue, and that answer wakes the
 * waiting thread.  The same requests and thread hops as the recipe's
 * hand-off, none of its bookkeeping. */
struct rawho {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	zhandle_t *zh;	 /* the holder's session (borrowed) */
	struct zkc *cw;	 /* the waiter's */
	zhandle_t *zw;	 /* its handle */
	pthread_t th;	 /* the waiting thread */
	int started;	 /* th runs */
	const char *dir; /* the directory listed */
	int listed;	 /* the getChildren answered */
	int woken;	 /* the waiting thread saw it */
	int quit;
	double t_woken;
};

static void rawho_listed(int rc, const struct String_vector *sv, const void *data)
{
	(void)rc;
	(void)sv;
	struct rawho *h = (struct rawho *)data;
	pthread_mutex_lock(&h->mu);
	h->listed = 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

static void rawho_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	(void)state;
	(void)path;
	struct rawho *h = ctx;
	if (type == ZOO_DELETED_EVENT &&
	    zoo_aget_children(h->zw, h->dir, 0, rawho_listed, h) != ZOK)
		rawho_listed(ZSYSTEMERROR, NULL, h);
}

/* The waiting thread: wakes on each answer and notes when. */
static void *rawho_main(void *arg)
{
	struct rawho *h = arg;
	pthread_mutex_lock(&h->mu);
	for (;;) {
		while (!h->listed && !h->quit)
			pthread_cond_wait(&h->cv, &h->mu);
		if (h->quit)
			break;
		h->listed = 0;
		h->t_woken = now_s();
		h->woken = 1;
		pthread_cond_broadcast(&h->cv);
	}
	pthread_mutex_unlock(&h->mu);
	return NULL;
}

/* The floor's sessions: the holder zh (borrowed), a waiter on hosts
 * with WAITERS nodes queued, and its waiting thread.  0 or -1. */
static int rawho_open(struct rawho *h, zhandle_t *zh, const char *hosts)
{
	memset(h, 0, sizeof *h);
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	h->zh = zh;
	h->dir = "/bench/rawhandoff";
	ensure_path(zh, h->dir);
	if (zkc_connect(hosts, SESSION_MS, WAIT_MS, NULL, &h->cw) != 0)
		return -1;
	h->zw = zkc_handle(h->cw);
	for (int i = 0; i < WAITERS; i++) /* the queue behind the holder */
		if (zoo_create(h->zw, "/bench/rawhandoff/q-", NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			       ZOO_EPHEMERAL_SEQUENTIAL, NULL, 0) != ZOK)
			return -1;
	if (pthread_create(&h->th, NULL, rawho_main, h) != 0)
		return -1;
	h->started = 1;
	return 0;
}

/* One raw hand-off into *lat.  0, or -1 when a call failed. */
static int rawho_one(struct rawho *h, double *lat)
{
	char node[256];
	struct Stat st;
	char b[1];
	int len = sizeof b;
	if (zoo_create(h->zh, "/bench/rawhandoff/h-", NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
		       ZOO_EPHEMERAL_SEQUENTIAL, node, sizeof node) != ZOK ||
	    zoo_wget(h->zw, node, rawho_watcher, h, b, &len, &st) != ZOK)
		return -1;
	double t0 = now_s();
	if (zoo_delete(h->zh, node, -1) != ZOK)
		return -1;
	pthread_mutex_lock(&h->mu);
	while (!h->woken)
		pthread_cond_wait(&h->cv, &h->mu);
	h->woken = 0;
	*lat = h->t_woken - t0;
	pthread_mutex_unlock(&h->mu);
	return 0;
}

static void rawho_close(struct rawho *h)
{
	if (h->started) {
		pthread_mutex_lock(&h->mu);
		h->quit = 1;
		pthread_cond_broadcast(&h->cv);
		pthread_mutex_unlock(&h->mu);
		pthread_join(h->th, NULL);
	}
	zkc_close(h->cw);
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
}

/* ---- 2. hand-off latency ------------------------------------------------ */

struct shared {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int quit;
};

struct bw {
	struct shared *s;
	struct zkc *c;
	struct zklock *l;
	pthread_t th;
	int go;		/* main asks for one acquisition */
	int state;	/* 0 idle, 1 waiting, 2 held, 3 failed */
	unsigned armed; /* predecessor watches set */
	double t_held;	/* when zklock_acquire returned */
};

static void bw_watched(void *arg, struct zklock *l, const char *pred, int zrc)
{
	(void)l;
	(void)pred;
	struct bw *w = arg;
	if (zrc != ZOK)
		return;
	pthread_mutex_lock(&w->s->mu);
	w->armed++;
	pthread_cond_broadcast(&w->s->cv);
	pthread_mutex_unlock(&w->s->mu);
}

static void *bw_main(void *arg)
{
	struct bw *w = arg;
	struct shared *s = w->s;
	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (!w->go && !s->quit)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->quit)
			break;
		w->go = 0;
		w->state = 1;
		pthread_mutex_unlock(&s->mu);
		int rc = zklock_acquire(w->l, -1);
		double t = now_s();
		pthread_mutex_lock(&s->mu);
		w->t_held = t;
		w->state = rc == 0 ? 2 : 3;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Under s->mu: waits until cond(w) holds; 0 or -1 after WAIT_MS. */
static int wait_for(struct shared *s, struct bw *w, int (*cond)(struct bw *, unsigned),
		    unsigned arg)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += WAIT_MS / 1000;
	while (!cond(w, arg))
		if (pthread_cond_timedwait(&s->cv, &s->mu, &ts) == ETIMEDOUT)
			return cond(w, arg) ? 0 : -1;
	return 0;
}

static int is_held(struct bw *w, unsigned arg)
{
	(void)arg;
	return w->state >= 2;
}

static int is_armed(struct bw *w, unsigned n)
{
	return w->armed >= n || w->state >= 2;
}

/* rounds recipe hand-offs into lat, each followed by one raw hand-off
 * of fl into flo (interleaved: both see the same load).  0 or -1. */
static int handoff(const char *hosts, int rounds, double *lat, struct rawho *fl, double *flo)
{
	struct shared s = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	struct bw w[WAITERS + 1];
	memset(w, 0, sizeof w);
	int n = WAITERS + 1, rc = -1, started = 0;
	for (int i = 0; i < n; i++) {
		w[i].s = &s;
		if (zkc_connect(hosts, SESSION_MS, WAIT_MS, NULL, &w[i].c) != 0)
			goto out;
		struct zklock_opts o = {.hooks = {.arg = &w[i], .watched = bw_watched}};
		if (zklock_new(zkc_handle(w[i].c), "/bench/handoff", &o, &w[i].l) != 0)
			goto out;
		if (pthread_create(&w[i].th, NULL, bw_main, &w[i]) != 0)
			goto out;
		started++;
	}
	/* Queue them in index order: 0 holds, 1..16 wait. */
	pthread_mutex_lock(&s.mu);
	for (int i = 0; i < n; i++) {
		w[i].go = 1;
		pthread_cond_broadcast(&s.cv);
		if (wait_for(&s, &w[i], i == 0 ? is_held : is_armed, 1) != 0 || w[i].state == 3) {
			pthread_mutex_unlock(&s.mu);
			goto out;
		}
	}
	int holder = 0;
	for (int k = 0; k < rounds; k++) {
		int next = (holder + 1) % n;
		pthread_mutex_unlock(&s.mu);
		double t0 = now_s();
		zklock_release(w[holder].l);
		pthread_mutex_lock(&s.mu);
		if (wait_for(&s, &w[next], is_held, 0) != 0 || w[next].state != 2)
			break;
		lat[k] = w[next].t_held - t0;
		/* The released holder queues again at the tail. */
		unsigned armed = w[holder].armed;
		w[holder].state = 0;
		w[holder].go = 1;
		pthread_cond_broadcast(&s.cv);
		if (wait_for(&s, &w[holder], is_armed, armed + 1) != 0)
			break;
		holder = next;
		pthread_mutex_unlock(&s.mu);
		int frc = rawho_one(fl, &flo[k]);
		pthread_mutex_lock(&s.mu);
		if (frc != 0)
			break;
		if (k == rounds - 1)
			rc = 0;
	}
	s.quit = 1;
	pthread_cond_broadcast(&s.cv);
	pthread_mutex_unlock(&s.mu);
out:
	pthread_mutex_lock(&s.mu);
	s.quit = 1;
	pthread_cond_broadcast(&s.cv);
	pthread_mutex_unlock(&s.mu);
	for (int i = 0; i < n; i++)
		if (w[i].l)
			zklock_cancel(w[i].l);
	for (int i = 0; i < started; i++)
		pthread_join(w[i].th, NULL);
	for (int i = 0; i < n; i++) {
		zklock_free(w[i].l);
		zkc_close(w[i].c);
	}
	return rc;
}

/* n round trips (a synchronous exists) into t. */
static void rtt_sample(zhandle_t *zh, int n, double *t)
{
	for (int i = 0; i < n; i++) {
		struct Stat st;
		double t0 = now_s();
		zoo_exists(zh, "/bench", 0, &st);
		t[i] = now_s() - t0;
	}
}

static double p50_of(double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	return pct(t, n, 0.5);
}

static int n_rounds = ROUNDS; /* --rounds */

/* The options: --zk, --seconds, --rounds, --handoffs, --fsync.  0, or 2
 * after the usage message. */
static int parse_args(int argc, char **argv, const char **zk, double *seconds, int *rounds,
		      int *fsync)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--zk") && i + 1 < argc) {
			*zk = argv[++i];
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			*seconds = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			n_rounds = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--handoffs") && i + 1 < argc) {
			*rounds = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--fsync")) {
			*fsync = 1;
		} else {
			fprintf(stderr, "usage: zklock_bench [--zk HOST:PORT] [--seconds S] "
					"[--rounds R] [--handoffs N] [--fsync]\n");
			return 2;
		}
	}
	if (*seconds <= 0 || *rounds < 1) {
		fprintf(stderr, "zklock_bench: --seconds and --handoffs must be positive\n");
		return 2;
	}
	if (n_rounds < 1 || n_rounds > MAX_ROUNDS) {
		fprintf(stderr, "zklock_bench: --rounds must be 1 to %d\n", MAX_ROUNDS);
		return 2;
	}
	return 0;
}

/* Our own standalone server in run_dir (forceSync=yes with fsync).  0,
 * or -1 after a message; *server is freed by the caller either way. */
static int start_server(const char *run_dir, int fsync, struct zkserver **server)
{
	char *why = NULL;
	if (zkserver_new(run_dir, NULL, server, &why) != 0) {
		fprintf(stderr, "zklock_bench: %s\n", why ? why : "cannot prepare a server");
		free(why);
		return -1;
	}
	if (fsync)
		zkserver_set_extra_cfg(*server, "forceSync=yes\n");
	if (zkserver_start(*server) != 0) {
		fprintf(stderr, "zklock_bench: %s\n", zkserver_error(*server));
		return -1;
	}
	return 0;
}

enum { L_RAW, L_WATCH, L_RECIPE, L_N }; /* the loops of a round */

/* One round: raw, raw with the child watch, the recipe, back to back,
 * their order rotated by round (a later loop may find the server warmer
 * or the machine busier).  0, or -1 when a loop failed. */
static int one_round(zhandle_t *zh, double secs, int round, double rate[L_N], long total[L_N])
{
	for (int k = 0; k < L_N; k++) {
		int which = (k + round) % L_N;
		long n = 0;
		rate[which] = which == L_RECIPE ? recipe_loop(zh, secs, &n)
						: raw_loop(zh, secs, which == L_WATCH, &n);
		total[which] += n;
		if (rate[which] <= 0)
			return -1;
	}
	return 0;
}

/* The median of r[0..n) over the quartiles, printed after what. */
static void print_ratios(const char *what, double *r, int n)
{
	qsort(r, (size_t)n, sizeof r[0], cmp_double);
	printf("  %s within each round: median %.2f (quartiles %.2f..%.2f, rounds %.2f..%.2f)\n",
	       what, r[n / 2], pct(r, n, 0.25), pct(r, n, 0.75), r[0], r[n - 1]);
}

/* The kazoo line (ok: it ran; else why not). */
static void print_kazoo(int ok, double *kz_r, int kz_n, long n_kz, const char *ver, const char *why,
			double raw, double rec)
{
	if (!ok) {
		printf("  %-40s skipped: %s\n", "kazoo Lock (python3-kazoo)", why);
		return;
	}
	qsort(kz_r, (size_t)kz_n, sizeof kz_r[0], cmp_double);
	double kz = kz_r[kz_n / 2];
	char name[96]; /* room for the whole ver[64]: -Wformat-truncation at -O0 */
	snprintf(name, sizeof name, "kazoo %s Lock (python3)", ver);
	printf("  %-40s %7.0f /s  (%ld cycles, rounds %.0f..%.0f)  %.2f x raw; recipe = %.2f x "
	       "kazoo\n",
	       name, kz, n_kz, kz_r[0], kz_r[kz_n - 1], kz / raw, rec / kz);
}

/* Uncontended acquire+release: raw calls (without and with the child
 * watch), the recipe, kazoo, in interleaved rounds.  0, or -1 when a loop
 * failed. */
static int throughput(zhandle_t *zh, const char *run_dir, const char *zk, double seconds)
{
	const int nr = n_rounds;
	printf("\nuncontended acquire+release, cycles per second: %d interleaved rounds of 3 x "
	       "%.2f s,\nmedian round shown (the machine's load moves them all alike)\n",
	       nr, seconds / nr);
	static double rate_r[L_N][MAX_ROUNDS];
	double kz_r[KZ_ROUNDS];
	long total[L_N] = {0}, n_kz = 0, n = 0;
	int kz_ok = 1, kz_n = 0, kz_every = nr > KZ_ROUNDS ? nr / KZ_ROUNDS : 1;
	double kz_secs = seconds / (nr < KZ_ROUNDS ? nr : KZ_ROUNDS);
	char ver[64] = "", why[256] = "";
	for (int r = 0; r < nr; r++) {
		double rate[L_N];
		if (one_round(zh, seconds / nr, r, rate, total))
			return -1;
		for (int k = 0; k < L_N; k++)
			rate_r[k][r] = rate[k];
		if (kz_ok && kz_n < KZ_ROUNDS && r % kz_every == 0) {
			kz_r[kz_n] = kazoo_loop(run_dir, zk, kz_secs, &n, ver, sizeof ver, why,
						sizeof why);
			n_kz += n;
			kz_ok = kz_r[kz_n++] > 0;
		}
	}
	/* The ratios within each round, where the loops ran back to back at
	 * about the same load: steadier than a ratio of medians. */
	double rec_raw[MAX_ROUNDS], rec_watch[MAX_ROUNDS], watch_raw[MAX_ROUNDS];
	for (int r = 0; r < nr; r++) {
		rec_raw[r] = rate_r[L_RECIPE][r] / rate_r[L_RAW][r];
		rec_watch[r] = rate_r[L_RECIPE][r] / rate_r[L_WATCH][r];
		watch_raw[r] = rate_r[L_WATCH][r] / rate_r[L_RAW][r];
	}
	double med[L_N];
	for (int k = 0; k < L_N; k++) {
		qsort(rate_r[k], (size_t)nr, sizeof rate_r[k][0], cmp_double);
		med[k] = rate_r[k][nr / 2];
	}
	static const char *const what[L_N] = {"raw create+getChildren+delete",
					      "raw, getChildren with a child watch",
					      "recipe zklock_acquire+release"};
	for (int k = 0; k < L_N; k++) {
		printf("  %-40s %7.0f /s  (%ld cycles, rounds %.0f..%.0f)", what[k], med[k],
		       total[k], rate_r[k][0], rate_r[k][nr - 1]);
		if (k == L_RAW)
			printf("  floor: 3 round trips\n");
		else
			printf("  %.2f x raw\n", med[k] / med[L_RAW]);
	}
	print_kazoo(kz_ok, kz_r, kz_n, n_kz, ver, why, med[L_RAW], med[L_RECIPE]);
	print_ratios("recipe / raw", rec_raw, nr);
	print_ratios("recipe / raw with the watch", rec_watch, nr);
	print_ratios("raw with the watch / raw", watch_raw, nr);
	printf("  (raw and kazoo: 2 writes + 1 read per cycle, waited for one by one; the recipe\n"
	       "   sends the same three, its listing with a child watch - what lets it tell the\n"
	       "   holder about a loss - which costs one notification when its node goes, as\n"
	       "   in the raw loop with the watch; its monitor thread is started once per lock)\n");
	return 0;
}

/* Hand-off latency over rounds hand-offs, against one round trip and
 * against as many raw hand-offs (rawho_one), one after each of the
 * recipe's.  0, or -1 after a message. */
static int handoff_latency(zhandle_t *zh, const char *zk, int rounds)
{
	/* Round trips sampled before and after the hand-offs, so a load that
	 * moves during the run moves both. */
	double rtt_t[1000];
	rtt_sample(zh, 500, rtt_t);
	printf("\nhand-off latency: release -> next holder's acquire returns, %d waiters, %d "
	       "hand-offs\n",
	       WAITERS, rounds);
	double *lat = wb_xcalloc((size_t)rounds, sizeof *lat);
	double *flo = wb_xcalloc((size_t)rounds, sizeof *flo);
	struct rawho fl;
	int rc = -1, frc = rawho_open(&fl, zh, zk);
	if (frc != 0 || handoff(zk, rounds, lat, &fl, flo) != 0) {
		fprintf(stderr, "zklock_bench: the hand-off run did not complete\n");
		goto out;
	}
	rtt_sample(zh, 500, rtt_t + 500);
	double rtt = p50_of(rtt_t, 1000);
	qsort(lat, (size_t)rounds, sizeof *lat, cmp_double);
	double p50 = pct(lat, rounds, 0.5), f50 = p50_of(flo, rounds);
	printf("  p50 %.3f ms   p90 %.3f ms   p99 %.3f ms   max %.3f ms\n", p50 * 1e3,
	       pct(lat, rounds, 0.9) * 1e3, pct(lat, rounds, 0.99) * 1e3, lat[rounds - 1] * 1e3);
	printf("  one round trip (exists, before and after) p50 %.3f ms: a hand-off is %.1f round "
	       "trips\n"
	       "  (the delete - a write, which takes longer than a read -, the watch event, the\n"
	       "   getChildren the waiter's watcher sends, thread hand-offs)\n",
	       rtt * 1e3, p50 / rtt);
	printf("  raw hand-off (delete, data watch, getChildren from the watcher, no recipe)\n"
	       "  p50 %.3f ms = %.1f round trips: the recipe's p50 is %.2f x it\n",
	       f50 * 1e3, f50 / rtt, p50 / f50);
	rc = 0;
out:
	rawho_close(&fl);
	free(lat);
	free(flo);
	return rc;
}

int main(int argc, char **argv)
{
	const char *zk = NULL;
	double seconds = 3;
	int rounds = 200, fsync = 0;
	if (parse_args(argc, argv, &zk, &seconds, &rounds, &fsync) != 0)
		return 2;
	zoo_set_debug_level(0);
	char *run_dir = NULL;
	struct zkserver *server = NULL;
	struct zkc *c = NULL;
	int rc = 1;
	if (rundir_create(&run_dir) != 0) {
		fprintf(stderr, "zklock_bench: cannot create a run directory\n");
		return 1;
	}
	if (!zk) {
		if (start_server(run_dir, fsync, &server) != 0)
			goto out;
		zk = zkserver_connect(server);
	}
	if (zkc_connect(zk, SESSION_MS, WAIT_MS, NULL, &c) != 0) {
		fprintf(stderr, "zklock_bench: cannot connect to %s\n", zk);
		goto out;
	}
	zhandle_t *zh = zkc_handle(c);
	printf("zklock_bench: ZooKeeper on %s (%s), one session per client, %.1f s per loop\n", zk,
	       server ? (fsync ? "our standalone server, forceSync=yes"
			       : "our standalone server, forceSync=no: no fsync per write")
		      : "given with --zk",
	       seconds);
	if (throughput(zh, run_dir, zk, seconds) == 0 && handoff_latency(zh, zk, rounds) == 0)
		rc = 0;
out:
	zkc_close(c);
	zkserver_free(server);
	proc_kill_all(run_dir);
	rundir_remove(run_dir);
	free(run_dir);
	return rc;
}
