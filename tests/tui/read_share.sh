# read_share.sh - "% read" is the share of the chapter's lines the
# learner has had on screen, not the furthest scroll point (ux.md, further
# problems: one G marked a chapter 100% read): G shows only the last
# page; paging through every page makes it 100%; a restart keeps it; a
# database from before (schema 4, furthest point 100%) is migrated to
# the new measure and starts at 0%.
. "$(dirname "$0")/../lib/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3"

DB="$T/progress.db"
ARGS="--content $WB_FIXTURES --db $DB --lang en"
# The share read on the home row of the fixture chapter.
share() { screen | grep "Fixture chapter" | sed 's/.* \([0-9]*\)% read.*/\1/'; }

tui_start 80 24 "$ARGS"
wait_for "0% read"
keys Enter
wait_for "%  ? help"
keys G
wait_for "100%  ? help"
keys q
wait_for "% read"
pct=$(share)
[ "$pct" -gt 0 ] && [ "$pct" -lt 100 ] || fail "after G alone the chapter is $pct% read"

# Every page from the top: 100%.
keys Enter
wait_for "%  ? help"
keys g
deadline=$(($(date +%s) + 60))
until screen | head -n 1 | grep -q "Fixture chapter"; do # g has been drawn
	[ "$(date +%s)" -ge "$deadline" ] && fail "g did not go to the start"
	sleep 0.05
done
n=0
until screen | tail -n 1 | grep -q "100%  ? help"; do
	keys Space
	n=$((n + 1))
	[ $n -le 200 ] || fail "Space never reached the end"
	sleep 0.05
done
keys q
wait_for "100% read"
keys q
wait_for "EXITED:0"

# A restart keeps it.
tui_start 80 24 "$ARGS"
wait_for "100% read"
keys q
wait_for "EXITED:0"

# A schema-4 database (the furthest point, 100%) starts at 0%.
sqlite3 "$DB" "ALTER TABLE reading DROP COLUMN seen; UPDATE reading SET furthest_permille = 1000;
	PRAGMA user_version = 4;" || fail "cannot make a schema-4 database"
tui_start 80 24 "$ARGS"
wait_for "% read"
[ "$(share)" = 0 ] || fail "the old furthest point survived the migration: $(share)% read"
keys q
wait_for "EXITED:0"
[ "$(sqlite3 "$DB" 'PRAGMA user_version')" -ge 5 ] || fail "not migrated to schema 5 or later"
