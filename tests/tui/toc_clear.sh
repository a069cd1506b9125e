# toc_clear.sh - the table of contents overlay clears the whole band of
# rows it covers: no piece of the page shows beside the box (ux.md,
# further problems: "TOC overlay").
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
tui_start 80 24 "--content $WB_SRC --db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "%  ? help"
keys t
wait_for "Contents (Enter jumps, Esc closes)"
# Rows 2..22 (the box, a blank row above and below): only spaces outside
# the box's columns 3..76.
bad=$(screen | sed -n '2,23p' | awk '{ l = substr($0, 1, 3); r = substr($0, 78) }
	l ~ /[^ ]/ || r ~ /[^ ]/ { print NR + 1 ": " $0 }')
[ -z "$bad" ] || fail "page text shows beside the contents box: $bad"
keys Escape
wait_gone "Contents (Enter jumps"
keys q
wait_for "? help  q quit"
keys q
wait_for "EXITED:0"
