# stats_axis.sh - the dates under the points chart never run together:
# with two tests the last date follows the first after spaces (ux.md,
# further problems: the stats axis showed "12-0112-02").
. "$(dirname "$0")/../lib/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3"

DB="$T/progress.db"
tui_start 80 24 "--content $WB_SRC --db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys q
wait_for "EXITED:0"
# Two tests on 1 and 2 December (noon UTC: the same day in any zone
# within 11 hours).
for d in 1 2; do
	ms=$(TZ=UTC date -d "2024-12-0$d 12:00:00" +%s)000
	sqlite3 "$DB" "INSERT INTO quiz_answer (uid, test_uid, question, chapter, lang, kind,
		shown_at, graded_at, points, max_points, grade, closed_book) VALUES
		('a$d', 't$d', 'q$d', '01-locks-ids-leases', 'en', 'recall', $ms, $ms + 1000,
		 1, 2, 2, 1)" || fail "cannot insert test $d"
done
tui_start 80 24 "--content $WB_SRC --db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys p
wait_for "12-01"
screen | grep -q "12-01  *12-02" || fail "the axis dates run together: $(screen | grep 12-01)"
keys q
wait_for "? help  q quit"
keys q
wait_for "EXITED:0"
