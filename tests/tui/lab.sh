# lab.sh - a lab card runs in place: Enter on the card starts the lab as a
# child, its checks and verdict appear live, s opens the recipe source,
# the run is stored, and home counts the chapter's passed labs.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
tui_start 100 30 "--db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "? help"
keys / t a s k - t a k e o v e r Enter
wait_for "Match 1 of"
wait_for "Enter runs it here"
keys Enter
wait_for "Lab task-takeover"
wait_for "PASS ✔" 60
screen | grep -q "✔ stable-key-no-duplicate" || fail "a check of the lab is missing"
screen | grep -q "✘" && fail "a check failed"
keys s
wait_for "tasktable"
keys q
wait_for "PASS ✔"
keys q
wait_for "? help"
keys q
wait_for "labs passed 1/16"
keys q
wait_for "EXITED:0"
rows=$(sqlite3 "$DB" "SELECT count(*) FROM lab_runs WHERE lab = 'task-takeover' AND passed = 1 AND evidence LIKE '%stable-key-no-duplicate%'")
[ "$rows" = 1 ] || fail "the run was not stored with its evidence ($rows rows)"
echo ok
