// expect-fail: clock-behind-waits
// Gives up at once when the clock is behind instead of waiting for it: a
// 20 ms step back and a restart just below the reservation both fail.
#include "api.h"

// Waits until the clock reads at least target, sleeping at most
// max_wait_ms in total.  0 with *now updated, or WBX_EBUSY.
static int wait_for(struct wbx_snowflake *g, uint64_t *now, uint64_t target)
{
	uint64_t waited = 0;
	while (*now < target) {
		if (waited >= g->max_wait_ms)
			return WBX_EBUSY;
		uint64_t step = target - *now;
		if (step > g->max_wait_ms - waited)
			step = g->max_wait_ms - waited;
		g->clock.sleep_ms(g->clock.arg, step);
		waited += step;
		*now = g->clock.now_ms(g->clock.arg);
	}
	return 0;
}

int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id)
{
	uint64_t now = g->clock.now_ms(g->clock.arg);
	uint32_t seq = 0;

	// After a restart: the previous life may have used every slot below
	// its reservation, so behave as if (R - 1, 4095) was the last id.
	if (!g->have_last && g->resumed_from > 0) {
		g->have_last = 1;
		g->last_ms = g->resumed_from - 1;
		g->seq = WBX_SEQ_MAX;
		g->reserved_until = g->resumed_from;
	}
	// The clock is behind the last issued ms: wait (bounded), never reuse.
	if (g->have_last && now < g->last_ms)
		return WBX_EBUSY;
	// Same ms: the next slot; all 4096 used: wait for the next ms.
	if (g->have_last && now == g->last_ms) {
		if (g->seq < WBX_SEQ_MAX)
			seq = g->seq + 1;
		else if (wait_for(g, &now, g->last_ms + 1))
			return WBX_EBUSY;
	}
	if (now >> WBX_TIME_BITS)
		return WBX_ERANGE;
	// Never past the durable reservation without committing a new one.
	if (now >= g->reserved_until) {
		uint64_t until = now + g->reserve_ms;
		if (g->persist.reserve(g->persist.arg, until) != 0)
			return WBX_EIO;
		g->reserved_until = until;
	}
	*id = (int64_t)((now << (WBX_WORKER_BITS + WBX_SEQ_BITS)) |
			((uint64_t)g->worker << WBX_SEQ_BITS) | seq);
	g->have_last = 1;
	g->last_ms = now;
	g->seq = seq;
	return 0;
}
