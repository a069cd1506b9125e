/*
 * zk-lock-chain.c - the lab "zk-lock-chain": each waiter watches only its
 * predecessor, and a notification is a reason to look again, not the lock
 * (chapters 01 and 02).
 *
 *   n1 holds; n2 watches n1; n3 watches n2.
 *   n1 releases: only n2 is woken; n2 lists again, sees itself first and
 *   only then holds; n3 hears nothing and keeps waiting.
 *   n1's client queues again as n4 (a new GUID) behind n3.  n3 gives up:
 *   n4's watch fires while n2 still holds.  n4 lists again, finds n2 in
 *   front of it, watches n2 and does not claim.  n2 releases; n4 holds.
 *
 * Every waiter runs the recipe (labs/recipes/zklock.c) in its own thread
 * on its own session; the lab waits for exact points through the recipe's
 * hooks (harness/zklockrig.h) and proves that "no event came" with a
 * session barrier, never with a sleep.  It does not measure wakeup counts
 * at scale (zk-herd does).
 *
 * History (docs/histories.md): every waiter's acquire (invoked when its
 * thread starts, completed when the lab sees it return: a bound, not the
 * moment) and release; the mutual exclusion checker must pass it.
 */
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "rigs/zklockrig.h"
#include "lab.h"
#include "checkers/history.h"
#include "recipes/zklock.h"
#include "checkers/mutex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACQUIRE_MS 60000 /* a waiter's patience; the lab cancels it anyway */

/* The log's tail after the last wake, e.g. "list#0/2 held". */
static const char *after_last_wake(const char *log)
{
	const char *p = NULL;
	for (const char *q = log; (q = strstr(q, "wake(")) != NULL; q++)
		p = q;
	if (!p)
		return "";
	p = strchr(p, ' ');
	return p ? p + 1 : "";
}

/* The lab's clients, waiters and names. */
struct chain {
	struct report *r;
	struct zklab *z;
	struct zkc *c[3];
	struct zklockrig w[4]; /* n1, n2, n3, and n4 on n1's client */
	int opened[4];
	int op[4]; /* each waiter's acquire in the history */
	char *lock, *n1_path, *n2_path, *n3_path;
	char n1_guid[ZKLOCK_GUID_LEN + 1];
	long long n1_token;
	int stopped; /* a check failed (or a barrier did not complete): no more to show */
};

/* A check failed, or a barrier did not complete: the lab ends here
 * (exit as the checks say).  Returns 0. */
static int stop(struct chain *ch)
{
	ch->stopped = 1;
	return 0;
}

/* Starts waiter i's acquire, recorded. */
static void start(struct chain *ch, int i)
{
	ch->op[i] = report_invoke(ch->r, ch->w[i].name, "acquire", NULL);
	zklockrig_start(&ch->w[i], ACQUIRE_MS);
}

/* zklockrig_wait_done, recording the acquire's end once it returned. */
static int wait_done(struct chain *ch, int i, int *arc)
{
	int rc = zklockrig_wait_done(&ch->w[i], ZKLAB_WAIT_MS, arc);
	if (rc == 0)
		report_complete(ch->r, ch->op[i], *arc == 0 ? HIST_OK : HIST_FAIL, NULL);
	return rc;
}

/* Waiter i releases, recorded. */
static void release(struct chain *ch, int i)
{
	int op = report_invoke(ch->r, ch->w[i].name, "release", NULL);
	int rc = zklock_release(ch->w[i].l);
	report_complete(ch->r, op, rc == 0 ? HIST_OK : HIST_INFO, NULL);
}

/* Three clients, three waiters n1..n3 on one lock path. */
static int open_chain(struct chain *ch, struct lab_ctx *ctx)
{
	int rc = zklab_open(ctx, &ch->z);
	if (rc)
		return rc;
	for (int i = 0; i < 3; i++)
		if ((rc = zklab_client(ch->z, &ch->c[i])) != 0)
			return rc;
	ch->lock = wb_xasprintf("%s/lock", ch->z->base);
	static const char *names[] = {"n1", "n2", "n3"};
	for (int i = 0; i < 3; i++) {
		if ((rc = zklockrig_open(&ch->w[i], names[i], ch->c[i], ch->lock, NULL, NULL)) != 0)
			return rc;
		ch->opened[i] = 1;
	}
	report_evidence(ch->r, "lock_path", "%s", ch->lock);
	return 0;
}

