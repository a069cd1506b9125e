# labs_fence.sh - the session-expiry, fencing and Redis-lock labs against
# real servers: each run exits 0 (pass), its --json output ends with a
# passing verdict line, the expected checks are there (the naive controls
# among them), and after the run no redis-server or java process started
# for it is left and its run directory is gone.
. "$WB_SRC/tests/lib/common.sh"

# Run directories under $T, so "a process of this run" is any process
# whose command line mentions $T/runs (lab_leftovers in common.sh).
export WORKBENCH_RUN_BASE="$T/runs"
export WORKBENCH_DB="$T/progress.db"

# run_lab ID CHECK...: check_lab_run -j ID (the run passes and leaves
# nothing behind: run directories under $T/runs, and any process whose
# command line mentions $T/runs), and every CHECK appears as a passing
# check.
run_lab() {
	id=$1
	shift
	check_lab_run -j "$id" $#
	for check in "$@"; do
		grep -F -q "{\"t\":\"check\",\"name\":\"$check\",\"ok\":true," "$T/$id.json" ||
			fail "$id: no passing check $check"
	done
	ms=$(tail -n 1 "$T/$id.json" | sed -n 's/.*"ms":\([0-9]*\).*/\1/p')
	echo "ok $id (${ms} ms)"
}

run_lab redis-lock b-refused-while-a-holds unconditional-del-removes-b-lock \
	c-acquires-beside-b compare-and-delete-keeps-b-lock owner-release-works \
	unconditional-pexpire-stretches-b-lease compare-and-pexpire-leaves-b-lease \
	owner-renew-works

run_lab zk-disconnect-expire a-sees-connecting work-paused-while-disconnected \
	same-session-after-reconnect candidate-survives-disconnect recheck-candidate-and-order \
	server-expires-session queued-call-sessionexpired a-sees-expired \
	old-handle-cannot-compete new-attempt-new-identity

run_lab zk-fencing a-holds-lock b-watches-a b-notified-rechecks-holds b-token-larger \
	window-accepts-old-token b-write-advances-mark unfenced-control-fails \
	fenced-rejects-stale mark-survives-reopen equal-token-accepted larger-token-advances

# Without redis-server in PATH the lab cannot run: exit 2, naming the package.
rc=0
PATH=/nonexistent "$WB_BIN" lab run redis-lock --json >"$T/nored.jsonl" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "redis-lock without redis-server exited $rc, expected 2"
grep -F -q 'redis-server' "$T/nored.jsonl" || fail "no package named: $(cat "$T/nored.jsonl")"
rm -rf "$WORKBENCH_RUN_BASE"/run-*

exit 0
