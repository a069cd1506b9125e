/*
 * mutex.h - two checkers for a lock (the zk-lock labs, zk-fencing):
 *
 * mutex_check: mutual exclusion as ZooKeeper saw it.  The history holds,
 * per process, f "acquire" and f "release" operations (value and result
 * are not read).  A process holds the lock from its acquire to its next
 * release that did not fail (ok or info), or to the end of the history.
 * Which moments are certain: an acquire that completed ok was granted at
 * the latest at its completion; a release let go at the earliest at its
 * invocation.  So an acquire is certainly held over
 * [acquire completion, release invocation), and two holders of different
 * processes whose certain intervals overlap are a violation.  An acquire
 * that ended info (or never completed) counts as held from its
 * invocation: a create whose reply was lost may have made the process
 * the holder in ZooKeeper's eyes.  A failed acquire holds nothing.
 * Witness: the two acquires.
 *
 * mutex_check_tokens: the resource side.  f "write" operations that
 * completed ok are effects the resource accepted, value = the fencing
 * token (a decimal integer).  Accepted effects must come in token order:
 * once a token was accepted, no smaller one is (equal tokens are the
 * current holder writing again, which recipes/fenced.h accepts).  A write
 * that certainly came after another (its invocation after the other's
 * completion) with a smaller token is a violation.  A fenced resource passes; the unfenced control,
 * which accepts stale writers, fails with the out-of-order pair.  Other operations are ignored.
 *
 * Both are pure functions of the history: no I/O, no allocation beyond
 * what they free before returning.  They do not check that releases were
 * by the holder or that tokens came from ZooKeeper.
 */
#ifndef WB_MUTEX_H
#define WB_MUTEX_H

#include "checkers/history.h"

/* Checks mutual exclusion.  Returns 0 with *res filled (VALID, or INVALID
 * with witness = the indexes of the two overlapping acquires, earlier
 * invocation first), or WB_EINVAL: NULL res; a history that is not
 * well-formed (histres_validate: *res is then HIST_MALFORMED, the reason
 * naming the op). */
int mutex_check(const struct history *h, struct hist_result *res);

/* Checks that accepted writes come in (non-decreasing) token order.
 * Returns 0 with *res filled (VALID, or INVALID with witness = the earlier
 * write, then the later one with the smaller token), or WB_EINVAL: NULL
 * res; a history that is not well-formed, or an ok write whose value is
 * not a decimal integer (*res HIST_MALFORMED, the reason naming the op). */
int mutex_check_tokens(const struct history *h, struct hist_result *res);

#endif
