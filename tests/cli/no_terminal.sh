# no_terminal.sh - the interactive workbench needs a terminal (ux.md #4):
# with stdin or stdout not a terminal, or TERM=dumb, `workbench` with no
# command says so, points to the commands and exits 2 (it used to draw
# into the pipe and spin at 100% CPU forever); on a terminal that goes
# away (EOF, a closed pty) it ends instead of spinning.
. "$(dirname "$0")/../lib/common.sh"

ARGS="--content $WB_FIXTURES --db $T/p.db --lang en"

# check_refused WHAT: the last run, in $T/rc, $T/out and $T/err, refused.
check_refused() {
	[ "$(cat "$T/rc")" -eq 2 ] || fail "$1: exit $(cat "$T/rc") (124: it kept running), want 2"
	grep -q "needs a terminal" "$T/err" || fail "$1: no message: $(cat "$T/err")"
	grep -q "quiz run CHAPTER --plain" "$T/err" || fail "$1: no pointer to the commands"
	[ ! -s "$T/out" ] || fail "$1: wrote to stdout: $(head -c 200 "$T/out" | od -c | head -3)"
}

# stdin a file, stdout a file.
rc=0
timeout 10 "$WB_BIN" $ARGS </dev/null >"$T/out" 2>"$T/err" || rc=$?
echo $rc >"$T/rc"
check_refused "stdin and stdout not a terminal"
# TERM=dumb, both redirected too.
rc=0
TERM=dumb timeout 10 "$WB_BIN" $ARGS </dev/null >"$T/out" 2>"$T/err" || rc=$?
echo $rc >"$T/rc"
check_refused "TERM=dumb"

# TERM=dumb in a real terminal: the same message, exit 2.
NSOCK=$((NSOCK + 1)) SOCK="wbtest-$$-$NSOCK"
tmux -L "$SOCK" -f /dev/null new-session -d -s wb -x 100 -y 24 \
	"env TERM=dumb LC_ALL=C.UTF-8 $WB_BIN $ARGS$EXIT_MARK"
wait_for "EXITED:" 20
screen | grep -q "needs a terminal (TERM is dumb" || fail "TERM=dumb in a terminal: no message"
screen | grep -q "EXITED:2" || fail "TERM=dumb in a terminal: not exit 2"

# A terminal that goes away: the workbench runs on a pty with no
# controlling terminal (so no SIGHUP), the pty's master is closed, and
# the workbench must end by itself within the deadline.
command -v python3 >/dev/null 2>&1 || skip "python3 (for the pty) is not installed"
WB_ARGS="$ARGS" python3 - <<'PY' || fail "a closed terminal: the workbench kept running"
import os, pty, select, subprocess, sys, time
master, slave = pty.openpty()
env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8")
p = subprocess.Popen([os.environ["WB_BIN"]] + os.environ["WB_ARGS"].split(),
                     stdin=slave, stdout=slave, stderr=subprocess.DEVNULL,
                     start_new_session=True, env=env, close_fds=True)
os.close(slave)
seen, deadline = b"", time.time() + 30
while b"q quit" not in seen and time.time() < deadline:
    r, _, _ = select.select([master], [], [], 0.5)
    if r:
        try:
            seen += os.read(master, 65536)
        except OSError:
            break
if b"q quit" not in seen:
    p.kill()
    sys.exit("the home screen never appeared")
os.close(master)
try:
    p.wait(timeout=10)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    sys.exit("still running 10 s after its terminal closed")
PY
echo ok
