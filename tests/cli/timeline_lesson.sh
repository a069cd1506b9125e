# timeline_lesson.sh - the lessons' ```timeline block: `lesson show` draws
# the history file beside the lesson (lessons/timelines/NAME.jsonl) at the
# page width, never wider (GNU wc -L); `lesson lint` accepts the block when
# the file exists and reads cleanly, and reports file:line for a missing
# file, an invalid name, an empty block and a bad history; the shipped
# lessons embed their seven timelines in en and zh and lint clean.
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
mkdir -p "$C/lessons/en" "$C/lessons/timelines"
cp "$WB_FIXTURES/timeline/stale-read.jsonl" "$C/lessons/timelines/story.jsonl"
lesson() { # NAME-LINE
	printf '# A story\n\nSome text.\n\n```timeline\n%s\n```\n\nMore text.\n' "$1" \
		>"$C/lessons/en/00-story.md"
}
lesson story
"$WB_BIN" --content "$C" lesson lint "$C/lessons/en/00-story.md" >"$T/o" 2>&1 ||
	fail "lint refused a good timeline block: $(cat "$T/o")"
for w in 24 40 60 80 120; do
	"$WB_BIN" --content "$C" --lang en lesson show 00-story --width "$w" >"$T/show" ||
		fail "lesson show --width $w failed"
	[ "$(max_width <"$T/show")" -le "$w" ] || fail "lesson show at $w is wider than $w"
	grep -qE "┣|╋" "$T/show" || fail "no witness drawn at width $w"
	grep -q "read->0" "$T/show" || [ "$w" -lt 40 ] || fail "no read->0 at width $w"
done
# the page is narrower than a timeline: one line says so
"$WB_BIN" --content "$C" --lang en lesson show 00-story --width 16 >"$T/show" || fail "show 16"
tr "\n" " " <"$T/show" | grep -q "cannot be shown" || fail "no note at width 16"

check_bad() { # NAME-LINE EXPECTED-MESSAGE
	lesson "$1"
	"$WB_BIN" --content "$C" lesson lint "$C/lessons/en/00-story.md" >"$T/o" 2>&1 &&
		fail "lint accepted timeline '$1'"
	grep -qF -- "$2" "$T/o" || fail "lint on '$1' says: $(cat "$T/o")"
}
check_bad nosuch "00-story.md:6: timeline 'nosuch':"
check_bad "../../etc/passwd" "00-story.md:6: timeline name '../../etc/passwd' is not valid"
check_bad "" "00-story.md:5: a timeline block names no history"
printf '{"t":"op","i":1,"p":"c","type":"ok","f":"read","ns":1}\n' >"$C/lessons/timelines/bad.jsonl"
check_bad bad "bad.jsonl:1: operation 1 completes but was never invoked"
printf '{"t":"step","text":"nothing"}\n' >"$C/lessons/timelines/empty.jsonl"
check_bad empty "timeline 'empty' has no operations"
# a missing file in the reader: the note, not a crash
lesson nosuch
"$WB_BIN" --content "$C" --lang en lesson show 00-story --width 80 >"$T/show" || fail "show"
grep -q "The timeline 'nosuch' cannot be shown" "$T/show" || fail "no note for a missing file"

# en and zh embed the same timelines in the same order
lesson story
mkdir -p "$C/lessons/zh"
printf '# 一个故事\n\n正文。\n' >"$C/lessons/zh/00-story.md"
"$WB_BIN" --content "$C" lesson lint >"$T/o" 2>&1
grep -qF "00-story.md:6: 1 timelines here but 0 in the zh version" "$T/o" ||
	fail "no parity report: $(cat "$T/o")"
printf '# 一个故事\n\n```timeline\nother\n```\n' >"$C/lessons/zh/00-story.md"
cp "$C/lessons/timelines/story.jsonl" "$C/lessons/timelines/other.jsonl"
"$WB_BIN" --content "$C" lesson lint >"$T/o" 2>&1
grep -qF "timeline 1 is 'story' here but 'other' in the zh version" "$T/o" ||
	fail "no order report: $(cat "$T/o")"
rm -r "$C/lessons/zh"

# the shipped chapters: five timelines in chapter 02 and two in chapter
# 01, in each language (recorded runs: tests/cli/timeline_real.sh)
for lang in en zh; do
	n=$(grep -c '^```timeline' "$WB_SRC/lessons/$lang/02-zookeeper-fencing.md")
	[ "$n" -eq 5 ] || fail "$lang chapter 02 has $n timelines"
	n=$(grep -c '^```timeline' "$WB_SRC/lessons/$lang/01-locks-ids-leases.md")
	[ "$n" -eq 2 ] || fail "$lang chapter 01 has $n timelines"
	"$WB_BIN" --lang $lang lesson show 02 --width 80 >"$T/ch" || fail "show 02 $lang"
	grep -qF "write 2->?" "$T/ch" || fail "$lang: the stale-read timeline is not drawn"
	grep -qF "write r->?" "$T/ch" || fail "$lang: the sync-partition timeline is not drawn"
	grep -qF "create retry->lock-" "$T/ch" || fail "$lang: the create-lost timeline is not drawn"
	grep -qF "write 1->unfenced new-owner" "$T/ch" || fail "$lang: the fencing timeline is not drawn"
	grep -qE "^n3 +├acquire─*✗" "$T/ch" || fail "$lang: the lock-chain timeline is not drawn"
	"$WB_BIN" --lang $lang lesson show 01 --width 80 >"$T/ch" || fail "show 01 $lang"
	grep -qF "renew T7:1->0" "$T/ch" || fail "$lang: the task-takeover timeline is not drawn"
	grep -qF "issue 12289->" "$T/ch" || fail "$lang: the id-snowflake timeline is not drawn"
done
"$WB_BIN" lesson lint >"$T/o" 2>&1 || fail "the shipped lessons do not lint: $(cat "$T/o")"
echo ok
