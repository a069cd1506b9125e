#!/bin/sh
# exercise_verify.sh - `exercise verify` (cli/exercise_verify.c) checks
# every started exercise: with none started it says so; the starter fails
# (exit 1, the failed checks named in the table) and the attempt is
# recorded; the reference solution passes (exit 0) and the exercise shows
# as passed in `exercise list`.  No run folder or process is left.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/run" XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/progress.db"
mkdir -p "$WORKBENCH_RUN_BASE"
W="$WB_BIN --lang en"
ID=zk-lock-step
SRC=$(cd "$(dirname "$0")/../.." && pwd)

$W exercise verify >"$T/o" 2>&1 || fail "verify with nothing started: $(cat "$T/o")"
grep -q "No exercise started yet" "$T/o" || fail "verify with nothing: $(cat "$T/o")"

$W exercise start $ID --no-edit >"$T/o" 2>&1 || fail "start: $(cat "$T/o")"
rc=0
$W exercise verify >"$T/o" 2>&1 || rc=$?
[ $rc -eq 2 ] && skip "the check could not run here: $(cat "$T/o")"
[ $rc -eq 1 ] || fail "verify of the starter exited $rc: $(cat "$T/o")"
grep -q "^01  $ID  *failing  *failed: [a-z]" "$T/o" || fail "no failing row: $(cat "$T/o")"
grep -q "^0 of 1 started exercises pass" "$T/o" || fail "summary: $(cat "$T/o")"
check_lab_left $ID

cp "$SRC/exercises/$ID/solution.c" "$T/data/workbench/exercises/$ID/lock_step.c"
$W exercise verify >"$T/o" 2>&1 || fail "verify of the solution: $(cat "$T/o")"
grep -q "^01  $ID  *passed" "$T/o" || fail "no passed row: $(cat "$T/o")"
grep -q "^1 of 1 started exercises pass" "$T/o" || fail "summary: $(cat "$T/o")"
check_lab_left $ID
$W exercise list --json >"$T/o" 2>&1
grep -q "\"id\":\"$ID\".*\"state\":\"passed\",\"attempts\":2" "$T/o" || fail "list after verify: $(cat "$T/o")"
echo ok
