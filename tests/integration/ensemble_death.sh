# ensemble_death.sh - (reliability review r3 N16) the JVM that runs an
# ensemble lab's servers (zk-stale-read, zk-sync-partition) is killed in
# the middle of the lab: the lab says "the ZooKeeper server (pid N, the
# JVM of all 3 members) died" and ends
# as could-not-run (exit 2, no failed check), and nothing of the run
# survives.  Before, the lab went on to its deadlines and failed four
# checks 82-127 s later.
#
# The kill happens at a known point, never after a sleep: the lab stops
# at its lab-step hold (WORKBENCH_TEST_HOLD=lab-step:1, once the servers
# are up and the lab's sessions are open), the JVM is SIGKILLed and the test waits until it is
# dead (a zombie of the lab's worker), then lets the lab go on.  The
# deadlines only bound a failure; the time it took is printed, not
# checked.
. "$(dirname "$0")/../lib/common.sh"
command -v java >/dev/null 2>&1 || [ -n "${JAVA:-}" ] || skip "no java"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db" HOME="$T/home"
export XDG_CACHE_HOME="$T/cache" XDG_RUNTIME_DIR=
mkdir -p "$HOME"
lab_pid=
finish() {
	for p in $(pgrep -f -- "$T/" 2>/dev/null); do
		[ "$p" != "$lab_pid" ] && kill -KILL "$p" 2>/dev/null
	done
	[ -n "$lab_pid" ] && kill -KILL "$lab_pid" 2>/dev/null
	cleanup
}
trap finish EXIT INT TERM

# dead PID: the process has exited (a zombie until its parent reaps it).
dead() { ! [ -d "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

# died_at_step ID N: run lab ID (N servers in one JVM) to its lab-step
# hold, kill the JVM, let the lab go on: exit 2 with the message, no
# failed check, the verdict last, nothing left.
died_at_step() {
	id=$1 n=$2
	rm -f "$T/h.held" "$T/h.go" && mkfifo "$T/h.held" "$T/h.go"
	rm -rf "$WORKBENCH_RUN_BASE"
	WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD=lab-step:1 WORKBENCH_TEST_HOLD_FIFO="$T/h" \
		"$WB_BIN" lab run "$id" --json >"$T/$id.json" 2>"$T/$id.err" &
	lab_pid=$!
	timeout 180 cat "$T/h.held" >/dev/null || fail "$id never reached its lab-step: $(cat "$T/$id.json")"
	# The servers' JVM: the live "java" the run recorded (the launcher's
	# javac and jar, also "java", have ended).
	java=
	for p in $(awk '$3 == "java" { print $1 }' "$WORKBENCH_RUN_BASE"/run-*/pids); do
		dead "$p" || java=$p
	done
	[ -n "$java" ] || fail "$id: no live JVM in $(cat "$WORKBENCH_RUN_BASE"/run-*/pids)"
	kill -9 "$java"
	deadline=$(($(date +%s) + 30))
	until dead "$java"; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "$id: the JVM $java survived SIGKILL"
		sleep 0.05
	done
	start=$(date +%s)
	echo go >"$T/h.go"

	deadline=$(($(date +%s) + 300))
	while kill -0 "$lab_pid" 2>/dev/null; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "$id: still running 300 s after the kill"
		sleep 0.1
	done
	wait "$lab_pid"
	rc=$?
	lab_pid=
	took=$(($(date +%s) - start))
	[ "$rc" -eq 2 ] || fail "$id: exit $rc, want 2 (could not run): $(cat "$T/$id.json")"
	grep -q "the ZooKeeper server (pid $java, the JVM of all $n members) died: killed by signal 9" "$T/$id.json" ||
		fail "$id: no 'the ZooKeeper server (pid $java, ...) died: killed by signal 9': $(cat "$T/$id.json")"
	grep -q '"ok":false' "$T/$id.json" && fail "$id: a failed check: $(grep '"ok":false' "$T/$id.json")"
	tail -n 1 "$T/$id.json" | grep -q '^{"t":"verdict","pass":false' ||
		fail "$id: last line is not the verdict: $(tail -n 1 "$T/$id.json")"
	left=$(lab_leftovers "$id")
	[ -z "$left" ] || fail "$id: processes left: $left"
	echo "ok: $id: the JVM's death ends the lab as could-not-run (${took} s after the kill)"
}

died_at_step zk-stale-read 3
died_at_step zk-sync-partition 5
echo ok
