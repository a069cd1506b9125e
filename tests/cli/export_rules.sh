# export_rules.sh - review r3 N15: `progress import` and `class report`
# judge a JSON export by one set of rules (core/exchange.c,
# answers_parse_json).  Each bad file below was taken by one command and
# refused by the other (duplicate keys: refused by class report, imported
# by progress import, the last value winning; "points": "1", an escape in
# a question id: imported or shown by one only; graded_at month 99 or
# year 292277026596: refused by import, shown by class report).  Now both
# refuse each one with the same reason and exit 1, and the import
# changes nothing; a good file passes both.
. "$(dirname "$0")/../lib/common.sh"
command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed (Debian package sqlite3)"

# answer [FIELD-OVERRIDES]: one answer object; later keys are appended
# (so a repeated key is a duplicate in the file).
A='"uid": "aa01", "learner": "", "question": "q-a", "chapter": "01-locks-ids-leases",
 "lang": "en", "kind": "numeric", "shown_at": "2026-01-01T00:00:00.000Z",
 "graded_at": "2026-01-01T00:00:05.000Z", "answer": "1", "ticked": null,
 "points": 1, "max_points": 1, "grade": "got", "closed_book": true'
doc() { # FILE TOP-LEVEL-EXTRA ANSWER-BODY
	printf '{"format": "workbench-progress", "version": 1%s, "answers": [{%s}]}\n' "$2" "$3" >"$T/$1.json"
}
doc good "" "$A"

# both FILE REASON: both commands refuse FILE with REASON, nothing imported.
both() {
	"$WB_BIN" --db "$T/p.db" progress import "$T/$1.json" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$1: progress import exit $rc, expected 1: $(cat "$T/out")"
	grep -qF "$2" "$T/out" || fail "$1: progress import does not say '$2': $(cat "$T/out")"
	"$WB_BIN" class report "$T/$1.json" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$1: class report exit $rc, expected 1: $(cat "$T/out")"
	grep -qF "$2" "$T/out" || fail "$1: class report does not say '$2': $(cat "$T/out")"
	n=$(sqlite3 "$T/p.db" 'SELECT COUNT(*) FROM quiz_answer')
	[ "$n" = 0 ] || fail "$1: progress import added $n answers"
}

# The good file first creates the database (import into a copy).
"$WB_BIN" --db "$T/p.db" progress import "$T/good.json" >"$T/out" 2>&1 ||
	fail "good: progress import refused it: $(cat "$T/out")"
sqlite3 "$T/p.db" 'DELETE FROM quiz_answer; DELETE FROM quiz_schedule;' || fail "cannot empty the db"
"$WB_BIN" class report "$T/good.json" >"$T/out" 2>&1 || fail "good: class report refused it: $(cat "$T/out")"
grep -q "q-a" "$T/out" || fail "good: the report lacks q-a: $(cat "$T/out")"

doc dup-answers ', "answers": []' "$A"
both dup-answers "duplicate object key"
doc dup-uid "" "$A, \"uid\": \"bb02\""
both dup-uid "duplicate object key"
doc points-string "" "$(echo "$A" | sed 's/"points": 1,/"points": "1",/')"
both points-string 'answer 1: "points" is not an integer'
doc graded-99 "" "$(echo "$A" | sed 's/"graded_at": "[^"]*"/"graded_at": "9999-99-99T99:99:99Z"/')"
both graded-99 "answer 1: bad graded_at"
doc graded-year "" "$(echo "$A" | sed 's/"graded_at": "[^"]*"/"graded_at": "292277026596-01-01T00:00:00Z"/')"
both graded-year "answer 1: bad graded_at"
doc question-esc "" "$(echo "$A" | sed 's/"question": "q-a"/"question": "q\\u001b[2Ja"/')"
both question-esc "answer 1: bad question id"
doc no-chapter "" "$(echo "$A" | sed 's/"chapter": "[^"]*",//')"
both no-chapter 'answer 1: has no "chapter"'
doc other-format "" "$A"
sed -i 's/"workbench-progress"/"workbench-other"/' "$T/other-format.json"
both other-format "not a workbench progress export"
doc bad-lab ', "labs": [{"id": "", "passed": true}]' "$A"
both bad-lab 'lab 1: "id" must be a string of 1 to 63 bytes'
doc bad-exercise ', "exercises": [{"id": "x", "passed": true, "attempts": 0}]' "$A"
both bad-exercise 'exercise 1: "passed" is true with no attempt'
echo ok
