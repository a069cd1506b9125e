# layering.sh - the include rules of the layers (docs/architecture.md,
# review §5.2), checked with grep over the source tree:
#   base/             includes only base/
#   labs/             includes nothing from workbench/ (core/ tui/ cli/ app.h)
#   workbench/core/   includes only core/ and base/ (no labs/, tui/, cli/)
#   labs/harness/     includes no recipes/ or rigs/
#   labs/recipes/     includes no harness/ or rigs/
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
}

# Self-test: one planted violation per rule, each must be found.
S="$T/tree"
mkdir -p "$S/base" "$S/labs/recipes" "$S/labs/harness" "$S/workbench/core"
printf '#include "base/wb.h"\n#include "core/store.h"\n' >"$S/base/a.c"
printf '#include "base/wb.h"\n#include "core/content.h"\n' >"$S/labs/recipes/tasktable.c"
printf '#include "recipes/zklock.h"\n' >"$S/labs/harness/b.h"
printf '#include "harness/report.h"\n' >"$S/labs/recipes/c.c"
printf '  #  include "lab.h"\n#include "tui/tui.h"\n' >"$S/workbench/core/d.c"
found=$(violations "$S")
for want in "base/a.c:2: base/ includes core/store.h" \
	"labs/recipes/tasktable.c:2: labs/ includes workbench/ core/content.h" \
	"labs/harness/b.h:1: harness includes recipes/zklock.h" \
	"labs/recipes/c.c:1: recipes include harness/report.h" \
	"workbench/core/d.c:1: core includes lab.h" \
	"workbench/core/d.c:2: core includes tui/tui.h"; do
	echo "$found" | grep -qF "$want" || fail "self-test: '$want' not reported; got: $found"
done
[ "$(echo "$found" | wc -l)" -eq 6 ] || fail "self-test: expected 6 violations, got: $found"

out=$(violations "$WB_SRC")
[ -z "$out" ] || fail "include rules broken:
$out"
echo ok
