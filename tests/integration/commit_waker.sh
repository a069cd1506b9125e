# commit_waker.sh - data/zk/MultiPeer.java's CommitWaker releases a real
# CommitProcessor (Debian's ZooKeeper 3.8.0) from the state ZOOKEEPER-4537's
# lost wake-up leaves: tests/integration/CommitWakerProbe.java queues a
# commit without its notifyAll, sees it stay unprocessed, calls
# CommitWaker.wake once and sees it processed.  That the waker runs on
# every member of a shared-JVM ensemble is test_zkensemble's shared_jvm.
# Compiled here with the runtime's own javac module, as the workbench
# compiles its launcher.
. "$(dirname "$0")/../lib/common.sh"
: "${WB_SRC:?WB_SRC must point at the source tree}"
java=${JAVA:-$(command -v java || true)}
[ -n "$java" ] || skip "no java"
"$java" --list-modules 2>/dev/null | grep -q '^jdk.compiler@' ||
	skip "this Java runtime has no jdk.compiler module (install default-jdk-headless)"
cp=${ZOOKEEPER_CLASSPATH:-/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-log4j12.jar:/usr/share/java/log4j-1.2.jar}
[ -r "${cp%%:*}" ] || skip "no ZooKeeper jar at ${cp%%:*}"

mkdir "$T/classes"
"$java" -m jdk.compiler/com.sun.tools.javac.Main -nowarn -cp "$cp" -d "$T/classes" \
	"$WB_SRC/data/zk/MultiPeer.java" "$WB_SRC/tests/integration/CommitWakerProbe.java" \
	>"$T/javac.log" 2>&1 || fail "javac: $(cat "$T/javac.log")"
"$java" -cp "$T/classes:$cp" CommitWakerProbe >"$T/probe.log" 2>&1
rc=$?
cat "$T/probe.log"
[ $rc -eq 0 ] || fail "the probe exited $rc"
grep -q '^commit stuck for' "$T/probe.log" || fail "no stuck step"
grep -q '^commit processed after one wake-up$' "$T/probe.log" || fail "no release step"
echo "ok: the lost wake-up stalls a real CommitProcessor; one CommitWaker.wake releases it"
