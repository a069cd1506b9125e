# numeric.sh - numeric questions are graded exactly (ux.md problem 2):
# a question whose answer is 2147483647 (no tolerance; the largest suffix
# of a sequential znode, asked in chapter 02's bank) marks the overflow
# 2147483648 and 2147483649 wrong in `quiz run --plain`, and `quiz lint`
# warns when a tolerance would accept an off-by-one of an integer answer.
# The bank is written here, so rewording the shipped banks cannot break it.
. "$(dirname "$0")/../lib/common.sh"

mkdir -p "$T/c/quizzes/en"
ln -s "$WB_SRC/lessons" "$T/c/lessons"
cat >"$T/c/quizzes/en/01-locks-ids-leases.md" <<'EOF'
# Self-test: numeric grading

## [int32-max-suffix] What is the largest positive sequence suffix a ZooKeeper sequential node can get?
kind: numeric
answer: 2147483647

### Answer
The parent's counter is a signed 32-bit int: 2^31 - 1 = 2147483647.
EOF
WB="$WB_BIN --lang en --content $T/c --db $T/progress.db --quizzes $T/instructor"

for wrong in 2147483648 2147483649 2147483646; do
	printf '%s\n' $wrong | $WB quiz run 01-locks-ids-leases --plain >"$T/out" 2>&1 ||
		fail "run with $wrong: $(cat "$T/out")"
	grep -q "Not correct. Expected 2147483647" "$T/out" || fail "$wrong was accepted: $(cat "$T/out")"
	grep -q "Saved: Again, 0/1 points" "$T/out" || fail "$wrong not saved as Again"
done
printf '2,147,483,647\n' | $WB quiz run 01-locks-ids-leases --plain >"$T/out" 2>&1 ||
	fail "run with the answer: $(cat "$T/out")"
grep -q "Saved: Got it, 1/1 points" "$T/out" || fail "the exact answer: $(cat "$T/out")"

# lint: a tolerance of 1 on that integer answer is a warning, not an error.
mkdir -p "$T/l/quizzes/en"
ln -s "$WB_SRC/lessons" "$T/l/lessons"
sed 's/^answer: 2147483647$/answer: 2147483647\ntolerance: 1/' \
	"$T/c/quizzes/en/01-locks-ids-leases.md" >"$T/l/quizzes/en/01-locks-ids-leases.md"
grep -q '^tolerance: 1$' "$T/l/quizzes/en/01-locks-ids-leases.md" || fail "fixture not built"
"$WB_BIN" --content "$T/l" --quizzes "$T/instructor" quiz lint >"$T/out" 2>"$T/err" ||
	fail "lint must only warn: $(cat "$T/out" "$T/err")"
grep -q "01-locks-ids-leases.md:3: warning: question 'int32-max-suffix': tolerance 1 accepts 2147483646 and 2147483648, off-by-one" "$T/out" ||
	fail "no off-by-one warning: $(cat "$T/out")"
echo ok
