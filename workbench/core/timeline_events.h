/*
 * timeline_events.h - the lab event lines (labs/event.h, docs/histories.md)
 * that make a timeline, read into core/timeline.h:
 *
 *   {"t":"op","i":N,"p":"c1","type":"invoke|ok|fail|info","f":"read",
 *    "v":"0","r":"1","ns":123}
 *   {"t":"mark","lane":"proxy","text":"create reply dropped","ns":456}
 *   {"t":"checker","name":"linearizable","result":"invalid","text":"why",
 *    "witness":[3,5]}
 *
 * "i" pairs an invocation with its completion; "ns" is monotonic time
 * since the run started.  Every other event ("step", "check", ...) is
 * left alone, so a run's whole events.jsonl or the lines the TUI lab
 * screen reads can be fed as they are.  The lines of a `lab run
 * --history` file (labs/histfile.h: JSON without "t", or EDN) are
 * operations too, paired by process.  It only reads: it checks no
 * history and draws nothing.
 */
#ifndef WB_TIMELINE_EVENTS_H
#define WB_TIMELINE_EVENTS_H

#include "core/timeline.h"

#include <stddef.h>

struct tl_events;

/* A new reader with nothing fed; free with tl_events_free.  Aborts on
 * allocation failure. */
struct tl_events *tl_events_new(void);

/* Frees e; accepts NULL. */
void tl_events_free(struct tl_events *e);

/* Feeds one line (no newline needed).  Returns 1 when it was a timeline
 * event or a history line and was taken, 0 when it is some other event or not JSON at all
 * (ignored), or WB_EINVAL when it is an "op", "mark" or "checker" event
 * that is malformed or does not fit what came before (a completion
 * without its invocation, an id invoked twice, a completion before its
 * invocation): err (errlen bytes) then says why, and e is unchanged. */
int tl_events_feed(struct tl_events *e, const char *line, char *err, size_t errlen);

/* Timeline events taken so far. */
size_t tl_events_count(const struct tl_events *e);

/* A new timeline of what was fed: operations in invocation order, those
 * not completed yet as TL_PENDING.  Caller frees with timeline_free. */
struct timeline *tl_events_timeline(const struct tl_events *e);

/* Reads the event file at path.  Every line must be a JSON object or an
 * EDN history map (a blank line is skipped).  Returns 0 with *out (timeline_free), WB_ENOENT
 * or WB_EIO when the file cannot be read, WB_EINVAL for a bad line or a
 * path that is not a regular file (a device, a FIFO), WB_ERANGE for a
 * file over 16 MiB (not read); err then says "path:line: why" or
 * "path: why". */
int tl_events_load(const char *path, struct timeline **out, char *err, size_t errlen);

#endif
