# bad_env.sh - the lab runtime when its environment is wrong: no ZooKeeper
# jars, no redis-server, an unreachable --zk, a --zk port taken by
# something that is not ZooKeeper, and ZooKeeper killed in the middle of a
# lab.  Each gets a clear message and a non-zero exit, within a bound, and
# leaves no process behind.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$WORKBENCH_RUN_BASE"
alive() { [ -r "/proc/$1/stat" ] && ! awk '{ exit !($3 == "Z") }' "/proc/$1/stat" 2>/dev/null; }
no_leftovers() {
	pgrep -f "$WORKBENCH_RUN_BASE" >/dev/null && fail "$1: a process of the run is still alive"
	return 0
}

# No ZooKeeper jars.
ZOOKEEPER_CLASSPATH=/nonexistent/zookeeper.jar "$WB_BIN" lab run zk-cas >"$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "missing jars: exit $rc, expected 2: $(tail -n 3 "$T/out")"
grep -q "Debian package zookeeper" "$T/out" || fail "missing jars: message does not name the package"
no_leftovers "missing jars"

# No redis-server on PATH.
PATH=/nonexistent:/usr/bin/nowhere "$(command -v env)" "$WB_BIN" lab run redis-lock >"$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "no redis-server: exit $rc, expected 2"
grep -q "redis-server" "$T/out" || fail "no redis-server: message does not name the package"

# Unreachable --zk: nothing listens on the port.
start=$(date +%s)
"$WB_BIN" lab run zk-cas --zk 127.0.0.1:1 >"$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "unreachable --zk: exit $rc, expected 2: $(tail -n 3 "$T/out")"
grep -q "127.0.0.1:1" "$T/out" || fail "unreachable --zk: message does not name the address"
[ $(($(date +%s) - start)) -le 60 ] || fail "unreachable --zk took over a minute"

# A --zk port taken by something that is not ZooKeeper (it accepts and
# never answers).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null || echo 47123)
mkfifo "$T/hold"
(exec 3<>"$T/hold"; exec python3 -c "
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $port)); s.listen(8)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)
") &
silent=$!
deadline=$(($(date +%s) + 60))
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "the silent listener never started"
	sleep 0.05
done
start=$(date +%s)
"$WB_BIN" lab run zk-cas --zk "127.0.0.1:$port" >"$T/out" 2>&1
rc=$?
kill "$silent" 2>/dev/null
[ $rc -eq 2 ] || fail "non-ZooKeeper --zk: exit $rc, expected 2: $(tail -n 3 "$T/out")"
[ $(($(date +%s) - start)) -le 60 ] || fail "non-ZooKeeper --zk took over a minute"

# A port already in use: the server's first port is one we hold (test
# hook); start-up sees "Address already in use" and retries on fresh ports.
(exec python3 -c "
import socket, time
s = socket.socket(); s.bind(('127.0.0.1', $port)); s.listen(1)
time.sleep(600)
") &
holder=$!
deadline=$(($(date +%s) + 60))
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null; do
	[ "$(date +%s)" -ge "$deadline" ] && fail "the port holder never started"
	sleep 0.05
done
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_TAKEN_PORT=$port "$WB_BIN" lab run zk-cas --json >"$T/out" 2>&1
rc=$?
kill "$holder" 2>/dev/null
[ $rc -eq 0 ] || fail "port in use: exit $rc, expected a pass on fresh ports: $(tail -n 3 "$T/out")"
grep '"zk_server"' "$T/out" | grep -q "127.0.0.1:$port" && fail "port in use: the server claims the taken port"

# ZooKeeper killed in the middle of a lab: the server's ready hook hands us
# its pid at a known moment; we kill it, then let the lab go on.
mkdir "$T/hook"
mkfifo "$T/hook/ready" "$T/hook/go"
WORKBENCH_TEST=1 WORKBENCH_TEST_ZK_READY_DIR="$T/hook" "$WB_BIN" lab run zk-cas >"$T/out" 2>&1 &
wb=$!
java_pid=$(timeout 120 cat "$T/hook/ready") || fail "the server never became ready"
kill -KILL "$java_pid"
echo go >"$T/hook/go"
start=$(date +%s)
wait "$wb"
rc=$?
[ $rc -ne 0 ] || fail "ZooKeeper killed mid-lab: the lab passed"
[ $rc -le 2 ] || fail "ZooKeeper killed mid-lab: exit $rc (a crash?)"
[ $(($(date +%s) - start)) -le 90 ] || fail "ZooKeeper killed mid-lab: the lab hung"
grep -Eqi "connect|server|zookeeper" "$T/out" || fail "ZooKeeper killed mid-lab: no clear message"
alive "$java_pid" && fail "the killed server is still alive"
no_leftovers "ZooKeeper killed mid-lab"
echo ok
