# reader.sh - the real binary in tmux: open a chapter, scroll, search,
# table of contents, help, resize, language switch, quit, restart and find
# the place restored.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --lang en"

tui_start 80 24 "$ARGS"
wait_for "Fixture chapter: every element the reader draws"
wait_for "0% read"
keys Enter
wait_for "%  ? help" # the reader's status line (home has "? help" too)
first=$(screen | head -n 1)
echo "$first" | grep -q "Fixture chapter" || fail "reader does not start at the title"

# Scroll: j moves one line, Space a page.
keys j j j
wait_gone "══════"
keys Space
wait_for "Code and diagrams"

# Search with a highlighted hit and n for the next one.
keys g / Z o o K e e p e r Enter
wait_for "Match 1 of"
keys n
wait_for "Match 2 of"
tmux -L "$SOCK" capture-pane -p -e -t wb | grep -q "$(printf '\033')\[[0-9;]*7m[^ ]*ZooKeeper" ||
	fail "search hit is not highlighted in reverse video"

# Table of contents: third section is Tables.
keys t
wait_for "Contents"
# The contents overlay is a mode with its own keys, and help shows them.
keys '?'
wait_for "Keys on this screen"
screen | grep -q "jump to the section" || fail "help does not list the contents keys"
keys x
wait_gone "Keys on this screen"
keys j j Enter
wait_gone "Contents"
[ "$(screen | head -n 1 | sed 's/^ *//')" = "Tables" ] || fail "TOC jump did not put Tables at the top"
screen | tail -n 1 | grep -q "› Tables" || fail "status line does not name the section"

# Help overlay lists this screen's keys; any key closes it.
keys '?'
wait_for "Keys on this screen"
screen | grep -q "table of contents" || fail "help does not list t"
keys x
wait_gone "Keys on this screen"

# Resize: nothing wider than the screen, still at the Tables section.
tmux -L "$SOCK" resize-window -t wb -x 50 -y 20
wait_for "Field: task_id"
[ "$(screen | max_width)" -le 50 ] || fail "a line is wider than 50 after resize"
screen | head -n 3 | grep -q "Tables" || fail "resize lost the place"

# Too small: a polite notice, and back when it grows.
tmux -L "$SOCK" resize-window -t wb -x 30 -y 10
wait_for "Terminal too small"
tmux -L "$SOCK" resize-window -t wb -x 80 -y 24
wait_for "› Tables"

# Switch language: same section in Chinese.
keys L
wait_for "表格"
screen | tail -n 1 | grep -q "测试章节" || fail "status line not in the Chinese chapter"
[ "$(screen | max_width)" -le 80 ] || fail "Chinese screen wider than 80"
place=$(screen | head -n 1)

# Back home (now Chinese), quit.
keys q
wait_for "Enter 打开"
screen | grep -q "已读" || fail "home does not show the share read"
pct=$(screen | grep "测试章节" | sed 's/.* \([0-9]*\)% .*/\1/')
[ "$pct" -gt 0 ] || fail "percent read is still 0 after reading"
keys q
wait_for "EXITED:0"
tmux -L "$SOCK" kill-server

# Restart: the Chinese chapter opens where we left it.
tui_start 80 24 "--content $WB_FIXTURES --db $DB --lang zh"
wait_for "Enter 打开"
keys Enter
wait_for "%  ? 帮助"
[ "$(screen | head -n 1)" = "$place" ] || fail "restart did not restore the place: '$(screen | head -n 1)' vs '$place'"
keys q q
wait_for "EXITED:0"
echo ok
