# class_report.sh - `workbench class report`: three learners answer real
# self-tests (quiz run --plain, three databases), export with `progress
# export --format json --learner NAME`, and the report's figures are the
# ones the answers imply, in text, CSV and JSON; exercises and labs are
# read when an export carries them and shown as unknown otherwise; bad
# files are refused by name.
. "$(dirname "$0")/../lib/common.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed (Debian package jq)"

# Three one-question banks of chapters of their own, so each learner
# answers exactly the questions given (a bank's order is random).
mkdir -p "$T/c/quizzes/en" "$T/c/lessons/en"
cp "$WB_SRC/lessons/en/"*.md "$T/c/lessons/en/"
for n in a:1 b:2 c:3; do
	id=${n%%:*} ans=${n#*:}
	cat >"$T/c/quizzes/en/9$ans-drill-$id.md" <<EOB
# Self-test: drill $id
<!-- title: Drill $id -->
<!-- lang-only: en -->

## [cr-$id] What is $ans?
kind: numeric
answer: $ans

### Answer
$ans.
EOB
done
"$WB_BIN" --content "$T/c" --quizzes "$T/none" quiz lint "$T/c/quizzes/en" >"$T/lint" 2>&1 ||
	fail "fixture banks do not lint: $(cat "$T/lint")"

# answer LEARNER CHAPTER-NUMBER INPUT: one graded answer in LEARNER's db.
t=1900000000
answer() {
	t=$((t + 60))
	printf '%s\n' "$3" | WORKBENCH_NOW=$t "$WB_BIN" --lang en --content "$T/c" \
		--quizzes "$T/none" --db "$T/$1.db" quiz run "9$2-drill-$(echo abc | cut -c"$2")" \
		--plain >"$T/out" 2>&1 || fail "quiz run for $1: $(cat "$T/out")"
	grep -q "Saved:" "$T/out" || fail "no answer saved for $1: $(cat "$T/out")"
}
# ana: all right.  ben: a right, b wrong then right (latest counts),
# no c.  chen: a, b, c wrong.
answer ana 1 1; answer ana 2 2; answer ana 3 3
answer ben 1 1; answer ben 2 5; answer ben 2 2
answer chen 1 9; answer chen 2 9; answer chen 3 9
# ana also runs a lab (id-collision: no servers, passes), twice.
for i in 1 2; do
	"$WB_BIN" --db "$T/ana.db" lab run id-collision >"$T/lab" 2>&1 ||
		fail "lab run id-collision: $(tail -n 5 "$T/lab")"
done
for l in ana ben chen; do
	"$WB_BIN" --db "$T/$l.db" progress export --format json --learner "$l" -o "$T/$l.json" ||
		fail "export of $l"
done

WB="$WB_BIN --width 80 class report"
$WB "$T/ana.json" "$T/ben.json" "$T/chen.json" >"$T/text" 2>"$T/err" ||
	fail "class report failed: $(cat "$T/err")"
row() { grep -E "^$1 +[^ |]" "$T/text" | tr -s ' '; }
# question chapter learners answers mean/max again
[ "$(row cr-a)" = "cr-a 91-drill-a 3 3 0.67/1.00 33%" ] || fail "cr-a: $(row cr-a)"
[ "$(row cr-b)" = "cr-b 92-drill-b 3 4 0.67/1.00 33%" ] || fail "cr-b: $(row cr-b)"
[ "$(row cr-c)" = "cr-c 93-drill-c 2 2 0.50/1.00 50%" ] || fail "cr-c: $(row cr-c)"
# learner questions labs exercises; the export lists lab runs, and
# exercises once the workbench records them (none started here: 0).
jq -e '.labs == [{"id": "id-collision", "passed": true, "runs": 2}]' "$T/ana.json" >/dev/null ||
	fail "ana's export does not list her lab runs: $(jq -c .labs "$T/ana.json")"
ex=-
jq -e 'has("exercises")' "$T/ana.json" >/dev/null && ex=0
[ "$(row ana)" = "ana 3 1 $ex" ] || fail "ana: $(row ana)"
[ "$(row ben)" = "ben 2 0 $ex" ] || fail "ben: $(row ben)"
[ "$(row chen)" = "chen 3 0 $ex" ] || fail "chen: $(row chen)"
# the chart: hardest first (cr-c 50%, then cr-a and cr-b at 33% by id),
# bars in proportion, no line wider than --width
sed -n '/^Hardest/,$p' "$T/text" | tail -n +2 | cut -c1-4 | tr '\n' ' ' >"$T/order"
[ "$(cat "$T/order")" = "cr-c cr-a cr-b " ] || fail "hardest order: $(cat "$T/order")"
c=$(grep -E '^cr-c +\|' "$T/text" | tr -cd '#' | wc -c)
a=$(grep -E '^cr-a +\|' "$T/text" | tr -cd '#' | wc -c)
[ "$c" -eq 20 ] && [ "$a" -eq 13 ] || fail "bars: cr-c $c, cr-a $a (want 20 and 13 of 40)"
awk 'length($0) > 80 { exit 1 }' "$T/text" || fail "a line is wider than 80"

# The same export twice adds nothing.
$WB "$T/ana.json" "$T/ben.json" "$T/chen.json" "$T/ben.json" >"$T/text2" ||
	fail "duplicate export refused"
cmp -s "$T/text" "$T/text2" || fail "a duplicate export changed the figures"

# JSON and CSV carry the same figures.
$WB --format json "$T/ana.json" "$T/ben.json" "$T/chen.json" >"$T/json" || fail "json"
jq -e '.questions | map(select(.id == "cr-b"))[0] | .learners == 3 and .answers == 4
	and (.again_share * 3 | round) == 1 and (.mean_points * 3 | round) == 2' "$T/json" >/dev/null ||
	fail "json cr-b: $(cat "$T/json")"
jq -e '.hardest == ["cr-c", "cr-a", "cr-b"] and (.learners | map(.questions_answered)) == [3, 2, 3]
	and (.learners | map(.labs_passed)) == [1, 0, 0]' "$T/json" >/dev/null || fail "json: $(cat "$T/json")"
$WB --format csv "$T/ana.json" "$T/ben.json" "$T/chen.json" | tr -d '\r' >"$T/csv" || fail "csv"
grep -qx 'question,"cr-c","93-drill-c",2,2,0.5000,1.0000,0.5000' "$T/csv" || fail "csv: $(cat "$T/csv")"
grep -qx 'learner,"ana",3,1,.*' "$T/csv" || fail "csv learner: $(cat "$T/csv")"

# Exercises and labs, when an export carries them (another learner's
# file written by hand in the export's shape).
cat >"$T/dee.json" <<'EOJ'
{"format": "workbench-progress", "version": 1, "answers": [
 {"uid": "u-dee-1", "learner": "dee", "question": "cr-a", "chapter": "91-drill-a",
  "lang": "en", "kind": "numeric", "shown_at": "2030-01-01T00:00:00.000Z",
  "graded_at": "2030-01-01T00:00:00.000Z", "points": 1, "max_points": 1, "grade": "got"}],
 "labs": [{"id": "zk-cas", "passed": true}, {"id": "zk-cas", "passed": true},
          {"id": "redis-lock", "passed": false}],
 "exercises": [{"id": "redis-release", "attempts": 3, "passed": true, "hints": 1},
               {"id": "task-claim", "attempts": 1, "passed": false, "hints": 0}]}
EOJ
$WB "$T/ana.json" "$T/dee.json" >"$T/text" || fail "dee"
[ "$(row dee)" = "dee 1 1 1" ] || fail "dee: $(row dee)"
[ "$(row cr-a)" = "cr-a 91-drill-a 2 2 1.00/1.00 0%" ] || fail "cr-a with dee: $(row cr-a)"

# Bad input: a clear message naming the file, exit 1; no file: usage, 2.
echo '{"answers": [{"uid": "x"}]}' >"$T/bad.json"
$WB "$T/ana.json" "$T/bad.json" >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "a bad export must exit 1"
grep -q "bad.json: answer 1: has no \"question\"" "$T/err" || fail "bad message: $(cat "$T/err")"
echo 'not json' >"$T/junk.json"
$WB "$T/junk.json" >/dev/null 2>"$T/err"; [ $? -eq 1 ] || fail "junk must exit 1"
grep -q "junk.json:1: not JSON" "$T/err" || fail "junk message: $(cat "$T/err")"
$WB "$T/missing.json" >/dev/null 2>"$T/err"; [ $? -eq 1 ] || fail "a missing file must exit 1"
grep -q "missing.json" "$T/err" || fail "missing message: $(cat "$T/err")"
$WB >/dev/null 2>&1; [ $? -eq 2 ] || fail "no file must be a usage error"
$WB --format xml "$T/ana.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "--format xml must exit 2"
echo ok
