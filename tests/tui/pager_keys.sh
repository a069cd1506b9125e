# pager_keys.sh - every screen that scrolls takes the pager's keys
# (tui/pager.h, as htop's Panel_onKey moves every panel): on the
# statistics screen G goes to the end and g back to the start, on the
# glossary Ctrl-D and Ctrl-U move half a page, and ? help words the moves
# the same way on the reader, the glossary, the statistics and a source
# view.  (Before the pager the statistics had no g/G and the glossary no
# Ctrl-D/Ctrl-U, and the source view's help said "first line".)
. "$(dirname "$0")/../lib/common.sh"

# wait_top IS|NOT LINE: until the screen's first line is (or is no
# longer) LINE, or fail (the deadline of wait_for).
wait_top() {
	deadline=$(($(date +%s) + WAIT_DEFAULT))
	while :; do
		top=$(screen 2>/dev/null | head -n 1)
		if [ "$1" = IS ]; then [ "$top" = "$2" ] && return 0; else [ "$top" != "$2" ] && return 0; fi
		[ "$(date +%s)" -ge "$deadline" ] && fail "timed out: the first line is $1 '$2': $(screen)"
		sleep 0.05
	done
}

DB="$T/progress.db"
# 12 rows: the statistics are longer than one page.
tui_start 80 12 "--content $WB_SRC --db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"

# The statistics: G, then g.
keys p
wait_for "Mastery"
first=$(screen | head -n 1)
keys G
wait_top NOT "$first"
keys g
wait_top IS "$first"
keys '?'
wait_for "Keys on this screen"
screen | grep -q "go to the start" || fail "stats help does not word g as the pager does: $(screen)"
keys x
wait_gone "Keys on this screen"
keys q
wait_for "? help  q quit"

# The glossary: Ctrl-D moves half a page, Ctrl-U back.
keys Enter
wait_for "%  ? help"
keys w
wait_for "t terms"
first=$(screen | head -n 1)
keys C-d
wait_top NOT "$first"
keys C-u
wait_top IS "$first"
keys q
wait_for "%  ? help"
keys q
wait_for "? help  q quit"
keys q
wait_for "EXITED:0"
