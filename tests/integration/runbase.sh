# runbase.sh - the run base cannot be used against us (reliability review
# F3): run folders live in a per-user place by default, and a base, run
# folder or pid file that another user owns or can write, a symlinked base,
# or a pid record whose command no longer matches never makes a lab kill
# or delete anything.  Each refusal has a positive control: the same record
# in a folder of ours does get reaped, so the check could fail.
. "$(dirname "$0")/../lib/common.sh"

unset WORKBENCH_RUN_BASE XDG_RUNTIME_DIR XDG_STATE_HOME
DB="$T/p.db"
run_lab() { "$WB_BIN" --db "$DB" lab run id-collision >"$T/out" 2>"$T/err"; }

# A process of ours that a planted record names: setsid so it leads its own
# group like a lab server does.
start_victim() {
	setsid sleep 900 &
	VP=$!
	until [ -r "/proc/$VP/stat" ] && [ "$(cat /proc/$VP/comm 2>/dev/null)" = sleep ]; do :; done
	VST=$(awk '{ print $22 }' "/proc/$VP/stat")
}
alive() { [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
stop_victim() { kill -9 "$VP" 2>/dev/null || true; wait "$VP" 2>/dev/null || true; }

# A dead owner: a pid that is not running with a start time that cannot match.
plant() { # DIR PIDLINE
	mkdir -p "$1"
	echo "999999 1 workbench" >"$1/owner"
	echo "$2" >"$1/pids"
	chmod 0700 "$1"
	chmod 0600 "$1/owner" "$1/pids"
}

# 1. Default: no WORKBENCH_RUN_BASE, no XDG_RUNTIME_DIR: the state folder.
export HOME="$T/home"
mkdir -p "$HOME"
run_lab || fail "lab with the default base: exit $? ($(cat "$T/err"))"
B="$HOME/.local/state/workbench/run"
[ -d "$B" ] || fail "default base $B not created"
[ "$(stat -c %a "$B")" = 700 ] || fail "default base mode $(stat -c %a "$B")"
echo "ok: default base under XDG state home"

# 2. XDG_RUNTIME_DIR, when it is ours and private, is preferred.
mkdir -m 0700 "$T/rt"
XDG_RUNTIME_DIR="$T/rt" run_lab || fail "lab with XDG_RUNTIME_DIR: exit $?"
[ -d "$T/rt/workbench" ] || fail "no base under XDG_RUNTIME_DIR"
# ... and ignored when others can write it.
mkdir -m 0777 "$T/rt2"
XDG_RUNTIME_DIR="$T/rt2" run_lab || fail "lab with a public XDG_RUNTIME_DIR: exit $?"
[ -e "$T/rt2/workbench" ] && fail "a base was made in a world-writable XDG_RUNTIME_DIR"
echo "ok: XDG_RUNTIME_DIR used only when private"

export WORKBENCH_RUN_BASE="$T/base"
mkdir -m 0700 "$WORKBENCH_RUN_BASE"

# 3. Positive control: a dead run of ours naming a live process of ours
#    with the right start time and command is reaped.
start_victim
plant "$WORKBENCH_RUN_BASE/run-old" "$VP $VST sleep"
run_lab || fail "reaping run: exit $?"
grep -q "stopped 1 process" "$T/err" || fail "control: leftover not reported: $(cat "$T/err")"
alive "$VP" && fail "control: the recorded leftover survived (the check cannot fail)"
[ -e "$WORKBENCH_RUN_BASE/run-old" ] && fail "control: dead run folder kept"
stop_victim
echo "ok: a genuine leftover is reaped"

# 4. The same record with another command name (a recycled or forged pid).
start_victim
plant "$WORKBENCH_RUN_BASE/run-old" "$VP $VST java"
run_lab || fail "comm mismatch run: exit $?"
alive "$VP" || fail "a process whose command does not match the record was killed"
stop_victim
rm -rf "$WORKBENCH_RUN_BASE"/run-*

# 5. A pid file others can write, or a symlinked one, is not trusted.
start_victim
plant "$WORKBENCH_RUN_BASE/run-old" "$VP $VST sleep"
chmod 0666 "$WORKBENCH_RUN_BASE/run-old/pids"
run_lab || fail "writable pid file run: exit $?"
alive "$VP" || fail "a pid file writable by others made us kill"
plant "$WORKBENCH_RUN_BASE/run-old2" "ignored"
rm "$WORKBENCH_RUN_BASE/run-old2/pids"
echo "$VP $VST sleep" >"$T/elsewhere"
ln -s "$T/elsewhere" "$WORKBENCH_RUN_BASE/run-old2/pids"
run_lab || fail "symlinked pid file run: exit $?"
alive "$VP" || fail "a symlinked pid file made us kill"
stop_victim
rm -rf "$WORKBENCH_RUN_BASE"/run-*
echo "ok: pid files must be ours, private and real files"

# 6. A symlinked base is refused before anything in it is read, changed or
#    killed (where fs.protected_symlinks is 0 a planted link in a shared
#    folder would otherwise point the reaper at any folder of ours).
start_victim
plant "$WORKBENCH_RUN_BASE/run-evil" "$VP $VST sleep"
chmod 0777 "$WORKBENCH_RUN_BASE"
mv "$WORKBENCH_RUN_BASE" "$T/real"
ln -s "$T/real" "$WORKBENCH_RUN_BASE"
mkdir -p "$T/real/run-old-important" && touch -d '2 hours ago' "$T/real/run-old-important"
run_lab && fail "a symlinked run base was accepted"
grep -q "symbolic link" "$T/err" || fail "symlinked base message: $(cat "$T/err")"
alive "$VP" || fail "a symlinked base made us kill"
[ -d "$T/real/run-old-important" ] || fail "a symlinked base made us delete"
[ "$(stat -c %a "$T/real")" = 777 ] || fail "a symlinked base's target was chmodded"
rm "$WORKBENCH_RUN_BASE"
mv "$T/real" "$WORKBENCH_RUN_BASE"
stop_victim
echo "ok: a symlinked base is refused"

# 7. A base another user owns (root can make one; others skip this part).
if [ "$(id -u)" -eq 0 ]; then
	start_victim
	chmod 0755 "$WORKBENCH_RUN_BASE"
	chown -R 65534:65534 "$WORKBENCH_RUN_BASE"
	run_lab && fail "a base owned by another user was accepted"
	grep -q "belongs to user 65534" "$T/err" || fail "foreign base message: $(cat "$T/err")"
	alive "$VP" || fail "a foreign base made us kill"
	[ -d "$WORKBENCH_RUN_BASE/run-evil" ] || fail "a foreign base made us delete"
	chown -R 0:0 "$WORKBENCH_RUN_BASE"
	# A foreign run folder inside our own base is left alone too.
	chmod 0700 "$WORKBENCH_RUN_BASE"
	chown -R 65534:65534 "$WORKBENCH_RUN_BASE/run-evil"
	run_lab || fail "foreign run folder run: exit $?"
	alive "$VP" || fail "a foreign run folder made us kill"
	[ -d "$WORKBENCH_RUN_BASE/run-evil" ] || fail "a foreign run folder was deleted"
	stop_victim
	echo "ok: foreign base and run folders refused"
else
	echo "note: not root, the foreign-owner cases need chown"
fi
echo ok
