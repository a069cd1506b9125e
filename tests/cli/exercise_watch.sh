#!/bin/sh
# exercise_watch.sh - `exercise watch` (cli/exercise_watch.c): it checks
# once at the start, again after every save of the learner's file (a
# write in place, and an editor's write-to-temporary-and-rename), not for
# other files in the workspace; SIGINT stops it, exit 0, and no process
# (the watcher, its check, the check's worker) is left.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/run" XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/progress.db"
mkdir -p "$WORKBENCH_RUN_BASE"
W="$WB_BIN --lang en"
ID=zk-lock-step
WS="$T/data/workbench/exercises/$ID"
SRC=$(cd "$(dirname "$0")/../.." && pwd)

rc=0
$W exercise watch $ID >"$T/o" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "watch of an exercise not started exited $rc"
grep -q "is not started yet" "$T/o" || fail "not started: $(cat "$T/o")"

$W exercise start $ID --no-edit >/dev/null 2>&1 || fail "start"
$W exercise watch $ID >"$T/w" 2>&1 &
pid=$!

# wait_out TEXT: until the watcher's output holds TEXT (or 60 s).
wait_out() {
	deadline=$(($(date +%s) + 60))
	until grep -q -- "$1" "$T/w"; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "timed out waiting for '$1': $(cat "$T/w")"
		kill -0 $pid 2>/dev/null || fail "the watcher ended: $(cat "$T/w")"
		sleep 0.05
	done
}
wait_out "^-- check 1 of $ID: "
grep -q "^-- check 1 of $ID: could not run" "$T/w" && {
	kill -INT $pid
	wait $pid
	skip "the check could not run here: $(cat "$T/w")"
}
grep -q "^-- check 1 of $ID: failing" "$T/w" || fail "the starter did not fail: $(cat "$T/w")"

# Another file in the workspace is no save of the learner's.
echo x >"$WS/notes.txt"
# The solution written in place: a second check, which passes.
cat "$SRC/exercises/$ID/solution.c" >"$WS/lock_step.c"
wait_out "^-- check 2 of $ID: passed"
# An editor's save by rename: a third check.
cp "$SRC/exercises/$ID/starter.c" "$WS/.lock_step.c.swp"
mv "$WS/.lock_step.c.swp" "$WS/lock_step.c"
wait_out "^-- check 3 of $ID: failing"
grep -q "^-- check 4 " "$T/w" && fail "an unrelated file or a burst ran extra checks: $(cat "$T/w")"

kill -INT $pid
rc=0
wait $pid || rc=$?
[ $rc -eq 0 ] || fail "watch exited $rc after SIGINT: $(cat "$T/w")"
grep -q "Stopped watching" "$T/w" || fail "no stop message: $(cat "$T/w")"
kill -0 $pid 2>/dev/null && fail "the watcher is still there"
check_lab_left $ID
# The checks ran with --db $T/progress.db: none may be left (other tests
# run checks of the same exercise in parallel, so match our database).
left=$(pgrep -f -- "--db $T/progress.db" || true)
[ -z "$left" ] || fail "a check is left: $left"
echo ok
