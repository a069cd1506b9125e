# labs_lock.sh - the lock labs (zk-lock-chain, zk-lock-race, zk-create-lost,
# zk-herd) end to end through the real binary and a real server: each
# passes (exit 0) with no failed check, --json is one event object per
# line ending with a passing verdict, the points each lab exists for are
# checks that held, and passing runs leave no run directory or server.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

# Text output for the quick ones; zk-herd (64 sessions) runs once, in JSON.
for id in zk-lock-chain zk-lock-race zk-create-lost; do
	"$WB_BIN" lab run "$id" >"$T/$id.txt" 2>&1 || {
		cat "$T/$id.txt" >&2
		fail "lab $id exited $?"
	}
	grep -q '^PASS: ' "$T/$id.txt" || fail "lab $id: no PASS line"
	grep -q '✘' "$T/$id.txt" && fail "lab $id: a failed check in a passing run"
done

for id in zk-lock-chain zk-lock-race zk-create-lost zk-herd; do
	"$WB_BIN" lab run "$id" --json >"$T/$id.json" 2>"$T/$id.err"
	rc=$?
	[ "$rc" -eq 0 ] || {
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

held() { # lab check: the named check is in the JSON and held
	grep -q "\"name\":\"$2\",\"ok\":true" "$T/$1.json" || fail "$1: check $2 missing or failed"
}
held zk-lock-chain n2-watches-n1
held zk-lock-chain n3-watches-n2-only
held zk-lock-chain n3-not-woken
held zk-lock-chain n3-does-not-get-the-lock
held zk-lock-chain n2-relists-before-claiming
held zk-lock-chain n4-does-not-claim
held zk-lock-race get-with-watch-says-gone
held zk-lock-race relisted-at-once
held zk-lock-race no-watch-left
held zk-lock-race control-dangling-watch
held zk-create-lost create-connection-loss
held zk-create-lost same-session
held zk-create-lost ephemeral-owner
held zk-create-lost create-had-happened
held zk-create-lost control-two-candidates
held zk-create-lost recovery-refuses
held zk-herd predecessor-n64
held zk-herd control-herd-n64
grep -q '"key":"dropped_xid"' "$T/zk-create-lost.json" || fail "zk-create-lost: no dropped xid"
grep -q '"key":"table_n64"' "$T/zk-herd.json" || fail "zk-herd: no table"
grep -q '"key":"chart_n64_H"' "$T/zk-herd.json" || fail "zk-herd: no bar chart"
for id in zk-lock-chain zk-lock-race zk-create-lost zk-herd; do
	"$WB_BIN" lab list --json | grep -q "\"id\":\"$id\"" || fail "lab list lacks $id"
done

# zk-create-lost proxies its own server: --zk is refused with exit 2.
"$WB_BIN" lab run zk-create-lost --zk 127.0.0.1:1 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "zk-create-lost --zk must exit 2"

# Passing runs leave no run directory and no server of ours.
left=$(find "$T/runs" -mindepth 1 -maxdepth 1 -name 'run-*' | wc -l)
[ "$left" -eq 0 ] || fail "$left run directories left behind by passing runs"
pgrep -f "java.*$T/runs" >/dev/null && fail "a ZooKeeper server outlived its lab"
echo ok
