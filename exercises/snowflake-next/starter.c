// snowflake.c: the next id of a Snowflake-style generator.
// Read api.h first: it says what the workbench gives you (the clock, the
// durable reservation, the state struct) and what each id must satisfy.
// The rules the check judges (the task: `workbench exercise start snowflake-next`):
//   ids-increase               every id above every earlier one, also across restarts
//   id-layout                  (t << 22) | (worker << 12) | seq, t reached by the clock, 41 bits
//   clock-behind-waits         wait for a clock that is behind, at most max_wait_ms in all
//   full-ms-waits              after seq 4095 wait for the next ms; never wrap
//   reserve-before-issue       every t below a reservation made durable before it
//   reserve-failure-is-eio     reserve() failed: return WBX_EIO, issue nothing
//   restart-above-reservation  first id after a restart: t >= resumed_from
//   issues-when-able           a free slot within reach and a working reserve(): an id
#include "api.h"

int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id)
{
	// TODO 1: read the clock; if it is behind g->last_ms, wait for it
	//         (at most g->max_wait_ms), else return WBX_EBUSY.
	// TODO 2: in the same ms, take the next sequence number; when 4095
	//         was used, wait for the next ms instead of wrapping to 0.
	// TODO 3: before issuing a t at or past g->reserved_until, call
	//         g->persist.reserve(g->persist.arg, t + g->reserve_ms).
	// TODO 4: after a restart (g->resumed_from > 0), start above it.
	(void)g;
	(void)id;
	return WBX_EIO;
}
