/* Exercise zk-lock-step: the task is TASK.md beside this file (`workbench
 * exercise start zk-lock-step` prints it too).  Write wbx_lock_step as
 * api.h describes.
 *
 * The rules the check judges:
 *   lowest-holds: the smallest sequence number gets WBX_HOLDER, every other
 *     lock node WBX_WAIT (the listing comes in no order)
 *   waits-on-predecessor: a waiter watches the lock node with the largest
 *     number below its own (gaps allowed), never the holder
 *   order-by-suffix: "_c_<GUID>-" names answer as the same numbers plainly
 *     named: order is the suffix, never the whole name
 *   skips-non-lock: children without "lock-" change no answer
 *   own-gone-is-error: own not among the children: WBX_ERROR
 *   unordered-suffix-is-error: a suffix that is not ten digits (a wrapped
 *     counter "-2147483648"): WBX_ERROR
 */
#include "api.h"

#include <stdlib.h>
#include <string.h>

int wbx_lock_step(const char *own, const char *const *children, size_t n, char *watch, size_t len)
{
	(void)own;
	(void)children;
	(void)n;
	(void)watch;
	(void)len;
	/* TODO: find own's sequence number, then the lock node just in front. */
	return WBX_ERROR;
}
