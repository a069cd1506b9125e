# timeline.sh - `workbench timeline`: the stale-read fixture drawn as text
# at several widths (never wider than --width, by GNU wc -L; every
# operation's label, the witness and the idle breaks visible at 80), in
# Chinese, and as SVG that python3's XML parser accepts, with hostile
# labels escaped; bad files are refused with file:line and exit 1.
. "$(dirname "$0")/../lib/common.sh"

F="$WB_FIXTURES/timeline/stale-read.jsonl"
for w in 24 30 40 60 80 100 132 200; do
	"$WB_BIN" --lang en --width "$w" timeline "$F" >"$T/out" || fail "timeline --width $w failed"
	got=$(max_width <"$T/out")
	[ "$got" -le "$w" ] || fail "timeline at width $w has a line $got wide"
	grep -qE "┣|╋" "$T/out" || fail "no witness bar at width $w"
done
"$WB_BIN" --lang en --width 80 timeline "$F" >"$T/out" || fail "timeline failed"
for want in "write 1" "read->0" "sync-read->1" "write-barrier b" "write 2->?" "read->2" \
	"◆ tells B: x=1 done" "◆ leaves the quorum" "≈" \
	"operations #0 A write 1, #1 B read->0." \
	"linearizable: invalid - B read 0 after A's write of 1 had completed"; do
	grep -qF -- "$want" "$T/out" || { cat "$T/out" >&2; fail "text output lacks '$want'"; }
done
# lanes in order of first appearance
lanes=$(sed -n '3,/^$/p' "$T/out" | grep -oE '^[A-Za-z0-9]+' | tr '\n' ' ')
[ "$lanes" = "A B relay zk2 zk1 " ] || fail "lanes are '$lanes'"
# not a terminal, no --width: 80 columns
"$WB_BIN" --lang en timeline "$F" >"$T/out80" || fail "timeline without --width failed"
cmp -s "$T/out" "$T/out80" || fail "the default width off a terminal is not 80"
"$WB_BIN" --lang zh --width 60 timeline "$F" >"$T/zh" || fail "timeline --lang zh failed"
grep -q "毫秒" "$T/zh" || fail "no Chinese scale"
[ "$(max_width <"$T/zh")" -le 60 ] || fail "Chinese timeline wider than 60"

# SVG: well-formed XML with the lanes, bars and witness
"$WB_BIN" --lang en timeline "$F" --svg "$T/t.svg" >"$T/o" || fail "timeline --svg failed"
grep -q "wrote $T/t.svg" "$T/o" || fail "no 'wrote' line"
python3 - "$T/t.svg" <<'PY' || fail "the SVG is not what it should be"
import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
texts = [t.text or "" for t in root.iter(ns + "text")]
for want in ["A", "B", "relay", "zk2", "zk1", "read->0", "write 2->?", "≈"]:
    assert any(want == t or want in t for t in texts), want
wit = [r for r in root.iter() if r.get("class") in ("wit", "wit-fill")]
assert len(wit) == 2, len(wit)
assert len([r for r in root.iter(ns + "rect") if r.get("class") == "ok"]) == 4
PY

# hostile text: escaped, still XML, no raw ESC
"$WB_BIN" --lang en timeline "$WB_FIXTURES/timeline/escapes.jsonl" --svg "$T/e.svg" >/dev/null ||
	fail "timeline --svg of the escapes fixture failed"
python3 - "$T/e.svg" <<'PY' || fail "the escapes SVG is not well-formed or not escaped"
import sys, xml.etree.ElementTree as E
data = open(sys.argv[1], "rb").read()
assert b"\x1b" not in data and b"\x07" not in data
assert b"<script" not in data and b"<b>" not in data
root = E.fromstring(data)
texts = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
assert "c<1>" in texts and "proxy&co" in texts and "␛" in texts, texts
PY
"$WB_BIN" --lang en timeline "$WB_FIXTURES/timeline/escapes.jsonl" >"$T/esc" || fail "text failed"
if grep -q "$(printf '\033')" "$T/esc"; then fail "an ESC reached the terminal"; fi

# bad input: file:line, exit 1; a missing file; a narrow width; usage
"$WB_BIN" timeline "$WB_FIXTURES/timeline/bad-order.jsonl" >"$T/o" 2>"$T/e" && fail "bad file accepted"
grep -q "bad-order.jsonl:3: operation 1 completes but was never invoked" "$T/e" ||
	fail "bad file message: $(cat "$T/e")"
"$WB_BIN" timeline "$T/nope.jsonl" >"$T/o" 2>"$T/e"
[ $? -eq 1 ] || fail "a missing file does not exit 1"
grep -q "nope.jsonl" "$T/e" || fail "missing file message: $(cat "$T/e")"
"$WB_BIN" --width 20 timeline "$F" >"$T/o" 2>"$T/e"
[ $? -eq 2 ] || fail "--width 20 does not exit 2"
grep -q "at least 24" "$T/e" || fail "narrow width message: $(cat "$T/e")"
"$WB_BIN" timeline >"$T/o" 2>"$T/e"
[ $? -eq 2 ] || fail "no operand does not exit 2"
"$WB_BIN" timeline "$F" --svg "$T/no/such/dir.svg" >"$T/o" 2>"$T/e"
[ $? -eq 1 ] || fail "an unwritable --svg does not exit 1"
echo ok
