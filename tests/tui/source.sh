# source.sh - the lab's source view is a screen of its own: the path
# relative to the source tree (never the clone's absolute path), line
# numbers, lines cut at the edge instead of wrapped, h/l and ←/→ scroll
# across, its own keys in ? help, the reader's s and t do nothing there,
# and q goes back to the lab.  It opens at the exercised function.
# (ux.md problem 7.)
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$WORKBENCH_RUN_BASE" && chmod 700 "$WORKBENCH_RUN_BASE"
tui_start 80 24 "--db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "? help"
keys / t a s k - t a k e o v e r Enter
wait_for "Enter runs it here"
keys Enter
wait_for "PASS ✔"
keys s
wait_for "labs/recipes/tasktable.c › guarded"
screen | grep -q "/labs/recipes/" && fail "an absolute path is shown"
screen | grep -E -q '^ *[0-9]+ │ static int guarded\(' || fail "not opened at the definition, with its line number"
# Every body line is a numbered line of the file: nothing wrapped.
body=$(screen | sed -n '2,23p')
bad=$(printf '%s\n' "$body" | grep -v -E -c '^ *[0-9]+ │')
[ "$bad" -eq 0 ] || fail "$bad screen lines are not numbered lines (wrapped code?)"
screen | tail -n 1 | grep -q "col 1 " || fail "no column on the status line"
keys l
wait_for "col 9 "
screen | grep -E -q '^ *[0-9]+ │ nt guarded\(' || fail "l did not scroll the code across"
keys Left
wait_for "col 1 "
keys Right
wait_for "col 9 "
keys h
wait_for "col 1 "
keys s t
wait_for "labs/recipes/tasktable.c › guarded"
screen | grep -q -e "has no questions" -e "Contents" && fail "the reader's s or t acted in the source view"
keys '?'
wait_for "Keys on this screen"
screen | grep -q "h ←.*scroll left" || fail "help does not list h ← scroll left"
screen | grep -q "l →.*scroll right" || fail "help does not list l → scroll right"
screen | grep -q "run the" && fail "help lists the reader's keys"
keys x
wait_gone "Keys on this screen"
keys q
wait_for "PASS ✔"
wait_for "Lab task-takeover"
keys q q q
wait_for "EXITED:0"
echo ok
