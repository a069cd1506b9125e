/*
 * history.h - an operation history (docs/histories.md): what each client
 * of a lab did, as Jepsen records it.  Every operation is one invocation
 * and at most one completion: ok (it took effect, with this result), fail
 * (it certainly did not take effect) or info (the outcome is unknown, as
 * after a lost reply; it may have taken effect at any time after its
 * invocation).  Times are monotonic nanoseconds from the start of the run.
 *
 * The checkers under labs/checkers/ read this and nothing else; the labs
 * fill it through the report (harness/report.h) and the event lines carry
 * it (labs/event.h, "op" events).  Pure data: no I/O here.
 */
#ifndef WB_HISTORY_H
#define WB_HISTORY_H

#include <stddef.h>
#include <stdint.h>

enum hist_type {
	HIST_INVOKE,
	HIST_OK,
	HIST_FAIL,
	HIST_INFO,
};

/* One operation, invocation and completion together. */
struct hist_op {
	int index;	     /* the op's id: its position in the run's history,
				from 0.  Ids are unique, except that the parts of
				one operation that returned several results (a
				batch of ids) may share one: they then agree on
				process, f and invocation time */
	const char *process; /* "c1", "worker-a", "zk1" ... */
	const char *f;	     /* the operation: "read", "write", "acquire" ... */
	const char *value;   /* the argument (write) or the argument asked */
	const char *result;  /* what the completion returned (ok), else NULL */
	enum hist_type end;  /* HIST_OK, HIST_FAIL or HIST_INFO; HIST_INVOKE:
				never completed (treated as info) */
	int64_t t_invoke;    /* ns from the run's start */
	int64_t t_complete;  /* ns; INT64_MAX when never completed or info */
};

/* A history: ops in invocation order.  Strings are owned by whoever built
 * it (the checkers only read).  Well-formed (histres_validate, which every
 * checker calls first): every op has a process, an f, a known end and an
 * invocation time >= 0; an ok or failed op completes at or after its
 * invocation; an op never completed has no completion time (INT64_MAX);
 * ids are unique (but see index). */
struct history {
	struct hist_op *ops;
	size_t n;
};

/* A checker's answer. */
enum hist_verdict {
	HIST_VALID,	/* the property holds for this history */
	HIST_INVALID,	/* it does not; the witness shows why */
	HIST_UNKNOWN,	/* the search hit its time or memory bound */
	HIST_MALFORMED, /* the history breaks the rules of this file (an op
			   completing before its invocation, a duplicate
			   id ...): no verdict; the checker returned
			   WB_EINVAL and the reason names the op */
};

/* What a checker found: the verdict, one line saying why, and the
 * smallest set of operations (their index) that shows it, when invalid. */
struct hist_result {
	enum hist_verdict verdict;
	char why[256];
	int witness[16];
	size_t n_witness;
};

#endif
