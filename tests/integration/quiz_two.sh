# quiz_two.sh - two workbench processes grading on one progress database
# at once.  At most one self-test runs at a time, so "at once" means: two
# windows on the same running test, two windows starting a test in the
# same moment, and a progress import while a test is graded.  Overlaps
# are forced with the WORKBENCH_TEST_HOLD hook (a process stops inside
# its transaction, or just before it, until the test writes to a fifo),
# never by sleeping.  What must hold: no SQLite error ever reaches the
# learner, a process that waits on the other says so and offers a
# choice, an answer another window got in first is refused with a clear
# message (first grade wins, never two grades of one question in a
# test), every acknowledged answer is stored, and integrity_check is ok.
# The last part runs one of the two windows in the TUI (tmux).
. "$(dirname "$0")/../lib/common.sh"

N=12
C="$T/content"
DB="$T/progress.db"
WB="$WB_BIN --content $C --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }
pids=
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; cleanup' EXIT INT TERM

mkdir -p "$C/lessons/en" "$C/quizzes/en"
printf '# Two windows\n\nA chapter.\n' >"$C/lessons/en/00-two.md"
awk -v n=$N 'BEGIN {
	print "# Self-test: Two windows"
	for (i = 1; i <= n; i++)
		printf "\n## [t-%02d] What is one?\nkind: numeric\nanswer: 1\n\n### Answer\nOne.\n", i
}' >"$C/quizzes/en/00-two.md"

