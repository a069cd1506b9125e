# quiz_draft.sh - pausing keeps the answer being written (ux.md problem
# 12): q after the reveal and ^P in the answer box keep the text as a
# draft in progress.db (table quiz_draft), s resumes with it back in the
# box, nothing graded changes, and grading the question removes the
# draft.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }
kind() { screen | head -n 1 | grep -o 'recall\|choice\|numeric'; }

# s on the chapter; confirms the length question when there is one.
start_or_resume() {
	keys s
	deadline=$(($(date +%s) + 60))
	until screen | grep -q -e "Question [0-9]* of" -e "Enter start"; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "no test and no length question after s"
		sleep 0.05
	done
	if screen | grep -q "Enter start"; then keys Enter; fi
	wait_for "Question"
}

# Grades non-recall questions until a recall one is on screen.
to_recall() {
	while [ "$(kind)" != recall ]; do
		n=$(screen | head -n 1 | grep -o 'Question [0-9]*' | grep -o '[0-9]*')
		case $(kind) in
		choice) keys 1 Enter; wait_for "Saved:"; keys Enter ;;
		*) keys -l 1; keys Enter; wait_for "Saved:"; keys Enter ;;
		esac
		wait_for "Question $((n + 1)) of 6"
	done
}

tui_start 80 24 "$ARGS"
wait_for "0 due today"
start_or_resume
to_recall
answered=$(q "SELECT COUNT(*) FROM quiz_answer")

# 1. Written, revealed, then q: the text comes back on resume.
keys -l "draft answer about h to h+n"
keys Tab
wait_for "Suggested grade"
keys q
wait_for "Self-test in progress: 00-fixture"
start_or_resume
wait_for "draft answer about h to h+n"
screen | grep -q "Your unfinished answer is back in the box" || fail "the restored draft is not announced"
[ "$(q "SELECT COUNT(*) FROM quiz_answer")" = "$answered" ] || fail "pausing graded something"

# 2. Writing on, then ^P straight from the box: the longer text is kept.
keys -l " and more"
wait_for "h+n and more"
keys C-p
wait_for "your unfinished answer is kept"
[ "$(q "SELECT text FROM quiz_draft")" = "draft answer about h to h+n and more" ] ||
	fail "draft row: $(q "SELECT * FROM quiz_draft")"
keys q
wait_for "EXITED:0"

# 3. A restart keeps it too; grading removes it, and the grade holds the text.
tui_start 80 24 "$ARGS"
wait_for "Self-test in progress: 00-fixture"
start_or_resume
wait_for "draft answer about h to h+n and more"
id=$(screen | head -n 1 | grep -o '\[fixture-[a-z-]*\]' | tr -d '[]')
keys Tab
wait_for "Suggested grade"
keys a
wait_for "Saved: Again"
[ "$(q "SELECT COUNT(*) FROM quiz_draft")" = 0 ] || fail "the draft outlived the grade"
[ "$(q "SELECT answer FROM quiz_answer WHERE question='$id'")" = "draft answer about h to h+n and more" ] ||
	fail "the graded answer is not the draft's text"
keys C-p
wait_for "Self-test in progress"
keys q
wait_for "EXITED:0"
echo ok
