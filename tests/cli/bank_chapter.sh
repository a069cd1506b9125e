# bank_chapter.sh - a bank for a chapter without a lesson (ux.md, further
# problems, "Instructor friction": quiz lint called it an unknown chapter
# while `quiz run 09-team-drills --plain` ran it as "Review: questions due
# today").  Now both agree: without a lesson the bank must give the
# chapter a title of its own ('<!-- title: ... -->' under its '# '
# line); then lint accepts it and quiz run titles the test with it.
# Without one, lint's error and quiz run's refusal say the same thing.
. "$(dirname "$0")/../lib/common.sh"

I="$T/instructor"
mkdir -p "$I/en"
F="$I/en/09-team-drills.md"
cat >"$F" <<'BANK'
# Self-test: team drills
<!-- lang-only: en -->

## [drill-slots] How many sequence values does a 12-bit field give per millisecond?
kind: numeric
answer: 4096

### Answer
2^12 = 4096.
BANK
WB="$WB_BIN --lang en --content $WB_SRC --db $T/progress.db --quizzes $I"
q() { sqlite3 "$T/progress.db" "$1"; }

# No title: lint's error, and quiz run refuses with the same words.
$WB quiz lint "$I" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "lint must fail: $(cat "$T/out")"
msg="unknown chapter '09-team-drills': there is no $WB_SRC/lessons/en/09-team-drills.md; a bank of a chapter of its own gives it a title with '<!-- title: ... -->'"
grep -qF "$F:1: error: $msg" "$T/out" || fail "lint message: $(cat "$T/out")"
printf '4096\n' | $WB quiz run 09-team-drills --plain >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "quiz run of an unknown chapter must exit 1: $(cat "$T/out")"
grep -qF "workbench: $msg" "$T/err" || fail "quiz run refusal: $(cat "$T/err")"
grep -q "Review: questions due today" "$T/out" && fail "run as a review: $(cat "$T/out")"
[ "$(q "SELECT COUNT(*) FROM quiz_test")" = 0 ] || fail "a test was started"

# With a title: lint is clean and quiz run uses it.
sed -i '1a <!-- title: Team drills -->' "$F"
$WB quiz lint "$I" >"$T/out" 2>"$T/err" || fail "lint with a title: $(cat "$T/out")"
grep -q "0 errors, 0 warnings" "$T/err" || fail "lint with a title warns: $(cat "$T/out")"
printf '4096\n' | $WB quiz run 09-team-drills --plain >"$T/out" 2>"$T/err" || fail "run: $(cat "$T/err")"
grep -q "^Self-test: Team drills$" "$T/out" || fail "title: $(cat "$T/out")"
grep -q "Saved: Got it, 1/1 points" "$T/out" || fail "not graded: $(cat "$T/out")"

# A title on a bank whose chapter has a lesson is not used: a warning.
mkdir -p "$I/zh"
printf '# 自测\n<!-- title: 别的标题 -->\n<!-- lang-only: zh -->\n\n## [x-one] 一?\nkind: numeric\nanswer: 1\n\n### Answer\n一。\n' \
	>"$I/zh/01-locks-ids-leases.md"
$WB quiz lint "$I/zh/01-locks-ids-leases.md" >"$T/out" 2>"$T/err"
grep -qF "01-locks-ids-leases.md:2: warning: chapter 01-locks-ids-leases has a lesson; its title comes from the lesson, not from this title:" "$T/out" ||
	fail "unused title not warned: $(cat "$T/out")"
echo ok
