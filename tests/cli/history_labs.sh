# history_labs.sh - the seven labs of issue 17 record histories: each run
# (--json, real servers) passes, has op events (invocations and
# completions), and a checker event per history it checks, with the
# verdict the lesson claims, which is also a check of the lab that held.
# The format of the files is history.sh's.
. "$(dirname "$0")/../lib/common.sh"

command -v java >/dev/null || skip "java (ZooKeeper) not installed"
export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

# lab ID NAME=RESULT...: runs ID and checks its op and checker events.
lab() {
	id=$1
	shift
	rc=0
	"$WB_BIN" lab run "$id" --json >"$T/$id.json" 2>"$T/$id.err" || rc=$?
	[ $rc -eq 0 ] || { cat "$T/$id.json" "$T/$id.err" >&2; fail "lab $id exited $rc"; }
	grep -q '^{"t":"op","i":[0-9]*,"p":"[^"]*","type":"invoke",' "$T/$id.json" ||
		fail "lab $id: no invocation event"
	grep -q '^{"t":"op","i":[0-9]*,"p":"[^"]*","type":"\(ok\|fail\|info\)",' "$T/$id.json" ||
		fail "lab $id: no completion event"
	for want in "$@"; do
		name=${want%=*} result=${want#*=}
		grep -q "^{\"t\":\"checker\",\"name\":\"$name\",\"result\":\"$result\"," "$T/$id.json" ||
			fail "lab $id: no checker $name saying $result: $(grep '"t":"checker"' "$T/$id.json")"
		grep -q "\"t\":\"check\",\"name\":\"$name\",\"ok\":true" "$T/$id.json" ||
			fail "lab $id: the checker $name is not a check that held"
	done
}

lab zk-stale-read plain-read-history-not-linearizable=invalid \
	sync-then-read-history-linearizable=valid
lab zk-sync-partition sync-then-read-history-not-linearizable=invalid
lab zk-fencing lock-history-mutual-exclusion=valid fenced-history-token-order=valid \
	control-unfenced-history-out-of-order=invalid
lab zk-lock-chain lock-history-mutual-exclusion=valid
lab zk-create-lost lock-history-mutual-exclusion=valid
lab task-takeover task-history-one-accepted-completion=valid
lab id-snowflake ids-history-unique=valid
# The witness of an invalid verdict names ops of the run.
w=$(grep -o '"t":"checker","name":"control-unfenced-history-out-of-order".*"witness":\[[0-9,]*\]' \
	"$T/zk-fencing.json" | sed 's/.*"witness":\[\([0-9,]*\)\]/\1/')
for i in $(echo "$w" | tr ',' ' '); do
	grep -q "^{\"t\":\"op\",\"i\":$i,\"p\":\"A\",\"type\":\"invoke\",\"f\":\"write\"" "$T/zk-fencing.json" ||
		grep -q "^{\"t\":\"op\",\"i\":$i,\"p\":\"B\",\"type\":\"invoke\",\"f\":\"write\"" "$T/zk-fencing.json" ||
		fail "zk-fencing: witness op $i is not a write of the run"
done
[ -n "$w" ] || fail "zk-fencing: the control's verdict has no witness"
exit 0
