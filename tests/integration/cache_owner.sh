# cache_owner.sh - (reliability review r3 N2) the ensemble labs run a
# launcher jar, and every ZooKeeper JVM maps a class archive, from
# $XDG_CACHE_HOME/workbench: that folder and each file taken from it are
# used only when they are ours, writable by nobody else and no symlink,
# as the run base is.  Otherwise the lab says what is wrong and what to
# do, exits 2 (could not run), and runs nothing from it.
#
# "Runs nothing" is tested with a planted launcher: a MultiPeer jar of our
# own under the name the real one has, whose main() writes a file.  The
# positive control puts the same jar in a private cache folder of ours:
# there it does run, so the refusals below are what keeps it from running.
. "$(dirname "$0")/../lib/common.sh"
command -v java >/dev/null 2>&1 || skip "no java"
command -v javac >/dev/null 2>&1 && command -v jar >/dev/null 2>&1 || skip "no javac or jar"

export WORKBENCH_RUN_BASE="$T/runs" HOME="$T/home" XDG_RUNTIME_DIR=
mkdir -p "$HOME"
DB="$T/p.db"
lab() { # CACHE_HOME LAB: the lab's output in $T/out, its exit code in $rc
	XDG_CACHE_HOME=$1 "$WB_BIN" --db "$DB" lab run "$2" >"$T/out" 2>&1
	rc=$?
}

# The real launcher's name (a hash of java, class path and source): a
# first run in a fresh private cache builds it.
lab "$T/good" zk-stale-read
[ "$rc" -eq 0 ] || fail "the lab with a private cache: exit $rc: $(cat "$T/out")"
name=$(cd "$T/good/workbench" && ls multipeer-*.jar)
[ -n "$name" ] || fail "no launcher jar in the cache: $(ls -la "$T/good/workbench")"

# The planted launcher: the class names the check looks for, a main()
# that leaves a mark and exits.
mkdir -p "$T/evil/src" "$T/evil/classes"
cat >"$T/evil/src/MultiPeer.java" <<EOF
public class MultiPeer {
	static class Member {}
	static class MemberAppender {}
	static class CommitWaker {}
	public static void main(String[] args) throws Exception {
		java.nio.file.Files.write(java.nio.file.Paths.get("$T/PWNED"), "ran\n".getBytes());
		System.exit(1);
	}
}
EOF
javac -d "$T/evil/classes" "$T/evil/src/MultiPeer.java" || fail "javac"
jar cf "$T/evil/MultiPeer.jar" -C "$T/evil/classes" . || fail "jar"

plant() { # CACHE_HOME: the planted jar under the real name, folder and file ours and private
	rm -rf "$1"
	mkdir -p -m 0700 "$1/workbench"
	cp "$T/evil/MultiPeer.jar" "$1/workbench/$name"
	chmod 0600 "$1/workbench/$name"
}
refused() { # WHAT WANT: exit 2, the message, and the planted code never ran
	[ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2: $(cat "$T/out")"
	grep -q -- "$2" "$T/out" || fail "$1: no '$2' in: $(cat "$T/out")"
	[ -e "$T/PWNED" ] && fail "$1: the planted launcher ran"
	echo "ok: $1 refused"
}

# Positive control: in a private cache of ours the planted jar runs.
plant "$T/c"
lab "$T/c" zk-stale-read
[ -e "$T/PWNED" ] || fail "control: the planted launcher did not run (exit $rc): $(cat "$T/out")"
rm -f "$T/PWNED"
echo "ok: control: a launcher in a private cache of ours is run"

# A cache folder others can write.
plant "$T/c"
chmod 0777 "$T/c/workbench"
lab "$T/c" zk-stale-read
refused "a cache folder of mode 0777" "is writable by others (mode 0777); make it 0700"
[ "$(stat -c %a "$T/c/workbench")" = 777 ] || fail "the refused cache folder was chmodded"

# A launcher file others can write, in a private folder.
plant "$T/c"
chmod 0666 "$T/c/workbench/$name"
lab "$T/c" zk-stale-read
refused "a launcher jar of mode 0666" "$name is writable by others (mode 0666); remove it"

# A symlinked launcher, and a symlinked cache folder.
plant "$T/c"
mv "$T/c/workbench/$name" "$T/elsewhere.jar"
ln -s "$T/elsewhere.jar" "$T/c/workbench/$name"
lab "$T/c" zk-stale-read
refused "a symlinked launcher jar" "$name is a symbolic link"
plant "$T/c"
mv "$T/c/workbench" "$T/c/real"
ln -s real "$T/c/workbench"
lab "$T/c" zk-stale-read
refused "a symlinked cache folder" "workbench is a symbolic link"

# A cache folder, and a launcher, that belong to another user (root can
# make them: CI runs as root).
if [ "$(id -u)" -eq 0 ]; then
	plant "$T/c"
	chown -R 65534:65534 "$T/c/workbench"
	lab "$T/c" zk-stale-read
	refused "a cache folder of user 65534" "belongs to user 65534, not to you (0): another user may have made it; remove it or set XDG_CACHE_HOME"
	plant "$T/c"
	chown 65534:65534 "$T/c/workbench/$name"
	lab "$T/c" zk-stale-read
	refused "a launcher jar of user 65534" "$name belongs to user 65534"
	# The class archive the JVM maps (its name hashes the class path, which
	# names the cache folder: a first run in this folder writes it).
	rm -rf "$T/c" && mkdir -p -m 0700 "$T/c/workbench"
	cp -p "$T/good/workbench/$name" "$T/c/workbench/"
	lab "$T/c" zk-stale-read
	[ "$rc" -eq 0 ] || fail "the lab with the real launcher: exit $rc: $(cat "$T/out")"
	archive=$(cd "$T/c/workbench" && ls zookeeper-cds-*.jsa 2>/dev/null)
	[ -n "$archive" ] || fail "no class archive written: $(ls -la "$T/c/workbench")"
	chown 65534:65534 "$T/c/workbench/$archive"
	lab "$T/c" zk-stale-read
	refused "a class archive of user 65534" "$archive belongs to user 65534"
else
	echo "note: not root, the other-user cases need chown"
fi
echo ok
