# show_width.sh - `lesson show` never prints a line wider than --width,
# measured by GNU wc -L (the C library's wcwidth, independent of ours):
# the fixture chapters at every width from 20 to 200, the shipped chapters
# at 20, 33, 40, 60, 80, 100, 120 and 200.
. "$(dirname "$0")/../lib/common.sh"

check() { # content lang id widths...
	c=$1 l=$2 id=$3
	shift 3
	for w in "$@"; do
		"$WB_BIN" --content "$c" --lang "$l" lesson show "$id" --width "$w" >"$T/out" ||
			fail "lesson show $l/$id --width $w exited non-zero"
		got=$(max_width <"$T/out")
		[ "$got" -le "$w" ] || fail "$l/$id at width $w has a line $got wide"
		[ "$(wc -l <"$T/out")" -gt 10 ] || fail "$l/$id at width $w printed almost nothing"
	done
}
every=$(seq 20 200)
for lang in en zh; do
	check "$WB_FIXTURES" $lang 00-fixture $every
	for f in "$WB_SRC"/lessons/$lang/*.md; do
		[ -f "$f" ] || continue
		check "$WB_SRC" $lang "$(basename "$f" .md)" 20 33 40 60 80 100 120 200
	done
done
echo ok
