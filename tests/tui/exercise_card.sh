#!/bin/sh
# exercise_card.sh - an exercise card in a lesson (core/layout.c, tui/reader.c,
# tui/lab.c): Enter on it starts the exercise, hands the terminal to
# $EDITOR (here a script that writes the reference solution into the file
# it is given), takes it back and runs the check in the lab screen, which
# ends PASS; h there shows the first hint and records it; e edits again
# (the script now writes the starter) and the re-check fails.  The CLI sees
# the attempts, the pass and the hint; home and statistics count the
# exercise solved for its chapter.
. "$(dirname "$0")/../lib/common.sh"

SRC=$(cd "$(dirname "$0")/../.." && pwd)
ID=zk-lock-step
DB="$T/progress.db"
export WORKBENCH_RUN_BASE="$T/runs" XDG_DATA_HOME="$T/data"
mkdir -p "$WORKBENCH_RUN_BASE" && chmod 700 "$WORKBENCH_RUN_BASE"
mkdir -p "$T/content/lessons/en"
ln -s "$SRC/exercises" "$T/content/exercises"
cat >"$T/content/lessons/en/01-exercise-fixture.md" <<'MD'
# Exercise fixture

## The lock step

Write the decision yourself.

```exercise
zk-lock-step
```
MD
# The editor: the first time the solution, then the starter; it logs each run.
cat >"$T/ed" <<ED
#!/bin/sh
echo "edited \$1" >>"$T/ed.log"
if [ -f "$T/ed.once" ]; then cp "$SRC/exercises/$ID/starter.c" "\$1"
else cp "$SRC/exercises/$ID/solution.c" "\$1"; touch "$T/ed.once"; fi
ED
chmod +x "$T/ed"
export VISUAL= EDITOR="$T/ed"

tui_start 100 30 "--content $T/content --db $DB --lang en"
wait_for "Exercise fixture"
keys Enter
wait_for "Try it yourself $ID"
wait_for "▶│ Try it yourself"
keys Enter
wait_for "Try it yourself $ID —"
wait_for "PASS ✔" 120
grep -q "edited $T/data/workbench/exercises/$ID/lock_step.c" "$T/ed.log" ||
	fail "the editor did not get the workspace file: $(cat "$T/ed.log" 2>/dev/null)"
keys h
wait_for "Hint 1 of 3: "
keys e
wait_for "FAIL ✘" 120
[ "$(wc -l <"$T/ed.log")" -eq 2 ] || fail "e did not run the editor again: $(cat "$T/ed.log")"
keys q
wait_for "▶│ Try it yourself"
# Home and statistics count the exercise solved for its chapter.
keys q
wait_for "exercises solved 1/"
keys p
wait_for "Exercises solved per chapter"
screen | grep -q "^ *01 .* 1/[0-9]" || fail "statistics: no row for chapter 01"
keys q q
wait_for "EXITED:0"

"$WB_BIN" --db "$DB" --lang en exercise list --json >"$T/o" 2>&1
grep -q "\"id\":\"$ID\".*\"state\":\"passed\",\"attempts\":2,\"hints\":1" "$T/o" ||
	fail "progress after the TUI: $(cat "$T/o")"
echo ok
