# sql_params.sh - ids and answers full of quotes and SQL go in as data.
#
# SQL is only ever run with bound parameters; this test feeds hostile
# text through every way a learner or an instructor can put text into
# the progress database and checks it comes back byte for byte while the
# tables stay as they were:
#  - recall answers typed into `quiz run --plain` (quotes, SQL, control
#    characters, emoji, and bytes that are not UTF-8, which become U+FFFD);
#  - question ids and chapter comments in an instructor's bank (ids with
#    quotes are lint errors at file:line and never reach the database);
#  - chapter ids on the command line (refused as not a chapter id);
#  - progress export/import in CSV and JSON (learner names and answers
#    with SQL round-trip; uids, question and chapter ids with SQL and
#    answers that are not UTF-8 are refused naming the row, nothing is
#    imported).
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
I="$T/instructor"
DB="$T/progress.db"
WB="$WB_BIN --content $C --db $DB --quizzes $I --lang en"
q() { sqlite3 "$1" "$2"; }
schema() { sqlite3 "$1" "SELECT type || ' ' || name || ' ' || COALESCE(sql, '') FROM sqlite_master ORDER BY name"; }
hex() { od -An -v -tx1 | tr -d ' \n' | tr a-f A-F; }
intact() { # DB: the schema is the fresh one and integrity_check is ok
	[ "$(schema "$1")" = "$(cat "$T/schema")" ] || fail "the schema of $1 changed: $(schema "$1")"
	[ "$(q "$1" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check of $1"
}

mkdir -p "$C/lessons/en" "$I/en"
printf '# SQL as data\n\nA chapter.\n' >"$C/lessons/en/00-sql.md"
cat >"$I/en/00-sql.md" <<'EOF'
# Self-test: SQL as data

## [sql-a] What does '); DROP TABLE quiz_answer; -- do here?
kind: recall

### Answer
Nothing: it is "data" ' OR '1'='1.

### Rubric
- 1: it is stored as text; no "statement" runs

## [x'); DROP TABLE quiz_answer; --] Is an id with SQL refused?

### Answer
Yes.

### Rubric
- 1: yes

## [sql-b] And " OR 1=1 -- in a question?

### Answer
Also data.

### Rubric
- 1: data

## [a" OR 1=1 --] And this id?

### Answer
Refused.

### Rubric
- 1: refused

## [sql-c] Robert'); DROP TABLE quiz_test;--

### Answer
Little Bobby Tables.

### Rubric
- 1: bound parameters
EOF
cat >"$I/en/bank.md" <<'EOF'
# Self-test: a bank named by a comment
<!-- chapter: 00-sql'); DROP TABLE quiz_test; -- -->

## [sql-d] Never reaches a bank?

### Answer
No chapter.

### Rubric
- 1: no
EOF

# A fresh database (an empty import makes it: progress export never
# creates one): its schema is what every check compares with.
echo '{"answers": []}' >"$T/empty.json"
$WB progress import "$T/empty.json" >/dev/null || fail "import into a new database"
$WB progress export >/dev/null || fail "export of an empty database"
schema "$DB" >"$T/schema"
grep -q "TABLE quiz_answer" "$T/schema" || fail "no quiz_answer table in a fresh database"

# ---- the instructor's bank ----
$WB quiz lint "$I" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "lint must fail on ids with SQL: $(cat "$T/out")"
grep -qF "$I/en/00-sql.md:12: error: malformed id 'x'); DROP TABLE quiz_answer; --'" "$T/out" ||
	fail "lint: $(cat "$T/out")"
grep -qF "$I/en/00-sql.md:28: error: malformed id 'a\" OR 1=1 --'" "$T/out" || fail "lint: $(cat "$T/out")"
grep -qF "$I/en/bank.md:2: error: malformed chapter id '00-sql'); DROP TABLE quiz_test; --' in the chapter comment" "$T/out" ||
	fail "lint: $(cat "$T/out")"
$WB quiz list 00-sql >"$T/out" 2>"$T/err" || fail "quiz list"
[ "$(cut -f 1 "$T/out" | sort | tr '\n' ' ')" = "sql-a sql-b sql-c " ] || fail "bank: $(cat "$T/out")"
grep -q "3 questions with errors or duplicate ids left out" "$T/err" || fail "list: $(cat "$T/err")"

# ---- chapter ids on the command line ----
for bad in "00-x'); DROP TABLE quiz_answer; --" "\" OR 1=1 --" "00-sql' OR '1'='1"; do
	$WB quiz run "$bad" --plain </dev/null >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] || fail "quiz run accepted the chapter id $bad"
	grep -qF "'$bad' is not a chapter id" "$T/err" || fail "quiz run $bad: $(cat "$T/err")"
	$WB quiz new "$bad" >/dev/null 2>"$T/err"
	[ $? -eq 2 ] || fail "quiz new accepted the chapter id $bad"
	$WB lesson show "$bad" >/dev/null 2>"$T/err"
	[ $? -eq 2 ] || fail "lesson show accepted the chapter id $bad"
