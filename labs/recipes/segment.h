/*
 * segment.h - a database segment allocator in SQLite: one durable
 * high-water mark h per sequence; an allocation of n moves h to h + n in
 * one transaction (UPDATE ... RETURNING) and hands the caller h+1 .. h+n
 * to issue from memory.
 *
 *  allocator row:  h = 5000
 *  worker A asks for n = 1000   ──>  h: 5000 -> 6000, A owns 5001..6000
 *  worker B asks for n = 1000   ──>  h: 6000 -> 7000, B owns 6001..7000
 *
 * Rules it keeps (chapter 01, "Database segments"):
 *  - Waste is allowed, reissue is not.  A range is never handed out twice.
 *  - A lost reply is recovered by request id: the allocation is recorded
 *    with the caller's request id in the same transaction, and asking again
 *    with that id returns the recorded range instead of a new one.  Asking
 *    with a fresh id wastes the first range; that is also safe.
 *  - A restored old backup is refused.  Every allocation bumps the row's
 *    generation; before a range is returned, its generation is recorded in
 *    a witness database kept outside the allocator's backup set (another
 *    file here; the consuming tables or ZooKeeper in production).  An
 *    allocator whose generation is behind the witness has been rolled back
 *    and refuses (WB_ECORRUPT) until segment_raise moves h above anything
 *    that could have been issued.
 *
 * What it deliberately does not do: prefetch the next segment, issue ids
 * from a range (callers count from first to last themselves), or choose
 * the raise floor after a restore (the operator does, e.g. from the
 * largest id in the consuming tables plus a margin).
 */
#ifndef WB_SEGMENT_H
#define WB_SEGMENT_H

#include <stddef.h>
#include <sqlite3.h>
#include <stdint.h>

/* One allocated range, first..last inclusive. */
struct segment_range {
	int64_t first;	    /* h + 1 before the allocation */
	int64_t last;	    /* h after it */
	int64_t generation; /* the sequence row's generation after it */
	int recovered;	    /* 1: returned from the request-id record */
};

struct segment_alloc;

/*
 * Opens (creating) the allocator database at db_path, WAL mode with a busy
 * timeout, and the witness database at witness_path (NULL: no generation
 * check, the unsafe control).  Returns 0, or a WB_E* code from
 * base/sqlitex's map (WB_ENOENT: cannot open the file; WB_EBUSY; WB_EIO);
 * err (may be NULL) receives a message.  Free with segment_free.  One object per process:
 * open it after fork, never before.
 */
int segment_open(const char *db_path, const char *witness_path, struct segment_alloc **out,
		 char *err, size_t errlen);
void segment_free(struct segment_alloc *a);

/* Creates sequence `name` with h = start unless it exists.  Returns 0,
 * WB_EINVAL (start < 0) or WB_EIO / WB_EBUSY. */
int segment_create(struct segment_alloc *a, const char *name, int64_t start);

/*
 * Allocates n (1 .. 2^31) numbers of sequence `name`.  request_id (may be
 * NULL) names this request: if an allocation with that id was already
 * committed, its range is returned again (out->recovered = 1) and h does
 * not move.  Returns 0 and *out; WB_ENOENT (no such sequence); WB_EINVAL
 * (bad n, or the id was used for another sequence or size); WB_ECORRUPT
 * (the allocator is behind its witness: restored from an old backup);
 * WB_ERANGE (h would pass INT64_MAX); WB_EBUSY / WB_EIO (database); or
 * whatever the reply hook returns (the range was committed but the caller
 * never learns it).
 */
int segment_alloc(struct segment_alloc *a, const char *name, int64_t n, const char *request_id,
		  struct segment_range *out);

/* Reads h and the generation.  Returns 0, WB_ENOENT or WB_EIO. */
int segment_high_water(struct segment_alloc *a, const char *name, int64_t *h, int64_t *generation);

/*
 * The repair after a restore: in one transaction sets
 * h = max(h, floor, witness h) and generation = max(generation, witness
 * generation) + 1, then records the new generation in the witness.
 * Returns 0, WB_ENOENT, WB_EINVAL (floor < 0) or WB_EIO / WB_EBUSY.
 */
int segment_raise(struct segment_alloc *a, const char *name, int64_t floor);

/* The last error message (owned by a). */
const char *segment_errmsg(const struct segment_alloc *a);

/* Lab hook, called after an allocation is committed and witnessed and
 * before its range is returned.  A non-zero return is returned instead of
 * the range: the reply is "lost". */
void segment_set_reply_hook(struct segment_alloc *a,
			    int (*fn)(void *arg, const struct segment_range *r), void *arg);

/* Lab hook, called at the start of every segment_alloc, outside any
 * transaction (after the bump's SEGMENT_BUMP_BEFORE phase when one is
 * set): the moment another allocator may act before this one writes.
 * Tests and labs use it to force an interleaving. */
void segment_set_before_hook(struct segment_alloc *a, void (*fn)(void *arg), void *arg);

/* What a replacement bump is asked to do (segment_set_bump). */
enum segment_bump_phase {
	SEGMENT_BUMP_BEFORE, /* outside any transaction: may read, must not write */
	SEGMENT_BUMP_IN,     /* inside BEGIN IMMEDIATE: move h and fill *r */
};

/*
 * Replaces the allocation statement and the generation check (the
 * exercise "segment-alloc" puts a learner's statement here; the request
 * record, the witness write and the hooks stay this recipe's).  fn gets
 * the allocator's connection, on which the witness is attached as schema
 * "witness" when a witness path was given.  In SEGMENT_BUMP_IN it returns
 * 0 with r->first, r->last and r->generation, WB_ECORRUPT when it refused
 * (behind the witness), or another WB_E* with a message in a's error.
 * fn NULL restores the recipe's own statement.
 */
typedef int (*segment_bump_fn)(void *arg, sqlite3 *db, const char *name, int64_t n,
			       enum segment_bump_phase phase, struct segment_range *r, char *err,
			       size_t errlen);
void segment_set_bump(struct segment_alloc *a, segment_bump_fn fn, void *arg);

#endif
