# valgrind.sh - the TUI under valgrind memcheck: open a chapter, scroll,
# search, open the contents, switch language, quit.  No definite leaks
# and no memory errors.
. "$(dirname "$0")/../lib/common.sh"
command -v valgrind >/dev/null || fail "valgrind is not installed (./wb deps installs it)"

NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 80 -y 24 \
	"env LC_ALL=C.UTF-8 TERM=xterm-256color valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 --log-file=$T/vg.log $WB_BIN --content $WB_FIXTURES --db $T/p.db --lang en; echo EXITED:\$?; sleep 30"
wait_for "Fixture chapter" 120
keys Enter
wait_for "? help" 60
keys Space / Z o o Enter
wait_for " for \"Zoo\"" 60
keys t
wait_for "Contents" 60
keys Escape L
wait_for "测试章节" 60
keys q q
wait_for "EXITED:" 120
screen | grep -q "EXITED:0" || fail "valgrind reported errors: $(grep -E 'ERROR SUMMARY|definitely' "$T/vg.log")"
grep -q "definitely lost: 0 bytes" "$T/vg.log" || grep -q "All heap blocks were freed" "$T/vg.log" ||
	fail "definite leaks: $(grep -E 'definitely' "$T/vg.log")"
grep -q "ERROR SUMMARY: 0 errors" "$T/vg.log" || fail "$(grep 'ERROR SUMMARY' "$T/vg.log")"
echo ok
