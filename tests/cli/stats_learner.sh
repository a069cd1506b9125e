# stats_learner.sh - `quiz stats --learner NAME` (ux.md, further
# problems, "Export and stats": no per-learner view although `progress
# import` keeps learner names).  Two learners answer the same test
# differently in their own databases, export under their names, and an
# instructor imports both: the plain stats count both and name them,
# --learner shows one learner's totals, answers and last grades only,
# and an unknown name is refused with the names there are.
. "$(dirname "$0")/../lib/common.sh"

WB="$WB_BIN --lang en --content $WB_FIXTURES --quizzes $T/instructor"
export WORKBENCH_SEED=1 # the covering draw of 3: fixture-notify, fixture-seq-slots, fixture-years
# ann: recall 2 of 3 points (Partly), 4096 right, 69.8 right.
printf 'answer\n.\n1\np\n4096\n69.8\n' | $WB --db "$T/ann.db" quiz run 00-fixture --plain --limit 3 >"$T/out" ||
	fail "ann's test: $(cat "$T/out")"
# bob: recall skipped (Again), 4000 wrong, 69.8 right.
printf '.\n\n\n4000\n69.8\n' | $WB --db "$T/bob.db" quiz run 00-fixture --plain --limit 3 >"$T/out" ||
	fail "bob's test: $(cat "$T/out")"
unset WORKBENCH_SEED
$WB --db "$T/ann.db" progress export --learner ann -o "$T/ann.csv" || fail "export ann"
$WB --db "$T/bob.db" progress export --learner bob -o "$T/bob.csv" || fail "export bob"
for l in ann bob; do
	$WB --db "$T/inst.db" progress import "$T/$l.csv" >/dev/null || fail "import $l"
done
S="$WB --db $T/inst.db quiz stats"

$S >"$T/out" || fail "quiz stats: $(cat "$T/out")"
grep -q "^fixture-seq-slots .* 2 .* 1 .* 0 .* 1 " "$T/out" || fail "both learners counted: $(cat "$T/out")"
grep -q "^learners: ann (3 answers), bob (3 answers)$" "$T/out" || fail "learners not named: $(cat "$T/out")"

$S --learner ann >"$T/out" || fail "--learner ann: $(cat "$T/out")"
grep -q "^learner ann: 3 answers to 3 questions, 4 of 5 points (80%)" "$T/out" || fail "ann's totals: $(cat "$T/out")"
grep -q "^fixture-seq-slots .* 1 .*100% .* 0 .* 0 .* 1  got$" "$T/out" || fail "ann's row: $(cat "$T/out")"
grep -q "^fixture-notify .* 1 .* 67% .* 0 .* 1 .* 0  partly$" "$T/out" || fail "ann's recall: $(cat "$T/out")"
[ "$(grep -c '^fixture-' "$T/out")" = 3 ] || fail "ann's rows: $(cat "$T/out")"
$S --learner bob >"$T/out" || fail "--learner bob"
grep -q "^learner bob: 3 answers to 3 questions, 1 of 5 points (20%)" "$T/out" || fail "bob's totals: $(cat "$T/out")"
grep -q "^fixture-seq-slots .* 1 .* 0% .* 1 .* 0 .* 0  again$" "$T/out" || fail "bob's row: $(cat "$T/out")"

$S --learner carol >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "an unknown learner must exit 1"
grep -q "no answers of learner 'carol' in this database; learners: ann (3 answers), bob (3 answers)" "$T/err" ||
	fail "unknown learner: $(cat "$T/err")"
$WB --db "$T/ann.db" quiz stats --learner ann 2>"$T/err"
[ $? -eq 1 ] || fail "a database without imports has no learner ann"
grep -q "it holds no imported learners" "$T/err" || fail "no learners message: $(cat "$T/err")"
echo ok
