# history_jepsen.sh - every exported history read the way a Jepsen or
# Porcupine user reads it reproduces the lab's verdicts (issue 28, item 5;
# review histories-r3).  For zk-stale-read, zk-create-lost and zk-fencing
# (real ZooKeeper servers) one run writes JSON lines and one EDN, each
# with its --json events; tests/cli/history_jepsen.py pairs the EDN by
# :process alone (Jepsen) and the JSON lines by their op id (Porcupine),
# checks the file's form, that every witness op of the lab is in it, and
# runs a register, lock and fenced-token model over it by brute force:
# each verdict must be the lab's own (zk-create-lost's JSON lines showed
# two lock holders when paired without the op id; zk-fencing's accepted
# writes lost their token to the result).  The reader is first shown to
# refuse what it must: a completion with no invocation, one of another f,
# a duplicate op id, a time that goes back, a JSON line without op id, a
# witness not in the file.
. "$(dirname "$0")/../lib/common.sh"

command -v python3 >/dev/null || skip "python3 not installed"
command -v java >/dev/null || skip "java (ZooKeeper) not installed"
export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"
HJ="$(dirname "$0")/history_jepsen.py"

# The reader refuses what it must (each with a lab verdict it would
# otherwise agree with).
ev="$T/ev.json"
echo '{"t":"checker","name":"lock-history-mutual-exclusion","result":"valid","text":"","witness":[]}' >"$ev"
inv='{:index 0, :process 0, :type :invoke, :f :acquire, :value nil, :time 1, :name "A", :op 0}'
printf '%s\n' '{:index 0, :process 0, :type :ok, :f :acquire, :value nil, :time 1, :name "A", :op 0}' >"$T/orphan.edn"
printf '%s\n%s\n' "$inv" '{:index 1, :process 0, :type :ok, :f :release, :value nil, :time 2, :name "A", :op 0}' >"$T/wrongf.edn"
printf '%s\n%s\n' "$inv" '{:index 1, :process 1, :type :invoke, :f :release, :value nil, :time 2, :name "A", :op 0}' >"$T/dupid.edn"
printf '%s\n%s\n' "$inv" '{:index 1, :process 0, :type :ok, :f :acquire, :value nil, :time 0, :name "A", :op 0}' >"$T/back.edn"
printf '%s\n' '{"index":0,"process":"A","type":"invoke","f":"acquire","value":null,"time":1}' >"$T/noid.jsonl"
for f in orphan.edn wrongf.edn dupid.edn back.edn noid.jsonl; do
	python3 "$HJ" "$T/$f" "$ev" zk-lock-chain >"$T/out" && fail "history_jepsen.py accepted $f: $(cat "$T/out")"
done
echo '{"t":"checker","name":"lock-history-mutual-exclusion","result":"valid","text":"","witness":[3]}' >"$T/ev3.json"
printf '%s\n' "$inv" >"$T/one.edn"
python3 "$HJ" "$T/one.edn" "$T/ev3.json" zk-lock-chain >"$T/out" && fail "a witness op not in the file was accepted"
python3 "$HJ" "$T/one.edn" "$ev" zk-lock-chain >"$T/out" || fail "a one-op lock history: $(cat "$T/out")"

# lab ID: a JSON-lines run and an EDN run, each read and judged.
lab() {
	id=$1
	for fmt in json edn; do
		ext=$fmt
		[ $fmt = json ] && ext=jsonl
		rc=0
		"$WB_BIN" lab run "$id" --json --history "$T/$id.$ext" --history-format $fmt \
			>"$T/$id.$fmt.events" 2>"$T/$id.$fmt.err" || rc=$?
		[ $rc -eq 0 ] || { cat "$T/$id.$fmt.err" >&2; fail "lab $id ($fmt) exited $rc"; }
		python3 "$HJ" "$T/$id.$ext" "$T/$id.$fmt.events" "$id" >"$T/out" ||
			fail "lab $id, $fmt history: $(cat "$T/out")"
		cat "$T/out"
	done
}

lab zk-stale-read
lab zk-create-lost
lab zk-fencing
exit 0
