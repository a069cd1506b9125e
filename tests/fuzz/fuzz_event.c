/*
 * fuzz_event.c - libFuzzer target for the lab event line parser
 * (labs/event.h): any bytes are parsed; every line that parses as a known
 * kind is written back and parsed again, and the second parse must give
 * the same kind and the same fields.  It does not judge the JSON library.
 */
#include "event.h"
#include "base/wb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	struct event_line a;
	if (event_parse(line, &a) != 0 || a.kind == EVENT_UNKNOWN) {
		event_clear(&a);
		free(line);
		return 0;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f && event_write(f, &a) == 0) {
		fclose(f);
		f = NULL;
		struct event_line b;
		if (event_parse(buf, &b) != 0 || b.kind != a.kind || !same(a.text, b.text) ||
		    !same(a.process, b.process) || !same(a.value, b.value) ||
		    !same(a.result, b.result) || a.ns != b.ns || a.index != b.index ||
		    a.n_witness != b.n_witness || a.story_ms != b.story_ms ||
		    a.server_ms != b.server_ms || a.other_ms != b.other_ms)
			abort();
		event_clear(&b);
	}
	if (f)
		fclose(f);
	free(buf);
	event_clear(&a);
	free(line);
	return 0;
}
