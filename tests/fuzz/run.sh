#!/bin/sh
# run.sh BUILD_DIR SOURCE_DIR SECONDS: runs every fuzz target for SECONDS
# (default 600) with a corpus seeded from the shipped files and
# tests/fuzz/seeds/NAME (deep nesting and long lines among them), the
# Markdown targets with tests/fuzz/markdown.dict.  Exits
# non-zero on the first finding; the crashing input is kept in
# BUILD_DIR/fuzz-artifacts/.
set -eu
build=$1 src=$2 secs=${3:-600}
[ -n "$secs" ] || secs=600
mkdir -p "$build/fuzz-artifacts"
# Undefined behaviour is a finding too: stop at the first report so
# libFuzzer keeps the input.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
for bin in "$build"/tests/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	corpus="$build/fuzz-corpus/$name"
	mkdir -p "$corpus"
	case $name in
	fuzz_layout | fuzz_quiz)
		# Seeds: a width byte followed by one ## section of a shipped
		# file (whole chapters are too big to mutate quickly).
		for f in "$src"/lessons/*/*.md "$src"/quizzes/*/*.md "$src"/tests/fixtures/*/*/*.md; do
			[ -f "$f" ] || continue
			tag="$(basename "$(dirname "$f")")-$(basename "$f" .md)"
			[ -f "$corpus/seed-$tag-0" ] && continue
			awk -v out="$corpus/seed-$tag-" 'BEGIN { n = 0; printf "F" > (out n) }
				/^## / { close(out n); n++; printf "P" > (out n) }
				{ print > (out n) }' "$f"
		done
		;;
	fuzz_sqlfile)
		# Seeds: every shipped SQL exercise file (solutions, starters,
		# known-wrong variants).
		for f in "$src"/exercises/*/*.sql "$src"/exercises/*/wrong/*.sql; do
			[ -f "$f" ] || continue
			tag=$(echo "$f" | sed "s|^$src/exercises/||; s|/|-|g")
			cp -n "$f" "$corpus/seed-$tag" 2>/dev/null || true
		done
		;;
	esac
	[ -d "$src/tests/fuzz/seeds/$name" ] && cp -n "$src/tests/fuzz/seeds/$name"/* "$corpus"/ 2>/dev/null || true
	# The nesting and quiz-format tokens (#20 F2): deep quotes, lists
	# and emphasis are a few mutations away instead of never.
	dict=
	case $name in
	fuzz_layout | fuzz_quiz) dict="-dict=$src/tests/fuzz/markdown.dict" ;;
	esac
	echo "== $name for ${secs}s"
	"$bin" $dict -max_total_time="$secs" -max_len=65536 -timeout=20 -report_slow_units=30 -rss_limit_mb=2048 \
		-artifact_prefix="$build/fuzz-artifacts/$name-" -print_final_stats=1 "$corpus" 2>&1 |
		grep -E "^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY)" || true
	# crash-, leak-, timeout- and oom- inputs are findings; a slow-unit-
	# input is libFuzzer noting a run over -report_slow_units seconds
	# (a large seed on a loaded machine), kept for a look but not a finding.
	for kind in crash leak timeout oom; do
		ls "$build/fuzz-artifacts/$name-$kind-"* >/dev/null 2>&1 && { echo "finding in $name ($kind)"; exit 1; }
	done
done
echo "fuzzing done: no findings"
