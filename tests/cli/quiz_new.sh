# quiz_new.sh - `quiz new` leaves a template that lint rejects until it is
# written (ux.md #5): the placeholder question, answer and rubric are each
# an error at their line, `quiz new` says so when the editor returns
# unchanged, and an edited question lints clean.  The chapter may be a
# unique prefix.
. "$(dirname "$0")/../lib/common.sh"

I="$T/instructor"
WB="$WB_BIN --content $WB_FIXTURES --db $T/p.db --quizzes $I --lang en"
F="$I/en/00-fixture.md"

# The instructor closes the editor without a change.
VISUAL= EDITOR=true $WB quiz new 00 >"$T/out" 2>"$T/err" || fail "quiz new: $(cat "$T/err")"
grep -q "^$F:3: new question \[q-00-1\]" "$T/out" || fail "quiz new 00 (a prefix): $(cat "$T/out")"
grep -q "\[q-00-1\] still has the template text (3 parts).*quiz lint. reports it as an error" "$T/err" ||
	fail "quiz new does not say the template is still there: $(cat "$T/err")"
$WB quiz lint "$I" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "lint passed an untouched template: $(cat "$T/out")"
grep -q "^$F:3: error: \[q-00-1\] has the template question text" "$T/out" ||
	fail "no error for the question line: $(cat "$T/out")"
grep -q "^$F:7: error: \[q-00-1\] has the template reference answer" "$T/out" ||
	fail "no error for the answer: $(cat "$T/out")"
grep -q "^$F:10: error: \[q-00-1\] has the template rubric point" "$T/out" ||
	fail "no error for the rubric: $(cat "$T/out")"
grep -q "3 errors" "$T/err" || fail "lint summary: $(cat "$T/err")"

# An editor that writes the question: no complaint, and lint is clean
# apart from the missing translation.
cat >"$T/ed" <<'ED'
#!/bin/sh
f=$1
[ "${1#+}" != "$1" ] && f=$2
sed -i -e 's/Write the question here, on one line/How many votes make a quorum of 5?/' \
	-e 's/Write the reference answer here\./Three: a strict majority./' \
	-e 's/one checkable idea the answer must contain/says three, a majority/' "$f"
ED
chmod +x "$T/ed"
rm -rf "$I"
VISUAL= EDITOR="$T/ed" $WB quiz new 00-fix >"$T/out" 2>"$T/err" || fail "quiz new with an editor: $(cat "$T/err")"
grep -q "template" "$T/err" && fail "complained about an edited question: $(cat "$T/err")"
$WB quiz lint "$I" >"$T/out" 2>"$T/err" || fail "an edited question does not lint: $(cat "$T/out")"
grep -q "0 errors, 1 warning" "$T/err" || fail "lint of the edited question: $(cat "$T/err")"

# No editor at all: it says so as well.
env -u EDITOR -u VISUAL $WB quiz new 00-fixture >"$T/out" 2>"$T/err" || fail "quiz new, no editor"
grep -q "\[q-00-2\] still has the template text" "$T/err" || fail "no editor: $(cat "$T/err")"
echo ok
