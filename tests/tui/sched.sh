# sched.sh - Anki habits in the TUI (issue 14): the home screen shows each
# chapter's due count and how many new questions today's review brings in
# (--new-per-day); the grade keys of a recall question show the interval
# each grade would give (FSRS-5, worked out in tests/unit/test_sched.c),
# in English and in Chinese.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --quizzes $T/instructor"
now=$(date +%s)
yesterday=$((now - 86400))

# Yesterday: a review with one new question (fixture-notify, first in bank
# order), graded Again.  It is due today.
printf 'not sure\n.\n\na\n' | WORKBENCH_NOW=$yesterday "$WB_BIN" $ARGS --lang en \
	quiz run --due --plain --new-per-day 1 >"$T/out" 2>&1 || fail "yesterday's review: $(cat "$T/out")"
grep -q "\[fixture-notify\]" "$T/out" || fail "not the first new question: $(cat "$T/out")"
grep -q "Next review: Again: tomorrow · Partly: tomorrow · Got it: 3 d" "$T/out" ||
	fail "plain prompt has no next intervals: $(cat "$T/out")"
grep -q "Saved: Again" "$T/out" || fail "not graded Again"

tui_start 80 24 "$ARGS --lang en --new-per-day 2"
wait_for "1 due today, 2 new"
screen | grep "^ *00 " | grep -q "1 due" || fail "no due count on the chapter row"
keys q
wait_for "EXITED:0"
# Without new questions the review is the one due question.
tui_start 80 24 "$ARGS --lang en --new-per-day 0"
wait_for "1 due today, 0 new"
keys r
wait_for "Enter start" # the test-length choice
keys Enter
wait_for "Question 1 of 1"
screen | head -n 1 | grep -q "fixture-notify" || fail "not the due question"
keys -l 'a snapshot'
keys Tab
wait_for "Rubric: tick the points you covered"
# Again yesterday (S 0.40255, D 7.1949), one day on: R 0.794877, Hard S
# 0.833709 -> 1 day, Good S 2.265009 -> 2 days.
wait_for "a  tomorrow · Again: I could not recall the key points"
screen | grep -q "p  tomorrow · Partly: I recalled some points" || fail "Partly's interval"
screen | grep -q "g  2 d · Got it: I recalled every point" || fail "Got it's interval"
keys g
wait_for "Got it with 0 of" # nothing ticked: asked first
keys y
wait_for "Test finished"
keys q
wait_for "0 due today, 0 new"
keys q
wait_for "EXITED:0"

# Chinese, a new learner: one new question today; its keys in Chinese.
ARGS="--content $WB_FIXTURES --db $T/zh.db --quizzes $T/instructor"
tui_start 80 24 "$ARGS --lang zh --new-per-day 1"
wait_for "今天到期 0 题，新题 1 道"
wait_for "新题 1 道"
keys r
wait_for "Enter 开始" # the test-length choice
keys Enter
wait_for "第 1 题"
keys -l '快照'
keys Tab
wait_for "a  明天 · 没掌握"
screen | grep -q "g  3 天 · 已掌握" || fail "zh Got it interval"
echo ok
