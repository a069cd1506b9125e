# narration.sh - a Chinese run of a lab shows the Chinese narration while
# check names and observed values stay as they are (ux.md problem 14).
# That every narration literal a lab writes through harness/report.h has
# its Chinese text in po/zh_CN.po is tests/cli/translations.sh's.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"
"$WB_BIN" --db "$T/p.db" --lang zh lab run id-collision >"$T/zh" 2>&1 || fail "zh run: $(cat "$T/zh")"
"$WB_BIN" --db "$T/p.db" --lang en lab run id-collision >"$T/en" 2>&1 || fail "en run: $(cat "$T/en")"
# The same check names in both runs, in the same order.
grep -o '^  [✔✘] [a-z0-9-]*' "$T/en" >"$T/names.en"
grep -o '^  [✔✘] [a-z0-9-]*' "$T/zh" >"$T/names.zh"
[ -s "$T/names.en" ] || fail "no checks in the English run"
cmp -s "$T/names.en" "$T/names.zh" || fail "check names differ: $(diff "$T/names.en" "$T/names.zh")"
# Every step line of the Chinese run holds Chinese text: bytes outside
# printable ASCII once the bullet is gone (a range like [一-龥] is not
# portable: C.UTF-8 refuses it as a collation range).
grep '^  • ' "$T/zh" | sed 's/^  • //' >"$T/steps.zh"
[ -s "$T/steps.zh" ] || fail "no steps in the Chinese run"
if LC_ALL=C grep -v '[^ -~]' "$T/steps.zh" >"$T/english"; then
	fail "steps left in English in the Chinese run: $(head -n 5 "$T/english")"
fi
# ... and the English run has none (the check could fail).
grep '^  • ' "$T/en" | sed 's/^  • //' | LC_ALL=C grep -q '[^ -~]' &&
	fail "the English run has non-ASCII steps"
echo ok
