#!/bin/sh
# labs_repeat.sh - runs `workbench lab run --all` N times in a row and
# prints, per lab, how many runs failed or could not run and the lab's
# overhead (its time but the waits its story needs: median, largest, runs
# above 1 s, in ms), then the load.
# A flaky lab shows up here; the script asserts nothing and stops at
# nothing (every run goes on to the end).  It does not run labs in
# parallel and does not touch the user's progress database (a temporary
# one is used).
#
#   bench/labs_repeat.sh [N] [BUILD_DIR] [-- extra lab-run args, e.g. --only ID,ID]
#
# Exit: 0 when every lab passed every run, 1 otherwise.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-10}
bin=${2:-$here/build}/workbench
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
[ -x "$bin" ] || {
	echo "labs_repeat: no workbench binary at $bin" >&2
	exit 2
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "labs_repeat: $n runs of lab run --all with $bin; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$n" ]; do
	t0=$(date +%s)
	"$bin" --db "$T/p.db" lab run --all --json "$@" >"$T/run$i.jsonl" 2>"$T/run$i.log" || true
	t1=$(date +%s)
	bad=$(grep -v '"verdict":"pass"' "$T/run$i.jsonl" | sed -n 's/.*"lab":"\([^"]*\)".*"verdict":"\([^"]*\)".*/\1:\2/p' | tr '\n' ' ')
	echo "run $i: $((t1 - t0)) s, load $(cut -d' ' -f1 /proc/loadavg)${bad:+, not passed: $bad}"
	[ -n "$bad" ] && cp "$T/run$i.log" "${TMPDIR:-/tmp}/labs_repeat_run$i.log" &&
		echo "  (its output: ${TMPDIR:-/tmp}/labs_repeat_run$i.log)"
	i=$((i + 1))
done
echo
# Per lab: verdicts, then the overhead (server_ms + other_ms: all but the
# waits its story needs) over its runs: median, largest, runs above 1 s.
printf '%-24s %6s %6s %6s %9s %9s %6s\n' lab pass fail other 'ovh med' 'ovh max' '>1s'
cat "$T"/run*.jsonl | awk '
	# the value of a "key":"text" or "key":number field of this line, "" if none
	function field(k,   r) {
		if (!match($0, "\"" k "\":(\"[^\"]*\"|[0-9]+)")) return ""
		r = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
		gsub(/"/, "", r)
		return r
	}
	/^\{"lab":"/ {
		l = field("lab"); o = field("server_ms") + field("other_ms"); lab[l] = 1
		v[l, ++n[l]] = o; if (o > 1000) slow[l]++
		r = field("verdict"); if (r == "pass") p[l]++; else if (r == "fail") f[l]++; else x[l]++
	}
	END { for (l in lab) {
		# insertion sort of the lab'"'"'s overheads, for the median and the largest
		for (i = 2; i <= n[l]; i++) for (j = i; j > 1 && v[l, j - 1] > v[l, j]; j--) {
			t = v[l, j]; v[l, j] = v[l, j - 1]; v[l, j - 1] = t }
		m = n[l] % 2 ? v[l, (n[l] + 1) / 2] : (v[l, n[l] / 2] + v[l, n[l] / 2 + 1]) / 2
		printf "%-24s %6d %6d %6d %9.0f %9d %6d\n", l, p[l], f[l], x[l], m, v[l, n[l]], slow[l] } }' |
	sort >"$T/table"
cat "$T/table"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '$3 > 0 || $4 > 0 { bad = 1 } END { exit bad }' "$T/table"
