/*
 * event.h - one lab event as a JSON line (docs/architecture.md §5): the format that
 * harness/report.c writes and that the CLI supervisor and the TUI lab
 * screen read back.
 *
 * {"t":"step","text":...}
 * {"t":"check","name":...,"ok":true|false,"expected":...,"observed":...}
 * {"t":"evidence","key":...,"value":...}
 * {"t":"error","text":...}
 * {"t":"conclusion","text":...}           what a passing run showed
 * {"t":"cancelled","stopped":N,"kept":...} a run stopped by a signal: how
 *                                           many processes it had started
 *                                           (all stopped now), and the run
 *                                           folder kept ("" = removed)
 * {"t":"verdict","pass":true|false,"ms":N,"checks":N,"failed":N[,"cannot":true]}
 *
 * This module only encodes and decodes lines; it decides no verdict and
 * prints no human text.
 */
#ifndef WB_EVENT_H
#define WB_EVENT_H

#include <stdio.h>

enum event_kind {
	EVENT_STEP,
	EVENT_CHECK,
	EVENT_EVIDENCE,
	EVENT_ERROR,
	EVENT_VERDICT,
	EVENT_CONCLUSION, /* one or two sentences: what the run proved */
	EVENT_CANCELLED,  /* written by the supervisor after a cancel */
	EVENT_UNKNOWN,	  /* a JSON object with a "t" this version does not know */
};

/* One event.  Which fields mean something depends on kind; the others are
 * "" or 0.  Strings are borrowed: when written, from the caller; when
 * parsed, from the parsed line, valid until event_clear. */
struct event_line {
	enum event_kind kind;
	const char *text;     /* step, error and conclusion text, check name,
				 evidence key; cancelled: the kept folder or "" */
	const char *expected; /* check */
	const char *observed; /* check; evidence value */
	int ok;		      /* check held; verdict passed */
	int cannot;	      /* verdict: could not run */
	long ms;	      /* verdict: elapsed time */
	int checks, failed;   /* verdict: counters */
	int stopped;	      /* cancelled: processes stopped */
	void *priv;	      /* parsed: the decoded object, freed by event_clear */
};

/* Writes e as one compact, ASCII-only JSON line to f and flushes.  NULL
 * strings are written as "".  Returns 0, WB_EINVAL (EVENT_UNKNOWN),
 * WB_ENOMEM or WB_EIO. */
int event_write(FILE *f, const struct event_line *e);

/* Parses one line (no newline needed).  Returns 0 with *e filled (free
 * with event_clear), or WB_EINVAL when the line is not a JSON object with
 * a string "t" (then *e is cleared and needs no event_clear). */
int event_parse(const char *line, struct event_line *e);

/* Releases what event_parse kept; accepts an event never parsed or
 * already cleared (priv NULL). */
void event_clear(struct event_line *e);

/* The "t" word of kind, e.g. "check"; "?" for EVENT_UNKNOWN. */
const char *event_kind_name(enum event_kind kind);

#endif
