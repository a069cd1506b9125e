# search_help.sh - the reader's search opens an empty prompt (a new query
# replaces the last one; Enter on an empty prompt repeats it), ? help
# shows each key label once in its own column and scrolls at 40x12 down
# to its last entries, and Ctrl-F/Ctrl-B page like Space/b.
# (ux.md problems 8 and 9, and the "Reader keys" item.)
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
tui_start 80 24 "--db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "? help"
keys / f e n c i n g Enter
wait_for 'Match 1 of'
keys /
wait_for 'Search (Enter: "fencing"):'
screen | tail -n 1 | grep -q ': fencing' && fail "the prompt is pre-filled with the last query"
keys F E N C I N G Enter
wait_for 'for "FENCING"'
screen | grep -q 'fencingFENCING' && fail "the new query was appended to the last one"
keys / Enter
wait_for 'Match 2 of'
screen | tail -n 1 | grep -q 'for "FENCING"' || fail "Enter on an empty prompt did not repeat the last search"
# Help: one label per key, descriptions in their own column.
keys '?'
wait_for "Keys on this screen"
screen | grep -q "Enter Enter" && fail "the Enter codes are shown more than once"
screen | grep -E -q '^ +Enter +run the picked lab card' || fail "Enter is not in the key column"
keys q
wait_gone "Keys on this screen"
# Ctrl-F pages down, Ctrl-B back.
# pct_is OP VALUE: until the status line's percentage compares so.
pct() { screen | tail -n 1 | grep -o '[0-9]*%' | tr -d %; }
pct_is() {
	deadline=$(($(date +%s) + WAIT_DEFAULT))
	until [ "$(pct)" "$1" "$2" ]; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "the percentage stays at $(pct), want $1 $2"
		sleep 0.05
	done
}
keys g
deadline=$(($(date +%s) + WAIT_DEFAULT))
until screen | head -n 1 | grep -q "Lock recipes, IDs and task leases"; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "g did not go to the start"
	sleep 0.05
done
p0=$(pct)
[ -n "$p0" ] || fail "no percentage on the status line"
keys C-f
pct_is -gt "$p0"
keys C-b
pct_is -eq "$p0"
keys q q
wait_for "EXITED:0"

# 40x12, the smallest size: help scrolls down to its last entries.
tui_start 40 12 "--db $DB --lang en"
wait_for "01  Lock recipe"
keys Enter
wait_for "%  ? help"
keys '?'
wait_for "Keys on this screen"
screen | grep -q "back to the chapters" && fail "the whole help fits 40x12? the test needs it to scroll"
n=0
until screen | grep -q "back to the chapters"; do
	n=$((n + 1))
	[ $n -gt 40 ] && fail "help never scrolled to its last entries"
	keys j
	wait_for "Keys on this screen"
done
screen | grep -q "q ←" || fail "q ← is not shown in help at 40x12"
keys x
wait_gone "Keys on this screen"
keys q q
wait_for "EXITED:0"
echo ok
