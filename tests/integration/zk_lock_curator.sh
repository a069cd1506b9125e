# zk_lock_curator.sh - the lock recipe and Apache Curator's InterProcessMutex
# exclude each other on the same lock path, because the recipe names its
# nodes exactly as Curator's protected mode does ("_c_" + UUID + "-lock-" +
# the server's suffix) and orders by that suffix: while Curator holds,
# `workbench zk-lock --wait 0` is refused and a waiting zk-lock watches
# Curator's node; while zk-lock holds, Curator's acquire(0) is refused.
#
# Needs Debian's libcurator-recipes-java and a JDK (javac); without them it
# says so and exits 77, which ctest reports as skipped.  The server is a
# lab's, paused by zkserver's test hook as in zk_lock_cli.sh.
. "$(dirname "$0")/../lib/common.sh"

J=/usr/share/java
CP="$J/curator-recipes.jar:$J/curator-framework.jar:$J/curator-client.jar:$J/zookeeper.jar"
CP="$CP:$J/zookeeper-jute.jar:$J/guava.jar:$J/slf4j-api.jar:$J/slf4j-nop.jar"
for jar in curator-recipes curator-framework curator-client guava zookeeper; do
	[ -r "$J/$jar.jar" ] || skip "$J/$jar.jar missing (apt-get install libcurator-recipes-java)"
done
command -v javac >/dev/null || skip "no javac (a JDK) to build the Curator client"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

cat >"$T/CuratorLock.java" <<'EOF'
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;

/* hold HOSTS PATH: acquire, print "HELD <children>", release when a line
 * arrives on stdin.  try HOSTS PATH: "GOT" if free now, else "BUSY". */
public class CuratorLock {
    public static void main(String[] a) throws Exception {
        CuratorFramework c = CuratorFrameworkFactory.newClient(a[1], 10000, 10000,
                new RetryOneTime(100));
        c.start();
        c.blockUntilConnected(30, TimeUnit.SECONDS);
        InterProcessMutex m = new InterProcessMutex(c, a[2]);
        if (a[0].equals("hold")) {
            m.acquire();
            System.out.println("HELD " + String.join(",", c.getChildren().forPath(a[2])));
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in)).readLine();
            m.release();
        } else if (m.acquire(0, TimeUnit.MILLISECONDS)) {
            System.out.println("GOT");
            m.release();
        } else {
            System.out.println("BUSY");
        }
        System.out.flush();
        c.close();
    }
}
EOF
javac -cp "$CP" -d "$T" "$T/CuratorLock.java" 2>"$T/javac.err" || fail "javac: $(cat "$T/javac.err")"
curator() { java -cp "$CP:$T" CuratorLock "$@"; }

lab_pid=
finish() {
	for p in $(pgrep -f -- "$T/" 2>/dev/null); do
		[ "$p" != "$lab_pid" ] && kill -TERM "$p" 2>/dev/null
	done
	if [ -n "$lab_pid" ]; then
		: >"$T/hook/go" &
		wait "$lab_pid" 2>/dev/null
	fi
	cleanup
}
trap finish EXIT INT TERM

mkdir "$T/hook"
mkfifo "$T/hook/ready" "$T/hook/go"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" "$WB_BIN" lab run zk-lock-race >"$T/lab.txt" 2>&1 &
lab_pid=$!
java_pid=$(timeout 120 cat "$T/hook/ready") || fail "no server: $(cat "$T/lab.txt")"
run_dir=$(tr '\0' '\n' <"/proc/$java_pid/cmdline" | sed -n 's|/zk/zoo.cfg$||p' | head -n 1)
port=$(sed -n 's/^clientPort=//p' "$run_dir/zk/zoo.cfg")
[ -n "$port" ] || fail "no clientPort in $run_dir/zk/zoo.cfg"
ZK="127.0.0.1:$port"

# ---- Curator holds ----
mkfifo "$T/cur_in" "$T/we_wait"
curator hold "$ZK" /locks/mixed <"$T/cur_in" >"$T/cur_out" 2>"$T/cur_err" &
cur=$!
exec 7>"$T/cur_in" # keeps Curator's stdin open until we write the line
deadline=$(($(date +%s) + 60))
until grep -q '^HELD ' "$T/cur_out"; do
	kill -0 "$cur" 2>/dev/null || fail "Curator exited: $(cat "$T/cur_err")"
	[ "$(date +%s)" -ge "$deadline" ] && fail "Curator never held the lock"
	sleep 0.05
done
cur_node=$(sed -n 's/^HELD //p' "$T/cur_out")
case "$cur_node" in _c_*-lock-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;;
*) fail "Curator's node is not in protected form: '$cur_node'" ;; esac

"$WB_BIN" zk-lock --zk "$ZK" --path /locks/mixed --wait 0 -- true 2>"$T/err"
[ $? -eq 1 ] || fail "zk-lock --wait 0 got the lock while Curator held it"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_LOCK_WAITING="$T/we_wait" "$WB_BIN" zk-lock --zk "$ZK" --path /locks/mixed -- \
	sh -c 'echo "$WORKBENCH_LOCK_NODE" >"$1"' sh "$T/our_node" &
we=$!
timeout 30 cat "$T/we_wait" >"$T/we_said" || fail "zk-lock never queued behind Curator"
[ "$(cat "$T/we_said")" = "waiting /locks/mixed/$cur_node" ] ||
	fail "zk-lock does not watch Curator's node: $(cat "$T/we_said") (Curator: $cur_node)"
[ -e "$T/our_node" ] && fail "zk-lock ran while Curator held the lock"
echo release >&7
exec 7>&-
wait "$cur" || fail "Curator failed to release: $(cat "$T/cur_err")"
wait "$we" || fail "zk-lock failed after Curator released"
[ -s "$T/our_node" ] || fail "zk-lock never ran COMMAND"

# ---- zk-lock holds ----
mkfifo "$T/ours_in" "$T/ours_go"
"$WB_BIN" zk-lock --zk "$ZK" --path /locks/mixed -- \
	sh -c 'echo in >"$1"; cat "$2" >/dev/null' sh "$T/ours_in" "$T/ours_go" &
ours=$!
timeout 30 cat "$T/ours_in" >/dev/null || fail "zk-lock never held the lock"
[ "$(curator try "$ZK" /locks/mixed 2>"$T/cur_err")" = BUSY ] ||
	fail "Curator got the lock while zk-lock held it: $(cat "$T/cur_err")"
echo go >"$T/ours_go"
wait "$ours" || fail "zk-lock holder failed"
[ "$(curator try "$ZK" /locks/mixed 2>"$T/cur_err")" = GOT ] ||
	fail "Curator could not take the free lock: $(cat "$T/cur_err")"

: >"$T/hook/go"
wait "$lab_pid"
rc=$?
lab_pid=
[ "$rc" -eq 0 ] || fail "the lab under the hook failed ($rc): $(cat "$T/lab.txt")"
echo ok
