#!/bin/sh
# exercises/check.sh ID - keeps an exercise's check honest
# (docs/exercises.md §5): through `workbench exercise check ID --file F
# --json`, the reference solution passes, the starter fails, and every
# known-wrong variant under wrong/ fails, among its failed checks the one
# its first line names ("expect-fail: NAME").  After each run no run folder
# and no process is left.  A check that cannot run here (exit 2: no
# ZooKeeper, no redis-server, no compiler) makes the test a skip.
#
# For an exercise with a specification (the check's evidence "rules",
# labs/exercises/spec.h) also: every variant names a rule, and that rule
# is the only rule it fails (or names several: "expect-fail: a b", and
# fails exactly those); every rule has a variant that fails it alone; both task
# texts name every rule id.  CHECK_REPEAT=N runs each file N times and
# fails when two runs differ in verdict or failed checks.
. "$(dirname "$0")/../lib/common.sh"

id=${1:?usage: check.sh EXERCISE-ID}
dir="$WB_SRC/exercises/$id"
[ -d "$dir" ] || fail "no folder $dir"
export WORKBENCH_RUN_BASE="$T/run" XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/progress.db"
mkdir -p "$WORKBENCH_RUN_BASE"

# run FILE: the check's exit code in $rc, its event lines in $T/out.json.
run() {
	rc=0
	"$WB_BIN" exercise check "$id" --file "$1" --json >"$T/out.json" 2>"$T/out.err" || rc=$?
	if [ $rc -eq 2 ]; then
		cat "$T/out.json" "$T/out.err"
		skip "exercise $id cannot be checked here: $(grep -o '"t":"error","text":"[^"]*' "$T/out.json" | head -n 1)"
	fi
	bad=$(grep -v -c '^{"t":"[a-z]*",.*}$' "$T/out.json" || true)
	[ "$bad" -eq 0 ] || { cat "$T/out.json"; fail "$1: $bad lines are not event objects"; }
	check_lab_left "$id"
}

# The names of the failed checks of the last run, one per line.
failed_checks() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("t") == "check" and not e.get("ok"):
        print(e.get("name"))' "$T/out.json"
}

sol=$(ls "$dir"/solution.* 2>/dev/null | head -n 1)
start=$(ls "$dir"/starter.* 2>/dev/null | head -n 1)
[ -n "$sol" ] || fail "$id has no solution.*"
[ -n "$start" ] || fail "$id has no starter.*"

# The rule ids of the last run's specification, space-separated.
rules_of() {
	sed -n 's/^{"t":"evidence","key":"rules","value":"\([^"]*\)"}$/\1/p' "$T/out.json" | head -n 1
}

repeat=${CHECK_REPEAT:-1}
# run_same FILE: run FILE $repeat times; every run must end the same.
run_same() {
	run "$1"
	first="$rc $(failed_checks | tr '\n' ' ')"
	i=1
	while [ $i -lt "$repeat" ]; do
		run "$1"
		now="$rc $(failed_checks | tr '\n' ' ')"
		[ "$now" = "$first" ] || fail "$1: run 1 ended '$first', run $((i + 1)) '$now'"
		i=$((i + 1))
	done
}

run_same "$sol"
[ $rc -eq 0 ] || { cat "$T/out.json" "$T/out.err"; fail "$id: the reference solution exited $rc"; }
tail -n 1 "$T/out.json" | grep -q '^{"t":"verdict","pass":true,' || fail "$id: solution verdict"
rules=$(rules_of)
if [ -n "$rules" ]; then
	for r in $rules; do
		for lang in en zh; do
			grep -qF "\`$r\`" "$dir/task.$lang.md" ||
				fail "$id: task.$lang.md does not name the rule \`$r\`"
		done
	done
fi

run_same "$start"
[ $rc -eq 1 ] || { cat "$T/out.json"; fail "$id: the starter exited $rc, want 1 (fail)"; }
failed_checks | grep -qx builds && fail "$id: the starter does not build: $(cat "$T/out.json")"

n=0
caught=
for w in "$dir"/wrong/*; do
	[ -f "$w" ] || continue
	want=$(head -n 1 "$w" | sed -n 's/^.*expect-fail: *//p')
	[ -n "$want" ] || fail "$w: the first line does not name the check (expect-fail: NAME)"
	run_same "$w"
	[ $rc -eq 1 ] || { cat "$T/out.json"; fail "$w passed (exit $rc); it must fail on $want"; }
	[ -n "$rules" ] || failed_checks | grep -qxF "$want" ||
		fail "$w failed, but not on $want: failed $(failed_checks | tr '\n' ' ')"
	if [ -n "$rules" ]; then
		# want: one rule, or several ("expect-fail: a b") for a mistake
		# that breaks more than one; the failed rules must be exactly those.
		for wr in $want; do
			case " $rules " in
			*" $wr "*) ;;
			*) fail "$w: expect-fail names '$wr', which is not a rule ($rules)" ;;
			esac
			failed_checks | grep -qxF "$wr" ||
				fail "$w failed, but not on $wr: failed $(failed_checks | tr '\n' ' ')"
		done
		other=$(failed_checks | while read -r c; do
			case " $want " in *" $c "*) continue ;; esac
			case " $rules " in *" $c "*) echo "$c" ;; esac
		done | tr '\n' ' ')
		[ -z "$other" ] || fail "$w fails rules $want and also $other"
		case "$want" in *" "*) ;; *) caught="$caught $want" ;; esac
	fi
	n=$((n + 1))
done
[ $n -ge 2 ] || fail "$id has $n known-wrong variants, want 2 or more"
for r in $rules; do
	case " $caught " in
	*" $r "*) ;;
	*) fail "$id: no known-wrong variant breaks only the rule $r" ;;
	esac
done
echo "exercise $id: solution passes, starter fails, $n wrong variants caught${rules:+, each rule of $rules by a variant of its own}"
