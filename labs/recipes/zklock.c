/*
 * zklock.c - the ZooKeeper lock recipe (see zklock.h for the contract).
 *
 * Read this file from the top: zklock_acquire comes first and reads as
 * the notes below in order, each step a function of its own, then
 * zklock_release, recovery (note 1), the calls to the server, the
 * monitor (note 5), the names (note 2) and the lock object.  What makes
 * it fast - the mailbox the watchers write into, the create and first
 * listing sent together, the re-list the watcher sends - lives in
 * zklock_fast.c behind the calls named zkl_*, with its own contract
 * (zklock_fast.h): the same answers, sooner.
 *
 * It does not own the handle, retry a create blindly, delete any node but
 * its own, or treat a notification as the lock.
 *
 * Design notes and invariants
 *
 *  1. One GUID per acquisition.  The create is the only non-idempotent
 *     step.  When its answer is lost (ZCONNECTIONLOSS), the node may or may
 *     not exist; the GUID in the name plus the node's ephemeralOwner let us
 *     find it on the same session.  The search first syncs the parent: the
 *     session may have reconnected to a server that has not yet applied
 *     the lost create (the client's last-seen zxid predates it), and a
 *     listing there could miss a node that exists.  Exactly one match:
 *     resume with it.  None: the outcome is still unknown (a create may be
 *     in flight yet), so say so and stop; the caller ends the session,
 *     which removes whatever the create made.  Several: refuse and delete
 *     none.  Creating again "to be sure" can leave two candidates of one
 *     client in the queue, the second of which would wait behind the first
 *     forever (or, worse, be taken for ours); refusing costs time instead:
 *     the orphans block every contender until the session ends.
 *
 *  2. Order by the sequence suffix.  The names start with a random GUID,
 *     so sorting whole names orders contenders by chance.
 *
 *  3. Watch the predecessor with a get (zoo_wget), not an exists.  Both set
 *     a watch when the node is there.  When the predecessor has already
 *     gone, zoo_wexists answers ZNONODE *and leaves an existence watch* on
 *     a name that will never be created again (a sequential name is never
 *     reused): a leak on client and server, and a callback into whatever
 *     context we passed, at some unknown later time.  zoo_wget answers
 *     ZNONODE and leaves nothing; we re-list at once.
 *
 *  4. A notification says "your snapshot is stale", nothing more: the
 *     predecessor may have been deleted (released, expired) or only
 *     changed, and the one before it may still be there.  After every
 *     notification we list again, and we claim the lock only when a fresh
 *     list shows our own node first.  The list is also the proof that our
 *     own node still exists.  The watch that tells a holder about its own
 *     node is set no later than the list that makes it the holder, so
 *     that no deletion falls between them: the first list after the
 *     create carries a child watch on the lock path, which fires when any
 *     child goes, ours too; a waiter, whose first list showed a
 *     predecessor, asks for a watch on its own node (arm_own) before the
 *     predecessor's watch and any later list: the session answers in
 *     order, so a node deleted before that get is missing from every later
 *     list too (CANDIDATE_GONE), and one deleted after it fires the watch,
 *     which reaches the holder as LOST - as does an answer that says the
 *     node or the session is gone.  How these watches are kept to one per
 *     candidate is zklock_fast.c's note F2.
 *
 *  5. Expired means over.  A handle whose session expired is dead; its
 *     ephemeral nodes are gone.  A new attempt needs a new handle and gets
 *     a new GUID.  Disconnected is not expired: the session lives until
 *     the server's timeout, so a holder is told SUSPENDED, and LOST only
 *     when the session is known expired, the own node was deleted, or the
 *     disconnection outlasted the negotiated session timeout (after which
 *     the server may have expired the session without our knowing).
 *
 *  6. Watch contexts outlive locks.  The ZooKeeper client may call a
 *     watcher after we stop caring (an event already queued when we give
 *     up).  So watchers get a reference-counted mailbox (zklock_fast.c),
 *     not the lock: one reference for the lock, one per registered watch,
 *     dropped when the watch fires or is removed.
 *
 *  7. The fencing token is the sequence number.  It grows only while the
 *     lock path lives: parents are created persistent (Curator creates
 *     containers, which the server deletes when empty, restarting the
 *     counter at 0).
 *
 * zklock_acquire: start_attempt (a new GUID on the session we are
 * connected on), create_candidate (note 1), then a loop of find_position
 * (note 2: zklock_position, one pass over the names for the own place
 * and the predecessor), watch_predecessor (note 3) and
 * await_notification, until a fresh list puts us first and we claim
 * (note 4); claim hands the hold to the lock's one monitor thread
 * (monitor_main, started at the first claim and kept until zklock_free),
 * whose on_session_event and on_own_node_event are note 5.
 */
#include "recipes/zklock.h"
#include "base/mono.h"
#include "base/wb.h"
#include "recipes/uuid.h"
#include "recipes/zklock_fast.h"
#include "recipes/zkseq.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* The steps of zklock_acquire, in the order it takes them, and the
 * helpers they call, defined further down. */
static int start_attempt(struct zklock *l, int wait_ms, int64_t *deadline);
static int create_candidate(struct zklock *l, int64_t deadline);
static int find_position(struct zklock *l, int64_t deadline, int watched, char **pred_path);
static int arm_own(struct zklock *l, int64_t deadline);
static int watch_predecessor(struct zklock *l, char *pred_path, int64_t deadline, unsigned *seen,
			     int *relist);
