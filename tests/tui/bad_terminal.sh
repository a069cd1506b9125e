# bad_terminal.sh - LANG=C and a 20x6 terminal.
. "$(dirname "$0")/../lib/common.sh"

# LANG=C: the workbench switches to a UTF-8 character type itself, so
# Chinese still shows and lines still fit.
NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 80 -y 24 \
	"env -u LC_ALL LANG=C TERM=xterm-256color $WB_BIN --content $WB_FIXTURES --db $T/p.db --lang zh$EXIT_MARK"
wait_for "测试章节"
keys Enter
wait_for "? 帮助"
[ "$(screen | max_width)" -le 80 ] || fail "wider than 80 under LANG=C"
keys q q
wait_for "EXITED:0"

# 20x6: a polite notice instead of a broken screen; q still quits.
tui_start 20 6 "--content $WB_FIXTURES --db $T/p.db --lang en"
wait_for "Terminal too"
[ "$(screen | max_width)" -le 20 ] || fail "notice wider than 20"
keys q
wait_for "EXITED:0"
echo ok
