# zk_bad_target.sh - (#20 F16) a malformed --zk is refused at once, before
# any run directory, server or connection: `lab run` and `zk-lock` both
# exit 2 with "bad --zk 'X': expected HOST:PORT[,HOST:PORT...] with a port
# from 1 to 65535" (IPv6 in brackets with its own reason), and well-formed
# values (a list, a host name, a chroot suffix) are not refused by the
# check.  No server is needed: the values that pass are aimed at port 1
# and a --wait of 0 so that they fail fast on connecting, not on syntax.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"
want="expected HOST:PORT\[,HOST:PORT...\] with a port from 1 to 65535"

bad() { # value [reason-regex]
	v=$1 why=${2:-$want}
	start=$(date +%s)
	"$WB_BIN" lab run zk-cas --zk "$v" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "lab run --zk '$v': exit $rc, want 2: $(cat "$T/err")"
	grep -q -- "^workbench: bad --zk '.*': $why" "$T/err" ||
		fail "lab run --zk '$v': message: $(cat "$T/err")"
	[ ! -d "$T/runs" ] || [ -z "$(ls -A "$T/runs")" ] ||
		fail "lab run --zk '$v' made a run directory"
	"$WB_BIN" zk-lock --zk "$v" --path /locks/a -- true >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "zk-lock --zk '$v': exit $rc, want 2: $(cat "$T/err")"
	grep -q -- "bad --zk '.*': $why" "$T/err" || fail "zk-lock --zk '$v': message: $(cat "$T/err")"
	# "At once": a generous bound that only a connection attempt would
	# pass (the old code waited 10 s for 127.0.0.1:99999).
	[ $(($(date +%s) - start)) -lt 8 ] || fail "--zk '$v' was not refused at once"
}
bad garbage
bad 127.0.0.1:
bad :2181
bad -5
bad a,b,c
bad 127.0.0.1:99999
bad 127.0.0.1:0
bad 256.1.1.1:2181
bad 256.1.1.1
bad "127.0.0.1:2181,"
bad "127.0.0.1:21x81"
bad "$(head -c 5000 /dev/zero | tr '\0' a):2181"
bad "[::1]:2181" "IPv6 addresses are not supported"

# Well-formed values pass the check and fail later, on connecting.
good() {
	"$WB_BIN" zk-lock --zk "$1" --path /locks/a --wait 0 -- true >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "zk-lock --zk '$1': exit $rc, want 1 (cannot connect): $(cat "$T/err")"
	grep -q "bad --zk" "$T/err" && fail "zk-lock --zk '$1' refused as malformed"
	grep -q "cannot connect to ZooKeeper" "$T/err" || fail "zk-lock --zk '$1': $(cat "$T/err")"
}
good 127.0.0.1:1
good 127.0.0.1:1,127.0.0.1:1
good localhost:1
good 127.0.0.1:1/chroot/app
echo ok
