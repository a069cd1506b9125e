# bad_input.sh - lessons and progress databases that are broken in the
# ways docs/bad-input.md lists: a clear message and a non-zero exit, or a
# safe rendering; never a crash; nothing saved is changed.
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
mkdir -p "$C/lessons/en"
ESC=$(printf '\033')

# Binary garbage as a lesson: rendered, no control bytes, within width.
head -c 200000 /dev/urandom >"$C/lessons/en/00-binary.md"
"$WB_BIN" --content "$C" lesson show 00-binary --width 60 >"$T/out" 2>"$T/err" ||
	fail "binary lesson: exit $?: $(cat "$T/err")"
[ "$(max_width <"$T/out")" -le 60 ] || fail "binary lesson wider than 60"
tr -d '\n' <"$T/out" | LC_ALL=C grep -q "[$(printf '\001-\037\177')]" && fail "control bytes reached the output"
grep -q "$ESC" "$T/out" && fail "an escape character reached the output"
grep -q "�" "$T/out" || fail "invalid UTF-8 not shown as U+FFFD"

# Malformed Markdown: unclosed fence, ragged table, raw HTML, deep nesting.
{
	echo "# Broken"
	echo "| a | b |"
	echo "|---|"
	echo "| 1 | 2 | 3 | 4 |"
	echo "<script>alert(1)</script>"
	i=0
	while [ $i -lt 60 ]; do printf '%*s- level %d\n' $((i * 2)) '' $i; i=$((i + 1)); done
	echo '```'
	echo "never closed"
} >"$C/lessons/en/00-broken.md"
for w in 20 40 80; do
	"$WB_BIN" --content "$C" lesson show 00-broken --width $w >"$T/out" 2>"$T/err" ||
		fail "broken lesson at $w: exit $?"
	[ "$(max_width <"$T/out")" -le $w ] || fail "broken lesson wider than $w"
done
grep -q "never closed" "$T/out" || fail "text of an unclosed fence is lost"
grep -q "script" "$T/out" && fail "raw HTML was shown"

# A 10 MB line: refused with a clear message, exit 1.
{ echo "# Big"; head -c 7500000 /dev/zero | tr '\0' 'x' | base64 -w0; echo; } >"$C/lessons/en/00-big.md"
"$WB_BIN" --content "$C" lesson show 00-big --width 80 >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "10 MB lesson: expected exit 1"
grep -q "larger than 4 MiB" "$T/err" || fail "10 MB lesson message: $(cat "$T/err")"
# A 1 MB line is laid out within width.
{ echo "# Long"; head -c 750000 /dev/zero | tr '\0' 'y' | base64 -w0; echo; } >"$C/lessons/en/00-long.md"
"$WB_BIN" --content "$C" lesson show 00-long --width 80 >"$T/out" || fail "1 MB line: exit $?"
[ "$(max_width <"$T/out")" -le 80 ] || fail "1 MB line wider than 80"

# A corrupt progress database: refused, message names it, file unchanged.
head -c 8192 /dev/urandom >"$T/corrupt.db"
sum=$(cksum <"$T/corrupt.db")
"$WB_BIN" --content "$C" --db "$T/corrupt.db" </dev/null >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "corrupt database: expected exit 1"
grep -q "corrupt.db" "$T/err" || fail "corrupt database message: $(cat "$T/err")"
[ "$(cksum <"$T/corrupt.db")" = "$sum" ] || fail "corrupt database was modified"

# A database path that cannot be opened (a directory).
mkdir "$T/dir.db"
"$WB_BIN" --content "$C" --db "$T/dir.db" </dev/null >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "unopenable database: expected exit 1"
grep -q "cannot open progress database" "$T/err" || fail "unopenable message: $(cat "$T/err")"

# A read-only database in a read-only folder.  Root ignores file modes, so
# as root the workbench runs as nobody (a copy of the binary, as the build
# tree may be out of nobody's reach).
mkdir "$T/ro"
sqlite3 "$T/ro/ro.db" "PRAGMA journal_mode=WAL; CREATE TABLE t(x); PRAGMA user_version=0;" >/dev/null
sqlite3 "$T/ro/ro.db" "PRAGMA journal_mode=DELETE;" >/dev/null
chmod 444 "$T/ro/ro.db" && chmod 555 "$T/ro"
ro_bin=$WB_BIN as_user=
if [ "$(id -u)" -eq 0 ]; then
	chmod 711 "$T" && cp "$WB_BIN" "$T/wb-copy" && chmod 755 "$T/wb-copy"
	ro_bin=$T/wb-copy as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
sum=$(cksum <"$T/ro/ro.db")
$as_user env HOME=/nonexistent "$ro_bin" --content "$C" --db "$T/ro/ro.db" </dev/null >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "read-only database: expected exit 1: $(cat "$T/err")"
grep -q "it is read-only .*Nothing was changed" "$T/err" || fail "read-only database message: $(cat "$T/err")"
[ "$(cksum <"$T/ro/ro.db")" = "$sum" ] || fail "read-only database was modified"
[ "$(ls -A "$T/ro")" = ro.db ] || fail "files left beside the read-only database: $(ls -A "$T/ro")"
chmod 755 "$T/ro"
echo ok
