#!/bin/sh
# zklock_before_after.sh - the lock recipe before and after a change, in
# one sitting: links today's bench_zklock (bench/zklock_bench.c, its
# per-round ratio) against the labs/recipes/zklock.c of an older commit,
# then runs the old and the new binary alternately, so both see the same
# machine load.  It only builds into build/ and prints what the benches
# print; it judges nothing (timings are never test conditions).
#
#   bench/zklock_before_after.sh COMMIT [RUNS] [-- bench_zklock options]
#
# Needs a configured, built tree in build/ (cmake --build build).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 COMMIT [RUNS] [-- bench options]" >&2; exit 2; }
commit=$1; shift
runs=2
if [ $# -ge 1 ] && [ "$1" != "--" ]; then runs=$1; shift; fi
[ $# -ge 1 ] && [ "$1" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
b=$root/build
obj=$b/bench/CMakeFiles/bench_zklock.dir/zklock_bench.c.o
[ -f "$obj" ] && [ -x "$b/bench/bench_zklock" ] || { echo "$0: build bench_zklock first" >&2; exit 2; }
short=$(git -C "$root" rev-parse --short "$commit")
old=$b/bench_zklock_at_$short
src=$b/zklock_at_$short.c
git -C "$root" show "$commit:labs/recipes/zklock.c" >"$src"
flags="-O2 -g -DNDEBUG -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64"
inc="-I$root/workbench -I$root -I$root/labs"
cc $flags $inc -c "$src" -o "$b/zklock_at_$short.o"
# The old recipe's object comes first, so the archive's zklock.o is not
# pulled in; the rest links as bench_zklock does (CMake's link line).
link=$(sed -e "s|CMakeFiles/bench_zklock.dir/zklock_bench.c.o|$obj $b/zklock_at_$short.o|" \
	-e "s|-o bench_zklock|-o $old|" "$b/bench/CMakeFiles/bench_zklock.dir/link.txt")
(cd "$b/bench" && eval "$link")
for i in $(seq "$runs"); do
	echo "== run $i, recipe at $short (before); $(uptime)"
	"$old" "$@"
	echo "== run $i, recipe of this tree (after); $(uptime)"
	"$b/bench/bench_zklock" "$@"
done
