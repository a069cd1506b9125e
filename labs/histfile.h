/*
 * histfile.h - an operation history (checkers/history.h) written as a
 * file: JSON lines or Jepsen's EDN history (docs/histories.md), one line
 * per invocation and per completion in time order, as Jepsen records it,
 * so that Knossos or Elle users can load a run of this workbench.
 *
 *   json: {"index":0,"op":0,"process":"A","type":"invoke","f":"write","value":"1","time":123}
 *   edn:  {:index 0, :process 0, :type :invoke, :f :write, :value 1, :time 123, :name "A", :op 0}
 *
 * :index numbers the lines; "op" / :op is the op's id (hist_op.index, the
 * number the run's events and the checkers' witnesses use), the same on
 * an invocation and its completion, so a reader pairs them by it (a lab
 * process may have two ops open at once).  A completion keeps the op's
 * argument as its value (a write's token); an op without argument (a
 * read) carries its result as the value (Jepsen's convention: a read's
 * ok carries what it read); an ok op with both also gets a "result" /
 * :result key (a fenced write's "fenced a-first", a claim's rows).  Times
 * are written as recorded.  In
 * EDN a value that is a decimal integer is written as a number, NULL as
 * nil, anything else as a string; f is a keyword when it is a plain word.
 * EDN processes are integers, as Jepsen's: each named process gets one,
 * and a second while its first has an op outstanding (pipelined calls) or
 * after an op whose outcome is unknown (Jepsen's crashed process); :name
 * keeps the lab's name.  An op never completed has no completion line.
 *
 * It only formats: it reads no events and opens no file.
 */
#ifndef WB_HISTFILE_H
#define WB_HISTFILE_H

#include <stdint.h>
#include <stdio.h>

#include "checkers/history.h"

enum histfile_format { HISTFILE_JSON, HISTFILE_EDN };

/* Parses "json" or "edn".  Returns 0 with *out, or WB_EINVAL. */
int histfile_format_parse(const char *name, enum histfile_format *out);

/* Writes h to f.  ends[i] is when op i's completion was seen (ns from the
 * start; an info op's t_complete is INT64_MAX, its line needs the real
 * time), or < 0 when it never completed; ends may be NULL (then
 * t_complete, and info ops get no completion line).  Returns 0, WB_EIO or
 * WB_ENOMEM.  Does not close f. */
int histfile_write(FILE *f, const struct history *h, const int64_t *ends, enum histfile_format fmt);

#endif
