# anki_export.sh - `quiz export --anki FILE` (ux.md, further problems,
# "Export and stats"): an existing FILE is not overwritten without
# --force (and the message says so), and every note carries a stable
# guid ("#guid column:4", workbench-<lang>-<question id>), so importing a
# later export into Anki updates the notes instead of adding duplicates.
. "$(dirname "$0")/../lib/common.sh"

WB="$WB_BIN --lang en --content $WB_FIXTURES --db $T/progress.db --quizzes $T/instructor"
A="$T/anki.txt"

$WB quiz export --anki "$A" 2>"$T/err" || fail "first export: $(cat "$T/err")"
head -n 4 "$A" | tr '\n' ' ' | grep -q "^#separator:tab #html:true #tags column:3 #guid column:4 $" ||
	fail "header: $(head -n 4 "$A")"
[ "$(tail -n +5 "$A" | awk -F'\t' 'NF != 4' | wc -l)" = 0 ] || fail "rows are not 4 columns"
[ "$(tail -n +5 "$A" | wc -l)" = 6 ] || fail "row count: $(cat "$A")"
tail -n +5 "$A" | cut -f4 | grep -qx "workbench-en-fixture-seq-slots" || fail "guid: $(cut -f4 "$A")"
[ "$(tail -n +5 "$A" | cut -f4 | sort -u | wc -l)" = 6 ] || fail "guids not distinct"
cp "$A" "$T/first.txt"

# An existing file is refused, untouched, exit 1.
echo "keep me" >"$A"
$WB quiz export --anki "$A" 2>"$T/err"
[ $? -eq 1 ] || fail "overwriting must be refused with exit 1"
grep -qF "workbench: $A exists; add --force to overwrite it" "$T/err" || fail "message: $(cat "$T/err")"
[ "$(cat "$A")" = "keep me" ] || fail "the file was changed"
# --force overwrites, and the guids are those of the first export.
$WB quiz export --anki "$A" --force 2>"$T/err" || fail "--force: $(cat "$T/err")"
cmp -s "$A" "$T/first.txt" || fail "a second export differs from the first"
# The zh bank: the same ids, its own guids.
$WB --lang zh quiz export --anki - 2>/dev/null | tail -n +5 | cut -f4 | grep -qx "workbench-zh-fixture-seq-slots" ||
	fail "zh guid"
$WB quiz export --help 2>&1 | grep -q -- "--force" || fail "usage does not mention --force"
echo ok
