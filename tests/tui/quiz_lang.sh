# quiz_lang.sh - L inside a self-test switches the language of the
# running test (ux.md problem 11): started in English, L (^L in the answer
# box, where letters are text) shows the same question from the Chinese
# bank with the Chinese UI, the text in the box stays, and progress.db
# still holds the same running test with nothing graded; L again goes
# back to English.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --quizzes $T/instructor --lang en"
ZH_BANK="$WB_FIXTURES/quizzes/zh/00-fixture.md"
q() { sqlite3 "$DB" "$1"; }
current_id() { screen | head -n 1 | grep -o '\[fixture-[a-z-]*\]' | tr -d '[]'; }
# The first characters of question $1's text in the Chinese bank.
zh_text() {
	grep "^## \[$1\] " "$ZH_BANK" | sed 's/^## \[[^]]*\] //' |
		LC_ALL=C.UTF-8 sed 's/^\(.\{6\}\).*/\1/'
}

tui_start 80 24 "$ARGS"
wait_for "0 due today"
keys s
wait_for "Enter start"
keys Enter
wait_for "Question 1 of 6"
id=$(current_id)
[ -n "$id" ] || fail "no question id on screen"
echo "first question: $id"
uid=$(q "SELECT uid FROM quiz_test WHERE state='running'")
[ -n "$uid" ] || fail "no running test in the database"

case $(screen | head -n 1) in
*choice*)
	# A choice question takes L as a command.
	keys 1
	keys L
	;;
*)
	# The answer box takes letters as text: ^L switches, the text stays.
	keys -l "draft kept"
	wait_for "draft kept"
	keys C-l
	;;
esac
wait_for "第 1 题，共 6 题"
zh=$(zh_text "$id")
[ -n "$zh" ] || fail "no Chinese text for $id in the fixture bank"
screen | grep -q -F "$zh" || fail "the question is not shown in Chinese ($zh)"
[ "$(current_id)" = "$id" ] || fail "L moved to another question: $(current_id), not $id"
case $(screen | head -n 1) in
*选择题*) ;;
*) screen | grep -q "draft kept" || fail "the text in the box was lost" ;;
esac

# The same test runs, nothing was graded or written as a draft.
[ "$(q "SELECT COUNT(*) FROM quiz_test")" = 1 ] || fail "tests: $(q "SELECT uid, state FROM quiz_test")"
[ "$(q "SELECT uid FROM quiz_test WHERE state='running'")" = "$uid" ] ||
	fail "the running test changed: $(q "SELECT uid, state FROM quiz_test")"
[ "$(q "SELECT COUNT(*) FROM quiz_answer")" = 0 ] || fail "switching the language graded something"
[ "$(q "SELECT COUNT(*) FROM quiz_test_item WHERE test_uid='$uid'")" = 6 ] || fail "the test lost questions"

# Back to English, on a revealed question when it is a recall one.
case $(screen | head -n 1) in
*回忆题*)
	keys Tab
	wait_for "评分要点"
	keys L
	wait_for "Rubric: tick the points you covered"
	screen | grep -q "draft kept" || fail "the text beside the reference was lost"
	;;
*选择题*) keys L ;;
*) keys C-l ;;
esac
wait_for "Question 1 of 6"
[ "$(current_id)" = "$id" ] || fail "L back moved to another question"
[ "$(q "SELECT uid FROM quiz_test WHERE state='running'")" = "$uid" ] || fail "the running test changed"
[ "$(q "SELECT COUNT(*) FROM quiz_answer")" = 0 ] || fail "switching back graded something"
keys C-p
wait_for "Self-test in progress"
keys q
wait_for "EXITED:0"
echo ok
