/*
 * unique.h - the unique-id checker (id-snowflake, id-segment, id-uuid,
 * id-collision): no id is handed out twice over all generators, and each
 * generator's ids grow.
 *
 * The operations: f "generate", process = the generator (a process or a
 * worker id), result = the id, as a decimal integer (snowflake, segment)
 * or any other string (a UUID in its canonical lower-case text, which
 * sorts by time for v7).  Only generates that completed ok are read; an
 * info generate handed out no id anyone saw; other f values are ignored.
 * Two ids compare as integers when both are decimal, as strings (strcmp)
 * when neither is; a decimal id sorts before any other.
 *
 * Checks: (1) no two generates returned equal ids; (2) unless
 * UNIQUE_ANY_ORDER, per generator the ids are strictly increasing in
 * completion order.  Witness: the pair (for (2), the earlier completion
 * first).
 *
 * Pure: no I/O; O(n log n) time and O(n) memory, so a lab's millions of
 * ids are fine.  It does not decode ids (recipes/snowflake.h does) or
 * check them against a clock.
 */
#ifndef WB_UNIQUE_H
#define WB_UNIQUE_H

#include "checkers/history.h"

#define UNIQUE_ANY_ORDER 1u /* only duplicates: ids need not grow (v4 UUIDs) */

/* Checks h.  flags: 0 or UNIQUE_ANY_ORDER.  Returns 0 with *res filled
 * (VALID; INVALID with the pair: for a duplicate, lower index first), or
 * WB_EINVAL: NULL res or unknown flags (*res untouched); a history that is
 * not well-formed (histres_validate), or an ok generate without a result
 * (*res HIST_MALFORMED, the reason naming the op).  Allocates and frees
 * its own memory. */
int unique_check(const struct history *h, unsigned flags, struct hist_result *res);

#endif
