#!/bin/sh
# exercise check contains the learner's code (cli/labsuper.c,
# docs/exercises.md §4):
#  - the verdict comes from the supervisor's own channel: learner code that
#    calls exit(0) in the function, or _exit(0) in a constructor at dlopen,
#    fails the check (exit 1) and records no pass;
#  - everything the learner's code starts dies with the check: children
#    that exec, that setsid first, a setsid'd grandchild, and a copy of the
#    worker forked without exec;
#  - its output is sanitised and bounded: write(1/2) of an OSC sequence does
#    not reach the output raw, 3 MB without a newline are cut, and in --json
#    mode a printed event line is never an event line of the output.
# The descendants carry a marker in their environment, so only this test's
# processes are looked for.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/run" XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/progress.db"
mkdir -p "$WORKBENCH_RUN_BASE"
MARK="wbcontain-$$-$(date +%s)"

# Pids of live processes whose environment holds the marker (zombies have
# no environment left: they are not running anything).
marked() {
	grep -l -s -a -F "WB_CONTAIN_MARK=$MARK" /proc/[0-9]*/environ |
		while read -r e; do
			p=${e#/proc/}
			echo "${p%/environ}"
		done
}
kill_marked() {
	for p in $(marked); do kill -9 "$p" 2>/dev/null || true; done
}
trap 'kill_marked; cleanup' EXIT INT TERM

# check ARGS...: the check with the marker in its environment; $rc, $T/o
# (stdout) and $T/e (stderr).
check() {
	rc=0
	WB_CONTAIN_MARK=$MARK "$WB_BIN" exercise check snowflake-next "$@" >"$T/o" 2>"$T/e" || rc=$?
	if [ $rc -eq 2 ]; then
		cat "$T/o" "$T/e"
		skip "snowflake-next cannot be checked here"
	fi
}
# bad MESSAGE: an assertion failed; the other parts still run, so one
# run shows every failure.
nbad=0
bad() {
	echo "FAIL: $*" >&2
	nbad=$((nbad + 1))
}
passed() { "$WB_BIN" exercise list | grep -q '^[0-9]*  *snowflake-next  *c  *passed'; }

"$WB_BIN" exercise start snowflake-next --no-edit >/dev/null || fail "exercise start"
ws="$XDG_DATA_HOME/workbench/exercises/snowflake-next/snowflake.c"
[ -f "$ws" ] || fail "no workspace file $ws"

# 1. exit(0) in the function: no verdict, a failure, no pass recorded.
cat >"$ws" <<'EOF'
#include "api.h"
#include <stdlib.h>
int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id)
{
	(void)g;
	(void)id;
	exit(0);
}
EOF
check
[ $rc -eq 1 ] || bad "exit(0) in the function: exit $rc, want 1: $(cat "$T/o" "$T/e")"
grep -q 'ended before its verdict' "$T/o" || bad "exit(0): no word of it: $(cat "$T/o")"
passed && bad "exit(0) in the function was recorded as a pass"
kill_marked

# 2. _exit(0) in a constructor, at dlopen.
cat >"$ws" <<'EOF'
#include "api.h"
#include <unistd.h>
__attribute__((constructor)) static void leave(void) { _exit(0); }
int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id)
{
	(void)g;
	(void)id;
	return WBX_EIO;
}
EOF
check
[ $rc -eq 1 ] || bad "_exit(0) in a constructor: exit $rc, want 1: $(cat "$T/o" "$T/e")"
grep -q 'ended before its verdict' "$T/o" || bad "_exit(0): no word of it: $(cat "$T/o")"
passed && bad "_exit(0) in a constructor was recorded as a pass"
kill_marked

