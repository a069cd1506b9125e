# run_kept.sh - a run folder the workbench says it keeps for inspection
# survives later runs: `lab run` of a lab that cannot run (no java on
# PATH: zk-cas ends at once with exit 2) keeps its folder, marked by a
# file "kept"; the next run, which reaps the leftovers of dead runs, leaves
# it (before, it removed it at once); of the kept folders only the
# RUNDIR_KEEP_MAX (10) newest stay.  id-collision needs no server and
# passes: its own folder is removed as always.
. "$(dirname "$0")/../lib/common.sh"
export WORKBENCH_RUN_BASE="$T/runs" WORKBENCH_DB="$T/progress.db"

# keep_one: one run that cannot run; prints the folder it kept.
keep_one() {
	env PATH=/nonexistent "$WB_BIN" lab run zk-cas --json >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "zk-cas without java: exit $rc, want 2: $(cat "$T/err")"
	dir=$(sed -n 's/^workbench: run directory kept for inspection: \([^ ]*\) (the 10 newest kept runs stay)$/\1/p' "$T/err")
	[ -n "$dir" ] || fail "no 'kept for inspection' line: $(cat "$T/err")"
	[ -f "$dir/kept" ] || fail "$dir has no kept marker"
	[ -f "$dir/events.jsonl" ] || fail "$dir has no events.jsonl"
	echo "$dir"
}

first=$(keep_one) || exit 1
"$WB_BIN" lab run id-collision >"$T/out" 2>"$T/err" || fail "id-collision: $(cat "$T/err")"
[ -d "$first" ] || fail "the next run removed the kept folder $first"
[ "$(ls "$T/runs" | wc -l)" -eq 1 ] || fail "id-collision left its own folder: $(ls "$T/runs")"

# Ten more kept runs: the first is now the 11th newest and goes with the
# next reap; the ten newest stay.
newest=
i=0
while [ $i -lt 10 ]; do
	newest=$(keep_one) || exit 1
	i=$((i + 1))
done
"$WB_BIN" lab run id-collision >"$T/out" 2>"$T/err" || fail "id-collision: $(cat "$T/err")"
[ ! -d "$first" ] || fail "the oldest of 11 kept folders is still there"
[ -d "$newest" ] || fail "the newest kept folder is gone"
n=$(ls "$T/runs" | wc -l)
[ "$n" -eq 10 ] || fail "$n kept folders, want 10: $(ls "$T/runs")"
echo "ok: kept folders survive later runs; the 10 newest stay"
