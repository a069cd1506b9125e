# glossary.sh - the glossary on the command line: `lesson show glossary`
# in both languages, [[term]] shown as the term (no brackets, none inside
# code), and `lesson lint` on a broken copy of the lessons: a missing
# cross-link target, a missing anchor, an undefined [[term]] (each an
# error at file:line, exit 1) and en/zh parity (an error too, since
# LESSON_LINT_STRICT_PARITY is 1).
. "$(dirname "$0")/../lib/common.sh"

for l in en zh; do
	"$WB_BIN" --content "$WB_SRC" --lang $l lesson show glossary --width 80 >"$T/g.$l" ||
		fail "lesson show glossary ($l)"
done
grep -q "^fencing token$" "$T/g.en" || fail "en glossary has no fencing token entry"
grep -q "^fencing 令牌（fencing token）$" "$T/g.zh" || fail "zh glossary has no fencing token entry"

C="$T/content"
mkdir -p "$C/lessons/en" "$C/lessons/zh"
cp "$WB_SRC"/lessons/en/*.md "$C/lessons/en/"
cp "$WB_SRC"/lessons/zh/*.md "$C/lessons/zh/"
# The chapters embed timelines from lessons/timelines (core/timeline_lesson.h).
cp -r "$WB_SRC"/lessons/timelines "$C/lessons/"
"$WB_BIN" --content "$C" lesson lint 2>"$T/err" || fail "lint of the copy: $(cat "$T/err")"

cat >"$C/lessons/en/03-bad.md" <<'MD'
# Bad

## One

A [[lease]] and a [[fencing token]], and `[[not a link]]` in code.

See [gone](04-gone.md#x) and [nowhere](02-zookeeper-fencing.md#no-such-section).

## Two

An [[undefined term]].
MD
printf '# 坏\n\n## 一\n\n一段。\n' >"$C/lessons/zh/03-bad.md"
"$WB_BIN" --content "$C" --lang en lesson show 03-bad --width 80 >"$T/show" || fail "show 03-bad"
grep -q "A lease and a fencing token, and \[\[not a link\]\] in code." "$T/show" ||
	fail "[[term]] not shown as the term: $(cat "$T/show")"
"$WB_BIN" --content "$C" lesson lint "$C/lessons/en/03-bad.md" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "lint of a bad lesson must exit 1"
for m in "03-bad.md:7: link to '04-gone.md#x': there is no 04-gone.md in lessons/en/" \
	"03-bad.md:7: link to '02-zookeeper-fencing.md#no-such-section': 02-zookeeper-fencing.md has no heading with the anchor 'no-such-section'" \
	"03-bad.md:11: [[undefined term]] is not a term of the glossary" \
	"03-bad.md:1: 2 ## sections here but 1 in the zh version"; do
	grep -qF "$m" "$T/err" || fail "missing '$m' in: $(cat "$T/err")"
done
grep -q "1 file, 4 errors, 0 warnings" "$T/err" || fail "summary: $(cat "$T/err")"
echo ok
