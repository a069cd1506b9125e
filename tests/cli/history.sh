# history.sh - `workbench lab run ID --history FILE [--history-format
# json|edn]` (docs/histories.md, Recording) on the real zk-stale-read run
# (three ZooKeeper servers): the JSON lines history has invoke, ok and info
# lines, one per op event of the run, and is what the format says; the
# EDN history is what Jepsen's format says (tests/lib/histcheck.py reads
# it: keywords, integer processes, each single-threaded, none reused after
# an :info); the --json events carry the op and mark events and the two
# checker verdicts (the plain-read history invalid with a witness, the
# sync-then-read history valid), and the run stored in progress.db keeps
# them.  Usage errors exit 2 with a message.  The reader itself is tried
# on known-wrong files first.
. "$(dirname "$0")/../lib/common.sh"

command -v python3 >/dev/null || skip "python3 not installed"
command -v java >/dev/null || skip "java (ZooKeeper) not installed"
command -v sqlite3 >/dev/null || skip "sqlite3 not installed"
export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"
HC="$(dirname "$0")/../lib/histcheck.py"

# The reader rejects what it must.
printf '{:index 0, :process 0, :type :invoke, :f :read, :value nil, :time 1}\n{:index 1, :process 0, :type :invoke, :f :read, :value nil, :time 2}\n' >"$T/bad1.edn"
printf '{:index 0, :process 0, :type :invoke, :f :w, :value 1, :time 1}\n{:index 1, :process 0, :type :info, :f :w, :value 1, :time 2}\n{:index 2, :process 0, :type :invoke, :f :w, :value 1, :time 3}\n' >"$T/bad2.edn"
printf '{:index 0, :process "A", :type :invoke, :f :w, :value 1, :time 1}\n' >"$T/bad3.edn"
printf '{:index 1, :process 0, :type :invoke, :f :w, :value 1, :time 1}\n' >"$T/bad4.edn"
printf '{:index 0, :process 0, :type "invoke", :f :w, :value 1, :time 1}\n' >"$T/bad5.edn"
printf '{:index 0 :process 0 :type :invoke :f :w :value [1] :time 1}\n' >"$T/bad6.edn"
printf '{"index":0,"process":"A","type":"invoke","f":"w","value":"1","time":5}\n{"index":1,"process":"A","type":"ok","f":"w","value":"1","time":4}\n' >"$T/bad7.jsonl"
for f in bad1.edn bad2.edn bad3.edn bad4.edn bad5.edn bad6.edn bad7.jsonl; do
	fmt=edn
	case $f in *.jsonl) fmt=json ;; esac
	python3 "$HC" "$fmt" "$T/$f" >/dev/null && fail "histcheck.py accepted $f"
done

# Usage errors.
rc=0
"$WB_BIN" lab run task-takeover --history-format edn >/dev/null 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q 'with --history FILE' "$T/err" || fail "--history-format alone: exit $rc"
rc=0
"$WB_BIN" lab run task-takeover --history "$T/h" --history-format clj >/dev/null 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q 'json or edn' "$T/err" || fail "--history-format clj: exit $rc"
rc=0
"$WB_BIN" lab run task-takeover --history "$T/no/such/dir/h" >/dev/null 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q "cannot write $T/no/such/dir/h" "$T/err" || fail "unwritable --history: exit $rc"

# zk-stale-read: JSON history and the event lines of the same run.
id=zk-stale-read
rc=0
"$WB_BIN" lab run $id --json --history "$T/sr.jsonl" >"$T/sr.json" 2>"$T/sr.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/sr.json" "$T/sr.err" >&2; fail "lab $id --history exited $rc"; }
out=$(python3 "$HC" json "$T/sr.jsonl") || fail "JSON history: $out"
case $out in "types=info,invoke,ok lines="*) ;; *) fail "JSON history: want invoke, ok and info lines, got $out" ;; esac
ops=$(grep -c '^{"t":"op",' "$T/sr.json")
lines=$(wc -l <"$T/sr.jsonl")
[ "$ops" -eq "$lines" ] || fail "$ops op events but $lines history lines"
grep -q '"process":"B","type":"ok","f":"read","value":"0"' "$T/sr.jsonl" ||
	fail "no stale read of 0 by B in the history"
grep -q '"process":"B","type":"info","f":"write","value":"2"' "$T/sr.jsonl" ||
	fail "B's write of 2 (connection loss) is not info"
grep -q '^{"t":"mark","lane":"relay","text":"hold zk[0-9] -> zk[0-9]","ns":[0-9]*}$' "$T/sr.json" ||
	fail "no mark for the held link"
grep '^{"t":"checker","name":"plain-read-history-not-linearizable","result":"invalid",' "$T/sr.json" |
	grep -q '"witness":\[[0-9][0-9,]*\]' || fail "the plain-read history is not invalid with a witness"
grep -q '^{"t":"checker","name":"sync-then-read-history-linearizable","result":"valid",' "$T/sr.json" ||
	fail "the sync-then-read history is not valid"
grep -q '"t":"check","name":"plain-read-history-not-linearizable","ok":true' "$T/sr.json" ||
	fail "the checker's verdict is not a check of the lab"
# The stored run keeps the history events.
ev=$(sqlite3 "$WORKBENCH_DB" "SELECT evidence FROM lab_runs WHERE lab = '$id'")
for t in op mark checker; do
	printf '%s' "$ev" | grep -q "\"t\":\"$t\"" || fail "progress.db: no $t event in the stored run"
done
n=$(printf '%s' "$ev" | grep -o '"t":"op"' | wc -l)
[ "$n" -eq "$ops" ] || fail "progress.db keeps $n of $ops op events"

# The EDN history of another run.
rc=0
"$WB_BIN" lab run $id --history "$T/sr.edn" --history-format edn >"$T/sr.txt" 2>&1 || rc=$?
[ $rc -eq 0 ] || { cat "$T/sr.txt" >&2; fail "lab $id --history-format edn exited $rc"; }
out=$(python3 "$HC" edn "$T/sr.edn") || fail "EDN history: $out"
case $out in "types=info,invoke,ok lines="*) ;; *) fail "EDN history: $out" ;; esac
grep -q '^{:index [0-9]*, :process [0-9]*, :type :ok, :f :read, :value 0, :time [0-9]*, :name "B", :op [0-9]*}$' "$T/sr.edn" ||
	fail "EDN: no stale read of 0"
grep -q '^{:index [0-9]*, :process [0-9]*, :type :info, :f :write, :value 2, :time [0-9]*, :name "B", :op [0-9]*}$' "$T/sr.edn" ||
	fail "EDN: B's write of 2 is not :info"
# The plain output shows the ops tersely.
grep -q '^    op A write(1) -> ok$' "$T/sr.txt" || fail "plain output: no op line for A's write"
exit 0
