# labs_stale.sh - the labs zk-stale-read and zk-sync-partition end to end
# through the real binary and real ensembles.
#
# zk-stale-read (three servers) passes, its --json output is one event
# object per line ending with the passing verdict, the points it exists for
# are checks that held (the stale read after a completed write, sync and
# the own write waiting for the held link and then reading 1, the follower
# dropping its clients after syncLimit x tickTime while B's write was
# committed, the rejoin), and the evidence carries zxids and timings.
# zk-sync-partition (five servers, ZOOKEEPER-1675) passes with two leaders
# at once and a stale sync+read.  No server or run directory is left
# behind.  --zk is refused (exit 2); without java the lab names the package
# and exits 2.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"
id=zk-stale-read

"$WB_BIN" lab list --json | grep -q "\"id\":\"$id\".*\"needs\":\"zookeeper-ensemble\"" ||
	fail "lab list does not show $id needing an ensemble"

check_lab_run "$id" 12

for name in stale-read-after-completed-write b-write-committed-on-leader \
	sync-and-write-wait-for-the-held-link sync-then-read-sees-1 own-write-then-read-sees-1 \
	short-hold-keeps-follower follower-drops-clients follower-stops-serving \
	lost-write-was-committed follower-rejoins rejoined-follower-serves-current; do
	grep -q "\"name\":\"$name\",\"ok\":true" "$T/$id.json" || fail "lab $id: check $name missing"
done
# The stale read really returned the old value with the old mzxid.
grep '"name":"stale-read-after-completed-write"' "$T/$id.json" |
	grep -q 'observed":"ZOK, \\"0\\", mzxid 0x' || fail "lab $id: the stale read did not return 0"
grep -q '"name":"follower-drops-clients","ok":true,"expected":"[^"]*","observed":"ZCONNECTIONLOSS"' \
	"$T/$id.json" || fail "lab $id: B's write did not end with ZCONNECTIONLOSS"
for key in ensemble_start_ms a_write_mzxid x0_mzxid follower_zxid_during_hold \
	leader_zxid_during_hold short_hold_ms released_bytes follower_serves_1_after_release_ms \
	release_to_sync_ms hold_to_connection_loss_ms b_lost_write_mzxid \
	release_to_follower_serving_ms; do
	grep -q "\"key\":\"$key\"" "$T/$id.json" || fail "lab $id: no evidence $key"
done

# zk-sync-partition: ZOOKEEPER-1675 on five servers - two leaders at once,
# sync then read on the old side returns the old value after the new
# majority's write completed; the old side cannot commit; it rejoins.
id2=zk-sync-partition
"$WB_BIN" lab list --json | grep -q "\"id\":\"$id2\".*\"needs\":\"zookeeper-ensemble\"" ||
	fail "lab list does not show $id2 needing an ensemble"
check_lab_run -j "$id2" 7
for name in two-leaders new-majority-commits sync-then-read-is-stale old-leader-steps-down \
	old-side-write-not-committed old-side-rejoins after-heal-sync-read-sees-1; do
	grep -q "\"name\":\"$name\",\"ok\":true" "$T/$id2.json" || fail "lab $id2: check $name missing"
done
grep '"name":"sync-then-read-is-stale"' "$T/$id2.json" |
	grep -q 'observed":"sync ZOK, getData ZOK \\"0\\"' || fail "lab $id2: the sync+read was not stale"
for key in partition_to_new_leader_ms w_write_mzxid partition_to_old_leader_down_ms two_leaders_ms \
	modes_after_election; do
	grep -q "\"key\":\"$key\"" "$T/$id2.json" || fail "lab $id2: no evidence $key"
done

# It starts its own ensemble: --zk is refused with exit 2.
"$WB_BIN" lab run "$id" --zk 127.0.0.1:1 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "$id --zk must exit 2"
grep -q "cannot run against --zk" "$T/err" || fail "$id --zk message: $(cat "$T/err")"

# No java: a clear message naming the package, exit 2.
JAVA=/nonexistent/java "$WB_BIN" lab run "$id" >"$T/nojava.txt" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "$id without java exited $rc, want 2: $(cat "$T/nojava.txt")"
grep -q 'default-jre-headless' "$T/nojava.txt" || fail "no package named: $(cat "$T/nojava.txt")"
grep -q '^COULD NOT RUN' "$T/nojava.txt" || fail "no COULD NOT RUN line: $(cat "$T/nojava.txt")"
pgrep -f "java.*$T/runs" >/dev/null && fail "a ZooKeeper server outlived its lab"

echo ok
