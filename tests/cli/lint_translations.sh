# lint_translations.sh - quiz lint summarises the questions a bank has in
# one language only (ux.md, further problems, "Instructor friction": 4
# en-only questions gave 4 warnings): one warning per bank, naming them
# all, and a bank may declare that it is for one language on purpose
# with '<!-- lang-only: en -->' under its title (docs/architecture.md
# §6), which silences both "only in en" warnings.  The banks are written
# here; the chapter is a shipped lesson.
. "$(dirname "$0")/../lib/common.sh"

mkdir -p "$T/c/quizzes/en" "$T/c/quizzes/zh"
ln -s "$WB_SRC/lessons" "$T/c/lessons"
EN="$T/c/quizzes/en/01-locks-ids-leases.md"
ZH="$T/c/quizzes/zh/01-locks-ids-leases.md"
question() { # id
	printf '\n## [%s] What is %s?\nkind: numeric\nanswer: 1\n\n### Answer\nOne.\n' "$1" "$1"
}
{
	echo "# Self-test: translations"
	for id in both-a only-a only-b only-c only-d; do question $id; done
} >"$EN"
{
	echo "# 自测：翻译"
	question both-a
} >"$ZH"
lint() { "$WB_BIN" --content "$T/c" --quizzes "$T/instructor" quiz lint >"$T/out" 2>"$T/err"; }

lint || fail "warnings only must exit 0: $(cat "$T/out")"
[ "$(grep -c 'only in en' "$T/out")" = 1 ] || fail "one warning per bank expected: $(cat "$T/out")"
grep -qF "$EN:10: warning: 4 questions are only in en: [only-a] [only-b] [only-c] [only-d] (missing translations)" "$T/out" ||
	fail "no summary warning: $(cat "$T/out")"
grep -q "1 warning" "$T/err" || fail "summary line: $(cat "$T/err")"

# The declaration silences it ...
sed -i '1a <!-- lang-only: en -->' "$EN"
lint || fail "lint with lang-only: $(cat "$T/out")"
grep -q "0 errors, 0 warnings" "$T/err" || fail "lang-only did not silence: $(cat "$T/out")"
# ... also when there is no zh bank of the chapter at all.
rm "$ZH"
lint || fail "lint without a zh bank: $(cat "$T/out")"
grep -q "0 errors, 0 warnings" "$T/err" || fail "lang-only without zh bank: $(cat "$T/out")"
sed -i '/lang-only/d' "$EN"
lint
grep -q "chapter 01-locks-ids-leases has no zh question bank" "$T/out" || fail "no-bank warning lost: $(cat "$T/out")"

# A declaration that contradicts the folder, or names no language, is
# reported, not obeyed.
sed -i '1a <!-- lang-only: zh -->' "$EN"
lint
grep -qF "$EN:2: warning: the bank declares lang-only: zh but is in the en folder" "$T/out" ||
	fail "contradicting lang-only: $(cat "$T/out")"
sed -i 's/lang-only: zh/lang-only: fr/' "$EN"
lint
[ $? -eq 1 ] || fail "an unknown lang-only value must be an error"
grep -qF "$EN:2: error: lang-only: 'fr' is not en or zh" "$T/out" || fail "bad lang-only: $(cat "$T/out")"
echo ok
