#!/bin/sh
# format.sh - every C file of the project is formatted as .clang-format
# says (CONTRIBUTING.md, house style): clang-format --dry-run --Werror on
# each tracked *.c and *.h.  Skips without clang-format or git.
. "$(dirname "$0")/../lib/common.sh"

command -v clang-format >/dev/null || skip "clang-format is not installed"
command -v git >/dev/null || skip "git is not installed"
cd "$WB_SRC" || fail "no source tree"
git rev-parse --git-dir >/dev/null 2>&1 || skip "$WB_SRC is not a git checkout"
bad=""
for f in $(git ls-files '*.c' '*.h'); do
	clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
done
[ -z "$bad" ] || fail "not formatted (clang-format -i FILE):$bad"
echo "ok: every tracked C file is formatted"
