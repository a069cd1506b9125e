/*
 * clock.c - the time and the randomness of the progress model (see
 * clock.h): now with the WORKBENCH_NOW base, shuffle seeds, answer and
 * test uids from /dev/urandom with a splitmix64 fallback.
 *
 * State: the WORKBENCH_NOW base is read once per process (the clock then
 * advances on CLOCK_MONOTONIC from that base), and the fallback
 * generator keeps its state between calls.  Neither is locked: the
 * workbench reads the clock from one thread.  This file knows no table.
 */
#include "core/clock.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int64_t answers_now_ms(void)
{
	static int init;
	static int64_t base_ms, mono0_ms;
	struct timespec ts;
	if (!init) {
		init = 1;
		const char *env = getenv("WORKBENCH_NOW");
		if (env && *env) {
			char *end;
			long long v = strtoll(env, &end, 10);
			if (*end == '\0' && v > 0) {
				base_ms = (int64_t)v * 1000;
				clock_gettime(CLOCK_MONOTONIC, &ts);
				mono0_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
			}
		}
	}
	if (base_ms) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		return base_ms + ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - mono0_ms);
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t clock_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void random_bytes(unsigned char *b, size_t n)
{
	FILE *f = fopen("/dev/urandom", "rb");
	if (f) {
		size_t got = fread(b, 1, n, f);
		fclose(f);
		if (got == n)
			return;
	}
	static uint64_t state;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	state ^= (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v = clock_splitmix(&state);
		for (size_t k = 0; k < 8 && i + k < n; k++)
			b[i + k] = (unsigned char)(v >> (8 * k));
	}
}

uint64_t answers_random_seed(void)
{
	const char *env = getenv("WORKBENCH_SEED");
	if (env && *env)
		return strtoull(env, NULL, 10);
	unsigned char b[8];
	random_bytes(b, sizeof b);
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

char *clock_new_uid(void)
{
	unsigned char b[16];
	random_bytes(b, sizeof b);
	char *s = wb_xmalloc(33);
	for (int i = 0; i < 16; i++)
		snprintf(s + 2 * i, 3, "%02x", b[i]);
	return s;
}
