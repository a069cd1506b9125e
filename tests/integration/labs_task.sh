# labs_task.sh - the task table labs end to end: each one runs through the
# real binary against real SQLite files and must pass; --json output is one
# JSON object per line and ends with the verdict; no worker survives.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"

for id in task-claim task-takeover task-lost-reply task-cancel task-scanner; do
	check_lab_run "$id" 5
done

# The controls are stated as expected failures, and they did fail.
grep -q '"name":"control-read-then-write-has-many-holders","ok":true' "$T/task-claim.json" ||
	fail "task-claim: control check missing"
grep -q '"name":"control-per-attempt-key-duplicates","ok":true' "$T/task-takeover.json" ||
	fail "task-takeover: control check missing"
grep -q '"name":"control-owner-recovery-adopts-newer-claim","ok":true' \
	"$T/task-lost-reply.json" || fail "task-lost-reply: control check missing"

# task-scanner: the scheduler loop outlives the failed job; the conflict
# monitor is quiet under normal load and while the scanner is dead, and
# fires only in the forced storm, with the exact count of 0-row claims.
for c in scheduler-loop-survives conflict-monitor-blind-to-dead-scanner \
	conflict-monitor-quiet-under-normal-load storm-claimers-hold-the-same-candidates \
	storm-conflicts-counted-once conflict-alarm-fires-in-storm; do
	grep -q "\"name\":\"$c\",\"ok\":true" "$T/task-scanner.json" ||
		fail "task-scanner: check $c missing or failed"
done
grep '"name":"storm-conflicts-counted-once"' "$T/task-scanner.json" |
	grep -q '"observed":"monitor: 80 conflicts, 18 won; claimers: 80 zero-row claims"' ||
	fail "task-scanner: storm counts: $(grep storm-conflicts "$T/task-scanner.json")"
alarms=$(grep -c 'ALARM: claim conflicts' "$T/task-scanner.txt")
[ "$alarms" -eq 1 ] || fail "task-scanner: $alarms ticks with a conflict alarm, want exactly 1"
grep -q 'tick  9: .*conflicts 80, .*ALARM: claim conflicts' "$T/task-scanner.txt" ||
	fail "task-scanner: no conflict alarm at the storm tick"

# An unknown lab id is a usage error.
"$WB_BIN" lab run task-nonesuch >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "unknown lab id must exit 2"
grep -q "no lab 'task-nonesuch'" "$T/err" || fail "unknown lab message: $(cat "$T/err")"
echo ok
