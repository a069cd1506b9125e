# labs_zk.sh - the ZooKeeper labs of this group (zk-cas, zk-seq-order) end
# to end through the real binary and a real server: each passes, --json
# output is one event object per line ending with the passing verdict, the
# controls are stated and hold, nothing is left behind; without java the
# lab says which package to install and exits 2 ("could not run").
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

for id in zk-cas zk-seq-order; do
	"$WB_BIN" lab run "$id" >"$T/$id.txt" 2>&1 || {
		cat "$T/$id.txt" >&2
		fail "lab $id exited $?"
	}
	grep -q '^PASS: ' "$T/$id.txt" || fail "lab $id: no PASS line"
	grep -q '✘' "$T/$id.txt" && fail "lab $id: a failed check in a passing run"

	"$WB_BIN" lab run "$id" --json >"$T/$id.json" 2>"$T/$id.err" ||
		fail "lab $id --json exited $?: $(grep -e '"ok":false' -e '"t":"error"' \
			"$T/$id.json") $(cat "$T/$id.err")"
	bad=$(grep -v -c '^{"t":"[a-z]*",.*}$' "$T/$id.json")
	[ "$bad" -eq 0 ] || fail "lab $id --json: $bad lines are not event objects"
	tail -n 1 "$T/$id.json" | grep -q '^{"t":"verdict","pass":true,' ||
		fail "lab $id --json does not end with a passing verdict: $(tail -n 1 "$T/$id.json")"
	checks=$(grep -c '"t":"check"' "$T/$id.json")
	[ "$checks" -ge 7 ] || fail "lab $id made only $checks checks"
	grep -q '"ok":false' "$T/$id.json" && fail "lab $id --json has a failed check"
	grep -q '"key":"zk_server"' "$T/$id.json" || fail "lab $id: no server evidence"
done

# Passing runs leave no run directory and no server of ours.
left=$(find "$T/runs" -mindepth 1 -maxdepth 1 -name 'run-*' | wc -l)
[ "$left" -eq 0 ] || fail "$left run directories left behind by passing runs"
pgrep -f "java.*$T/runs" >/dev/null && fail "a ZooKeeper server outlived its lab"

# The points the labs exist for, as checks that held.
grep -q '"name":"second-gets-badversion","ok":true,"expected":"ZBADVERSION","observed":"ZBADVERSION"' \
	"$T/zk-cas.json" || fail "zk-cas: BadVersion check missing"
grep -q '"name":"b-write-silently-lost","ok":true' "$T/zk-cas.json" ||
	fail "zk-cas: the -1 control is missing"
grep -q '"name":"counter-wraps-negative","ok":true' "$T/zk-seq-order.json" ||
	fail "zk-seq-order: the real wrap is missing"
grep -q '"name":"control-strtol-puts-newest-first","ok":true' "$T/zk-seq-order.json" ||
	fail "zk-seq-order: the naive-parser control is missing"
grep -q 'lock--2147483648' "$T/zk-seq-order.json" ||
	fail "zk-seq-order: no server-made negative suffix in the evidence"

# zk-seq-order seeds its own server: --zk is refused with exit 2.
"$WB_BIN" lab run zk-seq-order --zk 127.0.0.1:1 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "zk-seq-order --zk must exit 2"
grep -q "cannot run against --zk" "$T/err" || fail "zk-seq-order --zk message: $(cat "$T/err")"

# No java: a clear message naming the package, exit 2, no verdict pass.
JAVA=/nonexistent/java "$WB_BIN" lab run zk-cas >"$T/nojava.txt" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "zk-cas without java exited $rc, want 2: $(cat "$T/nojava.txt")"
grep -q 'default-jre-headless' "$T/nojava.txt" || fail "no package named: $(cat "$T/nojava.txt")"
grep -q '^COULD NOT RUN' "$T/nojava.txt" || fail "no COULD NOT RUN line: $(cat "$T/nojava.txt")"
PATH=/nonexistent:/usr/bin/nojava "$WB_BIN" lab run zk-cas --json >"$T/nojava.json" 2>&1
[ $? -eq 2 ] || fail "zk-cas with java not in PATH must exit 2"
grep -q '"t":"error".*default-jre-headless' "$T/nojava.json" ||
	fail "--json: no error event naming the package: $(cat "$T/nojava.json")"

echo ok
