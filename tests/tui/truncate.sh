# truncate.sh - text that does not fit is cut with "…" at a character
# boundary, the important part stays, and fields keep a space between
# them (ux.md, further problems: truncation): the home rows at 80
# columns, the status line at 40x12, the reader's status line, the
# self-test header at 40 columns (Question N of M stays), the too-small
# notice wrapped at spaces.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
ARGS="--content $WB_SRC --db $DB --quizzes $T/instructor --lang en"
status() { screen | tail -n 1; }

tui_start 80 24 "$ARGS"
wait_for "Lock recipes, IDs and task leases"
row=$(screen | grep "^  02 ")
echo "$row" | grep -q "…  labs passed 0/" || fail "home row 02 is not cut with … before its labs: $row"

# The reader's status line at 50 columns: the title cut with …, two
# spaces before the percentage.
keys Enter
wait_for "%  ? help"
keys G
wait_for "100%  ? help"
tmux -L "$SOCK" resize-window -t wb -x 50 -y 20
wait_for "%  ? help"
keys G
wait_for "100%  ? help"
status | grep -q "…  100%  ? help" || fail "reader status not cut with … and two spaces: $(status)"

# The status line at 40x12: the hint is cut with …, "English" apart.
keys q
wait_for "? help  q quit"
tmux -L "$SOCK" resize-window -t wb -x 40 -y 12
wait_for "English"
status | grep -q "…  English" || fail "home status at 40 columns runs together: $(status)"
status | grep -q "[^ ]English" && fail "home status at 40 columns runs together: $(status)"

# The self-test header at 40 columns keeps "Question 1 of N".
keys s
wait_for "1. 12 questions"
screen | grep -q "…" || fail "the length choices at 40 columns are cut without …"
keys Enter
wait_for "Question 1 of 12"
screen | head -n 1 | grep -q "…  Question 1 of 12" || fail "header: $(screen | head -n 1)"

# Too small: the notice is wrapped at spaces, no word is broken.
tmux -L "$SOCK" resize-window -t wb -x 30 -y 10
wait_for "Terminal too small"
screen | grep -q "Please make it at least" || fail "the too-small notice breaks words"
tmux -L "$SOCK" resize-window -t wb -x 40 -y 12
wait_for "Question 1 of 12"
keys C-p
wait_for "English"
keys q
wait_for "EXITED:0"
