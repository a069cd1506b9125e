# completion/workbench.bash - bash completion for workbench(1), installed
# as share/bash-completion/completions/workbench.
#
# Everything comes from the binary itself, so a new command, option or lab
# needs no change here: command words from `workbench --help`, a
# command's options and placeholders from `workbench CMD [SUB] --help`,
# chapter ids from `lessons` and `quiz list`, lab ids from `lab list`,
# exercise ids from `exercise list`, question ids from `quiz list`.  An
# argument is completed by the placeholder its usage line shows: ID (lab,
# exercise or chapter by the command's group), CHAPTER, QUESTION, FILE or
# PATH (files), DIR (folders), and `a|b` choices after an option.  Each
# answer is cached for the shell session per --content/--quizzes/--lang,
# so a <Tab> costs at most a few runs of the binary the first time and none
# afterwards.  It does not complete inside zk-lock's COMMAND beyond `--`
# (that is the command's own completion's job).

# _workbench_run ARGS...: the binary with the global options of the line
# being completed that change what lists contain.
_workbench_run()
{
	"${_workbench_bin:-workbench}" "${_workbench_glob[@]}" "$@" 2>/dev/null
}

# _workbench_cached KEY CMD...: CMD's output into _workbench_out, cached
# for the shell session under KEY and the global options (call it
# directly, not in $(...): a subshell's cache would be lost).
declare -gA _workbench_cache 2>/dev/null || declare -A _workbench_cache
_workbench_cached()
{
	local key="$1 ${_workbench_glob[*]}"
	shift
	if [[ -z ${_workbench_cache[$key]+set} ]]; then
		_workbench_cache[$key]="$("$@")"
	fi
	_workbench_out="${_workbench_cache[$key]}"
}

# Command lines of --help: "name" or "name sub".
_workbench_commands()
{
	_workbench_run --help | awk '
		/^Commands/ { on = 1; next }
		/^Options/ { on = 0 }
		on && /^  [a-z]/ {
			# the words fill the first 28 columns, the help follows
			split(substr($0, 3, 28), w, " ")
			if (w[2] ~ /^[a-z][a-z-]*$/) print w[1] " " w[2]; else print w[1]
		}'
}

_workbench_usage()
{
	_workbench_run "$@" --help | sed -n '1s/^usage: workbench //p'
}

_workbench_global_opts()
{
	_workbench_run --help | sed -n '/^Options:/,$p' | grep -oE -- '(^| )-{1,2}[A-Za-z][a-z-]*' |
		tr -d ' ' | sort -u
}

_workbench_chapters()
{
	{
		_workbench_run lessons | cut -f1
		_workbench_run quiz list | cut -f3
	} | sort -u
}

_workbench_labs() { _workbench_run lab list | awk '{print $1}'; }
_workbench_questions() { _workbench_run quiz list | cut -f1; }

# Exercise ids: the first field of each line of `exercise list` that
# looks like an id and is not a chapter id (NN-...).
_workbench_exercises()
{
	_workbench_run exercise list | awk '{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[a-z][a-z0-9]*(-[a-z0-9]+)+$/) { print $i; break }
	}'
}

# _workbench_nargs USAGE NWORDS: how many arguments the line has so far
# after the command words, not counting options and the values of the
# options USAGE shows with one ("--anki FILE"; "[--force]" has none).
_workbench_nargs()
{
	local usage="$1" nwords="$2" raw valued=" " prev_opt="" i w n=0 seen=0
	for raw in $usage; do
		if [[ -n $prev_opt ]]; then
			valued+="$prev_opt "
			prev_opt=""
		fi
		[[ $raw == -* || $raw == "[-"* ]] && [[ $raw != *] ]] && prev_opt="${raw#[}"
	done
	for ((i = 1; i < COMP_CWORD; i++)); do
		w="${COMP_WORDS[i]}"
		case "$w" in
		--content | --quizzes | --lang | --db | --width | --new-per-day | --day-starts) ((i++)) ;;
		-*) [[ $valued == *" $w "* ]] && ((i++)) ;;
		*) if ((seen < nwords)); then ((seen++)); else ((n++)); fi ;;
		esac
	done
	echo "$n"
}

