# zk_lock_cli.sh - `workbench zk-lock` (flock for ZooKeeper) against a real
# server: usage errors exit 2 with a message; COMMAND runs with the fencing
# token and the lock path in its environment and its exit status comes
# back; two invocations on one path serialize (the second is known to be
# queued through the CLI's test hook, a FIFO, not by sleeping); --wait 0
# and --wait N give up with exit 1; a waiting invocation cancelled by
# SIGTERM leaves no candidate behind; a lost session (server frozen with
# SIGSTOP past the session timeout) SIGTERMs COMMAND and exits 75; and
# (#20 F4) COMMAND's whole process group is stopped, also when it ignores
# SIGTERM, both when the session is lost and when zk-lock is SIGKILLed:
# no tick of the dead holder's grandchild after the next holder's START.
#
# The server is the one a lab starts, paused by zkserver's test hook
# (WORKBENCH_TEST_ZK_READY_DIR): the lab writes the JVM's pid into a FIFO
# and blocks until we close "go", so the server lives exactly as long as
# this script needs it and is reaped by the lab afterwards.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

lab_pid=
java_pid=
finish() {
	[ -n "$java_pid" ] && kill -CONT "$java_pid" 2>/dev/null
	# After a failure: stop what this script started that still runs
	# (every such process names a file under $T).
	# SIGKILL: a leftover of a failed F4 check ignores SIGTERM.
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

# ---- usage errors, no server needed ----
usage() { # expected-text args...: exit 2 and the text on stderr
	want=$1
	shift
	"$WB_BIN" zk-lock "$@" >/dev/null 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "zk-lock $*: exit $rc, want 2"
	grep -q -- "$want" "$T/err" || fail "zk-lock $*: no '$want' in: $(cat "$T/err")"
	grep -q '^usage: workbench zk-lock' "$T/err" || fail "zk-lock $*: no usage line"
}
usage "--zk HOST:PORT is required" --path /locks/a -- true
usage "--path /locks/NAME is required" --zk 127.0.0.1:1 -- true
usage "must be an absolute ZooKeeper path" --zk 127.0.0.1:1 --path locks/a -- true
usage "must be an absolute ZooKeeper path" --zk 127.0.0.1:1 --path /locks/a/ -- true
usage "no COMMAND given" --zk 127.0.0.1:1 --path /locks/a
usage "--wait wants seconds" --zk 127.0.0.1:1 --path /locks/a --wait soon -- true
usage "--wait wants seconds" --zk 127.0.0.1:1 --path /locks/a --wait -1 -- true
usage "unknown option '--frobnicate'" --zk 127.0.0.1:1 --path /locks/a --frobnicate -- true
usage "--zk needs a value" --path /locks/a --zk
"$WB_BIN" --help | grep -q "zk-lock" || fail "--help does not list zk-lock"

# ---- a real server ----
mkdir "$T/hook"
mkfifo "$T/hook/ready" "$T/hook/go"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" "$WB_BIN" lab run zk-lock-race >"$T/lab.txt" 2>&1 &
lab_pid=$!
java_pid=$(timeout 120 cat "$T/hook/ready") || fail "no server: $(cat "$T/lab.txt")"
run_dir=$(tr '\0' '\n' <"/proc/$java_pid/cmdline" | sed -n 's|/zk/zoo.cfg$||p' | head -n 1)
port=$(sed -n 's/^clientPort=//p' "$run_dir/zk/zoo.cfg")
[ -n "$port" ] || fail "no clientPort in $run_dir/zk/zoo.cfg"
ZK="127.0.0.1:$port"
# Foreground only: for background runs, $! must be the workbench itself.
lock() { "$WB_BIN" zk-lock --zk "$ZK" "$@"; }

# Unreachable: exit 1 with a message.
"$WB_BIN" zk-lock --zk 127.0.0.1:1 --path /locks/a --wait 1 -- true 2>"$T/err"
[ $? -eq 1 ] || fail "unreachable server must exit 1"
grep -q "cannot connect to ZooKeeper" "$T/err" || fail "unreachable message: $(cat "$T/err")"

# The environment and the exit status.
out=$(lock --path /locks/env -- sh -c 'echo "$WORKBENCH_FENCE_TOKEN|$WORKBENCH_LOCK_PATH|$WORKBENCH_LOCK_NODE"')
[ $? -eq 0 ] || fail "zk-lock true exited non-zero"
token=${out%%|*}
rest=${out#*|}
case "$token" in '' | *[!0-9]*) fail "WORKBENCH_FENCE_TOKEN not a number: '$out'" ;; esac
[ "${rest%%|*}" = /locks/env ] || fail "WORKBENCH_LOCK_PATH: '$out'"
case "${rest#*|}" in /locks/env/_c_*-lock-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;;
*) fail "WORKBENCH_LOCK_NODE is not a Curator protected name: '$out'" ;; esac
out2=$(lock --path /locks/env -- sh -c 'echo "$WORKBENCH_FENCE_TOKEN"')
[ "$out2" -gt "$token" ] || fail "the next holder's token $out2 is not above $token"
lock --path /locks/rc -- sh -c 'exit 7'
[ $? -eq 7 ] || fail "COMMAND's exit status 7 not returned"
lock --path /locks/rc -- sh -c 'kill -TERM $$'
[ $? -eq 143 ] || fail "COMMAND killed by SIGTERM must give 143"
lock --path /locks/rc -- /nonexistent/cmd 2>"$T/err"
[ $? -eq 127 ] || fail "a missing COMMAND must give 127"

