/*
 * zklock.h - the ZooKeeper exclusive lock recipe learners read next to
 * chapters 01 and 02, and the one `workbench zk-lock` uses.
 *
 * What it does better than the ZooKeeper project's own C recipe
 * (zoo_lock.c): a fresh GUID per acquisition in every node name, so that
 * a create whose reply was lost can be recovered by GUID instead of
 * retried blindly; ordering by the sequence suffix, never by the whole
 * name; a watch on the predecessor only, set with a get (not an exists)
 * so a vanished predecessor leaves no watch behind; every notification
 * taken as "look again", never as "you hold it"; the holder told through
 * a callback when the lock is lost.
 *
 * Node names are Apache Curator's protected mode exactly:
 *
 *     <lock path>/_c_<36-char UUID>-lock-<10-digit server suffix>
 *
 * so this lock and Curator's InterProcessMutex exclude each other on the
 * same lock path.  The fencing token is the sequence number.
 *
 * It deliberately does not own the ZooKeeper handle: the caller connects
 * (harness/zkclient.h or zookeeper_init), passes the handle in, and closes
 * it after zklock_free.  It is not reentrant and not a read/write lock.
 */
#ifndef WB_ZKLOCK_H
#define WB_ZKLOCK_H

#ifndef THREADED
#define THREADED /* the synchronous zoo_* calls of libzookeeper_mt */
#endif
#include <zookeeper/zookeeper.h>

#include <stddef.h>
#include <stdint.h>

#define ZKLOCK_PROTECTED_PREFIX "_c_"	/* Curator's CreateBuilderImpl.PROTECTED_PREFIX */
#define ZKLOCK_LOCK_NAME	"lock-" /* Curator's InterProcessMutex LOCK_NAME */
#define ZKLOCK_GUID_LEN		36	/* canonical UUID text, as java.util.UUID prints */
#define ZKLOCK_SEQ_LEN		10	/* the server's %010d suffix */

/* ---- Names: pure functions, unit tested ---------------------------- */

/* A fresh random UUID (version 4, RFC 9562; recipes/uuid.h, getrandom), in
 * lowercase canonical form, into out[ZKLOCK_GUID_LEN + 1].  Returns 0 or
 * WB_EIO when the kernel gives no randomness. */
int zklock_guid_new(char *out);

/* 1 when s is exactly a 36-character canonical UUID (any version, lower or
 * upper case hex), else 0. */
int zklock_guid_valid(const char *s);

/* The create path for one attempt: "<lock_path>/_c_<guid>-lock-".  The
 * server appends the suffix.  Caller frees. */
char *zklock_name_prefix(const char *lock_path, const char *guid);

/* A child of the lock path, understood. */
struct zklock_name {
	int32_t seq;			/* the server's sequence suffix, >= 0 */
	char guid[ZKLOCK_GUID_LEN + 1]; /* "" when the name has no protected prefix */
};

/* Parses a child name (not a path).  A lock node is anything Curator's
 * StandardLockInternalsDriver would sort as one: the text after the last
 * "lock-" is the suffix; the protected prefix is optional (old Curator
 * versions and hand-made nodes lack it).  Returns 0 for a lock node,
 * WB_EINVAL for a name that is not a lock node at all (no "lock-": not a
 * contender, callers skip it), WB_ERANGE for a lock node whose suffix is
 * not ten digits of a non-negative 32-bit number (a wrapped counter
 * prints "-2147483648"): its order is unknowable, so callers must stop. */
int zklock_name_parse(const char *name, struct zklock_name *out);

/* One contender in a snapshot of the lock path's children. */
struct zklock_entry {
	const char *name; /* borrowed from the names given to zklock_sort */
	int32_t seq;	  /* its sequence suffix */
};

/* Keeps the lock nodes among names (skipping what zklock_name_parse calls
 * WB_EINVAL) and sorts them by sequence suffix, smallest first - never by
 * the whole name, which the random GUID prefix scrambles.  Returns 0 with
 * *out (caller frees; may be NULL when *nout is 0) and *nout, or
 * WB_ERANGE with *bad pointing at the first name whose suffix cannot be
 * ordered (nothing allocated). */
int zklock_sort(char *const *names, size_t n, struct zklock_entry **out, size_t *nout,
		const char **bad);

/* Index of name in a sorted snapshot, or -1. */
long zklock_index(const struct zklock_entry *e, size_t n, const char *name);

/* Where one name stands among names, in zklock_sort's order. */
struct zklock_position {
	size_t n;	  /* lock nodes among names */
	long own_index;	  /* own_name's index in suffix order, -1 when absent */
	const char *pred; /* the lock node just before it (borrowed from names);
			     NULL when own_name is first or absent */
};

