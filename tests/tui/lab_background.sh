# lab_background.sh - a running lab goes on while another screen covers
# it: s opens the recipe source during the run, and while the source view
# stays on top the lab finishes, its run is stored and the TUI reaps its
# child; back on the lab screen the verdict is shown.  (Before the main
# loop polled every screen, only the top screen was ticked: the finished
# child stayed a zombie and its output unread until the learner came back.)
#
# The moment is fixed by zkserver's test hook (WORKBENCH_TEST_ZK_READY_DIR):
# the lab stops after its ZooKeeper is up until the test opens the gate.
. "$(dirname "$0")/../lib/common.sh"

command -v java >/dev/null || { echo "ok (skipped: no java for ZooKeeper)"; exit 0; }
"$WB_BIN" lab list | grep -q '^zk-lock-chain ' || { echo "ok (skipped: no zk-lock-chain)"; exit 0; }

DB="$T/progress.db"
mkdir -p "$T/runs" "$T/hook"
mkfifo "$T/hook/ready" "$T/hook/go"
NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 100 -y 30 \
	"env WORKBENCH_RUN_BASE=$T/runs WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR=$T/hook LC_ALL=C.UTF-8 TERM=xterm-256color $WB_BIN --db $DB --lang en$EXIT_MARK"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "? help"
keys / z k - l o c k - c h a i n Enter
wait_for "Enter runs it here"
keys Enter
wait_for "Lab zk-lock-chain"
# The lab's ZooKeeper is up and the lab waits at the gate.
cat "$T/hook/ready" >/dev/null
tui=$(pgrep -P "$(tmux -L "$SOCK" list-panes -t wb -F '#{pane_pid}')" | head -n 1)
sup=$(pgrep -P "$tui" | head -n 1)
[ -n "$sup" ] || fail "no lab child under the TUI"
keys s
wait_for "zklock.c"
: >"$T/hook/go" # open the gate: the lab runs on under the source view

deadline=$(($(date +%s) + 90))
while [ "$(sqlite3 "$DB" "SELECT count(*) FROM lab_runs WHERE lab = 'zk-lock-chain'" 2>/dev/null)" != 1 ]; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "the run was not stored while the source view was on top"
	sleep 0.05
done
deadline=$(($(date +%s) + 60))
while [ -e "/proc/$sup" ]; do
	[ "$(date +%s)" -ge "$deadline" ] &&
		fail "the lab child $sup was not reaped while the source view was on top ($(awk '{ print $3 }' "/proc/$sup/stat"))"
	sleep 0.05
done
screen | grep -q "zklock.c" || fail "the source view is no longer on top"
keys q
wait_for "PASS ✔"
screen | grep -q "✘" && fail "a check failed"
keys q q q
wait_for "EXITED:0"
echo ok
