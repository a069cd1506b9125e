/*
 * timeline_svg.h - a timeline (core/timeline.h) as a standalone SVG file
 * for slides and notes: the same layout the terminal shows (lanes, bars
 * labelled "f value->result", marks, the ≈ breaks of idle time, the ms
 * scale), drawn with one column per TIMELINE_SVG_COL pixels, the witness
 * in a highlight colour, the legend below.  All text is sanitised
 * (core/textsafe) and escaped for XML.  It does not read events itself
 * except in timeline_svg_file, which is what `lab run --timeline` calls
 * (`workbench timeline --svg` loads and writes through base/outfile.h).
 */
#ifndef WB_TIMELINE_SVG_H
#define WB_TIMELINE_SVG_H

#include "core/timeline.h"

#include <stddef.h>
#include <stdio.h>

/* Layout width (columns) the SVG is drawn at, and pixels per column/row. */
#define TIMELINE_SVG_WIDTH 120
#define TIMELINE_SVG_COL   8
#define TIMELINE_SVG_ROW   22

/* Writes t as SVG to f, titled title (may be NULL), the legend in lang.
 * Returns 0 or WB_EIO when the stream reports an error. */
int timeline_svg_write(const struct timeline *t, const char *title, const char *lang, FILE *f);

/* Reads the event lines in events_path (core/timeline_events.h) and
 * writes their timeline as SVG to svg_path (truncated in place: a
 * scratch file, or one the caller opened as base/outfile.h says), titled
 * title.
 * Returns 0, or the loader's WB_ENOENT/WB_EIO/WB_EINVAL, WB_EINVAL when
 * the events hold no operation and no mark (nothing to draw), or WB_EIO when
 * svg_path cannot be written; err (errlen bytes) then says why, with
 * file:line for a bad event line. */
int timeline_svg_file(const char *events_path, const char *svg_path, const char *title,
		      const char *lang, char *err, size_t errlen);

#endif
