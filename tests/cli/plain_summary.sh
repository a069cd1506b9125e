# plain_summary.sh - the plain runner's summary does not offer the
# reader (ux.md, further problems: "The plain runner prints the same
# '(Enter rereads the lesson)' line and then exits"): it lists the
# weakest questions and says which command shows the chapter again.
. "$(dirname "$0")/../lib/common.sh"

WB="$WB_BIN --lang en --content $WB_FIXTURES --db $T/progress.db --quizzes $T/instructor"
# WORKBENCH_SEED=1 draws fixture-notify, fixture-seq-slots, fixture-years.
printf '.\n\n\n1\n1\n' | WORKBENCH_SEED=1 $WB quiz run 00-fixture --plain --limit 3 >"$T/out" 2>&1 ||
	fail "run: $(cat "$T/out")"
grep -q "Test finished" "$T/out" || fail "not finished: $(cat "$T/out")"
grep -q "^Weakest questions" "$T/out" || fail "no weakest list: $(cat "$T/out")"
grep -q "Enter" "$T/out" && grep "Enter rereads" "$T/out" && fail "the plain summary offers Enter: $(cat "$T/out")"
grep -q "workbench lesson show 00-fixture" "$T/out" || fail "no way to reread given: $(cat "$T/out")"
$WB --lang zh quiz run 00-fixture --plain --abandon >/dev/null 2>&1
printf '.\n\n\n1\n1\n' | WORKBENCH_SEED=1 $WB --lang zh quiz run 00-fixture --plain --limit 3 >"$T/out" 2>&1 ||
	fail "zh run: $(cat "$T/out")"
grep -q "Enter 重读" "$T/out" && fail "the zh plain summary offers Enter: $(cat "$T/out")"
grep -q "workbench lesson show 00-fixture" "$T/out" || fail "zh: no way to reread: $(cat "$T/out")"
echo ok
