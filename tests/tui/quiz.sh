# quiz.sh - the real binary in tmux takes a whole closed-book self-test of
# the fixture chapter: recall with UTF-8/Chinese text, the editing keys, a
# grade other than the suggested one, choice and numeric questions, a bad
# number, undo, the lesson closed while the test runs (and the test
# resumed), the summary; then every row is read back with sqlite3.  A
# second short test in Chinese checks the zh grade names and abandoning.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }

tui_start 80 24 "$ARGS"
wait_for "0 due today"
keys s
# A new test asks how long first (6 questions: only all of them).
wait_for "1. all 6 questions"
screen | grep -q "The lesson closes once you grade the first answer" || fail "the length question does not say what starting means"
keys Enter
wait_for "Question 1 of 6"

# Recall and numeric questions keep the text box taking the keys: the
# commands there are control keys (^P pause, ^X abandon); a choice
# question takes q and A.  command CHOICE_KEY BOX_KEY sends the one that
# fits the question on screen.
command() {
	case $(screen | head -n 1) in
	*choice* | *选择题*) keys "$1" ;;
	*) keys "$2" ;;
	esac
}

# Which question is on screen: its id is in the header.
current_id() { screen | head -n 1 | grep -o '\[fixture-[a-z-]*\]' | tr -d '[]'; }

paused=0
for i in 1 2 3 4 5 6; do
	wait_for "Question $i of 6"
	id=$(current_id)
	[ -n "$id" ] || fail "no question id on screen"
	case $id in
	fixture-notify)
		# Type, fix a typo with Backspace and the arrows, '?' is text here.
		keys -l '通知只是快照失效 (snapshot is stale)?'
		keys Enter
		keys -l 'relist!!'
		keys BSpace BSpace C-a
		keys -l 'then '
		wait_for "then relist"
		# The text box is a mode with its own keys: F1 shows them (? is
		# text), and the key that closes help is not typed.
		keys F1
		wait_for "Keys on this screen"
		screen | grep -q "erase the word before the cursor" || fail "help does not list the text box keys"
		keys x
		wait_gone "Keys on this screen"
		keys Tab
		wait_for "Rubric: tick the points you covered"
		screen | grep -q "通知只是快照失效 (snapshot is stale)?" || fail "own text not beside the reference"
		wait_for "Suggested grade: Again (0 of 3"
		keys 1
		wait_for "Suggested grade: Partly (2 of 3"
		screen | grep -q "Partly: I recalled some points" || fail "grade meanings not shown"
		keys Enter
		;;
	fixture-fencing)
		# Choose not to write; tick everything; grade Partly anyway.
		keys Tab
		wait_for "(you chose not to write an answer)"
		keys 1 2 3
		wait_for "Suggested grade: Got it (3 of 3"
		keys p
		;;
	fixture-cas-minus-one)
		# A wrong pick, undone, then the right one.
		keys 1 Enter
		wait_for "Not correct"
		keys u
		wait_for "Grade undone"
		[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE question='$id'")" = 0 ] ||
			fail "undo left the answer in the database"
		keys 1 2 Enter
		wait_for "Correct"
		keys Enter
		;;
	fixture-ownership-token)
		keys 1 Enter
		wait_for "Not correct"
		keys Enter
		;;
	fixture-seq-slots)
		keys -l '4096'
		keys Enter
		wait_for "Expected 4096"
		keys Enter
		;;
	fixture-years)
		keys -l 'abc'
		keys Enter
		wait_for "'abc' is not a number"
		keys BSpace BSpace BSpace
		keys -l '69.8'
		keys Enter
		wait_for "Expected 69.7 ± 0.2"
		keys Enter
		;;
	*) fail "unexpected question $id" ;;
	esac
	# The grade key was only sent: count the rows once the screen moved on,
	# which the workbench draws after the answer is committed.
	if [ $i -lt 6 ]; then wait_for "Question $((i + 1)) of 6"; else wait_for "Test finished"; fi
	n=$(q "SELECT COUNT(*) FROM quiz_answer")
	[ "$n" = "$i" ] || fail "after question $i the database holds $n answers"

	# Half way: pause, find the lesson closed, continue the test.
	if [ $i = 3 ] && [ $paused = 0 ]; then
		paused=1
		wait_for "Question 4 of 6"
		command q C-p
		wait_for "Self-test in progress: 00-fixture, 3 of 6 answered"
		keys Enter
		wait_for "A closed-book self-test of this chapter is in progress (3 of 6 answered)"
		screen | grep -q "The lesson stays closed" || fail "the notice does not say why"
		keys c
		wait_for "Resumed: 3 of 6 answered"
	fi
