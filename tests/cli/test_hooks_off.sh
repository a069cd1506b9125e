# test_hooks_off.sh - (reliability review r3 N17) the WORKBENCH_TEST_*
# hooks are off unless WORKBENCH_TEST=1 is set as well (base/testhook.h):
# a stray WORKBENCH_TEST_HOLD_AFTER in a learner's shell used to stop
# every lab for good.
#  - control: with WORKBENCH_TEST=1 the "start" hold of `quiz run` fires
#    (it writes to the FIFO and waits for "go"), so the hooks still work
#    for the tests that set both;
#  - without it the same hold, and WORKBENCH_TEST_HOLD_AFTER=2 on a lab
#    that records more than two processes, do nothing: both commands run
#    to their end.  A hook that fired would block for good (on the FIFO,
#    or in pause()); the timeouts only bound that failure.
. "$(dirname "$0")/../lib/common.sh"

export HOME="$T/home" XDG_DATA_HOME="$T/data" XDG_RUNTIME_DIR= WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$HOME"
unset WORKBENCH_TEST
mkfifo "$T/h.held" "$T/h.go"
quiz() { # DB: a self-test on stdin /dev/null (it starts, then pauses at EOF)
	"$WB_BIN" --db "$1" --lang en quiz run 01-locks-ids-leases --plain </dev/null >"$T/quiz.out" 2>&1
}

# Control: the hook fires when the hooks are on.
WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD=start:1 WORKBENCH_TEST_HOLD_FIFO="$T/h" quiz "$T/a.db" &
q=$!
said=$(timeout 60 cat "$T/h.held") || fail "control: the start hold did not fire with WORKBENCH_TEST=1"
[ "$said" = "start 1" ] || fail "control: the hold said '$said'"
echo go >"$T/h.go"
wait "$q"
echo "ok: control: WORKBENCH_TEST=1 turns the hooks on"

# Off: the same hold is ignored...
WORKBENCH_TEST_HOLD=start:1 WORKBENCH_TEST_HOLD_FIFO="$T/h" timeout 120 \
	"$WB_BIN" --db "$T/b.db" --lang en quiz run 01-locks-ids-leases --plain </dev/null >"$T/quiz.out" 2>&1
rc=$?
[ "$rc" -ne 124 ] || fail "WORKBENCH_TEST_HOLD without WORKBENCH_TEST held the quiz"
grep -q "Test paused" "$T/quiz.out" || fail "the quiz did not run to its end: $(cat "$T/quiz.out")"
# ... and so is WORKBENCH_TEST_HOLD_AFTER (id-collision records its
# supervisor and forked workers: more than two processes).
WORKBENCH_TEST_HOLD_AFTER=2 timeout 120 "$WB_BIN" --db "$T/b.db" lab run id-collision >"$T/lab.out" 2>&1
rc=$?
[ "$rc" -ne 124 ] || fail "WORKBENCH_TEST_HOLD_AFTER=2 without WORKBENCH_TEST stopped the lab for good"
[ "$rc" -eq 0 ] || fail "id-collision: exit $rc: $(cat "$T/lab.out")"
[ "$(awk 'END { print NR }' "$WORKBENCH_RUN_BASE"/run-*/pids 2>/dev/null)" = "" ] ||
	fail "the passing run left its folder"
# WORKBENCH_TEST set to anything but 1 keeps them off.
WORKBENCH_TEST=yes WORKBENCH_TEST_HOLD_AFTER=2 timeout 120 "$WB_BIN" --db "$T/b.db" lab run id-collision >"$T/lab.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "WORKBENCH_TEST=yes: id-collision exit $rc: $(cat "$T/lab.out")"
echo "ok: without WORKBENCH_TEST=1 the hooks do nothing"
echo ok
