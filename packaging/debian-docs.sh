#!/bin/sh
# packaging/debian-docs.sh - the package's copyright file and changelog.
#
#   packaging/debian-docs.sh SRC OUT VERSION MAINTAINER [EPOCH]
#
# Writes OUT/copyright: packaging/copyright.in (machine-readable, DEP-5)
# followed by one License paragraph per licence it names, the text taken
# from SRC/LICENSES/ (so it is never a second copy to keep in step).
#
# Writes OUT/changelog.gz: NEWS.md in the Debian changelog format (the
# file a native package ships as /usr/share/doc/workbench/changelog.gz;
# Policy 12.7).  "## Unreleased" becomes an entry for VERSION dated EPOCH
# (the last commit's time, for a reproducible package; default now); a
# released "## X.Y.Z (YYYY-MM-DD)" section becomes an entry of its own when
# X.Y.Z is older than VERSION, else (a build before that version's tag,
# VERSION X.Y.Z~git...) its items join the top entry.  gzip -9n, as
# dh_compress does.  Run by CMake at build time (the package_docs target).
set -eu
[ $# -ge 4 ] || {
	echo "usage: packaging/debian-docs.sh SRC OUT VERSION MAINTAINER [EPOCH]" >&2
	exit 2
}
src=$1 out=$2 version=$3 maint=$4 epoch=${5:-$(date +%s)}
mkdir -p "$out"

# --- copyright ------------------------------------------------------------
license_paragraph() { # NAME FILE
	echo
	echo "License: $1"
	sed -e 's/[[:space:]]*$//' -e 's/^$/./' -e 's/^/ /' "$2"
}
{
	cat "$src/packaging/copyright.in"
	# The licence grant of the MIT licence is the part after its
	# copyright line; Debian calls it Expat.
	echo "License: Expat"
	sed -n '/^Permission is hereby granted/,$p' "$src/LICENSES/MIT.txt" |
		sed -e 's/[[:space:]]*$//' -e 's/^$/./' -e 's/^/ /'
	license_paragraph CC-BY-SA-4.0 "$src/LICENSES/CC-BY-SA-4.0.txt"
} | sed -e '$!N;/^\n$/!P;D' >"$out/copyright.tmp" # no two blank lines in a row
mv "$out/copyright.tmp" "$out/copyright"

# --- changelog ------------------------------------------------------------
rfc2822() { LC_ALL=C date -u -R -d "$1"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/debian-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Split NEWS.md into one file of items per section: $tmp/N.items, with
# $tmp/N.head holding "VERSION DATE" (DATE empty for Unreleased).
awk -v dir="$tmp" '
	/^## / {
		n++; h = substr($0, 4)
		if (h ~ /^Unreleased/) head = "UNRELEASED"
		else { v = h; sub(/[ \t].*/, "", v); d = h; sub(/^[^(]*\(/, "", d); sub(/\).*/, "", d); head = v " " d }
		print head > (dir "/" n ".head"); close(dir "/" n ".head")
		printf "" > (dir "/" n ".items")
		next
	}
	n && /^- / { item = substr($0, 3); printf "\n%s", item >> (dir "/" n ".items"); next }
	n && /^  [^ ]/ { line = $0; sub(/^ +/, "", line); printf " %s", line >> (dir "/" n ".items"); next }
' "$src/NEWS.md"

# emit ITEMSFILE: the items as "  * ..." lines wrapped at 78 columns.
emit() {
	{ cat "$1"; echo; } | sed '/^$/d' | while IFS= read -r item; do
		printf '%s\n' "$item" | fold -s -w 72 | sed -e 's/[[:space:]]*$//' -e '1s/^/  * /' -e '1!s/^/    /'
	done
}

top="$tmp/top.items"
: >"$top"
n=1
entries=""
while [ -f "$tmp/$n.head" ]; do
	read -r v d <"$tmp/$n.head" || true
	if [ "$v" = UNRELEASED ] || dpkg --compare-versions "$v" ge "$version"; then
		cat "$tmp/$n.items" >>"$top"
	else
		entries="$entries $n"
	fi
	n=$((n + 1))
done
{
	echo "workbench ($version) unstable; urgency=medium"
	echo
	if [ -s "$top" ] && grep -q . "$top"; then emit "$top"; else echo "  * No changes recorded."; fi
	echo
	echo " -- $maint  $(rfc2822 "@$epoch")"
	for n in $entries; do
		read -r v d <"$tmp/$n.head"
		echo
		echo "workbench ($v) unstable; urgency=medium"
		echo
		emit "$tmp/$n.items"
		echo
		echo " -- $maint  $(rfc2822 "$d 12:00:00 UTC")"
	done
} >"$tmp/changelog"
gzip -9n -c "$tmp/changelog" >"$out/changelog.gz"
