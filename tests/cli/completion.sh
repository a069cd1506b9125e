# completion.sh - the bash completion (completion/workbench.bash) under a
# real bash: `complete -p` registers it, and simulated command lines
# (COMP_WORDS/COMP_CWORD, as readline fills them) complete commands,
# subcommands, options, option choices, chapter, lab and question ids.
# Skips (77) without bash.
. "$(dirname "$0")/../lib/common.sh"
: "${WB_SRC:?WB_SRC must point at the source tree}"
command -v bash >/dev/null 2>&1 || skip "bash is not installed"

# The binary under the name the completion is registered for.
mkdir "$T/bin"
ln -s "$WB_BIN" "$T/bin/workbench"

# comp LINE: the candidates bash offers for LINE (completing its last
# word; a trailing space starts a new word), one per line, sorted.
cat >"$T/comp.bash" <<'EOS'
. "$WB_SRC/completion/workbench.bash"
complete -p workbench | grep -q -- '-F _workbench workbench' || { echo "not registered" >&2; exit 3; }
line="$1"
read -r -a COMP_WORDS <<<"$line"
case "$line" in *' ') COMP_WORDS+=("") ;; esac
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$line"
COMP_POINT=${#line}
_workbench workbench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}" | sort
EOS
comp() {
	PATH="$T/bin:$PATH" WB_SRC="$WB_SRC" bash --norc --noprofile "$T/comp.bash" "$1" ||
		fail "completion script failed for '$1'"
}
has() { # has LINE WORD...: every WORD is offered for LINE
	line="$1"
	shift
	out=$(comp "$line")
	for w in "$@"; do
		printf '%s\n' "$out" | grep -qxF -- "$w" || fail "'$line<Tab>' does not offer '$w'; offers: $(echo $out)"
	done
}
hasnt() {
	line="$1"
	shift
	out=$(comp "$line")
	for w in "$@"; do
		printf '%s\n' "$out" | grep -qxF -- "$w" && fail "'$line<Tab>' offers '$w'; offers: $(echo $out)"
	done
	return 0
}

# Commands and groups.
has "workbench " lessons lesson lab quiz progress zk-lock help version
hasnt "workbench " lint run
has "workbench qu" quiz
has "workbench quiz " run lint new list stats export
hasnt "workbench lessons " list
has "workbench quiz r" run
has "workbench lab " list run
has "workbench help " quiz lab
# Every command word of --help is offered (new commands need no edit).
for w in $("$WB_BIN" --help | awk '/^Commands/{on=1;next} /^Options/{on=0} on && /^  [a-z]/{print $1}' | sort -u); do
	has "workbench " "$w"
done

# Global options and their values.
has "workbench --" --lang --content --quizzes --db --width --help --version
has "workbench --lang " en zh
hasnt "workbench --lang " lessons

# Lab ids (from lab list) after lab run, once.
n=0
for id in $("$WB_BIN" lab list | awk '{print $1}'); do
	has "workbench lab run " "$id"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "lab list gave only $n ids"
has "workbench lab run zk-c" zk-cas zk-create-lost
hasnt "workbench lab run zk-cas " zk-cas
has "workbench lab run zk-cas --" --json --zk --help

# Chapter ids, from the shipped lessons and from a fixture content folder.
has "workbench lesson show " 01-locks-ids-leases 02-zookeeper-fencing glossary
has "workbench quiz run " 01-locks-ids-leases 02-zookeeper-fencing
has "workbench --content $WB_FIXTURES lesson show " 00-fixture
hasnt "workbench --content $WB_FIXTURES lesson show " 01-locks-ids-leases
has "workbench quiz run 01-locks-ids-leases --" --plain --limit --open-book --abandon --due
has "workbench quiz new 01 --lang " en zh
has "workbench progress export --format " csv json
has "workbench quiz export --anki x.tsv --force " 01-locks-ids-leases
hasnt "workbench lab run " 01-locks-ids-leases

# Question ids from quiz list, where a usage names QUESTION; the helper
# itself returns every id of quiz list.
q=$(PATH="$T/bin:$PATH" bash --norc -c ". '$WB_SRC/completion/workbench.bash'; _workbench_glob=(); _workbench_questions" | sort)
[ "$q" = "$("$WB_BIN" quiz list | cut -f1 | sort)" ] || fail "question ids differ from quiz list"
[ -n "$q" ] || fail "no question ids"

# Files for FILE placeholders; nothing after zk-lock's --.
touch "$T/export-ana.json"
has "workbench progress import $T/export-a" "$T/export-ana.json"
out=$(comp "workbench zk-lock --zk 127.0.0.1:2181 --path /locks/x -- ")
[ -z "$out" ] || fail "completion inside zk-lock's COMMAND: $out"

# Exercise ids from `exercise list` (its table: chapter, id, lang, state,
# hints, title), through a stand-in binary that prints such a table.
mkdir "$T/stub"
cat >"$T/stub/workbench" <<EOS
#!/bin/sh
if [ "\$1 \$2" = "exercise list" ]; then
	printf 'ch  id                   lang  state        hints  title\n'
	printf '01  redis-release        lua   not started  0/3    Release a lock (compare-and-delete)\n'
	printf '01  zk-lock-step         c     passed       1/3    One step of the lock-recipe\n'
	exit 0
fi
exec "$WB_BIN" "\$@"
EOS
chmod +x "$T/stub/workbench"
if "$WB_BIN" exercise check --help >/dev/null 2>&1; then
	out=$(PATH="$T/stub:$PATH" WB_SRC="$WB_SRC" bash --norc --noprofile "$T/comp.bash" "workbench exercise check ")
	[ "$(echo $out)" = "redis-release zk-lock-step" ] || fail "exercise ids: $(echo $out)"
fi

# Fast: a second <Tab> in the same shell runs nothing (cached).
cat >"$T/twice.bash" <<'EOS'
. "$WB_SRC/completion/workbench.bash"
COMP_WORDS=(workbench lab run ""); COMP_CWORD=3
_workbench
first=${#COMPREPLY[@]}
COMP_WORDS=(/nonexistent lab run ""); COMP_CWORD=3
_workbench
[ "$first" -gt 0 ] && [ "${#COMPREPLY[@]}" = "$first" ]
EOS
PATH="$T/bin:$PATH" WB_SRC="$WB_SRC" bash --norc --noprofile "$T/twice.bash" ||
	fail "the second completion did not come from the cache"
echo "completion: $n lab ids, $(echo "$q" | wc -l) question ids"
