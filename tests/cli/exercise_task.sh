#!/bin/sh
# exercise_task.sh - the task before the editor (review ux-r3 B1;
# cli/exercise_start.c, core/exercise_ws.c): on a terminal (tmux, 80x24)
# `exercise start` prints the task text, waits for Enter and only then
# opens $EDITOR (Ctrl-D: no editor); the workspace holds TASK.md, a copy
# of the task in the learner's language that every start and reset
# writes again while the learner's file is kept; the starters point at
# TASK.md.
. "$(dirname "$0")/../lib/common.sh"
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"

ID=task-claim
WS="$T/data/workbench/exercises/$ID"
export XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/progress.db" VISUAL=
cat >"$T/ed" <<EOF
#!/bin/sh
echo "EDITOR-OPENED \$1" >>"$T/edlog"
echo EDITOR-OPENED
EOF
chmod +x "$T/ed"
export EDITOR="$T/ed"

# The last line of the task that starts with a letter, cut to fit a line.
probe=$(grep -E '^[A-Za-z]' "$WB_SRC/exercises/$ID/task.en.md" | tail -n 1 | cut -c1-40)
[ -n "$probe" ] || fail "no probe line in task.en.md"

tui_start 80 24 --lang en exercise start $ID
wait_for "Press Enter to open"
screen | grep -F -q -- "$probe" || fail "the task is not on screen before the editor: '$probe'"
[ -e "$T/edlog" ] && fail "the editor opened before Enter"
[ -f "$WS/TASK.md" ] || fail "no TASK.md in the workspace"
keys Enter
wait_for "EXITED:0"
screen | grep -q "EDITOR-OPENED" || fail "the editor did not open after Enter"
[ "$(cat "$T/edlog")" = "EDITOR-OPENED $WS/claim.sql" ] || fail "editor log: $(cat "$T/edlog")"

# Ctrl-D at the prompt: no editor, the path is still printed.
tui_start 80 24 --lang en exercise start $ID
wait_for "Press Enter to open"
keys C-d
wait_for "EXITED:0"
screen | grep -q "Your file: " || fail "no path after Ctrl-D"
[ "$(wc -l <"$T/edlog")" = 1 ] || fail "the editor opened after Ctrl-D"

# --no-edit on a terminal: the task, no prompt, no editor.
tui_start 80 24 --lang en exercise start $ID --no-edit
wait_for "EXITED:0"
screen | grep -q "Press Enter" && fail "--no-edit waited for Enter"
[ "$(wc -l <"$T/edlog")" = 1 ] || fail "--no-edit opened the editor"

# TASK.md: a copy of the task; the learner's file is never touched.
tail -n +3 "$WS/TASK.md" | cmp -s - "$WB_SRC/exercises/$ID/task.en.md" ||
	fail "TASK.md is not the English task"
head -n 1 "$WS/TASK.md" | grep -q "task.en.md.*claim.sql" || fail "TASK.md header: $(head -n 1 "$WS/TASK.md")"
echo "-- mine" >"$WS/claim.sql"
echo "stale" >"$WS/TASK.md"
$WB_BIN --lang zh exercise start $ID --no-edit </dev/null >"$T/o" 2>&1 || fail "zh start: $(cat "$T/o")"
[ "$(cat "$WS/claim.sql")" = "-- mine" ] || fail "start touched the learner's file"
tail -n +3 "$WS/TASK.md" | cmp -s - "$WB_SRC/exercises/$ID/task.zh.md" ||
	fail "start did not refresh TASK.md in Chinese: $(head -n 3 "$WS/TASK.md")"
# reset keeps the copy's language and writes it again
echo "stale" >>"$WS/TASK.md"
$WB_BIN --lang en exercise reset $ID --yes </dev/null >"$T/o" 2>&1 || fail "reset: $(cat "$T/o")"
tail -n +3 "$WS/TASK.md" | cmp -s - "$WB_SRC/exercises/$ID/task.zh.md" ||
	fail "reset did not write TASK.md again"
ls "$WS"/claim.sql.bak-* >/dev/null 2>&1 || fail "reset kept no backup"
grep -q "^-- mine$" "$WS"/claim.sql.bak-* || fail "the backup is not the learner's file"
# TASK.md as a link is never written through.
rm "$WS/TASK.md"
echo keep >"$T/target"
ln -s "$T/target" "$WS/TASK.md"
$WB_BIN exercise start $ID --no-edit </dev/null >"$T/o" 2>&1 && fail "start wrote through a TASK.md link"
[ "$(cat "$T/target")" = keep ] || fail "the link's target was changed"

# The starters point at TASK.md.
for s in "$WB_SRC"/exercises/*/starter.sql "$WB_SRC"/exercises/zk-lock-step/starter.c; do
	grep -q "see the task text\|see task.en.md" "$s" && fail "$s points at an unreachable task"
	head -n 3 "$s" | grep -q "TASK.md" || fail "$s does not name TASK.md"
done
echo ok
