/*
 * zklock_fast.c - the performance paths of the lock recipe (zklock.c):
 * what makes an acquisition cost one round trip when the lock is free
 * and a hand-off cost one notification plus one listing when it is not.
 * Contract and threads: zklock_fast.h.  The recipe's notes (zklock.c)
 * hold here too; these add how they are kept cheaply.
 *
 * F1. The mailbox (note 6).  Watchers and completions run on the
 *     ZooKeeper completion thread and never block there: they count what
 *     happened (events on the predecessor, on the own node, child
 *     watches done, session events and drops, own-node watch answers)
 *     into a reference-counted mailbox, under its mutex, and wake the
 *     acquiring thread and the monitor.  Every reader compares counters
 *     with what it saw before, so nothing that happened while it was not
 *     looking is lost.
 *
 * F2. The create and the first listing, together (note 4).  The first
 *     listing - a getChildren with a child watch on the lock path - is
 *     sent right behind the create, without waiting for the create's
 *     answer (one round trip for both): a session's requests are served
 *     in order and a read after the session's write, so the list holds
 *     the new node - and were it missing, the attempt would end
 *     CANDIDATE_GONE, never claim.  A lock with create hooks (labs pause
 *     between the two) sends them one at a time.  When that list shows us
 *     first, its child watch is the holder's watch: a child event while
 *     held makes the monitor look again with a get-with-watch on the own
 *     node (ZNONODE: LOST; ZOK: the node's own data watch from then on).
 *     When it shows a predecessor, the child watch is dropped on the
 *     client (a waiter must not hear every newcomer) and a get with watch
 *     on the own node is sent at once, without waiting, before the
 *     predecessor's watch and any later list (zklock.c's arm_own).  (The
 *     server still sends that dropped child watch's one event, at the
 *     next change of the children; the client finds no watcher for it.
 *     One such event per waiting candidate, not one per waiter per
 *     release: no herd.)
 *
 * F3. The watcher's re-list (note 4).  When the predecessor's
 *     notification comes, the watcher sends the waiter's getChildren
 *     itself (asynchronously), so the waiter finds the fresh list on its
 *     way instead of asking for it after the thread hop: the list is sent
 *     after the notification, so it is as fresh as one the waiter would
 *     ask for.  Its completion reads the own node's place out of the
 *     answer there and then (zkl_listing_make), so the names are neither
 *     copied nor handed over.
 */
#include "recipes/zklock_fast.h"
#include "base/mono.h"
#include "base/wb.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct mbox *zkl_mbox_new(void)
{
	struct mbox *m = wb_xcalloc(1, sizeof *m);
	mono_cond_init(&m->cv);
	mono_cond_init(&m->mon_cv);
	pthread_mutex_init(&m->mu, NULL);
	m->refs = 1;
	return m;
}

void zkl_mbox_unref(struct mbox *m, int n)
{
	pthread_mutex_lock(&m->mu);
	m->refs -= n;
	int last = m->refs == 0;
	pthread_mutex_unlock(&m->mu);
	if (last) {
		pthread_mutex_destroy(&m->mu);
		pthread_cond_destroy(&m->cv);
		pthread_cond_destroy(&m->mon_cv);
		free(m->own_path);
		free(m->lock_path);
		free(m->pred_path);
		free(m);
	}
}

/* Wakes the acquiring thread and, while a hold is on, the monitor (it
 * sleeps through what happens between holds).  Under m->mu. */
static void mbox_wake(struct mbox *m)
{
	pthread_cond_broadcast(&m->cv);
	if (m->hold)
		pthread_cond_signal(&m->mon_cv);
}

void zkl_listing_free(struct listing *li)
{
	free(li->pred);
	free(li->bad);
	memset(li, 0, sizeof *li);
}

/* Reads the own node's place out of a getChildren answer (borrowed): one
 * pass, the predecessor's name copied, nothing else kept.  0 or
 * WB_ERANGE (li->bad set). */
int zkl_listing_make(const struct String_vector *sv, const char *own_name, struct listing *li)
{
	struct zklock_position pos;
	const char *bad = NULL;
	memset(li, 0, sizeof *li);
	size_t n = sv && sv->count > 0 ? (size_t)sv->count : 0;
	if (zklock_position(n ? sv->data : NULL, n, own_name ? own_name : "", &pos, &bad) != 0) {
		li->bad = wb_xstrdup(bad);
		li->own_index = -1;
		return WB_ERANGE;
	}
	li->n = pos.n;
	li->own_index = pos.own_index;
	li->pred = pos.pred ? wb_xstrdup(pos.pred) : NULL;
	return 0;
}

