# security.sh - every listener a lab opens binds 127.0.0.1; run directories
# are 0700; lab processes get a minimal environment (nothing of ours leaks
# in); lesson and quiz content is never executed.
#
# Labs are stopped mid-run with the WORKBENCH_TEST_HOLD_AFTER hook (see
# orphans.sh), while their servers are up.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p -m 0700 "$WORKBENCH_RUN_BASE" # used as it is: never chmodded (r3 N9)
DB="$T/p.db"

# Listening TCP sockets (IPv4 and IPv6) of a process, as "addr:port".
listeners() {
	inodes=$(ls -l "/proc/$1/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]/\1/p')
	for inode in $inodes; do
		awk -v ino="$inode" '$4 == "0A" && $10 == ino { print $2 }' /proc/net/tcp /proc/net/tcp6
	done
}

wait_listening() { # PID: until it listens on something (the JVM binds after start)
	deadline=$(($(date +%s) + 90))
	until [ -n "$(listeners "$1")" ]; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "process $1 never listened"
		sleep 0.1
	done
}

check_lab() { # LAB HOLD_AT: start it with a marker in our environment
	WORKBENCH_SECRET_MARKER=leaked-$$ WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD_AFTER=$2 \
		"$WB_BIN" --db "$DB" lab run "$1" >"$T/out" 2>&1 &
	sup=$!
	deadline=$(($(date +%s) + 90))
	until [ "$(cat "$WORKBENCH_RUN_BASE"/run-*/pids 2>/dev/null | wc -l)" -ge "$2" ]; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "$1 never reached the hold point"
		sleep 0.05
	done
	dir=$(ls -d "$WORKBENCH_RUN_BASE"/run-*)
	[ "$(stat -c %a "$dir")" = 700 ] || fail "$1: run directory mode $(stat -c %a "$dir")"
	[ "$(stat -c %a "$WORKBENCH_RUN_BASE")" = 700 ] || fail "run base mode is not 0700"
	servers=$(tail -n +2 "$dir/pids" | awk '{ print $1 }')
	for p in $servers; do
		wait_listening "$p"
		for a in $(listeners "$p"); do
			case $a in
			0100007F:*) ;; # 127.0.0.1
			00000000000000000000000001000000:*) ;; # ::1
			*) fail "$1: process $p listens on $a, not loopback: $(tr '\0' ' ' </proc/$p/cmdline | cut -c1-120)" ;;
			esac
		done
		tr '\0' '\n' <"/proc/$p/environ" | grep -q "WORKBENCH_SECRET_MARKER" &&
			fail "$1: our environment leaked into process $p"
		n=$(tr '\0' '\n' <"/proc/$p/environ" | grep -c .)
		[ "$n" -le 8 ] || fail "$1: process $p has $n environment variables, not a minimal set"
	done
	kill -TERM "$sup"
	wait "$sup" 2>/dev/null || true
	rm -rf "$WORKBENCH_RUN_BASE"/run-*
	echo "ok: $1 ($(echo $servers | wc -w) server process(es) checked)"
}

labs=$("$WB_BIN" lab list | awk '{ print $1 }')
has() { echo "$labs" | grep -qx "$1"; }
# The ensemble's shared-JVM launcher is compiled on first use (recorded
# processes of their own): build it now, so that the hold point below is
# the lab and the JVM, whatever the cache held.
has zk-stale-read && { "$WB_BIN" --db "$DB" lab run zk-stale-read >/dev/null 2>&1 || true; }

has zk-cas && check_lab zk-cas 2
has redis-lock && check_lab redis-lock 2
has zk-stale-read && check_lab zk-stale-read 2 # the lab, then its ensemble's one JVM

# Content is data: shell and terminal syntax in lessons and lab ids does
# nothing but show (or fail to look up) text.
C="$T/content"
mkdir -p "$C/lessons/en"
cat >"$C/lessons/en/00-evil.md" <<'MD'
# $(touch /tmp/wb-pwned-$$) `touch /tmp/wb-pwned-$$`

<script>alert(1)</script> ; rm -rf / ; $(id)

```lab
zk-cas; touch /tmp/wb-pwned-lab
$(touch /tmp/wb-pwned-lab)
```
MD
"$WB_BIN" --content "$C" lesson show 00-evil --width 80 >"$T/out" || fail "evil lesson: exit $?"
"$WB_BIN" lesson lint "$C/lessons/en/00-evil.md" 2>"$T/err" && fail "lint accepted bogus lab ids"
grep -q "unknown lab id 'zk-cas; touch /tmp/wb-pwned-lab'" "$T/err" || fail "lint message: $(cat "$T/err")"
ls /tmp/wb-pwned-* >/dev/null 2>&1 && fail "content was executed"
echo ok
