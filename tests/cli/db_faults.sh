# db_faults.sh - the progress database in the bad states of
# docs/bad-input.md, through the real binary: full (F7, forced with
# WORKBENCH_TEST_DB_SPARE_PAGES: SQLite's max_page_count gives SQLITE_FULL
# as a full disk does), locked at start-up by another program (F8),
# damaged or an empty file we did not make (F11), no usable home (F13),
# read-only in WAL mode (F14), a path too long for SQLite (F15) and new
# files private whatever the umask (F17).  Every case: a message that
# says the cause, the exit code, and the file unchanged.
. "$(dirname "$0")/../lib/common.sh"

export HOME="$T/home" XDG_DATA_HOME="$T/xdg"
writer= # the lock holder's input writer, killed on the way out
trap '[ -n "$writer" ] && kill "$writer" 2>/dev/null; cleanup' EXIT INT TERM
unset WORKBENCH_DB
mkdir -p "$HOME"
C="--content $WB_FIXTURES"
out=$T/out err=$T/err

# run RC WHAT CMD...: CMD (stdin from $T/in when it exists, else empty)
# exits RC.
run() {
	want=$1 what=$2
	shift 2
	rc=0
	if [ -f "$T/in" ]; then "$@" <"$T/in" >"$out" 2>"$err" || rc=$?; else "$@" </dev/null >"$out" 2>"$err" || rc=$?; fi
	[ $rc -eq "$want" ] || fail "$what: exit $rc, want $want: $(cat "$out" "$err" | cut -c1-300)"
}
has() { grep -q -F -- "$2" "$1" || fail "no '$2' in $1: $(cut -c1-300 "$1")"; }
hasnt() { grep -q -F -- "$2" "$1" && fail "'$2' in $1: $(cut -c1-300 "$1")"; return 0; }
answers() { sqlite3 "$1" "SELECT count(*) FROM quiz_answer"; }

# ---- F7: full.  A recall answer needs new pages; none are left. ----
DB=$T/full.db
WORKBENCH_SEED=1 "$WB_BIN" $C --db "$DB" quiz run 00-fixture --plain </dev/null >/dev/null 2>&1
long=$(head -c 6000 /dev/zero | tr '\0' x)
printf '%s\n.\nall\ng\n\n:quit\n' "$long" >"$T/in"
sum=$(cksum <"$DB")
run 1 "full: the plain runner" env WORKBENCH_TEST=1 WORKBENCH_TEST_DB_SPARE_PAGES=0 "$WB_BIN" $C --db "$DB" \
	quiz run 00-fixture --plain
has "$out" "No space left on device: the answer was not saved; nothing saved before is lost."
has "$out" "Free some space and press Enter to try again · :quit: pause the test"
[ "$(grep -c "No space left on device" "$out")" -eq 2 ] || fail "full: Enter did not try again"
has "$out" "Test paused"
hasnt "$out" "cannot rollback"
hasnt "$out" "Could not save the answer"
[ "$(answers "$DB")" -eq 0 ] || fail "full: an answer was stored"
# With room again the same command resumes and saves.
printf '%s\n.\nall\ng\n' "$long" >"$T/in"
run 1 "full: after freeing space (pauses at the end of input)" "$WB_BIN" $C --db "$DB" quiz run 00-fixture --plain
has "$out" "Resumed: 0 of 6 answered"
has "$out" "Saved: Got it"
[ "$(answers "$DB")" -ge 1 ] || fail "full: nothing saved after freeing space"
rm -f "$T/in"
# Starting a test that does not fit: the cause, not SQLite's words.
mkdir -p "$T/q/en"
{
	echo "# Self-test: many"
	i=0
	while [ $i -lt 300 ]; do
		printf '\n## [q-%s-%03d] N?\nkind: numeric\nanswer: 1\n\n### Answer\n1\n' \
			"$(printf '%040d' 0 | tr 0 a)" $i
		i=$((i + 1))
	done
} >"$T/q/en/00-fixture.md"
run 1 "full: starting a test" env WORKBENCH_TEST=1 WORKBENCH_TEST_DB_SPARE_PAGES=0 "$WB_BIN" $C --quizzes "$T/q" \
	--db "$T/start.db" quiz run 00-fixture --plain
