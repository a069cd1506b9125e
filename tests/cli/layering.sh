# layering.sh - the include rules of the layers (docs/architecture.md,
# review §5.2), checked with grep over the source tree:
#   base/             includes only base/
#   labs/             includes nothing from workbench/ (core/ tui/ cli/ app.h)
#   workbench/core/   includes only core/ and base/ (no labs/, tui/, cli/)
#   labs/harness/     includes no recipes/ or rigs/
#   labs/recipes/     includes no harness/ or rigs/
#   labs/checkers/    includes only base/ and checkers/ (pure checkers)
#   workbench/tui/    a screen includes no other screen's header: only the
#                     router (nav.c) knows every screen; from labs/ only
#                     lab.h and event.h
#   workbench/cli/    from labs/ only lab.h, exercise.h and event.h, except the lab
#                     supervisor (labsuper.c and exercise_check.c: harness/proc.h, report.h) and
#                     zk-lock (zklock.c: the lock recipe and its client)
# A self-test first plants one violation of each rule in a scratch tree and
# requires every one to be reported, so the grep cannot pass by matching
# nothing.
. "$(dirname "$0")/../lib/common.sh"

# includes DIR: "file:line:target" for every #include "target" under DIR.
includes() {
	[ -d "$1" ] || return 0
	grep -rnE --include='*.c' --include='*.h' --include='*.def' \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1" |
		sed -E 's/^([^:]*:[0-9]+):.*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:\2/'
}

# violations ROOT: one line per include that breaks a rule.
violations() {
	r=$1
	includes "$r/base" | awk -F: '$3 !~ /^base\// { print $1 ":" $2 ": base/ includes " $3 }'
	includes "$r/labs" |
		awk -F: '$3 ~ /^(core|tui|cli)\// || $3 == "app.h" { print $1 ":" $2 ": labs/ includes workbench/ " $3 }'
	includes "$r/workbench/core" |
		awk -F: '$3 !~ /^(core|base)\// { print $1 ":" $2 ": core includes " $3 }'
	includes "$r/labs/harness" |
		awk -F: '$3 ~ /^(recipes|rigs)\// { print $1 ":" $2 ": harness includes " $3 }'
	includes "$r/labs/recipes" |
		awk -F: '$3 ~ /^(harness|rigs)\// { print $1 ":" $2 ": recipes include " $3 }'
	includes "$r/labs/checkers" |
		awk -F: '$3 !~ /^(base|checkers)\// { print $1 ":" $2 ": checkers include " $3 }'
	# A screen's own header is tui/<file>.h (the lab screen's is
	# labscreen.h); any other screen header outside nav.c is a cycle.
	includes "$r/workbench/tui" | awk -F: '
		{ f = $1; sub(/.*\//, "", f); sub(/\.[ch]$/, "", f) }
		$3 ~ /^tui\/(home|reader|labscreen|quiz|stats|notice|source)\.h$/ {
			h = $3; sub(/^tui\//, "", h); sub(/\.h$/, "", h)
			if (f != "nav" && h != f && !(f == "lab" && h == "labscreen"))
				print $1 ":" $2 ": screen " f " includes " $3
		}
		$3 ~ /^(harness|recipes|rigs)\// { print $1 ":" $2 ": tui includes " $3 }'
	includes "$r/workbench/cli" | awk -F: '
		{ f = $1; sub(/.*\//, "", f) }
		$3 ~ /^(harness|recipes|rigs)\// {
			if ((f == "labsuper.c" || f == "exercise_check.c") && ($3 == "harness/proc.h" || $3 == "harness/report.h")) next
			if (f == "zklock.c" && ($3 == "recipes/zklock.h" || $3 == "harness/zk/zkclient.h")) next
			print $1 ":" $2 ": cli includes " $3
		}'
}

# Self-test: one planted violation per rule, each must be found.
S="$T/tree"
mkdir -p "$S/base" "$S/labs/recipes" "$S/labs/harness" "$S/labs/checkers" "$S/workbench/core"
printf '#include "base/wb.h"\n#include "core/store.h"\n' >"$S/base/a.c"
printf '#include "base/wb.h"\n#include "core/content.h"\n' >"$S/labs/recipes/tasktable.c"
printf '#include "recipes/zklock.h"\n' >"$S/labs/harness/b.h"
printf '#include "harness/report.h"\n' >"$S/labs/recipes/c.c"
printf '#include "checkers/history.h"\n#include "harness/report.h"\n' >"$S/labs/checkers/e.c"
printf '  #  include "lab.h"\n#include "tui/tui.h"\n' >"$S/workbench/core/d.c"
mkdir -p "$S/workbench/tui" "$S/workbench/cli"
printf '#include "tui/reader.h"\n#include "tui/tui.h"\n#include "tui/quiz.h"\n' >"$S/workbench/tui/quiz.c"
printf '#include "tui/reader.h"\n#include "tui/quiz.h"\n' >"$S/workbench/tui/nav.c"
printf '#include "harness/proc.h"\n' >"$S/workbench/cli/quiz_run.c"
found=$(violations "$S")
for want in "base/a.c:2: base/ includes core/store.h" \
	"labs/recipes/tasktable.c:2: labs/ includes workbench/ core/content.h" \
	"labs/harness/b.h:1: harness includes recipes/zklock.h" \
	"labs/recipes/c.c:1: recipes include harness/report.h" \
	"labs/checkers/e.c:2: checkers include harness/report.h" \
	"workbench/core/d.c:1: core includes lab.h" \
	"workbench/core/d.c:2: core includes tui/tui.h" \
	"workbench/tui/quiz.c:1: screen quiz includes tui/reader.h" \
	"workbench/cli/quiz_run.c:1: cli includes harness/proc.h"; do
	echo "$found" | grep -qF "$want" || fail "self-test: '$want' not reported; got: $found"
done
[ "$(echo "$found" | wc -l)" -eq 9 ] || fail "self-test: expected 9 violations, got: $found"

out=$(violations "$WB_SRC")
[ -z "$out" ] || fail "include rules broken:
$out"
echo ok
