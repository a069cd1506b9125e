#!/bin/sh
# exercises/mutate_selftest.sh - keeps tools/mutate honest (docs/exercises.md,
# "Mutation testing"), without servers:
#  - the generator yields exactly the mutant ids of
#    tests/fixtures/mutate/expected-ids.txt for a small C, SQL and Lua
#    reference (tests/fixtures/mutate/exercises/fx-*), the same ids and text
#    on every run and under any PYTHONHASHSEED;
#  - every C mutant but the one swap that moves a declaration after its use
#    still compiles (the edits keep C well formed);
#  - a mutants.equivalent entry is honoured (tagged, not run, not scored)
#    and an entry that matches no mutant is reported as stale with its
#    file:line; an entry without a reason is refused with file:line;
#  - --sample N --seed S picks the same N mutants for the same seed;
#  - run against tests/fixtures/mutate/fake-workbench, which judges by the
#    mutant's text: the counts (stillborn, killed, survived, equivalent),
#    the score, the private run folders, and the exit status (1 below
#    --min-score, 0 at or above it, 2 when the check cannot run).
#
# With the argument --sample it is instead the ctest exercises/mutation-sample:
# `tools/mutate --sample 6 --seed 1` over every exercise against the built
# workbench, failing when a sampled non-equivalent mutant survives.  It is
# skipped (77) unless WB_MUTATION=1: the checks are being strengthened.
. "$(dirname "$0")/../lib/common.sh"
: "${WB_SRC:?WB_SRC must point at the source tree}"
MUTATE="$WB_SRC/tools/mutate"
FX="$WB_FIXTURES/mutate"

if [ "${1:-}" = --sample ]; then
	[ "${WB_MUTATION:-0}" = 1 ] ||
		skip "mutation sample is off until the checks are strengthened (WB_MUTATION=1 runs it)"
	rc=0
	python3 "$MUTATE" --bin "$WB_BIN" --sample 6 --seed 1 --min-score 1 -j 2 \
		--json-file "$T/sample.json" >"$T/sample.txt" 2>"$T/sample.err" || rc=$?
	cat "$T/sample.txt"
	case $rc in
	0) echo "mutation sample: no sampled mutant survived" ;;
	1) fail "a sampled non-equivalent mutant survived or a reference fails (above); list it in exercises/<id>/mutants.equivalent with the reason, or add a situation that kills it" ;;
	2)
		cat "$T/sample.err"
		skip "an exercise could not be checked here: $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(e["id"] + ":" + e["state"] for e in d["exercises"] if e["state"] != "ok"))' "$T/sample.json" 2>/dev/null)"
		;;
	*)
		cat "$T/sample.err"
		fail "tools/mutate exited $rc"
		;;
	esac
	exit 0
fi

command -v python3 >/dev/null || skip "no python3"

# --- the generator: exact ids, stable
python3 "$MUTATE" --root "$FX" --list >"$T/list1.txt" || fail "mutate --list exited $?"
cut -f1 "$T/list1.txt" | grep -v '^stale:' >"$T/ids.txt"
diff -u "$FX/expected-ids.txt" "$T/ids.txt" >"$T/ids.diff" ||
	fail "the mutant ids differ from $FX/expected-ids.txt: $(cat "$T/ids.diff")"
for lang in c sql lua; do
	grep -q "^# fx-$lang ($lang): [1-9][0-9]* mutants$" "$T/list1.txt" || fail "no mutants of fx-$lang"
done
PYTHONHASHSEED=0 python3 "$MUTATE" --root "$FX" --list >"$T/list2.txt"
PYTHONHASHSEED=4711 python3 "$MUTATE" --root "$FX" --list >"$T/list3.txt"
cmp -s "$T/list1.txt" "$T/list2.txt" && cmp -s "$T/list1.txt" "$T/list3.txt" ||
	fail "two runs of mutate --list differ: $(diff "$T/list1.txt" "$T/list3.txt" | head -n 5)"
# Comments, strings and preprocessor lines are never mutated: in fx-c,
# nothing on lines 1-4 (a comment, #include, #define LIMIT (3 < 4)), in the
# string "a <= b" (L16:C11) or the comment after `continue;` (L14); in
# fx-sql nothing in the header comments (lines 1-3).
awk '/^# /{ex=$2; next} ex=="fx-c" && /^L([1-4]|16:C11|14:C([5-9]|[1-9][0-9])):/ ||
	ex=="fx-sql" && /^L[1-3]:/' "$T/ids.txt" >"$T/inside.txt"
[ -s "$T/inside.txt" ] && fail "mutants inside a comment, string or directive: $(cat "$T/inside.txt")"

