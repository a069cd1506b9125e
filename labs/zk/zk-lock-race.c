/*
 * zk-lock-race.c - the lab "zk-lock-race": the predecessor is deleted
 * between the waiter's getChildren and its watch call (chapters 01, 02).
 *
 * The recipe's before_watch hook releases the holder at exactly that
 * point.  The waiter's get-with-watch (zoo_wget) answers ZNONODE, leaves
 * no watch, and the waiter lists again at once and holds - no event was
 * needed, and none would ever have come: the node was already gone.
 *
 * The control shows why the recipe does not use exists-with-watch there:
 * zoo_wexists on the vanished name also answers ZNONODE but leaves a
 * watch behind, on the client and on the server ("wchc" lists it), for a
 * sequential name that will never be created again.  A waiter that then
 * waits for "its" event waits forever; the lab proves no event came with
 * a session barrier, not by waiting.
 */
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "rigs/zklockrig.h"
#include "harness/zk/zkserver.h"
#include "lab.h"
#include "recipes/zklock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACQUIRE_MS 60000

struct race {
	struct zklockrig *holder; /* released from the waiter's hook */
	struct zkc *waiter_c;	  /* to look at the predecessor from the hook */
	int fired;		  /* the hook ran */
	int release_rc;		  /* zklock_release's answer */
	int exists_rc;		  /* the predecessor right after: ZNONODE */
	char pred[512];		  /* the predecessor the waiter was about to watch */
};

/* Runs on the waiter's thread, after its getChildren and before its watch
 * call: the holder releases right now. */
static void delete_predecessor(void *arg, struct zklock *l, const char *pred)
{
	(void)l;
	struct race *rc = arg;
	if (rc->fired)
		return;
	rc->fired = 1;
	snprintf(rc->pred, sizeof rc->pred, "%s", pred);
	rc->release_rc = zklock_release(rc->holder->l);
	struct Stat st;
	rc->exists_rc = zoo_exists(zkc_handle(rc->waiter_c), pred, 0, &st);
}

static unsigned naive_events;
static void naive_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	(void)state;
	(void)path;
	(void)ctx;
	if (type != ZOO_SESSION_EVENT)
		__atomic_add_fetch(&naive_events, 1, __ATOMIC_SEQ_CST);
}

/* The lab's clients and waiters. */
struct race_lab {
	struct report *r;
	struct zklab *z;
	struct zkc *c[2];
	struct zklockrig w[2]; /* n1 holds; n2 runs the race */
	int opened[2];
	char *lock, *gone;
	struct race race; /* the hook's record */
	int race_rc;	  /* how n2's wait ended */
	int n1_held;
};

/* Two clients; n1, and n2 with the hook that deletes its predecessor. */
static int race_open(struct race_lab *rs, struct lab_ctx *ctx)
{
	struct report *r = rs->r;
	int rc = zklab_open(ctx, &rs->z);
	if (rc)
		return rc;
	for (int i = 0; i < 2; i++)
		if ((rc = zklab_client(rs->z, &rs->c[i])) != 0)
			return rc;
	rs->lock = wb_xasprintf("%s/lock", rs->z->base);
	report_evidence(r, "lock_path", "%s", rs->lock);
	if ((rc = zklockrig_open(&rs->w[0], "n1", rs->c[0], rs->lock, NULL, NULL)) != 0)
		return rc;
	rs->opened[0] = 1;
	rs->race.holder = &rs->w[0];
	rs->race.waiter_c = rs->c[1];
	struct zklock_hooks hooks = {.arg = &rs->race, .before_watch = delete_predecessor};
	if ((rc = zklockrig_open(&rs->w[1], "n2", rs->c[1], rs->lock, &hooks, NULL)) != 0)
		return rc;
	rs->opened[1] = 1;

	return 0;
}

/* n1 holds; n2 lists, the hook releases n1, n2's get-with-watch says
 * ZNONODE and n2 lists again at once and holds. */
