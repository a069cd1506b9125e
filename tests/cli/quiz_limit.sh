# quiz_limit.sh - `quiz run --plain --limit N` (ux.md problem 11): N must
# be a number from 1 to the chapter's size, else a usage error (exit 2)
# before anything is written; a new test asks N questions; on resume the
# paused test is cut to at most N still to ask, and says so.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
WB="$WB_BIN --content $WB_FIXTURES --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }

for bad in 0 x -1 2.5 7 ""; do
	$WB quiz run 00-fixture --plain --limit "$bad" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || fail "--limit '$bad' exited $rc: $(cat "$T/out" "$T/err")"
	grep -q -e "--limit" "$T/err" || fail "--limit '$bad': the message does not name --limit: $(cat "$T/err")"
done
[ ! -f "$DB" ] || [ "$(q "SELECT COUNT(*) FROM quiz_test")" = 0 ] || fail "a refused --limit started a test"

# The whole chapter, paused at once; resumed with --limit 2: two to go.
printf ':quit\n' | $WB quiz run 00-fixture --plain >"$T/out" || fail "start: $(cat "$T/out")"
grep -q "Question 1 of 6" "$T/out" || fail "whole test: $(cat "$T/out")"
printf ':quit\n' | $WB quiz run 00-fixture --plain --limit 2 >"$T/out" || fail "resume: $(cat "$T/out")"
grep -q "Resumed: 0 of 2 answered (--limit 2: at most 2 more)" "$T/out" || fail "resume with --limit: $(cat "$T/out")"
grep -q "Question 1 of 2" "$T/out" || fail "the cut test: $(cat "$T/out")"
[ "$(q "SELECT COUNT(*) FROM quiz_test_item")" = 2 ] || fail "the cut test holds $(q "SELECT COUNT(*) FROM quiz_test_item") items"
$WB quiz run 00-fixture --plain --abandon >/dev/null || fail "--abandon"

# A new test of 3.
printf ':quit\n' | $WB quiz run 00-fixture --plain --limit 3 >"$T/out" || fail "limit 3: $(cat "$T/out")"
grep -q "Question 1 of 3" "$T/out" || fail "limit 3: $(cat "$T/out")"
echo ok
