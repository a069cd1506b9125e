/*
 * fuzz_textsafe.c - libFuzzer target for the content sanitiser.
 *
 * Aborts when a sanitised copy still holds a character a terminal acts on,
 * when the scanner and the walker disagree on how many unsafe characters
 * the input has, when sanitising twice changes anything, or when the
 * stream (fed in pieces cut where the first byte says) writes anything
 * but the one-shot copy.
 */
#include "core/textsafe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(void *arg, size_t line, size_t col, const char *what)
{
	(void)line;
	(void)col;
	(void)what;
	(*(size_t *)arg)++;
}

/* The stream's output for s, written in pieces of `cut` bytes. */
static char *through_stream(const char *s, size_t n, size_t cut)
{
	int fds[2];
	if (pipe(fds) != 0)
		abort();
	struct textsafe_stream st;
	FILE *f = textsafe_stream(&st, fds[1], _IONBF);
	if (!f)
		abort();
	for (size_t i = 0; i < n; i += cut)
		fwrite(s + i, 1, n - i < cut ? n - i : cut, f);
	fclose(f);
	close(fds[1]);
	size_t cap = 8 * n + 64, len = 0;
	char *out = malloc(cap);
	ssize_t r;
	while ((r = read(fds[0], out + len, cap - 1 - len)) > 0)
		len += (size_t)r;
	close(fds[0]);
	out[len] = '\0';
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The pipe holds 64 KiB; the output is at most 8x the input. */
	if (size < 1 || size > 4096)
		return 0;
	size_t cut = 1 + data[0] % 7;
	const char *s = (const char *)data + 1;
	size_t n = size - 1;
	if (memchr(s, '\0', n))
		return 0; /* the C-string APIs stop at NUL by contract */

	char *safe = textsafe_dup(s, n);
	if (!textsafe_clean(safe, strlen(safe)))
		abort();
	char *twice = textsafe_str(safe);
	if (strcmp(safe, twice) != 0)
		abort();

	size_t walked = 0, scanned = 0, pos = 0, len;
	uint32_t cp;
	while (textsafe_next(s, n, &pos, &cp, &len) != TEXTSAFE_OK) {
		walked++;
		pos += len;
	}
	textsafe_scan(s, n, count, &scanned);
	/* scan treats a lone CR as a line end; next reports it */
	size_t lone_cr = 0;
	for (size_t i = 0; i < n; i++)
		lone_cr += s[i] == '\r' && (i + 1 == n || s[i + 1] != '\n');
	if (scanned + lone_cr != walked)
		abort();

	char *streamed = through_stream(s, n, cut);
	if (strcmp(streamed, safe) != 0)
		abort();
	free(streamed);
	free(twice);
	free(safe);
	return 0;
}