_workbench()
{
	local cur prev words cword
	cur="${COMP_WORDS[COMP_CWORD]}"
	prev=""
	((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD - 1]}"
	_workbench_bin="${COMP_WORDS[0]}"
	_workbench_glob=()
	COMPREPLY=()

	# The command words so far, and the global options that matter.
	local i w cmd="" sub="" nwords=0 seen_dashdash=0
	local -a pos=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		w="${COMP_WORDS[i]}"
		case "$w" in
		--) seen_dashdash=1 ;;
		--content | --quizzes | --lang)
			_workbench_glob+=("$w" "${COMP_WORDS[i + 1]}")
			((i++))
			;;
		--content=* | --quizzes=* | --lang=*) _workbench_glob+=("$w") ;;
		--db | --width | --new-per-day | --day-starts) ((i++)) ;;
		-*) ;;
		*) pos+=("$w") ;;
		esac
	done
	((seen_dashdash)) && return 0

	local commands
	_workbench_cached commands _workbench_commands
	commands="$_workbench_out"
	if ((${#pos[@]} >= 1)); then
		cmd="${pos[0]}"
		if ((${#pos[@]} >= 2)) && grep -qxF "$cmd ${pos[1]}" <<<"$commands"; then
			sub="${pos[1]}"
			nwords=2
		elif grep -qxF "$cmd" <<<"$commands"; then
			nwords=1
		else
			nwords=1
			if ((${#pos[@]} == 1)) && grep -q "^$cmd " <<<"$commands"; then
				# a group without its subcommand yet: complete it
				COMPREPLY=($(compgen -W "$(grep "^$cmd " <<<"$commands" | cut -d' ' -f2)" -- "$cur"))
				return 0
			fi
		fi
	fi

	# Option values: the global ones, then choices shown in the usage.
	case "$prev" in
	--lang)
		COMPREPLY=($(compgen -W "en zh" -- "$cur"))
		return 0
		;;
	--content | --quizzes)
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0
		;;
	--db | -o | --output | --file | --svg | --anki)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--width | --new-per-day | --day-starts) return 0 ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_workbench_cached gopts _workbench_global_opts
			COMPREPLY=($(compgen -W "$_workbench_out" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "help version $(cut -d' ' -f1 <<<"$commands" | sort -u)" -- "$cur"))
		fi
		return 0
	fi
	if [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "$(cut -d' ' -f1 <<<"$commands" | sort -u)" -- "$cur"))
		return 0
	fi

	local usage
	_workbench_cached "usage $cmd $sub" _workbench_usage $cmd $sub
	usage="$_workbench_out"
	[[ -z $usage ]] && return 0
	local rest="${usage#"$cmd"}"
	[[ -n $sub ]] && rest="${rest# "$sub"}"

	# prev is an option of this command that takes a value: its choices.
	if [[ $prev == -* ]]; then
		local after
		after="$(grep -oE -- "\\[?$prev [^] ]+" <<<"$rest" | head -n 1 | cut -d' ' -f2)"
		if [[ -n $after ]]; then
			case "$after" in
			*\|*)
				COMPREPLY=($(compgen -W "${after//|/ }" -- "$cur"))
				;;
			FILE* | PATH* | *.svg | *.jsonl) COMPREPLY=($(compgen -f -- "$cur")) ;;
			DIR*) COMPREPLY=($(compgen -d -- "$cur")) ;;
			esac
			return 0
		fi
	fi

	if [[ $cur == -* ]]; then
		local opts
		opts="$(grep -oE -- '(^|[[ |])-{1,2}[a-z][a-z-]*' <<<"$rest" | grep -oE -- '-{1,2}[a-z-]+' | sort -u)"
		COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
		return 0
	fi

	# The first placeholder of the usage that is not an option or its value.
	local ph="" tok skip=0
	local raw
	for raw in $rest; do
		tok="${raw#[}"
		tok="${tok%]}"
		tok="${tok%...}"
		if ((skip)); then
			skip=0
			continue
		fi
		case "$tok" in
		--) break ;;
		# an option takes a value unless its bracket closes on it ([--json])
		-*) [[ $raw == *] ]] || skip=1 ;;
		*) if [[ $tok =~ [A-Z] ]]; then
			ph="$tok"
			break
		fi ;;
		esac
	done
	case "$ph" in
	ID* | CHAPTER* | QUESTION*)
		local list=""
		case "$ph" in
		QUESTION*) _workbench_cached questions _workbench_questions && list="$_workbench_out" ;;
		CHAPTER*) _workbench_cached chapters _workbench_chapters && list="$_workbench_out" ;;
		*)
			case "$cmd" in
			lab) _workbench_cached labs _workbench_labs && list="$_workbench_out" ;;
			exercise) _workbench_cached exercises _workbench_exercises && list="$_workbench_out" ;;
			lesson) _workbench_cached chapters _workbench_chapters && list="$_workbench_out" ;;
			esac
			;;
		esac
		[[ $ph == *\|glossary* ]] && list="$list glossary"
		# only the first argument after the command words takes an id
		(($(_workbench_nargs "$rest" "$nwords") == 0)) &&
			COMPREPLY=($(compgen -W "$list" -- "$cur"))
		;;
	FILE* | PATH* | *.jsonl | *.json) COMPREPLY=($(compgen -f -- "$cur")) ;;
	DIR*) COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
	return 0
}

complete -F _workbench workbench
