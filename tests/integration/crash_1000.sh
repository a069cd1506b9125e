# crash_1000.sh - kill -9 during 1,000 graded answers.
#
# A generated chapter holds 1,000 auto-graded (numeric) questions; one
# self-test takes them all through `quiz run --plain` on fifos.  The
# workbench is killed again and again and resumed each time:
#  - from outside, right after the test reads the K-th "Saved:" line,
#    both in lock-step (the program waits for input: a kill between two
#    answers) and with every answer written ahead (the program races on,
#    so the kill lands wherever it is, often inside a transaction);
#  - from inside, by the WORKBENCH_TEST_KILL_IN_SAVE=N hook that raises
#    SIGKILL between the INSERT and the COMMIT of the N-th save.
# After every kill: PRAGMA integrity_check is ok, every acknowledged
# answer is in the database, no question is answered twice, schedules
# match answers, and the next run resumes with exactly what is stored.
# The last run finishes the test: 1,000 answers, each question once.
. "$(dirname "$0")/../lib/common.sh"
# A write to a killed reader must fail, not kill the test.
trap '' PIPE
pid=
trap 'kill -9 $pid 2>/dev/null; cleanup' EXIT INT TERM

N=1000
C="$T/content"
DB="$T/progress.db"
WB="$WB_BIN --content $C --db $DB --quizzes $T/instructor --lang en"
q() { sqlite3 "$DB" "$1"; }

mkdir -p "$C/lessons/en" "$C/quizzes/en"
printf '# Crash chapter\n\nA chapter whose bank is large.\n' >"$C/lessons/en/00-crash.md"
awk -v n=$N 'BEGIN {
	print "# Self-test: Crash chapter"
	for (i = 1; i <= n; i++)
		printf "\n## [c-%04d] What is one?\nkind: numeric\nanswer: 1\n\n### Answer\nOne.\n", i
}' >"$C/quizzes/en/00-crash.md"
[ "$($WB quiz list 00-crash | wc -l)" = $N ] || fail "the generated bank does not have $N questions"

: >"$T/acked" # every question id whose "Saved:" line the test read

check_db() {
	ic=$(q 'PRAGMA integrity_check')
	[ "$ic" = ok ] || fail "integrity_check: $ic"
	dup=$(q "SELECT question FROM quiz_answer GROUP BY question HAVING COUNT(*) > 1 LIMIT 3")
	[ -z "$dup" ] || fail "answered twice: $dup"
	[ -z "$(sort "$T/acked" | uniq -d | head -n 3)" ] ||
		fail "a question was acknowledged twice: $(sort "$T/acked" | uniq -d | head -n 3)"
	q "SELECT question FROM quiz_answer" | sort >"$T/stored"
	missing=$(sort "$T/acked" | comm -23 - "$T/stored" | head -n 3)
	[ -z "$missing" ] || fail "acknowledged but not stored: $missing"
	[ "$(q 'SELECT COUNT(*) FROM quiz_schedule')" = "$(q 'SELECT COUNT(*) FROM quiz_answer')" ] ||
		fail "schedules out of step with answers"
	[ "$(q "SELECT COUNT(*) FROM quiz_test")" = 1 ] || fail "more than one test"
}

# drive MODE KILL_AT: one run of the plain runner.  MODE lockstep answers
# each prompt as it comes; ahead writes every answer at once.  KILL_AT
# (0: never) kills it with SIGKILL after the KILL_AT-th acknowledgement.
# Sets acks (acknowledgements read), resumed (the count it said it
# resumed with, -1 for a fresh start) and status (its exit status).
drive() {
	mode=$1 kill_at=$2
	rm -f "$T/in" "$T/out"
	mkfifo "$T/in" "$T/out"
	WORKBENCH_SEED=7 $WB quiz run 00-crash --plain <"$T/in" >"$T/out" 2>"$T/err" &
	pid=$!
	exec 3>"$T/in" 4<"$T/out"
	if [ "$mode" = ahead ]; then
		awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) print 1 }' >&3
	fi
	acks=0 resumed=-1 cur= killed=0
	while IFS= read -r line <&4; do
		case $line in
		"Resumed: "*)
			resumed=${line#Resumed: }
			resumed=${resumed%% *}
			;;
		"Question "*)
			cur=${line#*\[}
			cur=${cur%%\]*}
			;;
		"Your answer (a number):"*)
			[ "$mode" = lockstep ] && [ "$killed" = 0 ] && echo 1 >&3
			;;
		"Saved: Got it, 1/1 points")
			acks=$((acks + 1))
			echo "$cur" >>"$T/acked"
			if [ "$acks" = "$kill_at" ]; then
				kill -9 $pid
				killed=1
			fi
			;;
		"Saved:"* | "Could not save"*) fail "unexpected: $line" ;;
		esac
	done
	exec 3>&- 4<&-
	# (the shell reports "Killed" for the job: that is the point)
	status=0
	wait $pid || status=$?
}

stored() { if [ -f "$DB" ]; then q "SELECT COUNT(*) FROM quiz_answer"; else echo 0; fi; }

# One run; KILL_IN_SAVE (0: none) sets the hook.  Checks what the kill
# must leave behind.
run() {
	mode=$1 kill_at=$2 in_save=$3
	before=$(stored)
	if [ "$in_save" -gt 0 ]; then
		WORKBENCH_TEST=1 WORKBENCH_TEST_KILL_IN_SAVE=$in_save drive "$mode" "$kill_at"
	else
		drive "$mode" "$kill_at"
	fi
	if [ "$before" -gt 0 ]; then
		[ "$resumed" = "$before" ] || fail "resumed with $resumed answered, $before are stored"
	fi
	check_db
	after=$(stored)
	if [ "$in_save" -gt 0 ]; then
		[ "$status" = 137 ] || fail "the kill hook did not fire (exit $status): $(cat "$T/err")"
		[ "$acks" = $((in_save - 1)) ] || fail "$acks acknowledgements before save $in_save"
		[ "$after" = $((before + in_save - 1)) ] ||
			fail "killed inside save $in_save: $before before, $after after"
	elif [ "$kill_at" -gt 0 ]; then
		[ "$status" = 137 ] || fail "not killed (exit $status): $(cat "$T/err")"
		# Answers may be stored and not yet acknowledged, never the reverse.
		[ "$after" -ge $((before + acks)) ] || fail "$acks acknowledged, only $((after - before)) stored"
	fi
	echo "run $mode kill_at=$kill_at in_save=$in_save: acks=$acks stored=$after"
}

run lockstep 1 0   # first answer, killed while waiting for the second
run lockstep 0 1   # killed inside the first save after a resume
run ahead 150 0    # killed wherever it is after 150 acknowledgements
run ahead 0 120    # killed inside the 120th save
run lockstep 60 0
run ahead 1 0
run ahead 37 0
run ahead 0 200
run ahead 90 0
run lockstep 0 45

# The last run finishes the test.
drive ahead 0
[ "$status" = 0 ] || fail "the last run exited $status: $(cat "$T/err")"
check_db
[ "$(stored)" = $N ] || fail "$(stored) answers after the test, expected $N"
[ "$(q "SELECT state FROM quiz_test")" = finished ] || fail "the test did not finish"
[ "$(q "SELECT COUNT(DISTINCT question) FROM quiz_answer WHERE test_uid = (SELECT uid FROM quiz_test)")" = $N ] ||
	fail "not every question of the test is answered"
echo ok