done
intact "$DB"

# ---- recall answers typed in the plain runner ----
printf '%s\n' "'); DROP TABLE quiz_answer; --" "\" OR 1=1 --" "x'; DELETE FROM quiz_schedule WHERE '1'='1" >"$T/ans0"
printf '\342\200\256RLO \360\237\222\243 \316\251 \001\002\033[31mred\033[0m\ttab \\ %%s %%n $(id) `id`\n' >"$T/ans1"
printf 'Robert\047); DROP TABLE quiz_test;--\n\377\376 not UTF-8\n' >"$T/ans2"
for i in 0 1 2; do
	cat "$T/ans$i"
	printf '.\nall\n\n'
done >"$T/input"
WORKBENCH_SEED=5 $WB quiz run 00-sql --plain <"$T/input" >"$T/out" 2>"$T/err" || fail "quiz run: $(cat "$T/err")"
grep -q "Test finished" "$T/out" || fail "the test did not finish: $(cat "$T/out")"
[ "$(grep -c '^Saved: Got it, 1/1 points' "$T/out")" = 3 ] || fail "not three answers saved: $(cat "$T/out")"
intact "$DB"
[ "$(q "$DB" 'SELECT COUNT(*) FROM quiz_answer')" = 3 ] || fail "answers: $(q "$DB" 'SELECT COUNT(*) FROM quiz_answer')"
[ "$(q "$DB" 'SELECT COUNT(*) FROM quiz_schedule')" = 3 ] || fail "schedules"
[ "$(q "$DB" "SELECT state FROM quiz_test")" = finished ] || fail "test state"
stored() { # POS: the answer given at that position, in hex
	q "$DB" "SELECT hex(a.answer) FROM quiz_answer a JOIN quiz_test_item i ON i.test_uid = a.test_uid AND i.question = a.question WHERE i.pos = $1"
}
for i in 0 1; do
	want=$(head -c -1 "$T/ans$i" | hex)
	[ "$(stored $i)" = "$want" ] || fail "answer $i came back as $(stored $i), typed $want"
done
# Bytes that are not UTF-8 are stored as U+FFFD, the rest as typed.
want=$(printf 'Robert\047); DROP TABLE quiz_test;--\n\357\277\275\357\277\275 not UTF-8' | hex)
[ "$(stored 2)" = "$want" ] || fail "answer 2 came back as $(stored 2), expected $want"
$WB quiz stats >"$T/out" || fail "quiz stats"
[ "$(grep -c '^sql-' "$T/out")" = 3 ] || fail "stats: $(cat "$T/out")"

# ---- progress export and import ----
learner="O'Brien'); DROP TABLE quiz_answer; --"
rows() { q "$1" "SELECT uid, learner, question, chapter, hex(answer), ticked, grade FROM quiz_answer ORDER BY uid"; }
q "$DB" "SELECT uid, '$(printf '%s' "$learner" | sed "s/'/''/g")', question, chapter, hex(answer), ticked, grade FROM quiz_answer ORDER BY uid" >"$T/want"
for fmt in csv json; do
	$WB progress export --format $fmt --learner "$learner" -o "$T/export.$fmt" || fail "export $fmt"
	other="$T/other-$fmt.db"
	"$WB_BIN" --db "$other" progress import "$T/export.$fmt" >"$T/out" || fail "import $fmt: $(cat "$T/out")"
	grep -q "imported 3 answers, 0 already present" "$T/out" || fail "import $fmt: $(cat "$T/out")"
	intact "$other"
	rows "$other" >"$T/got"
	cmp -s "$T/want" "$T/got" || fail "$fmt round trip changed the rows: $(diff "$T/want" "$T/got")"
	"$WB_BIN" --db "$other" progress export --format $fmt >"$T/again.$fmt"
	cmp -s "$T/export.$fmt" "$T/again.$fmt" || fail "$fmt export differs after a round trip"
	# Another learner's answers schedule nothing here.
	[ "$(q "$other" 'SELECT COUNT(*) FROM quiz_schedule')" = 0 ] || fail "another learner's answers were scheduled"
