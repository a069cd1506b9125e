#!/bin/sh
# run.sh BUILD_DIR SOURCE_DIR SECONDS: runs every fuzz target for SECONDS
# (default 600) with a corpus seeded from the shipped files and
# tests/fuzz/seeds/NAME (deep nesting and long lines among them), the
# Markdown targets with tests/fuzz/markdown.dict.  Exits
# non-zero on the first finding; the crashing input is kept in
# BUILD_DIR/fuzz-artifacts/.
#
# The slow targets (whole lessons laid out or linted: some 50 inputs a
# second, review r3 section 5) get SLOW_FACTOR times SECONDS (default 4),
# so a run is more than a smoke test for them too; FUZZ_ONLY=NAME runs one
# target.  Every target's log ends with "NAME: N executions in S s (R/s),
# peak RSS M MB", from libFuzzer's final stat lines.
set -eu
build=$1 src=$2 secs=${3:-600}
[ -n "$secs" ] || secs=600
mkdir -p "$build/fuzz-artifacts"
# Undefined behaviour is a finding too: stop at the first report so
# libFuzzer keeps the input.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
slow_factor=${SLOW_FACTOR:-4}
for bin in "$build"/tests/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	[ -z "${FUZZ_ONLY:-}" ] || [ "$name" = "$FUZZ_ONLY" ] || continue
	corpus="$build/fuzz-corpus/$name"
	mkdir -p "$corpus"
	case $name in
	fuzz_layout | fuzz_quiz | fuzz_lessonlint)
		# Seeds: a width byte followed by one ## section of a shipped
		# file (whole chapters are too big to mutate quickly).  For
		# fuzz_lessonlint the byte is part of the text: harmless.
		for f in "$src"/lessons/*/*.md "$src"/quizzes/*/*.md "$src"/tests/fixtures/*/*/*.md; do
			[ -f "$f" ] || continue
			tag="$(basename "$(dirname "$f")")-$(basename "$f" .md)"
			[ -f "$corpus/seed-$tag-0" ] && continue
			awk -v out="$corpus/seed-$tag-" 'BEGIN { n = 0; printf "F" > (out n) }
				/^## / { close(out n); n++; printf "P" > (out n) }
				{ print > (out n) }' "$f"
		done
		;;
	esac
	case $name in
	fuzz_lessonlint)
		# Seeds: the depths of review r3 N4 (generated: 100-500 KB).
		rep() { awk -v s="$1" -v n="$2" 'BEGIN { printf "# D\n\n"; while (n-- > 0) printf "%s", s; print " x" }'; }
		[ -f "$corpus/seed-deep-quote" ] || rep '>' 100000 >"$corpus/seed-deep-quote"
		[ -f "$corpus/seed-deep-quote-list" ] || rep '> - ' 30000 >"$corpus/seed-deep-quote-list"
		[ -f "$corpus/seed-deep-image" ] || awk 'BEGIN { printf "# D\n\n"; for (i = 0; i < 30000; i++) printf "!["
			printf "x"; for (i = 0; i < 30000; i++) printf "](u)"; print "" }' >"$corpus/seed-deep-image"
		;;
	fuzz_lessontimeline)
		# Seeds: a width byte followed by a shipped lesson timeline.
		for f in "$src"/lessons/timelines/*.jsonl "$src"/tests/fixtures/timeline/*.jsonl; do
			[ -f "$f" ] || continue
			tag=$(basename "$f" .jsonl)
			[ -f "$corpus/seed-$tag" ] || { printf P && cat "$f"; } >"$corpus/seed-$tag"
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
	fuzz_layout | fuzz_quiz | fuzz_lessonlint) dict="-dict=$src/tests/fuzz/markdown.dict" ;;
	esac
	# Slow targets get longer; fuzz_lessonlint may grow inputs to 1 MiB:
	# the lint walk's stack overflow needed 80 KB of '>' (review r3 N4),
	# beyond the 64 KiB the others stop at.
	t=$secs max_len=65536
	case $name in
	fuzz_layout | fuzz_quiz | fuzz_lessonlint | fuzz_lessontimeline) t=$((secs * slow_factor)) ;;
	esac
	[ "$name" = fuzz_lessonlint ] && max_len=1048576
	echo "== $name for ${t}s"
	log="$build/fuzz-artifacts/$name.log"
	"$bin" $dict -max_total_time="$t" -max_len=$max_len -timeout=20 -report_slow_units=30 -rss_limit_mb=2048 \
		-artifact_prefix="$build/fuzz-artifacts/$name-" -print_final_stats=1 "$corpus" >"$log" 2>&1 || true
	grep -E "^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY)" "$log" || true
	# The executions: the final stat line, else the last "#N" status line
	# (a run cut short by a finding prints no final stats).
	execs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$log" | tail -n 1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\)[[:space:]].*/\1/p' "$log" | tail -n 1)
	rss=$(sed -n 's/^stat::peak_rss_mb:[[:space:]]*//p' "$log" | tail -n 1)
	secs_run=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	[ -n "$secs_run" ] && [ "$secs_run" -gt 0 ] || secs_run=$t
	echo "$name: ${execs:-0} executions in ${secs_run} s ($(( ${execs:-0} / secs_run ))/s), peak RSS ${rss:-?} MB"
	# crash-, leak-, timeout- and oom- inputs are findings; a slow-unit-
	# input is libFuzzer noting a run over -report_slow_units seconds
	# (a large seed on a loaded machine), kept for a look but not a finding.
	for kind in crash leak timeout oom; do
		ls "$build/fuzz-artifacts/$name-$kind-"* >/dev/null 2>&1 && { echo "finding in $name ($kind)"; exit 1; }
	done
done
echo "fuzzing done: no findings"
