# code_hscroll.sh - in the reader a code block wider than the screen is
# not wrapped: each code line stays one screen line, h/l scroll it
# sideways, and "›" / "‹" in the margins say it goes on (ux.md, further
# problems: code blocks at narrow widths).  Prose is still wrapped.
. "$(dirname "$0")/../lib/common.sh"

C="$T/content"
mkdir -p "$C/lessons/en"
# A 100-column line: WIDESTART at column 1, ZEBRAWORD at column 90.
wide=$(printf 'WIDESTART%s' "$(printf '%080d' 0 | tr 0 -)")ZEBRAWORD$(printf '%02d' 0 | tr 0 -)
[ ${#wide} -eq 100 ] || fail "fixture line is ${#wide} columns, not 100"
cat >"$C/lessons/en/00-wide.md" <<MD
# Wide diagrams

Some prose before the diagram, long enough to be wrapped at forty columns.

\`\`\`text
$wide
NEXTLINE
\`\`\`
MD

tui_start 40 12 "--content $C --db $T/progress.db --quizzes $T/instructor --lang en"
wait_for "00"
keys Enter
wait_for "WIDESTART"
after=$(screen | grep -A1 "WIDESTART" | tail -n 1)
echo "$after" | grep -q "NEXTLINE" || fail "the wide code line is wrapped: next line is '$after'"
screen | grep "WIDESTART" | grep -q "›" || fail "no › marker on the line that goes on: $(screen)"
screen | grep -q "ZEBRAWORD" && fail "column 90 is on screen at 40 columns before scrolling"
screen | grep -q "wrapped at" || fail "prose is not shown: $(screen)"

keys l l l l
wait_for "ZEBRAWORD"
screen | grep "ZEBRAWORD" | grep -q "‹" || fail "no ‹ marker on the shifted line: $(screen)"
screen | grep -q "WIDESTART" && fail "the shifted line still shows its start"
screen | grep -q "wrapped at" || fail "prose moved with the code: $(screen)"

keys h h h h
wait_for "WIDESTART"
screen | grep -q "ZEBRAWORD" && fail "h did not scroll back"
keys q
wait_for "? help"
keys q
wait_for "EXITED:0"