# 3. Children of every kind, escapes on fd 1 and 2, 3 MB without a newline,
# then 400 lines of 1000 bytes.
cat >"$T/forks.c" <<'EOF'
#include "api.h"
#include <string.h>
#include <unistd.h>
static int done;
static void put(int fd, const char *s) { (void)!write(fd, s, strlen(s)); }
int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id)
{
	(void)g;
	(void)id;
	if (done)
		return WBX_EIO;
	done = 1;
	if (fork() == 0) {
		execlp("sleep", "sleep", "177", (char *)NULL);
		_exit(1);
	}
	if (fork() == 0) {
		setsid();
		execlp("sleep", "sleep", "178", (char *)NULL);
		_exit(1);
	}
	if (fork() == 0) {
		setsid();
		if (fork() == 0)
			execlp("sleep", "sleep", "179", (char *)NULL);
		_exit(0);
	}
	if (fork() == 0)
		return WBX_EIO; /* a copy of the worker goes on with the check */
	put(1, "out:\033]0;PWNED\007\033[2J:end\n");
	put(2, "err:\033]52;c;ZWNobyBwd25lZA==\007:end\n");
	static char big[1 << 20];
	memset(big, 'x', sizeof big);
	for (int i = 0; i < 3; i++)
		(void)!write(1, big, sizeof big);
	put(1, "\n");
	memset(big, 'y', 999);
	big[999] = '\n';
	for (int i = 0; i < 400; i++)
		(void)!write(1, big, 1000);
	return WBX_EIO;
}
EOF
check --file "$T/forks.c"
[ $rc -eq 1 ] || bad "forking file: exit $rc, want 1: $(tail -n 5 "$T/o" "$T/e")"
left=$(marked)
[ -z "$left" ] || bad "processes of the learner's code left after the check: $(for p in $left; do
	tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null
	echo
done)"
ESC=$(printf '\033') BEL=$(printf '\007')
for f in o e; do
	if grep -q -e "$ESC" -e "$BEL" "$T/$f"; then
		bad "raw control bytes from the learner's code reach std$([ $f = o ] && echo out || echo err)"
	fi
done
grep -q 'out:␛]0;PWNED␇␛\[2J:end' "$T/o" || bad "the learner's stdout is not shown sanitised: $(grep -a 'out:' "$T/o" | head -c 300)"
grep -q 'err:␛]52;c;' "$T/e" || bad "the learner's stderr is not shown sanitised: $(head -c 300 "$T/e")"
size=$(cat "$T/o" "$T/e" | wc -c)
[ "$size" -lt 1500000 ] || bad "3 MB of learner output reached the terminal uncut ($size bytes)"
grep -q 'xxx … (line cut)$' "$T/o" || bad "no note that the 3 MB line was cut"
grep -q 'output cut' "$T/o" "$T/e" || bad "no note that 400 kB of output were cut"
check_lab_left snowflake-next
kill_marked

# 4. --json: event lines printed by the learner's code are not events, and
# exit(0) after them is still no pass.
cat >"$T/fake.c" <<'EOF'
#include "api.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id)
{
	(void)g;
	(void)id;
	const char *v = "{\"t\":\"verdict\",\"pass\":true,\"ms\":1}\n";
	(void)!write(1, v, strlen(v));
	(void)!write(2, v, strlen(v));
	exit(0);
}
EOF
check --file "$T/fake.c" --json
[ $rc -eq 1 ] || bad "fake verdict and exit(0): exit $rc, want 1: $(cat "$T/o" "$T/e")"
nonev=$(grep -v -c '^{"t":"[a-z]*",.*}$' "$T/o" || true)
[ "$nonev" -eq 0 ] || bad "--json: $nonev lines of stdout are not event objects: $(cat "$T/o")"
grep -q '^{"t":"verdict","pass":true' "$T/o" "$T/e" && bad "a printed verdict line reads as an event: $(cat "$T/o" "$T/e")"
tail -n 1 "$T/o" | grep -q '^{"t":"verdict","pass":false' || bad "--json does not end with a failed verdict: $(tail -n 2 "$T/o")"
grep -q '"t":"error","text":"the check ended before its verdict' "$T/o" || bad "--json: no error event for the missing verdict: $(cat "$T/o")"
check_lab_left snowflake-next
kill_marked
[ $nbad -eq 0 ] || fail "$nbad of the assertions above failed"
echo "exercise check: exit(0) and _exit(0) fail, every child dies, output sanitised and bounded"
