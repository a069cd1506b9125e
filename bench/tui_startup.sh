#!/bin/sh
# tui_startup.sh - cold start to first frame, and peak memory of the TUI
# reading the fixture chapter.  Prints figures; asserts nothing.
#
#   bench/tui_startup.sh [BUILD_DIR] [RUNS]
#
# Start-up is measured from the tmux command that launches the binary to
# the first capture that shows the home screen (polled every 2 ms), so the
# figure includes tmux's own start (measured separately and printed).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build}/workbench
runs=${2:-10}
T=$(mktemp -d)
sock=wbbench-$$
trap 'tmux -L $sock kill-server 2>/dev/null || true; rm -rf "$T"' EXIT
export LC_ALL=C.UTF-8 TERM=xterm-256color

now_us() { echo $(($(date +%s%N) / 1000)); }
first_frame() { # command, text to wait for -> microseconds
	t0=$(now_us)
	tmux -L $sock -f /dev/null new-session -d -s b -x 80 -y 24 "$1"
	until tmux -L $sock capture-pane -p -t b 2>/dev/null | grep -qF "$2"; do sleep 0.002; done
	t1=$(now_us)
	tmux -L $sock kill-server 2>/dev/null || true
	echo $((t1 - t0))
}

total=0 base=0 i=0
while [ $i -lt $runs ]; do
	rm -f "$T/p.db"*
	us=$(first_frame "$bin --content $here/tests/fixtures --db $T/p.db --lang en" "Fixture chapter")
	b=$(first_frame "echo READY; sleep 5" "READY")
	total=$((total + us)) base=$((base + b)) i=$((i + 1))
done
echo "cold start to first frame: $((total / runs / 1000)) ms mean over $runs runs (fresh database each)"
echo "tmux + shell baseline:     $((base / runs / 1000)) ms (echo in the same harness)"
echo "workbench's own share:     $(((total - base) / runs / 1000)) ms"

# Peak memory: open the fixture chapter, page to the end, search, read VmHWM.
tmux -L $sock -f /dev/null new-session -d -s b -x 80 -y 24 \
	"$bin --content $here/tests/fixtures --db $T/p.db --lang en"
until tmux -L $sock capture-pane -p -t b | grep -qF "Fixture chapter"; do sleep 0.01; done
tmux -L $sock send-keys -t b Enter G / Z o o K e e p e r Enter t Escape
sleep 0.5
pid=$(pgrep -f "$bin --content $here/tests/fixtures --db $T/p.db" | head -n 1)
echo "peak resident memory (VmHWM), fixture chapter open: $(grep VmHWM /proc/$pid/status | awk '{print $2, $3}')"
tmux -L $sock send-keys -t b q q
for ch in 01-locks-ids-leases; do
	tmux -L $sock kill-server 2>/dev/null || true
	tmux -L $sock -f /dev/null new-session -d -s b -x 80 -y 24 "$bin --db $T/p.db --lang zh"
	until tmux -L $sock capture-pane -p -t b | grep -qF "已读"; do sleep 0.01; done
	tmux -L $sock send-keys -t b Enter G
	sleep 0.5
	pid=$(pgrep -f "$bin --db $T/p.db --lang zh" | head -n 1)
	echo "peak resident memory (VmHWM), chapter $ch (zh) open: $(grep VmHWM /proc/$pid/status | awk '{print $2, $3}')"
done
