# layering.sh - every layering rule docs/architecture.md §1 states, checked
# with grep over the source tree (one awk rule per stated rule):
#   base/             includes only base/
#   labs/             includes nothing from workbench/ (core/ tui/ cli/ app.h)
#   workbench/core/   includes only core/ and base/ (no labs/, tui/, cli/), never
#                     curses, and its modules include each other without a cycle
#                     (a module is its .c and .h; tsort finds the loop)
#   labs/harness/     includes base/, itself and the leaf modules checkers/ and
#                     event.h: no recipe, rig, lab or exercise header (lab.h is
#                     the lab layer; the run context is harness/runctx.h)
#   labs/recipes/     includes only base/ and recipes/
#   labs/rigs/        includes base/, harness/, recipes/, checkers/ and itself
#   labs/checkers/    includes only base/ and checkers/ (pure checkers)
#   labs/event.[ch]   includes only base/ (a leaf: the event line format)
#   labs/lab.h        includes no harness header but harness/runctx.h (it does
#                     not expose the reporter)
#   labs/{ids,zk,tasks,redis}/ (the labs) include no exercise check
#   labs/exercises/   sideways only to a lab's scenario header
#                     (labs/<topic>/*.h) and an exercise's exercises/<id>/api.h
#   workbench/tui/    a screen includes no other screen's header: only the
#                     router (nav.c) knows every screen (the screens are the
#                     tui/ headers nav.c includes); from labs/ only lab.h,
#                     exercise.h and event.h
#   workbench/cli/    from labs/ only lab.h, exercise.h, histfile.h and event.h,
#                     except the lab supervisor (labsuper.c and exercise_check.c:
#                     harness/proc.h, report.h) and zk-lock (zklock.c: the lock
#                     recipe and its client)
#   workbench/main.c  from labs/ only lab.h, exercise.h and event.h
#   CMakeLists.txt    wb_labs does not link wb_core, nor wb_core wb_labs
# A self-test first plants one violation of each rule in a scratch tree and
# requires every one to be reported, so no rule can pass by matching
# nothing.
. "$(dirname "$0")/../lib/common.sh"

# includes DIR|FILE: "file:line:target" for every #include "target".
includes() {
	[ -e "$1" ] || return 0
	grep -rnHE --include='*.c' --include='*.h' --include='*.def' \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1" |
		sed -E 's/^([^:]*:[0-9]+):.*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:\2/'
}

# only DIR WHAT ERE: every include under DIR whose target does not match
# ERE is reported as "DIR includes target".
only() {
	includes "$1" | awk -F: -v what="$2" -v ok="$3" '$3 !~ ok { print $1 ":" $2 ": " what " includes " $3 }'
}

