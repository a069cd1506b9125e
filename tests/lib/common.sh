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
