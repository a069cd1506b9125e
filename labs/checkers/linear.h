/*
 * linear.h - linearizability of a single register (zk-stale-read,
 * zk-sync-partition): is there one order of the operations, consistent
 * with real time, in which every read returns the latest write?
 *
 * The operations (other f values are ignored: a "sync" constrains
 * nothing by itself):
 *   f "read"   ok, result = the value read.  A failed read and a read
 *              whose outcome is unknown (info) say nothing and are dropped.
 *   f "write"  value = the value written.
 *   f "cas"    value = "old:new" (split at the first ':'): when the
 *              register holds old it becomes new; ok means it did.
 * A write or cas that failed did not take effect and is dropped; one that
 * ended info (or never completed) may take effect at any moment after its
 * invocation, or never.  Values are compared as strings.  Operation A
 * precedes B in real time when A completed strictly before B was invoked;
 * equal times count as concurrent.
 *
 * The search is Wing and Gong's, with Lowe's just-in-time linearization
 * (as in Porcupine): a list of call and return entries in time order;
 * linearizing an operation lifts its two entries out, backtracking puts
 * them back; a cache of (set of linearized operations, register value)
 * pairs already explored prunes repeats.  It is bounded in time and in
 * memory (struct linear_opts) and answers HIST_UNKNOWN when a bound is
 * hit.
 *
 * When the history is not linearizable, the checker shrinks it: it drops
 * operations one at a time while what remains is still not linearizable,
 * until no single operation can go (a 1-minimal set, not necessarily the
 * smallest of all), and reports their indexes as the witness.  A write
 * (or cas) is not dropped while it is the last one producing a value that
 * a remaining read (or cas) needs, unless that is the initial value:
 * otherwise a read of 1 left without its write of 1 would always be the
 * "smallest" witness, showing nothing.
 *
 * Written here rather than taken from a library: Debian packages no C
 * linearizability checker (Knossos is Clojure, Porcupine is Go).  It does
 * not check other models (queues, sets) or several registers (split the
 * history per key first), and does no I/O.
 */
#ifndef WB_LINEAR_H
#define WB_LINEAR_H

#include <stddef.h>

#include "checkers/history.h"

/* Bounds and the model's start.  Zero fields take the defaults. */
struct linear_opts {
	const char *initial; /* the register's value before the history;
				NULL means "0" */
	long long max_ms;    /* time for the whole check, shrinking included;
				0: 10000 */
	size_t max_bytes;    /* memory for one search's cache of visited
				states; 0: 64 MiB */
};

#define LINEAR_DEFAULT_MS    10000
#define LINEAR_DEFAULT_BYTES ((size_t)64 << 20)

/* Checks h against a register starting at opts->initial (opts may be
 * NULL: all defaults).  Returns 0 with *res filled: HIST_VALID;
 * HIST_INVALID with the shrunk witness (operation indexes in history
 * order; when more than fit, the first ones and the reason says how many;
 * when shrinking hit the time bound, the set found so far, and the reason
 * says so); HIST_UNKNOWN when the first search hit a bound.  Errors:
 * WB_EINVAL: NULL res; a history that is not well-formed
 * (histres_validate: a completion before its invocation, a duplicate id
 * ...), an ok read without result, a write or cas without value, a cas
 * value without ':' (*res HIST_MALFORMED, the reason naming the op).
 * Allocates and frees its own memory; h is only read. */
int linear_check(const struct history *h, const struct linear_opts *opts, struct hist_result *res);

#endif
