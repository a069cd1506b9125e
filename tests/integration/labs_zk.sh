# labs_zk.sh - the ZooKeeper labs of this group (zk-cas, zk-seq-order) end
# to end through the real binary and a real server: each passes, --json
# output is one event object per line ending with the passing verdict, the
# controls are stated and hold, nothing is left behind; without java the
# lab says which package to install and exits 2 ("could not run").
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

for id in zk-cas zk-seq-order; do
	check_lab_run "$id" 7
	grep -q '"key":"zk_server"' "$T/$id.json" || fail "lab $id: no server evidence"
done

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
# After the boundary, two GUID-named candidates both get 2147483647: a tie
# in the queue and two equal fencing tokens (chapter 02, lock domains).
grep -q '"name":"two-candidates-share-2147483647","ok":true' "$T/zk-seq-order.json" ||
	fail "zk-seq-order: the shared-suffix check is missing or failed"
[ "$(grep -c '"key":"candidate".*-lock-2147483647' "$T/zk-seq-order.json")" -eq 2 ] ||
	fail "zk-seq-order: not two candidates with suffix 2147483647 in the evidence"

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
