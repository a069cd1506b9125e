/*
 * histres.h - the small helpers every checker under labs/checkers/ shares:
 * the one check of a history's form that each checker runs first
 * (histres_validate), filling a struct hist_result (verdict, the one-line
 * reason, the witness indexes), parsing an integer argument, naming a
 * verdict.
 *
 * It holds no checker and judges no property; it does no I/O.
 */
#ifndef WB_HISTRES_H
#define WB_HISTRES_H

#include <stdint.h>

#include "checkers/history.h"

/* Checks that h is well-formed (history.h): not NULL (ops not NULL when
 * n > 0); per op, in array order: an index >= 0, a process and an f, an
 * end that is one of enum hist_type, an invocation time in
 * [0, INT64_MAX), for an ok or failed op a completion time that is not
 * INT64_MAX and not before the invocation, for an op never completed no
 * completion time; then no two ops with one index unless they agree on
 * process, f and invocation time (the parts of one batch).  Info ops'
 * completion times are not read.  Returns 0 (res untouched), or WB_EINVAL
 * with *res (when res is not NULL) set to HIST_MALFORMED, no witness, and
 * a reason naming the first bad op ("op #3 completes at 10 ns, before its
 * invocation at 20 ns").  O(n), O(n log n) when the indexes are not
 * increasing; allocates only then, and frees before returning. */
int histres_validate(const struct history *h, struct hist_result *res);

/* Sets *res (when not NULL) to HIST_MALFORMED with no witness and the
 * reason (printf format), for a checker's own input rules (a token that is
 * not a number).  Returns WB_EINVAL, for `return histres_malformed(...)`. */
int histres_malformed(struct hist_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Sets *res to HIST_VALID with an empty reason and no witness.  Cannot
 * fail. */
void histres_valid(struct hist_result *res);

/* Sets res->verdict and the reason (printf format, truncated to fit
 * res->why).  Leaves the witness as it is.  Cannot fail. */
void histres_set(struct hist_result *res, enum hist_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Appends an operation index to the witness; past the witness array's
 * capacity it is dropped (the reason should say how many there were).
 * Returns 0, or WB_ERANGE when it did not fit. */
int histres_witness(struct hist_result *res, int index);

/* Parses s as a whole decimal int64 (optional sign, no spaces).  Returns
 * 0, or WB_EINVAL for NULL, empty, trailing junk or out of range. */
int histres_parse_i64(const char *s, int64_t *out);

/* "valid", "invalid", "unknown" or "malformed" (static). */
const char *histres_verdict_name(enum hist_verdict v);

#endif
