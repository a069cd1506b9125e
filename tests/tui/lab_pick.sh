# lab_pick.sh - with several lab cards on screen the learner picks the one
# Enter runs: the picked card is marked ▶, Tab moves the mark to the next
# card, Enter runs the marked one; with no card on screen Enter says so.
# (ux.md problem 13: Enter used to run the topmost card, and did nothing,
# silently, with none.)
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$WORKBENCH_RUN_BASE" && chmod 700 "$WORKBENCH_RUN_BASE"
tui_start 100 30 "--db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "? help"
keys g
screen | grep -q "│ Lab " && fail "a lab card is on the first page: the test needs one without"
keys Enter
wait_for "No lab card on screen"
keys / z k - l o c k - r a c e Enter
wait_for "Match 1 of"
n=0
until screen | grep -q "│ Lab zk-lock-chain" && screen | grep -q "│ Lab zk-lock-race"; do
	n=$((n + 1))
	[ $n -gt 40 ] && fail "zk-lock-chain and zk-lock-race never shared the screen"
	keys k
	wait_for "? help"
done
wait_for "▶│ Lab zk-lock-chain"
screen | grep -q "▶│ Lab zk-lock-race" && fail "two cards are marked"
keys Tab
wait_for "▶│ Lab zk-lock-race"
screen | grep -q "▶│ Lab zk-lock-chain" && fail "the mark did not move"
keys Enter
wait_for "Lab zk-lock-race —"
keys q
wait_for "▶│ Lab zk-lock-race"
keys q q
wait_for "EXITED:0"
echo ok
