# labs_lock.sh - the lock labs (zk-lock-chain, zk-lock-race, zk-create-lost,
# zk-herd) end to end through the real binary and a real server: each
# passes (exit 0) with no failed check, --json is one event object per
# line ending with a passing verdict, the points each lab exists for are
# checks that held, and passing runs leave no run directory or server.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

# Text and JSON for the quick ones; zk-herd (64 sessions) runs once, in JSON.
for id in zk-lock-chain zk-lock-race zk-create-lost; do
	check_lab_run "$id" 8
done
check_lab_run -j zk-herd 8

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

echo ok
