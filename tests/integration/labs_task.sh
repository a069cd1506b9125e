# labs_task.sh - the task table labs end to end: each one runs through the
# real binary against real SQLite files and must pass; --json output is one
# JSON object per line and ends with the verdict; no worker survives.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"

for id in task-claim task-takeover task-lost-reply task-cancel task-scanner; do
	"$WB_BIN" lab run "$id" >"$T/$id.txt" 2>&1 || {
		cat "$T/$id.txt" >&2
		fail "lab $id exited $?"
	}
	grep -q '^PASS: ' "$T/$id.txt" || fail "lab $id: no PASS line"
	grep -q '✘' "$T/$id.txt" && fail "lab $id: a failed check in a passing run"

	"$WB_BIN" lab run "$id" --json >"$T/$id.json" 2>"$T/$id.err" ||
		fail "lab $id --json exited $?: $(cat "$T/$id.err")"
	# Every line is an event object; the last one is the passing verdict.
	bad=$(grep -v -c '^{"t":"[a-z]*",.*}$' "$T/$id.json")
	[ "$bad" -eq 0 ] || fail "lab $id --json: $bad lines are not event objects"
	tail -n 1 "$T/$id.json" | grep -q '^{"t":"verdict","pass":true,' ||
		fail "lab $id --json does not end with a passing verdict: $(tail -n 1 "$T/$id.json")"
	checks=$(grep -c '"t":"check"' "$T/$id.json")
	[ "$checks" -ge 5 ] || fail "lab $id made only $checks checks"
	grep -q '"ok":false' "$T/$id.json" && fail "lab $id --json has a failed check"
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

# Passing runs leave no run directory and no worker process behind.
left=$(find "$T/runs" -mindepth 1 -maxdepth 1 -name 'run-*' | wc -l)
[ "$left" -eq 0 ] || fail "$left run directories left behind"
pgrep -f "$WB_BIN lab run task-" >/dev/null && fail "a lab process outlived its run"

# An unknown lab id is a usage error.
"$WB_BIN" lab run task-nonesuch >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "unknown lab id must exit 2"
grep -q "no lab 'task-nonesuch'" "$T/err" || fail "unknown lab message: $(cat "$T/err")"
echo ok
