# timeline_history.sh - `workbench timeline` on the history files of `lab
# run --history` (review r3 N13): the JSON lines and the EDN history of a
# real task-takeover run are drawn with one lane per process and every
# operation's bar labelled (text and SVG); a file with nothing to draw
# exits 1 and writes no SVG.  And the SVG's title, the file's base name,
# goes through the sanitiser (N12): control bytes and invalid UTF-8 in
# the name never reach the SVG, which python3's XML parser accepts.
. "$(dirname "$0")/../lib/common.sh"

command -v python3 >/dev/null || skip "python3 not installed"
export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/p.db"
mkdir -p "$T/runs"
"$WB_BIN" lab run task-takeover --history "$T/h.jsonl" >/dev/null || fail "lab run --history"
"$WB_BIN" lab run task-takeover --history "$T/h.edn" --history-format edn >/dev/null ||
	fail "lab run --history edn"
xml_ok() { python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" "$1"; }
for h in h.jsonl h.edn; do
	"$WB_BIN" --lang en --width 120 timeline "$T/$h" >"$T/$h.txt" 2>"$T/err" ||
		fail "timeline $h: $(cat "$T/err")"
	lanes=$(sed -n '3,/^$/p' "$T/$h.txt" | grep -oE '^[A-Z]+' | tr '\n' ' ')
	[ "$lanes" = "A B " ] || { cat "$T/$h.txt" >&2; fail "$h: lanes are '$lanes'"; }
	for want in "claim T7:1->1" "renew T7:1->0" "complete T7:1->0" "claim T7:2->1"; do
		grep -qF -- "$want" "$T/$h.txt" || { cat "$T/$h.txt" >&2; fail "$h: no bar '$want'"; }
	done
	"$WB_BIN" --lang en timeline "$T/$h" --svg "$T/$h.svg" >/dev/null || fail "timeline $h --svg"
	xml_ok "$T/$h.svg" || fail "$h.svg is no XML"
	n=$(grep -c '<rect class="ok"' "$T/$h.svg")
	[ "$n" -eq 6 ] || fail "$h.svg: $n completed bars, want 6"
done

# nothing to draw: exit 1, a reason, no SVG
printf '{"t":"step","text":"nothing"}\n' >"$T/empty.jsonl"
: >"$T/zero.jsonl"
for f in empty.jsonl zero.jsonl; do
	rc=0
	"$WB_BIN" timeline "$T/$f" >"$T/out" 2>"$T/err" || rc=$?
	[ $rc -eq 1 ] && grep -q "$f: nothing to draw" "$T/err" || fail "$f: exit $rc, $(cat "$T/err")"
	rc=0
	"$WB_BIN" timeline "$T/$f" --svg "$T/$f.svg" >"$T/out" 2>"$T/err" || rc=$?
	[ $rc -eq 1 ] && [ ! -e "$T/$f.svg" ] || fail "$f --svg: exit $rc"
done
# a completion with no open invocation is a bad line with file:line
printf '{"index":0,"process":"A","type":"ok","f":"w","value":"1","time":4}\n' >"$T/orphan.jsonl"
"$WB_BIN" timeline "$T/orphan.jsonl" >/dev/null 2>"$T/err" && fail "orphan completion accepted"
grep -q "orphan.jsonl:1: history line 0: a completion of process A" "$T/err" ||
	fail "orphan message: $(cat "$T/err")"
printf '{:index 0, :process 0, :type :invoke, :f :w, :value [1], :time 1}\n' >"$T/vec.edn"
"$WB_BIN" timeline "$T/vec.edn" >/dev/null 2>"$T/err" && fail "an EDN vector value accepted"
grep -q "vec.edn:1: not a JSON event object (nor an EDN history line)" "$T/err" ||
	fail "EDN message: $(cat "$T/err")"

# N12: a hostile file name as the SVG title
bad="$T/$(printf 'b\033[2J\007\001\377.jsonl')"
cp "$WB_FIXTURES/timeline/stale-read.jsonl" "$bad"
"$WB_BIN" --lang en timeline "$bad" --svg "$T/title.svg" >/dev/null || fail "timeline --svg of the hostile name"
xml_ok "$T/title.svg" || fail "the hostile name makes the SVG invalid XML"
if LC_ALL=C grep -q "$(printf '[\001\007\033]')" "$T/title.svg"; then fail "a control byte reached the SVG"; fi
python3 -c "import sys; open(sys.argv[1], 'rb').read().decode('utf-8')" "$T/title.svg" ||
	fail "the SVG is not UTF-8"
echo ok
