# db_full_tmpfs.sh - a really full disk (F7): the progress database on a
# 600 KiB tmpfs filled up to a few KiB.  Saving an answer says "No space
# left on device: the answer was not saved; nothing saved before is
# lost" and offers to try again; after space is freed the same command
# resumes and saves; a disk full already at start-up says "no space left
# on device" instead of only "disk I/O error".  Mounting needs root: skipped (77) otherwise.
# db_faults.sh covers the same messages unprivileged (max_page_count).
. "$(dirname "$0")/../lib/common.sh"

[ "$(id -u)" -eq 0 ] || skip "mounting a tmpfs needs root"
M=$T/full
mkdir "$M"
mount -t tmpfs -o size=600k tmpfs "$M" 2>/dev/null || skip "mount -t tmpfs is not permitted here"
trap 'umount "$M" 2>/dev/null; cleanup' EXIT INT TERM
C="--content $WB_FIXTURES"
DB=$M/p.db

# Something saved (a lab run) and a test under way, its first question a
# recall one (WORKBENCH_SEED=1), nothing answered yet.
"$WB_BIN" --db "$DB" lab run id-collision >"$T/out" 2>&1 || fail "setting up: $(cat "$T/out")"
WORKBENCH_SEED=1 "$WB_BIN" $C --db "$DB" quiz run 00-fixture --plain </dev/null >"$T/out" 2>&1
grep -q "Question 1 of 6 \[fixture-notify\]" "$T/out" || fail "setting up: $(head -5 "$T/out")"
answers() { sqlite3 "$DB" "SELECT count(*) FROM quiz_answer"; }
saved() { sqlite3 "$DB" "SELECT (SELECT count(*) FROM lab_runs) || '/' || (SELECT count(*) FROM quiz_test)"; }
before=$(saved)
[ "$before" = 1/1 ] || fail "setting up: $before"

fill() {
	avail=$(df -k --output=avail "$M" | tail -1)
	dd if=/dev/zero of="$M/filler" bs=1k count=$((avail - $1)) 2>/dev/null
}
# Full already at start-up (no room for the WAL index): the cause is
# named, not "disk I/O error", and nothing is lost.
fill 16
"$WB_BIN" $C --db "$DB" quiz run 00-fixture --plain </dev/null >"$T/out" 2>"$T/err"
grep -q "cannot use progress database $DB: no space left on device" "$T/err" ||
	fail "start-up on a full disk: $(cat "$T/out" "$T/err")"
rm -f "$M/filler"
[ "$(saved)" = "$before" ] || fail "start-up on a full disk: $(saved), want $before"

# Room for the WAL index and its first frames, not for a long answer.
fill 56
long=$(head -c 60000 /dev/zero | tr '\0' x)
printf '%s\n.\nall\ng\n\n:quit\n' "$long" | "$WB_BIN" $C --db "$DB" quiz run 00-fixture --plain \
	>"$T/out" 2>"$T/err"
grep -q "No space left on device: the answer was not saved; nothing saved before is lost." "$T/out" ||
	fail "full disk, saving: $(tail -5 "$T/out") $(cat "$T/err")"
grep -q "Free some space and press Enter to try again" "$T/out" || fail "no retry offered"
grep -q "cannot rollback" "$T/out" "$T/err" && fail "the rollback's message was shown"
rm -f "$M/filler"
[ "$(saved)" = "$before" ] && [ "$(answers)" -eq 0 ] || fail "full disk: $(saved), $(answers) answers"
[ "$(sqlite3 "$DB" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after the full disk"

# Room again: the same command resumes and saves.
printf 'short\n.\nall\ng\n' | "$WB_BIN" $C --db "$DB" quiz run 00-fixture --plain >"$T/out" 2>&1
grep -q "Resumed: 0 of 6 answered" "$T/out" || fail "not resumed: $(head -3 "$T/out")"
grep -q "Saved:" "$T/out" || fail "not saved after freeing space: $(tail -5 "$T/out")"
[ "$(answers)" -eq 1 ] || fail "after freeing space: $(answers) answers, want 1"

echo ok
