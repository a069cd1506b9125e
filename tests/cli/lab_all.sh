# lab_all.sh - `workbench lab run --all` / `--only ID,ID` (cli/lab_run_all.c):
# runs the listed labs in turn, prints a summary row per lab and the total,
# exits 0 when all passed; --json puts exactly one summary object per lab on
# stdout; a mistyped id or an ID next to --all is a usage error; SIGINT
# during the second lab cancels it (its processes stopped, its run folder
# removed), the third is never started and the exit is 2.  The labs used
# (id-collision, id-uuid, task-claim) need no server.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs" XDG_DATA_HOME="$T/xdg" HOME="$T/home"
mkdir -p "$WORKBENCH_RUN_BASE" "$HOME"
DB="$T/p.db"
labs=$("$WB_BIN" lab list 2>/dev/null | awk '{ print $1 }')
for l in id-collision id-uuid task-claim; do
	echo "$labs" | grep -qx "$l" || skip "lab $l is not in this build"
done

# Two labs that pass: a row each, the total, exit 0, both recorded.
rc=0
"$WB_BIN" --lang en --db "$DB" lab run --only id-collision,id-uuid >"$T/out" 2>"$T/err" || rc=$?
[ $rc -eq 0 ] || fail "--only id-collision,id-uuid: exit $rc: $(cat "$T/out" "$T/err")"
# lab, seconds, then the time split (story, servers, other), verdict
row='( +[0-9]+\.[0-9]){4}  PASS'
grep -Eq "^id-collision$row" "$T/out" || fail "no id-collision row: $(cat "$T/out")"
grep -Eq "^id-uuid$row" "$T/out" || fail "no id-uuid row: $(cat "$T/out")"
grep -Eq '^2 labs in [0-9.]+ s: 2 passed, 0 failed, 0 could not run, 0 not run$' "$T/out" ||
	fail "no total line: $(cat "$T/out")"
grep -Eq '^of which [0-9.]+ s waiting for the stories, [0-9.]+ s starting and stopping servers, [0-9.]+ s the rest$' "$T/out" ||
	fail "no time split total: $(cat "$T/out")"
# The order is the order given, and each lab's own output comes first.
first=$(grep -En '^(id-collision|id-uuid) ' "$T/out" | head -1 | cut -d: -f2 | awk '{print $1}')
[ "$first" = id-collision ] || fail "rows not in --only order: $(cat "$T/out")"
grep -q '^id-uuid: ' "$T/out" || fail "the lab's own title line is missing: $(cat "$T/out")"
ls "$WORKBENCH_RUN_BASE" | grep -q . && fail "run folders left: $(ls "$WORKBENCH_RUN_BASE")"

# --json: stdout is exactly the summary objects, one per lab, in order.
rc=0
"$WB_BIN" --lang en --db "$DB" lab run --only id-uuid,id-collision --json >"$T/out" 2>"$T/err" || rc=$?
[ $rc -eq 0 ] || fail "--json: exit $rc: $(cat "$T/out" "$T/err")"
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "--json: want 2 lines on stdout: $(cat "$T/out")"
head -1 "$T/out" | grep -Eq '^\{"lab": ?"id-uuid", ?"verdict": ?"pass", ?"seconds": ?[0-9.e+-]+, ?"story_ms": ?[0-9]+, ?"server_ms": ?[0-9]+, ?"other_ms": ?[0-9]+\}$' ||
	fail "--json first object: $(cat "$T/out")"
sed -n 2p "$T/out" | grep -q '"lab": *"id-collision"' || fail "--json second object: $(cat "$T/out")"
grep -q '^id-uuid: ' "$T/err" || fail "--json: the labs' text should go to stderr: $(cat "$T/err")"

# Usage errors: a mistyped id (with the suggestion), an ID with --all, --zk.
rc=0
"$WB_BIN" --lang en --db "$DB" lab run --only id-collision,id-uuidd >"$T/out" 2>"$T/err" || rc=$?
[ $rc -eq 2 ] || fail "mistyped --only id: exit $rc"
grep -q "no lab 'id-uuidd'.*did you mean id-uuid" "$T/err" || fail "mistyped id: $(cat "$T/err")"
grep -q . "$T/out" && fail "a mistyped id still ran labs: $(cat "$T/out")"
rc=0
"$WB_BIN" --lang en --db "$DB" lab run --all id-uuid >"$T/out" 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q "take no lab ID" "$T/err" || fail "--all with an ID: exit $rc: $(cat "$T/err")"
rc=0
"$WB_BIN" --lang en --db "$DB" lab run --all --zk 127.0.0.1:2181 >"$T/out" 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q -- "--zk is for one lab" "$T/err" || fail "--all --zk: exit $rc: $(cat "$T/err")"
rc=0
"$WB_BIN" --lang en --db "$DB" lab run >"$T/out" 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q "give one lab ID, or --all" "$T/err" || fail "lab run alone: exit $rc: $(cat "$T/err")"

# SIGINT in the second lab: task-claim holds once it has recorded its
# 8th process (harness/proc.c's hook); id-collision records fewer (5 to 7),
# so it runs through.
WORKBENCH_TEST=1 WORKBENCH_TEST_HOLD_AFTER=8 "$WB_BIN" --lang en --db "$DB" lab run --only id-collision,task-claim,id-uuid \
	>"$T/out" 2>"$T/err" &
sup=$!
deadline=$(($(date +%s) + 120))
while :; do
	held=
	for f in "$WORKBENCH_RUN_BASE"/run-*/pids; do
		[ -f "$f" ] && [ "$(wc -l <"$f")" -ge 8 ] && held=$f
	done
	[ -n "$held" ] && break
	kill -0 $sup 2>/dev/null || fail "the run ended before the hold point: $(cat "$T/out" "$T/err")"
	[ "$(date +%s)" -ge "$deadline" ] && fail "task-claim never recorded 8 processes"
	sleep 0.05
done
pids=$(awk '{ print $1 }' "$held")
kill -INT $sup
rc=0
wait $sup || rc=$?
[ $rc -eq 2 ] || fail "cancelled --only run: exit $rc, want 2: $(cat "$T/out" "$T/err")"
grep -Eq "^id-collision$row" "$T/out" || fail "first lab row after cancel: $(cat "$T/out")"
grep -Eq '^task-claim +[0-9.]+( +-){3}  cancelled$' "$T/out" || fail "no cancelled row: $(cat "$T/out")"
grep -Eq '^id-uuid( +-){4}  not run$' "$T/out" || fail "the third lab ran or has no row: $(cat "$T/out")"
grep -q '^id-uuid: ' "$T/out" && fail "the third lab was started: $(cat "$T/out")"
grep -q "lab task-claim cancelled" "$T/err" || fail "no cancel message: $(cat "$T/err")"
# Every process of the cancelled lab is gone (PDEATHSIG is asynchronous:
# wait for the condition with a deadline), and no run folder is left.
deadline=$(($(date +%s) + 30))
for p in $pids; do
	while [ -r "/proc/$p/stat" ] && ! awk '{ exit !($3 == "Z") }' "/proc/$p/stat" 2>/dev/null; do
		[ "$(date +%s)" -ge "$deadline" ] && fail "process $p of the cancelled lab survived"
		sleep 0.05
	done
done
ls "$WORKBENCH_RUN_BASE" | grep -q . && fail "run folder left after cancel: $(ls "$WORKBENCH_RUN_BASE")"
echo ok
