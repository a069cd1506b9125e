# quiz_grading.sh - writing and grading a recall question as a learner
# expects it (ux.md, further problems):
#  - the answer box wraps at spaces, not inside words;
#  - a rubric point's first line takes the whole width (it wrapped early);
#  - after Tab the question's body is shown above the reference answer;
#  - Got it with 0 rubric points ticked asks y/n first (n keeps the
#    question, y grades it).
. "$(dirname "$0")/../lib/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3"

C="$T/content"
mkdir -p "$C/quizzes/en"
cp -r "$WB_FIXTURES/lessons" "$C/"
cat >"$C/quizzes/en/00-fixture.md" <<'BANK'
# Self-test: Fixture chapter

## [paused-worker] What happens to the lock of a paused worker?
kind: recall

Think of a worker that paused.

### Answer
Its session expires and the lock passes on.

### Rubric
- 2: ephemeral sequential child with a fresh guid per attempt under the lock parent and nothing else
- 1: the lease ends
BANK
DB="$T/progress.db"
tui_start 60 24 "--content $C --db $DB --quizzes $T/instructor --lang en"
wait_for "0 due today"
keys s
deadline=$(($(date +%s) + 60))
until screen | grep -q -e "Question 1 of 1" -e "Enter start"; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "no test after s"
	sleep 0.05
done
if screen | grep -q "Enter start"; then keys Enter; fi
wait_for "Question 1 of 1"

# Box width 56: a character wrap would cut "predecessor" after "pr".
keys -l "The waiter must list the children again and watch its predecessor."
wait_for "predecessor."
screen | grep -q "^  predecessor\.$" ||
	fail "the answer box does not wrap at a space: $(screen | grep -e 'watch' -e 'essor')"

# The reveal: the body above the reference; the rubric's first line is
# not cut short.
keys Tab
wait_for "Suggested grade: Again"
body=$(screen | grep -n "Think of a worker that paused." | head -n 1 | cut -d: -f1)
ref=$(screen | grep -n "Reference answer" | head -n 1 | cut -d: -f1)
[ -n "$body" ] || fail "the question body is not shown after reveal"
[ -n "$ref" ] && [ "$body" -lt "$ref" ] || fail "the body is not above the reference answer"
screen | grep -q "\[ \] 1\. (2) ephemeral sequential child with a fresh" ||
	fail "the rubric point's first line wraps early: $(screen | grep -A1 '1\. (2)')"

# Got it with nothing ticked: asked first; n keeps the question.
keys g
wait_for "Got it with 0 of 3 points ticked?"
[ "$(sqlite3 "$DB" 'SELECT COUNT(*) FROM quiz_answer')" = 0 ] || fail "g graded without asking"
keys n
wait_gone "Got it with 0 of 3 points ticked?"
wait_for "Suggested grade: Again"
[ "$(sqlite3 "$DB" 'SELECT COUNT(*) FROM quiz_answer')" = 0 ] || fail "n graded the question"
keys g
wait_for "Got it with 0 of 3 points ticked?"
keys y
wait_for "Weakest questions"
[ "$(sqlite3 "$DB" 'SELECT grade FROM quiz_answer')" = 3 ] || fail "y did not grade Got it"

keys q
wait_for "0 due today"
keys q
wait_for "EXITED:0"
