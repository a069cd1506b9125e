# db_path.sh - where the progress database may be created (ux.md #6): a
# mistyped --db (its folder does not exist) is an error that creates
# nothing, read-only commands (quiz stats, progress export) never create
# a database ("no progress database at PATH"), and folders are made for
# the default XDG location only.
. "$(dirname "$0")/../lib/common.sh"

export XDG_DATA_HOME="$T/xdg" HOME="$T/home" WORKBENCH_RUN_BASE="$T/runs"
unset WORKBENCH_DB
mkdir -p "$HOME" "$WORKBENCH_RUN_BASE"
C="--content $WB_FIXTURES"
typo="$T/progres-typo/x.db"

# expect RC PATTERN WHAT CMD...: CMD exits RC with PATTERN on stderr.
expect() {
	want=$1 pat=$2 what=$3
	shift 3
	rc=0
	"$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	[ $rc -eq "$want" ] || fail "$what: exit $rc, want $want: $(cat "$T/out" "$T/err")"
	grep -q -- "$pat" "$T/err" || fail "$what: no '$pat' in: $(cat "$T/err")"
}

# Read-only commands on a mistyped path: an error, nothing created.
expect 1 "no progress database at $typo" "quiz stats --db typo" "$WB_BIN" $C --db "$typo" quiz stats
expect 1 "no progress database at $typo" "progress export --db typo" \
	"$WB_BIN" $C --db "$typo" progress export --format json
grep -q '"answers"' "$T/out" && fail "progress export of a missing database printed an export"
[ ! -e "$T/progres-typo" ] || fail "a read-only command created $T/progres-typo"
# A missing file in an existing folder: the same, and no file appears.
expect 1 "no progress database at $T/none.db" "quiz stats, missing file" \
	"$WB_BIN" $C --db "$T/none.db" quiz stats
[ ! -e "$T/none.db" ] || fail "quiz stats created $T/none.db"
# The default location when nothing was ever written: no folder either.
expect 1 "no progress database at $XDG_DATA_HOME/workbench/progress.db" \
	"quiz stats, default location" "$WB_BIN" $C quiz stats
[ ! -e "$XDG_DATA_HOME" ] || fail "quiz stats created $XDG_DATA_HOME"

# Writing commands on a mistyped path: an error naming the folder.
printf 'uid,learner\n' >"$T/empty.csv"
expect 1 "no folder $T/progres-typo for the progress database" "progress import --db typo" \
	"$WB_BIN" $C --db "$typo" progress import "$T/empty.csv"
expect 1 "no folder $T/progres-typo" "the TUI with --db typo" "$WB_BIN" $C --db "$typo"
expect 1 "no folder $T/progres-typo" "WORKBENCH_DB typo" \
	env WORKBENCH_DB="$typo" "$WB_BIN" $C quiz run 00-fixture --plain
[ ! -e "$T/progres-typo" ] || fail "a mistyped --db created $T/progres-typo"

# The default location: its folders are made by a command that writes.
"$WB_BIN" lab run id-collision >"$T/out" 2>&1 || fail "lab run id-collision: $(cat "$T/out")"
[ -f "$XDG_DATA_HOME/workbench/progress.db" ] || fail "the default database was not created"
grep -q "not recorded" "$T/out" && fail "the lab run was not recorded: $(cat "$T/out")"
"$WB_BIN" $C quiz stats >"$T/out" 2>"$T/err" || fail "quiz stats, default: $(cat "$T/err")"
grep -q "no graded answers yet" "$T/out" || fail "quiz stats, default: $(cat "$T/out")"
# An explicit path in an existing folder may be a new database.
"$WB_BIN" $C --db "$XDG_DATA_HOME/workbench/progress.db" progress export --format json >"$T/exp.json" ||
	fail "progress export of the default database by path"
"$WB_BIN" $C --db "$T/new.db" progress import "$T/exp.json" >"$T/out" 2>"$T/err" ||
	fail "progress import into a new file in an existing folder: $(cat "$T/err")"
[ -f "$T/new.db" ] || fail "progress import did not create $T/new.db"
echo ok
