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
 * The operation history (docs/histories.md, labs/checkers/history.h):
 * {"t":"op","i":N,"p":"c1","type":"invoke|ok|fail|info","f":"read",
 *  "v":"0"|null,"r":"1"|null,"ns":N}      one invocation or completion of
 *                                           op N (both share i); ns since
 *                                           the run started, monotonic
 * {"t":"mark","lane":"proxy","text":...,"ns":N}  something that happened on
 *                                           a lane (client or server): a
 *                                           dropped reply, an expiry ...
 * {"t":"checker","name":"linearizable","result":"valid|invalid|unknown",
 *  "text":"why","witness":[3,5]}           a checker's verdict on the
 *                                           history, witness = op indexes
 *
 * {"t":"timing","story_ms":N,"server_ms":N,"other_ms":N,"text":"lease 400 ms"}
 *                                           where the run's time went, just
 *                                           before the verdict: the waits
 *                                           its story needs (text: per kind,
 *                                           "-" for none), server start and
 *                                           stop, and the rest
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
	EVENT_OP,	  /* one history line: an invocation or a completion */
	EVENT_MARK,	  /* an event on a lane of the timeline */
	EVENT_CHECKER,	  /* a checker's verdict on the history */
	EVENT_TIMING,	  /* the run's time split, before the verdict */
	EVENT_UNKNOWN,	  /* a JSON object with a "t" this version does not know */
};

/* At most this many witness indexes travel in a checker event (the same
 * bound as struct hist_result's witness). */
#define EVENT_WITNESS_MAX 16

/* One event.  Which fields mean something depends on kind; the others are
 * "" or 0 (value and result: NULL, see below).  Strings are borrowed: when
 * written, from the caller; when parsed, from the parsed line, valid until
 * event_clear. */
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
	/* op, mark, checker (text: the mark's text, the checker's why) */
	int index;			    /* op: "i", the op's index in the history */
	const char *process;		    /* op: "p"; mark: "lane" */
	const char *type;		    /* op: "invoke", "ok", "fail" or "info" */
	const char *f;			    /* op: the operation, e.g. "read" */
	const char *value;		    /* op: "v", NULL = none (JSON null) */
	const char *result;		    /* op: "r", NULL = none; checker: "valid",
					       "invalid" or "unknown" */
	const char *name;		    /* checker: its name */
	long long ns;			    /* op, mark: monotonic ns since the run started */
	int witness[EVENT_WITNESS_MAX];	    /* checker: op indexes */
	int n_witness;			    /* checker: how many (<= the max) */
	long story_ms, server_ms, other_ms; /* timing (text: the waits) */
	void *priv;			    /* parsed: the decoded object, freed by event_clear */
};

/* Writes e as one compact, ASCII-only JSON line to f and flushes.  NULL
 * strings are written as "".  Returns 0, WB_EINVAL (EVENT_UNKNOWN),
 * WB_ENOMEM or WB_EIO. */
int event_write(FILE *f, const struct event_line *e);

struct json_t;

/* Writes the jansson value o as one compact, ASCII-only JSON line to f
 * (no flush) and drops the caller's reference to it; NULL o (a json_pack
 * that failed) is WB_ENOMEM.  For the other JSON-lines writers under
 * labs/ (histfile.c).  Returns 0, WB_ENOMEM or WB_EIO. */
int event_json_line(FILE *f, struct json_t *o);

/* Parses one line (no newline needed).  Returns 0 with *e filled (free
 * with event_clear), or WB_EINVAL when the line is not a JSON object with
 * a string "t" (then *e is cleared and needs no event_clear).  Missing
 * fields read as "" or 0 (an op's v and r as NULL); a checker's witness
 * keeps its first EVENT_WITNESS_MAX integers and skips anything else.  It
 * does not check that an op's type is one of the four words. */
int event_parse(const char *line, struct event_line *e);

/* Releases what event_parse kept; accepts an event never parsed or
 * already cleared (priv NULL). */
void event_clear(struct event_line *e);

/* The "t" word of kind, e.g. "check"; "?" for EVENT_UNKNOWN. */
const char *event_kind_name(enum event_kind kind);

#endif