/* Frees a re-list's listing and the struct. */
static void relist_free(struct relist *pf)
{
	zkl_listing_free(&pf->li);
	free(pf);
}

/* Completion of a watcher's re-list: hands the own node's place in the
 * answer to the waiter (the mailbox's own path is the waiting attempt's
 * while the re-list is not an orphan), or frees it when nobody waits any
 * more. */
static void relist_done(int rc, const struct String_vector *strings, const void *data)
{
	struct relist *pf = (struct relist *)data;
	struct mbox *m = pf->m;
	pthread_mutex_lock(&m->mu);
	if (pf->orphan) {
		free(pf);
	} else {
		pf->rc = rc;
		if (rc == ZOK) {
			const char *own = m->own_path ? strrchr(m->own_path, '/') + 1 : NULL;
			pf->lrc = zkl_listing_make(strings, own, &pf->li);
		}
		pf->done = 1;
		pthread_cond_broadcast(&m->cv);
	}
	pthread_mutex_unlock(&m->mu);
	zkl_mbox_unref(m, 1);
}

/* Under m->mu: a notification on the watched predecessor of a waiting
 * lock starts a re-list (one per watch: a data watch fires once).
 * Returns it (already m->relist, with the completion's reference taken)
 * for relist_send, or NULL. */
static struct relist *relist_wanted(struct mbox *m, int type, const char *path)
{
	if (m->status != ZKLOCK_WAITING || m->relist || !m->pred_path || !path ||
	    strcmp(path, m->pred_path) || (type != ZOO_DELETED_EVENT && type != ZOO_CHANGED_EVENT))
		return NULL;
	struct relist *pf = wb_xcalloc(1, sizeof *pf);
	pf->m = m;
	m->relist = pf;
	m->refs++; /* the completion's */
	return pf;
}

/* Sends the re-list (outside m->mu; asynchronous, so allowed on the
 * completion thread).  A call that cannot be queued is an answer too:
 * the waiter then lists itself. */
static void relist_send(struct mbox *m, struct relist *pf)
{
	int zrc = zoo_aget_children(m->zh, m->lock_path, 0, relist_done, pf);
	if (zrc == ZOK)
		return;
	pthread_mutex_lock(&m->mu);
	int orphan = pf->orphan;
	pf->rc = zrc;
	pf->done = 1;
	pthread_cond_broadcast(&m->cv);
	pthread_mutex_unlock(&m->mu);
	if (orphan)
		free(pf);
	zkl_mbox_unref(m, 1);
}

/* The watcher of every watch this recipe sets.  Runs on the ZooKeeper
 * completion thread: it records and wakes, and on the predecessor's
 * notification sends the waiter's re-list (asynchronous); it never makes
 * a synchronous call. */
void zkl_mbox_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	struct mbox *m = ctx;
	int drop = 0;
	struct relist *pf = NULL;
	pthread_mutex_lock(&m->mu);
	if (type == ZOO_SESSION_EVENT) {
		/* Delivered to every registered watch: duplicates are harmless. */
		m->session_gen++;
		m->session_state = state;
		/* Counted, not just the last state: a drop and a reconnect
		 * can both come while the monitor is not looking. */
		if (state != ZOO_CONNECTED_STATE)
			m->session_drops++;
	} else if (path && !strcmp(path, m->lock_path)) {
		/* A child watch of a list: only a holder relying on it cares
		 * (a waiter's was dropped on the client).  They fire in the
		 * order they were registered, one at a time (each is
		 * registered after the one before fired or was removed), so
		 * the count tells an earlier one's late event from ours. */
		drop = type != ZOO_NOTWATCHING_EVENT;
		if (drop)
			m->child_done++;
		if (m->hold && (int)(m->child_done - m->child_mark) >= 0)
			pthread_cond_signal(&m->mon_cv);
		pthread_mutex_unlock(&m->mu);
		if (drop)
			zkl_mbox_unref(m, 1);
		return;
	} else {
		if (m->own_path && path && !strcmp(path, m->own_path)) {
			m->own_events++;
			if (type == ZOO_DELETED_EVENT)
				m->own_deleted = 1;
		} else {
			m->pred_events++;
			m->pred_type = type;
			pf = relist_wanted(m, type, path);
		}
		/* A data watch fires once and is gone.  A server-side
		 * "not watching" keeps its reference: never free twice. */
		drop = type != ZOO_NOTWATCHING_EVENT;
	}
	/* With a re-list out, the waiter is woken by its answer, not twice. */
	if (!pf)
		mbox_wake(m);
	pthread_mutex_unlock(&m->mu);
	if (pf)
		relist_send(m, pf);
	if (drop)
		zkl_mbox_unref(m, 1);
}

