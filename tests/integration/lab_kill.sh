# lab_kill.sh - no orphans: SIGKILL `workbench lab run zk-cas` while its
# ZooKeeper server is up, and show that no java process of that run
# survives, and that the next `workbench lab run` start removes the dead
# run's directory.  SIGTERM is handled by the supervisor itself (it exits
# 2 and kills what the run recorded).  Then the reaping path itself: a
# recorded process of a run whose owner is dead (a stand-in that
# PDEATHSIG cannot reach, started by this script) is killed by the next
# start.
#
# The moment is fixed by zkserver's test hook (WORKBENCH_TEST_ZK_READY_DIR):
# the lab writes the JVM's pid into a FIFO once the server answers and then
# blocks, so nothing here sleeps to hit a window.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

alive() { # pid: running and not a zombie
	[ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$state" ] && [ "$state" != Z ]
}

# wait_dead PID SECONDS: until PID is gone, or fail.
wait_dead() {
	deadline=$(($(date +%s) + $2))
	while alive "$1"; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "process $1 still alive after $2 s"
		sleep 0.05
	done
}

mkdir "$T/hook"
mkfifo "$T/hook/ready" "$T/hook/go"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" "$WB_BIN" lab run zk-cas >"$T/run1.txt" 2>&1 &
wb=$!
java_pid=$(timeout 120 cat "$T/hook/ready") || fail "the server never became ready: $(cat "$T/run1.txt")"
[ -n "$java_pid" ] || fail "no java pid from the hook"
alive "$java_pid" || fail "java $java_pid is not running while the lab waits"
grep -q java "/proc/$java_pid/cmdline" || fail "pid $java_pid is not a java process"
run_dir=$(tr '\0' '\n' <"/proc/$java_pid/cmdline" | sed -n 's|/zk/zoo.cfg$||p' | head -n 1)
case "$run_dir" in "$T"/runs/run-*) ;; *) fail "unexpected run directory '$run_dir'" ;; esac
grep -q "^$java_pid " "$run_dir/pids" || fail "java $java_pid not recorded in $run_dir/pids"

kill -KILL "$wb"
wait "$wb" 2>/dev/null
# The kernel kills the worker and then the JVM (PR_SET_PDEATHSIG).
wait_dead "$java_pid" 10
[ -d "$run_dir" ] || fail "the killed run's directory vanished before the next start"

# The next start reaps the dead run's directory and passes.
"$WB_BIN" lab run zk-cas >"$T/run2.txt" 2>&1 || fail "next run failed: $(cat "$T/run2.txt")"
[ -d "$run_dir" ] && fail "the next start did not remove $run_dir"
alive "$java_pid" && fail "java $java_pid of the killed run survived the next start"
pgrep -f "java.*$T/runs" >/dev/null && fail "a java process of this test is still running"

# SIGTERM (what a terminal or the TUI's cancel sends) is handled by the
# supervisor itself: it kills every recorded process and says so.
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" "$WB_BIN" lab run zk-cas >"$T/term.txt" 2>&1 &
wb=$!
java_pid=$(timeout 120 cat "$T/hook/ready") || fail "the server never became ready: $(cat "$T/term.txt")"
alive "$java_pid" || fail "java $java_pid is not running while the lab waits"
kill -TERM "$wb"
deadline=$(($(date +%s) + 30))
while alive "$wb"; do
	if [ "$(date +%s)" -ge "$deadline" ]; then
		kill -KILL "$wb"
		fail "the workbench did not exit within 30 s of SIGTERM"
	fi
	sleep 0.05
done
wait "$wb"
rc=$?
[ "$rc" -eq 2 ] || fail "a cancelled lab exited $rc, want 2: $(cat "$T/term.txt")"
grep -q "lab zk-cas cancelled" "$T/term.txt" || fail "no cancel message: $(cat "$T/term.txt")"
# A cancelled run's folder goes at once (reliability review F19: it used to
# stay until the next lab run reaped it), and the message says so.
grep -q "run folder removed" "$T/term.txt" || fail "the cancel message does not say the folder went: $(cat "$T/term.txt")"
ls -d "$T"/runs/run-* >/dev/null 2>&1 && fail "a cancelled run's folder was kept: $(ls "$T/runs")"
# SIGKILL was sent; a JVM takes a moment to tear down its threads.
wait_dead "$java_pid" 10

# The reaping path: a run whose owner is dead, with a live recorded
# process that no parent-death signal will stop.
fake="$T/runs/run-fakeowner"
mkdir -p "$fake"
sh -c 'exec sleep 300' </dev/null >/dev/null 2>&1 &
stray=$!
# The record names the command the reaper will find: wait until the shell
# has exec'd sleep (a record made before would name "sh", and the reaper
# rightly leaves a process whose command does not match).
deadline=$(($(date +%s) + 30))
until [ "$(cat /proc/$stray/comm 2>/dev/null)" = sleep ]; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "the stray never became sleep"
	sleep 0.01
done
starttime=$(sed 's/.*) //' "/proc/$stray/stat" | cut -d' ' -f20)
# The record names the command too (the reaper checks it, see proc.c).
echo "$stray $starttime sleep" >"$fake/pids"
echo "2147483646 1" >"$fake/owner" # no such process: the owner is dead
"$WB_BIN" lab run zk-cas >"$T/run3.txt" 2>&1 || fail "third run failed: $(cat "$T/run3.txt")"
grep -q "stopped 1 process left by an earlier run" "$T/run3.txt" ||
	fail "no reaping message: $(cat "$T/run3.txt")"
wait "$stray" 2>/dev/null
alive "$stray" && fail "the recorded stray process $stray survived"
[ -d "$fake" ] && fail "the dead owner's run directory was not removed"
echo ok
