/*
 * histres.h - the small helpers every checker under labs/checkers/ shares:
 * filling a struct hist_result (verdict, the one-line reason, the witness
 * indexes), parsing an integer argument, naming a verdict.
 *
 * It holds no checker and reads no history; it does no I/O.
 */
#ifndef WB_HISTRES_H
#define WB_HISTRES_H

#include <stdint.h>

#include "checkers/history.h"

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

/* "valid", "invalid" or "unknown" (static). */
const char *histres_verdict_name(enum hist_verdict v);

#endif
