# lab_zh.sh - with --lang zh the lab screen narrates in Chinese (ux.md
# problem 14): the TUI passes its language to the lab it starts, the steps
# and expected values read in Chinese, while check names and observed
# values stay as the lab wrote them.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
tui_start 100 30 "--db $DB --lang zh"
wait_for "锁配方"
keys Enter
wait_for "? 帮助"
keys / t a s k - t a k e o v e r Enter
wait_for "按 Enter 就地运行"
keys Enter
wait_for "实验 task-takeover"
wait_for "通过 ✔" 60
keys g # the top: the first steps
wait_for "第 1 部分"
# A step in Chinese holds bytes outside printable ASCII (after the bullet).
steps() { screen | grep '^ *• ' | sed 's/^ *• //'; }
steps | LC_ALL=C grep -q '[^ -~]' || fail "no step on screen is in Chinese"
steps | LC_ALL=C grep -v '[^ -~]' && fail "a step on screen is in English"
screen | grep -q "✔ step0-initial" || fail "a check name was translated or is missing"
keys q
keys q
keys q
wait_for "EXITED:0"
echo ok
