# lab_cancel_note.sh - Esc on a running lab: the clock stops at once, and
# once the child is gone the screen confirms what the cancel stopped (the
# run's processes, counted) and removed (its run folder, which is gone at
# that point, not kept until the next lab starts).  (ux.md problem 10.)
#
# The lab is held at its 5th process (WORKBENCH_TEST_HOLD_AFTER,
# harness/proc.c), so it is still running when Esc comes.
. "$(dirname "$0")/../lib/common.sh"

"$WB_BIN" lab list | grep -q '^task-claim ' || skip "no task-claim in this build"

DB="$T/progress.db"
RUNS="$T/runs"
mkdir -p "$RUNS" && chmod 700 "$RUNS"
NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 100 -y 30 \
	"env WORKBENCH_RUN_BASE=$RUNS WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD_AFTER=5 LC_ALL=C.UTF-8 TERM=xterm-256color $WB_BIN --db $DB --lang en$EXIT_MARK"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "? help"
keys / t a s k - c l a i m Enter
wait_for "Enter runs it here"
keys Enter
wait_for "Lab task-claim"
deadline=$(($(date +%s) + 90))
until [ "$(cat "$RUNS"/run-*/pids 2>/dev/null | wc -l)" -ge 5 ]; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "the lab never reached its hold point"
	sleep 0.05
done
keys Escape
wait_for "Cancelled: the "
screen | grep -q "Cancelled: the [0-9]* processes the run started are stopped and its run folder is removed." ||
	fail "the cancel does not say what it stopped and removed"
for d in "$RUNS"/run-*; do
	[ -e "$d" ] && fail "the cancelled run's folder $d is still there"
done
# The clock stood still: the same time now and a second and a half later.
clock() { screen | tail -n 1 | grep -o '[0-9]*\.[0-9] s'; }
first=$(clock)
[ -n "$first" ] || fail "no clock on the status line"
until_t=$(($(date +%s) + 2))
while [ "$(date +%s)" -lt "$until_t" ]; do
	[ "$(clock)" = "$first" ] || fail "the clock runs on after the cancel: $first, then $(clock)"
	sleep 0.2
done
keys q q q
wait_for "EXITED:0"
echo ok
