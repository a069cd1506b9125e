#!/bin/sh
# exercise check: the runner around an exercise's check (cli/exercise_check.c,
# docs/exercises.md §4).  An unknown id and an exercise not started are
# usage errors; a file that does not compile fails on the check "builds"
# with the compiler's file:line; learner code that crashes or hangs fails
# the run (a hang is stopped by the wall limit) and leaves no process and
# no run folder behind.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/run" XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/progress.db"
mkdir -p "$WORKBENCH_RUN_BASE"

rc=0
"$WB_BIN" exercise check no-such-exercise >"$T/o" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "unknown id exited $rc"
grep -q "no exercise 'no-such-exercise'" "$T/o" || fail "unknown id: $(cat "$T/o")"

rc=0
"$WB_BIN" exercise check zk-lock-step >"$T/o" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "not started exited $rc"
grep -q "is not started" "$T/o" || fail "not started: $(cat "$T/o")"

# A syntax error on line 4.
printf '#include "api.h"\nint wbx_lock_step(const char *own, const char *const *c, size_t n,\n\tchar *w, size_t len)\n{ return 0 }\n' >"$T/bad.c"
rc=0
"$WB_BIN" exercise check zk-lock-step --file "$T/bad.c" >"$T/o" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "a file that does not compile exited $rc: $(cat "$T/o")"
grep -q '✘ builds' "$T/o" || fail "no failed check 'builds': $(cat "$T/o")"
grep -q "bad.c:4" "$T/o" || fail "the compiler's message does not name bad.c:4: $(cat "$T/o")"
check_lab_left zk-lock-step

# A crash in learner code ends only the worker.
printf '#include "api.h"\n#include <stddef.h>\nint wbx_lock_step(const char *own, const char *const *c, size_t n, char *w, size_t len)\n{ (void)own; (void)c; (void)n; (void)w; (void)len; return *(volatile int *)NULL; }\n' >"$T/crash.c"
rc=0
"$WB_BIN" exercise check zk-lock-step --file "$T/crash.c" >"$T/o" 2>&1 || rc=$?
[ $rc -eq 2 ] && skip "no ZooKeeper here: $(tail -n 3 "$T/o")"
[ $rc -eq 1 ] || fail "a crashing file exited $rc: $(cat "$T/o")"
# A sanitized build's worker reports the SEGV itself (and exits 1).
grep -q -e 'died of signal' -e 'AddressSanitizer: SEGV' "$T/o" ||
	fail "no word of the crash: $(cat "$T/o")"
check_lab_left zk-lock-step

# A hang is stopped by the wall limit.
printf '#include "api.h"\nint wbx_lock_step(const char *own, const char *const *c, size_t n, char *w, size_t len)\n{ (void)own; (void)c; (void)n; (void)w; (void)len; for (;;) {} }\n' >"$T/hang.c"
rc=0
WORKBENCH_EXERCISE_TIMEOUT=3 "$WB_BIN" exercise check zk-lock-step --file "$T/hang.c" --json \
	>"$T/o" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "a hanging file exited $rc: $(cat "$T/o")"
grep -q '"t":"error","text":"stopped after the wall limit of 3 s' "$T/o" ||
	fail "no word of the wall limit: $(cat "$T/o")"
check_lab_left zk-lock-step
echo "exercise check: usage errors, build error, crash and hang all handled"