/* n1 holds, n2 and n3 queue, each watching only its predecessor. */
static int n1_holds_others_queue(struct chain *ch)
{
	struct report *r = ch->r;
	struct zklockrig s;
	int arc = -1;
	report_step(r, "n1 takes the lock on an empty lock path");
	start(ch, 0);
	wait_done(ch, 0, &arc);
	if (!report_checkf(r, "n1-holds", arc == 0, "held", "%s (%s)",
			   zklock_status_name(zklock_status(ch->w[0].l)),
			   zklock_message(ch->w[0].l)))
		return stop(ch);
	ch->n1_path = wb_xstrdup(zklock_own_path(ch->w[0].l));
	snprintf(ch->n1_guid, sizeof ch->n1_guid, "%s", zklock_guid(ch->w[0].l));
	ch->n1_token = (long long)zklock_token(ch->w[0].l);
	report_evidence(r, "n1", "%s (token %lld)", zklockrig_name(ch->n1_path),
			(long long)zklock_token(ch->w[0].l));

	report_step(r, "n2, then n3, ask for the lock and wait");
	start(ch, 1);
	if (zklockrig_wait_watches(&ch->w[1], 1, ZKLAB_WAIT_MS) != 0) {
		report_check(r, "n2-waits", 0, "a watch set", "none within the deadline");
		return stop(ch);
	}
	start(ch, 2);
	if (zklockrig_wait_watches(&ch->w[2], 1, ZKLAB_WAIT_MS) != 0) {
		report_check(r, "n3-waits", 0, "a watch set", "none within the deadline");
		return stop(ch);
	}
	ch->n2_path = wb_xstrdup(zklock_own_path(ch->w[1].l));
	ch->n3_path = wb_xstrdup(zklock_own_path(ch->w[2].l));
	report_evidence(r, "n2", "%s", zklockrig_name(ch->n2_path));
	report_evidence(r, "n3", "%s", zklockrig_name(ch->n3_path));
	zklockrig_snapshot(&ch->w[1], &s);
	report_checkf(r, "n2-watches-n1", !strcmp(s.pred, ch->n1_path),
		      zklockrig_short(ch->n1_path), "%s", zklockrig_short(s.pred));
	zklockrig_snapshot(&ch->w[2], &s);
	report_checkf(r, "n3-watches-n2-only", !strcmp(s.pred, ch->n2_path),
		      zklockrig_short(ch->n2_path), "%s", zklockrig_short(s.pred));

	return 0;
}

/* n1 releases: n2, woken once, lists again and holds; n3 hears nothing. */
static int n1_releases(struct chain *ch)
{
	struct report *r = ch->r;
	struct zklockrig s;
	int rc, arc = -1;
	report_step(r, "n1 releases: it deletes exactly its own node");
	release(ch, 0);
	rc = wait_done(ch, 1, &arc);
	report_checkf(r, "n2-holds", rc == 0 && arc == 0, "held", "%s",
		      rc ? "still waiting" : zklock_status_name(zklock_status(ch->w[1].l)));
	rc = 0;
	zklockrig_snapshot(&ch->w[1], &s);
	report_evidence(r, "n2_history", "%s", s.log);
	report_checkf(r, "n2-woken-once", s.wakes == 1 && s.wake_type == ZOO_DELETED_EVENT,
		      "1 notification (ZOO_DELETED_EVENT)", "%u (%s)", s.wakes,
		      zkc_type_name(s.wake_type));
	/* The claim comes from a fresh list, not from the notification. */
	const char *tail = after_last_wake(s.log);
	report_checkf(r, "n2-relists-before-claiming",
		      !strncmp(tail, "list#0/", 7) && strstr(tail, " held") != NULL,
		      "wake, then a new list showing n2 first, then held", "%s", tail);
	report_checkf(r, "token-grows", zklock_token(ch->w[1].l) > ch->n1_token,
		      "n2's fencing token > n1's", "n1 %lld, n2 %lld", ch->n1_token,
		      (long long)zklock_token(ch->w[1].l));

	/* Everything the server sent n3's session before now is delivered
	 * once this barrier returns: "no notification" is observed. */
	if (zklockrig_flush(ch->c[2], ZKLAB_WAIT_MS) != 0) {
		report_cannot(r, "the session barrier on n3's client did not complete");
		return stop(ch);
	}
	zklockrig_snapshot(&ch->w[2], &s);
	report_checkf(r, "n3-not-woken", s.wakes == 0,
		      "0 notifications (its predecessor n2 is "
		      "still there)",
		      "%u", s.wakes);
	report_checkf(r, "n3-does-not-get-the-lock", !s.done && zklock_token(ch->w[2].l) < 0,
		      "still waiting", "%s", s.done ? "returned" : "waiting");

	return 0;
}

/* A notification that is not the lock: n4 queues behind n3, n3 gives up,
 * n4 is woken but n2 is still first; only n2's release gives n4 the lock. */