static void race_n2(struct race_lab *rs)
{
	struct report *r = rs->r;
	int arc = -1;
	report_step(r, "n1 takes the lock");
	zklockrig_start(&rs->w[0], ACQUIRE_MS);
	zklockrig_wait_done(&rs->w[0], ZKLAB_WAIT_MS, &arc);
	if (!report_checkf(r, "n1-holds", arc == 0, "held", "%s", zklock_message(rs->w[0].l)))
		return;
	char *n1_path = wb_xstrdup(zklock_own_path(rs->w[0].l));
	report_evidence(r, "n1", "%s", zklockrig_name(n1_path));

	report_step(r, "n2 lists the children, sees n1 in front; a hook releases n1 before "
		       "n2's watch call");
	long long t0 = zkc_now_ms();
	zklockrig_start(&rs->w[1], ACQUIRE_MS);
	int rc = zklockrig_wait_done(&rs->w[1], ZKLAB_WAIT_MS, &arc);
	long long took = zkc_now_ms() - t0;
	struct zklockrig s;
	zklockrig_snapshot(&rs->w[1], &s);
	report_evidence(r, "n2_history", "%s", s.log);
	report_checkf(r, "hook-deleted-predecessor",
		      rs->race.fired && rs->race.release_rc == 0 && rs->race.exists_rc == ZNONODE &&
			      !strcmp(rs->race.pred, n1_path),
		      "n1's node gone before n2's watch call", "hook %s, release %s, exists %s",
		      rs->race.fired ? "ran" : "did not run", wb_strerror(rs->race.release_rc),
		      zkc_err_name(rs->race.exists_rc));
	free(n1_path);
	report_checkf(r, "get-with-watch-says-gone", strstr(s.log, "=ZNONODE") != NULL,
		      "zoo_wget answers ZNONODE", "%s", s.vanished ? "ZNONODE" : "no ZNONODE");
	report_checkf(r, "relisted-at-once", s.lists == 2 && s.wakes == 0,
		      "a second list, no "
		      "notification awaited",
		      "%u lists, %u notifications", s.lists, s.wakes);
	report_checkf(r, "n2-holds", rc == 0 && arc == 0, "held", "%s",
		      rc ? "still waiting" : zklock_status_name(zklock_status(rs->w[1].l)));
	report_evidence(r, "n2_acquire_ms", "%lld", took);
	if (rs->z->server) {
		/* The server's watch table, by session ("wchc"): nothing on the
		 * vanished predecessor. */
		char *wchc = NULL;
		if (zkserver_four_letter(rs->z->server, "wchc", &wchc) == 0) {
			report_checkf(r, "no-watch-left", strstr(wchc, rs->race.pred) == NULL,
				      "no watch on the vanished predecessor (wchc)", "%s",
				      strstr(wchc, rs->race.pred) ? "listed" : "not listed");
			free(wchc);
		}
	}
	zklock_release(rs->w[1].l);
	rs->race_rc = rc;
	rs->n1_held = 1;
}

/* The control: exists-with-watch on the vanished name leaves a watch
 * that never fires. */
static int control_naive_exists(struct race_lab *rs)
{
	struct report *r = rs->r;
	report_step(r, "control: a naive waiter uses zoo_wexists on a predecessor that is "
		       "already gone");
	rs->gone = wb_xasprintf("%s/" ZKLOCK_PROTECTED_PREFIX
				"00000000-0000-4000-8000-000000000000-" ZKLOCK_LOCK_NAME,
				rs->lock);
	char made[512];
	int zrc = zoo_create(zkc_handle(rs->c[0]), rs->gone, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			     ZOO_EPHEMERAL_SEQUENTIAL, made, sizeof made);
	if (zrc != ZOK) {
		report_cannot(r, "cannot create the control's node: %s", zkc_err_name(zrc));
		return rs->race_rc;
	}
	zoo_delete(zkc_handle(rs->c[0]), made, -1);
	struct Stat st;
	__atomic_store_n(&naive_events, 0, __ATOMIC_SEQ_CST);
	zrc = zoo_wexists(zkc_handle(rs->c[1]), made, naive_watcher, NULL, &st);
	report_checkf(r, "control-exists-says-gone", zrc == ZNONODE, "ZNONODE", "%s",
		      zkc_err_name(zrc));
	if (rs->z->server) {
		char *wchc = NULL;
		if (zkserver_four_letter(rs->z->server, "wchc", &wchc) == 0) {
			report_checkf(r, "control-server-keeps-watch", strstr(wchc, made) != NULL,
				      "the server lists a watch on the vanished name (wchc)", "%s",
				      strstr(wchc, made) ? "listed" : "not listed");
			free(wchc);
		}
	}
	if (zklockrig_flush(rs->c[1], ZKLAB_WAIT_MS) != 0) {
		report_cannot(r, "the session barrier did not complete");
		return rs->race_rc;
	}
	report_checkf(r, "control-no-event-ever",
		      __atomic_load_n(&naive_events, __ATOMIC_SEQ_CST) == 0,
		      "0 events: a waiter for it waits forever", "%u",
		      __atomic_load_n(&naive_events, __ATOMIC_SEQ_CST));
	int left = zoo_remove_watches(zkc_handle(rs->c[1]), made, ZWATCHTYPE_DATA, naive_watcher,
				      NULL, 0);
	report_checkf(r, "control-dangling-watch", left == ZOK,
		      "ZOK: a watch was registered on a name that will never exist", "%s",
		      zkc_err_name(left));
	return 0;
}

static int race_run(struct lab_ctx *ctx)
{
	struct race_lab rs = {.r = ctx->report};
	int rc = race_open(&rs, ctx);
	if (!rc)
		race_n2(&rs);
	if (!rc && rs.n1_held)
		rc = control_naive_exists(&rs);
	for (int i = 0; i < 2; i++)
		if (rs.opened[i])
			zklockrig_close(&rs.w[i]);
	for (int i = 0; i < 2; i++)
		zkc_close(rs.c[i]);
	zklab_close(rs.z);
	free(rs.lock);
	free(rs.gone);
	return rc;
}

/* The entry point registered as lab_zk_lock_race in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"When the predecessor vanished between getChildren and the watch, "
		"get-with-watch answered ZNONODE without leaving a watch, and the waiter listed "
		"again and held at once. The control's exists-with-watch left a watch on the "
		"server for a name that never returns, and no event ever came.");
	return lab_outcome_of(ctx, race_run(ctx));
}

const lab_run_fn lab_zk_lock_race = lab_main;
