# timeline_real.sh - the lessons' timelines (lessons/timelines/ID.jsonl)
# are what a real run of lab ID records: each shipped file holds only op,
# mark and checker events, and tools/record-timeline.sh ID, run now against
# real servers, gives the same story: the same lanes, the same operations
# by index (process, operation, invocation and completion type) in the
# same order, and the same checker verdicts with the same witnesses.  Times,
# values, results and mark texts may differ from run to run and are not
# compared, so a lab change that alters what the lessons describe fails
# here, and tools/record-timeline.sh ID is the fix once the text is
# updated.  The comparison is first shown to catch a changed file.
. "$(dirname "$0")/../lib/common.sh"

command -v java >/dev/null || skip "java (ZooKeeper) not installed"
export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$T/runs"
REC="$WB_SRC/tools/record-timeline.sh"

# lanes FILE: every op process and mark lane, one a line, sorted.
lanes() {
	sed -n -e 's/^{"t":"op","i":[0-9]*,"p":"\([^"]*\)".*/\1/p' \
		-e 's/^{"t":"mark","lane":"\([^"]*\)".*/\1/p' "$1" | LC_ALL=C sort -u
}
# ops FILE: "i process f type" per op line, ordered by index (a stable
# sort keeps each invocation before its completion).
ops() {
	sed -n 's/^{"t":"op","i":\([0-9]*\),"p":"\([^"]*\)","type":"\([a-z]*\)","f":"\([^"]*\)".*/\1 \2 \4 \3/p' \
		"$1" | sort -s -n -k1,1
}
# checkers FILE: "name result witness" per checker line, in file order.
checkers() {
	sed -n 's/^{"t":"checker","name":"\([^"]*\)","result":"\([a-z]*\)",.*"witness":\[\([0-9,]*\)\].*/\1 \2 \3/p' "$1"
}
# same A B: fails unless A and B tell the same story.
same() {
	for part in lanes ops checkers; do
		$part "$1" >"$T/a.$part"
		$part "$2" >"$T/b.$part"
		[ -s "$T/a.$part" ] || [ $part = checkers ] || fail "$1: no $part"
		cmp -s "$T/a.$part" "$T/b.$part" || {
			diff "$T/a.$part" "$T/b.$part" >&2
			fail "$(basename "$1") and a real run differ in their $part (rerun tools/record-timeline.sh and update the lesson)"
		}
	done
}

# The comparison itself notices a changed lane, op and verdict.
S="$WB_SRC/lessons/timelines/zk-stale-read.jsonl"
[ -f "$S" ] || fail "no $S"
(same "$S" "$S") || fail "a file differs from itself"
for edit in 's/"p":"B"/"p":"C"/' 's/"f":"read"/"f":"get"/' 's/"type":"info"/"type":"ok"/' \
	's/"result":"invalid"/"result":"valid"/' 's/"witness":\[2,3\]/"witness":[3]/'; do
	sed "$edit" "$S" >"$T/edited.jsonl"
	cmp -s "$S" "$T/edited.jsonl" && fail "the edit $edit changed nothing"
	(same "$S" "$T/edited.jsonl") 2>/dev/null && fail "the comparison missed $edit"
done
grep -v '"t":"checker"' "$S" >"$T/edited.jsonl"
(same "$S" "$T/edited.jsonl") 2>/dev/null && fail "the comparison missed a dropped checker"

n=0
for f in "$WB_SRC"/lessons/timelines/*.jsonl; do
	id=$(basename "$f" .jsonl)
	other=$(grep -v -c -E '^\{"t":"(op|mark|checker)",' "$f" || true)
	[ "$other" -eq 0 ] || fail "$id.jsonl has $other lines that are not op, mark or checker events"
	"$WB_BIN" lab list | grep -q "^$id " ||
		fail "$id.jsonl names no lab of this build"
	rc=0
	WB_BIN="$WB_BIN" sh "$REC" "$id" "$T/$id.jsonl" 2>"$T/$id.err" || rc=$?
	[ $rc -eq 0 ] || { cat "$T/$id.err" >&2; fail "tools/record-timeline.sh $id exited $rc"; }
	same "$f" "$T/$id.jsonl"
	n=$((n + 1))
done
[ $n -ge 3 ] || fail "only $n shipped timelines"
echo "ok: $n timelines match a real run"
