-- alloc.sql: allocate :n numbers of sequence :name (see TASK.md beside it).
-- Return one row with the columns first, last and generation, or no row
-- to refuse.
--
-- The rules the check judges (task: `workbench exercise start segment-alloc`):
--   returns-new-range: first = new high_water - :n + 1, last = new high_water
--   moves-h-by-n: high_water grows by exactly :n
--   generation-advances: generation + 1, and the row returns the new one
--   behind-witness-refused: generation behind the witness's: no row
--   caught-up-served: equal to or ahead of the witness's, or no witness row: serve
--   sequences-independent: only :name's row, only :name's witness row
--   unknown-name-refused: no row for :name: no row returned, none created
--   overtaken-no-overlap: no separate read that another allocator can slip past
--
-- TODO: this starter moves h but never asks the witness.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
