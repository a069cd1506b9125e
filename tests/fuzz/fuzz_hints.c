/*
 * fuzz_hints.c - libFuzzer target for the exercise hints parser
 * (core/exercise_ws.h, exws_hints_parse).  Aborts when a parse that
 * succeeds does not give exactly three hints, each no longer than the
 * input, or when a failed parse leaves a hint allocated.
 */
#include "core/exercise_ws.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	char *h[EXWS_HINTS];
	int n;
	int rc = exws_hints_parse((const char *)data, size, h, &n);
	for (int k = 0; k < EXWS_HINTS; k++) {
		if (rc == 0 && (!h[k] || strlen(h[k]) > size))
			abort();
		if (rc != 0 && h[k])
			abort();
	}
	if ((rc == 0) != (n == EXWS_HINTS))
		abort();
	exws_hints_free(h);
	return 0;
}
