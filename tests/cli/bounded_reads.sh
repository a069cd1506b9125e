# bounded_reads.sh - review r3 N6: what the workbench reads from files an
# instructor or a learner hands it is capped (docs/bad-input.md): a
# lesson's ```timeline history and `workbench timeline` at 16 MiB,
# `progress import` (a file or stdin) and `class report` at 64 MiB.  A
# device (/dev/zero) is refused as "not a regular file", a file over the
# limit before a byte of it is read (a 100 GB sparse file answers at
# once), and an endless pipe (`yes | workbench progress import -`) after
# the limit.  Each used to read until "workbench: out of memory" (rc 134)
# under a 1-1.5 GB `ulimit -v`, and without one until the machine ran out.
# Every command here runs under `ulimit -v 1000000` (and `timeout`), so a
# regression fails the test instead of taking the machine down.
. "$(dirname "$0")/../lib/common.sh"

LIMIT_KB=1000000
# A sanitizer build reserves terabytes of address space: it cannot run
# under ulimit -v at all.
(ulimit -v $LIMIT_KB && "$WB_BIN" --help) >/dev/null 2>&1 ||
	skip "the binary does not start under ulimit -v $LIMIT_KB (a sanitizer build?)"

# capped EXPECTED-RC PATTERN CMD...: CMD under the memory cap exits
# EXPECTED-RC within 60 s, with PATTERN (grep -E) in its output.
capped() {
	want=$1 pat=$2
	shift 2
	(ulimit -v $LIMIT_KB && exec timeout 60 "$@") >"$T/out" 2>&1
	rc=$?
	[ $rc -eq "$want" ] || fail "$*: exit $rc, expected $want: $(head -c 400 "$T/out")"
	grep -qE "$pat" "$T/out" || fail "$*: no '$pat' in: $(head -c 400 "$T/out")"
}

truncate -s 100G "$T/huge" || skip "cannot make a sparse file in $T"
printf '[]' >"$T/empty.json"
DB="--db $T/p.db"

# progress import: a device, a file over 64 MiB, an endless pipe.
capped 1 "cannot read /dev/zero: not a regular file.*nothing was imported" \
	"$WB_BIN" $DB progress import /dev/zero
capped 1 "cannot read $T/huge: larger than 64 MiB" "$WB_BIN" $DB progress import "$T/huge"
# shellcheck disable=SC2016
capped 1 "cannot read standard input: larger than 64 MiB.*nothing was imported" \
	sh -c 'yes | "$1" --db "$2" progress import -' sh "$WB_BIN" "$T/p.db"
# and what fits is still read, from a file and from stdin
capped 0 "imported 0 answers" "$WB_BIN" $DB progress import "$T/empty.json"
# shellcheck disable=SC2016
capped 0 "imported 0 answers" sh -c '"$1" --db "$2" progress import - <"$3"' sh "$WB_BIN" \
	"$T/p.db" "$T/empty.json"

# class report: checked before reading (it read the whole file, then
# compared the size).
capped 1 "/dev/zero: not a regular file" "$WB_BIN" class report /dev/zero
capped 1 "$T/huge: larger than 64 MiB" "$WB_BIN" class report "$T/huge"

# timeline FILE
capped 1 "/dev/zero: not a regular file" "$WB_BIN" timeline /dev/zero
capped 1 "$T/huge: larger than 16 MiB" "$WB_BIN" timeline "$T/huge"

# A lesson's ```timeline block naming /dev/zero (a symlink in the
# instructor's content) or a huge history: `lesson show` shows the
# "cannot be shown" line and the rest of the lesson, `lesson lint`
# reports it as an error at the block, like an oversized lesson.
C="$T/c"
mkdir -p "$C/lessons/en" "$C/lessons/timelines"
L="$C/lessons/en/01-locks-ids-leases.md"
printf '# Z\n\n```timeline\nzero\n```\n\nafter the block\n' >"$L"
ln -s /dev/zero "$C/lessons/timelines/zero.jsonl"
capped 0 "after the block" "$WB_BIN" --content "$C" $DB lesson show 01-locks-ids-leases
capped 1 "01-locks-ids-leases.md:4: timeline 'zero': .*zero.jsonl: not a regular file" \
	"$WB_BIN" --content "$C" lesson lint "$L"
rm "$C/lessons/timelines/zero.jsonl"
ln -s "$T/huge" "$C/lessons/timelines/zero.jsonl"
capped 0 "after the block" "$WB_BIN" --content "$C" $DB lesson show 01-locks-ids-leases
capped 1 "01-locks-ids-leases.md:4: timeline 'zero': .*zero.jsonl: larger than 16 MiB" \
	"$WB_BIN" --content "$C" lesson lint "$L"
echo ok
