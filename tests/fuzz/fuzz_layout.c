/*
 * fuzz_layout.c - libFuzzer target for the lesson loader and layout.
 *
 * The first byte picks a width from 10 to 265; the rest is the Markdown.
 * Aborts when the layout breaks its invariant (a line wider than the
 * width, or a recorded width that disagrees with the text), or when the
 * anchor of any line does not come back to a line of the same block.
 */
#include "core/labcat.h"
#include "core/layout.h"
#include "core/lesson.h"
#include "core/utf8.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A catalogue, as main.c installs one, so lab cards with known ids are laid
 * out as cards (titles in both languages) and unknown ones as such. */
static const struct labcat_entry catalogue[] = {
	{"zk-cas", "01", "setData with an expected version", "带期望版本的 setData", 1},
	{"zk-create-lost", "01,02", "A create reply is lost", "create 的回复丢了", 1},
	{"task-claim", "01", "Concurrent claimers", "并发认领", 0},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > (1u << 20))
		return 0;
	labcat_init(catalogue, sizeof catalogue / sizeof catalogue[0]);
	int width = 10 + data[0];
	struct lesson *l = NULL;
	if (lesson_parse("00-fuzz", (data[0] & 1) ? "zh" : "en", (const char *)data + 1, size - 1,
			 &l) != 0)
		return 0;
	struct layout *lay = layout_build(l, width);
	for (size_t i = 0; i < lay->nlines; i++) {
		const struct lay_line *ln = &lay->lines[i];
		int w = utf8_width(ln->text, ln->len);
		if (w != ln->width || w > width)
			abort();
		for (unsigned s = 0; s < ln->nspans; s++)
			if (ln->spans[s].start + ln->spans[s].len > ln->len)
				abort();
		/* Anchors are linear in the line count: sample them. */
		if (i % 53 == 0) {
			size_t back = layout_find_anchor(lay, ln->block, ln->offset);
			if (back >= lay->nlines || lay->lines[back].block != ln->block)
				abort();
		}
	}
	struct lay_hit *hits;
	size_t n = layout_search(lay, "a", &hits);
	for (size_t i = 0; i < n; i++)
		if (hits[i].line >= lay->nlines ||
		    hits[i].start + hits[i].len > lay->lines[hits[i].line].len)
			abort();
	free(hits);
	layout_free(lay);
	lesson_free(l);
	return 0;
}