/* Completion of the asynchronous get-with-watch that arms the holder's
 * watch on its own node.  An arm takes two references: its own, dropped
 * here always, and the watch's, which stays with a registered watch (ZOK)
 * and is dropped here otherwise.  The completion may run after the lock
 * is freed (zklock_free removed the watch it registered, dropping that
 * reference; the client completes every request, at the latest in
 * zookeeper_close), so the mailbox must outlive it. */
void zkl_mbox_armed(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
	(void)value;
	(void)len;
	(void)stat;
	struct mbox *m = (struct mbox *)data;
	pthread_mutex_lock(&m->mu);
	m->arm_done++;
	m->arm_rc = rc;
	mbox_wake(m);
	pthread_mutex_unlock(&m->mu);
	zkl_mbox_unref(m, rc == ZOK ? 1 : 2);
}

/* The re-list the predecessor's notification started, if any: waits for
 * its answer (the client completes every request) and returns its code
 * with the listing moved into *li and zkl_listing_make's answer in *lrc, or 1
 * when there is none. */
int zkl_relist_take(struct zklock *l, struct listing *li, int *lrc)
{
	struct mbox *m = l->mb;
	pthread_mutex_lock(&m->mu);
	struct relist *pf = m->relist;
	if (!pf) {
		pthread_mutex_unlock(&m->mu);
		return 1;
	}
	while (!pf->done)
		pthread_cond_wait(&m->cv, &m->mu);
	m->relist = NULL;
	pthread_mutex_unlock(&m->mu);
	int zrc = pf->rc;
	*lrc = pf->lrc;
	*li = pf->li;
	memset(&pf->li, 0, sizeof pf->li);
	relist_free(pf);
	return zrc;
}

/* Under mb->mu: lets go of a re-list nobody will read (the attempt
 * moved on); one still out is freed by its completion. */
void zkl_relist_drop_locked(struct mbox *m)
{
	struct relist *pf = m->relist;
	m->relist = NULL;
	if (!pf)
		return;
	if (pf->done)
		relist_free(pf);
	else
		pf->orphan = 1;
}

/* Removes our child watch on the lock path, if one is still registered,
 * on the client only (note 4: a waiter's; the server's one event for it
 * then finds no watcher).  Only the acquiring thread registers them, and
 * counts each right after its answer, so child_done == child_regs here
 * means every one has fired or been removed: nothing to ask the client. */
void zkl_drop_child_watch(struct zklock *l)
{
	pthread_mutex_lock(&l->mb->mu);
	int none = l->mb->child_done == l->mb->child_regs;
	pthread_mutex_unlock(&l->mb->mu);
	if (none ||
	    zoo_remove_watches(l->zh, l->path, ZWATCHTYPE_CHILD, zkl_mbox_watcher, l->mb, 1) != ZOK)
		return;
	pthread_mutex_lock(&l->mb->mu);
	l->mb->child_done++;
	pthread_mutex_unlock(&l->mb->mu);
	zkl_mbox_unref(l->mb, 1);
}

/* One getChildren with the child watch of note 4 (zkl_get_children_watched,
 * or the one sent with the create: zkl_send_create_and_list).  Before it,
 * child_watch_before: any earlier child watch of ours is dropped on the
 * client first, so there is one at a time (the client would merge two
 * into one event) and one reference per registration; the own-node
 * counters are taken before the request: what answers or fires after it
 * is news to the monitor.  After its answer, child_watch_after:
 * l->child_mark is the count of child watches done at which this one
 * is. */
static void child_watch_before(struct zklock *l)
{
	struct mbox *m = l->mb;
	zkl_drop_child_watch(l);
	pthread_mutex_lock(&m->mu);
	l->own_seen = m->own_events;
	l->arm_seen = m->arm_done;
	m->refs++; /* the watch's, before it can fire */
	pthread_mutex_unlock(&m->mu);
}

