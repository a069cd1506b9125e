# runbase_user_folder.sh - (reliability review r3 N9) WORKBENCH_RUN_BASE
# may name an ordinary folder of the user's: a lab run there deletes none
# of its run-* folders (whatever their age) and never chmods it.  Only run
# folders that hold the workbench's own owner record are reaped; a
# positive control (a dead run of ours in the same folder is removed)
# shows the reaper did look.  The review's steps, with an empty old
# run-* folder (what a run that died before writing its record leaves:
# removed) and a run-* folder with an "owner" file that is not ours.
. "$(dirname "$0")/../lib/common.sh"

export HOME="$T/home" XDG_RUNTIME_DIR=
mkdir -p "$HOME"
P="$T/projects"
mkdir -p "$P/run-thesis/chapter1" "$P/run-2024" "$P/run-empty" "$P/run-dead"
echo "my thesis" >"$P/run-thesis/chapter1/draft.txt"
echo "a,b" >"$P/run-2024/data.csv"
echo "alice" >"$P/run-2024/owner"
chmod 0600 "$P/run-2024/owner"
# A dead run of ours: the record rundir_create writes, a pid not running.
echo "999999 1 workbench" >"$P/run-dead/owner"
chmod 0600 "$P/run-dead/owner"
chmod 0700 "$P/run-thesis" "$P/run-2024" "$P/run-empty" "$P/run-dead"
touch -d '2 minutes ago' "$P/run-thesis" "$P/run-2024" "$P/run-empty" "$P/run-dead"
chmod 0755 "$P"

WORKBENCH_RUN_BASE="$P" "$WB_BIN" --db "$T/p.db" lab run id-collision >"$T/out" 2>&1 ||
	fail "lab in a user folder: exit $?: $(cat "$T/out")"
[ "$(cat "$P/run-thesis/chapter1/draft.txt" 2>/dev/null)" = "my thesis" ] ||
	fail "run-thesis was deleted: $(ls -la "$P")"
[ -f "$P/run-2024/data.csv" ] || fail "run-2024 (an owner file not of ours) was deleted: $(ls -la "$P")"
[ "$(stat -c %a "$P")" = 755 ] || fail "the run base was chmodded to $(stat -c %a "$P")"
[ -e "$P/run-dead" ] && fail "control: a dead run folder of ours was not reaped"
[ -e "$P/run-empty" ] && fail "an old empty run folder was not removed"
left=$(cd "$P" && ls -d run-* | grep -v -x -e run-thesis -e run-2024)
[ -z "$left" ] || fail "the lab left run folders: $left"
echo "ok: user folders kept, mode kept, a dead run of ours reaped"

# The same folder with a mode others can write is refused, not tightened.
chmod 0775 "$P"
WORKBENCH_RUN_BASE="$P" "$WB_BIN" --db "$T/p.db" lab run id-collision >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "a group-writable run base: exit $rc, want 2: $(cat "$T/out")"
grep -q "is writable by others (mode 0775); make it 0700" "$T/out" ||
	fail "group-writable base message: $(cat "$T/out")"
[ "$(stat -c %a "$P")" = 775 ] || fail "the refused run base was chmodded"
[ -f "$P/run-thesis/chapter1/draft.txt" ] || fail "run-thesis deleted under a refused base"
echo ok