[ -s "$T/start.db" ] || fail "full: no database made before the hook"
has "$err" "cannot start the test: no space left on device; nothing saved before is lost"

# ---- F8: locked at start-up by a program holding locking_mode=EXCLUSIVE ----
DB=$T/locked.db
cp "$T/full.db" "$DB"
mkfifo "$T/hold"
sqlite3 "$DB" <"$T/hold" >"$T/held" 2>&1 &
holder=$!
{ # the holder's input stays open until this writer is killed
	echo "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; SELECT 'held', count(*) FROM quiz_answer;"
	exec sleep 600
} >"$T/hold" &
writer=$!
deadline=$(($(date +%s) + 30))
until grep -q held "$T/held"; do
	[ "$(date +%s)" -lt $deadline ] || fail "the sqlite3 holder did not take the lock: $(cat "$T/held")"
	sleep 0.05
done
sum=$(cksum <"$DB")
run 1 "locked: quiz stats" "$WB_BIN" $C --db "$DB" quiz stats
has "$err" "locked.db is locked by another program"
hasnt "$err" "not a usable progress database"
kill "$writer"
wait "$holder"
writer=
[ "$(cksum <"$DB")" = "$sum" ] || fail "locked: the file changed"
run 0 "locked: after the release" "$WB_BIN" $C --db "$DB" quiz stats

# ---- F11: damaged, and an empty file we did not make ----
DB=$T/damaged.db
cp "$T/full.db" "$DB"
sqlite3 "$DB" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
	INSERT INTO lab_runs (lab, passed, verdict, ms, evidence, finished_at)
	SELECT 'id-collision', 1, 0, i, hex(randomblob(1000)), i FROM n;" || fail "filling lab_runs"
pages=$(($(stat -c %s "$DB") / 4096))
[ $pages -gt 10 ] || fail "damaged: only $pages pages"
# The page type byte of the last page (a lab_runs leaf): garbage.
printf '\125' | dd of="$DB" bs=1 seek=$(((pages - 1) * 4096)) conv=notrunc 2>/dev/null
sqlite3 "$DB" "PRAGMA quick_check" | grep -q -v '^ok$' || fail "damaged: the damage is not seen"
sum=$(cksum <"$DB")
for cmd in "quiz stats" "quiz run 00-fixture --plain" "lab run id-collision"; do
	want=1
	[ "$cmd" = "lab run id-collision" ] && want=0 # the lab runs; its run is not recorded
	run $want "damaged: $cmd" "$WB_BIN" $C --db "$DB" $cmd
	has "$err" "damaged.db is damaged (quick_check: "
	has "$err" "nothing was written: restore a backup or move it away"
done
has "$err" "run not recorded"
[ "$(cksum <"$DB")" = "$sum" ] || fail "damaged: the file was written to"
: >"$T/empty.db"
run 1 "empty file" "$WB_BIN" $C --db "$T/empty.db" quiz run 00-fixture --plain
has "$err" "empty.db is an empty file, not a progress database; nothing was written"
[ ! -s "$T/empty.db" ] && [ ! -e "$T/empty.db-wal" ] || fail "empty file: written to"

# ---- F13: no usable home ----
mkdir "$T/cwd"
cd "$T/cwd"
run 1 "relative XDG_DATA_HOME (pauses: no input)" env XDG_DATA_HOME=rel/data "$WB_BIN" $C \
	quiz run 00-fixture --plain
