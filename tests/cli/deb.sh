# deb.sh - the Debian package as cpack builds it, without installing it
# (.ci/deb installs, runs and removes it for real): Depends name the
# libraries the binary links, Recommends the servers, and the files land
# under /usr where man, bash-completion and the binary look for them.
# Skips (77) without cpack, dpkg-deb, dpkg-shlibdeps or the CPack config.
. "$(dirname "$0")/../lib/common.sh"
build=$(dirname "$WB_BIN")
for t in cpack dpkg-deb dpkg-shlibdeps; do
	command -v $t >/dev/null 2>&1 || skip "$t is not installed"
done
[ -f "$build/CPackConfig.cmake" ] || skip "no CPackConfig.cmake in $build"
[ -f "$build/doc/workbench.1.gz" ] || skip "no man page built (scdoc missing)"

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$T/pkg" >"$T/log" 2>&1 ||
	fail "cpack: $(tail -n 20 "$T/log")"
set -- "$T/pkg"/workbench_*.deb
[ -f "$1" ] || fail "no workbench_*.deb: $(ls "$T/pkg")"
deb=$1

# Every shared library the binary itself needs (its NEEDED entries, as
# dpkg-shlibdeps reads them; not what those libraries pull in, such as
# libgcc_s under a sanitizer's runtime) is a Depends (by its package).
depends=$(dpkg-deb -f "$deb" Depends)
checked=0
needed=$(readelf -d "$WB_BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for so in $(ldd "$WB_BIN" | awk -v n="$needed" 'BEGIN { split(n, a, "\n"); for (i in a) want[a[i]] = 1 }
	$3 ~ /^\// && ($1 in want) {print $3}'); do
	pkg=$(dpkg -S "$(readlink -f "$so")" 2>/dev/null | head -n 1 | cut -d: -f1)
	[ -n "$pkg" ] || pkg=$(dpkg -S "$so" 2>/dev/null | head -n 1 | cut -d: -f1)
	[ -n "$pkg" ] || continue
	echo "$depends" | grep -q "$pkg" || fail "Depends lacks $pkg (for $so): $depends"
	checked=$((checked + 1))
done
[ $checked -ge 7 ] || fail "only $checked of the binary's libraries were traced to a package"
for p in zookeeper default-jre-headless redis-server; do
	dpkg-deb -f "$deb" Recommends | grep -q "$p" || fail "Recommends lacks $p"
done
[ "$(dpkg-deb -f "$deb" Package)" = workbench ] || fail "package name"
dpkg-deb -c "$deb" | awk '{print $6}' >"$T/files"
for f in ./usr/bin/workbench ./usr/share/man/man1/workbench.1.gz \
	./usr/share/bash-completion/completions/workbench \
	./usr/share/workbench/lessons/en/01-locks-ids-leases.md \
	./usr/share/workbench/quizzes/zh/02-zookeeper-fencing.md ./usr/share/doc/workbench/labs.md \
	./usr/share/workbench/data/zk/MultiPeer.java; do
	grep -qx -- "$f" "$T/files" || fail "the package lacks $f"
done
grep -v '^\./usr/' "$T/files" | grep -v '^\./$' >"$T/outside" && fail "files outside /usr: $(cat "$T/outside")"
echo "deb: $(wc -l <"$T/files") entries, $checked libraries traced; Depends: $depends"
