# sched.sh - the review's day and its new questions on the command line
# (issue 14, Anki habits): the day rolls over at 4 am local time, not 24 h
# after the last review (--day-starts HOUR moves it); a review brings in
# at most --new-per-day new questions a day (global or on `quiz run`);
# the plain runner's grade prompt shows the next interval of each grade.
. "$(dirname "$0")/../lib/common.sh"

export TZ=UTC0
WB="$WB_BIN --lang en --content $WB_FIXTURES --db $T/progress.db --quizzes $T/instructor"
ELEVEN_PM=1767308400 # 2026-01-01 23:00 UTC
run_at() { t=$1; shift; printf '%s' "$INPUT" | WORKBENCH_NOW=$t $WB "$@" >"$T/out" 2>&1; }

# 23:00: a review with one new question (fixture-notify), graded Again.
INPUT='draft\n.\n\na\n'
INPUT=$(printf "$INPUT")
run_at $ELEVEN_PM quiz run --due --plain --new-per-day 1 || fail "first review: $(cat "$T/out")"
grep -q "Question 1 of 1 \[fixture-notify\]" "$T/out" || fail "one new question: $(cat "$T/out")"
grep -q "^Next review: Again: tomorrow · Partly: tomorrow · Got it: 3 d$" "$T/out" ||
	fail "no intervals in the grade prompt: $(cat "$T/out")"
grep -q "Saved: Again" "$T/out" || fail "not saved"

# 02:00 is still the same day: nothing due (and no new questions allowed).
INPUT=':quit
'
run_at $((ELEVEN_PM + 3 * 3600)) --new-per-day 0 quiz run --due --plain ||
	fail "02:00 review: $(cat "$T/out")"
grep -q "No questions are due for review today" "$T/out" ||
	fail "due again 3 hours after the lapse: $(cat "$T/out")"
# 05:00 is the next day: the lapse is due.
run_at $((ELEVEN_PM + 6 * 3600)) --new-per-day 0 quiz run --due --plain
grep -q "Question 1 of 1 \[fixture-notify\]" "$T/out" || fail "not due at 05:00: $(cat "$T/out")"
$WB quiz run --due --plain --abandon >/dev/null || fail "abandon"
# With days starting at midnight, 02:00 is already the next day.
run_at $((ELEVEN_PM + 3 * 3600)) --day-starts 0 --new-per-day 0 quiz run --due --plain
grep -q "Question 1 of 1 \[fixture-notify\]" "$T/out" || fail "--day-starts 0: $(cat "$T/out")"
$WB quiz run --due --plain --abandon >/dev/null || fail "abandon"

# The daily limit of new questions: the default brings the five never
# graded; --new-per-day 2 (on quiz run) brings two, of which the one
# first graded today at 23:00 used none the next day.
run_at $((ELEVEN_PM + 6 * 3600)) quiz run --due --plain
grep -q "Question 1 of 6 " "$T/out" || fail "default limit: $(cat "$T/out")"
$WB quiz run --due --plain --abandon >/dev/null || fail "abandon"
run_at $((ELEVEN_PM + 6 * 3600)) quiz run --due --plain --new-per-day 2
grep -q "Question 1 of 3 " "$T/out" || fail "--new-per-day 2: $(cat "$T/out")"
$WB quiz run --due --plain --abandon >/dev/null || fail "abandon"
# On the day of the first review one of the two is used up.
run_at $((ELEVEN_PM + 1800)) quiz run --due --plain --new-per-day 2
grep -q "Question 1 of 1 " "$T/out" || fail "allowance not used up: $(cat "$T/out")"
$WB quiz run --due --plain --abandon >/dev/null || fail "abandon"

# Bad values are usage errors.
for bad in "--new-per-day -1" "--new-per-day x" "--day-starts 24" "--day-starts 4am"; do
	$WB $bad quiz list >/dev/null 2>"$T/err"
	[ $? -eq 2 ] || fail "$bad must exit 2"
	grep -q "must be a whole number" "$T/err" || fail "$bad: $(cat "$T/err")"
done
$WB quiz run --due --plain --new-per-day -3 </dev/null >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "quiz run --new-per-day -3 must exit 2"
echo ok
