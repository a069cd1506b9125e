/*
 * tasks.h - the task-table checker (task-takeover, task-claim,
 * task-lost-reply): at most one accepted completion per task, and a
 * worker whose claim was superseded changes nothing.
 *
 * The operation vocabulary (one op per conditional UPDATE of
 * recipes/tasktable.h; process = the worker):
 *   f "claim"     value "task:version": the task and the claim_version
 *                 the claim set when it won ("task" or "task:0" when it
 *                 did not); ok with result "1" (one row changed: won) or
 *                 "0" (zero rows: lost).
 *   f "renew"     value "task:version": the holder's claim_version;
 *   f "complete"  ok with result "1" (row changed: accepted) or "0"
 *   f "fail"      (zero rows: a stale claim, rejected).
 * The task is what precedes the last ':' of value.  An op that failed or
 * ended info (outcome unknown, as after a lost reply) is not read: it is
 * not known whether it changed a row.  Other f values are ignored.
 *
 * Checks:
 *   (1) per task, at most one complete ok with result "1";
 *   (2) a late writer changes nothing: when an op on the task with a
 *       larger version changed a row (a newer claim, or the newer
 *       holder's renew/complete/fail, which proves that claim) and
 *       completed before a renew/complete/fail with a smaller version was
 *       invoked, that write must have result "0".
 * Witness: (1) the two completes; (2) the newer op, then the late write.
 *
 * Pure: no I/O; quadratic per task, which lab histories afford.  It does
 * not check lease times (the database's clock is not in the history) or
 * effects outside the table (a payment provider's duplicates are the
 * lab's own check).
 */
#ifndef WB_TASKS_CHECKER_H
#define WB_TASKS_CHECKER_H

#include "checkers/history.h"

/* Checks h.  Returns 0 with *res filled (VALID, or INVALID with the
 * witness above), or WB_EINVAL: NULL res; a history that is not
 * well-formed (histres_validate), or an ok op of the vocabulary without
 * value, with a result other than "0" or "1", or (result "1") no decimal
 * version after the last ':' (*res HIST_MALFORMED, the reason naming the
 * op). */
int tasks_check(const struct history *h, struct hist_result *res);

#endif
