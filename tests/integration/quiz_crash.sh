# quiz_crash.sh - a self-test survives kill -9.  The workbench is killed
# twice on purpose: once inside the transaction of a grade (a test hook
# raises SIGKILL between INSERT and COMMIT, so the worst moment is hit by
# design, not by timing) and once from outside between two grades.  After
# each restart every graded answer is there, PRAGMA integrity_check says
# ok, and the test resumes at the first unanswered question in the same
# shuffled order.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }

# The question at position POS of the running test.
item() { q "SELECT question FROM quiz_test_item WHERE pos=$1"; }

check_db() {
	[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "integrity_check: $(q 'PRAGMA integrity_check')"
	n=$(q "SELECT COUNT(*) FROM quiz_answer")
	[ "$n" = "$1" ] || fail "expected $1 graded answers, found $n"
	[ "$(q "SELECT COUNT(*) FROM quiz_schedule")" = "$1" ] || fail "schedules out of step with answers"
}

# Answers whatever question is on screen (its kind is in the header) and
# waits until the answer is saved.
answer_one() {
	pos=$1
	wait_for "Question $((pos + 1)) of 6"
	id=$(screen | head -n 1 | grep -o '\[fixture-[a-z-]*\]' | tr -d '[]')
	[ "$id" = "$(item "$pos")" ] || fail "position $pos shows $id, the stored order says $(item "$pos")"
	last_kind=$(screen | head -n 1 | grep -o 'recall\|choice\|numeric')
	case $last_kind in
	recall)
		keys -l "answer $pos"
		keys Tab
		wait_for "Suggested grade"
		keys 1 g # a point ticked: g grades at once
		wait_for "Saved:"
		;;
	choice)
		keys 1 Enter
		wait_for "Saved:"
		;;
	*)
		keys -l 1
		keys Enter
		wait_for "Saved:"
		;;
	esac
}

# After an auto-graded question Enter moves on; a recall grade already did.
next_after() {
	[ "$last_kind" = recall ] || keys Enter
}

# 1. Killed inside the third grade's transaction.
# Each tui_start runs a fresh tmux server, which takes this environment.
export WORKBENCH_TEST=1 WORKBENCH_TEST_KILL_IN_SAVE=3
tui_start 80 24 "$ARGS"
unset WORKBENCH_TEST_KILL_IN_SAVE
wait_for "due today"
keys s
wait_for "Enter start" # a new test asks how long first
keys Enter
answer_one 0
next_after
answer_one 1
next_after
wait_for "Question 3 of 6"
order=$(q "SELECT group_concat(question) FROM (SELECT question FROM quiz_test_item ORDER BY pos)")
pending=$(item 2)
case $(screen | head -n 1) in
*recall*)
	keys Tab
	wait_for "Suggested grade"
	keys 1 g # a point ticked: g grades at once
	;;
*choice*) keys 1 Enter ;;
*) keys -l 1; keys Enter ;;
esac
wait_for "EXITED:137"
check_db 2
[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE question='$pending'")" = 0 ] ||
	fail "the answer whose transaction was killed is half there"
[ "$(q "SELECT state FROM quiz_test")" = running ] || fail "the test is no longer running"

# 2. Restart: resumes at question 3; grade it; then kill -9 from outside.
tui_start 80 24 "$ARGS"
wait_for "Self-test in progress: 00-fixture, 2 of 6 answered"
keys s
wait_for "Resumed: 2 of 6 answered"
answer_one 2
check_db 3
pid=$(pgrep -P "$(tmux -L "$SOCK" display -p -t wb '#{pane_pid}')" -x workbench)
[ -n "$pid" ] || fail "cannot find the workbench process"
kill -9 "$pid"
wait_for "EXITED:137"
check_db 3

# 3. Restart again: same order, resumes at question 4, finish the test.
tui_start 80 24 "$ARGS"
keys s
wait_for "Resumed: 3 of 6 answered"
[ "$(q "SELECT group_concat(question) FROM (SELECT question FROM quiz_test_item ORDER BY pos)")" = "$order" ] ||
	fail "the shuffled order changed"
for pos in 3 4 5; do
	answer_one $pos
	next_after
done
wait_for "Test finished"
check_db 6
[ "$(q "SELECT state FROM quiz_test")" = finished ] || fail "test not finished"
# Every position was answered exactly once, in the stored order.
[ "$(q "SELECT COUNT(DISTINCT question) FROM quiz_answer")" = 6 ] || fail "a question was answered twice"
keys q
wait_for "due today"
keys q
wait_for "EXITED:0"
echo ok
