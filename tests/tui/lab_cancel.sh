# lab_cancel.sh - Esc on a running lab does not freeze the screen: the lab
# screen shows "cancelling…" and answers keys (here ? opens help) while
# the child has not stopped yet, then shows "cancelled" once it has.
#
# The child is held where it cannot stop: the lab is stopped for good at
# its 5th process (WORKBENCH_TEST_HOLD_AFTER, harness/proc.c) and its
# supervisor is SIGSTOPped before Esc, so the SIGTERM stays pending until
# the test sends SIGCONT; WORKBENCH_TEST_CANCEL_GRACE_MS keeps the TUI
# from escalating to SIGKILL meanwhile.  (Before, cancel() waited in the
# key handler up to 3 s and then SIGKILLed: help opened only after the
# child was gone.)
. "$(dirname "$0")/../lib/common.sh"

"$WB_BIN" lab list | grep -q '^task-claim ' || { echo "ok (skipped: no task-claim)"; exit 0; }

DB="$T/progress.db"
RUNS="$T/runs"
mkdir -p "$RUNS"
NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 100 -y 30 \
	"env WORKBENCH_RUN_BASE=$RUNS WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD_AFTER=5 WORKBENCH_TEST_CANCEL_GRACE_MS=600000 LC_ALL=C.UTF-8 TERM=xterm-256color $WB_BIN --db $DB --lang en$EXIT_MARK"
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
pids=$(cat "$RUNS"/run-*/pids | awk '{ print $1 }')
tui=$(pgrep -P "$(tmux -L "$SOCK" list-panes -t wb -F '#{pane_pid}')" | head -n 1)
sup=$(pgrep -P "$tui" | head -n 1)
[ -n "$sup" ] || fail "no lab child under the TUI"
kill -STOP "$sup"

keys Escape
keys '?'
wait_for "Keys on this screen"
[ -e "/proc/$sup" ] || fail "the child is gone: the screen answered only after it was"
screen | grep -q "cancelling…" || fail "the status line does not say the lab is cancelling"
kill -CONT "$sup"
keys x
wait_for "cancelled"
deadline=$(($(date +%s) + 60))
while [ -e "/proc/$sup" ]; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "the cancelled child $sup was not reaped"
	sleep 0.05
done
for p in $pids; do
	while [ -r "/proc/$p/stat" ] && ! awk '{ exit !($3 == "Z") }' "/proc/$p/stat"; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "process $p of the cancelled lab survived"
		sleep 0.05
	done
done
keys q q q
wait_for "EXITED:0"
echo ok
