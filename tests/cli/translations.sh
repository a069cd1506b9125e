# translations.sh - every message of the interface and of the labs'
# narration has its Chinese text in po/zh_CN.po: the template is extracted
# from the sources as the build's po/update.sh does (N_() in i18n.c, the
# report_* calls of the labs), and msgcmp fails on a msgid that the
# catalogue lacks, leaves untranslated or marks fuzzy; msgfmt -c fails on
# a Chinese format whose conversions differ from the English one.  The
# known-wrong catalogues and sources below fail the same checks.
. "$(dirname "$0")/../lib/common.sh"

for p in xgettext msgcmp msgfmt msgattrib msgunfmt; do
	command -v $p >/dev/null || skip "$p (Debian package gettext) is needed"
done
PO="$WB_SRC/po/zh_CN.po"
sh "$WB_SRC/po/update.sh" "$WB_SRC" "$T/workbench.pot" 2>"$T/xg" || fail "xgettext: $(cat "$T/xg")"
n=$(grep -c '^msgid ' "$T/workbench.pot")
[ "$n" -gt 600 ] || fail "only $n msgids extracted: $(head -n 20 "$T/workbench.pot")"

msgcmp "$PO" "$T/workbench.pot" >"$T/cmp" 2>&1 ||
	fail "messages without Chinese text in po/zh_CN.po (msgmerge -U po/zh_CN.po a fresh template, then translate):
$(head -n 40 "$T/cmp")"
msgattrib --only-fuzzy --no-obsolete "$PO" >"$T/fuzzy"
[ ! -s "$T/fuzzy" ] || fail "fuzzy translations: $(head -n 20 "$T/fuzzy")"
msgfmt --check --statistics -o "$T/zh.mo" "$PO" >"$T/fmt" 2>&1 || fail "msgfmt -c: $(cat "$T/fmt")"
grep -q ' untranslated\| fuzzy' "$T/fmt" && fail "msgfmt counts: $(cat "$T/fmt")"

# The build's catalogue is this one.
MO="$(dirname "$WB_BIN")/locale/zh_CN/LC_MESSAGES/workbench.mo"
[ -f "$MO" ] || fail "the build has no $MO"
msgunfmt "$MO" >"$T/built.po" && msgunfmt "$T/zh.mo" >"$T/fresh.po" || fail "msgunfmt"
cmp -s "$T/built.po" "$T/fresh.po" || fail "$MO is older than po/zh_CN.po"

# Known-wrong: a msgstr emptied, a translation marked fuzzy, a conversion
# changed, a narration literal no catalogue has.
awk 'done == 0 && /^msgid "Statistics"$/ { print; getline; print "msgstr \"\""; done = 1; next } { print }' \
	"$PO" >"$T/empty.po"
cmp -s "$PO" "$T/empty.po" && fail "test setup: Statistics not found"
msgcmp "$T/empty.po" "$T/workbench.pot" >/dev/null 2>&1 && fail "an empty msgstr passed"
awk 'done == 0 && /^msgid "Statistics"$/ { print "#, fuzzy"; done = 1 } { print }' "$PO" >"$T/fuzzy.po"
msgcmp "$T/fuzzy.po" "$T/workbench.pot" >/dev/null 2>&1 && fail "a fuzzy translation passed"
sed 's/^msgstr "%s；实验无法继续"$/msgstr "%d；实验无法继续"/' "$PO" >"$T/conv.po"
cmp -s "$PO" "$T/conv.po" && fail "test setup: the cannot-go-on narration not found"
msgfmt --check -o /dev/null "$T/conv.po" 2>/dev/null && fail "a changed conversion passed msgfmt -c"
mkdir -p "$T/src/labs" "$T/src/workbench"
printf 'void f(struct report *r) { report_step(r, "A new step nobody translated: %%d", 1); }\n' \
	>"$T/src/labs/new.c"
sh "$WB_SRC/po/update.sh" "$T/src" "$T/new.pot" 2>/dev/null
grep -q 'A new step nobody translated' "$T/new.pot" || fail "xgettext missed a report_step literal"
msgcmp "$PO" "$T/new.pot" >/dev/null 2>&1 && fail "an untranslated narration literal passed"

# A Chinese run reads it with no locale in the environment at all (env -i:
# LC_MESSAGES is C, no zh_CN locale is generated), and an English one
# stays English.
for l in zh en; do
	env -i PATH="$PATH" WORKBENCH_RUN_BASE="$T/runs" "$WB_BIN" --db "$T/p.db" --lang $l \
		lab run --all --only id-collision >"$T/all.$l" 2>&1 || fail "lab run --all ($l): $(cat "$T/all.$l")"
done
grep -q '^1 个实验，共 .* 秒：1 个通过' "$T/all.zh" || fail "the zh summary is not Chinese: $(cat "$T/all.zh")"
grep -q '^  • 同一毫秒内重启' "$T/all.zh" || fail "the zh narration is not Chinese: $(cat "$T/all.zh")"
grep -q '^1 labs in .* s: 1 passed' "$T/all.en" || fail "the en summary: $(cat "$T/all.en")"
echo ok
