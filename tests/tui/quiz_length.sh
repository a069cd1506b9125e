# quiz_length.sh - the test length is the learner's choice (ux.md problem
# 11): s on a chapter asks how long (12 questions drawn across the
# chapter's sections, 24, or all of them) and starts only on Enter; q
# there starts nothing; the 12 are the chapter's closed-book core (the
# questions its bank marks core: true, which cover the lesson's sections);
# a test paused before its first grade leaves the lesson open, one grade
# closes it.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_SRC --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }
BANK="$WB_SRC/quizzes/en/01-locks-ids-leases.md"
grep -o '^## \[[a-z0-9-]*\]' "$BANK" | tr -d '#[] ' >"$T/order"
N=$(wc -l <"$T/order")
[ "$N" -gt 24 ] || fail "the shipped chapter 01 bank has only $N questions"

tui_start 80 24 "$ARGS"
wait_for "01"
keys s
wait_for "1. 12 questions: across the chapter's sections, weak ones first"
screen | grep -q "2. 24 questions" || fail "no 24-question choice"
screen | grep -q "3. all $N questions" || fail "no whole-bank choice"
[ "$(q "SELECT COUNT(*) FROM quiz_test")" = 0 ] || fail "asking the length started a test"
keys q
wait_gone "12 questions"
[ "$(q "SELECT COUNT(*) FROM quiz_test")" = 0 ] || fail "q on the length question started a test"

# Enter starts the 12; they are the bank's core questions.
awk '/^## \[/ { id = $0; sub(/^## \[/, "", id); sub(/\].*/, "", id) }
	/^core: *true/ { print id }' "$BANK" | sort >"$T/core"
[ "$(wc -l <"$T/core")" = 12 ] || fail "the shipped bank marks $(wc -l <"$T/core") core questions"
keys s
wait_for "1. 12 questions"
keys Enter
wait_for "Question 1 of 12"
q "SELECT question FROM quiz_test_item" | sort >"$T/drawn"
[ "$(wc -l <"$T/drawn")" = 12 ] || fail "the test holds $(wc -l <"$T/drawn") questions"
cmp -s "$T/core" "$T/drawn" || fail "the 12 are not the core: $(diff "$T/core" "$T/drawn")"

# Paused with nothing graded: the lesson opens.
case $(screen | head -n 1) in *choice*) keys q ;; *) keys C-p ;; esac
wait_for "Self-test in progress"
keys Enter
wait_gone "Self-test in progress" # home has gone: the lesson or the notice
wait_for "? help"
screen | grep -q "The lesson stays closed" && fail "a test with 0 answered closed the lesson"
keys q
wait_for "Self-test in progress"

# One grade, and the lesson is closed.
keys s
wait_for "Resumed: 0 of 12 answered"
case $(screen | head -n 1) in
*recall*) keys Tab; wait_for "Suggested grade"; keys a ;;
*choice*) keys 1 Enter; wait_for "Saved:"; keys Enter ;;
*) keys -l 1; keys Enter; wait_for "Saved:"; keys Enter ;;
esac
wait_for "Question 2 of 12"
case $(screen | head -n 1) in *choice*) keys q ;; *) keys C-p ;; esac
wait_for "1 of 12 answered"
keys Enter
wait_for "The lesson stays closed"
keys q
wait_for "Self-test in progress"
keys q
wait_for "EXITED:0"
echo ok
