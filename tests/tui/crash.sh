# crash.sh - #20 F2: whatever kills the TUI, the terminal is given back
# sane.  WORKBENCH_TEST_CRASH (base/testhook.h) makes F12 crash the real
# binary in tmux: a stack overflow (only a handler on its own stack can run
# there: the old handler could not, and the shell was left with -icanon
# -echo), a raised SIGSEGV and an abort.  Afterwards, in the same pane,
# `stty -a` shows icanon and echo again, and EXITED shows the signal
# (128 + its number).
. "$(dirname "$0")/../lib/common.sh"

ARGS="--content $WB_FIXTURES --db $T/progress.db --lang en"

for case in overflow:139 segv:139 abort:134; do
	how=${case%:*} rc=${case#*:}
	NSOCK=$((NSOCK + 1))
	SOCK="wbtest-$$-$NSOCK"
	rm -f "$T/stty"
	tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 80 -y 24 \
		"env WORKBENCH_TEST=1 WORKBENCH_TEST_CRASH=$how LC_ALL=C.UTF-8 TERM=xterm-256color $WB_BIN $ARGS; rc=\$?; printf '\\r\\nEXITED:%s\\r\\n' \$rc; stty -a >$T/stty.tmp; mv $T/stty.tmp $T/stty; sleep 30"
	wait_for "Fixture chapter"
	keys F12
	wait_for "EXITED:$rc"
	deadline=$(($(date +%s) + 30))
	while [ ! -f "$T/stty" ]; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "$how: stty -a never ran"
		sleep 0.05
	done
	modes=" $(tr '\n;' '  ' <"$T/stty") "
	for m in icanon echo icrnl onlcr; do
		case "$modes" in
		*" -$m "*) fail "$how: the terminal is left with -$m: $(cat "$T/stty")" ;;
		*" $m "*) ;;
		*) fail "$how: stty -a does not show $m: $(cat "$T/stty")" ;;
		esac
	done
	tmux -L "$SOCK" kill-server
done
echo ok
