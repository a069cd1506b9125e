# glossary.sh - the glossary screen in tmux: w in the reader opens the
# chapter language's glossary, t lists the terms and jumps to one, /
# searches, L switches to the other language at the same entry, ? lists
# the screen's keys, q goes back to the reader where it was.
. "$(dirname "$0")/../lib/common.sh"

DB="$T/progress.db"
tui_start 80 24 "--content $WB_SRC --db $DB --lang en"
wait_for "Lock recipes, IDs and task leases"
keys Enter
wait_for "%  ? help"
keys j j
wait_gone "═══" # the title's underline scrolled away
before=$(screen | head -n 1)

keys w
wait_for "t terms  / search  q back"
screen | head -n 1 | grep -q "Glossary" || fail "the glossary does not start at its title"

# The list of terms: the third entry goes to the top.
keys t
wait_for "Terms (Enter goes there"
keys j j Enter
wait_gone "Terms (Enter goes there"
[ "$(screen | head -n 1 | sed 's/^ *//')" = "claim_version" ] ||
	fail "term list jump: $(screen | head -n 1)"
screen | tail -n 1 | grep -q "Glossary › claim_version" || fail "status line does not name the entry"

# Help lists the screen's keys.
keys '?'
wait_for "Keys on this screen"
screen | grep -q "list of terms" || fail "help does not list t"
keys x
wait_gone "Keys on this screen"

# Search.
keys / q u o r u m Enter
wait_for "Match 1 of"
screen | grep -q "majority of an ensemble" || fail "search did not scroll to quorum"

# Language switch keeps the entry.
keys t
wait_for "Terms (Enter goes there"
keys g
keys Escape
wait_gone "Terms (Enter goes there"
keys g t j j j j j Enter
wait_for "cversion"
keys L
wait_for "t 术语列表"
screen | head -n 1 | grep -q "子节点版本（cversion）" || fail "L lost the entry: $(screen | head -n 1)"
keys L
wait_for "t terms  / search"

# q goes back to the reader, at the same place.
keys q
wait_for "%  ? help"
[ "$(screen | head -n 1)" = "$before" ] || fail "back in the reader at another place"
keys q
wait_for "Enter open"
keys q
echo ok
