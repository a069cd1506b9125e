# cli_help.sh - the command line off the happy path (ux.md #15): every
# command's --help (and `help CMD`) prints that command's usage; unknown
# options are errors naming the option; "did you mean" for a mistyped
# command, subcommand, option, chapter and lab id; chapters by a unique
# prefix; no absolute source paths in messages; `lab list` marks the labs
# that take --zk and the others refuse it; an unreachable --zk says it is
# unreachable; `help`, `version` and `-v`.
. "$(dirname "$0")/../lib/common.sh"

export WORKBENCH_RUN_BASE="$T/runs"
mkdir -p "$WORKBENCH_RUN_BASE"
WB="$WB_BIN --content $WB_SRC --db $T/p.db --lang en"

# expect RC PATTERN WHAT CMD...: CMD exits RC with PATTERN in its output.
expect() {
	want=$1 pat=$2 what=$3
	shift 3
	rc=0
	"$@" >"$T/out" 2>&1 </dev/null || rc=$?
	[ $rc -eq "$want" ] || fail "$what: exit $rc, want $want: $(cat "$T/out")"
	grep -q -- "$pat" "$T/out" || fail "$what: no '$pat' in: $(cat "$T/out")"
}

# Every command of --help: its own usage from --help and from `help`, and
# an unknown option named as such.
"$WB_BIN" --help | sed -n '/^Commands/,/^$/p' |
	awk '/^  [a-z]/ { split(substr($0, 1, 30), f, " "); w = f[1]
		if (f[2] ~ /^[a-z]+$/) w = w " " f[2]; print w }' >"$T/cmds"
[ "$(wc -l <"$T/cmds")" -ge 14 ] || fail "too few commands in --help: $(cat "$T/cmds")"
while read -r cmd; do
	expect 0 "^usage: workbench $cmd" "$cmd --help" $WB $cmd --help
	[ "$(grep -c '^usage:' "$T/out")" = 1 ] || fail "$cmd --help is not its own usage: $(cat "$T/out")"
	expect 0 "^usage: workbench $cmd" "help $cmd" $WB help $cmd
	expect 2 "unknown option '--no-such-option'" "$cmd --no-such-option" $WB $cmd --no-such-option
done <"$T/cmds"
for group in lesson lab quiz progress; do
	expect 0 "^usage: workbench $group SUBCOMMAND" "$group --help" $WB $group --help
done

# help, version, -v.
expect 0 "^usage: workbench \[OPTIONS\]" "help" $WB help
for v in version -v -V --version; do
	expect 0 "^workbench [0-9]*\.[0-9]*\.[0-9]*\(-[0-9]*-g[0-9a-f]*\)\{0,1\}\(-dirty\)\{0,1\}$" "$v" $WB $v
done

# Did you mean.
expect 2 "unknown command 'lessson' (did you mean 'lesson'?)" "lessson" $WB lessson
expect 2 "unknown command 'verison' (did you mean 'version'?)" "verison" $WB verison
expect 2 "unknown subcommand 'shwo' (did you mean 'show'?)" "lesson shwo" $WB lesson shwo 01
expect 2 "unknown subcommand 'lsit' (did you mean 'list'?)" "lab lsit" $WB lab lsit
expect 2 "unknown option '--jsn' (did you mean '--json'?)" "--jsn" $WB lab run zk-cas --jsn
expect 2 "unknown option '--lagn' (did you mean '--lang'?)" "--lagn" $WB --lagn en lessons
expect 2 "no lab 'zk-cass' in this build (did you mean zk-cas?)" "zk-cass" $WB lab run zk-cass
expect 2 "no chapter '01-lcks-ids-leases' (did you mean 01-locks-ids-leases?)" "chapter typo" \
	$WB lesson show 01-lcks-ids-leases
expect 2 "unknown command 'frobnicate'; see" "no close command" $WB frobnicate
grep -q "did you mean" "$T/out" && fail "a suggestion for frobnicate: $(cat "$T/out")"

# Chapters by a unique prefix; no source paths in messages.
expect 0 "^Lock recipes, IDs and task leases" "lesson show 01" $WB lesson show 01
expect 0 "	01-locks-ids-leases	" "quiz list 01" $WB quiz list 01
grep -v "	01-locks-ids-leases	" "$T/out" | grep -q . && fail "quiz list 01 lists other chapters"
expect 2 "no chapter '03-nope'; chapters: 01-locks-ids-leases, 02-zookeeper-fencing" "03-nope" \
	$WB lesson show 03-nope
grep -qF "$WB_SRC" "$T/out" && fail "lesson show 03-nope names a source path: $(cat "$T/out")"
expect 2 "'0' names several chapters: 01-locks-ids-leases, 02-zookeeper-fencing" "ambiguous" \
	$WB lesson show 0
expect 2 "no chapter '03'" "quiz new 03" env EDITOR=true $WB --quizzes "$T/q" quiz new 03
grep -qF "$WB_SRC" "$T/out" && fail "quiz new 03 names a source path: $(cat "$T/out")"

# --zk: lab list marks the labs that take it; the others refuse it.
"$WB_BIN" lab list >"$T/labs" 2>"$T/labs.err" || fail "lab list"
grep -q "^zk-cas  *01  *--zk " "$T/labs" || fail "lab list does not mark zk-cas --zk: $(cat "$T/labs")"
grep -q "^task-claim .*--zk" "$T/labs" && fail "lab list marks task-claim --zk"
grep -q "^zk-stale-read .*--zk" "$T/labs" && fail "lab list marks zk-stale-read --zk"
grep -q "^--zk: " "$T/labs.err" || fail "lab list does not explain --zk: $(cat "$T/labs.err")"
"$WB_BIN" lab list --json | grep -q '"id":"zk-cas".*"zk_option":true' || fail "lab list --json zk_option"
expect 2 "lab task-claim does not use ZooKeeper" "task-claim --zk" \
	$WB lab run task-claim --zk 127.0.0.1:2181
expect 2 "cannot connect to ZooKeeper at 127.0.0.1:1 within [0-9]* ms: it is unreachable" \
	"unreachable --zk" $WB lab run zk-cas --zk 127.0.0.1:1
grep -q "required program" "$T/out" && fail "unreachable --zk blames a program: $(cat "$T/out")"
echo ok
