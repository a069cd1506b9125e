# db_symlink_mode.sh - a progress database created through a symbolic
# link to a missing file (a first use on a new machine, the link into a
# synced folder) is made 0600 like one created at a plain path, whatever
# the umask (review r3 N14); a chain of two links too.
. "$(dirname "$0")/../lib/common.sh"

mode() { stat -c %a "$1"; }
umask 022
answer() { printf '1\n' | "$WB_BIN" --db "$1" quiz run 01-locks-ids-leases --plain --limit 1 >/dev/null 2>&1; }
answer "$T/plain.db"
[ "$(mode "$T/plain.db")" = 600 ] || fail "a plain new database is $(mode "$T/plain.db")"
mkdir "$T/synced"
ln -s synced/target.db "$T/link.db"
answer "$T/link.db"
[ -f "$T/synced/target.db" ] || fail "no database made through the link"
[ -L "$T/link.db" ] || fail "the link was replaced"
[ "$(mode "$T/synced/target.db")" = 600 ] || fail "the database made through a link is $(mode "$T/synced/target.db")"
ln -s "$T/link2.db" "$T/link1.db"
ln -s synced/chain.db "$T/link2.db"
answer "$T/link1.db"
[ "$(mode "$T/synced/chain.db")" = 600 ] || fail "the database made through two links is $(mode "$T/synced/chain.db")"
# the answers are there, read through the link
"$WB_BIN" --db "$T/link.db" progress export | grep -q '^uid,' || fail "no export through the link"
echo ok