/* What zklock_sort then zklock_index(own_name) and the entry before it
 * give, in one pass without sorting or allocating (a waiter needs only
 * its predecessor).  Returns 0 with *out, or WB_ERANGE with *bad (when
 * bad is not NULL) pointing at the first name whose suffix cannot be
 * ordered - also when it would sort after own_name: the order of the
 * whole queue is then unknowable, as for zklock_sort. */
int zklock_position(char *const *names, size_t n, const char *own_name, struct zklock_position *out,
		    const char **bad);

/* ---- The lock ------------------------------------------------------- */

/* Where an attempt stands.  Only the holder's own thread changes it,
 * except HELD -> LOST, which the monitor thread makes. */
enum zklock_status {
	ZKLOCK_IDLE,	       /* no attempt yet */
	ZKLOCK_WAITING,	       /* candidate created, waiting for the predecessor */
	ZKLOCK_HELD,	       /* this client holds the lock */
	ZKLOCK_RELEASED,       /* released: own node deleted */
	ZKLOCK_TIMED_OUT,      /* the wait ran out; own candidate deleted */
	ZKLOCK_EXPIRED,	       /* session expired: this attempt is over; a new
				  attempt needs a new handle (and gets a new GUID) */
	ZKLOCK_LOST,	       /* was held, then lost: session expired, own node
				  deleted, or disconnected past the session timeout */
	ZKLOCK_CANDIDATE_GONE, /* own candidate vanished while waiting */
	ZKLOCK_CREATE_UNKNOWN, /* create outcome unknown and no node of this
				  session carries our GUID: nothing to resume */
	ZKLOCK_AMBIGUOUS,      /* several nodes of this session carry our GUID:
				  refused, none deleted */
	ZKLOCK_SEQ_OVERFLOW,   /* a contender's suffix cannot be ordered */
	ZKLOCK_CANCELLED,      /* zklock_cancel ended the wait; own candidate deleted */
	ZKLOCK_FAILED,	       /* another ZooKeeper error (message says which) */
};

/* What the holder is told while it holds the lock. */
enum zklock_event {
	ZKLOCK_EV_SUSPENDED, /* disconnected: the session may still live; stop
				relying on the lock until RESUMED */
	ZKLOCK_EV_RESUMED,   /* reconnected on the same session, own node intact */
	ZKLOCK_EV_LOST,	     /* the lock is gone; the last event */
};

struct zklock;

/* Options (on_event, data) and the lab seams (hooks): defined at the end
 * of this header, in "Lab seams". */
struct zklock_opts;

/* Counters for labs and benchmarks; reset by each zklock_acquire. */
struct zklock_stats {
	unsigned lists;	      /* getChildren calls */
	unsigned watches;     /* predecessor watches set (ZOK) */
	unsigned vanished;    /* predecessor gone before the watch (ZNONODE) */
	unsigned wakes;	      /* notifications taken */
	unsigned conn_losses; /* ZCONNECTIONLOSS answers absorbed */
};

/* A lock on lock_path ("/locks/NAME": absolute, no trailing '/') over zh
 * (borrowed: it must outlive the lock; close it after zklock_free).  opts
 * may be NULL; it is copied (data is borrowed).  Returns 0 or WB_EINVAL
 * (bad path); *out freed with zklock_free. */
int zklock_new(zhandle_t *zh, const char *lock_path, const struct zklock_opts *opts,
	       struct zklock **out);

/* Stops the monitor and drops this lock's watches.  Does not delete the
 * node of a held lock (release first; closing the session also does it).
 * Accepts NULL. */
void zklock_free(struct zklock *l);

/* One acquisition: a new GUID, a new candidate, then wait up to wait_ms
 * (negative: no limit; 0: take it only if free right now).
 * Returns 0 when held, else:
 *   WB_EBUSY   TIMED_OUT (the wait ran out) or CANCELLED; own candidate deleted
 *   WB_ENOENT  CANDIDATE_GONE or CREATE_UNKNOWN
 *   WB_ECORRUPT AMBIGUOUS
 *   WB_ERANGE  SEQ_OVERFLOW
 *   WB_EIO     EXPIRED or FAILED
 *   WB_EINVAL  called while WAITING or HELD, after LOST (zklock_release
 *              first), or on a handle whose session is over
 * zklock_status() and zklock_message() tell which and why. */
int zklock_acquire(struct zklock *l, int wait_ms);

