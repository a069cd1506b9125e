# orphans.sh - after SIGINT, SIGTERM or SIGKILL of the workbench during
# each kind of lab (single ZooKeeper server, ensemble, redis, forked SQLite
# workers), no process of that run survives the next start.
#
# The lab is stopped at a known point with the WORKBENCH_TEST_HOLD_AFTER
# hook (harness/proc.c): the process that records the N-th process of the
# run blocks there, with servers and workers alive.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$WORKBENCH_RUN_BASE"
DB="$T/p.db"

# alive PID: running and not a zombie.
alive() { [ -r "/proc/$1/stat" ] && ! awk '{ exit !($3 == "Z") }' "/proc/$1/stat" 2>/dev/null; }

# pids_of_run: every pid recorded in any run directory.
pids_of_run() { cat "$WORKBENCH_RUN_BASE"/run-*/pids 2>/dev/null | awk '{ print $1 }'; }

wait_recorded() { # N: until some run directory has recorded N processes
	deadline=$(($(date +%s) + 90))
	while :; do
		for f in "$WORKBENCH_RUN_BASE"/run-*/pids; do
			[ -f "$f" ] && [ "$(wc -l <"$f")" -ge "$1" ] && return 0
		done
		[ "$(date +%s)" -ge "$deadline" ] && fail "the lab never recorded $1 processes"
		sleep 0.05
	done
}

wait_dead() { # PIDS...: until none is alive (the kernel delivers PDEATHSIG asynchronously)
	deadline=$(($(date +%s) + 60))
	for p in "$@"; do
		while alive "$p"; do
			[ "$(date +%s)" -ge "$deadline" ] && return 1
			sleep 0.05
		done
	done
	return 0
}

check() { # LAB HOLD_AT SIGNAL
	lab=$1 hold=$2 sig=$3
	WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD_AFTER=$hold "$WB_BIN" --db "$DB" lab run "$lab" >"$T/out" 2>&1 &
	sup=$!
	wait_recorded "$hold"
	pids=$(pids_of_run)
	for p in $pids; do alive "$p" || fail "$lab: recorded process $p is not running at the hold point"; done
	kill -s "$sig" "$sup"
	wait "$sup" 2>/dev/null || true
	if [ "$sig" != KILL ]; then
		wait_dead $pids || fail "$lab after SIG$sig: processes left: $(for p in $pids; do alive $p && cat /proc/$p/cmdline | tr '\0' ' '; done)"
	fi
	# The next start reaps whatever is left, then runs normally.
	"$WB_BIN" --db "$DB" lab run task-takeover >/dev/null 2>&1 || fail "the next lab run failed"
	wait_dead $pids || fail "$lab after SIG$sig: survived the next start: $pids"
	ls "$WORKBENCH_RUN_BASE" | grep -q . && fail "$lab after SIG$sig: run directory left: $(ls "$WORKBENCH_RUN_BASE")"
	echo "ok: $lab SIG$sig"
}

labs=$("$WB_BIN" lab list | awk '{ print $1 }')
has() { echo "$labs" | grep -qx "$1"; }

# The ensemble's shared-JVM launcher is compiled on first use (recorded
# processes of their own): build it now, so that the hold point below is
# the lab and the JVM, whatever the cache held.
has zk-stale-read && { "$WB_BIN" --db "$DB" lab run zk-stale-read >/dev/null 2>&1 || true; }

for sig in INT TERM KILL; do
	has zk-cas && check zk-cas 2 $sig
	has redis-lock && check redis-lock 2 $sig
	has task-claim && check task-claim 5 $sig
	has zk-stale-read && check zk-stale-read 2 $sig # the lab, then its ensemble's one JVM
done

# The TUI: SIGKILL the workbench while a lab card runs.
NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 100 -y 30 \
	"env WORKBENCH_RUN_BASE=$WORKBENCH_RUN_BASE WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD_AFTER=2 LC_ALL=C.UTF-8 TERM=xterm-256color $WB_BIN --db $DB --lang en$EXIT_MARK"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "? help"
keys / z k - c a s Enter
wait_for "Enter runs it here"
keys Enter
wait_for "Lab zk-cas"
wait_recorded 2
pids=$(pids_of_run)
# The TUI is the pane shell's child; the lab run supervisor is its child,
# and every recorded process descends from that.  (The worker and the
# ZooKeeper server it starts are recorded in either order.)
ppid_of() { awk '{ print $4 }' "/proc/$1/stat"; }
# is_lab_run PID: one of its arguments is the word "lab" (a path that
# contains "lab", such as a checkout in .../labs/, does not count).
is_lab_run() { tr '\0' '\n' <"/proc/$1/cmdline" | grep -qx lab; }
tui=$(pgrep -P "$(tmux -L "$SOCK" list-panes -t wb -F '#{pane_pid}')" | head -n 1)
[ -n "$tui" ] || fail "no TUI process under the tmux pane"
is_lab_run "$tui" && fail "process $tui is not the TUI"
for p in $pids; do
	a=$p
	while [ "$(ppid_of "$a")" != "$tui" ]; do
		a=$(ppid_of "$a")
		[ "$a" -gt 1 ] || fail "recorded process $p does not descend from the TUI $tui"
	done
	is_lab_run "$a" || fail "process $a is not the lab supervisor"
done
kill -9 "$tui"
wait_for "EXITED:137"
"$WB_BIN" --db "$DB" lab run task-takeover >/dev/null 2>&1 || fail "the next lab run failed"
wait_dead $pids || fail "TUI SIGKILL: processes survived the next start"
echo ok
