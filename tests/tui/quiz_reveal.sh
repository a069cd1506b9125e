# quiz_reveal.sh - the reveal screen scrolls (ux.md problem 3): with a
# reference answer longer than the screen, at 80x24 the reveal opens at
# the start of the reference, PgUp/PgDn and k/j move it (k above the
# first rubric point scrolls up, j below the last scrolls down), the
# selected rubric point stays visible while scrolled away, and nothing
# undoes a scroll on the next frame; at 40x12 the answer and the grade
# line are still there.
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
mkdir -p "$C/quizzes/en"
cp -r "$WB_FIXTURES/lessons" "$C/"
{
	printf '# Self-test: Fixture chapter\n\n'
	printf '## [long-reference] Explain it all.\nkind: recall\n\n### Answer\n'
	i=1
	while [ $i -le 40 ]; do
		printf -- '- Line %02d of the reference.\n' $i
		i=$((i + 1))
	done
	printf '\n### Rubric\n- 1: point one\n- 1: point two\n- 1: point three\n- 1: point four\n'
} >"$C/quizzes/en/00-fixture.md"
DB="$T/progress.db"
ARGS="--content $C --db $DB --quizzes $T/instructor --lang en"
# First reference line on screen (its number), or nothing.
first_line() { screen | grep -o 'Line [0-9]* of' | head -n 1 | grep -o '[0-9][0-9]*'; }

tui_start 80 24 "$ARGS"
wait_for "0 due today"
keys s
deadline=$(($(date +%s) + 60))
until screen | grep -q -e "Question 1 of 1" -e "Enter start"; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "no test after s"
	sleep 0.05
done
if screen | grep -q "Enter start"; then keys Enter; fi
wait_for "Question 1 of 1"
keys -l "my answer"
keys Tab
wait_for "Suggested grade: Again"

# PgUp reaches the start of the reference answer and stays there.
keys PPage PPage PPage
wait_for "Line 01 of the reference."
screen | grep -q "Reference answer" || fail "the reference heading is out of reach"
screen | grep -q "\[ \] 1. (1) point one" || fail "the selected rubric point is not visible"
top=$(first_line)

# PgDn moves it; the selected point stays on screen.
keys NPage
wait_gone "Line 01 of the reference."
down=$(first_line)
[ "${down:-0}" -gt "${top:-0}" ] || fail "PgDn did not move the reference (top $top, now $down)"
screen | grep -q "\[ \] 1. (1) point one" || fail "the selected point left the screen"

# k on the first point scrolls up by a line, and stays.
keys k
deadline=$(($(date +%s) + 60))
while [ "$(first_line)" = "$down" ]; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "k did not scroll up from line $down"
	sleep 0.05
done
up=$(first_line)
[ "${up:-0}" -lt "$down" ] || fail "k scrolled the wrong way ($down -> $up)"

# j moves the selection to the last point and brings it into view; ticking it.
keys j j j Space
wait_for "[x] 4. (1) point four"
wait_for "Suggested grade: Partly (1 of 4"

# At 40x12 the reference, the selected point and the grade line are there.
tmux -L "$SOCK" resize-window -t wb -x 40 -y 12
wait_for "Suggested grade: Partly"
keys PPage PPage PPage PPage PPage PPage PPage PPage PPage PPage
wait_for "Reference answer"
screen | grep -q "point four" || fail "at 40x12 the selected point is not visible"
keys g
wait_for "Test finished"
keys q
wait_for "due today"
keys q
wait_for "EXITED:0"
echo ok