/* After the answer zrc of a getChildren with the child watch. */
static void child_watch_after(struct zklock *l, int zrc)
{
	struct mbox *m = l->mb;
	if (zrc != ZOK) {
		zkl_mbox_unref(m, 1); /* only an answer ZOK registers a child watch */
		return;
	}
	pthread_mutex_lock(&m->mu);
	l->child_mark = ++m->child_regs;
	pthread_mutex_unlock(&m->mu);
}

int zkl_get_children_watched(struct zklock *l, struct String_vector *sv)
{
	child_watch_before(l);
	int zrc = zoo_wget_children(l->zh, l->path, zkl_mbox_watcher, l->mb, sv);
	child_watch_after(l, zrc);
	return zrc;
}

/* The listing sent with the create, if it is still to be read: its code
 * with the listing moved into *li and zkl_listing_make's answer in *lrc, or
 * 1 when there is none. */
int zkl_first_take(struct zklock *l, struct listing *li, int *lrc)
{
	if (!l->first.valid)
		return 1;
	l->first.valid = 0;
	*lrc = l->first.lrc;
	*li = l->first.li;
	memset(&l->first.li, 0, sizeof l->first.li);
	return l->first.rc;
}

/* The create and the first listing of an attempt, sent back to back. */
struct first_wait {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int created; /* the create's completion came */
	int listed;  /* the listing's came (always after the create's) */
	int create_rc, list_rc, lrc;
	char *path;	   /* the node made, on ZOK (taken by the caller) */
	struct listing li; /* on ZOK: the new node's place */
};

static void first_created(int rc, const char *value, const void *data)
{
	struct first_wait *w = (struct first_wait *)data;
	pthread_mutex_lock(&w->mu);
	w->create_rc = rc;
	w->path = rc == ZOK && value ? wb_xstrdup(value) : NULL;
	w->created = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

static void first_listed(int rc, const struct String_vector *sv, const void *data)
{
	struct first_wait *w = (struct first_wait *)data;
	pthread_mutex_lock(&w->mu);
	w->list_rc = rc;
	if (rc == ZOK)
		w->lrc = zkl_listing_make(sv, w->path ? strrchr(w->path, '/') + 1 : NULL, &w->li);
	w->listed = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* send_create with the attempt's first listing - the getChildren with
 * note 4's child watch - sent right behind it, without waiting for the
 * create's answer: the session answers in order and a read is served
 * after the session's earlier writes, so the listing already holds the
 * new node (and if it did not, find_position would call the candidate
 * gone, never claim).  One round trip for both.  The listing is kept in
 * l->first for find_position's first list.  Both asynchronous; the
 * client completes every request, so w is waited for to the end. */
int zkl_send_create_and_list(struct zklock *l, const char *prefix, char **path)
{
	*path = NULL;
	const char *data = l->opts.data;
	int len = data ? l->opts.data_len : -1;
	struct first_wait w = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	child_watch_before(l);
	int zrc = zoo_acreate(l->zh, prefix, data, len, &ZOO_OPEN_ACL_UNSAFE,
			      ZOO_EPHEMERAL_SEQUENTIAL, first_created, &w);
	int lq = zrc == ZOK ? zoo_awget_children(l->zh, l->path, zkl_mbox_watcher, l->mb,
						 first_listed, &w)
			    : zrc;
	pthread_mutex_lock(&w.mu);
	while ((zrc == ZOK && !w.created) || (lq == ZOK && !w.listed))
		pthread_cond_wait(&w.cv, &w.mu);
	pthread_mutex_unlock(&w.mu);
	if (zrc == ZOK)
		zrc = w.create_rc;
	if (lq == ZOK)
		lq = w.list_rc;
	child_watch_after(l, lq);
	if (zrc == ZOK) {
		*path = w.path;
		zkl_listing_free(&l->first.li);
		l->first.valid = 1;
		l->first.rc = lq;
		l->first.lrc = w.lrc;
		l->first.li = w.li;
	} else {
		free(w.path);
		zkl_listing_free(&w.li); /* a child watch it set goes with the next list */
	}
	pthread_mutex_destroy(&w.mu);
	pthread_cond_destroy(&w.cv);
	return zrc;
}
