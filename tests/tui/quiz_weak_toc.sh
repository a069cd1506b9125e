# quiz_weak_toc.sh - Enter on a weak question of the self-test summary
# opens its chapter with the table of contents asking for the section
# about that question, not just where the learner last was (ux.md,
# further problems: "Weakest questions (Enter rereads the lesson)"); Enter
# there jumps to the picked section.
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
mkdir -p "$C/quizzes/en"
cp -r "$WB_FIXTURES/lessons" "$C/"
cat >"$C/quizzes/en/00-fixture.md" <<'BANK'
# Self-test: Fixture chapter

## [weak-one] Why is a delete notification not the lock?
kind: recall

### Answer
The waiter must re-list the children.

### Rubric
- 1: re-list the children
BANK
DB="$T/progress.db"
tui_start 80 24 "--content $C --db $DB --quizzes $T/instructor --lang en"
wait_for "0 due today"
keys s
deadline=$(($(date +%s) + 60))
until screen | grep -q -e "Question 1 of 1" -e "Enter start"; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "no test after s"
	sleep 0.05
done
if screen | grep -q "Enter start"; then keys Enter; fi
wait_for "Question 1 of 1"
keys Tab
wait_for "Suggested grade: Again"
keys a
wait_for "Weakest questions"
screen | grep -q "\[weak-one\]" || fail "the weak question is not listed"
keys Enter
wait_for "Contents (Enter jumps, Esc closes)"
screen | grep -q "Pick the section about \[weak-one\]" || fail "the contents do not name the question"
keys j j Enter
wait_gone "Contents (Enter jumps"
[ "$(screen | head -n 1 | sed 's/^ *//')" = "Tables" ] || fail "Enter did not jump to the picked section"
keys q
wait_for "0 due today"
keys q
wait_for "EXITED:0"
