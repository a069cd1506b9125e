# quiz_keys.sh - the self-test's input modes (ux.md problem 1): Esc in the
# answer box only shows the command keys, and letters typed after it go on
# into the answer (never "q" pause, "A" abandon, "r" review...); the key
# that leaves the box is on screen; abandoning asks y/n first, in the
# test (^X), on the "another test is running" gate (A) and on the "lesson
# is closed" notice (A); after undo on a number typing works again.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }
kind() { screen | head -n 1 | grep -o 'recall\|choice\|numeric'; }
running() { q "SELECT COUNT(*) FROM quiz_test WHERE state='running'"; }

# s on the chapter: confirms the length question when there is one.
start_test() {
	keys s
	deadline=$(($(date +%s) + 60))
	until screen | grep -q -e "Question 1 of" -e "Enter start"; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "no test and no length question after s"
		sleep 0.05
	done
	if screen | grep -q "Enter start"; then keys Enter; fi
	wait_for "Question 1 of 6"
}

# Grades whatever question is on screen and waits for the next one.
answer_current() {
	n=$1
	case $(kind) in
	recall) keys Tab; wait_for "Suggested grade"; keys 1 g ;; # a point ticked: g grades at once
	choice) keys 1 Enter; wait_for "Saved:"; keys Enter ;;
	*) keys C-u; keys -l 1; keys Enter; wait_for "Saved:"; keys Enter ;;
	esac
	wait_for "Question $((n + 1)) of 6"
}

tui_start 80 24 "$ARGS"
wait_for "0 due today"
start_test
i=1
while [ "$(kind)" = choice ]; do
	answer_current $i
	i=$((i + 1))
done

# 1. The box names the key that leaves it; Esc shows the command keys and
# the letters after it are text.
screen | tail -n 1 | grep -q -e "^ *Tab " -e "^ *Enter submit" || fail "the key that leaves the box is not shown"
keys Escape
keys -l "quorum qua Aru"
wait_for "quorum qua Aru"
screen | grep -q "Question $i of 6" || fail "typing after Esc left the question"
[ "$(running)" = 1 ] || fail "typing after Esc ended the test"
screen | tail -n 1 | grep -q "\^P pause · \^R undo · \^X abandon" || fail "Esc does not show the command keys"
keys C-u
wait_gone "quorum qua Aru"

# 2. ^X asks before abandoning; n goes back to the box, which still types.
keys C-x
wait_for "Abandon this test? Graded answers are kept."
keys n
wait_gone "Abandon this test?"
keys -l "zz"
wait_for "zz"
[ "$(running)" = 1 ] || fail "n abandoned the test"
keys BSpace BSpace

# 3. A number, graded, undone: its box takes the keys again.
while [ "$(kind)" != numeric ]; do
	answer_current $i
	i=$((i + 1))
done
keys -l 7
keys Enter
wait_for "Expected"
keys u
wait_for "Grade undone"
keys -l 50
keys BSpace
wait_for "  75"
keys Enter
wait_for "Expected"
keys Enter
i=$((i + 1))
wait_for "Question $i of 6"
answered=$(q "SELECT COUNT(*) FROM quiz_answer")

# 4. Pause from the box (^P), then the gate of another test: A asks first.
case $(kind) in choice) keys q ;; *) keys C-p ;; esac
wait_for "Self-test in progress: 00-fixture"
keys r
wait_for "Another self-test is in progress"
keys A
wait_for "Abandon that test and start this one? Graded answers are kept."
keys n
wait_for "c continue that test"
[ "$(running)" = 1 ] || fail "the gate's A abandoned without asking"
keys q
wait_for "Self-test in progress: 00-fixture"

# 5. The "lesson is closed" notice: A asks first too.
keys Enter
wait_for "The lesson stays closed"
keys A
wait_for "Abandon the test and open the lesson? Graded answers are kept."
keys n
wait_for "c continue the test"
[ "$(running)" = 1 ] || fail "the notice's A abandoned without asking"
keys A
wait_for "Abandon the test and open the lesson?"
keys y
wait_for "Test abandoned; graded answers were kept"
[ "$(running)" = 0 ] || fail "y did not abandon"
[ "$(q "SELECT COUNT(*) FROM quiz_answer")" = "$answered" ] || fail "abandoning lost graded answers"
keys q
wait_for "due today"
keys q
wait_for "EXITED:0"
echo ok
