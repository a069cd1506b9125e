# deep_content.sh - #20 F2 and F12 through the real binary: lessons and
# question banks nested tens of thousands of levels deep are shown (the
# layout used to recurse per level: rc 139 at 25,000 levels, 10,000 under
# ASan) and both linters warn at the line; `lesson lint` reports the size
# `lesson show` refuses; `quiz lint` reports a NUL, and the parser keeps
# the rest of the line after it.  Not a timing test.
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
mkdir -p "$C/lessons/en" "$C/quizzes/en"
L="$C/lessons/en/01-locks-ids-leases.md"
Q="$C/quizzes/en/01-locks-ids-leases.md"

# rep STRING N: STRING N times, no newline.
rep() { awk -v s="$1" -v n="$2" 'BEGIN { while (n-- > 0) printf "%s", s }'; }

printf '# Self-test: d\n\n## [q-a] A?\nkind: numeric\nanswer: 1\n\n### Answer\n1\n' >"$Q"

# 30,000 nested quotes, 50 KB of nested "- ", "1. " and "> - ".
for unit in '>:30000' '- :25000' '1. :20000' '> - :15000'; do
	{ printf '# Deep\n\ntext\n\n'; rep "${unit%:*}" "${unit##*:}"; printf ' bottom\n'; } >"$L"
	for w in 40 80; do
		"$WB_BIN" --content "$C" --db "$T/p.db" lesson show 01-locks-ids-leases --width $w \
			>"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 0 ] || fail "'${unit%:*}' x ${unit##*:}: lesson show exit $rc: $(cat "$T/err")"
		grep -q bottom "$T/out" || fail "'${unit%:*}' x ${unit##*:}: the innermost text is lost"
		[ "$(max_width <"$T/out")" -le $w ] || fail "'${unit%:*}': wider than $w"
	done
	"$WB_BIN" --content "$C" lesson lint "$L" >"$T/out" 2>&1 ||
		fail "'${unit%:*}': lesson lint failed: $(cat "$T/out")"
	grep -q "01-locks-ids-leases.md:5: warning: nested deeper than 100 levels" "$T/out" ||
		fail "'${unit%:*}': lesson lint does not warn at line 5: $(cat "$T/out")"
done

# The same in a question body: quiz list, quiz lint (a warning at the
# line), quiz run --plain.
{
	printf '# Self-test: d\n\n## [q-deep] Deep?\n\n'
	rep '>' 30000
	printf ' bottom\n\n### Answer\nyes\n\n### Rubric\n- 1: yes\n'
} >"$Q"
"$WB_BIN" --content "$C" --db "$T/p.db" quiz list >"$T/out" 2>&1 || fail "quiz list: $(cat "$T/out")"
grep -q q-deep "$T/out" || fail "quiz list lost the deep question"
"$WB_BIN" --content "$C" --quizzes "$T/none" quiz lint "$Q" >"$T/out" 2>&1 ||
	fail "quiz lint: a warning only, yet it failed: $(cat "$T/out")"
grep -q "01-locks-ids-leases.md:5: warning: nested deeper than 100 levels" "$T/out" ||
	fail "quiz lint does not warn about the nesting: $(cat "$T/out")"

# lesson lint reports the file lesson show refuses (F12).
{ echo "# Big"; rep xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 200000; echo; } >"$L"
"$WB_BIN" --content "$C" lesson show 01-locks-ids-leases >/dev/null 2>&1 && fail "10 MB lesson shown"
"$WB_BIN" --content "$C" lesson lint "$L" >"$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "lesson lint of a 10 MB lesson: exit $rc, expected 1: $(cat "$T/out")"
grep -q "01-locks-ids-leases.md:1: .*larger than 4 MiB" "$T/out" ||
	fail "lesson lint does not name the limit: $(cat "$T/out")"

# A NUL in a question: an error in quiz lint, and the text after it kept.
printf '# Self-test: d\n\n## [q-a] Question before\000after\nkind: numeric\nanswer: 1\n\n### Answer\n1\n' >"$Q"
"$WB_BIN" --content "$C" --quizzes "$T/none" quiz lint "$Q" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "quiz lint passes a NUL: $(cat "$T/out")"
grep -q "01-locks-ids-leases.md:3:25: error: control character U+0000" "$T/out" ||
	fail "quiz lint does not report the NUL at its column: $(cat "$T/out")"
"$WB_BIN" --content "$C" --db "$T/p.db" quiz list >"$T/out" 2>&1 || fail "quiz list: $(cat "$T/out")"
grep -q "Question before.after" "$T/out" || fail "the text after a NUL was dropped: $(cat "$T/out")"

# Invalid UTF-8 in a bank is an error too.
printf '# Self-test: d\n\n## [q-a] Bad \377 byte\nkind: numeric\nanswer: 1\n\n### Answer\n1\n' >"$Q"
"$WB_BIN" --content "$C" --quizzes "$T/none" quiz lint "$Q" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "quiz lint passes invalid UTF-8: $(cat "$T/out")"
echo ok
