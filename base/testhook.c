/*
 * testhook.c - the WORKBENCH_TEST_* seams (see testhook.h).
 *
 * The pass counters are per process and not locked: every point is
 * passed by the one thread that writes the progress database.  Nothing
 * here runs when the variables are unset beyond reading them, and every
 * variable reads as unset unless WORKBENCH_TEST=1 (testhook_enabled).
 */
#include "base/testhook.h"
#include "base/wb.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int testhook_enabled(void)
{
	const char *on = getenv("WORKBENCH_TEST");
	return on && !strcmp(on, "1");
}

/* getenv, with "" read as unset, and everything unset while the seams
 * are off. */
static const char *env(const char *name)
{
	if (!testhook_enabled())
		return NULL;
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

const char *testhook_hold_after(void)
{
	return env("WORKBENCH_TEST_HOLD_AFTER");
}

const char *testhook_db_spare_pages(void)
{
	return env("WORKBENCH_TEST_DB_SPARE_PAGES");
}

const char *testhook_zk_ready_dir(void)
{
	return env("WORKBENCH_TEST_ZK_READY_DIR");
}

const char *testhook_zk_taken_port(void)
{
	return env("WORKBENCH_TEST_ZK_TAKEN_PORT");
}

const char *testhook_zk_lock_waiting(void)
{
	return env("WORKBENCH_TEST_ZK_LOCK_WAITING");
}

const char *testhook_cancel_grace_ms(void)
{
	return env("WORKBENCH_TEST_CANCEL_GRACE_MS");
}

const char *testhook_timeline_events(void)
{
	return env("WORKBENCH_TEST_TIMELINE_EVENTS");
}

static const char *const hold_points[] = {"save", "start",  "start-begin",
					  "undo", "import", "lab-step"};
static int saves;				  /* testhook_kill_in_save's passes */
static int hold_count[WB_ARRAY_LEN(hold_points)]; /* testhook_hold's, by point */

void testhook_reset(void)
{
	saves = 0;
	memset(hold_count, 0, sizeof hold_count);
}

void testhook_kill_in_save(void)
{
	const char *k = env("WORKBENCH_TEST_KILL_IN_SAVE");
	saves++;
	if (k && atoi(k) == saves)
		raise(SIGKILL);
}

void testhook_hold(const char *what)
{
	const char *h = env("WORKBENCH_TEST_HOLD");
	const char *fifo = env("WORKBENCH_TEST_HOLD_FIFO");
	size_t k = 0, len = strlen(what);
	while (k < WB_ARRAY_LEN(hold_points) && strcmp(hold_points[k], what) != 0)
		k++;
	if (k == WB_ARRAY_LEN(hold_points))
		return;
	hold_count[k]++;
	if (!h || !fifo || strncmp(h, what, len) != 0 || h[len] != ':' ||
	    atoi(h + len + 1) != hold_count[k])
		return;
	char *held = wb_xasprintf("%s.held", fifo), *go = wb_xasprintf("%s.go", fifo);
	FILE *f = fopen(held, "w");
	if (f) {
		fprintf(f, "%s %d\n", what, hold_count[k]);
		fclose(f);
	}
	f = fopen(go, "r");
	if (f) {
		char line[64];
		(void)!fgets(line, sizeof line, f);
		fclose(f);
	}
	free(held);
	free(go);
}

/* One frame of a recursion that only a stack overflow ends: the frame
 * is used after the call, so it is no tail call and no loop. */
__attribute__((noinline)) static int deepen(volatile int n)
{
	volatile char pad[1024];
	pad[0] = (char)n;
	pad[sizeof pad - 1] = 0;
	if (n < 0)
		return 0; /* never: n only grows until the stack is gone */
	return deepen(n + 1) + pad[0] + pad[sizeof pad - 1];
}

void testhook_crash(void)
{
	static const struct {
		const char *how;
		int sig;
	} raised[] = {{"segv", SIGSEGV},
		      {"abort", SIGABRT},
		      {"fpe", SIGFPE},
		      {"ill", SIGILL},
		      {"bus", SIGBUS}};
	const char *how = env("WORKBENCH_TEST_CRASH");
	if (!how)
		return;
	if (!strcmp(how, "overflow")) {
		deepen(1);
		return;
	}
	for (size_t i = 0; i < WB_ARRAY_LEN(raised); i++)
		if (!strcmp(how, raised[i].how))
			raise(raised[i].sig);
}
