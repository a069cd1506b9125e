# csv_import.sh - `progress import` of CSV read by libcsv (core/exchange.c):
# a real export with commas, quotes, CRLF and newlines inside answers
# round-trips exactly; malformed quoting that the old hand-written reader
# guessed at (text after a closing quote, a quote inside an unquoted
# field) is refused with the row and nothing imported; blanks around an
# unquoted field are data (RFC 4180), not trimmed.
. "$(dirname "$0")/../lib/common.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed (Debian package jq)"
command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"

mkdir -p "$T/c/quizzes/en"
ln -s "$WB_SRC/lessons" "$T/c/lessons"
cat >"$T/c/quizzes/en/01-locks-ids-leases.md" <<'EOB'
# Self-test: csv

## [csv-one] One?
kind: numeric
answer: 1

### Answer
One.
EOB
printf '1\n' | "$WB_BIN" --lang en --content "$T/c" --quizzes "$T/none" --db "$T/a.db" \
	quiz run 01-locks-ids-leases --plain >"$T/out" 2>&1 || fail "quiz run: $(cat "$T/out")"
"$WB_BIN" --db "$T/a.db" progress export --format json >"$T/a.json" || fail "export"
tricky='a, "quoted" text,
second line
third 中文，逗号'
jq --arg t "$tricky" '.answers |= [.[0], (.[0] | .uid = "u-x1" | .answer = $t),
	(.[0] | .uid = "u-x2" | .answer = " lead and trail ")]' "$T/a.json" >"$T/b.json"
"$WB_BIN" --db "$T/b.db" progress import "$T/b.json" >/dev/null || fail "json import"
"$WB_BIN" --db "$T/b.db" progress export --format csv -o "$T/b.csv" || fail "csv export"
"$WB_BIN" --db "$T/c.db" progress import "$T/b.csv" >"$T/out" || fail "csv import: $(cat "$T/out")"
grep -q "imported 3 answers" "$T/out" || fail "csv import count: $(cat "$T/out")"
"$WB_BIN" --db "$T/c.db" progress export --format csv -o "$T/c.csv" || fail "re-export"
cmp -s "$T/b.csv" "$T/c.csv" || fail "the CSV round trip changed the export"
[ "$(sqlite3 "$T/c.db" "SELECT answer FROM quiz_answer WHERE uid = 'u-x1'")" = "$tricky" ] ||
	fail "the tricky answer changed"

# A hand-made file: header and one good row from the export, then a bad one.
head -c "$(awk 'NR <= 2 { n += length($0) + 1 } END { print n }' "$T/b.csv")" "$T/b.csv" >"$T/head.csv"
row=$(sed -n 2p "$T/b.csv" | tr -d '\r')
refused() { # NAME ROW: the file with ROW as row 3 is refused naming row 3
	{ cat "$T/head.csv"; printf '%s\r\n' "$2"; } >"$T/$1.csv"
	"$WB_BIN" --db "$T/d.db" progress import "$T/$1.csv" >"$T/out" 2>"$T/err"
	[ $? -eq 1 ] || fail "$1: not refused: $(cat "$T/out")"
	grep -q "row 3: malformed CSV quoting" "$T/err" || fail "$1: $(cat "$T/err")"
	[ "$(sqlite3 "$T/d.db" 'SELECT COUNT(*) FROM quiz_answer' 2>/dev/null || echo 0)" = 0 ] ||
		fail "$1: something was imported"
}
uid=$(echo "$row" | cut -d, -f1)
rest=$(echo "$row" | cut -d, -f2-)
refused after_quote "\"u-q1\"x,$rest"
refused quote_inside "u-q\"2,$rest"
refused unterminated "\"u-q3,$rest"

# Blanks around an unquoted field are kept: ' u-sp ' is not a valid uid,
# so the import is refused for the uid, not read as 'u-sp'.
{ cat "$T/head.csv"; printf '%s\r\n' " u-sp ,$rest"; } >"$T/blank.csv"
"$WB_BIN" --db "$T/e.db" progress import "$T/blank.csv" >/dev/null 2>"$T/err" &&
	fail "a uid with blanks was trimmed and accepted"
grep -q "row 3: bad uid" "$T/err" || fail "blank uid: $(cat "$T/err")"
echo "ok ($uid)"
