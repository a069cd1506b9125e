# quiz.sh - `workbench quiz` and `workbench progress` on the command line:
# lint (clean banks, bad files as file:line and exit 1), new (fresh id,
# $EDITOR), list, run --plain (a whole test on stdin, resume after a
# pause), export --anki, and progress export/import without duplicates.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
I="$T/instructor"
WB="$WB_BIN --content $WB_FIXTURES --db $DB --quizzes $I"
q() { sqlite3 "$DB" "$1"; }

# lint: the fixture banks and the shipped banks are clean.
$WB quiz lint >"$T/out" 2>"$T/err" || fail "lint of the fixture banks failed: $(cat "$T/out")"
grep -q "2 files, 0 errors, 0 warnings" "$T/err" || fail "lint summary: $(cat "$T/err")"
"$WB_BIN" --content "$WB_SRC" --quizzes "$I" quiz lint >"$T/out" 2>"$T/err" ||
	fail "lint of the shipped banks: $(cat "$T/out")"
grep -q "0 errors, 0 warnings" "$T/err" || fail "shipped banks: $(cat "$T/err")"

# lint: every bad fixture is an error at file:line, exit 1.
$WB quiz lint "$WB_FIXTURES/quizzes-bad" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "lint of bad banks must exit 1"
for m in "missing-id.md:4: error: question heading has no id" \
	"malformed-id.md:4: error: malformed id 'Bad_Id'" \
	"duplicate-id.md:13: error: duplicate id 'bad-dup'" \
	"missing-answer.md:4: error: question 'bad-no-answer' has no ### Answer" \
	"recall-no-rubric.md:4: error: recall question 'bad-no-rubric' has no ### Rubric" \
	"bad-points.md:12: error: rubric points 'two' are not a positive integer" \
	"choice-no-correct.md:7: error: choice question has no correct option" \
	"numeric-no-number.md:4: error: numeric question without a number" \
	"unknown-kind.md:5: error: unknown kind 'essay'" \
	"unknown-chapter.md:2: error: unknown chapter '99-nowhere'" \
	"untranslated.md:4: warning: question 'bad-english-only' is only in en"; do
	grep -qF "$m" "$T/out" || fail "lint output lacks: $m"
done
$WB quiz lint "$T/nowhere" 2>"$T/err"
[ $? -eq 2 ] || fail "lint of a missing path must exit 2"

# new: a fresh id in the instructor's file, then $EDITOR with the line.
printf '#!/bin/sh\necho "vi $*"\n' >"$T/vi" && chmod +x "$T/vi"
VISUAL= EDITOR="$T/vi" $WB quiz new 00-fixture >"$T/out" || fail "quiz new failed"
grep -q "^$I/en/00-fixture.md:3: new question \[q-00-1\]" "$T/out" || fail "quiz new: $(cat "$T/out")"
grep -q "^vi +3 $I/en/00-fixture.md" "$T/out" || fail "editor not run: $(cat "$T/out")"
VISUAL= EDITOR="echo edited" $WB quiz new 00-fixture >"$T/out" || fail "quiz new with echo"
grep -q "^edited $I/en/00-fixture.md$" "$T/out" || fail "+LINE given to an editor that may not take it"
head -n 1 "$I/en/00-fixture.md" | grep -q "^# Self-test: Fixture chapter" || fail "no title line"
env -u EDITOR -u VISUAL $WB quiz new 00-fixture >"$T/out" || fail "second quiz new failed"
grep -q "new question \[q-00-3\]" "$T/out" || fail "third id not fresh: $(cat "$T/out")"
# The untouched templates are lint errors (see quiz_new.sh), besides the
# missing translations.
$WB quiz lint "$I" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "untouched templates must not lint clean: $(cat "$T/out")"
[ "$(grep -c 'missing translation' "$T/out")" = 1 ] || fail "template warnings: $(cat "$T/out")"
grep -q "3 questions are only in en: \[q-00-1\] \[q-00-2\] \[q-00-3\]" "$T/out" ||
	fail "one warning for the bank's untranslated questions: $(cat "$T/out")"
[ "$(grep -c 'error: .*template' "$T/out")" = 9 ] || fail "template errors: $(cat "$T/out")"
$WB quiz new 99-nowhere 2>"$T/err"
[ $? -eq 2 ] || fail "quiz new of an unknown chapter must exit 2"
grep -q "no chapter '99-nowhere'; chapters: 00-fixture" "$T/err" || fail "quiz new 99: $(cat "$T/err")"
rm -rf "$I"

# list
[ "$($WB quiz list | wc -l)" = 6 ] || fail "quiz list"
$WB --lang zh quiz list 00-fixture | grep -q "^fixture-years	numeric	00-fixture	41 位" ||
	fail "quiz list in Chinese"

