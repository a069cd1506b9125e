#!/bin/sh
# class_workflow.sh - the class workflow of docs/authoring.md keeps every
# learner apart (review ux-r3 B2, B3; cli/progress_import.c,
# core/exchange.c): three learners answer self-tests and start
# exercises in databases of their own and export with `progress export
# --format json --learner NAME`; an instructor who has answers of their
# own imports all three as the docs say.  The instructor's own state
# (answers, review schedule, exercise list) is unchanged, each
# `quiz stats --learner NAME` shows that learner's answers, and the import
# says the exercises were left out.  An export written without --learner
# is refused by a database with a state of its own (the message names
# --learner NAME), taken with --learner NAME, or merged with --as-mine.
. "$(dirname "$0")/../lib/common.sh"
command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed (Debian package sqlite3)"

# One-question banks of chapters of their own, so every answer is known.
mkdir -p "$T/c/quizzes/en" "$T/c/lessons/en"
ln -s "$WB_SRC/exercises" "$T/c/exercises"
cp "$WB_SRC/lessons/en/"*.md "$T/c/lessons/en/"
for n in a:1 b:2 c:3; do
	id=${n%%:*} ans=${n#*:}
	cat >"$T/c/quizzes/en/9$ans-drill-$id.md" <<EOB
# Self-test: drill $id
<!-- title: Drill $id -->
<!-- lang-only: en -->

## [cw-$id] What is $ans?
kind: numeric
answer: $ans

### Answer
$ans.
EOB
done

t=1900000000
# wb WHO ARGS...: workbench as WHO (a database and a workspace each).
wb() {
	who=$1
	shift
	XDG_DATA_HOME="$T/home-$who" WORKBENCH_NOW=$t "$WB_BIN" --lang en --content "$T/c" \
		--quizzes "$T/none" --db "$T/$who.db" "$@"
}
# answer WHO N INPUT: one graded answer to bank 9N.
answer() {
	t=$((t + 60))
	printf '%s\n' "$3" | wb "$1" quiz run "9$2-drill-$(echo abc | cut -c"$2")" --plain \
		>"$T/out" 2>&1 || fail "quiz run for $1: $(cat "$T/out")"
	grep -q "Saved:" "$T/out" || fail "no answer saved for $1: $(cat "$T/out")"
}
own() { sqlite3 "$T/$1.db" "SELECT count(*) FROM quiz_answer WHERE learner = '';"; }
sched() { sqlite3 "$T/$1.db" "SELECT count(*) FROM quiz_schedule;"; }

# Three learners: answers, and exercises started (ana and ben).
answer ana 1 1; answer ana 2 2; answer ana 3 3
answer ben 1 1; answer ben 2 5
answer chen 3 9
wb ana exercise start zk-lock-step --no-edit </dev/null >"$T/out" 2>&1 || fail "ana start: $(cat "$T/out")"
wb ana exercise start task-claim --no-edit </dev/null >"$T/out" 2>&1 || fail "ana start 2"
wb ben exercise start task-claim --no-edit </dev/null >"$T/out" 2>&1 || fail "ben start"
for l in ana ben chen; do
	wb "$l" progress export --format json --learner "$l" -o "$T/$l.json" || fail "export of $l"
done

# The instructor has a review of their own.
answer teach 1 1
own_before=$(own teach) sched_before=$(sched teach)
[ "$own_before" = 1 ] || fail "instructor fixture: $own_before own answers"
t=$((t + 3 * 86400))
sqlite3 "$T/teach.db" "SELECT * FROM quiz_schedule ORDER BY 1;" >"$T/sched-before"
[ -s "$T/sched-before" ] || fail "instructor fixture: no schedule"
wb teach exercise list >"$T/ex-before" 2>&1 || fail "exercise list: $(cat "$T/ex-before")"

# The import, as docs/authoring.md says.
grep -q 'progress export --format json --learner NAME' "$WB_SRC/docs/authoring.md" ||
	fail "docs/authoring.md does not say progress export --learner NAME"
for l in ana ben chen; do
	wb teach progress import "$T/$l.json" >"$T/imp-$l" 2>&1 || fail "import $l: $(cat "$T/imp-$l")"
done
grep -q "^imported 3 answers, 0 already present (learner ana); 2 exercises left out" \
	"$T/imp-ana" || fail "ana's import: $(cat "$T/imp-ana")"
grep -q "^imported 2 answers, 0 already present (learner ben); 1 exercise left out" \
	"$T/imp-ben" || fail "ben's import: $(cat "$T/imp-ben")"
grep -q "^imported 1 answer, 0 already present (learner chen); merged 0 exercises" \
	"$T/imp-chen" || fail "chen's import: $(cat "$T/imp-chen")"

# The instructor's own state is what it was.
[ "$(own teach)" = "$own_before" ] || fail "instructor has $(own teach) own answers, was $own_before"
[ "$(sched teach)" = "$sched_before" ] || fail "instructor's schedule has $(sched teach) rows, was $sched_before"
wb teach exercise list >"$T/ex-after" 2>&1
cmp -s "$T/ex-before" "$T/ex-after" || fail "exercise list changed: $(diff "$T/ex-before" "$T/ex-after")"
grep -E "passed|failing" "$T/ex-after" && fail "instructor has exercises: $(cat "$T/ex-after")"
[ "$(sqlite3 "$T/teach.db" "SELECT count(*) FROM exercise_event;")" = 0 ] ||
	fail "exercise events in the instructor's database"
sqlite3 "$T/teach.db" "SELECT * FROM quiz_schedule ORDER BY 1;" >"$T/sched-after"
cmp -s "$T/sched-before" "$T/sched-after" ||
	fail "the instructor's schedule changed: $(diff "$T/sched-before" "$T/sched-after")"

# Each learner is there under their name.
for n in ana:3 ben:2 chen:1; do
	l=${n%%:*} k=${n#*:}
	wb teach quiz stats --learner "$l" >"$T/st-$l" 2>&1 || fail "stats --learner $l: $(cat "$T/st-$l")"
	grep -q "learner $l: $k answers\{0,1\} to" "$T/st-$l" || fail "stats of $l: $(cat "$T/st-$l")"
done
# Importing again adds nothing.
wb teach progress import "$T/ana.json" >"$T/o" 2>&1 || fail "second import"
grep -q "^imported 0 answers, 3 already present (learner ana)" "$T/o" || fail "again: $(cat "$T/o")"

# B2 on a fresh database: two named learners leave its exercise list empty.
wb fresh progress import "$T/ana.json" >"$T/o" 2>&1 || fail "fresh import ana: $(cat "$T/o")"
wb fresh progress import "$T/ben.json" >"$T/o" 2>&1 || fail "fresh import ben: $(cat "$T/o")"
wb fresh exercise list >"$T/o" 2>&1
grep -E "passed|failing" "$T/o" && fail "named learners' exercises became the importer's: $(cat "$T/o")"
[ "$(own fresh)" = 0 ] || fail "named answers became the importer's own"

# An export without --learner: refused, then taken under a name.
answer dan 1 1
wb dan exercise start zk-lock-step --no-edit </dev/null >/dev/null 2>&1 || fail "dan start"
wb dan progress export --format json -o "$T/dan.json" || fail "export of dan"
cp "$T/teach.db" "$T/teach-copy.db"
rc=0
wb teach progress import "$T/dan.json" >"$T/o" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "unnamed import exited $rc: $(cat "$T/o")"
grep -q "progress import FILE --learner NAME" "$T/o" || fail "refusal does not name --learner NAME: $(cat "$T/o")"
grep -q "nothing was imported" "$T/o" || fail "refusal: $(cat "$T/o")"
[ "$(own teach)" = "$own_before" ] || fail "the refused import wrote answers"
wb teach progress import "$T/dan.json" --learner dan >"$T/o" 2>&1 || fail "--learner dan: $(cat "$T/o")"
grep -q "^imported 1 answer, 0 already present (learner dan); 1 exercise left out" "$T/o" ||
	fail "--learner dan: $(cat "$T/o")"
wb teach quiz stats --learner dan >"$T/o" 2>&1 || fail "stats dan: $(cat "$T/o")"
[ "$(own teach)" = "$own_before" ] || fail "--learner dan wrote own answers"
rc=0
wb teach progress import "$T/ana.json" --learner ben >"$T/o" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q "learner 'ana', not of 'ben'" "$T/o" || fail "a wrong --learner: $rc $(cat "$T/o")"
# --as-mine merges deliberately (answers and exercises).
wb teach-copy progress import "$T/dan.json" --as-mine >"$T/o" 2>&1 || fail "--as-mine: $(cat "$T/o")"
grep -q "^imported 1 answer, 0 already present; merged 1 exercise" "$T/o" || fail "--as-mine: $(cat "$T/o")"
[ "$(own teach-copy)" = 2 ] || fail "--as-mine did not merge the answer"
rc=0
wb teach progress import "$T/dan.json" --as-mine --learner dan >"$T/o" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "--as-mine with --learner exited $rc"
# Restoring one's own export into an empty database needs no option.
wb restore progress import "$T/dan.json" >"$T/o" 2>&1 || fail "restore: $(cat "$T/o")"
grep -q "merged 1 exercise" "$T/o" || fail "restore: $(cat "$T/o")"
echo ok
