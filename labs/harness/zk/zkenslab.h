/*
 * zkenslab.h - what the ensemble labs (zk-stale-read, zk-sync-partition)
 * share: start an ensemble with its timing as evidence, split its members
 * into the leader and the followers, sync-then-wait and plain reads on
 * one member's client, the members' modes as one line, and the stop.
 *
 * Failures to set up are reported once through report_cannot (the lab
 * then exits 2, "could not run").  Nothing here makes checks; the waits
 * on the ensemble itself (zkensemble_wait_mode, _wait_zxid, _wait_leader)
 * are in zkensemble.h.
 */
#ifndef WB_ZKENSLAB_H
#define WB_ZKENSLAB_H

#include <stdint.h>
/* zookeeper_mt: the synchronous zoo_* calls exist only with THREADED. */
#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

struct report;
struct zkc;
struct zkensemble;
struct zkensemble_opts;

/* Creates the ensemble in run_dir and starts it (zkensemble_new,
 * zkensemble_start) with every member in one JVM (opts->shared_jvm is
 * set: the labs never crash a single member; a runtime that cannot build
 * the launcher gets one JVM per member and a step line saying so),
 * recording the evidence "ensemble_start_ms" and "ensemble_jvm".  Returns
 * 0, or the negative code after report_cannot.  *out is freed with
 * zkenslab_stop either way (it may be NULL on error). */
int zkenslab_start(struct report *r, const char *run_dir, const struct zkensemble_opts *opts,
		   struct zkensemble **out);

/* How long zkenslab_gone waits, after something failed, for a death
 * already under way (zkensemble_died). */
#define ZKENSLAB_DEATH_GRACE_MS 1000

/* Whether e's servers died under the lab (zkensemble_died, waiting up to
 * ZKENSLAB_DEATH_GRACE_MS): the first time it says so through
 * report_cannot ("the ZooKeeper server (pid N, ...) died: ...; the lab
 * cannot go on"), so the run ends as could-not-run (review r3 N16).  A
 * lab calls it where a wait or an operation failed, before it reports a
 * could-not-run of its own or makes a check of that failure
 * (zkenslab_checkf does), and stops when it returns 1.  0 for NULL. */
int zkenslab_gone(struct report *r, struct zkensemble *e);

/* report_checkf, except that a check that did not hold because e's
 * servers died is not made: zkenslab_gone reports the death instead.
 * Returns ok (0 when the check was not made). */
int zkenslab_checkf(struct report *r, struct zkensemble *e, const char *name, int ok,
		    const char *expected, const char *observed_fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Makes every wait on c (zkc_wait_*) end as soon as a JVM of e died
 * (zkc_set_gone), instead of at its deadline. */
void zkenslab_watch(struct zkensemble *e, struct zkc *c);

/* Frees e (zkensemble_free) and records the evidence "ensemble_stop_ms".
 * Accepts NULL (then records nothing). */
void zkenslab_stop(struct report *r, struct zkensemble *e);

/* The member that leads (zkensemble_leader, 0 when none) and the others,
 * in myid order, into followers[0..*n) (cap entries at most). */
int zkenslab_roles(struct zkensemble *e, int *followers, int cap, int *n);

/* sync(path) on c and wait up to timeout_ms.  Returns the ZooKeeper code
 * (ZOPERATIONTIMEOUT when no completion came in time); *at_ms (may be
 * NULL) receives the completion time.  A late completion is waited for
 * (up to 2 x timeout_ms more) before returning, so none outlives the call. */
int zkenslab_sync(struct zkc *c, const char *path, int timeout_ms, long long *at_ms);

/* A plain synchronous getData of path into buf (cap bytes, NUL-terminated;
 * "" unless ZOK).  Returns the ZooKeeper code. */
int zkenslab_read(struct zkc *c, const char *path, char *buf, int cap, struct Stat *st);

/* The modes of all members, "1:follower, 2:leader (zxid 0x...), ...".
 * Caller frees. */
char *zkenslab_modes(struct zkensemble *e);

/* v as "0x..." in buf; returns buf. */
char *zkenslab_hex(int64_t v, char buf[24]);

#endif
