/*
 * uuid.c - RFC 9562 v4 and v7 (see uuid.h).
 *
 * Invariant of a v7 generator: (last_ms, counter) only grows; every value
 * it returns carries exactly that pair in its first 64 bits (apart from
 * the version), so byte order follows generation order.
 *
 * Not here: clock-sequence or node fields of older versions, and any
 * attempt to make two generators agree on an order.
 */
#include "recipes/uuid.h"
#include "base/wb.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

int uuid_random_bytes(void *buf, size_t n)
{
	uint8_t *p = buf;
	while (n > 0) {
		ssize_t got = getrandom(p, n, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return WB_EIO;
		}
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

void uuid_v4_from_bytes(const uint8_t rnd[16], struct uuid *u)
{
	memcpy(u->b, rnd, 16);
	u->b[6] = (uint8_t)(0x40 | (u->b[6] & 0x0f)); /* version 0100 */
	u->b[8] = (uint8_t)(0x80 | (u->b[8] & 0x3f)); /* variant 10 */
}

int uuid_v4(struct uuid *u)
{
	uint8_t rnd[16];
	int rc = uuid_random_bytes(rnd, sizeof rnd);
	if (rc)
		return rc;
	uuid_v4_from_bytes(rnd, u);
	return 0;
}

static uint64_t system_unix_ms(void *arg)
{
	(void)arg;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void system_sleep(void *arg, uint64_t ms)
{
	(void)arg;
	struct timespec ts = {.tv_sec = (time_t)(ms / 1000),
			      .tv_nsec = (long)(ms % 1000) * 1000000};
	while (nanosleep(&ts, &ts) != 0)
		;
}

void uuid_v7_init(struct uuid_v7_gen *g, uint64_t (*now_ms)(void *),
		  void (*sleep_ms)(void *, uint64_t), void *arg)
{
	memset(g, 0, sizeof *g);
	g->now_ms = now_ms;
	g->sleep_ms = sleep_ms;
	g->arg = arg;
}

/* n random bytes from the pool, refilled in blocks: one getrandom per
 * ~28 values instead of one per value. */
static int take_random(struct uuid_v7_gen *g, uint8_t *out, size_t n)
{
	if (g->pool_left < n) {
		int rc = uuid_random_bytes(g->pool, sizeof g->pool);
		if (rc)
			return rc;
		g->pool_left = sizeof g->pool;
	}
	memcpy(out, g->pool + sizeof g->pool - g->pool_left, n);
	g->pool_left -= n;
	return 0;
}

int uuid_v7_next(struct uuid_v7_gen *g, struct uuid *u)
{
	uint64_t (*now_fn)(void *) = g->now_ms ? g->now_ms : system_unix_ms;
	void (*sleep_fn)(void *, uint64_t) = g->sleep_ms ? g->sleep_ms : system_sleep;
	uint64_t bound = g->max_wait_ms ? g->max_wait_ms : 1000;
	uint8_t rnd[10]; /* 2 for a counter seed, 8 for rand_b */
	int rc = take_random(g, rnd, sizeof rnd);
	if (rc)
		return rc;
	uint64_t now = now_fn(g->arg);
	uint32_t counter;

	if (g->have_last && now < g->last_ms) {
		g->behind++;
		now = g->last_ms; /* never go backwards: reuse the last ms */
	}
	if (g->have_last && now == g->last_ms) {
		if (g->counter < 0xfff) {
			counter = g->counter + 1;
		} else {
			/* Rollover: the RFC's choice of waiting for the next ms. */
			g->rollovers++;
			uint64_t waited = 0;
			while (now <= g->last_ms) {
				if (waited >= bound)
					return WB_EBUSY;
				sleep_fn(g->arg, 1);
				waited++;
				now = now_fn(g->arg);
			}
			counter = ((uint32_t)rnd[0] << 8 | rnd[1]) & 0x7ff;
		}
	} else {
		/* New ms: seed with 11 random bits, top bit 0 as the guard. */
		counter = ((uint32_t)rnd[0] << 8 | rnd[1]) & 0x7ff;
	}
	if (now >= (UINT64_C(1) << 48))
		return WB_ERANGE;
	for (int i = 0; i < 6; i++)
		u->b[i] = (uint8_t)(now >> (40 - 8 * i));
	u->b[6] = (uint8_t)(0x70 | (counter >> 8));
	u->b[7] = (uint8_t)(counter & 0xff);
	memcpy(u->b + 8, rnd + 2, 8);
	u->b[8] = (uint8_t)(0x80 | (u->b[8] & 0x3f));
	g->have_last = 1;
	g->last_ms = now;
	g->counter = counter;
	return 0;
}

int uuid_version(const struct uuid *u)
{
	return u->b[6] >> 4;
}

int uuid_variant(const struct uuid *u)
{
	return u->b[8] >> 6;
}

uint64_t uuid_v7_ms(const struct uuid *u)
{
	uint64_t ms = 0;
	for (int i = 0; i < 6; i++)
		ms = ms << 8 | u->b[i];
	return ms;
}

uint32_t uuid_v7_rand_a(const struct uuid *u)
{
	return (uint32_t)(u->b[6] & 0x0f) << 8 | u->b[7];
}

int uuid_cmp(const struct uuid *a, const struct uuid *b)
{
	return memcmp(a->b, b->b, 16);
}

void uuid_format(const struct uuid *u, char out[UUID_STR_LEN])
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hex[u->b[i] >> 4];
		out[k++] = hex[u->b[i] & 0xf];
	}
	out[k] = '\0';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int uuid_parse(const char *s, struct uuid *u)
{
	struct uuid tmp;
	size_t k = 0;
	if (!s || strlen(s) != 36)
		return WB_EINVAL;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10) {
			if (s[k++] != '-')
				return WB_EINVAL;
		}
		int hi = hexval(s[k++]), lo = hexval(s[k++]);
		if (hi < 0 || lo < 0)
			return WB_EINVAL;
		tmp.b[i] = (uint8_t)(hi << 4 | lo);
	}
	*u = tmp;
	return 0;
}

void uuid_bits(const struct uuid *u, char out[UUID_BITS_LEN])
{
	size_t k = 0;
	for (int bit = 0; bit < 128; bit++) {
		if (bit == 48 || bit == 52 || bit == 64 || bit == 66)
			out[k++] = ' ';
		out[k++] = (u->b[bit / 8] >> (7 - bit % 8)) & 1 ? '1' : '0';
	}
	out[k] = '\0';
}

double uuid_v4_collision_p(double n)
{
	if (n < 2)
		return 0;
	return -expm1(-n * (n - 1) / ldexp(1.0, 123));
}

double uuid_v4_n_for_p(double p)
{
	if (p <= 0)
		return 0;
	if (p >= 1)
		return INFINITY;
	return sqrt(ldexp(1.0, 123) * -log1p(-p));
}
