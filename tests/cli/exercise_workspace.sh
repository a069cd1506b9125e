#!/bin/sh
# exercise_workspace.sh - the learner's side of an exercise without
# running a check (cli/exercise_{list,start,hint,reset,solution}.c,
# core/exercise_ws.c): list shows every exercise and its state; start
# copies the starter (and api.h) into a private workspace, prints the task
# off a terminal and never overwrites the learner's file; an unknown id
# gets a suggestion; hint reveals one hint at a time and records it;
# reset and solution refuse without --yes off a terminal, and with it
# keep a backup / show the sanitised reference, recorded in progress.db.
. "$(dirname "$0")/../lib/common.sh"

export XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/progress.db"
W="$WB_BIN --lang en"
WS="$T/data/workbench/exercises/zk-lock-step"
ID=zk-lock-step

$W exercise list >"$T/o" 2>&1 || fail "list: $(cat "$T/o")"
grep -q "^01  $ID .* not started  0/3 " "$T/o" || fail "list before start: $(cat "$T/o")"

rc=0
$W exercise start zk-lock-stp >"$T/o" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "unknown id exited $rc"
grep -q "unknown exercise 'zk-lock-stp' (did you mean '$ID'?)" "$T/o" || fail "no suggestion: $(cat "$T/o")"
[ -e "$T/data" ] && fail "an unknown id made the workspace"

$W exercise start $ID </dev/null >"$T/o" 2>&1 || fail "start: $(cat "$T/o")"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
cmp -s "$WS/lock_step.c" "$SRC/exercises/$ID/starter.c" || fail "starter not copied"
[ -f "$WS/api.h" ] || fail "api.h not copied"
[ "$(stat -c %a "$WS")" = 700 ] || fail "workspace mode $(stat -c %a "$WS")"
grep -q "Your file: $WS/lock_step.c" "$T/o" || fail "no path: $(cat "$T/o")"
grep -q "wbx_lock_step" "$T/o" || fail "no task text off a terminal: $(cat "$T/o")"

# The learner's edit survives a second start.
echo "/* mine */" >"$WS/lock_step.c"
$W exercise start $ID --no-edit >"$T/o" 2>&1 || fail "second start: $(cat "$T/o")"
grep -q "Already started" "$T/o" || fail "no word that the file is kept: $(cat "$T/o")"
[ "$(cat "$WS/lock_step.c")" = "/* mine */" ] || fail "start overwrote the learner's file"
$W exercise list >"$T/o" 2>&1
grep -q "^01  $ID .* failing      0/3 " "$T/o" || fail "list after start: $(cat "$T/o")"

# Hints: one at a time, recorded, the fourth ask repeats the last.
$W exercise hint $ID --all >"$T/o" 2>&1 || fail "hint --all: $(cat "$T/o")"
grep -q "No hint revealed yet" "$T/o" || fail "hint --all before any: $(cat "$T/o")"
for n in 1 2 3; do
	$W exercise hint $ID >"$T/o" 2>&1 || fail "hint $n: $(cat "$T/o")"
	grep -q "^Hint $n of 3: " "$T/o" || fail "hint $n: $(cat "$T/o")"
done
$W exercise hint $ID >"$T/o" 2>&1 || fail "hint 4: $(cat "$T/o")"
grep -q "All 3 hints are revealed" "$T/o" || fail "fourth hint: $(cat "$T/o")"
$W exercise hint $ID --all >"$T/o" 2>&1
[ "$(grep -c '^Hint [123] of 3: ' "$T/o")" -eq 3 ] || fail "hint --all: $(cat "$T/o")"
$W --lang zh exercise hint $ID --all >"$T/o" 2>&1
grep -q "^提示 1/3" "$T/o" || fail "Chinese hints: $(cat "$T/o")"
$W exercise list >"$T/o" 2>&1
grep -q "^01  $ID .* 3/3 " "$T/o" || fail "hints not recorded: $(cat "$T/o")"

# Reset: refused off a terminal without --yes; with it, a backup.
rc=0
$W exercise reset $ID </dev/null >"$T/o" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "reset without --yes exited $rc"
grep -q "pass --yes" "$T/o" || fail "reset without --yes: $(cat "$T/o")"
[ "$(cat "$WS/lock_step.c")" = "/* mine */" ] || fail "a refused reset changed the file"
$W exercise reset $ID --yes >"$T/o" 2>&1 || fail "reset: $(cat "$T/o")"
bak=$(ls "$WS" | grep '^lock_step\.c\.bak-[0-9]\{8\}-[0-9]\{6\}$')
[ -n "$bak" ] || fail "no backup: $(ls "$WS")"
[ "$(cat "$WS/$bak")" = "/* mine */" ] || fail "backup does not hold the learner's file"
grep -q "wbx_lock_step" "$WS/lock_step.c" || fail "reset did not restore the starter"

# Solution: refused without --yes, then shown and recorded.
rc=0
$W exercise solution $ID </dev/null >"$T/o" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "solution without --yes exited $rc"
grep -q "wbx_lock_step" "$T/o" && fail "solution shown without a confirmation"
$W exercise solution $ID --yes >"$T/o" 2>&1 || fail "solution: $(cat "$T/o")"
grep -q "^Reference solution of $ID" "$T/o" || fail "solution: $(cat "$T/o")"
grep -q "wbx_lock_step" "$T/o" || fail "solution text missing: $(cat "$T/o")"

# The export carries the state another tool reads.
$W progress export --format json >"$T/x.json" 2>"$T/e" || fail "export: $(cat "$T/e")"
python3 - "$T/x.json" <<'PY' || fail "export: $(cat "$T/x.json")"
import json, sys
d = json.load(open(sys.argv[1]))
(e,) = [x for x in d["exercises"] if x["id"] == "zk-lock-step"]
assert e["hints"] == 3 and e["solution_seen"] is True and e["passed"] is False, e
assert e["attempts"] == 0 and e["started"], e
PY
echo "ok"