# ---- two invocations serialize ----
mkfifo "$T/a_in" "$T/a_go" "$T/b_waiting"
"$WB_BIN" zk-lock --zk "$ZK" --path /locks/s -- \
	sh -c 'echo A-in >>"$1"; echo in >"$2"; cat "$3" >/dev/null; echo A-out >>"$1"' \
	sh "$T/log" "$T/a_in" "$T/a_go" &
a=$!
timeout 30 cat "$T/a_in" >/dev/null || fail "A never got the lock"
# Held: a look without waiting, and a bounded wait, both give up.
lock --path /locks/s --wait 0 -- true 2>"$T/err"
[ $? -eq 1 ] || fail "--wait 0 on a held lock must exit 1"
grep -q "held by another" "$T/err" || fail "--wait 0 message: $(cat "$T/err")"
lock --path /locks/s --wait 0.3 -- true 2>"$T/err"
[ $? -eq 1 ] || fail "--wait 0.3 on a held lock must exit 1"
# B queues behind A; the hook tells us when its watch on A is set.
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_LOCK_WAITING="$T/b_waiting" "$WB_BIN" zk-lock --zk "$ZK" --path /locks/s -- \
	sh -c 'echo B-in >>"$1"; echo B-out >>"$1"' sh "$T/log" &
b=$!
timeout 30 cat "$T/b_waiting" >"$T/b_said" || fail "B never queued"
grep -q '^waiting /locks/s/_c_' "$T/b_said" || fail "B's hook: $(cat "$T/b_said")"
[ "$(cat "$T/log")" = "A-in" ] || fail "B entered while A held the lock: $(cat "$T/log")"
# A third waiter is cancelled with SIGTERM while queued: exit 143 and no
# candidate left behind (checked below: a --wait 0 succeeds at the end).
mkfifo "$T/c_waiting"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_LOCK_WAITING="$T/c_waiting" "$WB_BIN" zk-lock --zk "$ZK" --path /locks/s -- \
	sh -c 'echo C-in >>"$1"' sh "$T/log" 2>"$T/c_err" &
c=$!
timeout 30 cat "$T/c_waiting" >/dev/null || fail "C never queued"
kill -TERM "$c"
wait "$c"
[ $? -eq 143 ] || fail "a waiting zk-lock cancelled by SIGTERM must exit 143"
grep -q "interrupted while waiting" "$T/c_err" || fail "cancel message: $(cat "$T/c_err")"
echo go >"$T/a_go"
wait "$a" || fail "A exited non-zero"
wait "$b" || fail "B exited non-zero"
[ "$(tr '\n' ' ' <"$T/log")" = "A-in A-out B-in B-out " ] ||
	fail "not serialized: $(tr '\n' ' ' <"$T/log")"
lock --path /locks/s --wait 0 -- true || fail "the lock is not free after A and B (C left a candidate?)"

# ---- the session is lost while COMMAND runs ----
mkfifo "$T/l_in"
"$WB_BIN" zk-lock --zk "$ZK" --path /locks/lost --session-timeout 1 -- \
	sh -c 'trap "echo got-term >\"\$1\"; kill \$!; exit 0" TERM; echo in >"$2"; sleep 300 & wait' \
	sh "$T/term" "$T/l_in" 2>"$T/lost_err" &
