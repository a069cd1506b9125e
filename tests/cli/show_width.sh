# show_width.sh - `lesson show` never prints a line wider than --width,
# measured by GNU wc -L (the C library's wcwidth, independent of ours),
# for every width from 20 to 200, on the fixture and shipped chapters.
. "$(dirname "$0")/../lib/common.sh"

check() { # content lang id
	w=20
	while [ $w -le 200 ]; do
		"$WB_BIN" --content "$1" --lang "$2" lesson show "$3" --width $w >"$T/out" ||
			fail "lesson show $2/$3 --width $w exited non-zero"
		got=$(max_width <"$T/out")
		[ "$got" -le $w ] || fail "$2/$3 at width $w has a line $got wide"
		[ "$(wc -l <"$T/out")" -gt 10 ] || fail "$2/$3 at width $w printed almost nothing"
		w=$((w + 1))
	done
}
for lang in en zh; do
	check "$WB_FIXTURES" $lang 00-fixture
	for f in "$WB_SRC"/lessons/$lang/*.md; do
		[ -f "$f" ] || continue
		check "$WB_SRC" $lang "$(basename "$f" .md)"
	done
done
echo ok
