# zk_server_death.sh - (#20 F9) the lab's own ZooKeeper server is killed
# in the middle of a lab: the lab says "the ZooKeeper server (pid N) died"
# and ends as could-not-run (exit 2, no failed check), and nothing of the
# run survives.  The kill happens at a known point, never after a sleep:
#  - zk-fencing: at its lab-step hold (WORKBENCH_TEST_HOLD=lab-step:1),
#    when A's traffic is held and B waits for the lock (the review's case:
#    a 30 s wait that ended in a failed check);
#  - zk-cas: at zkserver's ready hook, after the server answered and
#    before the lab's first client connects.
# The deadlines below only bound a failure.
. "$(dirname "$0")/../lib/common.sh"
command -v java >/dev/null 2>&1 || [ -n "${JAVA:-}" ] || skip "no java"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"
lab_pid=
finish() {
	for p in $(pgrep -f -- "$T/" 2>/dev/null); do
		[ "$p" != "$lab_pid" ] && kill -KILL "$p" 2>/dev/null
	done
	[ -n "$lab_pid" ] && kill -KILL "$lab_pid" 2>/dev/null
	cleanup
}
trap finish EXIT INT TERM

# died ID: after the lab was started in the background ($lab_pid) and the
# server killed, the lab ends with exit 2 and the message.
died() {
	id=$1 java=$2
	deadline=$(($(date +%s) + 120))
	while kill -0 "$lab_pid" 2>/dev/null; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "$id: still running 120 s after the kill"
		sleep 0.1
	done
	wait "$lab_pid"
	rc=$?
	lab_pid=
	[ "$rc" -eq 2 ] || fail "$id: exit $rc, want 2 (could not run): $(cat "$T/$id.json")"
	grep -q "the ZooKeeper server (pid $java) died" "$T/$id.json" ||
		fail "$id: no 'the ZooKeeper server (pid $java) died': $(cat "$T/$id.json")"
	grep -q '"ok":false' "$T/$id.json" && fail "$id: a failed check: $(grep '"ok":false' "$T/$id.json")"
	tail -n 1 "$T/$id.json" | grep -q '^{"t":"verdict","pass":false' ||
		fail "$id: last line is not the verdict: $(tail -n 1 "$T/$id.json")"
	left=$(lab_leftovers "$id")
	[ -z "$left" ] || fail "$id: processes left: $left"
}

mkdir "$T/hook"
mkfifo "$T/hook/ready" "$T/hook/go" "$T/h.held" "$T/h.go"

# ---- zk-fencing, killed while B waits for the lock ----
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" WORKBENCH_TEST_HOLD=lab-step:1 WORKBENCH_TEST_HOLD_FIFO="$T/h" \
	"$WB_BIN" lab run zk-fencing --json >"$T/zk-fencing.json" 2>"$T/zk-fencing.err" &
lab_pid=$!
java=$(timeout 120 cat "$T/hook/ready") || fail "zk-fencing: no server: $(cat "$T/zk-fencing.json")"
: >"$T/hook/go"
timeout 120 cat "$T/h.held" >/dev/null || fail "zk-fencing never reached its lab-step"
kill -9 "$java"
echo go >"$T/h.go"
died zk-fencing "$java"

# ---- zk-cas, killed before its first client connects ----
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" "$WB_BIN" lab run zk-cas --json >"$T/zk-cas.json" 2>"$T/zk-cas.err" &
lab_pid=$!
java=$(timeout 120 cat "$T/hook/ready") || fail "zk-cas: no server: $(cat "$T/zk-cas.json")"
kill -9 "$java"
: >"$T/hook/go"
died zk-cas "$java"
echo ok
