# home_labs.sh - the home screen says what its lab count counts: "labs
# passed N/M" (ux.md, further problems: "Home lab count").
. "$(dirname "$0")/../lib/common.sh"

tui_start 100 24 "--content $WB_SRC --db $T/progress.db --lang en"
wait_for "Lock recipes, IDs and task leases"
screen | grep "^  01 " | grep -q "labs passed 0/" || fail "home row: $(screen | grep '^  01 ')"
keys L
wait_for "实验通过 0/"
keys q
wait_for "EXITED:0"
