# valgrind.sh - the TUI under a memory checker: open a chapter, scroll,
# search, open the contents, switch language, quit.  No definite leaks
# and no memory errors.
#
# The checker is valgrind memcheck, except for a binary built with
# -DWB_SANITIZE=ON: valgrind cannot run an ASan binary (the ASan runtime
# refuses to start under it and exits), so there the same session runs
# under the binary's own AddressSanitizer, LeakSanitizer and UBSan, with
# their reports going to files that must not exist afterwards.
. "$(dirname "$0")/../lib/common.sh"

# An ASan runtime answers help=1 with its flag list, whichever way it is
# linked (gcc: shared libasan; clang: static).
if ASAN_OPTIONS=help=1 "$WB_BIN" --version 2>&1 | grep -q 'AddressSanitizer'; then
	checker="ASAN_OPTIONS=detect_leaks=1:log_path=$T/asan UBSAN_OPTIONS=print_stacktrace=1:log_path=$T/ubsan"
	what="ASan/LSan/UBSan"
else
	command -v valgrind >/dev/null || fail "valgrind is not installed (./wb deps installs it)"
	checker="valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 --log-file=$T/vg.log"
	what="valgrind"
fi

NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 80 -y 24 \
	"env LC_ALL=C.UTF-8 TERM=xterm-256color $checker $WB_BIN --content $WB_FIXTURES --db $T/p.db --lang en$EXIT_MARK"
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
if [ "$what" = valgrind ]; then
	screen | grep -q "EXITED:0" || fail "valgrind reported errors: $(grep -E 'ERROR SUMMARY|definitely' "$T/vg.log")"
	grep -q "definitely lost: 0 bytes" "$T/vg.log" || grep -q "All heap blocks were freed" "$T/vg.log" ||
		fail "definite leaks: $(grep -E 'definitely' "$T/vg.log")"
	grep -q "ERROR SUMMARY: 0 errors" "$T/vg.log" || fail "$(grep 'ERROR SUMMARY' "$T/vg.log")"
else
	reports=$(ls "$T"/asan.* "$T"/ubsan.* 2>/dev/null)
	[ -z "$reports" ] || fail "$what reported: $(cat $reports | head -n 40)"
	screen | grep -q "EXITED:0" || fail "$what: the workbench did not exit 0: $(screen | grep EXITED)"
fi
echo ok
