# output_guard.sh - the output files of `progress export -o`, `lab run
# --history/--timeline` and `timeline --svg` (base/outfile.h, review r3
# N1): naming the progress database in use, directly, through a symbolic
# link, a hard link or as its -wal file, is refused with exit != 0 and
# the database keeps every answer; an existing file is replaced only with
# --force (and then whole); a target that cannot be written makes `lab
# run` exit non-zero even after a pass (N17), and leaves no file.  The
# lab is task-takeover (SQLite only, a fraction of a second).
. "$(dirname "$0")/../lib/common.sh"

command -v sqlite3 >/dev/null || skip "sqlite3 not installed"
export WORKBENCH_RUN_BASE="$T/runs" XDG_DATA_HOME="$T/xdg"
mkdir -p "$T/runs"
DB="$T/p.db"
WB="$WB_BIN --db $DB"
QWB="$WB --lang en --content $WB_FIXTURES"
printf 'answer\n.\n1\np\n4096\n69.8\n' |
	WORKBENCH_SEED=1 $QWB quiz run 00-fixture --plain --limit 3 >"$T/out" 2>&1 ||
	fail "the test: $(cat "$T/out")"
n0=$(sqlite3 "$DB" 'select count(*) from quiz_answer') || fail "no database made"
[ "$n0" -ge 1 ] || fail "no answer recorded to protect"
F="$WB_FIXTURES/timeline/stale-read.jsonl"

intact() { # WHAT: the database still holds every answer
	n=$(sqlite3 "$DB" 'select count(*) from quiz_answer' 2>&1)
	[ "$n" = "$n0" ] || fail "$1: the database lost its answers ($n)"
	$QWB quiz stats >/dev/null 2>&1 || fail "$1: quiz stats no longer reads the database"
}

refused() { # WHAT CMD...: CMD exits non-zero, says why, database intact
	what=$1
	shift
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	[ $rc -ne 0 ] || fail "$what: exit 0"
	grep -q "refusing to write .*progress database" "$T/err" || fail "$what: says $(cat "$T/err")"
	intact "$what"
}

ln -s p.db "$T/link.csv"
ln "$DB" "$T/hard.csv"
$QWB quiz stats >/dev/null # a -wal may exist now
for target in "$DB" "$T/link.csv" "$T/hard.csv" "$DB-wal"; do
	refused "progress export -o $target" $WB progress export -o "$target"
	refused "progress export json -o $target --force" $WB progress export --format json -o "$target" --force
	refused "lab run --history $target" $WB lab run task-takeover --history "$target" --force
	refused "lab run --timeline $target" $WB lab run task-takeover --timeline "$target" --force
	refused "timeline --svg $target" $WB timeline "$F" --svg "$target" --force
done
# the default location, from the data folder, by a relative name
mkdir -p "$T/xdg/workbench"
cp "$DB" "$T/xdg/workbench/progress.db"
(cd "$T/xdg/workbench" && "$WB_BIN" progress export --format json -o progress.db) >/dev/null 2>&1 &&
	fail "export -o progress.db in the data folder: exit 0"
[ "$(sqlite3 "$T/xdg/workbench/progress.db" 'select count(*) from quiz_answer')" = "$n0" ] ||
	fail "export -o progress.db in the data folder damaged it"
# a database that does not exist yet: its name is refused before the run
rm -f "$T/new.db"
rc=0
"$WB_BIN" --db "$T/new.db" lab run task-takeover --history "$T/new.db" >/dev/null 2>"$T/err" || rc=$?
[ $rc -ne 0 ] && grep -q "refusing to write" "$T/err" || fail "--history naming a new database: exit $rc"

# an existing file: refused without --force (kept as it was), replaced with it
echo keep >"$T/old.csv"
rc=0
$WB progress export -o "$T/old.csv" >/dev/null 2>"$T/err" || rc=$?
[ $rc -eq 1 ] && grep -q "old.csv exists; add --force" "$T/err" || fail "export over a file: exit $rc, $(cat "$T/err")"
[ "$(cat "$T/old.csv")" = keep ] || fail "export without --force changed the file"
$WB progress export -o "$T/old.csv" --force || fail "export --force failed"
head -1 "$T/old.csv" | grep -q '^uid,learner,' || fail "export --force wrote no CSV"
cp "$T/old.csv" "$T/old.svg"
rc=0
$WB timeline "$F" --svg "$T/old.svg" >/dev/null 2>"$T/err" || rc=$?
[ $rc -eq 1 ] && grep -q "exists; add --force" "$T/err" || fail "timeline --svg over a file: exit $rc"
cmp -s "$T/old.csv" "$T/old.svg" || fail "timeline --svg without --force changed the file"
$WB timeline "$F" --svg "$T/old.svg" --force >/dev/null || fail "timeline --svg --force failed"
tail -1 "$T/old.svg" | grep -q '</svg>' || fail "timeline --svg --force wrote no SVG"
echo keep >"$T/h.jsonl"
rc=0
$WB lab run task-takeover --history "$T/h.jsonl" >/dev/null 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q "exists; add --force" "$T/err" || fail "--history over a file: exit $rc"
grep -q "^keep$" "$T/h.jsonl" || fail "--history without --force changed the file"
$WB lab run task-takeover --history "$T/h.jsonl" --timeline "$T/t.svg" --force >"$T/out" 2>&1 ||
	{ cat "$T/out" >&2; fail "lab run --history --force failed"; }
grep -q '"type":"invoke"' "$T/h.jsonl" || fail "--history --force wrote no history"
grep -q "^timeline: $T/t.svg$" "$T/out" || fail "lab run does not name the timeline it wrote"
tail -1 "$T/t.svg" | grep -q '</svg>' || fail "--timeline wrote no SVG"
intact "after the good runs"

# a target that cannot be written: lab run exits non-zero after a pass
rc=0
$WB lab run task-takeover --history /dev/full >"$T/out" 2>"$T/err" || rc=$?
grep -q "^PASS" "$T/out" || fail "the lab did not pass: $(cat "$T/out")"
[ $rc -ne 0 ] || fail "--history /dev/full: exit 0"
grep -q "cannot write /dev/full" "$T/err" || fail "--history /dev/full says: $(cat "$T/err")"
# a timeline that cannot be drawn (a lab without operations) is no exit 0
rc=0
$WB lab run id-collision --timeline "$T/none.svg" >"$T/out" 2>"$T/err" || rc=$?
[ $rc -ne 0 ] || fail "--timeline of a lab without operations: exit 0"
[ ! -e "$T/none.svg" ] || fail "--timeline left a file though nothing was drawn"
# no temporary file is left beside the targets
ls -a "$T" | grep -q '^\.[^.].*\.[A-Za-z0-9]\{6\}$' && fail "a temporary file was left: $(ls -a "$T")"
echo ok
