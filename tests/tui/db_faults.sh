# db_faults.sh - the TUI and a progress database in trouble: locked at
# start-up by another program (F8: a countdown and a retry key instead
# of exiting; q gives up with exit 1; once released, r starts the
# workbench), and full when `s` starts a test (F7: the home screen says
# why instead of doing nothing; WORKBENCH_TEST_DB_SPARE_PAGES forces
# SQLITE_FULL).
. "$(dirname "$0")/../lib/common.sh"

command -v tmux >/dev/null || skip "tmux is not installed"
command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"
export HOME="$T/home"
writer= # the lock holder's input writer, killed on the way out
trap '[ -n "$writer" ] && kill "$writer" 2>/dev/null; cleanup' EXIT INT TERM
mkdir -p "$HOME"
DB=$T/p.db
ARGS="--content $WB_FIXTURES --db $DB --lang en"
"$WB_BIN" $ARGS quiz stats >/dev/null 2>&1 || true
"$WB_BIN" --db "$DB" lab run id-collision >/dev/null 2>&1 || fail "making the database"

# hold: an sqlite3 shell takes the file with locking_mode=EXCLUSIVE and
# keeps it until release ends the writer of its input (a background
# process of ours, so no other process inherits the fifo).
hold() {
	rm -f "$T/hold" "$T/held"
	mkfifo "$T/hold"
	sqlite3 "$DB" <"$T/hold" >"$T/held" 2>&1 &
	holder=$!
	{
		echo "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; SELECT 'held', count(*) FROM lab_runs;"
		exec sleep 600
	} >"$T/hold" &
	writer=$!
	deadline=$(($(date +%s) + 30))
	until grep -q held "$T/held"; do
		[ "$(date +%s)" -lt $deadline ] || fail "the holder did not take the lock: $(cat "$T/held")"
		sleep 0.05
	done
}
release() {
	kill "$writer"
	wait "$holder"
	writer=
}

# Locked, then q: the wait is shown, and giving up exits 1.
hold
sum=$(cksum <"$DB")
tui_start 100 24 "$ARGS"
wait_for "is locked by another program."
wait_for "holds it exclusively. Nothing was changed"
wait_for "· r: try now · q: quit"
first=$(screen | grep -o "Trying again in [0-9] s")
wait_gone "$first" 15 # the countdown moves
keys q
wait_for "EXITED:1"
screen | grep -q "is locked by another program" || fail "no message after q"
[ "$(cksum <"$DB")" = "$sum" ] || fail "the locked file was changed"

# Locked, then released and r: the home screen.
tui_start 100 24 "$ARGS"
wait_for "· r: try now · q: quit"
release
keys r
wait_for "Fixture chapter"
wait_for "due today"
keys q
wait_for "EXITED:0"

# Full when a test starts: `s` says so.  A bank of 300 questions with
# long ids needs new pages for the test's items; none are left.
mkdir -p "$T/q/en"
{
	echo "# Self-test: many"
	i=0
	while [ $i -lt 300 ]; do
		printf '\n## [q-%s-%03d] N?\nkind: numeric\nanswer: 1\n\n### Answer\n1\n' \
			"$(printf '%040d' 0 | tr 0 a)" $i
		i=$((i + 1))
	done
} >"$T/q/en/00-fixture.md"
export WORKBENCH_TEST=1 WORKBENCH_TEST_DB_SPARE_PAGES=0
tui_start 160 24 "$ARGS --quizzes $T/q"
wait_for "Fixture chapter"
keys s
wait_for "all 306 questions" # the length choice: the whole bank, many new pages
keys 3
keys Enter
wait_for "No space left on device: the test was not started; nothing saved before is lost."
keys q
wait_for "EXITED:0"
unset WORKBENCH_TEST_DB_SPARE_PAGES
[ "$(sqlite3 "$DB" 'SELECT count(*) FROM quiz_test')" -eq 0 ] || fail "a test was started"
echo ok