# Where the app may reach into labs/ (tui, cli, main.c): a target that is
# not the app's own (core/ tui/ cli/ base/ app.h) must be one of ok.
app_labs() {
	includes "$1" | awk -F: -v what="$2" -v ok="$3" '
		{ f = $1; sub(/.*\//, "", f) }
		$3 ~ /^(core|tui|cli|base)\// || $3 == "app.h" { next }
		(f == "labsuper.c" || f == "exercise_check.c") && ($3 == "harness/proc.h" || $3 == "harness/report.h") { next }
		f == "zklock.c" && ($3 == "recipes/zklock.h" || $3 == "harness/zk/zkclient.h") { next }
		$3 !~ ok { print $1 ":" $2 ": " what " includes " $3 }'
}

# violations ROOT: one line per include that breaks a rule.
violations() {
	r=$1
	only "$r/base" "base/" '^base/'
	includes "$r/labs" |
		awk -F: '$3 ~ /^(core|tui|cli)\// || $3 == "app.h" { print $1 ":" $2 ": labs/ includes workbench/ " $3 }'
	only "$r/workbench/core" "core" '^(core|base)/'
	if [ -d "$r/workbench/core" ]; then
		grep -rnHE --include='*.c' --include='*.h' \
			'^[[:space:]]*#[[:space:]]*include[[:space:]]*<(n?curses|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)' \
			"$r/workbench/core" | sed -E 's/^([^:]*:[0-9]+):.*<([^>]*)>.*/\1: core includes curses <\2>/'
		# A module is its .c and .h: edges between modules, then tsort.
		edges=$(includes "$r/workbench/core" | awk -F: '
			$3 ~ /^core\/.*\.h$/ {
				a = $1; sub(/.*\//, "", a); sub(/\.[ch]$/, "", a)
				b = $3; sub(/^core\//, "", b); sub(/\.h$/, "", b)
				if (a != b) print a, b
			}' | sort -u)
		if [ -n "$edges" ] && ! echo "$edges" | tsort >/dev/null 2>"$T/tsort.err"; then
			loop=$(sed -n 's/^tsort: \([^-].*\)$/\1/p' "$T/tsort.err" | sort -u | tr '\n' ' ')
			echo "workbench/core: include cycle among: $loop"
		fi
	fi
	only "$r/labs/harness" "harness" '^(base|harness|checkers)/|^event\.h$'
	only "$r/labs/recipes" "recipes" '^(base|recipes)/'
	only "$r/labs/rigs" "rigs" '^(base|harness|recipes|checkers|rigs)/'
	only "$r/labs/checkers" "checkers" '^(base|checkers)/'
	only "$r/labs/event.h" "event.h" '^base/'
	only "$r/labs/event.c" "event.c" '^base/|^event\.h$'
	only "$r/labs/lab.h" "lab.h" '^(base/|harness/runctx\.h$)'
	for topic in ids zk tasks redis; do
		includes "$r/labs/$topic" |
			awk -F: '$3 ~ /^exercises\// || $3 == "exercise.h" { print $1 ":" $2 ": a lab includes the exercise check " $3 }'
	done
	includes "$r/labs/exercises" | awk -F: '
		$3 ~ /^(ids|zk|tasks|redis)\// && $3 !~ /\.h$/ { print $1 ":" $2 ": exercises include a lab file " $3 }
		$3 ~ /^exercises\// && $3 !~ /^exercises\/[a-z0-9-]+\/api\.h$/ { print $1 ":" $2 ": exercises include " $3 }'
	# The screens are the tui/ headers the router includes (not its own
	# nav.h, nor the loop's tui.h); any of them outside nav.c, other than a
	# screen's own (the lab screen's is labscreen.h), is a cycle.
	screens=$(includes "$r/workbench/tui/nav.c" | awk -F: '$3 ~ /^tui\// && $3 != "tui/nav.h" && $3 != "tui/tui.h" { print $3 }' | tr '\n' ' ')
	includes "$r/workbench/tui" | awk -F: -v screens=" $screens " '
		{ f = $1; sub(/.*\//, "", f); sub(/\.[ch]$/, "", f) }
		index(screens, " " $3 " ") {
			h = $3; sub(/^tui\//, "", h); sub(/\.h$/, "", h)
			if (f != "nav" && h != f && !(f == "lab" && h == "labscreen"))
				print $1 ":" $2 ": screen " f " includes " $3
		}'
	app_labs "$r/workbench/tui" "tui" '^(lab|exercise|event)\.h$'
	app_labs "$r/workbench/cli" "cli" '^(lab|exercise|histfile|event)\.h$'
	app_labs "$r/workbench/main.c" "main.c" '^(lab|exercise|event)\.h$'
	if [ -f "$r/CMakeLists.txt" ]; then
		grep -nE 'target_link_libraries\((wb_labs|wb_core)[[:space:]]' "$r/CMakeLists.txt" |
			awk '/wb_labs[[:space:]].*wb_core|wb_core[[:space:]].*wb_labs/ { print "CMakeLists.txt:" $0 ": labs and core link each other" }'
	fi
}

# Self-test: one planted violation per rule, each must be found.
S="$T/tree"
mkdir -p "$S/base" "$S/labs/recipes" "$S/labs/harness" "$S/labs/checkers" "$S/labs/rigs" \
	"$S/labs/zk" "$S/labs/exercises" "$S/workbench/core" "$S/workbench/tui" "$S/workbench/cli"
printf '#include "base/wb.h"\n#include "core/store.h"\n' >"$S/base/a.c"
printf '#include "base/wb.h"\n#include "core/content.h"\n' >"$S/labs/registry.c"
printf '#include "recipes/zklock.h"\n#include "lab.h"\n#include "harness/proc.h"\n#include "event.h"\n' >"$S/labs/harness/b.h"
printf '#include "harness/report.h"\n#include "recipes/x.h"\n' >"$S/labs/recipes/c.c"
printf '#include "checkers/history.h"\n#include "harness/report.h"\n' >"$S/labs/checkers/e.c"
printf '#include "harness/report.h"\n#include "lab.h"\n' >"$S/labs/rigs/f.c"
printf '#include "base/wb.h"\n#include "lab.h"\n' >"$S/labs/event.c"
printf '#include "harness/runctx.h"\n#include "harness/report.h"\n' >"$S/labs/lab.h"
printf '#include "zk/zk-fencing.h"\n#include "exercise.h"\n' >"$S/labs/zk/g.c"
printf '#include "zk/zk-fencing.h"\n#include "zk/zk-cas.c"\n#include "exercises/zk-x/api.h"\n#include "exercises/zk-x/solution.c"\n' >"$S/labs/exercises/h.c"
printf '  #  include "lab.h"\n#include "tui/tui.h"\n' >"$S/workbench/core/d.c"
printf '#include "base/wb.h"\n#include <curses.h>\n' >"$S/workbench/core/k.c"
printf '#include "core/m2.h"\n' >"$S/workbench/core/m1.c"
printf '#include "core/m1.h"\n' >"$S/workbench/core/m2.c"
printf '#include "tui/reader.h"\n#include "tui/tui.h"\n#include "tui/quiz.h"\n#include "tui/glossary.h"\n#include "checkers/history.h"\n' >"$S/workbench/tui/quiz.c"
printf '#include "tui/nav.h"\n#include "tui/tui.h"\n#include "tui/reader.h"\n#include "tui/quiz.h"\n#include "tui/glossary.h"\n' >"$S/workbench/tui/nav.c"
printf '#include "harness/proc.h"\n#include "histfile.h"\n#include "checkers/history.h"\n' >"$S/workbench/cli/quiz_run.c"
printf '#include "lab.h"\n#include "histfile.h"\n' >"$S/workbench/main.c"
printf 'target_link_libraries(wb_core PUBLIC wb_base)\ntarget_link_libraries(wb_labs PUBLIC wb_base wb_core)\n' >"$S/CMakeLists.txt"
found=$(violations "$S")
n=0
for want in "base/a.c:2: base/ includes core/store.h" \
	"labs/registry.c:2: labs/ includes workbench/ core/content.h" \
	"labs/harness/b.h:1: harness includes recipes/zklock.h" \
	"labs/harness/b.h:2: harness includes lab.h" \
	"labs/recipes/c.c:1: recipes includes harness/report.h" \
	"labs/checkers/e.c:2: checkers includes harness/report.h" \
	"labs/rigs/f.c:2: rigs includes lab.h" \
	"labs/event.c:2: event.c includes lab.h" \
	"labs/lab.h:2: lab.h includes harness/report.h" \
	"labs/zk/g.c:2: a lab includes the exercise check exercise.h" \
	"labs/exercises/h.c:2: exercises include a lab file zk/zk-cas.c" \
	"labs/exercises/h.c:4: exercises include exercises/zk-x/solution.c" \
	"workbench/core/d.c:1: core includes lab.h" \
	"workbench/core/d.c:2: core includes tui/tui.h" \
	"workbench/core/k.c:2: core includes curses <curses.h>" \
	"workbench/core: include cycle among: m1 m2" \
	"workbench/tui/quiz.c:1: screen quiz includes tui/reader.h" \
	"workbench/tui/quiz.c:4: screen quiz includes tui/glossary.h" \
	"workbench/tui/quiz.c:5: tui includes checkers/history.h" \
	"workbench/cli/quiz_run.c:1: cli includes harness/proc.h" \
	"workbench/cli/quiz_run.c:3: cli includes checkers/history.h" \
	"workbench/main.c:2: main.c includes histfile.h" \
	"CMakeLists.txt:2:target_link_libraries(wb_labs PUBLIC wb_base wb_core): labs and core link each other"; do
	echo "$found" | grep -qF "$want" || fail "self-test: '$want' not reported; got: $found"
	n=$((n + 1))
done
[ "$(echo "$found" | wc -l)" -eq $n ] || fail "self-test: expected $n violations, got: $found"

out=$(violations "$WB_SRC")
[ -z "$out" ] || fail "include rules broken:
$out"
echo ok
