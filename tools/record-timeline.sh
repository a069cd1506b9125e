#!/bin/sh
# record-timeline.sh - records the timeline a lesson embeds from a real run
# of a lab: runs `workbench lab run ID --json` (real servers, a private
# progress database and run folder) and keeps the op, mark and checker
# events, the lines `workbench timeline` and the lessons' ```timeline block
# draw.  It does not edit the lessons' text and it writes nothing when the
# run fails: a failed run is no story to tell.
#
#   tools/record-timeline.sh ID [OUT]
#
# OUT defaults to lessons/timelines/ID.jsonl in this source tree ("-":
# stdout).  The binary is $WB_BIN, else build/workbench.  Exit 0 when the
# lab passed and OUT was written, 1 when the run failed (its events go to
# stderr), 2 on a usage error.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${WB_BIN:-$here/build/workbench}
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ -z "$1" ]; then
	echo "usage: $0 ID [OUT]" >&2
	exit 2
fi
id=$1
case $id in
*[!a-z0-9-]*)
	echo "$0: '$id' is not a lab id" >&2
	exit 2
	;;
esac
out=${2:-$here/lessons/timelines/$id.jsonl}
[ -x "$bin" ] || {
	echo "$0: no workbench binary at $bin (build first, or set WB_BIN)" >&2
	exit 2
}
tmp=$(mktemp -d /tmp/wb-record.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/runs"
rc=0
WORKBENCH_RUN_BASE="$tmp/runs" "$bin" --db "$tmp/progress.db" lab run "$id" --json \
	>"$tmp/events" 2>"$tmp/err" || rc=$?
if [ $rc -ne 0 ]; then
	cat "$tmp/events" "$tmp/err" >&2
	# The run folder goes with $tmp: the servers' last log lines first,
	# where a CI log shows them.
	find "$tmp/runs" -name zookeeper.log 2>/dev/null | sort | while read -r log; do
		echo "--- last lines of ${log#"$tmp/runs/"} ---" >&2
		tail -n 40 "$log" | LC_ALL=C tr -d '\000-\010\013-\037\177' >&2
	done
	echo "$0: lab $id exited $rc; nothing written" >&2
	exit 1
fi
grep -E '^\{"t":"(op|mark|checker)",' "$tmp/events" >"$tmp/timeline" || {
	echo "$0: lab $id recorded no operation history" >&2
	exit 1
}
if [ "$out" = - ]; then
	cat "$tmp/timeline"
else
	cp "$tmp/timeline" "$out"
fi