static int await_notification(struct zklock *l, unsigned seen, int64_t deadline, int wait_ms);
static int claim(struct zklock *l, int by_child);
static void abandon(struct zklock *l, enum zklock_status why);
static int give_up(struct zklock *l, int rc);
static int wait_pred(struct zklock *l, unsigned seen, int64_t deadline, int *type);
static int make_parents(struct zklock *l, int64_t deadline);
static int send_create(struct zklock *l, const char *prefix, char **path);
static void adopt(struct zklock *l, char *path);
static int delete_own(struct zklock *l, int64_t deadline);
static int sync_parent(struct zklock *l, int64_t deadline);
static int session_dead(struct zklock *l);
static int wait_session(struct zklock *l, int64_t deadline);
static void set_expired(struct zklock *l, const char *during);
static int absorb(struct zklock *l, int zrc, int64_t deadline, const char *what, int *err);
static int list(struct zklock *l, int64_t deadline, int watched, struct listing *li);
static void drop_watch(struct zklock *l, const char *path);
static void set_pred(struct zklock *l, char *path);
static void monitor_idle(struct zklock *l);
static void *monitor_main(void *arg);
static int name_seq(const char *name, int32_t *seq, const char **lastp);
static void sleep_ms(int ms);
static void abs_deadline(int64_t deadline, struct timespec *ts);
static void set_msg(struct zklock *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_msg_parts(struct zklock *l, const char *part, ...);
static char *decimal(int32_t v, char buf[12]);
static void set_status(struct zklock *l, enum zklock_status s);
static void forget_candidate(struct zklock *l);

/* ---- The recipe: one acquisition and its release (notes 1 to 4) ------------ */

int zklock_acquire(struct zklock *l, int wait_ms)
{
	int64_t deadline;
	int rc = start_attempt(l, wait_ms, &deadline);
	if (rc == 0)
		rc = create_candidate(l, deadline); /* note 1 */
	int first = 1; /* the first list carries the child watch (note 4) */
	while (rc == 0) {
		char *pred_path;
		rc = find_position(l, deadline, first, &pred_path); /* note 2 */
		if (rc)
			break;
		if (!pred_path)
			return claim(l, first); /* note 4 */
		if (wait_ms == 0 || (deadline >= 0 && mono_now_ms() >= deadline)) {
			free(pred_path);
			abandon(l, ZKLOCK_TIMED_OUT);
			set_msg(l, "the lock is held by another; gave up after %d ms", wait_ms);
			return WB_EBUSY;
		}
		if (first) {
			first = 0;
			rc = arm_own(l, deadline); /* note 4 */
			if (rc) {
				free(pred_path);
				break;
			}
		}
		unsigned seen;
		int relist;
		rc = watch_predecessor(l, pred_path, deadline, &seen, &relist); /* note 3 */
		if (rc == 0 && !relist)
			rc = await_notification(l, seen, deadline, wait_ms);
		/* A notification is not the lock: look again (note 4). */
	}
	return rc;
}

/* Refuses an attempt on a lock that is busy or on a dead handle, else
 * clears what the last attempt left and draws this attempt's GUID
 * (note 1), connected on the session the candidate will belong to.
 * 0 with *deadline set, or a WB error with status and message set. */
static int start_attempt(struct zklock *l, int wait_ms, int64_t *deadline)
{
	enum zklock_status s0 = zklock_status(l);
	if (s0 == ZKLOCK_WAITING || s0 == ZKLOCK_HELD) {
		set_msg(l, "zklock_acquire: an attempt is already %s", zklock_status_name(s0));
		return WB_EINVAL;
	}
	if (s0 == ZKLOCK_LOST) {
		set_msg(l, "zklock_acquire: the lock was lost; zklock_release it first");
		return WB_EINVAL;
	}
	if (s0 == ZKLOCK_EXPIRED || session_dead(l)) {
		set_msg(l, "zklock_acquire: this handle's session is over; a new attempt needs a "
			   "new handle");
		return WB_EINVAL;
	}
	monitor_idle(l);
	forget_candidate(l);
	memset(&l->st, 0, sizeof l->st);
	l->recovered = 0;
	pthread_mutex_lock(&l->mb->mu);
	l->mb->own_deleted = 0;
	l->mb->cancel = 0;
	l->mb->session_state = 0;
	l->drops_known = l->mb->session_drops;
	pthread_mutex_unlock(&l->mb->mu);
	*deadline = wait_ms < 0 ? -1 : mono_now_ms() + wait_ms;
	if (zklock_guid_new(l->guid) != 0) {
		set_status(l, ZKLOCK_FAILED);
		set_msg(l, "no randomness for a GUID (getrandom failed)");
		return WB_EIO;
	}
	set_status(l, ZKLOCK_WAITING);

	/* The candidate belongs to the session we are connected on now. */
	l->session_id = 0;
	int rc = wait_session(l, *deadline);
	if (rc != 0) {
		if (rc == WB_EIO) {
			set_expired(l, "connecting");
		} else {
			set_status(l, ZKLOCK_TIMED_OUT);
			set_msg(l, "not connected to ZooKeeper within the wait");
		}
		return rc;
	}
	l->session_id = zoo_client_id(l->zh)->client_id;
	return 0;
}

/* Creates this attempt's candidate (note 1).  0 with l->own_path set, or
 * a WB error with status and message set. */
static int create_candidate(struct zklock *l, int64_t deadline)
{
	char *prefix = l->prefix; /* zklock_name_prefix(l->path, l->guid), made once */
	memcpy(prefix + l->prefix_guid, l->guid, ZKLOCK_GUID_LEN);
	int made_parents = 0, rc = 0;
	for (;;) {
		char *made = NULL;
		/* With a hook between create and listing, one at a time. */
		int zrc = l->opts.hooks.create_sent || l->opts.hooks.create_done
				  ? send_create(l, prefix, &made)
				  : zkl_send_create_and_list(l, prefix, &made);
		if (zrc == ZOK)
			adopt(l, made);
		if (l->opts.hooks.create_done)
			l->opts.hooks.create_done(l->opts.hooks.arg, l, zrc);
		if (zrc == ZOK)
			break;
		if (zrc == ZNONODE && !made_parents) {
			/* A definite "no": the lock path is missing.  Safe to redo. */
			made_parents = 1;
			rc = make_parents(l, deadline);
			if (rc)
				break;
			continue;
		}
		if (zrc == ZCONNECTIONLOSS || zrc == ZOPERATIONTIMEOUT) {
			/* Outcome unknown: find it, never create again (note 1).
			 * Give recovery at least two session timeouts. */
			l->st.conn_losses++;
			int64_t floor = mono_now_ms() + 2 * (int64_t)zoo_recv_timeout(l->zh);
			int64_t dl = deadline < 0 ? -1 : (deadline > floor ? deadline : floor);
			char *found = NULL;
			rc = zklock_recover(l, dl < 0 ? -1 : (int)(dl - mono_now_ms()), &found);
			if (rc == 0) {
				adopt(l, found);
				l->recovered = 1;
				char *note = wb_xasprintf("create reply lost; %s", l->msg);
				set_msg(l, "%s", note);
				free(note);
			} else if (rc == WB_EIO) {
				/* status EXPIRED already set */
			} else if (rc == WB_ECORRUPT) {
				set_status(l, ZKLOCK_AMBIGUOUS);
			} else {
				set_status(l, ZKLOCK_CREATE_UNKNOWN);
				rc = WB_ENOENT;
			}
			break;
		}
		int err;
		absorb(l, zrc, deadline, "creating the candidate", &err);
		rc = err ? err : WB_EIO;
		if (!err) {
			set_status(l, ZKLOCK_FAILED);
			set_msg(l, "creating the candidate failed: %s (%d)", zerror(zrc), zrc);
		}
		break;
	}
	return rc;
}

/* Lists the lock path (watched: with the child watch of note 4) and
 * finds the own node in suffix order (note 2).  0 with *pred_path NULL
 * when the own node is first, else the full path of the node just before
 * it (caller frees); or a WB error that ends the attempt, with status and
 * message set and the candidate dealt with. */
static int find_position(struct zklock *l, int64_t deadline, int watched, char **pred_path)
{
	*pred_path = NULL;
	struct listing li;
	int rc = list(l, deadline, watched, &li);
	if (rc == WB_ENOENT) {
		set_msg(l, "the lock path %s vanished, and our candidate with it", l->path);
		set_status(l, ZKLOCK_CANDIDATE_GONE);
		return WB_ENOENT;
	}
	if (rc == WB_EBUSY) {
		abandon(l, ZKLOCK_TIMED_OUT);
		return WB_EBUSY;
	}
	if (rc == WB_ERANGE) {
		abandon(l, ZKLOCK_SEQ_OVERFLOW);
		return rc;
	}
	if (rc)
		return give_up(l, rc);
	long idx = li.own_index;
	if (l->opts.hooks.listed)
		l->opts.hooks.listed(l->opts.hooks.arg, l, li.n, idx);
	if (idx > 0)
		*pred_path = wb_xasprintf("%s/%s", l->path, li.pred);
	zkl_listing_free(&li);
	if (idx < 0) {
		if (session_dead(l)) {
			set_expired(l, "waiting");
			return WB_EIO;
		}
		set_status(l, ZKLOCK_CANDIDATE_GONE);
		set_msg(l, "our candidate %s is no longer there (deleted by someone else)",
			l->own_path);
		return WB_ENOENT;
	}
	return 0;
}

/* A waiter's first list showed a predecessor: drops the list's child
 * watch on the client and asks, without waiting, for a watch on the own
 * node, before the predecessor's watch and any later list, so its answer
 * travels with theirs (note 4): the claim then sends nothing.  The answer
 * and the node's events from here on are the monitor's news.  0, or a WB
 * error (candidate given up). */
static int arm_own(struct zklock *l, int64_t deadline)
{
	zkl_drop_child_watch(l);
	pthread_mutex_lock(&l->mb->mu);
	l->arm_seen = l->mb->arm_done;
	l->own_seen = l->mb->own_events;
	l->mb->refs += 2; /* the watch's and the completion's (zkl_mbox_armed) */
	l->mb->own_watch = 1;
	pthread_mutex_unlock(&l->mb->mu);
	int zrc = zoo_awget(l->zh, l->own_path, zkl_mbox_watcher, l->mb, zkl_mbox_armed, l->mb);
	if (zrc == ZOK)
		return 0;
	zkl_mbox_unref(l->mb, 2);
	int err;
	absorb(l, zrc, deadline, "watching the own node", &err);
	return give_up(l, err ? err : WB_EIO);
}

/* Watches the predecessor pred_path (taken over) with a get, not an
 * exists (note 3).  0 with *seen the mailbox's predecessor count before
 * the watch was set and *relist 0; *relist 1 when it is gone already (no
 * watch left) or the call is to be repeated after a reconnect: list again
 * now; or a WB error that ended the attempt. */
static int watch_predecessor(struct zklock *l, char *pred_path, int64_t deadline, unsigned *seen,
			     int *relist)
{
	*relist = 0;
	set_pred(l, pred_path);
	if (l->opts.hooks.before_watch)
		l->opts.hooks.before_watch(l->opts.hooks.arg, l, l->pred_path);
	pthread_mutex_lock(&l->mb->mu);
	*seen = l->mb->pred_events;
	l->mb->refs++; /* for the watch, before it can fire */
	pthread_mutex_unlock(&l->mb->mu);
	struct Stat stat;
	char b[1];
	int len = sizeof b;
	int zrc = zoo_wget(l->zh, l->pred_path, zkl_mbox_watcher, l->mb, b, &len, &stat);
	if (zrc != ZOK)
		zkl_mbox_unref(l->mb, 1);
	if (l->opts.hooks.watched)
		l->opts.hooks.watched(l->opts.hooks.arg, l, l->pred_path, zrc);
	if (zrc == ZNONODE) {
		l->st.vanished++; /* gone already: no watch left, look again now */
		*relist = 1;
		return 0;
	}
	if (zrc != ZOK) {
		int err;
		if (absorb(l, zrc, deadline, "watching the predecessor", &err)) {
			*relist = 1;
			return 0;
		}
		if (err == WB_EBUSY) {
			abandon(l, ZKLOCK_TIMED_OUT);
			return err;
		}
		return give_up(l, err);
	}
	l->st.watches++;
	return 0;
}

/* Waits for the predecessor's notification (seen: the count before its
 * watch was set).  0 once notified - the snapshot is stale, nothing more
 * (note 4) - or a WB error that ended the attempt (cancelled, expired,
 * timed out after wait_ms). */
static int await_notification(struct zklock *l, unsigned seen, int64_t deadline, int wait_ms)
{
	int type = 0;
	int w = wait_pred(l, seen, deadline, &type);
	if (w == -2) {
		abandon(l, ZKLOCK_CANCELLED);
		set_msg(l, "cancelled while waiting for the lock");
		return WB_EBUSY;
	}
	if (w < 0) {
		set_expired(l, "waiting for the predecessor");
		abandon(l, ZKLOCK_EXPIRED);
		return WB_EIO;
	}
	if (w == 0) {
		abandon(l, ZKLOCK_TIMED_OUT);
		set_msg(l, "the lock is held by another; gave up after %d ms", wait_ms);
		return WB_EBUSY;
	}
	l->st.wakes++;
	if (l->opts.hooks.woken)
		l->opts.hooks.woken(l->opts.hooks.arg, l, type, l->pred_path);
	set_pred(l, NULL); /* the watch is spent; its re-list, if any, is out */
	return 0;
}

/* Takes the lock: the own node is first in a fresh list - which is also
 * the proof that it exists (note 4); its watch was set by that list
 * (by_child: the first list's child watch) or asked for before it
 * (arm_own), so a deletion after the list reaches the monitor as LOST.
 * Hands the hold to the lock's monitor (note 5), started at the first
 * claim and woken now only when there is news already (or a test waits
 * for it to start).  0. */
static int claim(struct zklock *l, int by_child)
{
	struct mbox *m = l->mb;
	pthread_mutex_lock(&m->mu);
	l->gen_seen = m->session_gen;
	l->drops_seen = m->session_drops;
	l->hold_by_child = by_child;
	m->child_mark = l->child_mark;
	m->status = ZKLOCK_HELD;
	m->session_state = ZOO_CONNECTED_STATE; /* session news after here is new */
	m->hold_gen++;
	m->hold = 1;
	int news = by_child ? (int)(m->child_done - l->child_mark) >= 0
			    : (m->arm_done != l->arm_seen && m->arm_rc != ZOK) ||
				      m->own_events != l->own_seen;
	if (news || l->opts.hooks.monitor_started)
		pthread_cond_signal(&m->mon_cv);
	pthread_mutex_unlock(&m->mu);
	char num[12];
	set_msg_parts(l, "held ", l->own_path, " (fencing token ", decimal(l->seq, num), ")",
		      l->recovered ? ", after finding it by GUID when the create's reply was lost"
				   : "",
		      (const char *)NULL);
	if (!l->monitor_running && pthread_create(&l->monitor, NULL, monitor_main, l) == 0)
		l->monitor_running = 1;
	return 0;
}

int zklock_release(struct zklock *l)
{
	enum zklock_status s = zklock_status(l);
	if (s != ZKLOCK_HELD && s != ZKLOCK_LOST) {
		set_msg(l, "zklock_release: nothing held (%s)", zklock_status_name(s));
		return WB_EINVAL;
	}
	monitor_idle(l);
	/* Unreachable for a whole session timeout: the server ends the session,
	 * and the node with it. */
	int64_t dl = mono_now_ms() + (int64_t)zoo_recv_timeout(l->zh);
	int rc = delete_own(l, dl);
	if (rc == 0) {
		set_msg_parts(l, "released ", l->own_path, (const char *)NULL);
	} else if (rc == WB_ENOENT) {
		set_msg(l, "%s was already gone: the lock had been lost", l->own_path);
	} else {
		set_msg(l, "could not delete %s (%s); it goes when the session ends", l->own_path,
			zklock_message(l));
	}
	set_status(l, ZKLOCK_RELEASED);
	return rc;
}

/* ---- Ending an attempt that will not get the lock -------------------------- */

/* Ends a waiting attempt that will not get the lock: drops the watch and
 * deletes the own candidate. */
static void abandon(struct zklock *l, enum zklock_status why)
{
	drop_watch(l, l->pred_path);
	set_pred(l, NULL);
	if (l->own_path && why != ZKLOCK_EXPIRED) {
		int64_t dl = mono_now_ms() + (int64_t)zoo_recv_timeout(l->zh);
		delete_own(l, dl);
	}
	set_status(l, why);
}

/* A waiting attempt ends in an error: the own candidate goes too, unless
 * the session already took it (or someone deleted it). */
static int give_up(struct zklock *l, int rc)
{
	enum zklock_status s = zklock_status(l);
	if (l->own_path && s != ZKLOCK_EXPIRED && s != ZKLOCK_CANDIDATE_GONE && !session_dead(l))
		abandon(l, s);
	return rc;
}

/* Waits for a notification on the predecessor's watch, the session's end
 * or the deadline.  1 = notified, 0 = deadline, -1 = session expired,
 * -2 = cancelled. */
static int wait_pred(struct zklock *l, unsigned seen, int64_t deadline, int *type)
{
	struct mbox *m = l->mb;
	int r;
	pthread_mutex_lock(&m->mu);
	for (;;) {
		if (m->pred_events != seen) {
			/* The re-list the notification started is on its way:
			 * its answer wakes us; a cancel still ends the wait. */
			if (m->relist && !m->relist->done) {
				if (m->cancel) {
					r = -2;
					break;
				}
				pthread_cond_wait(&m->cv, &m->mu);
				continue;
			}
			*type = m->pred_type;
			r = 1;
			break;
		}
		if (m->session_state == ZOO_EXPIRED_SESSION_STATE ||
		    m->session_state == ZOO_AUTH_FAILED_STATE) {
			r = -1;
			break;
		}
		if (m->cancel) {
			r = -2;
			break;
		}
		if (deadline < 0) {
			pthread_cond_wait(&m->cv, &m->mu);
			continue;
		}
		if (mono_now_ms() >= deadline) {
			r = 0;
			break;
		}
		struct timespec ts;
		abs_deadline(deadline, &ts);
		pthread_cond_timedwait(&m->cv, &m->mu, &ts);
	}
	pthread_mutex_unlock(&m->mu);
	return r;
}

/* ---- The create (note 1) --------------------------------------------------- */

/* Creates the persistent ancestors of the lock path (ZNODEEXISTS is fine,
 * so a retry after a lost answer is harmless). */
static int make_parents(struct zklock *l, int64_t deadline)
{
	char *p = wb_xstrdup(l->path);
	int err = 0;
	for (char *s = strchr(p + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		int zrc;
		do
			zrc = zoo_create(l->zh, p, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
		while (absorb(l, zrc, deadline, "creating the lock path", &err));
		if (err)
			break;
		if (zrc == ZNONODE) { /* a parent vanished under us: start over */
			free(p);
			return make_parents(l, deadline);
		}
		if (!s)
			break;
		*s = '/';
	}
	free(p);
	return err;
}

struct create_wait {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done;
	int rc;
	char *path;
};

static void create_cb(int rc, const char *value, const struct Stat *stat, const void *data)
{
	(void)stat;
	struct create_wait *w = (struct create_wait *)data;
	pthread_mutex_lock(&w->mu);
	w->rc = rc;
	w->path = rc == ZOK && value ? wb_xstrdup(value) : NULL;
	w->done = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* Sends the candidate's create and waits for its answer: the ZOO code,
 * with *path (caller frees) on ZOK.  Synchronous, answered on the
 * client's I/O thread without a hop through its completion thread -
 * unless a create_sent hook must run between sending and answer: then
 * asynchronous. */
static int send_create(struct zklock *l, const char *prefix, char **path)
{
	*path = NULL;
	const char *data = l->opts.data;
	int len = data ? l->opts.data_len : -1;
	if (!l->opts.hooks.create_sent) {
		size_t cap = strlen(prefix) + 32; /* the suffix is ten digits */
		char *buf = wb_xcalloc(1, cap);
		int zrc = zoo_create(l->zh, prefix, data, len, &ZOO_OPEN_ACL_UNSAFE,
				     ZOO_EPHEMERAL_SEQUENTIAL, buf, (int)cap);
		if (zrc == ZOK)
			*path = buf;
		else
			free(buf);
		return zrc;
	}
	struct create_wait w = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	int zrc = zoo_acreate2(l->zh, prefix, data, len, &ZOO_OPEN_ACL_UNSAFE,
			       ZOO_EPHEMERAL_SEQUENTIAL, create_cb, &w);
	if (zrc == ZOK) {
		l->opts.hooks.create_sent(l->opts.hooks.arg, l);
		/* The client completes every request (reply, loss or close):
		 * no deadline here, or w would be written after we left. */
		pthread_mutex_lock(&w.mu);
		while (!w.done)
			pthread_cond_wait(&w.cv, &w.mu);
		pthread_mutex_unlock(&w.mu);
		zrc = w.rc;
		*path = w.path;
	}
	pthread_mutex_destroy(&w.mu);
	pthread_cond_destroy(&w.cv);
	return zrc;
}

static void adopt(struct zklock *l, char *path)
{
	free(l->own_path);
	l->own_path = path;
	l->own_name = strrchr(path, '/') + 1;
	const char *last;
	int32_t seq;
	l->seq = name_seq(l->own_name, &seq, &last) == 0 ? seq : -1; /* the GUID is ours */
	pthread_mutex_lock(&l->mb->mu);
	free(l->mb->own_path);
	l->mb->own_path = wb_xstrdup(path);
	pthread_mutex_unlock(&l->mb->mu);
}

/* Deletes exactly our own node.  0, WB_ENOENT (already gone), WB_EIO. */
static int delete_own(struct zklock *l, int64_t deadline)
{
	int zrc, err;
	do
		zrc = zoo_delete(l->zh, l->own_path, -1);
	while (absorb(l, zrc, deadline, "deleting the own node", &err));
	if (err == WB_EIO && zklock_status(l) == ZKLOCK_EXPIRED)
		return WB_EIO; /* the session took the node with it */
	if (err)
		return WB_EIO;
	return zrc == ZNONODE ? WB_ENOENT : 0;
}

/* ---- Recovering a create whose reply was lost (note 1) --------------------- */

/* Says in l's message what the search by GUID found - matches nodes of
 * our session (their names in names), foreign ones of another session -
 * and returns zklock_recover's answer: 0 for exactly one match,
 * WB_ENOENT for none, WB_ECORRUPT for several. */
static int recover_verdict(struct zklock *l, size_t matches, size_t foreign, const char *names)
{
	if (matches == 1) {
		set_msg(l,
			"found our candidate %s by GUID; its ephemeralOwner is our session 0x%llx",
			names, (unsigned long long)l->session_id);
		return 0;
	}
	if (matches == 0) {
		set_msg(l,
			"no node of session 0x%llx carries GUID %s%s after syncing the parent: the "
			"create's outcome is unknown (it may still be in flight); nothing to "
			"resume",
			(unsigned long long)l->session_id, l->guid,
			foreign ? " (a node with it belongs to another session)" : "");
		return WB_ENOENT;
	}
	set_msg(l,
		"%zu nodes of session 0x%llx carry GUID %s (%s): which one is ours is "
		"ambiguous; refusing to pick, deleting none",
		matches, (unsigned long long)l->session_id, l->guid, names);
	return WB_ECORRUPT;
}

int zklock_recover(struct zklock *l, int wait_ms, char **path)
{
	*path = NULL;
	int64_t deadline = wait_ms < 0 ? -1 : mono_now_ms() + wait_ms;
	int rc = wait_session(l, deadline);
	if (rc == WB_EIO) {
		set_expired(l, "recovery");
		return WB_EIO;
	}
	if (rc != 0) {
		set_msg(l, "could not reconnect before the deadline to look for our candidate");
		return rc;
	}
	rc = sync_parent(l, deadline);
	if (rc == WB_EIO) {
		set_expired(l, "recovery");
		return WB_EIO;
	}
	if (rc != 0)
		return rc;
	/* All children, not the sorted lock nodes: the search is by GUID, and
	 * an unorderable neighbour must not hide our own node. */
	struct String_vector sv = {0};
	int zrc, err;
	do
		zrc = zoo_get_children(l->zh, l->path, 0, &sv);
	while (absorb(l, zrc, deadline, "listing for recovery", &err));
	if (err)
		return err;
	size_t matches = 0, foreign = 0;
	struct wb_buf found = {0};
	char *one = NULL;
	for (int i = 0; i < sv.count; i++) {
		struct zklock_name nm;
		if (zklock_name_parse(sv.data[i], &nm) != 0 || strcasecmp(nm.guid, l->guid))
			continue;
		char *p = wb_xasprintf("%s/%s", l->path, sv.data[i]);
		struct Stat stat;
		do
			zrc = zoo_exists(l->zh, p, 0, &stat);
		while (absorb(l, zrc, deadline, "reading a candidate's owner", &err));
		if (err) {
			free(p);
			free(one);
			wb_buf_free(&found);
			deallocate_String_vector(&sv);
			return err;
		}
		if (zrc == ZOK && stat.ephemeralOwner == l->session_id) {
			matches++;
			wb_buf_printf(&found, "%s%s", matches > 1 ? ", " : "", sv.data[i]);
			free(one);
			one = p;
		} else {
			foreign += zrc == ZOK;
			free(p);
		}
	}
	deallocate_String_vector(&sv);
	rc = recover_verdict(l, matches, foreign, found.data);
	if (rc == 0) {
		*path = one;
		one = NULL;
	}
	free(one);
	wb_buf_free(&found);
	if (l->opts.hooks.recovered)
		l->opts.hooks.recovered(l->opts.hooks.arg, l, matches);
	return rc;
}

/* The answer of one zoo_async (sync) call. */
struct sync_wait {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done;
	int rc;
};

static void sync_done(int rc, const char *value, const void *data)
{
	(void)value;
	struct sync_wait *w = (struct sync_wait *)data;
	pthread_mutex_lock(&w->mu);
	w->rc = rc;
	w->done = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* Brings the server this session is attached to up to date with the
 * leader for the parent, so the recovery listing sees every create the
 * quorum committed before it (note 1).  The completion always comes, at
 * the latest when the handle closes, so w lives until it has.  Returns 0,
 * or WB_EBUSY/WB_EIO with the message set. */
static int sync_parent(struct zklock *l, int64_t deadline)
{
	struct sync_wait *w = wb_xcalloc(1, sizeof *w);
	pthread_mutex_init(&w->mu, NULL);
	mono_cond_init(&w->cv);
	int rc = zoo_async(l->zh, l->path, sync_done, w);
	if (rc != ZOK) {
		set_msg(l, "could not sync %s before looking for our candidate: %s", l->path,
			zerror(rc));
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return rc == ZINVALIDSTATE || rc == ZSESSIONEXPIRED ? WB_EIO : WB_EBUSY;
	}
	pthread_mutex_lock(&w->mu);
	while (!w->done) {
		struct timespec ts;
		long long left = deadline < 0 ? 1000 : deadline - mono_now_ms();
		if (deadline >= 0 && left <= 0)
			break;
		mono_deadline(&ts, left > 1000 ? 1000 : left);
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	}
	int done = w->done, zrc = w->rc;
	pthread_mutex_unlock(&w->mu);
	if (!done) {
		/* The completion still comes (at the latest at close): leave w to
		 * it rather than free memory it will write; a small, bounded leak
		 * per abandoned sync, never a use after free. */
		set_msg(l, "the sync of %s before the recovery listing did not answer in time",
			l->path);
		return WB_EBUSY;
	}
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
	if (zrc == ZOK || zrc == ZNONODE)
		return 0;
	set_msg(l, "the sync of %s before the recovery listing failed: %s", l->path, zerror(zrc));
	return zrc == ZSESSIONEXPIRED ? WB_EIO : WB_EBUSY;
}

/* ---- Talking to the server: sessions, lost answers, listing ---------------- */

static int session_dead(struct zklock *l)
{
	int st = zoo_state(l->zh);
	if (st == ZOO_EXPIRED_SESSION_STATE || st == ZOO_AUTH_FAILED_STATE)
		return 1;
	const clientid_t *cid = zoo_client_id(l->zh);
	return l->session_id && cid && cid->client_id && cid->client_id != l->session_id;
}

static int cancelled(struct zklock *l)
{
	pthread_mutex_lock(&l->mb->mu);
	int c = l->mb->cancel;
	pthread_mutex_unlock(&l->mb->mu);
	return c;
}

void zklock_cancel(struct zklock *l)
{
	pthread_mutex_lock(&l->mb->mu);
	l->mb->cancel = 1;
	pthread_cond_broadcast(&l->mb->cv);
	pthread_mutex_unlock(&l->mb->mu);
}

/* Waits until the handle is connected on our session.  0; WB_EIO when the
 * session is over; WB_EBUSY at the deadline (-1: none).  Polls with a
 * short backoff: the handle's session events belong to its owner. */
static int wait_session(struct zklock *l, int64_t deadline)
{
	int delay = 2;
	for (;;) {
		if (session_dead(l))
			return WB_EIO;
		if (zoo_state(l->zh) == ZOO_CONNECTED_STATE)
			return 0;
		if (cancelled(l))
			return WB_EBUSY;
		int64_t left = deadline < 0 ? delay : deadline - mono_now_ms();
		if (left <= 0)
			return WB_EBUSY;
		sleep_ms(left < delay ? (int)left : delay);
		delay = delay < 64 ? delay * 2 : 100;
	}
}

/* After an answer lost to a disconnection: the call can return while
 * zoo_state() still says CONNECTED, before the I/O thread has moved the
 * handle to CONNECTING, and wait_session would take that for "back".  So
 * wait, on the mailbox's condition variable, until the loss shows: a drop
 * the watcher counted since the last answer absorbed (session events reach
 * every registered watch, so this is news while one of ours is set), or a
 * state other than CONNECTED; at most LOSS_SHOWS_MS and never past the
 * deadline.  With no watch of ours registered no event comes, and the wait
 * is that bound. */
#define LOSS_SHOWS_MS 5

static void await_loss_seen(struct zklock *l, int64_t deadline)
{
	struct mbox *m = l->mb;
	int64_t until = mono_now_ms() + LOSS_SHOWS_MS;
	if (deadline >= 0 && deadline < until)
		until = deadline;
	struct timespec ts;
	abs_deadline(until, &ts);
	pthread_mutex_lock(&m->mu);
	while (m->session_drops == l->drops_known && !m->cancel &&
	       zoo_state(l->zh) == ZOO_CONNECTED_STATE)
		if (pthread_cond_timedwait(&m->cv, &m->mu, &ts) == ETIMEDOUT)
			break;
	l->drops_known = m->session_drops;
	pthread_mutex_unlock(&m->mu);
}

static void set_expired(struct zklock *l, const char *during)
{
	set_status(l, ZKLOCK_EXPIRED);
	set_msg(l,
		"the session expired during %s: this attempt is over (its ephemeral nodes are "
		"gone); a new attempt needs a new handle",
		during);
}

/* Decides what to do with the answer zrc of an idempotent call (a read,
 * or a create/delete whose "already so" answer we accept).  Returns 1 to
 * call again once the session is back; 0 when zrc is final, with *err the
 * WB code (0 for ZOK and for ZNONODE/ZNODEEXISTS, which the caller
 * interprets) and status/message set for failures. */
static int absorb(struct zklock *l, int zrc, int64_t deadline, const char *what, int *err)
{
	*err = 0;
	if (zrc != ZCONNECTIONLOSS && zrc != ZOPERATIONTIMEOUT) {
		pthread_mutex_lock(&l->mb->mu);
		l->drops_known = l->mb->session_drops;
		pthread_mutex_unlock(&l->mb->mu);
	}
	switch (zrc) {
	case ZOK:
	case ZNONODE:
	case ZNODEEXISTS: return 0;
	case ZCONNECTIONLOSS:
	case ZOPERATIONTIMEOUT: {
		l->st.conn_losses++;
		await_loss_seen(l, deadline);
		int rc = wait_session(l, deadline);
		if (rc == 0)
			return 1;
		if (rc == WB_EIO) {
			set_expired(l, what);
			*err = WB_EIO;
		} else {
			set_msg(l, "connection lost during %s and not back before the deadline",
				what);
			*err = WB_EBUSY;
		}
		return 0;
	}
	case ZSESSIONEXPIRED:
	case ZINVALIDSTATE:
	case ZSESSIONMOVED:
		set_expired(l, what);
		*err = WB_EIO;
		return 0;
	default:
		set_status(l, ZKLOCK_FAILED);
		set_msg(l, "%s failed: %s (%d)", what, zerror(zrc), zrc);
		*err = WB_EIO;
		return 0;
	}
}

/* Lists and finds the own node's place (note 2) into *li (freed with
 * zkl_listing_free; empty on errors); watched: with the child watch (the
 * first list of an attempt, note 4).  Returns 0; WB_ENOENT when the lock path is gone; or
 * the error absorb() gave; WB_ERANGE when a suffix cannot be ordered. */
static int list(struct zklock *l, int64_t deadline, int watched, struct listing *li)
{
	int zrc, err = 0, lrc = 0;
	memset(li, 0, sizeof *li);
	/* The notification's re-list, or the listing sent with the create
	 * (the first, watched one), when it brought an answer; else ask. */
	zrc = zkl_relist_take(l, li, &lrc);
	if (zrc == 1 && watched)
		zrc = zkl_first_take(l, li, &lrc);
	if (zrc != 1)
		l->st.lists++; /* it was sent */
	if (zrc == ZOK || zrc == ZNONODE) {
		absorb(l, zrc, deadline, "getChildren", &err);
	} else {
		zkl_listing_free(li);
		do {
			struct String_vector sv = {0};
			l->st.lists++;
			zrc = watched ? zkl_get_children_watched(l, &sv)
				      : zoo_get_children(l->zh, l->path, 0, &sv);
			if (zrc == ZOK)
				lrc = zkl_listing_make(&sv, l->own_name, li);
			deallocate_String_vector(&sv);
		} while (absorb(l, zrc, deadline, "getChildren", &err));
	}
	if (err || zrc == ZNONODE) {
		zkl_listing_free(li);
		return err ? err : WB_ENOENT;
	}
	if (lrc != 0) {
		set_status(l, ZKLOCK_SEQ_OVERFLOW);
		set_msg(l,
			"child %s/%s has no orderable 10-digit suffix (a counter past 2147483647 "
			"wraps negative): refusing to guess the order",
			l->path, li->bad);
		zkl_listing_free(li);
		return WB_ERANGE;
	}
	return 0;
}

/* Removes our watch on path, if one is still registered, without asking
 * the server (it may be gone). */
static void drop_watch(struct zklock *l, const char *path)
{
	if (path &&
	    zoo_remove_watches(l->zh, path, ZWATCHTYPE_DATA, zkl_mbox_watcher, l->mb, 1) == ZOK)
		zkl_mbox_unref(l->mb, 1);
}

/* The predecessor watched now (taken over; NULL: none), mirrored in the
 * mailbox for the watcher's re-list.  Any re-list of an older watch is
 * dropped. */
static void set_pred(struct zklock *l, char *path)
{
	free(l->pred_path);
	l->pred_path = path;
	pthread_mutex_lock(&l->mb->mu);
	free(l->mb->pred_path);
	l->mb->pred_path = path ? wb_xstrdup(path) : NULL;
	if (path)
		zkl_relist_drop_locked(l->mb);
	pthread_mutex_unlock(&l->mb->mu);
}

/* ---- Holding: the monitor thread (note 5) ---------------------------------- */

/* The monitor's hold gen is over: released, a newer claim, or the lock is
 * being freed.  Under mb->mu. */
static int mon_quit(const struct mbox *m, unsigned gen)
{
	return m->mon_exit || !m->hold || m->hold_gen != gen;
}

/* What the monitor knows about the hold; read and written under mb->mu. */
struct watch_state {
	unsigned gen;					   /* the hold (mb->hold_gen) */
	unsigned seen_gen, seen_own, seen_arm, seen_drops; /* mailbox counters taken in */
	int in_flight;	      /* a get-with-watch on the own node is out */
	int armed;	      /* a watch on the own node is registered */
	int by_child;	      /* that watch is the claim list's child watch */
	int64_t suspended_at; /* when we stopped hearing from the server, or -1 */
	int64_t rearm_at;     /* when to ask for a new watch, or -1 */
	const char *lost;     /* why the lock is lost, or NULL */
	char why[160];	      /* room for a lost reason with numbers */
};

/* Tells the holder, unless the hold is over (then nothing is said: a
 * released lock hears nothing more).  mon_busy makes zklock_release wait
 * for a call in progress. */
static void emit(struct zklock *l, struct watch_state *w, enum zklock_event ev, const char *why)
{
	struct mbox *m = l->mb;
	if (!l->opts.on_event || mon_quit(m, w->gen))
		return;
	m->mon_busy = 1;
	pthread_mutex_unlock(&m->mu);
	l->opts.on_event(l->opts.event_arg, ev, why);
	pthread_mutex_lock(&m->mu);
	m->mon_busy = 0;
	pthread_cond_broadcast(&m->cv);
}

static void suspend(struct zklock *l, struct watch_state *w, const char *why)
{
	if (w->suspended_at >= 0)
		return;
	w->suspended_at = mono_now_ms();
	emit(l, w, ZKLOCK_EV_SUSPENDED, why);
}

static void resume(struct zklock *l, struct watch_state *w, const char *why)
{
	if (w->suspended_at < 0)
		return;
	w->suspended_at = -1;
	emit(l, w, ZKLOCK_EV_RESUMED, why);
}

/* Sleeps until a counter moves, the disconnection outlasts the session
 * timeout or a re-arm is due.  0, or 1 when the hold is over. */
static int wait_for_news(struct zklock *l, struct watch_state *w, int timeout_ms)
{
	struct mbox *m = l->mb;
	if (mon_quit(m, w->gen))
		return 1;
	if (w->seen_gen != m->session_gen || w->seen_own != m->own_events ||
	    w->seen_arm != m->arm_done ||
	    (w->by_child && (int)(m->child_done - m->child_mark) >= 0))
		return 0;
	int64_t until = w->suspended_at >= 0 ? w->suspended_at + timeout_ms : -1;
	if (w->rearm_at >= 0 && !w->in_flight && (until < 0 || w->rearm_at < until))
		until = w->rearm_at;
	if (until < 0) {
		pthread_cond_wait(&m->mon_cv, &m->mu);
	} else {
		struct timespec ts;
		abs_deadline(until, &ts);
		pthread_cond_timedwait(&m->mon_cv, &m->mu, &ts);
	}
	return mon_quit(m, w->gen);
}

/* The answer to a get-with-watch on the own node: the watch is set (and
 * the node and session are there), the node is gone, the session ended,
 * or no answer (ask again soon). */
static void on_arm_answer(struct zklock *l, struct watch_state *w)
{
	struct mbox *m = l->mb;
	w->seen_arm = m->arm_done;
	if (!w->in_flight)
		return; /* not this hold's: an older attempt's answer, late */
	w->in_flight = 0;
	if (m->arm_rc == ZOK) {
		w->armed = 1;
		resume(l, w, "reconnected on the same session; own node still there");
	} else if (m->arm_rc == ZNONODE) {
		w->lost = "the own node is gone";
	} else if (m->arm_rc == ZSESSIONEXPIRED || m->arm_rc == ZINVALIDSTATE) {
		w->lost = "the session expired";
	} else {
		w->armed = 0;
		w->rearm_at = mono_now_ms() + 50;
		suspend(l, w, "no answer from ZooKeeper: the session may still be alive");
	}
}

/* The own node's watch fired: deleted (by someone else: the lock is
 * lost) or changed (watch it again; a data watch fires once). */
static void on_own_node_event(struct zklock *l, struct watch_state *w)
{
	struct mbox *m = l->mb;
	w->seen_own = m->own_events;
	w->armed = 0;
	if (m->own_deleted)
		w->lost = "the own node was deleted (not by us)";
	else
		w->rearm_at = mono_now_ms();
}

/* The child watch the holder relies on fired: some child came or went,
 * maybe ours.  Look again with a get-with-watch on the own node (its
 * answer says whether the node is still there, and its watch takes
 * over).  Child events of a hold watched otherwise are not about it,
 * nor is an earlier list's late one (child_mark). */
static void on_child_event(struct watch_state *w)
{
	w->by_child = 0;
	w->armed = 0;
	w->rearm_at = mono_now_ms();
}

/* Session news: expired is LOST; a drop since the last look is
 * SUSPENDED even when the client is connected again by now (the holder
 * hears SUSPENDED and then RESUMED, never nothing); connected again is
 * RESUMED, and the own-node watch is re-armed if none is set. */
static void on_session_event(struct zklock *l, struct watch_state *w)
{
	struct mbox *m = l->mb;
	w->seen_gen = m->session_gen;
	int st = m->session_state;
	int dropped = w->seen_drops != m->session_drops;
	w->seen_drops = m->session_drops;
	if (st == ZOO_EXPIRED_SESSION_STATE || st == ZOO_AUTH_FAILED_STATE) {
		w->lost = "the session expired";
	} else {
		if (dropped || st != ZOO_CONNECTED_STATE)
			suspend(l, w, "disconnected: the session may still be alive");
		if (st == ZOO_CONNECTED_STATE)
			resume(l, w, "reconnected on the same session");
	}
	if (st == ZOO_CONNECTED_STATE && !w->armed && !w->in_flight && w->rearm_at < 0)
		w->rearm_at = mono_now_ms();
}

/* Asks, without waiting, for a watch on the own node (its answer comes
 * back through zkl_mbox_armed). */
static void rearm(struct zklock *l, struct watch_state *w)
{
	struct mbox *m = l->mb;
	if (mon_quit(m, w->gen))
		return; /* l->own_path may be going: the hold is over */
	w->rearm_at = -1;
	w->in_flight = 1;
	m->refs += 2; /* the watch's and the completion's (zkl_mbox_armed) */
	m->own_watch = 1;
	m->mon_busy = 1;
	pthread_mutex_unlock(&m->mu);
	int zrc = zoo_awget(l->zh, l->own_path, zkl_mbox_watcher, m, zkl_mbox_armed, m);
	pthread_mutex_lock(&m->mu);
	m->mon_busy = 0;
	pthread_cond_broadcast(&m->cv);
	if (zrc != ZOK) {
		m->refs -= 2; /* no request, no completion: never the last refs */
		w->in_flight = 0;
		if (zrc == ZSESSIONEXPIRED || zrc == ZINVALIDSTATE)
			w->lost = "the session expired";
		else
			w->rearm_at = mono_now_ms() + 50;
	}
}

/* One hold (gen), under mb->mu: the holder's side of note 5.  Never
 * blocks on ZooKeeper: the own-node watch is (re-)armed asynchronously
 * and its answers arrive like events.  Returns when the hold is over or
 * lost. */
static void monitor_hold(struct zklock *l, unsigned gen)
{
	struct mbox *m = l->mb;
	int timeout_ms = zoo_recv_timeout(l->zh);
	if (l->opts.hooks.monitor_started) {
		m->mon_busy = 1;
		pthread_mutex_unlock(&m->mu);
		l->opts.hooks.monitor_started(l->opts.hooks.arg, l);
		pthread_mutex_lock(&m->mu);
		m->mon_busy = 0;
		pthread_cond_broadcast(&m->cv);
	}
	/* Counters as they were when the own-node watch was asked for (its
	 * answer and what came since are news) and at the claim (session
	 * news since then). */
	int by_child = l->hold_by_child;
	struct watch_state w = {.gen = gen,
				.seen_gen = l->gen_seen,
				.seen_own = l->own_seen,
				.seen_arm = l->arm_seen,
				.seen_drops = l->drops_seen,
				.in_flight = !by_child,
				.armed = by_child,
				.by_child = by_child,
				.suspended_at = -1,
				.rearm_at = -1};
	while (!w.lost) {
		if (wait_for_news(l, &w, timeout_ms))
			return;
		if (w.seen_arm != m->arm_done)
			on_arm_answer(l, &w);
		if (!w.lost && w.seen_own != m->own_events)
			on_own_node_event(l, &w);
		if (!w.lost && w.by_child && (int)(m->child_done - m->child_mark) >= 0)
			on_child_event(&w);
		if (!w.lost && w.seen_gen != m->session_gen)
			on_session_event(l, &w);
		if (!w.lost && w.suspended_at >= 0 &&
		    mono_now_ms() >= w.suspended_at + timeout_ms) {
			snprintf(w.why, sizeof w.why,
				 "disconnected for longer than the session timeout (%d ms): the "
				 "server may have expired the session",
				 timeout_ms);
			w.lost = w.why;
		}
		if (!w.lost && w.rearm_at >= 0 && !w.in_flight && mono_now_ms() >= w.rearm_at)
			rearm(l, &w);
	}
	if (!mon_quit(m, gen)) {
		m->status = ZKLOCK_LOST;
		emit(l, &w, ZKLOCK_EV_LOST, w.lost);
	}
}

/* The lock's monitor: started at the first claim, it lives until
 * zklock_free and watches each hold in turn (a new claim bumps
 * mb->hold_gen); between holds it sleeps on mon_cv.  One thread per lock,
 * not one per acquisition. */
static void *monitor_main(void *arg)
{
	struct zklock *l = arg;
	struct mbox *m = l->mb;
	unsigned ran = 0;
	pthread_mutex_lock(&m->mu);
	for (;;) {
		while (!m->mon_exit && (!m->hold || m->hold_gen == ran))
			pthread_cond_wait(&m->mon_cv, &m->mu);
		if (m->mon_exit)
			break;
		ran = m->hold_gen;
		monitor_hold(l, ran);
	}
	pthread_mutex_unlock(&m->mu);
	return NULL;
}

/* Ends the current hold for the monitor: after this, it says nothing
 * more about it and no longer touches l's candidate.  Waits only while it
 * is out of the mailbox's lock (telling the holder, in a hook, arming);
 * a monitor asleep is not woken: it notices at its next wake. */
static void monitor_idle(struct zklock *l)
{
	struct mbox *m = l->mb;
	pthread_mutex_lock(&m->mu);
	m->hold = 0;
	while (m->mon_busy)
		pthread_cond_wait(&m->cv, &m->mu);
	pthread_mutex_unlock(&m->mu);
}

/* Ends the monitor thread (zklock_free). */
static void monitor_exit(struct zklock *l)
{
	if (!l->monitor_running)
		return;
	pthread_mutex_lock(&l->mb->mu);
	l->mb->mon_exit = 1;
	l->mb->hold = 0;
	pthread_cond_broadcast(&l->mb->mon_cv);
	pthread_mutex_unlock(&l->mb->mu);
	pthread_join(l->monitor, NULL);
	l->monitor_running = 0;
}

/* ---- Names: pure functions (note 2) ---------------------------------------- */

int zklock_guid_new(char *out)
{
	struct uuid u;
	if (uuid_v4(&u) != 0)
		return WB_EIO;
	uuid_format(&u, out);
	return 0;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The first n characters of s form a canonical UUID. */
static int guid_at(const char *s, size_t n)
{
	if (n < ZKLOCK_GUID_LEN)
		return 0;
	for (int i = 0; i < ZKLOCK_GUID_LEN; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? s[i] != '-' : !is_hex(s[i]))
			return 0;
	}
	return 1;
}

int zklock_guid_valid(const char *s)
{
	return s && strlen(s) == ZKLOCK_GUID_LEN && guid_at(s, ZKLOCK_GUID_LEN);
}

char *zklock_name_prefix(const char *lock_path, const char *guid)
{
	return wb_xasprintf("%s/" ZKLOCK_PROTECTED_PREFIX "%s-" ZKLOCK_LOCK_NAME, lock_path, guid);
}

/* The sequence suffix of a child name, as zklock_name_parse reads it
 * (same returns), with *lastp at its last "lock-". */
static int name_seq(const char *name, int32_t *seq, const char **lastp)
{
	const char *last = NULL;
	for (const char *p = name; (p = strstr(p, ZKLOCK_LOCK_NAME)) != NULL; p++)
		last = p;
	if (!last)
		return WB_EINVAL;
	*lastp = last;
	/* The suffix: exactly ten digits, <= INT32_MAX (recipes/zkseq.c). */
	return zkseq_parse(last, ZKLOCK_LOCK_NAME, seq) != 0 ? WB_ERANGE : 0;
}

int zklock_name_parse(const char *name, struct zklock_name *out)
{
	const char *last;
	int32_t seq;
	int rc = name_seq(name, &seq, &last);
	if (rc)
		return rc;
	out->seq = seq;
	out->guid[0] = '\0';
	size_t pl = strlen(ZKLOCK_PROTECTED_PREFIX);
	size_t before = (size_t)(last - name);
	/* Curator's isProtectedZNode: "_c_", a UUID, then '-'. */
	if (!strncmp(name, ZKLOCK_PROTECTED_PREFIX, pl) && before >= pl + ZKLOCK_GUID_LEN + 1 &&
	    guid_at(name + pl, before - pl) && name[pl + ZKLOCK_GUID_LEN] == '-') {
		memcpy(out->guid, name + pl, ZKLOCK_GUID_LEN);
		out->guid[ZKLOCK_GUID_LEN] = '\0';
	}
	return 0;
}

/* Suffix order (note 2). */
static int seq_name_cmp(int32_t xs, const char *xn, int32_t ys, const char *yn)
{
	if (xs != ys)
		return xs < ys ? -1 : 1;
	/* Equal suffixes happen past the counter's boundary: a 3.8 server
	 * numbers every later candidate 2147483647 (zk-seq-order shows it).
	 * The name breaks the tie so every client sorts alike; the lock domain
	 * must end before the boundary (note 7). */
	return strcmp(xn, yn);
}

static int entry_cmp(const void *a, const void *b)
{
	const struct zklock_entry *x = a, *y = b;
	return seq_name_cmp(x->seq, x->name, y->seq, y->name);
}

int zklock_sort(char *const *names, size_t n, struct zklock_entry **out, size_t *nout,
		const char **bad)
{
	*out = NULL;
	*nout = 0;
	struct zklock_entry *e = n ? wb_xcalloc(n, sizeof *e) : NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		struct zklock_name nm;
		int rc = zklock_name_parse(names[i], &nm);
		if (rc == WB_EINVAL)
			continue;
		if (rc != 0) {
			if (bad)
				*bad = names[i];
			free(e);
			return WB_ERANGE;
		}
		e[k].name = names[i];
		e[k].seq = nm.seq;
		k++;
	}
	if (k > 1)
		qsort(e, k, sizeof *e, entry_cmp);
	if (k == 0) {
		free(e);
		e = NULL;
	}
	*out = e;
	*nout = k;
	return 0;
}

long zklock_index(const struct zklock_entry *e, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return (long)i;
	return -1;
}

int zklock_position(char *const *names, size_t n, const char *own_name, struct zklock_position *out,
		    const char **bad)
{
	const char *last;
	int32_t own_seq = -1, pred_seq = -1;
	/* An own name that is no lock node cannot be among them. */
	int own_ok = name_seq(own_name, &own_seq, &last) == 0, found = 0;
	size_t before = 0;
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		int32_t seq;
		int rc = name_seq(names[i], &seq, &last);
		if (rc == WB_EINVAL)
			continue;
		if (rc != 0) {
			if (bad)
				*bad = names[i];
			memset(out, 0, sizeof *out);
			return WB_ERANGE;
		}
		out->n++;
		if (!own_ok)
			continue;
		if (!found && !strcmp(names[i], own_name)) {
			found = 1;
		} else if (seq_name_cmp(seq, names[i], own_seq, own_name) < 0) {
			before++;
			if (!out->pred || seq_name_cmp(seq, names[i], pred_seq, out->pred) > 0) {
				out->pred = names[i];
				pred_seq = seq;
			}
		}
	}
	out->own_index = found ? (long)before : -1;
	if (!found)
		out->pred = NULL;
	return 0;
}

/* ---- The lock object: messages, status, accessors, new and free ------------ */

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

static void abs_deadline(int64_t deadline, struct timespec *ts)
{
	ts->tv_sec = (time_t)(deadline / 1000);
	ts->tv_nsec = (long)(deadline % 1000) * 1000000L;
}

static void set_msg(struct zklock *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_msg(struct zklock *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->msg, sizeof l->msg, fmt, ap);
	va_end(ap);
}

/* set_msg for the messages of every cycle (held, released): the parts
 * (NULL-terminated) joined, without printf's cost. */
static void set_msg_parts(struct zklock *l, const char *part, ...)
{
	va_list ap;
	size_t k = 0;
	va_start(ap, part);
	for (; part && k + 1 < sizeof l->msg; part = va_arg(ap, const char *)) {
		size_t n = strlen(part);
		if (n > sizeof l->msg - 1 - k)
			n = sizeof l->msg - 1 - k;
		memcpy(l->msg + k, part, n);
		k += n;
	}
	va_end(ap);
	l->msg[k] = '\0';
}

/* v in decimal into buf[12]; returns buf. */
static char *decimal(int32_t v, char buf[12])
{
	char t[12];
	int n = 0;
	if (v < 0) {
		snprintf(buf, 12, "%d", (int)v);
		return buf;
	}
	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && n < 11);
	for (int i = 0; i < n; i++)
		buf[i] = t[n - 1 - i];
	buf[n] = '\0';
	return buf;
}

static void set_status(struct zklock *l, enum zklock_status s)
{
	pthread_mutex_lock(&l->mb->mu);
	l->mb->status = s;
	pthread_mutex_unlock(&l->mb->mu);
}

enum zklock_status zklock_status(struct zklock *l)
{
	pthread_mutex_lock(&l->mb->mu);
	enum zklock_status s = l->mb->status;
	pthread_mutex_unlock(&l->mb->mu);
	return s;
}

const char *zklock_status_name(enum zklock_status s)
{
	static const char *const names[] = {
		[ZKLOCK_IDLE] = "idle",
		[ZKLOCK_WAITING] = "waiting",
		[ZKLOCK_HELD] = "held",
		[ZKLOCK_RELEASED] = "released",
		[ZKLOCK_TIMED_OUT] = "timed-out",
		[ZKLOCK_EXPIRED] = "expired",
		[ZKLOCK_LOST] = "lost",
		[ZKLOCK_CANDIDATE_GONE] = "candidate-gone",
		[ZKLOCK_CREATE_UNKNOWN] = "create-unknown",
		[ZKLOCK_AMBIGUOUS] = "ambiguous",
		[ZKLOCK_SEQ_OVERFLOW] = "seq-overflow",
		[ZKLOCK_CANCELLED] = "cancelled",
		[ZKLOCK_FAILED] = "failed",
	};
	return (unsigned)s < WB_ARRAY_LEN(names) && names[s] ? names[s] : "?";
}

const char *zklock_message(struct zklock *l)
{
	return l->msg;
}

int64_t zklock_token(struct zklock *l)
{
	return zklock_status(l) == ZKLOCK_HELD ? (int64_t)l->seq : -1;
}

const char *zklock_own_path(struct zklock *l)
{
	return l->own_path;
}

const char *zklock_guid(struct zklock *l)
{
	return l->guid;
}

int64_t zklock_session(struct zklock *l)
{
	return l->session_id;
}

const char *zklock_path(struct zklock *l)
{
	return l->path;
}

struct zklock_stats zklock_stats(struct zklock *l)
{
	return l->st;
}

static int path_ok(const char *p)
{
	size_t n = p ? strlen(p) : 0;
	if (n < 2 || p[0] != '/' || p[n - 1] == '/' || strstr(p, "//"))
		return 0;
	return 1;
}

int zklock_new(zhandle_t *zh, const char *lock_path, const struct zklock_opts *opts,
	       struct zklock **out)
{
	*out = NULL;
	if (!zh || !path_ok(lock_path))
		return WB_EINVAL;
	struct zklock *l = wb_xcalloc(1, sizeof *l);
	l->zh = zh;
	l->path = wb_xstrdup(lock_path);
	if (opts)
		l->opts = *opts;
	l->mb = zkl_mbox_new();
	l->mb->status = ZKLOCK_IDLE;
	l->mb->zh = zh;
	l->mb->lock_path = wb_xstrdup(lock_path);
	l->seq = -1;
	/* The GUID's place is filled by each attempt (create_candidate). */
	l->prefix = wb_xasprintf("%s/" ZKLOCK_PROTECTED_PREFIX "%*s-" ZKLOCK_LOCK_NAME, lock_path,
				 ZKLOCK_GUID_LEN, "");
	l->prefix_guid = strlen(lock_path) + 1 + strlen(ZKLOCK_PROTECTED_PREFIX);
	set_msg(l, "no attempt yet");
	*out = l;
	return 0;
}

/* Drops what watches the candidate may still have (the own node's only
 * when one was asked for: an uncontended hold rides on the child watch)
 * and forgets it.  The monitor is idle or gone. */
static void forget_candidate(struct zklock *l)
{
	drop_watch(l, l->pred_path);
	set_pred(l, NULL);
	pthread_mutex_lock(&l->mb->mu);
	int own_watch = l->mb->own_watch;
	l->mb->own_watch = 0;
	pthread_mutex_unlock(&l->mb->mu);
	if (own_watch)
		drop_watch(l, l->own_path);
	pthread_mutex_lock(&l->mb->mu);
	zkl_relist_drop_locked(l->mb);
	free(l->mb->own_path);
	l->mb->own_path = NULL;
	pthread_mutex_unlock(&l->mb->mu);
	free(l->own_path);
	l->own_path = NULL;
	l->own_name = NULL;
	l->seq = -1;
	l->first.valid = 0;
	zkl_listing_free(&l->first.li);
}

void zklock_free(struct zklock *l)
{
	if (!l)
		return;
	monitor_exit(l);
	forget_candidate(l);
	zkl_drop_child_watch(l);
	zkl_mbox_unref(l->mb, 1);
	free(l->path);
	free(l->prefix);
	zkl_listing_free(&l->first.li);
	free(l);
}
