# timeline.sh - the lab screen's timeline view at 80x24: t shows the run's
# operation history as lanes across time (the scale, every operation's
# label, the marks, the witness and the checker's verdict), t again the
# run; help lists the key; at 80x14 j/k, PgDn/PgUp, G/g scroll the lanes
# while the scale stays.  Until the labs write history events the run's
# history comes from the stale-read fixture through the test seam
# WORKBENCH_TEST_TIMELINE_EVENTS (tui/timelineview.h); the lab run is
# real (task-takeover, SQLite only).
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$WORKBENCH_RUN_BASE" && chmod 700 "$WORKBENCH_RUN_BASE"
export WORKBENCH_TEST=1 WORKBENCH_TEST_TIMELINE_EVENTS="$WB_FIXTURES/timeline/stale-read.jsonl"

open_lab() {
	wait_for "Lock recipes, IDs and task leases"
	keys Enter
	wait_for "? help"
	keys / t a s k - t a k e o v e r Enter
	wait_for "Enter runs it here"
	keys Enter
	wait_for "Lab task-takeover"
	wait_for "PASS ✔"
}

tui_start 80 24 "--db $DB --lang en"
open_lab
keys t
wait_for "ms    4200"
for want in "┣━" "write 1" "read->0" "sync-read->1" "write-barrier b" "write 2->?" \
	"read->2" "◆ tells B: x=1 done" "◆ leaves the quorum" "≈" "┊" \
	"linearizable: invalid - B read 0 after A's write of 1 had completed"; do
	screen | grep -qF -- "$want" || fail "the timeline view lacks '$want'"
done
[ "$(screen | max_width)" -le 80 ] || fail "a line wider than 80"
screen | grep -q "What this run showed:" && fail "the events are still shown under the timeline"
keys '?'
wait_for "timeline of the run's operations"
keys q
wait_for "ms    4200"
keys t
wait_for "What this run showed:"
screen | grep -q "ms    4200" && fail "t did not go back to the run"
keys q
wait_for "? help"
keys q
wait_for "labs passed"
keys q
wait_for "EXITED:0"

# A short screen: the lanes scroll under the scale.
tui_start 80 14 "--db $DB --lang en"
open_lab
keys t
wait_for "ms    4200"
wait_for "A      ┣━"
screen | grep -q "linearizable: invalid" && fail "the whole view fits at 80x14: nothing to scroll"
keys j
wait_gone "A      ┣━"
screen | grep -q "ms    4200" || fail "the scale scrolled away"
keys k
wait_for "A      ┣━"
keys G
wait_for "linearizable: invalid"
screen | grep -q "ms    4200" || fail "the scale is gone at the end"
keys g
wait_for "A      ┣━"
keys NPage
wait_gone "A      ┣━"
keys PPage
wait_for "A      ┣━"
keys q
wait_for "? help"
keys q
wait_for "labs passed"
keys q
wait_for "EXITED:0"
echo ok
