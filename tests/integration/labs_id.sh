# labs_id.sh - the distributed ID labs end to end through the real binary:
# id-collision, id-uuid, id-segment (real SQLite files, real processes) and
# id-snowflake (a real ZooKeeper server for the worker leases).  Each run
# must exit 0; --json output is one event object per line and ends with a
# passing verdict; the exact figures of the lesson appear; the controls
# (the naive duplicates, the cloned seed, the restored backup without a
# check) really fail as stated; nothing is left behind.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"

for id in id-collision id-uuid id-segment id-snowflake; do
	"$WB_BIN" lab run "$id" >"$T/$id.txt" 2>&1 || {
		rc=$?
		cat "$T/$id.txt" >&2
		fail "lab $id exited $rc"
	}
	grep -q '^PASS: ' "$T/$id.txt" || fail "lab $id: no PASS line"
	grep -q '✘' "$T/$id.txt" && fail "lab $id: a failed check in a passing run"

	"$WB_BIN" lab run "$id" --json >"$T/$id.json" 2>"$T/$id.err" || {
		rc=$?
		cat "$T/$id.json" "$T/$id.err" >&2
		fail "lab $id --json exited $rc"
	}
	bad=$(grep -v -c '^{"t":"[a-z]*",.*}$' "$T/$id.json")
	[ "$bad" -eq 0 ] || fail "lab $id --json: $bad lines are not event objects"
	tail -n 1 "$T/$id.json" | grep -q '^{"t":"verdict","pass":true,' ||
		fail "lab $id --json does not end with a passing verdict: $(tail -n 1 "$T/$id.json")"
	grep -q '"ok":false' "$T/$id.json" && fail "lab $id --json has a failed check"
	checks=$(grep -c '"t":"check"' "$T/$id.json")
	[ "$checks" -ge 8 ] || fail "lab $id made only $checks checks"
done

# id-collision: the lesson's exact figures, each with its triple and bits.
c="$T/id-collision.txt"
grep -q 'observed: 4194332672 then 4194332672 (duplicate)' "$c" || fail "same-ms restart figure"
grep -q 'observed: \[4190138368, 4194332672, 4190138368\], first == last: duplicate' "$c" ||
	fail "rollback figures"
grep -q 'observed: 4194332672 and 4194332672 (duplicate)' "$c" || fail "shared worker figure"
grep -q '(1000, 7, 0) -> 4194332672 = 0 00000000000000000000000000000001111101000 0000000111 000000000000' "$c" ||
	fail "triple, id and bits of (1000, 7, 0)"
grep -q '(999, 7, 0) -> 4190138368 = ' "$c" || fail "triple of (999, 7, 0)"
grep -q '4,096,000 ids per second per worker: a ceiling set by the bit layout, not a measured rate' "$c" ||
	fail "the per-second ceiling is not stated as a bit budget"
grep -q 'observed: 69.7 years' "$c" || fail "69.7 years"
grep -q '"name":"sequence-slots-per-ms","ok":true,"expected":"2^12 = 4096","observed":"4096"' \
	"$T/id-collision.json" || fail "4096 per ms"

# The controls fail as the lessons say they do.
grep -q '"name":"cloned-seed-collides","ok":true' "$T/id-uuid.json" || fail "cloned-seed control"
grep -q '"name":"control-reissues-used-range","ok":true' "$T/id-segment.json" ||
	fail "restored-backup control"
grep -q '"name":"restored-backup-refused","ok":true' "$T/id-segment.json" ||
	fail "generation check"
grep -q '"name":"request-id-recovers","ok":true' "$T/id-segment.json" || fail "request id"
for name in rollback-refused sequence-never-wraps restart-resumes-above-reservation \
	second-holder-refused lost-lease-stops-issuing fenced-at-reservation no-id-repeats; do
	grep -q "\"name\":\"$name\",\"ok\":true" "$T/id-snowflake.json" ||
		fail "id-snowflake: check $name missing"
done

# Passing runs leave no run directory, no generator process, no server.
left=$(find "$T/runs" -mindepth 1 -maxdepth 1 -name 'run-*' | wc -l)
[ "$left" -eq 0 ] || fail "$left run directories left behind"
pgrep -f "$WB_BIN lab run id-" >/dev/null && fail "a lab process outlived its run"
pgrep -f "java.*$T/runs" >/dev/null && fail "a ZooKeeper server outlived its run"
echo ok
