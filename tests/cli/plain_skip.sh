# plain_skip.sh - `quiz run --plain` skips a numeric question like a
# recall one (ux.md, further problems: "Skipping numeric questions in
# plain mode"): "." or an empty line at the number prompt gives no
# answer, shows the expected number and the reference, and saves Again
# with 0 points, as a recall question skipped with "." and no rubric
# point ends (Enter at the grade takes the suggested Again).  A word is
# still refused as before.  The bank is written here.
. "$(dirname "$0")/../lib/common.sh"

mkdir -p "$T/c/quizzes/en"
ln -s "$WB_SRC/lessons" "$T/c/lessons"
cat >"$T/c/quizzes/en/01-locks-ids-leases.md" <<'BANK'
# Self-test: skipping

## [skip-seq-slots] How many sequence values does a 12-bit field give per millisecond?
kind: numeric
answer: 4096

### Answer
2^12 = 4096.

## [skip-recall] Why is a delete notification not the lock?

### Answer
It only says the snapshot is stale.

### Rubric
- 1: the snapshot is stale
BANK
WB="$WB_BIN --lang en --content $T/c --db $T/progress.db --quizzes $T/instructor"
q() { sqlite3 "$T/progress.db" "$1"; }

n=0
for skip in '.' ''; do
	n=$((n + 1))
	# numeric skipped, then recall skipped ("." then Enter, Enter).
	printf '%s\n.\n\n\n' "$skip" | WORKBENCH_SEED=1 $WB quiz run 01-locks-ids-leases --plain >"$T/out" 2>&1 ||
		fail "run skipping with '$skip': $(cat "$T/out")"
	grep -q "is not a number" "$T/out" && fail "'$skip' refused as not a number: $(cat "$T/out")"
	grep -q "Skipped. Expected 4096" "$T/out" || fail "no skip feedback for '$skip': $(cat "$T/out")"
	[ "$(grep -c "Saved: Again, 0/1 points" "$T/out")" = 2 ] ||
		fail "both skips must be saved as Again 0/1: $(cat "$T/out")"
	grep -q "Test finished" "$T/out" || fail "not finished after skipping: $(cat "$T/out")"
	[ "$(q "SELECT grade || ':' || points || ':' || IFNULL(answer, 'NULL') FROM quiz_answer
		WHERE question='skip-seq-slots' ORDER BY rowid DESC LIMIT 1")" = "1:0:NULL" ] ||
		fail "numeric skip stored as: $(q "SELECT * FROM quiz_answer WHERE question='skip-seq-slots'")"
done
[ "$(q "SELECT COUNT(*) FROM quiz_answer WHERE question='skip-seq-slots'")" = $n ] || fail "rows"

# A word is still not a number, and the prompt says how to skip.
printf 'nine\n4096\n.\n\n\n' | WORKBENCH_SEED=1 $WB quiz run 01-locks-ids-leases --plain >"$T/out" 2>&1 ||
	fail "run with a word: $(cat "$T/out")"
grep -q "'nine' is not a number" "$T/out" || fail "a word accepted: $(cat "$T/out")"
grep -qF 'Your answer (a number): ("." or an empty line skips)' "$T/out" || fail "prompt does not say how to skip: $(cat "$T/out")"
grep -q "Saved: Got it, 1/1 points" "$T/out" || fail "the number after a word: $(cat "$T/out")"
echo ok
