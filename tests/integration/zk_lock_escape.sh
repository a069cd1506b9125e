# zk_lock_escape.sh - (reliability review r3 N10) `workbench zk-lock`
# stops COMMAND's descendants that left its process group (setsid) too,
# before the lock is released:
#  - COMMAND exits while a setsid'd child runs: the child gets SIGTERM
#    and zk-lock returns COMMAND's status only once the child is gone;
#  - the holder's zk-lock is SIGKILLed while COMMAND's setsid'd child,
#    which ignores SIGTERM, appends ticks to a log: the next holder, queued
#    (its hook says when), logs START then END, and no tick of the dead
#    holder's child comes after START (the log is appended in order).
# Every step waits for an event (a FIFO, a file, the next holder's
# hook); the deadlines only bound a failure.
#
# The server is the one a lab starts, paused by zkserver's test hook, as
# in zk_lock_cli.sh.
. "$(dirname "$0")/../lib/common.sh"
command -v java >/dev/null 2>&1 || [ -n "${JAVA:-}" ] || skip "no java"
command -v setsid >/dev/null 2>&1 || skip "no setsid"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"
lab_pid=
finish() {
	for p in $(pgrep -f -- "$T/" 2>/dev/null); do
		[ "$p" != "$lab_pid" ] && kill -KILL "$p" 2>/dev/null
	done
	if [ -n "$lab_pid" ]; then
		: >"$T/hook/go" &
		wait "$lab_pid" 2>/dev/null
	fi
	cleanup
}
trap finish EXIT INT TERM

mkdir "$T/hook"
mkfifo "$T/hook/ready" "$T/hook/go"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" "$WB_BIN" lab run zk-lock-race >"$T/lab.txt" 2>&1 &
lab_pid=$!
java_pid=$(timeout 120 cat "$T/hook/ready") || fail "no server: $(cat "$T/lab.txt")"
run_dir=$(tr '\0' '\n' <"/proc/$java_pid/cmdline" | sed -n 's|/zk/zoo.cfg$||p' | head -n 1)
port=$(sed -n 's/^clientPort=//p' "$run_dir/zk/zoo.cfg")
[ -n "$port" ] || fail "no clientPort in $run_dir/zk/zoo.cfg"
ZK="127.0.0.1:$port"
alive() { [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

# ---- COMMAND ends, its setsid'd child still runs ----
mkfifo "$T/e_ready"
"$WB_BIN" zk-lock --zk "$ZK" --path /locks/e -- sh -c '
	setsid sh -c "trap \"echo got-term >>\\\"\$1\\\"; exit 0\" TERM; echo \$\$ >\"\$2\"; echo up >\"\$3\"; while :; do sleep 0.05; done" sh "$1" "$2" "$3" &
	cat "$3" >/dev/null
	exit 3' sh "$T/e_term" "$T/e_pid" "$T/e_ready" 2>"$T/e_err"
rc=$?
[ "$rc" -eq 3 ] || fail "COMMAND's status 3 not returned: $rc ($(cat "$T/e_err"))"
e_pid=$(cat "$T/e_pid")
[ -n "$e_pid" ] || fail "the setsid'd child never started"
alive "$e_pid" && fail "the setsid'd child $e_pid still runs after zk-lock returned"
grep -q got-term "$T/e_term" 2>/dev/null || fail "the setsid'd child was not sent SIGTERM"
echo "ok: a setsid'd child is stopped (SIGTERM) before zk-lock returns"

# ---- the holder is SIGKILLed: nothing of it runs once the next one starts ----
: >"$T/glog"
mkfifo "$T/g_in" "$T/h2_waiting"
"$WB_BIN" zk-lock --zk "$ZK" --path /locks/escape --kill-after 1 -- sh -c '
	setsid sh -c "trap \"\" TERM; echo \$\$ >\"\$3\"; while :; do echo \"H1 tick\" >>\"\$1\"; sleep 0.05; done" sh "$1" "$2" "$3" &
	echo in >"$2"
	wait' sh "$T/glog" "$T/g_in" "$T/g_pid" &
h1=$!
timeout 30 cat "$T/g_in" >/dev/null || fail "H1 never started"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_LOCK_WAITING="$T/h2_waiting" "$WB_BIN" zk-lock --zk "$ZK" --path /locks/escape -- \
	sh -c 'echo "H2 START" >>"$1"; sleep 1; echo "H2 END" >>"$1"' sh "$T/glog" 2>"$T/h2_err" &
h2=$!
timeout 30 cat "$T/h2_waiting" >/dev/null || fail "H2 never queued behind H1"
deadline=$(($(date +%s) + 30))
until grep -q "H1 tick" "$T/glog"; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "H1's setsid'd child wrote no tick"
	sleep 0.05
done
g_pid=$(cat "$T/g_pid")
kill -9 "$h1"
wait "$h1" 2>/dev/null
deadline=$(($(date +%s) + 60))
until grep -q "H2 END" "$T/glog"; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "H2 never finished: $(cat "$T/h2_err")"
	sleep 0.1
done
wait "$h2" || fail "H2 exited non-zero: $(cat "$T/h2_err")"
after=$(sed -n '/H2 START/,$p' "$T/glog" | grep -c "H1 tick")
[ "$after" -eq 0 ] || fail "$after ticks of H1's setsid'd child were written after H2 START"
alive "$g_pid" && fail "H1's setsid'd child $g_pid still runs"
echo "ok: the dead holder's setsid'd child (SIGTERM ignored) was gone before the next holder started"

: >"$T/hook/go"
wait "$lab_pid"
rc=$?
lab_pid=
[ "$rc" -eq 0 ] || fail "the lab under the hook failed ($rc): $(cat "$T/lab.txt")"
echo ok