l=$!
timeout 30 cat "$T/l_in" >/dev/null || fail "the lost-session holder never started"
kill -STOP "$java_pid"
wait "$l"
rc=$?
kill -CONT "$java_pid"
[ "$rc" -eq 75 ] || fail "lost session: exit $rc, want 75: $(cat "$T/lost_err")"
grep -q "got-term" "$T/term" || fail "COMMAND was not sent SIGTERM"
grep -q "lock lost" "$T/lost_err" || fail "no 'lock lost' message: $(cat "$T/lost_err")"

# ---- (#20 F4) the lost session stops COMMAND's whole group ----
# COMMAND ignores SIGTERM and has a child that ignores it too: zk-lock
# exits 75 only once both are gone (SIGKILL after --kill-after).
mkfifo "$T/l2_in"
"$WB_BIN" zk-lock --zk "$ZK" --path /locks/lost2 --session-timeout 1 --kill-after 0.5 -- \
	sh -c 'trap "" TERM; (trap "" TERM; while :; do sleep 0.05; done) & echo $! >"$2"; echo in >"$1"; wait' \
	sh "$T/l2_in" "$T/l2_pid" 2>"$T/lost2_err" &
l=$!
timeout 30 cat "$T/l2_in" >/dev/null || fail "the second lost-session holder never started"
kill -STOP "$java_pid"
wait "$l"
rc=$?
kill -CONT "$java_pid"
[ "$rc" -eq 75 ] || fail "lost session, TERM ignored: exit $rc, want 75: $(cat "$T/lost2_err")"
kill -0 "$(cat "$T/l2_pid")" 2>/dev/null &&
	fail "COMMAND's child still runs after zk-lock said the lock was lost"

# ---- (#20 F4) zk-lock SIGKILLed: nothing of H1 runs once H2 starts ----
# H1's COMMAND ignores SIGTERM and its child (a grandchild of zk-lock)
# appends ticks to a log; H2 queues behind H1 (its hook says when); H1's
# zk-lock is SIGKILLed; when H1's session expires H2 takes the lock and
# logs START, works, then END.  The log is appended in order, so a tick
# after START is a real overlap.
: >"$T/glog"
mkfifo "$T/g_in" "$T/h2_waiting"
"$WB_BIN" zk-lock --zk "$ZK" --path /locks/grand --kill-after 1 -- \
	sh -c 'trap "" TERM; (trap "" TERM; while :; do echo "H1 tick" >>"$1"; sleep 0.05; done) & echo $! >"$3"; echo in >"$2"; wait' \
	sh "$T/glog" "$T/g_in" "$T/g_pid" &
h1=$!
timeout 30 cat "$T/g_in" >/dev/null || fail "H1 never started"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_LOCK_WAITING="$T/h2_waiting" "$WB_BIN" zk-lock --zk "$ZK" --path /locks/grand -- \
	sh -c 'echo "H2 START" >>"$1"; sleep 1; echo "H2 END" >>"$1"' sh "$T/glog" 2>"$T/h2_err" &
h2=$!
timeout 30 cat "$T/h2_waiting" >/dev/null || fail "H2 never queued behind H1"
grep -q "H1 tick" "$T/glog" || fail "H1 wrote no tick"
kill -9 "$h1"
wait "$h1" 2>/dev/null
deadline=$(($(date +%s) + 60))
until grep -q "H2 END" "$T/glog"; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "H2 never finished: $(cat "$T/h2_err")"
	sleep 0.1
done
wait "$h2" || fail "H2 exited non-zero: $(cat "$T/h2_err")"
after=$(sed -n '/H2 START/,$p' "$T/glog" | grep -c "H1 tick")
[ "$after" -eq 0 ] || fail "$after ticks of H1 were written after H2 START: $(tr '\n' ' ' <"$T/glog")"
kill -0 "$(cat "$T/g_pid")" 2>/dev/null && fail "H1's grandchild still runs"

# Let the lab finish: it must still pass on this server.
: >"$T/hook/go"
wait "$lab_pid"
rc=$?
lab_pid=
[ "$rc" -eq 0 ] || fail "the lab under the hook failed ($rc): $(cat "$T/lab.txt")"
echo ok
