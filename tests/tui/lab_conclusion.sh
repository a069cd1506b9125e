# lab_conclusion.sh - a finished lab says what it proved: the lab's own
# conclusion ("What this run showed: ...") ends the screen, above the
# evidence (which follows under its own heading); the held control check
# says it failed as expected; Space and b page the lab view; the
# conclusion is stored with the run.  (ux.md problem 13.)
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
wait_for "Lab task-takeover"
wait_for "PASS ✔"
wait_for "What this run showed:"
# The view ends with the conclusion: its last words are on the screen.
wait_for "booking it twice."
screen | grep -q "Evidence (" && fail "the evidence is shown before the conclusion is read"
# Paging: Space shows the evidence under its heading, b comes back.
keys Space
wait_for "Evidence ("
wait_for "· payment = "
keys b
wait_gone "Evidence ("
# The control check: a ✔ that says why it is a pass.
keys g
wait_for "step0-initial"
n=0
# One capture per look: the control's line with the one after it (it may
# wrap).
while :; do
	shot=$(screen | grep -A1 "✔ control-per-attempt-key-duplicates")
	[ -n "$shot" ] && [ "$(printf '%s\n' "$shot" | wc -l)" -eq 2 ] && break
	n=$((n + 1))
	[ $n -gt 60 ] && fail "the control check never came into view"
	keys j
	wait_for "PASS ✔"
done
printf '%s\n' "$shot" | tr '\n' ' ' | grep -q "the control failed, as expected" ||
	fail "the control's ✔ does not say why it is a pass: $shot"
keys q
wait_for "? help"
keys q
wait_for "labs passed 1/"
keys q
wait_for "EXITED:0"
rows=$(sqlite3 "$DB" "SELECT count(*) FROM lab_runs WHERE lab = 'task-takeover' AND passed = 1 AND evidence LIKE '%\"t\":\"conclusion\"%booking it twice%'")
[ "$rows" = 1 ] || fail "the conclusion was not stored with the run ($rows rows)"
echo ok
