# man.sh - workbench(1): the page renders with man -l, names every command
# of workbench/cli/commands.def, every global option of --help and every
# environment variable the code reads.  Skips (77) without man or scdoc.
. "$(dirname "$0")/../lib/common.sh"
: "${WB_SRC:?WB_SRC must point at the source tree}"

command -v man >/dev/null 2>&1 || skip "man is not installed (Debian package man-db)"
command -v col >/dev/null 2>&1 || skip "col is not installed (Debian package bsdextrautils)"
page="$(dirname "$WB_BIN")/doc/workbench.1"
if [ ! -f "$page" ]; then
	command -v scdoc >/dev/null 2>&1 || skip "scdoc is not installed (Debian package scdoc)"
	page="$T/workbench.1"
	scdoc <"$WB_SRC/doc/workbench.1.scd" >"$page" || fail "scdoc rejects doc/workbench.1.scd"
fi
# A page built from an older .scd would test the wrong text.
[ "$page" -nt "$WB_SRC/doc/workbench.1.scd" ] || [ "$page" = "$T/workbench.1" ] ||
	fail "$page is older than doc/workbench.1.scd: rebuild"

MANWIDTH=200 MAN_KEEP_FORMATTING= man -l "$page" 2>"$T/err" | col -b >"$T/page" ||
	fail "man -l failed: $(cat "$T/err")"
[ -s "$T/page" ] || fail "man -l rendered nothing"
grep -q '^NAME' "$T/page" || fail "no NAME section"
for s in SYNOPSIS DESCRIPTION OPTIONS COMMANDS ENVIRONMENT FILES "EXIT STATUS"; do
	grep -q "^$s" "$T/page" || fail "no $s section"
done
[ -z "$(grep -i 'warning' "$T/err")" ] || fail "man warns: $(cat "$T/err")"

# Every command of commands.def: WB_COMMAND(quiz_run) is "quiz run",
# WB_COMMAND(zk_lock) "zk-lock" (either spelling is looked for).
n=0
for sym in $(sed -n 's/^WB_COMMAND(\([a-z_]*\))$/\1/p' "$WB_SRC/workbench/cli/commands.def"); do
	n=$((n + 1))
	spaced=$(echo "$sym" | tr '_' ' ')
	dashed=$(echo "$sym" | tr '_' '-')
	grep -Eq "^ +($spaced|$dashed)( |\$)" "$T/page" ||
		fail "command '$spaced' of commands.def is not described in workbench(1)"
done
[ "$n" -ge 14 ] || fail "read only $n commands from commands.def"

# Every global option of --help.
"$WB_BIN" --help | sed -n '/^Options:/,$p' | grep -Eo -- '--[a-z][a-z-]*' | sort -u >"$T/opts"
[ -s "$T/opts" ] || fail "no options in --help"
while read -r o; do
	grep -q -- "$o" "$T/page" || fail "option $o of --help is not in workbench(1)"
done <"$T/opts"

# Every environment variable the product reads (tests' own excluded;
# WORKBENCH_TEST_* hooks are covered by one entry).
grep -rhoE 'getenv\("[A-Z_]+"\)' "$WB_SRC/workbench" "$WB_SRC/labs" "$WB_SRC/base" |
	sed 's/getenv("\(.*\)")/\1/' | grep -v '^WORKBENCH_TEST_' | sort -u >"$T/env"
grep -rhoE 'WORKBENCH_TEST_' "$WB_SRC/base/testhook.h" >/dev/null && echo WORKBENCH_TEST_ >>"$T/env"
[ "$(wc -l <"$T/env")" -ge 10 ] || fail "found too few getenv calls: $(cat "$T/env")"
sed -n '/^ENVIRONMENT/,/^FILES/p' "$T/page" >"$T/envsec"
while read -r v; do
	grep -q "$v" "$T/envsec" || fail "environment variable $v is read by the code but not in workbench(1)"
done <"$T/env"

echo "man: $n commands, $(wc -l <"$T/opts") options, $(wc -l <"$T/env") variables"
