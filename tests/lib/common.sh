# common.sh - helpers for shell-driven tests (sourced, POSIX sh).
#
# Provides: fail, skip, a private temp dir ($T), tmux helpers that drive
# the real binary on a private tmux server, and check_lab_run for the lab
# tests.  Waiting is always for a condition (text on screen) with a
# deadline, never a bare sleep.

set -u
: "${WB_BIN:?WB_BIN must point at the workbench binary}"
: "${WB_FIXTURES:?WB_FIXTURES must point at tests/fixtures}"

T=$(mktemp -d /tmp/wb-test.XXXXXX)
SOCK="wbtest-$$-0"
NSOCK=0
cleanup() {
	i=0
	while [ $i -le $NSOCK ]; do
		tmux -L "wbtest-$$-$i" kill-server 2>/dev/null || true
		i=$((i + 1))
	done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	if tmux -L "$SOCK" has-session 2>/dev/null; then
		echo "--- screen ---" >&2
		tmux -L "$SOCK" capture-pane -p -t wb >&2 || true
	fi
	exit 1
}

# skip REASON: this test cannot run here (a missing dependency): exit 77,
# which ctest reports as "Skipped" (SKIP_RETURN_CODE in
# tests/CMakeLists.txt), never as a pass.
skip() {
	echo "SKIP: $*"
	exit 77
}

export LC_ALL=C.UTF-8 TERM=xterm-256color

# Appended to a tmux session's command: when the program ends, its exit
# status as EXITED:<rc> on a line of its own (CR LF first: a SIGKILLed
# ncurses program leaves the tty without output processing), then the pane
# stays for capture.
EXIT_MARK="; rc=\$?; printf '\\r\\nEXITED:%s\\r\\n' \$rc; sleep 30"

# tui_start COLS ROWS ARGS...: runs the workbench in a fresh tmux session.
tui_start() {
	# A fresh server each time: a server being killed can still take a
	# new session on the same socket and then vanish under it.
	NSOCK=$((NSOCK + 1))
	SOCK="wbtest-$$-$NSOCK"
	cols=$1 rows=$2
	shift 2
	tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x "$cols" -y "$rows" \
		"env NO_COLOR=${NO_COLOR:-} LC_ALL=C.UTF-8 TERM=xterm-256color $WB_BIN $*$EXIT_MARK"
}

screen() { tmux -L "$SOCK" capture-pane -p -t wb; }
keys() { tmux -L "$SOCK" send-keys -t wb "$@"; }

# The default deadline only bounds a failure (a passing wait returns as
# soon as the text is there): generous, for a sanitized build on a loaded
# machine.
WAIT_DEFAULT=60

# wait_for TEXT [SECONDS]: until TEXT is on screen, or fail.
wait_for() {
	deadline=$(($(date +%s) + ${2:-$WAIT_DEFAULT}))
	while :; do
		screen 2>/dev/null | grep -F -q -- "$1" && return 0
		[ "$(date +%s)" -ge "$deadline" ] && fail "timed out waiting for: $1"
		sleep 0.05
	done
}

# wait_gone TEXT [SECONDS]: until TEXT has left the screen, or fail.
wait_gone() {
	deadline=$(($(date +%s) + ${2:-$WAIT_DEFAULT}))
	while :; do
		screen 2>/dev/null | grep -F -q -- "$1" || return 0
		[ "$(date +%s)" -ge "$deadline" ] && fail "timed out waiting for '$1' to go"
		sleep 0.05
	done
}

# max_width: widest line of stdin in display columns (GNU wc -L).
max_width() { LC_ALL=C.UTF-8 wc -L | tr -d ' '; }

# lab_leftovers ID: pids of processes of this test's lab runs that are
# still alive: any whose command line mentions $WORKBENCH_RUN_BASE (a
# server started in a run directory), and any `$WB_BIN lab run ID` (the
# supervisor or a forked worker) started with this WORKBENCH_RUN_BASE, so
# another test's run of the same lab is never counted.  Only looks.
lab_leftovers() {
	# The patterns go through the environment, so awk never matches itself.
	ps -ww -eo pid=,args= | LB="$WORKBENCH_RUN_BASE/" LR="$WB_BIN lab run $1 " awk '
		index($0 " ", ENVIRON["LR"]) { print $1 " run"; next }
		index($0, ENVIRON["LB"]) { print $1 " base" }' |
		while read -r pid why; do
			[ "$pid" = $$ ] && continue
			if [ "$why" = run ]; then
				tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null |
					grep -q -x -F "WORKBENCH_RUN_BASE=$WORKBENCH_RUN_BASE" || continue
			fi
			echo "$pid"
		done
}

# check_lab_run [-j] ID [MIN_CHECKS]: `$WB_BIN lab run ID` passes, as text
# (left out with -j) and as --json, and leaves nothing behind.
#  - text, in $T/ID.txt: exit 0, a "PASS: " line, no ✘;
#  - --json, in $T/ID.json (stderr $T/ID.err): exit 0, every line an event
#    object, no failed check, at least MIN_CHECKS checks (default 1), and
#    the last line a passing verdict;
#  - after each run: no run directory under $WORKBENCH_RUN_BASE (which the
#    caller sets, under $T) and no process of the run (lab_leftovers).
# Fails the test on the first miss, with the output that shows why.
check_lab_run() {
	text=1
	if [ "$1" = -j ]; then
		text=0
		shift
	fi
	id=$1 min=${2:-1}
	: "${WORKBENCH_RUN_BASE:?check_lab_run needs WORKBENCH_RUN_BASE (under \$T)}"
	if [ $text -eq 1 ]; then
		rc=0
		"$WB_BIN" lab run "$id" >"$T/$id.txt" 2>&1 || rc=$?
		[ $rc -eq 0 ] || { cat "$T/$id.txt" >&2; fail "lab $id exited $rc"; }
		grep -q '^PASS: ' "$T/$id.txt" || fail "lab $id: no PASS line"
		grep -q '✘' "$T/$id.txt" && fail "lab $id: a failed check in a passing run"
		check_lab_left "$id"
	fi
	rc=0
	"$WB_BIN" lab run "$id" --json >"$T/$id.json" 2>"$T/$id.err" || rc=$?
	if [ $rc -ne 0 ]; then
		cat "$T/$id.json" "$T/$id.err" >&2
		fail "lab $id --json exited $rc: $(grep -e '"ok":false' -e '"t":"error"' "$T/$id.json")"
	fi
	bad=$(grep -v -c '^{"t":"[a-z]*",.*}$' "$T/$id.json")
	[ "$bad" -eq 0 ] || fail "lab $id --json: $bad lines are not event objects"
	grep -q '"ok":false' "$T/$id.json" && fail "lab $id --json has a failed check"
	checks=$(grep -c '"t":"check"' "$T/$id.json")
	[ "$checks" -ge "$min" ] || fail "lab $id made only $checks checks, want $min or more"
	tail -n 1 "$T/$id.json" | grep -q '^{"t":"verdict","pass":true,' ||
		fail "lab $id --json does not end with a passing verdict: $(tail -n 1 "$T/$id.json")"
	check_lab_left "$id"
}

# check_lab_left ID: after a passing run of ID, no run directory and no
# process of it is left.
check_lab_left() {
	for d in "$WORKBENCH_RUN_BASE"/run-*; do
		[ -e "$d" ] && fail "lab $1: run directory $d left after a pass"
	done
	left=$(lab_leftovers "$1")
	[ -z "$left" ] || fail "lab $1 left processes behind: $(for p in $left; do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null
		echo
	done)"
}
