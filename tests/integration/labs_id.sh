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
	check_lab_run "$id" 8
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

echo ok
