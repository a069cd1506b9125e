# lint_deep.sh - review r3 N4: `lesson lint` on the five deep inputs of the
# review.  Its cross-file pass (headings, lab cards, links) walked the
# tree recursively, one stack frame per level, and died of SIGSEGV (rc
# 139) on every one of them while `lesson show` laid them out.  Now it
# walks with cmark's iterator: each file lints with exit 0 and the
# nesting warning at the line where the nesting starts.  Also a lesson
# of 20,000 identical headings (the anchor list was searched per heading
# and per repeat: cubic) lints in well under the test's time limit.
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
mkdir -p "$C/lessons/en"
L="$C/lessons/en/01-locks-ids-leases.md"

# rep STRING N: STRING N times, no newline.
rep() { awk -v s="$1" -v n="$2" 'BEGIN { while (n-- > 0) printf "%s", s }'; }

# lint NAME: lesson lint of $L exits 0 with the nesting warning at line 3.
lint() {
	"$WB_BIN" --content "$C" lesson lint "$L" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || fail "$1: lesson lint exit $rc (139 is the stack overflow): $(head -c 300 "$T/out")"
	grep -q "01-locks-ids-leases.md:3: warning: nested deeper than 100 levels" "$T/out" ||
		fail "$1: no nesting warning at line 3: $(head -c 300 "$T/out")"
}

{ printf '# D\n\n'; rep '>' 80000; printf ' x\n'; } >"$L"
lint "'>' x 80,000"
{ printf '# D\n\n'; rep '> - ' 30000; printf 'x\n'; } >"$L"
lint "'> - ' x 30,000"
{ printf '# D\n\n'; rep '- ' 250000; printf 'x\n'; } >"$L"
lint "'- ' x 250,000"
{ printf '# D\n\n'; rep '![' 100000; printf x; rep '](u)' 100000; printf '\n'; } >"$L"
lint "100,000 nested images in a paragraph"
{ printf '# D\n\n## '; rep '![' 100000; printf x; rep '](u)' 100000; printf '\n'; } >"$L"
lint "100,000 nested images in a heading"
{ printf '# D\n\n'; rep '>' 1000000; printf '\n'; } >"$L"
lint "'>' x 1,000,000"

# A link deep inside the nesting is still checked, at its line.
{ printf '# D\n\n'; rep '>' 30000; printf ' [x](02-nothere.md)\n'; } >"$L"
"$WB_BIN" --content "$C" lesson lint "$L" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "a broken link 30,000 quotes deep passes: $(head -c 300 "$T/out")"
grep -q "01-locks-ids-leases.md:3: link to '02-nothere.md'" "$T/out" ||
	fail "the deep link is not reported at line 3: $(head -c 300 "$T/out")"

# 20,000 headings "## a": anchors a, a-1, ... a-19999, in linear time.
{ printf '# D\n\n'; rep '## a\n\n' 20000; printf '[last](#a-19999) [none](#a-20000)\n'; } >"$L"
"$WB_BIN" --content "$C" lesson lint "$L" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "20,000 headings: expected exit 1 (one bad anchor): $(head -c 300 "$T/out")"
[ "$(grep -c ': link to' "$T/out")" -eq 1 ] && grep -q "no heading with the anchor 'a-20000'" "$T/out" ||
	fail "20,000 headings: expected only the a-20000 anchor error: $(head -c 300 "$T/out")"
echo ok