done
$WB progress export --learner "$(printf 'bad\377name')" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "a learner name that is not UTF-8 must be refused"

# Hand-written imports: SQL in free text is data; SQL in an id is refused.
H="uid,learner,test,question,chapter,lang,kind,shown_at,revealed_at,graded_at,answer,ticked,points,max_points,grade,closed_book"
T0="2026-01-01T00:00:00.000Z,,2026-01-01T00:00:05.000Z"
printf '%s\r\n%s\r\n' "$H" "bb01,\"\"\" OR 1=1 --\",,sql-a,00-sql,en,recall,$T0,\"'); DROP TABLE quiz_schedule; --\",\"1'--\",1,1,got,1" >"$T/ok.csv"
"$WB_BIN" --db "$T/hand.db" progress import "$T/ok.csv" >"$T/out" || fail "hand import: $(cat "$T/out")"
intact "$T/hand.db"
[ "$(q "$T/hand.db" "SELECT learner || '|' || answer || '|' || ticked FROM quiz_answer")" = "\" OR 1=1 --|'); DROP TABLE quiz_schedule; --|1'--" ] ||
	fail "hand import stored: $(q "$T/hand.db" "SELECT learner, answer, ticked FROM quiz_answer")"
cat >"$T/ok.json" <<'EOF'
{"answers": [{"uid": "bb02", "learner": "x'); DELETE FROM quiz_answer; --", "question": "sql-b",
  "chapter": "00-sql", "lang": "en", "kind": "recall", "shown_at": "2026-01-02T00:00:00Z",
  "graded_at": "2026-01-02T00:00:09Z", "answer": "\" OR \"\"=\"", "ticked": "", "points": 0,
  "max_points": 1, "grade": "again"}]}
EOF
"$WB_BIN" --db "$T/hand.db" progress import "$T/ok.json" >"$T/out" || fail "hand json import: $(cat "$T/out")"
intact "$T/hand.db"
[ "$(q "$T/hand.db" "SELECT answer FROM quiz_answer WHERE uid = 'bb02'")" = '" OR ""="' ] || fail "json answer"
[ "$(q "$T/hand.db" 'SELECT COUNT(*) FROM quiz_answer')" = 2 ] || fail "hand imports: two rows expected"

refused() { # NAME MESSAGE ROW: a CSV with ROW is refused with MESSAGE, nothing imported
	printf '%s\r\n%s\r\n%s\r\n' "$H" "cc01,,,sql-c,00-sql,en,recall,$T0,fine,,0,1,again,1" "$3" >"$T/$1.csv"
	"$WB_BIN" --db "$T/hand.db" progress import "$T/$1.csv" >"$T/out" 2>"$T/err"
	[ $? -eq 1 ] || fail "$1: the import was not refused"
	grep -qF "$T/$1.csv: row 3: $2; nothing was imported" "$T/err" || fail "$1: $(cat "$T/err")"
	[ "$(q "$T/hand.db" 'SELECT COUNT(*) FROM quiz_answer')" = 2 ] || fail "$1: something was imported"
	intact "$T/hand.db"
}
refused uid "bad uid" "\"' OR '1'='1\",,,sql-c,00-sql,en,recall,$T0,x,,0,1,again,1"
refused question "bad question id" "cc02,,,\"q'); DROP TABLE quiz_answer; --\",00-sql,en,recall,$T0,x,,0,1,again,1"
refused chapter "bad chapter id" "cc03,,,sql-c,\"00-sql'; DROP TABLE quiz_test; --\",en,recall,$T0,x,,0,1,again,1"
refused test "bad test uid" "cc04,,\"t\"\" OR 1=1 --\",sql-c,00-sql,en,recall,$T0,x,,0,1,again,1"
refused kind "bad kind" "cc05,,,sql-c,00-sql,en,\"recall'--\",$T0,x,,0,1,again,1"
refused utf8 "the answer is not valid UTF-8" "$(printf 'cc06,,,sql-c,00-sql,en,recall,%s,bad \377 byte,,0,1,again,1' "$T0")"
intact "$DB"
echo ok