[ -f "$HOME/.local/share/workbench/progress.db" ] || fail "relative XDG_DATA_HOME: not ignored"
[ ! -e "$T/cwd/rel" ] || fail "relative XDG_DATA_HOME: used relative to the current directory"
: >"$T/xdgfile"
run 1 "XDG_DATA_HOME a file" env XDG_DATA_HOME="$T/xdgfile" "$WB_BIN" $C quiz run 00-fixture --plain
has "$err" "cannot create the folder $T/xdgfile for the progress database: a file is in the way"
if [ "$(id -u)" -eq 0 ]; then
	# Users without a HOME: nobody (passwd home /nonexistent) and a uid
	# with no passwd entry at all.  The binary is copied where they can
	# run it.
	chmod 711 "$T" && chmod 777 "$T/cwd"
	cp "$WB_BIN" "$T/wb-copy" && chmod 755 "$T/wb-copy"
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	run 1 "HOME unset, nobody" $nobody env -u HOME -u XDG_DATA_HOME "$T/wb-copy" $C quiz stats
	run 1 "HOME unset, nobody, writing" $nobody env -u HOME -u XDG_DATA_HOME "$T/wb-copy" $C \
		quiz run 00-fixture --plain
	has "$err" "cannot create the folder /nonexistent"
	run 1 "HOME empty, no passwd entry" setpriv --reuid=43210 --regid=43210 --clear-groups \
		env -u XDG_DATA_HOME HOME= "$T/wb-copy" $C quiz run 00-fixture --plain
	has "$err" "no place for the progress database: HOME is not set"
	[ -z "$(ls -A "$T/cwd")" ] || fail "HOME unset: progress went to the current directory: $(ls -A "$T/cwd")"
	mkdir -p "$T/rohome" && chmod 555 "$T/rohome"
	run 1 "read-only HOME" $nobody env -u XDG_DATA_HOME HOME="$T/rohome" "$T/wb-copy" $C \
		quiz run 00-fixture --plain
	has "$err" "cannot create the folder $T/rohome/.local for the progress database: Permission denied"
	run 0 "read-only HOME: lessons" $nobody env HOME="$T/rohome" "$T/wb-copy" $C lessons

	# ---- F14: a read-only WAL database (file 0444, folder 0555) ----
	mkdir "$T/ro"
	"$WB_BIN" $C --db "$T/ro/ro.db" quiz run 00-fixture --plain </dev/null >/dev/null 2>&1
	[ "$(sqlite3 "$T/ro/ro.db" 'PRAGMA journal_mode')" = wal ] || fail "read-only: not a WAL file"
	chmod 444 "$T/ro/ro.db" && chmod 555 "$T/ro"
	sum=$(cksum <"$T/ro/ro.db")
	for cmd in "quiz stats" "quiz run 00-fixture --plain"; do
		run 1 "read-only WAL: $cmd" $nobody env HOME=/nonexistent "$T/wb-copy" $C --db "$T/ro/ro.db" $cmd
		has "$err" "cannot use progress database $T/ro/ro.db: it is read-only"
		has "$err" "Nothing was changed"
	done
	[ "$(cksum <"$T/ro/ro.db")" = "$sum" ] || fail "read-only WAL: the file changed"
	[ "$(ls -A "$T/ro")" = ro.db ] || fail "read-only WAL: files left: $(ls -A "$T/ro")"
	chmod 755 "$T/ro"
fi
cd "$T"

# ---- F15: a path too long for SQLite: the reason is not cut off ----
long=$T/$(printf '%0700d' 0).db
run 1 "long --db" "$WB_BIN" $C --db "$long" quiz run 00-fixture --plain
has "$err" "path too long (${#long} characters; SQLite's limit is"
has "$err" "choose a shorter --db path"

# ---- F17: new files are private whatever the umask ----
(umask 000 && "$WB_BIN" $C --db "$T/private.db" quiz run 00-fixture --plain </dev/null >/dev/null 2>&1)
[ "$(stat -c %a "$T/private.db")" = 600 ] || fail "--db file mode $(stat -c %a "$T/private.db")"
for side in wal shm; do
	[ ! -e "$T/private.db-$side" ] || [ "$(stat -c %a "$T/private.db-$side")" = 600 ] ||
		fail "-$side mode $(stat -c %a "$T/private.db-$side")"
done
(umask 000 && env XDG_DATA_HOME="$T/xdg2" "$WB_BIN" $C quiz run 00-fixture --plain </dev/null >/dev/null 2>&1)
[ "$(stat -c %a "$T/xdg2/workbench")" = 700 ] || fail "default folder mode $(stat -c %a "$T/xdg2/workbench")"
[ "$(stat -c %a "$T/xdg2/workbench/progress.db")" = 600 ] || fail "default file mode"
echo ok