# wait_out FILE TEXT [COUNT]: until FILE holds TEXT COUNT times (default 1).
# The program flushes its output whenever it waits for input.
wait_out() {
	deadline=$(($(date +%s) + 90))
	while [ "$(grep -c -F -- "$2" "$1" 2>/dev/null)" -lt "${3:-1}" ]; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "timed out waiting for '$2' in $1: $(cat "$1")"
		sleep 0.05
	done
}
# The id of the question FILE shows last.
shown() { grep '^Question ' "$1" | tail -n 1 | sed 's/.*\[\(.*\)\].*/\1/'; }
# held PREFIX: waits until a process reaches its hold point.
held() {
	timeout 60 sh -c 'read -r _ <"$1"' sh "$1.held" || fail "no process reached the hold point $1"
}
release() { echo go >"$1.go"; }
no_sql_errors() {
	for f in "$@"; do
		if grep -E -i -q 'sqlite|database is locked|constraint|SQL' "$f"; then
			fail "an SQLite error reached the learner in $f: $(cat "$f")"
		fi
	done
}
check_db() {
	[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "integrity_check: $(q 'PRAGMA integrity_check')"
	dup=$(q "SELECT question FROM quiz_answer WHERE test_uid IS NOT NULL GROUP BY test_uid, question HAVING COUNT(*) > 1")
	[ -z "$dup" ] || fail "graded twice in one test: $dup"
}
mkfifo "$T/h.held" "$T/h.go" "$T/g.held" "$T/g.go" "$T/a.in" "$T/b.in"

# ---- 1. Two windows on the same test --------------------------------------
# A starts the test and is held inside the transaction of its first grade.
: >"$T/a.out" # emptied here, not by the background redirection (a race with wait_out)
WORKBENCH_SEED=3 WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD=save:1 WORKBENCH_TEST_HOLD_FIFO="$T/h" \
	$WB quiz run 00-two --plain <"$T/a.in" >"$T/a.out" 2>"$T/a.err" &
A=$!
pids="$pids $A"
exec 5>"$T/a.in"
wait_out "$T/a.out" "Your answer (a number):"
first=$(shown "$T/a.out")
echo 1 >&5
held "$T/h"
# B opens the same test meanwhile: A's grade is not committed, so B asks
# the same question.
: >"$T/b.out" # emptied here, not by the background redirection (a race with wait_out)
$WB quiz run 00-two --plain <"$T/b.in" >"$T/b.out" 2>"$T/b.err" &
B=$!
pids="$pids $B"
exec 6>"$T/b.in"
wait_out "$T/b.out" "Your answer (a number):"
grep -q "^Resumed: 0 of $N answered" "$T/b.out" || fail "B did not join the running test: $(cat "$T/b.out")"
[ "$(shown "$T/b.out")" = "$first" ] || fail "B shows $(shown "$T/b.out"), A showed $first"
echo 2 >&6
# B waits for the lock past its busy timeout, then says why and asks.
wait_out "$T/b.out" "The progress database is busy: another program is writing to it"
wait_out "$T/b.out" "Enter: try again"
[ "$(q 'SELECT COUNT(*) FROM quiz_answer')" = 0 ] || fail "an answer was written while A held the lock"
release "$T/h"
wait_out "$T/a.out" "Saved: Got it, 1/1 points"
# B tries again: A graded that question first; B is told and moves on.
echo >&6
wait_out "$T/b.out" "[$first] was already graded in another window (Got it); this answer was not saved."
wait_out "$T/a.out" "Your answer (a number):" 2
wait_out "$T/b.out" "Your answer (a number):" 2
second=$(shown "$T/a.out")
[ "$(shown "$T/b.out")" = "$second" ] || fail "after the conflict B shows $(shown "$T/b.out"), A $second"
[ "$(q "SELECT grade FROM quiz_answer WHERE question = '$first'")" = 3 ] || fail "A's grade of $first was replaced"

# Both on the second question, no hold: B first this time.
echo 2 >&6
wait_out "$T/b.out" "Saved: Again, 0/1 points"
echo 1 >&5
wait_out "$T/a.out" "[$second] was already graded in another window (Again); this answer was not saved."
# A grades the third; B's :undo would take back A's grade: refused.
wait_out "$T/a.out" "Your answer (a number):" 3
third=$(shown "$T/a.out")
echo 1 >&5
wait_out "$T/a.out" "Saved: Got it, 1/1 points" 2
wait_out "$T/b.out" "Your answer (a number):" 3
echo :undo >&6
wait_out "$T/b.out" "Nothing undone: the newest grade of this test was given in another window."
[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE question = '$third'")" = 1 ] || fail "B's undo removed A's grade"
# B pauses; A finishes the test.
wait_out "$T/b.out" "Your answer (a number):" 4
echo :quit >&6
exec 6>&-
wait $B || fail "B's :quit exited $?"
for i in $(seq 4 $N); do
	wait_out "$T/a.out" "Your answer (a number):" $i
	echo 1 >&5
done
wait_out "$T/a.out" "Test finished"
exec 5>&-
wait $A || fail "A exited $?: $(cat "$T/a.err")"
no_sql_errors "$T/a.out" "$T/a.err" "$T/b.out" "$T/b.err"
check_db
[ "$(q 'SELECT COUNT(*) FROM quiz_answer')" = $N ] || fail "$(q 'SELECT COUNT(*) FROM quiz_answer') answers, expected $N"
[ "$(q "SELECT state FROM quiz_test")" = finished ] || fail "the test did not finish"
acks=$(cat "$T/a.out" "$T/b.out" | grep -c '^Saved: ')
[ "$acks" = $N ] || fail "$acks acknowledgements for $N stored answers"

# ---- 2. Two windows start a test in the same moment ------------------------
# A is held inside its start transaction; B has looked (no test running:
# A's is not committed) and is held just before its own start.
start_pair() { # B's arguments: what B asks for
	: >"$T/a.out" # emptied here, not by the background redirection (a race with wait_out)
	WORKBENCH_SEED=4 WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD=start:1 WORKBENCH_TEST_HOLD_FIFO="$T/h" \
		$WB quiz run 00-two --plain <"$T/a.in" >"$T/a.out" 2>"$T/a.err" &
	A=$!
	pids="$pids $A"
	exec 5>"$T/a.in"
	held "$T/h"
	: >"$T/b.out" # emptied here, not by the background redirection (a race with wait_out)
	WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD=start-begin:1 WORKBENCH_TEST_HOLD_FIFO="$T/g" \
		$WB quiz run "$@" --plain <"$T/b.in" >"$T/b.out" 2>"$T/b.err" &
	B=$!
	pids="$pids $B"
	exec 6>"$T/b.in"
	held "$T/g"
	release "$T/h"
	wait_out "$T/a.out" "Your answer (a number):"
	release "$T/g"
}
start_pair 00-two
# B's start finds A's test inside its transaction and joins it.
wait_out "$T/b.out" "Your answer (a number):"
grep -q "^Resumed: 0 of $N answered" "$T/b.out" || fail "B did not join A's test: $(cat "$T/b.out")"
[ "$(shown "$T/b.out")" = "$(shown "$T/a.out")" ] || fail "B and A ask different questions"
[ "$(q "SELECT COUNT(*) FROM quiz_test WHERE state = 'running'")" = 1 ] || fail "two tests run"
# A abandons the test; B's answer then has no test to go into.
echo :abandon >&5
exec 5>&-
wait $A || fail "A's :abandon exited $?"
echo 1 >&6
exec 6>&-
st=0
wait $B || st=$?
[ $st = 1 ] || fail "B exited $st after the test was abandoned elsewhere"
grep -q "^This test was ended in another window; this answer was not saved." "$T/b.out" ||
	fail "B: $(cat "$T/b.out")"
[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE test_uid = (SELECT uid FROM quiz_test WHERE state = 'abandoned')")" = 0 ] ||
	fail "an answer went into the abandoned test"

# A review that meets a chapter test started a moment before is refused
# with the choice to finish or abandon that test (all questions are due
# 60 days on).
WORKBENCH_NOW=$(($(date +%s) + 60 * 86400)) start_pair --due
st=0
wait $B || st=$?
[ $st = 1 ] || fail "the review exited $st: $(cat "$T/b.err")"
grep -q "another self-test is in progress (00-two, 0 of $N answered): finish it with \`workbench quiz run 00-two --plain\` or abandon it" "$T/b.err" ||
	fail "no clear message for the review: $(cat "$T/b.err")"
exec 6>&-
echo 1 >&5 # A goes on undisturbed
wait_out "$T/a.out" "Saved: Got it, 1/1 points"
no_sql_errors "$T/a.out" "$T/a.err" "$T/b.out" "$T/b.err"

# ---- 3. A progress import while A grades -----------------------------------
cat >"$T/import.csv" <<EOF
uid,learner,test,question,chapter,lang,kind,shown_at,revealed_at,graded_at,answer,ticked,points,max_points,grade,closed_book
aaaa0001,ann,,t-01,00-two,en,numeric,2026-01-01T00:00:00.000Z,,2026-01-01T00:00:05.000Z,1,,1,1,got,1
aaaa0002,ann,,t-02,00-two,en,numeric,2026-01-01T00:01:00.000Z,,2026-01-01T00:01:05.000Z,7,,0,1,again,1
EOF
before=$(q 'SELECT COUNT(*) FROM quiz_answer')
WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD=import:1 WORKBENCH_TEST_HOLD_FIFO="$T/g" \
	$WB progress import "$T/import.csv" >"$T/d.out" 2>"$T/d.err" &
D=$!
pids="$pids $D"
held "$T/g"
wait_out "$T/a.out" "Your answer (a number):" 2
echo 1 >&5
wait_out "$T/a.out" "The progress database is busy: another program is writing to it"
release "$T/g"
wait $D || fail "the import exited $?: $(cat "$T/d.err")"
grep -q "imported 2 answers, 0 already present" "$T/d.out" || fail "import: $(cat "$T/d.out")"
echo >&5
wait_out "$T/a.out" "Saved: Got it, 1/1 points" 2
[ "$(q 'SELECT COUNT(*) FROM quiz_answer')" = $((before + 3)) ] || fail "an answer of the import or of A is missing"
echo :quit >&5
exec 5>&-
wait $A || fail "A's :quit exited $?"
no_sql_errors "$T/a.out" "$T/a.err" "$T/d.out" "$T/d.err"
check_db

# ---- 4. The same in the TUI: a window that waited, then lost the race ------
DB="$T/tui.db"
WB="$WB_BIN --content $C --db $DB --quizzes $T/instructor --lang en"
: >"$T/a.out" # emptied here, not by the background redirection (a race with wait_out)
WORKBENCH_SEED=3 WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD=save:1 WORKBENCH_TEST_HOLD_FIFO="$T/h" \
	$WB quiz run 00-two --plain <"$T/a.in" >"$T/a.out" 2>"$T/a.err" &
A=$!
pids="$pids $A"
exec 5>"$T/a.in"
wait_out "$T/a.out" "Your answer (a number):"
first=$(shown "$T/a.out")
echo 1 >&5
held "$T/h"
tui_start 100 30 "--content $C --db $DB --quizzes $T/instructor --lang en"
wait_for "Self-test in progress: 00-two, 0 of $N answered"
keys s
wait_for "Question 1 of $N"
screen | head -n 1 | grep -qF "[$first]" || fail "the TUI shows another question than A: $(screen | head -n 1)"
keys -l 2
keys Enter
wait_for "The progress database is busy: another program is writing to it" 30
wait_for "Question 1 of $N"
release "$T/h"
wait_out "$T/a.out" "Saved: Got it, 1/1 points"
keys Enter # the answer box kept the keys and the typed 2: submit again
wait_for "[$first] was already graded in another window (Got it); this answer was not saved."
wait_for "Question 2 of $N"
[ "$(q "SELECT COUNT(*) || ' ' || MIN(grade) FROM quiz_answer")" = "1 3" ] || fail "the TUI's grade was stored"
# The TUI answers the second question first; A's grade of it is refused.
keys -l 1
keys Enter
wait_for "Saved: Got it, 1/1 points"
wait_out "$T/a.out" "Your answer (a number):" 2
echo 1 >&5
wait_out "$T/a.out" "was already graded in another window (Got it); this answer was not saved."
echo :quit >&5
exec 5>&-
wait $A || fail "A's :quit exited $?"
[ "$(q 'SELECT COUNT(*) FROM quiz_answer')" = 2 ] || fail "two answers expected"
screen | grep -E -i -q 'sqlite|database is locked|constraint' && fail "an SQLite error on the TUI screen"
no_sql_errors "$T/a.out" "$T/a.err"
check_db
echo ok
