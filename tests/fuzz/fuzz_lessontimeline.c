/*
 * fuzz_lessontimeline.c - libFuzzer target for a lesson's ```timeline
 * block (core/timeline_events.c's tl_events_load, reached through a
 * lesson as `lesson show`, the reader and `lesson lint` reach it).
 *
 * The first byte picks a width from 24 to 279; the rest is the history
 * file, written to <tmp>/lessons/timelines/fz.jsonl beside a fixed lesson
 * <tmp>/lessons/en/01-fz.md that embeds it.  The lesson is loaded and
 * laid out at that width (the layout reads and draws the history) and
 * linted (lint reads it again and judges it).  Aborts when a laid-out
 * line is wider than the width or its recorded width is wrong, or when
 * lint reports a problem outside the lesson's lines or without a message.
 */
#include "core/layout.h"
#include "core/lesson.h"
#include "core/lessonlint.h"
#include "core/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/wb-fuzz-lessontl.XXXXXX";
static char lesson_path[96], history_path[96];

static const char lesson_text[] = "# Fuzz\n\nBefore.\n\n```timeline\nfz\n```\n\nAfter.\n";

/* The files and folders go when the fuzzer exits normally. */
static void remove_dir(void)
{
	char path[96];
	remove(lesson_path);
	remove(history_path);
	snprintf(path, sizeof path, "%s/lessons/en", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/lessons/timelines", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/lessons", dir);
	rmdir(path);
	rmdir(dir);
}

static void setup(void)
{
	char path[96];
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	snprintf(path, sizeof path, "%s/lessons", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/lessons/en", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/lessons/timelines", dir);
	mkdir(path, 0700);
	snprintf(lesson_path, sizeof lesson_path, "%s/lessons/en/01-fz.md", dir);
	snprintf(history_path, sizeof history_path, "%s/lessons/timelines/fz.jsonl", dir);
	FILE *f = fopen(lesson_path, "w");
	if (!f || fputs(lesson_text, f) < 0 || fclose(f) != 0)
		abort();
}

struct seen {
	int timeline_errors; /* counted for a look in a debugger */
};

static void report(void *arg, enum lint_level level, const char *file, int line, int col,
		   const char *msg)
{
	struct seen *s = arg;
	(void)file;
	(void)col;
	if (!msg || !*msg || line < 1 || line > 10)
		abort();
	if (level == LINT_ERROR && strstr(msg, "timeline"))
		s->timeline_errors++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready) {
		setup();
		ready = 1;
	}
	if (size < 1 || size > (1u << 20))
		return 0;
	int width = 24 + data[0];
	FILE *f = fopen(history_path, "wb");
	if (!f)
		abort();
	if (size > 1 && fwrite(data + 1, 1, size - 1, f) != size - 1)
		abort();
	if (fclose(f) != 0)
		abort();

	struct lesson *l = NULL;
	if (lesson_load(lesson_path, "01-fz", (data[0] & 1) ? "zh" : "en", &l) != 0)
		abort();
	struct layout *lay = layout_build(l, width);
	for (size_t i = 0; i < lay->nlines; i++) {
		const struct lay_line *ln = &lay->lines[i];
		int w = utf8_width(ln->text, ln->len);
		if (w != ln->width || w > width)
			abort();
	}
	layout_free(lay);
	lesson_free(l);

	struct seen s = {0};
	(void)lessonlint_text(lesson_path, lesson_text, sizeof lesson_text - 1, NULL, 0, report,
			      &s);
	return 0;
}
