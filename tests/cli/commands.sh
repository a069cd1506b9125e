# commands.sh - non-interactive commands: help, version, lessons, errors.
. "$(dirname "$0")/../lib/common.sh"

out=$("$WB_BIN" --help) || fail "--help exited non-zero"
echo "$out" | grep -q "lesson show" || fail "--help does not list lesson show"
"$WB_BIN" --version | grep -Eq '^workbench [0-9]+\.[0-9]+\.[0-9]+(-[0-9]+-g[0-9a-f]+)?(-dirty)?$' || fail "--version"

out=$("$WB_BIN" --content "$WB_FIXTURES" --lang zh lessons) || fail "lessons exited non-zero"
[ "$out" = "$(printf '00-fixture\t测试章节：阅读器绘制的每一种元素')" ] || fail "lessons: $out"
LC_ALL= LANG=zh_CN.UTF-8 "$WB_BIN" --content "$WB_FIXTURES" lessons | grep -q "测试章节" ||
	fail "LANG=zh should pick Chinese"

"$WB_BIN" --bogus >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "unknown option must exit 2"
grep -q "unknown option '--bogus'" "$T/err" || fail "unknown option message"
"$WB_BIN" frobnicate >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "unknown command must exit 2"
"$WB_BIN" --lang fr lessons 2>"$T/err"; [ $? -eq 2 ] || fail "--lang fr must exit 2"
"$WB_BIN" --content "$WB_FIXTURES" lesson show 00-fixture --width 5 2>"$T/err"
[ $? -eq 2 ] || fail "--width 5 must exit 2"
grep -q "width must be" "$T/err" || fail "width message"
"$WB_BIN" --content "$WB_FIXTURES" lesson show 99-missing 2>"$T/err"
[ $? -eq 2 ] || fail "missing chapter must exit 2"
grep -q "no chapter '99-missing'; chapters: 00-fixture" "$T/err" || fail "missing chapter message: $(cat "$T/err")"
"$WB_BIN" --content "$WB_FIXTURES" lesson show ../../etc/passwd 2>"$T/err"
[ $? -eq 2 ] || fail "path-like id must be refused"
"$WB_BIN" --content "$T/nowhere" lessons 2>"$T/err"
[ $? -eq 1 ] || fail "missing lessons folder must exit 1"
grep -q "no lessons folder" "$T/err" || fail "missing lessons folder message"

# A newer progress database is refused by the TUI before curses starts.
sqlite3 "$T/newer.db" "CREATE TABLE t(x); PRAGMA user_version=99;"
sum_before=$(cksum <"$T/newer.db")
"$WB_BIN" --db "$T/newer.db" </dev/null >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "newer database must exit 1"
grep -q "newer workbench" "$T/err" || fail "newer database message: $(cat "$T/err")"
[ "$(cksum <"$T/newer.db")" = "$sum_before" ] || fail "newer database was modified"
# Lesson lint: the shipped chapters are clean; a bad lab id is file:line.
"$WB_BIN" lesson lint 2>"$T/err" || fail "lesson lint of the shipped chapters: $(cat "$T/err")"
printf '# T\n\n```lab\nzk-cas\nno-such-lab\n```\n' >"$T/bad.md"
"$WB_BIN" lesson lint "$T/bad.md" 2>"$T/err"
[ $? -eq 1 ] || fail "lesson lint of a bad lab id must exit 1"
grep -q "bad.md:5: unknown lab id 'no-such-lab'" "$T/err" || fail "lesson lint message: $(cat "$T/err")"
# Each command's options come from its descriptor (cli/args.c): `CMD --help`
# prints its usage; an unknown option is a usage error with that usage.
out=$("$WB_BIN" quiz run --help) || fail "quiz run --help exited non-zero"
echo "$out" | grep -q "^usage: workbench quiz run CHAPTER|--due --plain" || fail "quiz run --help: $out"
"$WB_BIN" quiz --help | grep -q "quiz export --anki FILE" || fail "quiz --help does not list export"
"$WB_BIN" quiz help | grep -q "quiz lint" || fail "quiz help does not list lint"
"$WB_BIN" quiz >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "quiz without a subcommand must exit 2"
"$WB_BIN" quiz frob >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "unknown subcommand must exit 2"
grep -q "unknown subcommand 'frob'" "$T/err" || fail "unknown subcommand message: $(cat "$T/err")"
"$WB_BIN" lab run zk-cas --bogus >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "lab run --bogus must exit 2"
grep -q "^workbench lab run: unknown option '--bogus'" "$T/err" || fail "lab run --bogus: $(cat "$T/err")"
grep -q "^usage: workbench lab run ID" "$T/err" || fail "lab run --bogus: no usage: $(cat "$T/err")"
"$WB_BIN" lab list extra >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "lab list extra must exit 2"
grep -q "unexpected argument 'extra'" "$T/err" || fail "lab list extra: $(cat "$T/err")"
"$WB_BIN" --content "$WB_FIXTURES" lesson show >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "lesson show without ID"
# Global flags after the command words, both spellings of a value.
out=$("$WB_BIN" lessons --content="$WB_FIXTURES" --lang zh) || fail "global flags after the command"
[ "$out" = "$(printf '00-fixture\t测试章节：阅读器绘制的每一种元素')" ] || fail "lessons after flags: $out"
"$WB_BIN" lab list --json | head -n 1 | grep -q '^{"id":' || fail "lab list --json"
"$WB_BIN" --content "$WB_FIXTURES" --quizzes "$T/q" quiz export --anki="$T/a.txt" 00-fixture 2>/dev/null ||
	fail "quiz export --anki=FILE"
[ "$(wc -l <"$T/a.txt")" -gt 3 ] || fail "quiz export --anki=FILE wrote no notes"
# progress export never creates the database: an (empty) import does.
echo '{"answers": []}' >"$T/empty.json"
"$WB_BIN" --db "$T/p.db" progress import "$T/empty.json" >/dev/null || fail "empty import"
"$WB_BIN" --db "$T/p.db" progress export --format=json --output "$T/p.json" || fail "progress export --output"
[ -s "$T/p.json" ] || fail "progress export --output wrote nothing"
echo ok