# run --plain: three questions, a pause (EOF), resume, an undo, finish.
export WORKBENCH_SEED=1 # the covering draw of 3: fixture-notify, fixture-seq-slots, fixture-years
printf 'first line\n中文第二行\n.\n1\np\n' | $WB quiz run 00-fixture --plain --limit 3 >"$T/out"
[ $? -eq 1 ] || fail "end of input mid-test must exit 1"
grep -q "Saved: Partly, 2/3 points" "$T/out" || fail "recall not saved: $(cat "$T/out")"
grep -q "Test paused" "$T/out" || fail "no pause message"
printf '1\n:undo\n4096\n69.8\n' | $WB quiz run 00-fixture --plain >"$T/out" || fail "resume failed"
grep -q "Resumed: 1 of 3 answered" "$T/out" || fail "not resumed: $(cat "$T/out")"
grep -q "Grade undone" "$T/out" || fail "undo"
grep -q "Test finished" "$T/out" || fail "not finished: $(cat "$T/out")"
grep -q "Points 4 of 5 (80%)" "$T/out" || fail "summary: $(cat "$T/out")"
unset WORKBENCH_SEED
[ "$(q "SELECT COUNT(*) FROM quiz_answer")" = 3 ] || fail "plain run rows"
[ "$(q "SELECT answer FROM quiz_answer WHERE question='fixture-notify'")" = "$(printf 'first line\n中文第二行')" ] ||
	fail "plain recall text"
[ "$(q "SELECT grade||answer FROM quiz_answer WHERE question='fixture-seq-slots'")" = 34096 ] ||
	fail "plain number after undo"

# Another chapter's test cannot start while one runs; --abandon ends it.
printf 'first\n.\n\n\n' | WORKBENCH_SEED=1 $WB quiz run 00-fixture --plain --limit 2 >/dev/null
$WB quiz run --due --plain </dev/null >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "a second test must be refused"
grep -q "another self-test is in progress" "$T/err" || fail "refusal message: $(cat "$T/err")"
$WB quiz run 00-fixture --plain --abandon >/dev/null || fail "--abandon"
[ "$(q "SELECT COUNT(*) FROM quiz_test WHERE state='running'")" = 0 ] || fail "still running"

# Due review: nothing due today (without new questions, --new-per-day 0);
# in ten days everything graded is due.
$WB quiz run --due --plain --new-per-day 0 </dev/null | grep -q "No questions are due" ||
	fail "nothing due today"
later=$(($(date +%s) + 10 * 86400))
printf ':quit\n' | WORKBENCH_NOW=$later $WB --new-per-day 0 quiz run --due --plain >"$T/out"
due=$(q "SELECT COUNT(*) FROM quiz_schedule")
grep -q "Question 1 of $due " "$T/out" || fail "review of $due due questions: $(cat "$T/out")"
$WB quiz run --due --plain --abandon >/dev/null || fail "abandon review"

# stats
$WB quiz stats >"$T/out" || fail "quiz stats"
grep -q "^fixture-notify .* 2 " "$T/out" || fail "stats: $(cat "$T/out")"

# export --anki: four tab-separated columns after the header lines
# (the guid: anki_export.sh).
$WB quiz export --anki "$T/anki.txt" 2>/dev/null || fail "anki export"
head -n 4 "$T/anki.txt" | tr '\n' ' ' | grep -q "#separator:tab #html:true #tags column:3 #guid column:4" ||
	fail "anki header"
[ "$(tail -n +5 "$T/anki.txt" | awk -F'\t' 'NF != 4' | wc -l)" = 0 ] || fail "anki rows not 4 columns"
[ "$(tail -n +5 "$T/anki.txt" | wc -l)" = 6 ] || fail "anki row count"
grep -q "<pre><code class=\"language-text\">client ──token 34──▶ storage<br>" "$T/anki.txt" ||
	fail "anki code block"

# progress export/import: into another database, twice, no duplicates.
n=$(q "SELECT COUNT(*) FROM quiz_answer")
for fmt in csv json; do
	$WB progress export --format $fmt --learner ann -o "$T/export.$fmt" || fail "export $fmt"
	other="$T/other-$fmt.db"
	"$WB_BIN" --db "$other" progress import "$T/export.$fmt" >"$T/out" || fail "import $fmt"
	grep -q "imported $n answers, 0 already present" "$T/out" || fail "import: $(cat "$T/out")"
	"$WB_BIN" --db "$other" progress import "$T/export.$fmt" >"$T/out" || fail "re-import $fmt"
	grep -q "imported 0 answers, $n already present" "$T/out" || fail "re-import: $(cat "$T/out")"
	[ "$(sqlite3 "$other" "SELECT COUNT(*) FROM quiz_answer WHERE learner='ann'")" = "$n" ] ||
		fail "learner name not kept"
	"$WB_BIN" --db "$other" progress export --format $fmt >"$T/again.$fmt"
	cmp -s "$T/export.$fmt" "$T/again.$fmt" || fail "$fmt export differs after a round trip"
done
printf 'uid,question\nx,y\n' >"$T/bad.csv"
$WB progress import "$T/bad.csv" 2>"$T/err"
[ $? -eq 1 ] || fail "bad import must exit 1"
grep -q "bad.csv: line 1: the CSV header has no 'chapter' column; nothing was imported" "$T/err" ||
	fail "bad import message: $(cat "$T/err")"
$WB progress export --format xml 2>/dev/null
[ $? -eq 2 ] || fail "bad format must exit 2"
echo ok