/* Makes a zklock_acquire running in another thread give up at its next
 * wait (WB_EBUSY, status CANCELLED).  Thread-safe; not for signal
 * handlers.  The flag is cleared by the next zklock_acquire. */
void zklock_cancel(struct zklock *l);

/* Deletes exactly the own node (by its full path) and ends the hold.
 * Returns 0; WB_ENOENT when the node was already gone (the lock had been
 * lost); WB_EIO when it could not be deleted (the node goes when the
 * session ends); WB_EINVAL when nothing is held. */
int zklock_release(struct zklock *l);

/* Finds this attempt's candidate after a create whose outcome is unknown:
 * on the same session, the children carrying our GUID whose
 * ephemeralOwner is this session.  Exactly one: *path set (caller frees),
 * returns 0.  None: WB_ENOENT.  Several: WB_ECORRUPT (none is deleted).
 * Session changed or expired: WB_EIO.  Deadline in ms (negative: none).
 * zklock_acquire calls it itself; it is public for labs. */
int zklock_recover(struct zklock *l, int wait_ms, char **path);

enum zklock_status zklock_status(struct zklock *l);
const char *zklock_status_name(enum zklock_status s);
/* The last outcome in one English sentence (never NULL; owned by l). */
const char *zklock_message(struct zklock *l);
/* The fencing token (the own sequence number), or -1 when not held.  It
 * grows with every candidate on this lock path, as long as the path is not
 * deleted (the recipe creates it persistent, not as a container). */
int64_t zklock_token(struct zklock *l);
/* The own node's full path, or NULL before a candidate exists. */
const char *zklock_own_path(struct zklock *l);
/* This attempt's GUID ("" before the first attempt). */
const char *zklock_guid(struct zklock *l);
/* The session the candidate was created in (0 before). */
int64_t zklock_session(struct zklock *l);
const char *zklock_path(struct zklock *l);
struct zklock_stats zklock_stats(struct zklock *l);

/* ---- Lab seams ---------------------------------------------------------- */

/* The recipe's lab seams: test hooks, all optional, all called on the
 * acquiring thread (they may make synchronous ZooKeeper calls, on any
 * handle) except monitor_started.  Labs use them to force races at exact
 * points instead of sleeping and hoping.  A lock with create_sent or
 * create_done sends the create and the first listing one at a time
 * (zklock_fast.h). */
struct zklock_hooks {
	void *arg;
	/* The create request is queued; its reply has not been read yet. */
	void (*create_sent)(void *arg, struct zklock *l);
	/* The create finished with zrc (a ZOO error code); before any
	 * recovery.  On ZOK, zklock_own_path() is set. */
	void (*create_done)(void *arg, struct zklock *l, int zrc);
	/* A getChildren answered: n lock nodes, own at own_index (-1 when
	 * absent). */
	void (*listed)(void *arg, struct zklock *l, size_t n, long own_index);
	/* Between the getChildren and the watch call on the predecessor. */
	void (*before_watch)(void *arg, struct zklock *l, const char *pred_path);
	/* The get-with-watch on the predecessor returned zrc (ZOK: watch set;
	 * ZNONODE: it vanished, no watch left, re-listing at once). */
	void (*watched)(void *arg, struct zklock *l, const char *pred_path, int zrc);
	/* A notification for the predecessor was taken (type is the ZOO event
	 * type); the waiter is about to re-list.  The getChildren itself was
	 * sent by the watcher when the notification came (and may have
	 * answered already): what this hook changes need not be in it. */
	void (*woken)(void *arg, struct zklock *l, int type, const char *path);
	/* Recovery after an unknown create outcome found this many candidates
	 * of this session with our GUID; zklock_message() says what it
	 * decided. */
	void (*recovered)(void *arg, struct zklock *l, size_t matches);
	/* On the lock's monitor thread, once per hold, before it looks at
	 * anything (the thread lives from the first claim to zklock_free):
	 * a test may block here until events have piled up (what came since
	 * the claim must still be reported).  Must not call zklock_*. */
	void (*monitor_started)(void *arg, struct zklock *l);
};

/* What zklock_new takes; a zeroed struct (or NULL) gives the defaults. */
struct zklock_opts {
	/* Called on the lock's monitor thread while held (never on the
	 * ZooKeeper completion thread); must not call zklock_* on this lock,
	 * may signal, write a pipe or kill. why is a short English reason. */
	void (*on_event)(void *arg, enum zklock_event ev, const char *why);
	void *event_arg;
	const char *data; /* node payload (e.g. who holds it), or NULL */
	int data_len;
	struct zklock_hooks hooks;
};

#endif