done

wait_for "Test finished"
screen | grep -q "Points 8 of 10 (80%)" || fail "summary points: $(screen | grep Points)"
screen | grep -q "Again 1 · Partly 2 · Got it 3" || fail "summary grades"
screen | grep -q "Weakest questions" || fail "no weakest questions"
screen | grep -q "fixture-ownership-token" || fail "the wrong choice is not among the weakest"

# The rows, as saved.
[ "$(q "SELECT state FROM quiz_test")" = finished ] || fail "test not finished"
[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE closed_book=1 AND lang='en' AND chapter='00-fixture' AND test_uid=(SELECT uid FROM quiz_test)")" = 6 ] ||
	fail "answers not all closed-book en rows of the test"
[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE NOT (shown_at <= revealed_at AND revealed_at <= graded_at)")" = 0 ] ||
	fail "shown/revealed/graded times out of order"
row=$(q "SELECT grade, points, max_points, ticked, answer FROM quiz_answer WHERE question='fixture-notify'")
[ "$row" = "$(printf '2|2|3|1|通知只是快照失效 (snapshot is stale)?\nthen relist')" ] ||
	fail "recall row: $row"
[ "$(q "SELECT grade, points, ticked, answer IS NULL FROM quiz_answer WHERE question='fixture-fencing'")" = "2|3|1,2,3|1" ] ||
	fail "not-written recall row"
[ "$(q "SELECT grade, points, answer FROM quiz_answer WHERE question='fixture-cas-minus-one'")" = "3|1|2" ] ||
	fail "choice row after undo"
[ "$(q "SELECT grade, points, answer FROM quiz_answer WHERE question='fixture-ownership-token'")" = "1|0|1" ] ||
	fail "wrong choice row"
[ "$(q "SELECT grade, answer FROM quiz_answer WHERE question='fixture-years'")" = "3|69.8" ] ||
	fail "numeric row"
[ "$(q "SELECT COUNT(*) FROM quiz_schedule")" = 6 ] || fail "schedules not written"

# Back home, statistics.
keys q
wait_for "due today"
keys p
wait_for "Mastery per chapter"
screen | grep -q "Questions due in the next 14 days" || fail "no due chart"
[ "$(screen | max_width)" -le 80 ] || fail "statistics wider than 80"
keys q
wait_for "due today"
keys q
wait_for "EXITED:0"

# A second test in Chinese: zh grade names; abandoning keeps the answer.
tui_start 80 24 "--content $WB_FIXTURES --db $DB --quizzes $T/instructor --lang zh"
wait_for "今天到期"
keys s
wait_for "Enter 开始"
keys Enter
wait_for "第 1 题，共 6 题"
id=$(current_id)
case $(screen | head -n 1) in
*回忆题*)
	keys -l '写一点'
	keys Tab
	wait_for "部分掌握：想起了一部分要点"
	keys 1 g # a point ticked: g grades at once
	wait_for "第 2 题，共 6 题"
	;;
*选择题*) keys 1 Enter; wait_for "正确" ;;
*) keys -l '1'; keys Enter; wait_for "正确答案" ;;
esac
command A C-x
wait_for "放弃本次测验"
keys y
wait_for "今天到期"
[ "$(q "SELECT state FROM quiz_test WHERE lang='zh'")" = abandoned ] || fail "zh test not abandoned"
[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE lang='zh' AND question='$id'")" = 1 ] ||
	fail "the zh answer is not kept"
keys q
wait_for "EXITED:0"
echo ok
