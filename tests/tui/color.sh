# color.sh - NO_COLOR turns colours off; without it headings are coloured.
. "$(dirname "$0")/../lib/common.sh"
ESC=$(printf '\033')

tui_start 80 24 "--content $WB_FIXTURES --db $T/p.db --lang en"
wait_for "Fixture chapter"
tmux -L "$SOCK" capture-pane -p -e -t wb | grep -q "$ESC\[[0-9;]*3[0-7]m" ||
	fail "no colour without NO_COLOR"
tmux -L "$SOCK" kill-server

NO_COLOR=1 tui_start 80 24 "--content $WB_FIXTURES --db $T/p.db --lang en"
wait_for "Fixture chapter"
tmux -L "$SOCK" capture-pane -p -e -t wb | grep -q "$ESC\[[0-9;]*3[0-7]m" &&
	fail "colour escape codes despite NO_COLOR"
# 40x12 still works.
tmux -L "$SOCK" resize-window -t wb -x 40 -y 12
keys Enter
wait_for "? help"
[ "$(screen | max_width)" -le 40 ] || fail "wider than 40 columns"
echo ok
