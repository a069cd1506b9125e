# content_escapes.sh - no control sequence from content reaches the
# terminal (reliability review F1, F18).  A hostile instructor bank and a
# hostile lesson carry the review's 11 payloads (ESC[2J, OSC 0 title, OSC 52
# clipboard write, DCS, a CSI with a huge parameter, BEL, a raw 0x9b byte,
# U+009B, invalid UTF-8, the bidi override U+202E and the isolate U+2066);
# every command that prints content is run and its whole stdout and stderr
# checked byte by byte; lint must report each character with
# file:line:column; the Anki export must hold none of them; the TUI, driven
# in tmux through the reader and a self-test, must leave the pane title and
# the clipboard buffer alone.
. "$(dirname "$0")/../lib/common.sh"

command -v python3 >/dev/null || {
	echo "skip: python3 is needed to check the bytes"
	exit 77
}

C="$T/content"
Q="$T/instructor"
DB="$T/p.db"
mkdir -p "$C/lessons/en" "$C/quizzes/en" "$Q/en"
cp "$WB_FIXTURES"/lessons/en/*.md "$C/lessons/en/"
ch=$(ls "$C/lessons/en" | head -n 1 | sed 's/\.md$//')

# The payloads, one per line, written by python so the bytes are exact.
python3 - "$T/payloads" <<'PY'
import sys
p = [b"\x1b[2J\x1b[H", b"\x1b]0;PWNED-TITLE\x07", b"\x1b]52;c;ZWNobyBwd25lZA==\x07",
     b"\x1bP1;2|dcs\x1b\\", b"\x1b[99999999999999999999m", b"bell\x07",
     b"raw \x9b" b"31m", b"enc \xc2\x9b" b"31m", b"bad \xff\xfe", "\u202eevil".encode(),
     "\u2066iso".encode()]
open(sys.argv[1], "wb").write(b"\n".join(p) + b"\n")
PY

# A bank whose title, question, body, answer, options and rubric carry them.
python3 - "$T/payloads" "$Q/en/$ch.md" "$C/lessons/en/99-evil.md" <<'PY'
import sys
p = open(sys.argv[1], "rb").read().split(b"\n")[:11]
out = [b"# Self-test: hostile " + p[1], b""]
for i, x in enumerate(p):
    out += [b"## [evil-%d] Question %d " % (i, i) + x, b"kind: recall", b"",
            b"Body " + x, b"", b"### Answer", b"Answer " + x, b"", b"### Rubric",
            b"- 1: point " + x, b""]
out += [b"## [evil-choice] Pick " + p[2], b"kind: choice", b"", b"- [x] yes " + p[0],
        b"- [ ] no " + p[3], b"", b"### Answer", b"yes " + p[4], b""]
open(sys.argv[2], "wb").write(b"\n".join(out))
les = [b"# Evil lesson " + p[1], b"", b"## Section " + p[2], b""]
les += [b"Text " + x for x in p]
les += [b"", b"```lab", b"zk-cas" + p[0], b"```", b""]
open(sys.argv[3], "wb").write(b"\n".join(les))
PY

# inert FILE WHAT: the file holds valid UTF-8 with no C0 control but TAB,
# LF and the CR of a CR LF, no DEL, no C1 control and no bidi control.
inert() {
	python3 - "$1" "$2" <<'PY' || fail "$2 printed raw control bytes (see above)"
import sys
data = open(sys.argv[1], "rb").read()
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    print(f"{sys.argv[2]}: invalid UTF-8 at byte {e.start}: {data[max(0,e.start-20):e.start+20]!r}")
    sys.exit(1)
text = text.replace("\r\n", "\n")  # a CR LF line end (CSV) moves nothing
bad = [(i, hex(ord(c))) for i, c in enumerate(text)
       if (ord(c) < 0x20 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f
       or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069]
if bad:
    i = bad[0][0]
    print(f"{sys.argv[2]}: {len(bad)} unsafe characters, first {bad[0][1]} near {text[max(0,i-30):i+10]!r}")
    sys.exit(1)
PY
}

WB="$WB_BIN --content $C --quizzes $Q --db $DB --lang en"
run() { # WHAT CMD...: runs it, checks stdout+stderr (any exit code)
	what=$1
	shift
	"$@" >"$T/out" 2>&1 </dev/null || true
	inert "$T/out" "$what"
	grep -q . "$T/out" || fail "$what printed nothing"
}

run "quiz list" $WB quiz list
run "quiz list CHAPTER" $WB quiz list "$ch"
run "quiz lint" $WB quiz lint "$Q"
run "lesson lint" $WB lesson lint "$C/lessons/en/99-evil.md"
run "lesson show" $WB lesson show 99-evil --width 80
run "lessons" $WB lessons
printf '.\n.\n.\n.\n.\n' >"$T/answers"
$WB quiz run "$ch" --plain --limit 4 <"$T/answers" >"$T/out" 2>&1 || true
inert "$T/out" "quiz run --plain"
grep -q -e "␛" -e "␇" -e "<U+" -e "�" "$T/out" || fail "quiz run --plain did not show the payload as placeholders: $(head -c 400 "$T/out")"
run "quiz stats" $WB quiz stats
run "progress export" $WB progress export --format csv
$WB quiz export --anki "$T/anki.txt" >"$T/out" 2>&1 || fail "quiz export: $(cat "$T/out")"
inert "$T/anki.txt" "the Anki export file"
echo "ok: every command's output is inert"

# Lint names each unsafe character with file:line:column.
$WB quiz lint "$Q" >"$T/lint" 2>&1 && fail "quiz lint accepted escape sequences"
grep -q "$ch.md:[0-9]*:[0-9]*: error: escape character U+001B" "$T/lint" ||
	fail "quiz lint did not report the ESC with file:line:column: $(head -c 600 "$T/lint")"
grep -q "bidi control U+202E" "$T/lint" || fail "quiz lint missed U+202E"
grep -q "C1 control character U+009B" "$T/lint" || fail "quiz lint missed U+009B"
grep -q "not valid UTF-8" "$T/lint" || fail "quiz lint missed the invalid byte"
$WB lesson lint "$C/lessons/en/99-evil.md" >"$T/lint" 2>&1 && fail "lesson lint accepted escape sequences"
grep -q "99-evil.md:1:[0-9]*: escape character U+001B" "$T/lint" ||
	fail "lesson lint did not report the title's ESC: $(head -c 600 "$T/lint")"
echo "ok: lint reports them with file:line:column"

# The TUI: read the evil lesson and take a question of the hostile bank.
tui_start 80 24 "--content $C --quizzes $Q --db $T/tui.db --lang en"
wait_for "due today"
title0=$(tmux -L "$SOCK" display-message -p -t wb '#{pane_title}')
keys G
keys Enter
wait_for "Evil lesson"
keys G
keys q
wait_for "due today"
keys g
keys s
wait_for "Enter start" # the test-length choice
keys Enter
wait_for "Question 1 of"
tmux -L "$SOCK" capture-pane -e -p -t wb >"$T/pane"
# Only SGR sequences (ESC [ ... m) may remain in the captured pane.
python3 - "$T/pane" <<'PY' || fail "the TUI pane holds a non-SGR escape sequence"
import re, sys
s = open(sys.argv[1], "rb").read()
rest = re.sub(rb"\x1b\[[0-9;:]*m", b"", s)
sys.exit(1 if b"\x1b" in rest or b"\x07" in rest else 0)
PY
title1=$(tmux -L "$SOCK" display-message -p -t wb '#{pane_title}')
[ "$title0" = "$title1" ] || fail "content changed the pane title to '$title1'"
tmux -L "$SOCK" show-buffer >/dev/null 2>&1 && fail "content wrote the clipboard (a tmux buffer exists)"
echo ok