static int notification_is_not_the_lock(struct chain *ch)
{
	struct report *r = ch->r;
	struct zklockrig s;
	int rc, arc = -1;
	report_step(r, "n1's client asks again: a new attempt n4 with a new GUID, behind n3");
	zklockrig_close(&ch->w[0]);
	ch->opened[0] = 0;
	if ((rc = zklockrig_open(&ch->w[3], "n4", ch->c[0], ch->lock, NULL, NULL)) != 0)
		return rc;
	ch->opened[3] = 1;
	start(ch, 3);
	if (zklockrig_wait_watches(&ch->w[3], 1, ZKLAB_WAIT_MS) != 0) {
		report_check(r, "n4-waits", 0, "a watch set", "none within the deadline");
		return stop(ch);
	}
	report_checkf(r, "n4-new-guid", strcmp(ch->n1_guid, zklock_guid(ch->w[3].l)) != 0,
		      "a GUID other than n1's", "n1 %s, n4 %s", ch->n1_guid,
		      zklock_guid(ch->w[3].l));
	zklockrig_snapshot(&ch->w[3], &s);
	report_checkf(r, "n4-watches-n3", !strcmp(s.pred, ch->n3_path),
		      zklockrig_short(ch->n3_path), "%s", zklockrig_short(s.pred));

	report_step(r, "n3 gives up: its candidate is deleted while n2 still holds");
	zklockrig_close(&ch->w[2]);
	ch->opened[2] = 0;
	report_complete(r, ch->op[2], HIST_FAIL, NULL); /* cancelled: never held */
	if (zklockrig_wait_watches(&ch->w[3], 2, ZKLAB_WAIT_MS) != 0) {
		report_check(r, "n4-watches-again", 0, "a second watch",
			     "none within the deadline");
		return stop(ch);
	}
	zklockrig_snapshot(&ch->w[3], &s);
	report_evidence(r, "n4_history", "%s", s.log);
	report_checkf(r, "n4-woken", s.wakes == 1, "1 notification", "%u", s.wakes);
	report_checkf(r, "n4-does-not-claim", !s.done, "still waiting: n2 is first",
		      "%s (last list: own index %ld)", s.done ? "returned" : "waiting",
		      s.last_index);
	report_checkf(r, "n4-now-watches-n2", !strcmp(s.pred, ch->n2_path),
		      zklockrig_short(ch->n2_path), "%s", zklockrig_short(s.pred));

	report_step(r, "n2 releases; n4's next list shows it first");
	release(ch, 1);
	rc = wait_done(ch, 3, &arc);
	report_checkf(r, "n4-holds", rc == 0 && arc == 0, "held", "%s",
		      rc ? "still waiting" : zklock_status_name(zklock_status(ch->w[3].l)));
	rc = 0;
	zklockrig_snapshot(&ch->w[3], &s);
	report_evidence(r, "n4_history", "%s", s.log);
	release(ch, 3);
	return 0;
}

static int chain_run(struct lab_ctx *ctx)
{
	struct chain ch = {.r = ctx->report, .n1_token = -1, .op = {-1, -1, -1, -1}};
	int rc = open_chain(&ch, ctx);
	if (!rc)
		rc = n1_holds_others_queue(&ch);
	if (!rc && !ch.stopped)
		rc = n1_releases(&ch);
	if (!rc && !ch.stopped)
		rc = notification_is_not_the_lock(&ch);
	if (!rc && !ch.stopped) {
		struct hist_result res;
		int crc = mutex_check(report_history(ch.r), &res);
		if (crc)
			report_checker_error(&res, crc);
		report_checker(ch.r, "lock-history-mutual-exclusion", &res, HIST_VALID);
	}
	for (int i = 0; i < 4; i++)
		if (ch.opened[i])
			zklockrig_close(&ch.w[i]);
	for (int i = 0; i < 3; i++)
		zkc_close(ch.c[i]);
	zklab_close(ch.z);
	free(ch.lock);
	free(ch.n1_path);
	free(ch.n2_path);
	free(ch.n3_path);
	return rc;
}

/* The entry point registered as lab_zk_lock_chain in labs/catalog.def, which holds
 * the lab's id, titles, needs and recipe. */
static enum lab_outcome lab_main(struct lab_ctx *ctx)
{
	/* Written at the end, and only when every check held. */
	report_conclusion(
		ctx->report,
		"Each waiter watched only its predecessor: a release woke just the next waiter, "
		"which listed again before it held, and a woken waiter that still found a "
		"candidate in front of it watched that one instead of claiming.");
	return lab_outcome_of(ctx, chain_run(ctx));
}

const lab_run_fn lab_zk_lock_chain = lab_main;
