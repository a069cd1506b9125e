/*
 * uuid.h - RFC 9562 UUIDv4 (random) and UUIDv7 (Unix ms + counter +
 * random) from getrandom(2), their bit layouts, and the v4 collision
 * arithmetic.
 *
 *  UUIDv7 (big-endian, bit 0 = most significant):
 *   0                     47 48  51 52        63 64 65 66                 127
 *  ┌────────────────────────┬──────┬────────────┬─────┬──────────────────────┐
 *  │ unix_ts_ms (48 bits)   │ ver  │ rand_a (12)│ var │ rand_b (62 bits)     │
 *  │                        │ 0111 │  counter   │ 10  │                      │
 *  └────────────────────────┴──────┴────────────┴─────┴──────────────────────┘
 *  UUIDv4: the same version (0100) and variant (10) positions; the other
 *  122 bits random.
 *
 * Monotonic v7 is RFC 9562 section 6.2 method 1 ("fixed bit-length
 * dedicated counter"): rand_a is a 12-bit counter, seeded at each new ms
 * with 11 random bits (the top bit 0 as a rollover guard) and incremented
 * within the ms; when it would pass 4095 the generator waits for the next
 * ms.  A clock reading behind the last ms reuses the last ms (the counter
 * goes on), so one generator's values never go backwards.
 *
 * What this file deliberately does not do: v1/v3/v5/v6/v8, node ids, or
 * ordering across generators (two generators' v7 values compare by two
 * clocks).  Collision figures assume a good random source; the id-uuid lab
 * shows what a cloned seed does.
 */
#ifndef WB_UUID_H
#define WB_UUID_H

#include <stddef.h>
#include <stdint.h>

/* 36 characters "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" and a NUL. */
#define UUID_STR_LEN 37

struct uuid {
	uint8_t b[16]; /* network (big-endian) byte order, as RFC 9562 draws it */
};

/* Fills buf with n bytes from getrandom(2) (retries short reads and
 * EINTR).  Returns 0 or WB_EIO. */
int uuid_random_bytes(void *buf, size_t n);

/* Makes a v4 from 16 given bytes: keeps 122 of their bits and sets the
 * version 0100 and the variant 10.  For callers that bring their own
 * random source (the lab's deliberately cloned one). */
void uuid_v4_from_bytes(const uint8_t rnd[16], struct uuid *u);

/* A fresh v4 from getrandom.  Returns 0 or WB_EIO. */
int uuid_v4(struct uuid *u);

/* A v7 generator's state.  Zero-initialise, or use uuid_v7_init. */
struct uuid_v7_gen {
	uint64_t (*now_ms)(void *arg);		  /* NULL: Unix ms from CLOCK_REALTIME */
	void (*sleep_ms)(void *arg, uint64_t ms); /* NULL: nanosleep */
	void *arg;				  /* passed to both */
	uint64_t max_wait_ms; /* longest wait for the next ms on rollover; 0: 1000 */
	int have_last;	      /* last_ms/counter are meaningful */
	uint64_t last_ms;     /* unix_ts_ms of the last value */
	uint32_t counter;     /* rand_a of the last value */
	uint64_t rollovers;   /* counter overflows waited out */
	uint64_t behind;      /* clock readings behind last_ms (last_ms reused) */
	uint8_t pool[256];    /* random bytes not yet used */
	size_t pool_left;     /* how many of pool's last bytes are unused */
};

/* Resets g with the given clock (NULL functions: the system clock). */
void uuid_v7_init(struct uuid_v7_gen *g, uint64_t (*now_ms)(void *),
		  void (*sleep_ms)(void *, uint64_t), void *arg);

/* The next v7, strictly greater (by uuid_cmp) than every earlier value of
 * this generator.  Returns 0, WB_EIO (no randomness), WB_ERANGE (time past
 * 48 bits) or WB_EBUSY (counter exhausted and the clock did not pass
 * last_ms within max_wait_ms). */
int uuid_v7_next(struct uuid_v7_gen *g, struct uuid *u);

/* Field access.  uuid_version returns the 4 version bits; uuid_variant
 * returns the 2 top bits of octet 8 (2 = binary 10, the RFC variant). */
int uuid_version(const struct uuid *u);
int uuid_variant(const struct uuid *u);
uint64_t uuid_v7_ms(const struct uuid *u);
uint32_t uuid_v7_rand_a(const struct uuid *u);

/* Byte order = time order for v7.  Returns <0, 0, >0 like memcmp. */
int uuid_cmp(const struct uuid *a, const struct uuid *b);

/* Lower-case 8-4-4-4-12 text. */
void uuid_format(const struct uuid *u, char out[UUID_STR_LEN]);
/* Parses 8-4-4-4-12 text (either case).  Returns 0 or WB_EINVAL. */
int uuid_parse(const char *s, struct uuid *u);

/* Writes the 128 bits as 0/1 characters, a space between the v7 fields
 * (48 4 12 2 62).  out must hold UUID_BITS_LEN bytes. */
#define UUID_BITS_LEN (128 + 4 + 1)
void uuid_bits(const struct uuid *u, char out[UUID_BITS_LEN]);

/* Birthday bound for n random v4 ids (122 random bits): the probability
 * that at least two are equal, 1 - exp(-n(n-1) / 2^123), computed with
 * expm1 so tiny values keep their digits. */
double uuid_v4_collision_p(double n);
/* The n at which that probability reaches p (0 < p < 1):
 * sqrt(2^123 * ln(1 / (1 - p))). */
double uuid_v4_n_for_p(double p);

#endif
