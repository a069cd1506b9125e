#!/bin/sh
# exercise_checks.sh - what the exercises' checks cost and how much they
# catch: per exercise, the reference solution's check run N times (median
# and p90 wall time, passes), the checks, situations and schedules it
# reports, and its mutation score (tools/mutate: killed / (killed +
# survived), stillborn and equivalent mutants left out).  One Markdown
# table on stdout; progress on stderr.
#
# Situations and schedules come from the check's --json events: the
# evidence keys "situations" and "schedules" (labs/exercises/spec.h), or a
# "t":"spec" event with those fields; a check that reports neither shows
# "-" there (its "t":"check" events are still counted).  Every run has a
# private WORKBENCH_RUN_BASE, XDG_DATA_HOME and WORKBENCH_DB (the user's
# progress is never touched).  It asserts nothing (timings are no test
# conditions) and runs checks one at a time, mutants with -j.
#
#   bench/exercise_checks.sh [-n N] [--bin PATH] [-j J] [--no-mutation] [ID...]
#
# N defaults to 10, PATH to $BUILD_DIR/workbench (BUILD_DIR defaults to
# build), J (tools/mutate's parallel checks) to 2.  Exit: 0 when every
# reference passed every run, 1 otherwise, 2 on bad usage.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
n=10 jobs=2 mutation=1
bin=${BUILD_DIR:-$here/build}/workbench
usage() {
	echo "usage: bench/exercise_checks.sh [-n N] [--bin PATH] [-j J] [--no-mutation] [ID...]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	-n) [ $# -ge 2 ] || usage; n=$2; shift 2 ;;
	--bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	--no-mutation) mutation=0; shift ;;
	-h | --help) usage ;;
	-*) echo "exercise_checks: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
case "$n" in '' | *[!0-9]* | 0) echo "exercise_checks: -n wants a positive number" >&2; exit 2 ;; esac
[ -x "$bin" ] || {
	echo "exercise_checks: no workbench binary at $bin (--bin, BUILD_DIR)" >&2
	exit 2
}
command -v python3 >/dev/null || { echo "exercise_checks: needs python3" >&2; exit 2; }
if [ $# -eq 0 ]; then
	set -- $(cd "$here/exercises" && for d in *; do [ -d "$d" ] && echo "$d"; done)
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

echo "exercise_checks: $n runs per reference with $bin; load at start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| exercise | lang | pass | median ms | p90 ms | checks | situations | schedules | mutation score |"
echo "|---|---|---|---|---|---|---|---|---|"
status=0
for id in "$@"; do
	sol=$(ls "$here/exercises/$id"/solution.* 2>/dev/null | head -n 1)
	if [ -z "$sol" ]; then
		echo "exercise_checks: no exercises/$id/solution.*" >&2
		status=1
		continue
	fi
	: >"$T/times"
	pass=0 i=1
	while [ "$i" -le "$n" ]; do
		rm -rf "$T/run" "$T/data" "$T/p.db"
		mkdir -p "$T/run"
		t0=$(date +%s%N)
		rc=0
		WORKBENCH_RUN_BASE="$T/run" XDG_DATA_HOME="$T/data" WORKBENCH_DB="$T/p.db" \
			"$bin" exercise check "$id" --file "$sol" --json >"$T/out.json" 2>"$T/out.err" || rc=$?
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000)) >>"$T/times"
		[ $rc -eq 0 ] && pass=$((pass + 1))
		[ $rc -eq 0 ] && cp "$T/out.json" "$T/last-pass.json"
		i=$((i + 1))
	done
	[ "$pass" -eq "$n" ] || status=1
	[ -f "$T/last-pass.json" ] || cp "$T/out.json" "$T/last-pass.json"
	score="-"
	if [ "$mutation" -eq 1 ]; then
		echo "exercise_checks: $id: mutation run" >&2
		python3 "$here/tools/mutate" --bin "$bin" -j "$jobs" --only "$id" --min-score 0 \
			--json-file "$T/mut.json" >/dev/null 2>"$T/mut.err" || true
		score=$(python3 -c '
import json, sys
try:
    e = json.load(open(sys.argv[1]))["exercises"][0]
except (OSError, ValueError, IndexError, KeyError):
    print("(not run)"); sys.exit()
if e["state"] in ("could-not-run", "reference-fails"):
    print("(" + e["state"] + ")"); sys.exit()
s = e["score"]
extra = ", %d errors" % e["errors"] if e["errors"] else ""
print("%s (%d/%d%s)" % ("n/a" if s is None else "%.2f" % s, e["killed"],
                        e["killed"] + e["survived"], extra))' "$T/mut.json")
	fi
	python3 - "$T/times" "$T/last-pass.json" "$id" "${sol##*.}" "$pass/$n" "$score" <<'EOF'
import json, math, sys
times = sorted(int(x) for x in open(sys.argv[1]) if x.strip())
med = (times[(len(times) - 1) // 2] + times[len(times) // 2]) / 2
p90 = times[max(0, math.ceil(0.9 * len(times)) - 1)]
checks, sit, sch = 0, None, None
for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    t = e.get("t")
    if t == "check":
        checks += 1
    elif t == "evidence" and e.get("key") in ("situations", "schedules"):
        try:
            v = int(str(e.get("value", "")).split()[0])
        except (ValueError, IndexError):
            continue
        if e["key"] == "situations":
            sit = (sit or 0) + v
        else:
            sch = (sch or 0) + v
    elif t == "spec":
        if isinstance(e.get("situations"), int):
            sit = (sit or 0) + e["situations"]
        if isinstance(e.get("schedules"), int):
            sch = (sch or 0) + e["schedules"]
d = lambda v: "-" if v is None else str(v)
print("| %s | %s | %s | %.0f | %d | %d | %s | %s | %s |" % (
    sys.argv[3], sys.argv[4], sys.argv[5], med, p90, checks, d(sit), d(sch), sys.argv[6]))
EOF
	rm -f "$T/last-pass.json"
done
echo "exercise_checks: load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit $status