# --- every C mutant is C (the one declaration swap aside)
if command -v cc >/dev/null; then
	python3 "$MUTATE" --root "$FX" --only fx-c --list --keep "$T/keep" >/dev/null
	n=0
	for f in "$T"/keep/fx-c/*.c; do
		case "$f" in *L9_C2_swap-stmt*) continue ;; esac
		cc -std=c11 -fsyntax-only -w "$f" 2>"$T/cc.err" || fail "mutant $f does not compile: $(cat "$T/cc.err")"
		n=$((n + 1))
	done
	[ "$n" -ge 30 ] || fail "only $n C mutants were kept"
	cc -std=c11 -fsyntax-only -w "$T"/keep/fx-c/*L9_C2_swap-stmt*.c 2>/dev/null &&
		fail "the swap of a declaration and its use compiled"
fi

# --- equivalent entries: honoured, stale ones reported with file:line
grep -q '^L3:C27:const:1→2	.*\[equivalent: fixture: stands for' "$T/list1.txt" ||
	fail "the equivalent entry is not shown with its reason"
grep -qxF "stale: $FX/exercises/fx-lua/mutants.equivalent:3: L20:C1:drop-call:GET matches no mutant" \
	"$T/list1.txt" || fail "the stale entry is not reported: $(grep stale "$T/list1.txt")"
mkdir -p "$T/bad/exercises/fx-lua"
cp "$FX/exercises/fx-lua/solution.lua" "$T/bad/exercises/fx-lua/"
printf '# a comment\nL3:C27:const:1→2\n' >"$T/bad/exercises/fx-lua/mutants.equivalent"
rc=0
python3 "$MUTATE" --root "$T/bad" --list >/dev/null 2>"$T/bad.err" || rc=$?
[ $rc -eq 2 ] || fail "an entry without a reason: exit $rc, want 2"
grep -qF "$T/bad/exercises/fx-lua/mutants.equivalent:2: " "$T/bad.err" ||
	fail "no file:line for the entry without a reason: $(cat "$T/bad.err")"

# --- sampling: seeded, N per exercise
python3 "$MUTATE" --root "$FX" --only fx-c --list --sample 5 --seed 3 | grep -v '^#' >"$T/s1"
python3 "$MUTATE" --root "$FX" --only fx-c --list --sample 5 --seed 3 | grep -v '^#' >"$T/s2"
python3 "$MUTATE" --root "$FX" --only fx-c --list --sample 5 --seed 4 | grep -v '^#' >"$T/s3"
[ "$(wc -l <"$T/s1")" -eq 5 ] || fail "--sample 5 listed $(wc -l <"$T/s1") mutants"
cmp -s "$T/s1" "$T/s2" || fail "--sample 5 --seed 3 picked different mutants twice"
cmp -s "$T/s1" "$T/s3" && fail "--seed 3 and --seed 4 picked the same mutants"

# --- running: verdicts, counts, score, exit status (fake check, no servers)
export WORKBENCH_DB="$T/outer.db" XDG_DATA_HOME="$T/outer-data" WORKBENCH_RUN_BASE="$T/outer-run"
rc=0
python3 "$MUTATE" --root "$FX" --bin "$FX/fake-workbench" --only fx-lua -j 2 --json \
	>"$T/run.json" 2>"$T/run.err" || rc=$?
[ $rc -eq 1 ] || fail "fx-lua scores 6/38 < 0.95: exit $rc, want 1 ($(cat "$T/run.err"))"
python3 - "$T/run.json" <<'EOF' || fail "the results of the fake run are wrong (above)"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["exercises"][0]
want = dict(id="fx-lua", mutants=42, run=41, stillborn=3, killed=6, survived=32, equivalent=1,
            errors=0, state="below-min-score")
bad = {k: (e.get(k), v) for k, v in want.items() if e.get(k) != v}
survivors = {s["id"] for s in e["survivors"]}
if "L3:C27:const:1→2" in survivors:
    bad["equivalent ran"] = True
if "L6:C1:drop-call:DEL" not in survivors or "L4:C10:ret-val:0→1" in survivors:
    bad["survivors"] = sorted(survivors)
if abs(e["score"] - 6 / 38) > 1e-9:
    bad["score"] = e["score"]
if [s["id"] for s in e["stale"]] != ["L20:C1:drop-call:GET"]:
    bad["stale"] = e["stale"]
if set(e["killed_by"].get("L4:C10:ret-val:0→1", [])) != {"release-only-own"}:
    bad["killed_by"] = e["killed_by"]
if bad:
    print(bad)
    sys.exit(1)
EOF
rc=0
python3 "$MUTATE" --root "$FX" --bin "$FX/fake-workbench" --only fx-lua --min-score 0.15 \
	>"$T/run.txt" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "score 0.16 with --min-score 0.15: exit $rc, want 0: $(cat "$T/run.txt")"
grep -q '^fx-lua  *42  *41  *3  *6  *1  *32  *0  *0.16  *ok$' "$T/run.txt" ||
	fail "the table row of fx-lua: $(grep '^fx-lua' "$T/run.txt")"
grep -q '^  L6:C1:drop-call:DEL	L6: redis.call' "$T/run.txt" || fail "a survivor is not listed with its diff"
grep -qF "fx-lua: stale: $FX/exercises/fx-lua/mutants.equivalent:3: L20:C1:drop-call:GET" "$T/run.txt" ||
	fail "the run does not report the stale entry"
rc=0
python3 "$MUTATE" --root "$FX" --bin "$FX/fake-workbench" --only fx-sql >"$T/cannot.txt" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "a check that cannot run: exit $rc, want 2"
grep -q '^fx-sql .*could-not-run$' "$T/cannot.txt" || fail "could-not-run not shown: $(cat "$T/cannot.txt")"
[ -e "$T/outer.db" ] || [ -e "$T/outer-run" ] && fail "a check used the caller's folders"
echo "mutate selftest: $(wc -l <"$T/ids.txt") ids as expected, stable; equivalents, stale entries, sampling, verdicts and exit status hold"
